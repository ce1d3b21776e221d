"""The Ùzje game record: the canonical JSON with UJMJ tiles (the Ùzje dialect), read back
exactly, and malformed input refused with the path of the bad value."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.errors import MalformedLogError
from engine.events import Game
from engine.formats import canonical
from engine.variants.uzje.selfplay import simulate


@pytest.fixture(scope="module")
def game() -> Game:
    return simulate(1, 5)[0]


@pytest.fixture(scope="module")
def data(game: Game) -> dict[str, Any]:
    return canonical.game_to_json(game)


def test_round_trip(game: Game, data: dict[str, Any]) -> None:
    assert canonical.game_from_json(json.loads(json.dumps(data))) == game
    assert canonical.loads(canonical.dumps(game)) == [game]


def test_shape_is_the_canonical_one(data: dict[str, Any]) -> None:
    assert data["format"] == "mjlogs-canonical" and data["version"] == 1
    # The preset pays a self-draw's half exactly; a record without the option means "up" (the
    # records written before "exact"), so the preset's games state it.
    assert data["ruleset"] == "uzje-4p"
    assert data["rule_overrides"] == {"self_draw_rounding": "exact"}
    first = data["rounds"][0]
    assert set(first) >= {"wind", "number", "dealer", "honba", "sticks", "scores", "hands"}
    assert [len(hand) for hand in first["hands"]] == [14, 13, 13, 13]
    assert len(first["wall"]["dora_indicators"]) == 16
    assert first["wall"]["replacements"] == []


def test_tiles_are_written_in_ujmj(data: dict[str, Any]) -> None:
    written = {tile for round_ in data["rounds"] for hand in round_["hands"] for tile in hand}
    # Tongs 1 and 16 only, socks and mans 1-16, the zero, winds, arrows and flowers.
    assert {"1t", "ft", "1s", "xs", "fm", "Z", "E", "C", "P"} <= written
    assert written <= set(
        [f"{r}{s}" for s in "sm" for r in "123456789xabcdef"]
        + ["1t", "ft"]
        + list("ZESWNCFP")
        + list("hijkopqr")
    )
    types = {event["type"] for round_ in data["rounds"] for event in round_["events"]}
    assert {"draw", "discard", "win", "flower"} <= types


def test_win_records_fan_in_tenths(data: dict[str, Any]) -> None:
    wins = [e for r in data["rounds"] for e in r["events"] if e["type"] == "win"]
    recorded = wins[0]["recorded"]
    assert set(recorded) >= {"yaku", "points", "deltas", "hand"}
    assert (
        recorded.get("han", 0) == sum(value for _, value in recorded["yaku"]) or "limit" in recorded
    )


def broken(data: dict[str, Any], change: Any) -> dict[str, Any]:
    bad = copy.deepcopy(data)
    change(bad)
    return bad


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (
            lambda d: d["rounds"][0]["hands"][1].__setitem__(3, "5y"),
            "rounds[0].hands[1][3]",
            "unexpected character 'y'",
        ),
        (
            lambda d: d["rounds"][0]["hands"][1].__setitem__(3, "12s"),
            "rounds[0].hands[1][3]",
            "expected one",
        ),
        (
            lambda d: d["rounds"][0]["events"][0].__setitem__("type", "chi"),
            "rounds[0].events[0].type",
            "unknown event type 'chi'",
        ),
        (
            lambda d: d["rounds"][0]["events"][0].__setitem__("riichi", True),
            "rounds[0].events[0]",
            "unknown member",
        ),
        (lambda d: d["rounds"][0]["events"][0].pop("seat"), "rounds[0].events[0].seat", "missing"),
        # Read as riichi, the first UJMJ tile is not MPSZ.
        (lambda d: d.__setitem__("ruleset", "tenhou-4p"), "rounds[0].hands[0][0]", "MPSZ"),
        (lambda d: d["rounds"][0].__setitem__("wind", 4), "rounds[0].wind", "a round wind is 0-3"),
        (lambda d: d["players"].pop(), None, None),
    ],
)
def test_malformed_input_names_the_path(
    data: dict[str, Any], change: Any, where: str | None, message: str | None
) -> None:
    bad = broken(data, change)
    if where is None:  # three players for a 4-player preset: readable, the replay refuses it
        assert canonical.game_from_json(bad).players == 3
        return
    with pytest.raises(MalformedLogError, match=message) as error:
        canonical.game_from_json(bad)
    assert error.value.where == where


def test_not_json() -> None:
    with pytest.raises(MalformedLogError, match="not valid JSON"):
        canonical.loads("{")
