"""The data the migrations fill in: mjlogs.0004 gives the games verified whole before seats kept
their points those of their verification's report (the others none); mjlogs.0005 gives the Tenhou
games stored before their room, from their documents' source."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from mjlogs.models import Game, GameSeat

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_schema_after"),
]

BEFORE = [
    ("mjlogs", "0003_game_identity_by_visibility"),
    ("replay", "0003_verification_frames_index"),
]
AFTER = [("mjlogs", "0004_seat_points")]


def test_the_migration_fills_the_points_of_games_verified_whole() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    player = apps.get_model("mjlogs", "Player").objects.create(name="P")
    games = {}
    for verdict, source_id in (("verified", "whole"), ("score_mismatch", "wrong")):
        game = apps.get_model("mjlogs", "Game").objects.create(
            ruleset="tenhou-4p", players_count=4, rounds_count=1, complete=True,
            source_format="canonical", source_id=source_id, content_hash=source_id,
            document={}, raw=b"", raw_size=0,
        )  # fmt: skip
        for seat in range(4):
            apps.get_model("mjlogs", "GameSeat").objects.create(
                game=game, seat=seat, player=player, start_score=25000
            )
        apps.get_model("replay", "Verification").objects.create(
            game=game, verdict=verdict, complete=True,
            report={"points": [48.0, 4.0, -17.0, -35.0]},
        )  # fmt: skip
        games[source_id] = game.pk
    MigrationExecutor(connection).migrate(AFTER)
    points = {
        source_id: list(
            GameSeat.objects.filter(game_id=pk).order_by("seat").values_list("points", flat=True)
        )
        for source_id, pk in games.items()
    }
    assert points == {"whole": [48.0, 4.0, -17.0, -35.0], "wrong": [None] * 4}


def test_the_migration_gives_stored_tenhou_games_their_room() -> None:
    before = [("mjlogs", "0004_seat_points")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    game = executor.loader.project_state(before).apps.get_model("mjlogs", "Game")
    sources = {
        "houou": ("mjlog", {"go_type": "169", "lobby": "0"}),
        "custom": ("mjlog", {"go_type": "9", "lobby": "7994"}),
        "tokujou": ("tenhou6", {"disp": "特南喰赤"}),
        "canonical": ("canonical", {"go_type": "169"}),  # not a Tenhou record: no room
    }
    for source_id, (source_format, extra) in sources.items():
        game.objects.create(
            ruleset="tenhou-4p", players_count=4, rounds_count=1, complete=True,
            source_format=source_format, source_id=source_id, content_hash=source_id,
            document={"source": {"format": source_format, "extra": extra}}, raw=b"", raw_size=0,
        )  # fmt: skip
    MigrationExecutor(connection).migrate([("mjlogs", "0005_game_room")])
    rooms = dict(Game.objects.values_list("source_id", "room"))
    assert rooms == {"houou": "houou", "custom": "custom", "tokujou": "tokujou", "canonical": ""}
