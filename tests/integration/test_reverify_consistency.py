"""Re-verification after an engine upgrade updates verdicts and statistics consistently.

The "upgrade" is simulated: verdicts are stored as an older engine (``0.0.1``) gave them,
with a rule bug that the current engine fixes, so the current engine disagrees on two games:

- game A verifies now, but the old engine called it a score mismatch (so it was not counted);
- game B has a final score the current engine rejects, but the old engine verified it (so its
  hands were counted);
- game C verifies under both (only the version its verdict records changes).

``reverify --outdated`` must leave A counted and B not, in every summary and rating, exactly
as statistics computed from scratch; running it again changes nothing; and two reverifies run
at once through two workers, each game verified twice and maybe at the same moment, end the
same with no task failing.

Also here: two updates of one player's summary at once (two workers, two games of theirs
verified together) must end with the later figures, not whichever wrote last.
"""

from __future__ import annotations

import io
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

import engine
from engine.formats import canonical
from engine.replay import replay
from mjlogs.importing import import_file
from mjlogs.models import Player
from replay.models import Verdict, Verification
from replay.services import game_verify
from stats import services as stats_services
from stats.catch_up import player_summaries_update
from stats.models import PlayerSummary, RatingChange, RoundFact
from stats.services import game_facts_replace, ratings_recompute
from tests.integration.conftest import _missing
from tests.integration.counting import (
    clean_statistics,
    counted_games_of,
    engine_facts,
    named_game,
    snapshot,
)
from tests.integration.processes import ROOT, Processes, broker_idle, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

OLD_ENGINE = "0.0.1"
# A's and B's players apart, and C's table two of each, so that some players gain a game,
# some lose one, and some do both.
A_PLAYERS = ["Hiro", "Ichi", "Jiro", "Kaz"]
B_PLAYERS = ["Leo", "Mio", "Noa", "Oki"]
C_PLAYERS = ["Hiro", "Ichi", "Leo", "Mio"]
EVERYONE = sorted(set(A_PLAYERS + B_PLAYERS + C_PLAYERS))


def stored_under_the_old_engine() -> dict[str, int]:
    """Import games A, B and C and rewrite their verdicts and facts as the old engine left
    them, with statistics computed from those. Returns the games' ids by letter."""
    games = {
        "A": named_game(80, A_PLAYERS),
        "B": named_game(81, B_PLAYERS),
        "C": named_game(82, C_PLAYERS),
    }
    b_facts = replay(games["B"]).facts
    wrong = canonical.game_to_json(games["B"])
    wrong["final"]["scores"][0] += 1000  # what the current engine finds and the old did not
    games["B"] = canonical.game_from_json(wrong)
    ids = {}
    for letter, game in games.items():
        (outcome,) = import_file(f"{letter}.json", canonical.write([game]))
        assert outcome.game_id is not None
        ids[letter] = outcome.game_id
    assert Verification.objects.get(game_id=ids["B"]).verdict == Verdict.SCORE_MISMATCH

    Verification.objects.update(engine_version=OLD_ENGINE)
    Verification.objects.filter(game_id=ids["A"]).update(verdict=Verdict.SCORE_MISMATCH)
    game_facts_replace(ids["A"], None)
    Verification.objects.filter(game_id=ids["B"]).update(verdict=Verdict.VERIFIED)
    game_facts_replace(ids["B"], b_facts)
    PlayerSummary.objects.all().delete()
    RatingChange.objects.all().delete()
    player_summaries_update(Player.objects.values_list("pk", flat=True))
    ratings_recompute(None)
    return ids


def assert_upgraded(ids: dict[str, int], before: dict[str, int]) -> None:
    """A counts now, B no longer, C as before: verdicts, facts, summaries and ratings all say
    so, and equal statistics computed from scratch."""
    verdicts = dict(Verification.objects.values_list("game_id", "verdict"))
    assert verdicts == {
        ids["A"]: Verdict.VERIFIED,
        ids["B"]: Verdict.SCORE_MISMATCH,
        ids["C"]: Verdict.VERIFIED,
    }
    assert set(Verification.objects.values_list("engine_version", flat=True)) == {
        engine.__version__
    }
    for game_id in ids.values():
        assert RoundFact.objects.filter(game_id=game_id).count() == engine_facts(game_id)
    assert RoundFact.objects.filter(game_id=ids["B"]).count() == 0
    after = counted_games_of(EVERYONE)
    for name in EVERYONE:
        change = (name in A_PLAYERS) - (name in B_PLAYERS)
        assert after[name] == before[name] + change, name
    rated = set(RatingChange.objects.values_list("game_id", flat=True))
    assert rated == {ids["A"], ids["C"]}
    upgraded = snapshot()
    assert upgraded == clean_statistics()


