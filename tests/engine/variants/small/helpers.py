"""Shared helpers of the small mahjong tests: winning hands, conditions and hand-made deals.

Seed line numbers refer to ``../shared/seeds/004_1679fc2b9b5d2e6b.txt`` (small mahjong).
"""

from __future__ import annotations

from typing import Any

from engine.rules import Ruleset, get_ruleset
from engine.scoring import HandScore, WinConditions, WinningHand, score_hand
from engine.state import GameState
from engine.tiles import EAST, SOUTH, parse_tile, parse_tiles
from tests.engine.dealt import dealt_state


def won(
    tiles: str,
    win: str,
    *,
    ruleset: str = "small-4p",
    tsumo: bool = False,
    riichi: bool | None = None,
    seat: int = SOUTH,
    discarder: int = EAST,
    **flags: Any,
) -> HandScore:
    """Score a win: by default a ron after riichi by South on East's discard."""
    if riichi is None:
        riichi = not tsumo and not flags.get("double_riichi", False)
    conditions = WinConditions(tsumo=tsumo, riichi=riichi, seat_wind=seat, **flags)
    hand = WinningHand(
        tiles=tuple(parse_tiles(tiles)),
        win_tile=parse_tile(win),
        conditions=conditions,
        discarder=None if tsumo else discarder,
    )
    return score_hand(hand, get_ruleset(ruleset))


def conditions(score: HandScore) -> dict[str, int]:
    """The conditions of a result, each with its points."""
    return {entry.name: entry.han for entry in score.yaku}


def deal(hands: list[str], *, ruleset: str | Ruleset = "small-4p", **options: Any) -> GameState:
    """A small-mahjong state at the start of a hand dealt as given (see :func:`dealt_state`)."""
    return dealt_state(hands, ruleset=ruleset, **options)
