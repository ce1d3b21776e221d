"""A broker restart is survived: an upload while the broker is down stores its games with
their verdicts pending (the upload succeeds, the failure to queue is logged once with what to
do), a statistics update that cannot be queued is made at once instead, the worker reconnects
by itself when the broker is back, and ``manage.py reverify --pending`` queues what the
outage left pending, which is then verified and counted once.

The broker is a private ``redis-server`` on a port of its own, keeping nothing on disk (as in
CI), so its restart also loses whatever was queued: the same command recovers that.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

from engine.formats import canonical
from mjlogs.importing import import_file
from mjlogs.models import Game
from replay.models import Verdict, Verification
from stats.models import PlayerSummary, RatingChange
from tests.integration.counting import (
    assert_counted_once,
    counted_games_of,
    named_game,
    wait_until_done,
)
from tests.integration.http_client import request, upload
from tests.integration.processes import Processes, RedisServer, manage, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Lan", "Mei", "Nao", "Oto"]


def test_uploads_while_the_broker_is_down_are_verified_once_it_is_back(
    service_env: dict[str, str], private_redis: RedisServer, processes: Processes
) -> None:
    env = {**service_env, "CELERY_BROKER_URL": private_redis.url}
    worker = processes.worker(env)
    site = processes.web(env)
    user = get_user_model().objects.create_user("uploader")
    token = Token.objects.create(user=user).key
    deleted_players = ["Iku", "Jun", "Kei", "Rin"]
    before = upload(
        site.url, token, "before.json", canonical.write([named_game(43, deleted_players)])
    )
    assert before.status == 201, before.text
    deleted = before.json()["outcomes"][0]["game_id"]
    wait_until_done(private_redis.url, [deleted], worker)

    private_redis.stop()
    games = [
        named_game(44, ["Lan", "Mei", "Nao", "Oto"]),
        named_game(45, ["Pei", "Qiu", "Ryo", "Shu"]),
    ]
    during = upload(site.url, token, "outage.jsonl", canonical.write(games))
    # Deleting a game changes its players' statistics: with no broker to queue the update,
    # the site makes it itself.
    removed = request(
        f"{site.url}/api/games/{deleted}/",
        headers={"Authorization": f"Token {token}"},
        method="DELETE",
    )

    assert during.status == 201, during.text
    outcomes = during.json()["outcomes"]
    assert [outcome["status"] for outcome in outcomes] == ["imported", "imported"]
    stored = [outcome["game_id"] for outcome in outcomes]
    assert sorted(Game.objects.values_list("pk", flat=True)) == sorted(stored)
    assert not Verification.objects.filter(game_id__in=stored).exists()  # "Not verified yet"
    log = site.log()
    # One attempt to reach the broker for the whole upload, then the rest is left pending.
    assert log.count("The task broker cannot be reached") == 1 + 2  # the upload, the deletion
    assert "2 games stored with their verification pending" in log
    assert "manage.py reverify --pending" in log
    assert removed.status == 204, removed.text
    assert counted_games_of(deleted_players) == dict.fromkeys(deleted_players, 0)
    assert not RatingChange.objects.exists()
    assert "Traceback" not in log

    private_redis.start()  # the same port, and empty: nothing was kept
    connected = f"Connected to redis://:**@127.0.0.1:{private_redis.port}/0"  # as logged
    wait_until(lambda: worker.log().count(connected) == 2, 60, "the worker to reconnect", worker)
    requeued = manage(env, "reverify", "--pending", "--quiet")
    assert requeued.returncode == 0, requeued.stderr
    assert requeued.stdout == "2 games queued for verification\n"

    wait_until_done(private_redis.url, stored, worker)
    verdicts = Verification.objects.values_list("verdict", flat=True)
    assert list(verdicts) == [Verdict.VERIFIED] * 2
    assert_counted_once(stored)
    assert set(PlayerSummary.objects.values_list("games", flat=True)) == {1}
    assert counted_games_of(deleted_players) == dict.fromkeys(deleted_players, 0)
    again = manage(env, "reverify", "--pending", "--quiet")
    assert again.stdout == "0 games queued for verification\n"


def test_pending_games_are_only_those_never_verified() -> None:
    """``reverify --pending`` leaves a verdict of an older engine alone (``--outdated`` is for
    those), and refuses to be combined with ``--outdated``."""
    ids = []
    for seed in (44, 45, 46):
        (outcome,) = import_file(f"{seed}.json", canonical.write([named_game(seed, NAMES)]))
        ids.append(outcome.game_id)
    Verification.objects.filter(game_id=ids[0]).update(engine_version="0.0.1")
    Verification.objects.filter(game_id=ids[1]).delete()
    out = StringIO()
    call_command("reverify", "--pending", "--quiet", stdout=out)
    assert out.getvalue() == "1 games verified: 1 verified\n"
    assert Verification.objects.get(game_id=ids[0]).engine_version == "0.0.1"
    with pytest.raises(CommandError, match="not allowed with argument"):
        call_command("reverify", "--pending", "--outdated")