def reverify(*args: str) -> str:
    out = io.StringIO()
    call_command("reverify", *args, "--quiet", stdout=out)
    return out.getvalue()


def test_reverify_after_an_upgrade_moves_games_in_and_out_of_the_statistics() -> None:
    ids = stored_under_the_old_engine()
    before = counted_games_of(EVERYONE)
    assert before["Kaz"] == 0 and before["Noa"] == 1 and before["Hiro"] == 1

    assert reverify("--outdated") == "3 games verified: 1 score_mismatch, 2 verified\n"
    assert_upgraded(ids, before)

    upgraded = snapshot()
    assert reverify("--outdated") == "0 games verified\n"
    assert reverify() == "3 games verified: 1 score_mismatch, 2 verified\n"
    assert snapshot() == upgraded


def test_two_reverifies_at_once_through_two_workers_count_each_game_once(
    service_env: dict[str, str], processes: Processes
) -> None:
    ids = stored_under_the_old_engine()
    before = counted_games_of(EVERYONE)
    # Both queue every game (one batch each): each is verified twice, on two of the four pool
    # processes at once. (The workers start meanwhile; the tasks wait in the queue for them.)
    commands = [
        subprocess.Popen(
            [sys.executable, "manage.py", "reverify", "--quiet"],
            cwd=ROOT,
            env=service_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(2)
    ]
    workers = processes.workers(service_env, names=["w1", "w2"], concurrency=2)
    for command in commands:
        output, _ = command.communicate(timeout=120)
        assert command.returncode == 0, output
        assert output == "3 games queued for verification\n"

    broker = service_env["CELERY_BROKER_URL"]

    def done() -> bool:
        current = Verification.objects.filter(engine_version=engine.__version__).count() == 3
        return current and broker_idle(broker)

    def settled() -> bool:
        if not done():
            return False
        time.sleep(0.5)
        return done()

    wait_until(settled, 90, "both reverifies", *workers)
    for worker in workers:
        assert "ERROR" not in worker.log(), worker.log()[-3000:]
    ran = sum(worker.log().count("Task replay.tasks.verify_games[") for worker in workers)
    assert ran >= 2 * 2  # received and succeeded: each reverify's batch of the three games
    assert_upgraded(ids, before)


def test_an_update_of_a_player_in_flight_does_not_hide_a_game_verified_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Worker 1 updates Pat's summary (one game) and is slow to write it; meanwhile worker 2
    verifies Pat's second game and updates the summary (two games). Worker 1's figures must
    not be the last word: Pat's summary ends with two games."""
    if connection.vendor != "postgresql":
        _missing("PostgreSQL (DATABASE_URL=postgres://...) is needed for concurrent workers")
    names = ["Pat", "Quy", "Rei", "Sam"]
    first, second = (
        import_file(f"{seed}.json", canonical.write([named_game(seed, names)]))[0].game_id
        for seed in (83, 84)
    )
    assert first is not None and second is not None
    Verification.objects.filter(game_id=second).delete()  # its verification still to come
    game_facts_replace(second, None)
    pat = Player.objects.get(name="Pat")
    player_summaries_update([pat.pk])
    assert PlayerSummary.objects.get(player=pat).games == 1

    computed = threading.Event()
    resume = threading.Event()
    slow = threading.local()  # set in worker 1's thread only
    compute = stats_services.public_summaries_of

    def computed_then_slow(player_ids: Any) -> Any:
        figures = compute(player_ids)
        if getattr(slow, "on", False):
            computed.set()
            resume.wait(timeout=30)
        return figures

    monkeypatch.setattr(stats_services, "public_summaries_of", computed_then_slow)
    errors: list[BaseException] = []

    def in_thread(work: Callable[[], object]) -> threading.Thread:
        def run() -> None:
            try:
                work()
            except BaseException as error:  # reported by the test below
                errors.append(error)
            finally:
                connection.close()

        thread = threading.Thread(target=run)
        thread.start()
        return thread

    def slow_update() -> None:
        slow.on = True
        player_summaries_update([pat.pk])

    worker1 = in_thread(slow_update)
    assert computed.wait(timeout=30)
    # Worker 2: the verification commits, then updates the four players' summaries (Celery
    # runs that task in-process here). Without a lock it is done well within the wait; with
    # one it waits for worker 1 to write first.
    worker2 = in_thread(lambda: game_verify(second))
    worker2.join(timeout=1.5)
    resume.set()
    for worker in (worker1, worker2):
        worker.join(timeout=30)
        assert not worker.is_alive()
    assert not errors

    assert Verification.objects.get(game_id=second).verdict == Verdict.VERIFIED
    assert PlayerSummary.objects.get(player=pat).games == 2
    assert snapshot() == clean_statistics()
