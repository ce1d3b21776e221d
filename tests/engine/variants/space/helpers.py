"""Helpers of the space mahjong tests: hands from MPSZ text, and scoring requests."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.hand.decompose import Wait, WaitShape
from engine.hand.shapes import HandShapes
from engine.rules.ruleset import Ruleset
from engine.scoring.request import parse_request, result_to_dict
from engine.scoring.score import score_hand
from engine.tiles import format_kind, parse_counts, parse_tile

RYANMEN = WaitShape.RYANMEN
KANCHAN = WaitShape.KANCHAN
PENCHAN = WaitShape.PENCHAN
SHANPON = WaitShape.SHANPON
TANKI = WaitShape.TANKI
KOKUSHI = WaitShape.KOKUSHI


def kind(text: str) -> int:
    """The kind of one tile: ``kind("7z")``."""
    return parse_tile(text).kind


def kinds(text: str) -> list[int]:
    """The kinds of MPSZ tiles, in kind order, each once: ``kinds("347p")``."""
    counts = parse_counts(text)
    return [index for index, count in enumerate(counts) if count]


def waits_of(shapes: HandShapes, hand: str) -> dict[str, set[WaitShape]]:
    """``{tile: shapes}`` of a 3n+1-tile hand's waits, tiles written like ``3z``."""
    found: list[Wait] = shapes.waits(parse_counts(hand))
    return {format_kind(wait.kind): set(wait.shapes) for wait in found}


def ron(
    hand: str,
    win: str,
    *,
    melds: tuple[tuple[str, str], ...] = (),
    ruleset: str | Ruleset = "space-4p",
    **extra: Any,
) -> dict[str, Any]:
    """Score a ron by South (a non-dealer) on East's discard, East round, no dora, as the JSON
    result of ``python -m engine score`` (``{"error": ...}`` when refused). ``ruleset`` is a
    preset name or a rule set (a space-4p variant: the melds are read with its shapes)."""
    request: dict[str, Any] = {
        "ruleset": ruleset if isinstance(ruleset, str) else "space-4p",
        "hand": hand,
        "win": win,
        "melds": [{"type": meld_type, "tiles": tiles} for meld_type, tiles in melds],
        "seat_wind": "S",
        "round_wind": "E",
        "discarder": "E",
        **extra,
    }
    try:
        hand, preset = parse_request(request)
        return result_to_dict(score_hand(hand, preset if isinstance(ruleset, str) else ruleset))
    except EngineError as error:
        return {"error": error.code, "message": str(error)}


def yaku_of(result: dict[str, Any]) -> dict[str, int]:
    """``{yaku name: han}`` of a scoring result (fails with the error of an error result)."""
    assert "error" not in result, result
    return {entry["name"]: entry["han"] for entry in result["yaku"]}
