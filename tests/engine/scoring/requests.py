"""Building scoring requests in tests: one short call per hand.

``request("123m456p789s11z", "1z", "pon:555z", tsumo=True)`` is a request for tenhou-4p, South
seat, East round, ron unless the fields say otherwise; melds are written ``type:tiles``.
"""

from __future__ import annotations

from typing import Any

from engine.scoring.request import score_request


def request(hand: str, win: str, *melds: str, **fields: Any) -> dict[str, Any]:
    """A scoring request: South seat, East round, ron, tenhou-4p unless ``fields`` say otherwise."""
    data: dict[str, Any] = {
        "ruleset": "tenhou-4p",
        "seat_wind": "S",
        "round_wind": "E",
        "hand": hand,
        "win": win,
    }
    if melds:
        data["melds"] = [dict(zip(("type", "tiles"), m.split(":"), strict=True)) for m in melds]
    data.update(fields)
    return data


def score(hand: str, win: str, *melds: str, **fields: Any) -> dict[str, Any]:
    """The result of a request (a result or an error object)."""
    return score_request(request(hand, win, *melds, **fields))


def scored(hand: str, win: str, *melds: str, **fields: Any) -> dict[str, Any]:
    """The result of a hand that must score (fails the test on an error)."""
    result = score(hand, win, *melds, **fields)
    assert "error" not in result, result
    return result
