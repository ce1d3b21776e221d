"""The room filter on the leaderboard (page and API) and on a player's statistics: only the games
of that room count."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from engine.formats import canonical, get_format, read_games
from engine.sim.selfplay import simulate
from mjlogs.importing import import_file
from mjlogs.models import Game, Player
from tests.people import played_by

pytestmark = pytest.mark.django_db


def _stored(committed: Any, seed: int, names: tuple[str, ...], go_type: str) -> Game:
    (played,) = simulate("tenhou-4p-east", 1, seed)
    document = played_by(canonical.game_to_json(played), names)
    # A Tenhou record (tenhou.net/6; a canonical record's room is only its claim): the room
    # comes from its GO type (0x20 tokujou, 0xA0 houou), which the writer turns into its disp.
    document["source"] = {"format": "mjlog", "id": f"room-{seed}", "extra": {"go_type": go_type}}
    games, _ = read_games(json.dumps(document).encode())
    write = get_format("tenhou6").write
    assert write is not None
    with committed(execute=True):
        (outcome,) = import_file("g.json", write(games))
    return Game.objects.get(pk=outcome.game_id)


def test_the_room_filter_narrows_the_leaderboard_and_the_stats(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    houou = _stored(django_capture_on_commit_callbacks, 1, ("Ann", "Ben", "Cat", "Dan"), "169")
    tokujou = _stored(django_capture_on_commit_callbacks, 2, ("Ann", "Eve", "Fay", "Gus"), "41")
    assert (houou.room, tokujou.room) == ("houou", "tokujou")
    query = {"metric": "average_placement", "min_games": 1, "room": "houou"}
    names = {
        row["player"]["name"]
        for row in client.get("/api/stats/leaderboard/", query).json()["results"]
    }
    assert names == {"Ann", "Ben", "Cat", "Dan"}
    page = client.get("/stats/leaderboard/", {**query, "room": "tokujou"}).content.decode()
    assert "Eve" in page and "Ben" not in page
    ann = Player.objects.get(name="Ann")
    counted = client.get(f"/api/players/{ann.pk}/stats/", {"room": "houou"}).json()["counts"]
    assert counted["games"] == 1
    assert client.get("/api/stats/leaderboard/", {**query, "room": "nowhere"}).status_code == 400
