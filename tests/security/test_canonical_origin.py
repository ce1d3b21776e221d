"""What a canonical upload says of its origin is its claim (issue 40, item 7).

A canonical document carries a ``source`` (format, log id, room, ...) that anyone can write. Before,
a self-played game uploaded as canonical JSON with ``source.format: "mjlog"`` and a real Tenhou
player's name seated that player: the game counted in their statistics, in the room it claimed.
Now the platform a seat's name belongs to, and the room, come from the format the file was read
in (``mjlogs.provenance``): a canonical record's names are the canonical record's own players,
whatever its source claims; only the claim to be our own self-play (bots, never ranked) is taken,
as it can only lower a seat's standing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from mjlogs.models import Game, GameSeat, PlayerKind
from tests.api.conftest import client_for, self_played_document

pytestmark = pytest.mark.django_db(transaction=True)

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
MJLOG = REAL / "mjlog_xml" / "tsubakisakura__mjlog2json" / "2019103023gm-00a9-0000-f90e0fe9.xml"


def upload(user: User, data: bytes, name: str) -> dict[str, Any]:
    response = client_for(user).post(
        "/api/uploads/", data, content_type="application/octet-stream", HTTP_X_FILE_NAME=name
    )
    assert response.status_code == 201, response.content
    (outcome,) = response.json()["outcomes"]
    assert outcome["status"] == "imported", outcome
    return dict(outcome)


def seats(game_id: int) -> list[GameSeat]:
    return list(GameSeat.objects.filter(game_id=game_id).select_related("player").order_by("seat"))


def claiming(
    source: dict[str, Any], names: tuple[str, ...], seed: int = 3, **changes: Any
) -> bytes:
    """A self-played game seating ``names``, whose canonical source claims ``source``."""
    document = self_played_document(seed, names)
    document["source"] = source
    document.update(changes)
    return json.dumps(document).encode()


@pytest.fixture
def tenhou_player(alice: User) -> tuple[str, int]:
    """A real Tenhou game's first seat: the name and its player."""
    game = upload(alice, MJLOG.read_bytes(), MJLOG.name)
    first = seats(game["game_id"])[0]
    assert (first.player.platform, first.player.kind) == ("tenhou", PlayerKind.PERSON)
    return first.player.name, first.player_id


@pytest.mark.parametrize(
    ("source", "ruleset"),
    [
        ({"format": "mjlog", "id": "2099010100gm-00a9-0000-00000000",
          "extra": {"go_type": "169", "lobby": "0"}}, None),
        ({"format": "tenhou6", "extra": {"disp": "鳳南喰赤", "lobby": "0"}}, None),
        ({"format": "mjai"}, None),
        ({"format": "tenhou6", "extra": {"disp": "玉の間"}}, "majsoul-4p-east"),
    ],
    ids=["mjlog", "tenhou6", "mjai", "majsoul"],
)  # fmt: skip
def test_a_canonical_record_seats_no_platforms_player(
    alice: User, tenhou_player: tuple[str, int], source: dict[str, Any], ruleset: str | None
) -> None:
    name, player_id = tenhou_player
    changes = {"ruleset": ruleset} if ruleset else {}
    forged = upload(alice, claiming(source, (name, "b", "c", "d"), **changes), "forged.json")
    first = seats(forged["game_id"])[0]
    assert first.player_id != player_id, "the forged game counts as the Tenhou player's"
    assert (first.player.name, first.player.platform) == (name, "canonical")
    assert GameSeat.objects.filter(player_id=player_id).count() == 1
    assert Game.objects.get(pk=forged["game_id"]).room == "", "the claimed room is taken"


def test_two_canonical_records_of_one_name_are_one_canonical_player(alice: User) -> None:
    source = {"format": "mjlog", "extra": {"go_type": "169"}}
    one = upload(alice, claiming(source, ("Ann", "b", "c", "d")), "one.json")
    plain = claiming({"format": "canonical"}, ("Ann", "e", "f", "g"), seed=4)
    two = upload(alice, plain, "two.json")
    assert seats(one["game_id"])[0].player_id == seats(two["game_id"])[0].player_id


def test_a_claim_of_self_play_is_taken_bots_stay_bots(alice: User) -> None:
    game = upload(alice, json.dumps(self_played_document(5)).encode(), "self-play.json")
    assert {(seat.player.platform, seat.player.kind) for seat in seats(game["game_id"])} == {
        ("sim", PlayerKind.BOT)
    }


def test_the_stored_document_keeps_its_claim(alice: User) -> None:
    """The record is kept as written: its claim is shown as the record's, not acted on."""
    source = {"format": "mjlog", "id": "2099010100gm-00a9-0000-00000000"}
    game = upload(alice, claiming(source, ("Ann", "b", "c", "d")), "claim.json")
    stored = Game.objects.get(pk=game["game_id"])
    assert stored.document["source"]["format"] == "mjlog"
    assert stored.source_format == "canonical"
