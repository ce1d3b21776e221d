"""A win as the scorer takes it: the hand (concealed tiles, winning tile, called melds), the
indicators, and how and when it was won.

These are the inputs of every scorer (:func:`engine.scoring.score.score_hand`, small mahjong's)
and of the rule modifiers' hooks (:mod:`engine.rules.modifiers`); they live in the hand layer,
below the rules and scoring, so that the rules can name them without importing scoring.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.hand.melds import Meld
from engine.tiles import EAST, Tile

__all__ = ["WinConditions", "WinningHand"]


@dataclass(frozen=True, slots=True)
class WinConditions:
    """How and when the hand was won, and the table's counters."""

    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    #: Seat and round wind as kinds (``EAST`` ... ``NORTH``).
    seat_wind: int = EAST
    round_wind: int = EAST
    honba: int = 0
    #: Riichi sticks on the table, won by this winner.
    sticks: int = 0
    #: 3-player: North tiles extracted by the winner.
    kita: int = 0

    @property
    def dealer(self) -> bool:
        """Whether the winner is the dealer (East seat)."""
        return self.seat_wind == EAST


@dataclass(frozen=True, slots=True)
class WinningHand:
    """Everything needed to score a win.

    ``tiles`` are the concealed tiles, winning tile included; ``melds`` the called melds (closed
    kans too). ``discarder`` and ``liable`` (pao) are seat wind kinds and only shape payments.
    """

    tiles: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...] = ()
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    conditions: WinConditions = field(default_factory=WinConditions)
    discarder: int | None = None
    liable: int | None = None
