"""What the state machine reports: where a hand is, and how it ended.

:class:`Phase` is where a hand is between two events; :class:`HandResult` is how a hand ended,
with a :class:`WinResult` for each win. They sit apart from the machine so that its readers (the
replayer, self-play) and each of its parts can use them without the rest.

Phases of a hand:

* ``DRAW``: ``turn`` draws next (the dealer's first draw, or a replacement draw after a kan or a
  north extraction).
* ``ACT``: ``turn`` holds a drawn or called hand: discard, tsumo, kan, kita, riichi, nine terminals.
* ``RIICHI``: ``turn`` declared riichi; the riichi discard comes next.
* ``CLAIM``: the last discard may be called or ronned; if nobody does, the next seat draws (or the
  hand ends on an exhausted wall or a forced abortive draw).
* ``ROB``: an added kan (or a closed kan, for thirteen orphans where allowed, or a north
  extraction) may be robbed by ron before the replacement draw.
* ``WON``: somebody ronned; others may ron the same tile too.
* ``OVER``: the hand has ended.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from engine.events import AbortKind
from engine.scoring.score import HandScore, WinConditions


class Phase(IntEnum):
    """Where a hand is between two events (see the module docstring)."""

    DRAW = 0
    ACT = 1
    RIICHI = 2
    CLAIM = 3
    ROB = 4
    WON = 5
    OVER = 6


# The phases the replayer's fast paths test, as module constants: in Python 3.11 looking up an
# enum member on its class (``Phase.CLAIM``) costs about ten times a global look-up. They are the
# same objects, so ``is`` tests mean the same.
PHASE_ACT: Final = Phase.ACT
PHASE_CLAIM: Final = Phase.CLAIM


@dataclass(frozen=True, slots=True)
class WinResult:
    """A win as the engine values it."""

    seat: int
    from_seat: int
    score: HandScore
    #: Every seat's score change from this win (honba and sticks included).
    deltas: tuple[int, ...]
    #: The seat that paid under liability (pao), if any.
    liable: int | None
    conditions: WinConditions
    #: The hand's value before counters and sticks (what Tenhou records as a win's points).
    points: int


@dataclass(slots=True)
class HandResult:
    """How a hand ended, as the engine computes it."""

    #: ``win``, ``exhaustive_draw``, ``nagashi_mangan``, ``abortive_draw``.
    kind: str
    wins: list[WinResult] = field(default_factory=list)
    #: Every seat's score change from the hand's end (wins, noten or nagashi payments), riichi
    #: deposits not included.
    deltas: list[int] = field(default_factory=list)
    #: Seats tenpai at an exhaustive draw (or nagashi mangan).
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    abort: AbortKind | None = None
