"""The same game uploaded by several people at once is stored once, and each is told the truth.

The uploads go over HTTP to pytest-django's live server (a thread per request, a database
connection each) on PostgreSQL. A hook holds every upload at its first game's insert until all
of them are there, so they all have looked for the game, found nothing, and insert it at the
same moment: the database's unique constraints (the record's hash, one counted copy of a play)
let one win, and the others wait for it and then report its game as a duplicate. The same game
in another format (another record of the same play) is caught the same way: a duplicate, or a
copy of the game when it says more, never a second game that counts.

Two uploads holding the same two games in opposite orders each wait for the other's first
game: PostgreSQL aborts one to break the deadlock, and that upload is tried again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import QuerySet
from django.db.models.signals import pre_save
from rest_framework.authtoken.models import Token

from engine.formats import canonical, get_format
from mjlogs.models import Game, GameSeat, Player, PlayerName
from tests.integration.conftest import _missing
from tests.integration.counting import named_game
from tests.integration.http_client import Answer, upload

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql(transactional_db: None) -> None:
    if connection.vendor != "postgresql":
        _missing("PostgreSQL (DATABASE_URL=postgres://...): SQLite runs one writer at a time")


@contextmanager
def held_at_first_insert(uploads: int) -> Iterator[None]:
    """Hold each upload (a request thread) at its first game's insert until ``uploads`` of
    them are there, then let them all go at once."""
    barrier = threading.Barrier(uploads, timeout=30)
    held = threading.local()
    bulk_create = QuerySet.bulk_create

    def hold(*args: Any, **kwargs: Any) -> None:
        if not getattr(held, "done", False):
            held.done = True
            barrier.wait()

    def holding_bulk_create(self: QuerySet[Any], *args: Any, **kwargs: Any) -> Any:
        if self.model is Game:  # an import's batch of games (mjlogs.importing.games_store)
            hold()
        return bulk_create(self, *args, **kwargs)

    # A batch inserts its games with bulk_create (no signal); a game stored on its own after a
    # conflict is saved (pre_save).
    pre_save.connect(hold, sender=Game, weak=False)
    QuerySet.bulk_create = holding_bulk_create  # type: ignore[method-assign]
    try:
        yield
    finally:
        QuerySet.bulk_create = bulk_create  # type: ignore[method-assign]
        pre_save.disconnect(hold, sender=Game)


def tokens(count: int) -> list[str]:
    users = get_user_model().objects
    return [Token.objects.create(user=users.create_user(f"uploader{n}")).key for n in range(count)]


def upload_at_once(base_url: str, files: list[tuple[str, bytes]]) -> list[Answer]:
    """Each file uploaded by an uploader of its own, all at the same time."""
    keys = tokens(len(files))
    with held_at_first_insert(len(files)), ThreadPoolExecutor(len(files)) as pool:
        answers = [
            pool.submit(upload, base_url, key, name, data)
            for key, (name, data) in zip(keys, files, strict=True)
        ]
        return [answer.result() for answer in answers]


def test_the_same_game_uploaded_at_once_in_two_formats_is_stored_once(live_server: Any) -> None:
    game = named_game(70, ["Vic", "Wen", "Xia", "Yui"])
    as_canonical = canonical.write([game])
    tenhou6 = get_format("tenhou6").write
    assert tenhou6 is not None
    as_tenhou6 = tenhou6([game])
    files = [("a.json", as_canonical), ("b.json", as_canonical)]
    files += [("c.tenhou6.json", as_tenhou6), ("d.tenhou6.json", as_tenhou6)]

    answers = upload_at_once(live_server.url, files)

    # Each record once; the game counted once. The tenhou.net/6 record says what the canonical
    # one does not (its lobby's room, its final results): stored after it, it is a copy of the
    # game (mjlogs.copies); before it, the canonical one is its duplicate.
    stored = list(Game.objects.order_by("pk"))
    assert len(stored) in (1, 2)
    (counted,) = [game for game in stored if game.copy_of_id is None]
    assert all(game.copy_of_id == counted.pk for game in stored if game is not counted)
    created = sorted(answer.status for answer in answers).count(201)
    assert created == len(stored), [answer.text[:500] for answer in answers]
    outcomes = [answer.json()["outcomes"][0] for answer in answers]
    assert {outcome["game_id"] for outcome in outcomes} == {game.pk for game in stored}
    statuses = sorted(outcome["status"] for outcome in outcomes)
    assert statuses == ["duplicate"] * (4 - len(stored)) + ["imported"] * len(stored)
    assert GameSeat.objects.count() == 4 * len(stored)
    assert Player.objects.count() == PlayerName.objects.count() == 4 * len(stored)


def test_two_uploads_of_two_games_in_opposite_orders_are_both_answered(
    live_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="mjlogs.importing")
    first = named_game(71, ["Zen", "Aki", "Ben", "Cho"])
    second = named_game(72, ["Dan", "Emi", "Fay", "Gin"])
    files = [("xy.jsonl", canonical.write([first, second]))]
    files += [("yx.jsonl", canonical.write([second, first]))]

    answers = upload_at_once(live_server.url, files)

    assert sorted(answer.status for answer in answers) == [200, 201], [
        answer.text[:500] for answer in answers
    ]
    counts = sorted(tuple(answer.json()["counts"].values()) for answer in answers)
    # (imported, duplicate, failed): one upload stored both, the other found both there.
    assert counts == [(0, 2, 0), (2, 0, 0)]
    assert Game.objects.count() == 2
    assert GameSeat.objects.count() == Player.objects.count() == 8
    # Which upload waits for which decides how the second one learns of the first's games: a
    # deadlock the database breaks (the upload is tried again), or a unique constraint its
    # batch meets once the first commits (its games are then stored one by one, as duplicates).
    retried = "Upload aborted by the database (SQLSTATE 40P01); trying again" in caplog.text
    one_by_one = "met a unique constraint" in caplog.text and "stored one by one" in caplog.text
    assert retried or one_by_one, caplog.text[-2000:]
