"""A bulk import stores its games in batches (``mjlogs.importing.games_store``, issue 21): one
look-up of the stored copies and of the players, the games, seats and new players inserted
together. The rows must be what storing one game at a time gives, the outcomes keep the files'
order, and a batch that meets a unique constraint (another import was quicker) is stored game
by game instead."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import mjlogs.importing
import mjlogs.storing
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.archives import UploadedFile
from mjlogs.importing import Status, import_file, import_files
from mjlogs.models import Game, GameSeat, Player, PlayerName
from tests.people import played_by

pytestmark = pytest.mark.django_db

NAMES = [("Ann", "Ben", "Cat", "Dan"), ("Ann", "Eve", "NoName", "Ben"), ("Fay", "", "Ann", "Gil")]


def documents() -> list[dict[str, Any]]:
    """Seven people's games: players met again across games, anonymous seats among them."""
    played = simulate("tenhou-4p-east", 7, 3301)
    return [
        played_by(canonical.game_to_json(game), NAMES[index % len(NAMES)])
        for index, game in enumerate(played)
    ]


def upload(name: str, document: dict[str, Any]) -> UploadedFile:
    return UploadedFile(name=name, data=json.dumps(document).encode())


@pytest.fixture
def batch_of_three(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mjlogs.importing, "STORE_BATCH", 3)


def stored_rows() -> list[tuple[Any, ...]]:
    """Every game with its seats and their players, without ids."""
    rows = []
    for game in Game.objects.order_by("pk"):
        seats = GameSeat.objects.filter(game=game).order_by("seat").select_related("player")
        rows.append(
            (
                game.content_hash, game.ruleset, game.players_count, game.rounds_count,
                game.complete, game.source_format, game.room, game.raw_name, game.raw_size,
                game.document, game.visibility,
                [
                    (s.seat, s.player.name, s.player.kind, s.start_score, s.final_score,
                     s.placement, s.recorded_rank)
                    for s in seats
                ],
            )
        )  # fmt: skip
    return rows


def people() -> tuple[int, list[tuple[str, str]]]:
    named = sorted(PlayerName.objects.values_list("platform", "name"))
    return Player.objects.count(), named


@pytest.mark.usefixtures("batch_of_three")
def test_a_batch_stores_what_one_game_at_a_time_stores() -> None:
    docs = documents()
    with CaptureQueriesContext(connection) as queries:
        summary = import_files(upload(f"{n}.json", doc) for n, doc in enumerate(docs))
    assert [o.status for o in summary.outcomes] == [Status.IMPORTED] * 7
    game_inserts = [q for q in queries if q["sql"].startswith('INSERT INTO "mjlogs_game" ')]
    assert len(game_inserts) == 3  # 3 + 3 + 1
    batched, batched_people = stored_rows(), people()
    # Anonymous seats are a player each; named players once however often they sat.
    assert batched_people[0] == 7 + 4  # Ann..Gil, and four anonymous seats (games 2, 3, 5, 6)
    Game.objects.all().delete()
    Player.objects.all().delete()
    for n, doc in enumerate(docs):
        import_file(f"{n}.json", json.dumps(doc).encode())
    assert stored_rows() == batched
    assert people() == batched_people


@pytest.mark.usefixtures("batch_of_three")
def test_outcomes_keep_the_files_order_and_a_game_twice_is_stored_once() -> None:
    docs = documents()[:4]
    files = [
        upload("a.json", docs[0]),
        UploadedFile(name="broken.json", data=b"{not json"),
        upload("b.json", docs[1]),
        upload("a-again.json", docs[0]),  # in the same batch as its first copy
        upload("c.json", docs[2]),
        UploadedFile(name="too-big.json", data=b"", problem="too big"),
        upload("b-again.json", docs[1]),  # in the next batch
        upload("d.json", docs[3]),
    ]
    summary = import_files(files)
    got = [(o.file, o.status) for o in summary.outcomes]
    assert got == [
        ("a.json", Status.IMPORTED),
        ("broken.json", Status.FAILED),
        ("b.json", Status.IMPORTED),
        ("a-again.json", Status.DUPLICATE),
        ("c.json", Status.IMPORTED),
        ("too-big.json", Status.FAILED),
        ("b-again.json", Status.DUPLICATE),
        ("d.json", Status.IMPORTED),
    ]
    ids = {o.file: o.game_id for o in summary.outcomes}
    assert ids["a-again.json"] == ids["a.json"] and ids["b-again.json"] == ids["b.json"]
    assert Game.objects.count() == 4


@pytest.mark.usefixtures("batch_of_three")
def test_a_batch_meeting_a_unique_constraint_is_stored_game_by_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another import stored a game of this batch, and created its players, after this batch
    looked them up: the batch's transaction fails on the unique constraints, and each game is
    stored on its own, finding the other import's game and players."""
    docs = documents()[:3]
    (first,) = import_file("earlier.json", json.dumps(docs[1]).encode())
    monkeypatch.setattr(mjlogs.storing, "_stored_ids", lambda *args: {})  # looked too early
    summary = import_files(upload(f"{n}.json", doc) for n, doc in enumerate(docs))
    statuses = [(o.status, o.game_id == first.game_id) for o in summary.outcomes]
    assert statuses == [
        (Status.IMPORTED, False),
        (Status.DUPLICATE, True),
        (Status.IMPORTED, False),
    ]
    assert Game.objects.count() == 3
    # Every seat has a player, and each name one player.
    names = PlayerName.objects.values_list("name", flat=True)
    assert sorted(names) == sorted(set(names))
    assert not GameSeat.objects.filter(player__isnull=True).exists()
    ann = PlayerName.objects.get(name="Ann").player
    assert GameSeat.objects.filter(player=ann).count() == 3
