"""What a win is worth: the yaku entries, fu items and the :class:`HandScore` every scorer of a
riichi rule set returns (riichi's :mod:`engine.scoring.score`, small mahjong's
:mod:`engine.scoring.small`).

The types live here, below the scorers, so that each scorer builds on them without importing
another (``score_hand`` dispatches to small mahjong's scorer). Yaku entries are interned
(:func:`yaku_han`): the hot path hands out shared constants.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.hand.decompose import WaitShape
from engine.rules.yaku import YAKU
from engine.scoring.payments import Payment

__all__ = ["Y13", "FuItem", "HandScore", "YakuHan", "yaku_han", "yakuman_entries"]


class YakuHan(NamedTuple):
    """A yaku (or dora entry) with the han it gives; yakuman give 13 per yakuman."""

    name: str
    han: int


class FuItem(NamedTuple):
    """One line of the fu count."""

    name: str
    fu: int


class HandScore(NamedTuple):
    """The value of a win and who pays it."""

    han: int
    fu: int
    fu_items: tuple[FuItem, ...]
    yaku: tuple[YakuHan, ...]
    #: Limit name (``mangan`` ... ``kazoe_yakuman``, ``yakuman``, ``double_yakuman``...) or None.
    limit: str | None
    #: Number of yakuman (0 for an ordinary hand; a counted yakuman is 0 too).
    yakuman: int
    base_points: int
    payments: tuple[Payment, ...]
    #: Points from riichi sticks on the table.
    sticks_won: int
    #: Everything the winner receives: payments plus sticks.
    total: int
    #: The shape of the wait in the chosen reading.
    wait: WaitShape


# -- interned yaku entries and fu items ---------------------------------------------------------
_YAKU_HAN: dict[tuple[str, int], YakuHan] = {}


def yaku_han(name: str, han: int) -> YakuHan:
    """The shared :class:`YakuHan` of a name and han (they are immutable, so one of each)."""
    entry = _YAKU_HAN.get((name, han))
    if entry is None:
        entry = _YAKU_HAN[name, han] = YakuHan(name, han)
    return entry


#: Every yakuman's single (13 han) entry, by name.
Y13: Final = {name: yaku_han(name, 13) for name, info in YAKU.items() if info.yakuman}


def yakuman_entries(double: frozenset[str]) -> dict[str, YakuHan]:
    """Every yakuman's entry: 26 han for the forms in ``double``, else 13."""
    return {name: yaku_han(name, 26) if name in double else entry for name, entry in Y13.items()}
