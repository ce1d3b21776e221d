"""Migration mjlogs.0004: the games verified whole before seats kept their points get them from
their verification's report; the others keep none."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from mjlogs.models import GameSeat

pytestmark = pytest.mark.django_db(transaction=True)

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
