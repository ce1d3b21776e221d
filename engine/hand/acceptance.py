"""Tile acceptance (受け入れ, *ukeire*): for a hand about to discard, what each discard leaves.

A hand of ``3n+2`` concealed tiles (the called melds implied, as in :mod:`engine.hand.shanten`)
must discard one. For each distinct kind it could discard, the *acceptance* of what is left is
the set of kinds whose draw would lower its shanten, and the *count* is how many copies of those
kinds the player cannot see: the copies of each kind in the rule set's tiles (4; none of 2m-8m
in sanma, no honours in small mahjong) less those in the player's own concealed tiles (all of
them, the one about to go included) and those seen on the table (every river, every meld, the
extracted norths, the dora indicators: the caller counts them). Red fives count as their kind.
This is the figure of Tenhou's 牌理 tool ("打 X 摸 Y Z枚") and of tile-efficiency aids such as
mjai-reviewer's and killer_mortal_gui's, there counted from the tiles in hand only; here the
tiles the player has seen are taken out too.

Shanten is the engine's (:func:`engine.hand.shanten.shanten`: the regular hand, seven pairs and
thirteen orphans; three-player mode where 2m-8m do not exist; the rule set's
:class:`~engine.hand.shapes.HandShapes`, so space mahjong's wrap-around runs count). The choices
are ranked best first by (shanten after the discard, lowest first; count, highest first; kind).
A discard *keeps the most acceptance* when it leaves the lowest shanten any discard leaves and its
count is the best count at that shanten; the *loss* of a discard is the best count less its
count. A discard that raises the shanten (leaves more than the lowest) never keeps the most
acceptance, and has no loss figure (``None``): its count is of a hand a step further from
tenpai, not comparable.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from engine.errors import EngineError, InvalidHandError
from engine.hand.shanten import discard_acceptance
from engine.hand.shapes import STANDARD, HandShapes
from engine.tiles import KINDS, format_kind, kinds_mask

__all__ = [
    "Acceptance",
    "Decision",
    "DiscardChoice",
    "Outcome",
    "acceptance",
    "decision_outcome",
    "discard_outcome",
]

#: What the statistics need of a decision: the loss of the discard made (``None`` when it left
#: more than the lowest), the lowest shanten any discard leaves, and the shanten the discard
#: made leaves (exact up to 2; from 2 up it may be a lower bound of 2 or more: all a push asks).
Outcome = tuple[int | None, int, int]


class Decision(NamedTuple):
    """One discard decision to value: the ``3n+2`` concealed tiles (34 counts), the copies
    of each kind seen outside them (as :func:`engine.study.seen_on_table`), the kind
    discarded, and the kinds the rules let the player discard (``None``: all it holds).
    A named tuple: a study makes hundreds a game, and the batches take them apart by
    columns (``zip(*decisions)``)."""

    counts: Sequence[int]
    seen: Sequence[int]
    discarded: int
    allowed: Collection[int] | None = None


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """One discard and what it leaves."""

    #: The kind discarded.
    kind: int
    #: Shanten of the tiles left.
    shanten: int
    #: The kinds whose draw lowers that shanten, in kind order.
    accepted: tuple[int, ...]
    #: Copies of each accepted kind the player cannot see (as ``accepted``).
    unseen: tuple[int, ...]
    #: Their sum.
    count: int


@dataclass(frozen=True, slots=True)
class Acceptance:
    """Every discard of one hand with its acceptance, best first."""

    choices: tuple[DiscardChoice, ...]

    @property
    def shanten(self) -> int:
        """The lowest shanten a discard leaves."""
        return self.choices[0].shanten

    @property
    def best(self) -> int:
        """The most copies accepted by a discard that leaves the lowest shanten."""
        return self.choices[0].count

    def choice(self, kind: int) -> DiscardChoice | None:
        """The choice of discarding ``kind`` (``None`` when it cannot be discarded)."""
        for choice in self.choices:
            if choice.kind == kind:
                return choice
        return None

    def loss(self, kind: int) -> int | None:
        """How many copies fewer than the best discarding ``kind`` accepts; ``None`` when that
        discard raises the shanten (or is not a choice)."""
        choice = self.choice(kind)
        if choice is None or choice.shanten != self.shanten:
            return None
        return self.best - choice.count

    def kept_most(self, kind: int) -> bool:
        """Whether discarding ``kind`` keeps the most acceptance."""
        return self.loss(kind) == 0


def acceptance(
    counts: Sequence[int],
    copies: Sequence[int],
    seen: Sequence[int],
    *,
    three_player: bool = False,
    shapes: HandShapes = STANDARD,
    called: Sequence[int] | None = None,
    discards: Collection[int] | None = None,
) -> Acceptance:
    """Every discard of ``counts`` (34 counts, ``3n+2`` tiles) with its acceptance, best first.

    ``copies``: copies of each kind in the rule set's tiles (0 for a kind not in the set: no
    such draw); ``seen``: copies of each kind seen outside the player's concealed tiles;
    ``three_player``: 2m-8m do not exist (sanma); ``shapes`` and ``called``: the rule set's hand
    shapes, as :meth:`HandShapes.shanten` takes them; ``discards``: the kinds the rules let the
    player discard (all it holds when ``None``; a swap call forbids some).

    The standard shapes use :func:`engine.hand.shanten.discard_acceptance` (each group's draws
    looked up against the rest of the hand); other shapes are worked out one discard and one
    draw at a time.

    :raises InvalidHandError: not a hand of ``3n+2`` tiles, or no discard allowed.
    """
    table, unseen = _table(counts, copies, seen, three_player, shapes, called, discards)
    left = [max(0, c - s - h) for c, s, h in zip(copies, seen, counts, strict=True)]
    choices = []
    for kind, number, mask in table:
        accepted = tuple(k for k, on in enumerate(mask.to_bytes(KINDS, "little")) if on)
        choices.append(
            DiscardChoice(
                kind,
                number,
                accepted,
                tuple(left[k] for k in accepted),
                _count(mask, unseen),
            )
        )
    choices.sort(key=_rank)
    return Acceptance(tuple(choices))


def discard_outcome(
    counts: Sequence[int],
    copies: Sequence[int],
    seen: Sequence[int],
    discarded: int,
    *,
    three_player: bool = False,
    shapes: HandShapes = STANDARD,
    called: Sequence[int] | None = None,
    discards: Collection[int] | None = None,
) -> tuple[int | None, int]:
    """:meth:`Acceptance.loss` of discarding ``discarded`` and the lowest shanten any discard
    leaves (:attr:`Acceptance.shanten`), without building the choices: what the statistics
    need of every decision (a loss of 0 when it kept the most acceptance; ``None`` when the
    discard left more than the lowest).

    :raises InvalidHandError: as :func:`acceptance`, or ``discarded`` is not a choice.
    """
    if not (0 <= discarded < KINDS and counts[discarded]) or (
        discards is not None and discarded not in discards
    ):
        raise InvalidHandError(f"{format_kind(discarded)} is not a discard this hand may make")
    table, unseen = _table(
        counts, copies, seen, three_player, shapes, called, discards, lowest_only=True
    )
    best = max(_count(mask, unseen) for _, _, mask in table)
    lowest = table[0][1]
    for kind, _, mask in table:
        if kind == discarded:
            return best - _count(mask, unseen), lowest
    return None, lowest  # it raises the shanten


def decision_outcome(
    decision: Decision, copies: Sequence[int], *, three_player: bool = False
) -> Outcome | None:
    """The :data:`Outcome` of one decision under the standard shapes, by its whole
    :func:`acceptance`; ``None`` for a hand the engine cannot value or a discard it may not
    make. (:mod:`engine.hand.acceptance_batch` values a game's decisions together, the same.)"""
    try:
        found = acceptance(
            decision.counts,
            copies,
            decision.seen,
            three_player=three_player,
            discards=decision.allowed,
        )
    except (EngineError, ValueError):
        return None
    choice = found.choice(decision.discarded)
    if choice is None:
        return None
    return found.loss(decision.discarded), found.shanten, choice.shanten


#: A 1 in each byte of the 34: ``(x * _ONES) >> _TOP & 0xFF`` adds up the bytes of ``x``
#: (at most 34 x 4, so no byte carries into the next).
_ONES: Final = kinds_mask(range(KINDS)) // 0xFF
_TOP: Final = 8 * (KINDS - 1)


def _count(mask: int, unseen: int) -> int:
    """The copies unseen (packed, a byte per kind) of the kinds in a kinds mask."""
    return (mask & unseen) * _ONES >> _TOP & 0xFF


def _table(
    counts: Sequence[int],
    copies: Sequence[int],
    seen: Sequence[int],
    three_player: bool,
    shapes: HandShapes,
    called: Sequence[int] | None,
    discards: Collection[int] | None,
    *,
    lowest_only: bool = False,
) -> tuple[list[tuple[int, int, int]], int]:
    """The discards allowed with (kind, shanten, kinds mask of the accepted draws), and the
    unseen copies packed a byte per kind (0 for a kind not in the set); with ``lowest_only``
    only those that leave the lowest shanten."""
    if shapes.standard and discards is None:
        table = discard_acceptance(counts, three_player=three_player, lowest_only=lowest_only)
    elif shapes.standard:
        table = discard_acceptance(counts, three_player=three_player)
    else:
        table = _by_draws(counts, copies, shapes, called)
    exists = _exists(tuple(copies))
    table = [
        (kind, number, mask & exists)
        for kind, number, mask in table
        if discards is None or kind in discards
    ]
    if not table:
        raise InvalidHandError("no tile of the hand may be discarded")
    if lowest_only:
        lowest = min(number for _, number, _ in table)
        table = [row for row in table if row[1] == lowest]
    left = [c - s - h for c, s, h in zip(copies, seen, counts, strict=True)]
    try:
        unseen = bytes(left)
    except ValueError:  # more copies seen than there are (a record's impossible tiles)
        unseen = bytes(max(0, count) for count in left)
    return table, int.from_bytes(unseen, "little")


@functools.lru_cache(maxsize=64)
def _exists(copies: tuple[int, ...]) -> int:
    """The kinds mask of the kinds the set has copies of."""
    return kinds_mask(kind for kind in range(KINDS) if copies[kind])


def _by_draws(
    counts: Sequence[int],
    copies: Sequence[int],
    shapes: HandShapes,
    called: Sequence[int] | None,
) -> list[tuple[int, int, int]]:
    """The table of :func:`engine.hand.shanten.discard_acceptance` for any shapes."""
    held = list(counts)
    if sum(held) % 3 != 2:
        raise InvalidHandError(f"a hand to discard from has 3n+2 tiles, got {sum(held)}")
    table = []
    for kind in range(KINDS):
        if not held[kind]:
            continue
        held[kind] -= 1
        number = shapes.shanten(held, called)
        accepted = 0
        for draw in range(KINDS):
            if copies[draw] and held[draw] < 4:
                held[draw] += 1
                if shapes.shanten(held, called) < number:
                    accepted |= 0xFF << 8 * draw
                held[draw] -= 1
        held[kind] += 1
        table.append((kind, number, accepted))
    return table


def _rank(choice: DiscardChoice) -> tuple[int, int, int]:
    return (choice.shanten, -choice.count, choice.kind)
