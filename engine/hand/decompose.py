"""Decomposition of a hand into melds and a pair; agari detection; waits and their shapes.

Table-driven: a hand splits into the three number suits and the honours. Each suit's 9 counts,
packed a byte each into one integer (the layout of :data:`engine.tiles.PACKED_BYTES`, so a
hand's packed counts give each suit's key with a shift and a mask), are a key into a table of
every way that suit splits into runs, triplets and at most one pair. The table is built once, by
enumerating the group combinations a suit can hold, so a pattern missing from it does not split
at all. Honours cannot form runs, so each honour count is read directly. A whole-hand
decomposition is one choice per suit, with exactly one pair in total.

Groups are small integers so the hot path allocates nothing: a code ``g < 34`` is the run
``g, g+1, g+2``, a code ``g >= 34`` the triplet of kind ``g - 34``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, combinations_with_replacement
from typing import Final

from engine.tiles import EAST, KINDS, YAOCHUU

#: Offset of triplet codes.
TRIPLET: Final = 34

#: One split of a suit: (pair kind or -1, run start kinds, triplet kinds).
_SuitSplit = tuple[int, tuple[int, ...], tuple[int, ...]]
#: Every complete pattern of one number suit, as its 9 counts packed (a byte per rank, see
#: :data:`engine.tiles.PACKED_BYTES`), with its splits in ranks relative to the suit (0-8).
_RELATIVE: Final[dict[int, tuple[_SuitSplit, ...]]] = {}
#: Per number suit: the complete patterns met so far, with their splits in absolute kinds,
#: filled from :data:`_RELATIVE` on first use: a process meets a few thousand of the 50,000, and
#: translating them all up front was most of the tables' cost at start.
_SUIT_MEMOS: Final[tuple[dict[int, tuple[_SuitSplit, ...]], ...]] = ({}, {}, {})
#: Packed counts hold a suit's 9 counts in 72 bits, the honours' 7 in 56 bits above them.
_SUIT_BITS: Final = 72
_SUIT_KEY: Final = (1 << _SUIT_BITS) - 1
_HONOR_SHIFT: Final = 8 * EAST
_HONOR_KEY: Final = (1 << 8 * (KINDS - EAST)) - 1


def _pack(counts: Sequence[int]) -> int:
    """Counts as a packed integer (a byte each); -1 if a count does not fit in a byte (such a
    count is not a hand's, and -1 matches no pattern)."""
    try:
        return int.from_bytes(bytes(counts), "little")
    except ValueError:
        return -1


def _build_suit_table() -> dict[int, tuple[_SuitSplit, ...]]:
    """Every complete pattern of one suit, by construction, with all its splits.

    A suit holds at most four groups and one pair (14 tiles). Enumerating every multiset of up
    to four of the 16 group shapes (7 runs, 9 triplets), with or without a pair, gives every
    pattern that splits at all, with every way it splits; a pattern absent from the table does
    not split. About 50,000 combinations, built once on first use in a fraction of a second.
    Ranks are relative to the suit (0-8); callers add the suit's first kind.
    """
    # Shapes 0-6 are the runs starting at ranks 0-6, shapes 7-15 the triplets of ranks 0-8.
    shapes = [(start, start + 1, start + 2) for start in range(7)]
    shapes += [(rank, rank, rank) for rank in range(9)]
    # Each shape's packed counts (a byte per rank, as _pack), so that a combination's key is a sum.
    shape_keys = [sum(1 << 8 * rank for rank in shape) for shape in shapes]
    found: dict[int, set[_SuitSplit]] = {}
    for size in range(5):
        for combo in combinations_with_replacement(range(len(shapes)), size):
            counts = [0] * 9
            for index in combo:
                for rank in shapes[index]:
                    counts[rank] += 1
            if max(counts) > 4:
                continue
            key = sum(shape_keys[index] for index in combo)
            runs = tuple(index for index in combo if index < 7)
            triplets = tuple(index - 7 for index in combo if index >= 7)
            found.setdefault(key, set()).add((-1, runs, triplets))
            for rank in range(9):
                if counts[rank] <= 2:
                    found.setdefault(key + (2 << 8 * rank), set()).add((rank, runs, triplets))
    return {key: tuple(sorted(splits)) for key, splits in found.items()}


def _build_honor_table() -> dict[int, tuple[int, tuple[int, ...]]]:
    """Every complete pattern of the honours: each kind absent, a triplet or (one kind at most)
    the pair, as packed counts, with its (pair kind or -1, triplet kinds)."""
    honors = range(EAST, KINDS)
    table: dict[int, tuple[int, tuple[int, ...]]] = {}
    for size in range(len(honors) + 1):
        for triplets in combinations(honors, size):
            key = sum(3 << 8 * (kind - EAST) for kind in triplets)
            table[key] = (-1, triplets)
            for pair in honors:
                if pair not in triplets:
                    table[key + (2 << 8 * (pair - EAST))] = (pair, triplets)
    return table


def _build_tables() -> None:
    """Fill the suits' table (relative ranks) and the honours', once, whichever thread gets here
    first: the others wait for it. The honours' table is filled last and the tables are marked
    ready after it, so a reader never takes a half-built table for a whole one (a thread that
    did once found no decomposition of a complete hand: a verdict of "win is impossible" under
    concurrent verifications)."""
    global _TABLES_READY
    with _BUILD_LOCK:
        if _TABLES_READY:
            return
        _RELATIVE.update(_build_suit_table())
        _HONOR_TABLE.update(_build_honor_table())
        _TABLES_READY = True


def _suit_splits(suit: int, key: int) -> tuple[_SuitSplit, ...] | None:
    """The splits of suit ``suit``'s packed counts ``key`` in absolute kinds, kept in the suit's
    memo; ``None`` when the pattern does not split (not kept: any count may be asked)."""
    splits = _RELATIVE.get(key)
    if splits is None:
        return None
    base = suit * 9
    absolute = tuple(
        (
            pair + base if pair >= 0 else -1,
            tuple(start + base for start in runs),
            tuple(rank + base for rank in triplets),
        )
        for pair, runs, triplets in splits
    )
    # Two threads may translate one pattern at once: they store equal values.
    _SUIT_MEMOS[suit][key] = absolute
    return absolute


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read the concealed tiles as groups and a pair.

    ``groups`` holds group codes (see the module docstring): characters, circles, bamboo,
    then honours, each part in code order.
    """

    pair: int
    groups: tuple[int, ...]


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every standard decomposition (groups and one pair) of a 3n+2-tile hand (34 counts).

    Called melds are not part of ``counts``; the result covers the concealed tiles only.
    An empty list means the hand is not complete in the standard form.
    """
    return [
        Decomposition(pair, runs + tuple(TRIPLET + kind for kind in triplets))
        for pair, runs, triplets in raw_decompositions(counts)
    ]


RawDecomposition = tuple[int, tuple[int, ...], tuple[int, ...]]


def raw_decompositions(counts: Sequence[int]) -> list[RawDecomposition]:
    """:func:`decompositions` for the hot path: ``(pair, run starts, triplet kinds)`` tuples."""
    # Only 3n+2 tiles hold one pair: packed_decompositions relies on it.
    packed = _pack(counts)
    if packed < 0 or sum(counts) % 3 != 2:
        return []
    return packed_decompositions(packed)


def packed_decompositions(packed: int) -> list[RawDecomposition]:
    """:func:`raw_decompositions` of packed counts (:data:`engine.tiles.PACKED_BYTES`; bytes
    above the 34 kinds, such as the red fives', are ignored) of 3n+2 tiles."""
    honors = _HONOR_TABLE.get(packed >> _HONOR_SHIFT & _HONOR_KEY)
    if honors is None:
        if _TABLES_READY:
            return []
        _build_tables()  # first use (or a table still being built by another thread)
        return packed_decompositions(packed)
    man_table, pin_table, sou_table = _SUIT_MEMOS
    key = packed & _SUIT_KEY
    man = man_table.get(key) or _suit_splits(0, key)
    if man is None:
        return []
    key = packed >> _SUIT_BITS & _SUIT_KEY
    pin = pin_table.get(key) or _suit_splits(1, key)
    if pin is None:
        return []
    key = packed >> 2 * _SUIT_BITS & _SUIT_KEY
    sou = sou_table.get(key) or _suit_splits(2, key)
    if sou is None:
        return []
    honor_pair, honor_triplets = honors
    # Within a part every split has a pair, or none does: a part holds one when its tile count
    # is 3n+2. With 3n+2 tiles in all, one part or all four do; the latter is no hand.
    if honor_pair >= 0 and man[0][0] >= 0 and pin[0][0] >= 0 and sou[0][0] >= 0:
        return []
    # One decomposition per choice of a split in each suit (usually one each). The pair is the
    # one part's that has one; the others' are -1, hence the + 3.
    decompositions: list[RawDecomposition] = []
    for man_pair, man_runs, man_triplets in man:
        for pin_pair, pin_runs, pin_triplets in pin:
            for sou_pair, sou_runs, sou_triplets in sou:
                decompositions.append(
                    (
                        honor_pair + man_pair + pin_pair + sou_pair + 3,
                        man_runs + pin_runs + sou_runs,
                        man_triplets + pin_triplets + sou_triplets + honor_triplets,
                    )
                )
    return decompositions


#: Every complete pattern of the honours (see _build_honor_table), filled with the suits' tables.
_HONOR_TABLE: Final[dict[int, tuple[int, tuple[int, ...]]]] = {}
#: Whether :func:`_build_tables` has filled every table; it builds them under the lock.
_TABLES_READY = False
_BUILD_LOCK: Final = threading.Lock()


def is_chiitoitsu(counts: Sequence[int]) -> bool:
    """Seven distinct pairs (four of a kind is not two pairs)."""
    pairs = 0
    for count in counts:
        if count == 2:
            pairs += 1
        elif count:
            return False
    return pairs == 7


def is_kokushi(counts: Sequence[int]) -> bool:
    """Thirteen orphans: every terminal and honour, one of them twice."""
    if sum(counts) != 14:
        return False
    return all(counts[kind] for kind in YAOCHUU) and sum(counts[kind] for kind in YAOCHUU) == 14


def is_agari(counts: Sequence[int]) -> bool:
    """Whether the concealed tiles (3n+2 of them, called melds aside) form a complete hand."""
    total = sum(counts)
    if total % 3 != 2:
        return False
    if total == 14 and (is_chiitoitsu(counts) or is_kokushi(counts)):
        return True
    return bool(decompositions(counts))


class WaitShape(StrEnum):
    """The shape of a wait: which group the winning tile completes."""

    RYANMEN = "ryanmen"  # open wait: 23 waiting on 1 or 4
    KANCHAN = "kanchan"  # closed wait: 13 waiting on 2
    PENCHAN = "penchan"  # edge wait: 12 waiting on 3, 89 waiting on 7
    SHANPON = "shanpon"  # two pairs, one becomes a triplet
    TANKI = "tanki"  # single wait on the pair
    CHIITOITSU = "chiitoitsu"  # the seventh pair
    KOKUSHI = "kokushi"  # thirteen orphans, single wait
    KOKUSHI_13 = "kokushi_13"  # thirteen orphans, 13-sided wait


def run_wait_shape(run_start: int, win_kind: int) -> WaitShape:
    """The wait shape of a run completed by ``win_kind``."""
    position = win_kind - run_start
    if position == 1:
        return WaitShape.KANCHAN
    rank = run_start % 9
    if (position == 2 and rank == 0) or (position == 0 and rank == 6):
        return WaitShape.PENCHAN
    return WaitShape.RYANMEN


@dataclass(frozen=True, slots=True)
class Wait:
    """A tile that completes a tenpai hand, with every shape in which it does."""

    kind: int
    shapes: tuple[WaitShape, ...]


def waits(counts: Sequence[int]) -> list[Wait]:
    """The tiles that complete a 3n+1-tile hand (34 counts), each with its possible shapes.

    A kind the hand already holds four of is never a wait: there is no fifth copy, so a hand
    whose only "wait" is such a kind is not tenpai. An empty list means not tenpai.
    """
    total = sum(counts)
    if total % 3 != 1:
        return []
    work = list(counts)
    result: list[Wait] = []
    for kind in candidate_kinds(counts, total):
        if work[kind] >= 4:
            continue
        work[kind] += 1
        shapes: set[WaitShape] = set()
        for decomposition in decompositions(work):
            shapes.update(_shapes_in(decomposition, kind))
        if total == 13:
            if is_chiitoitsu(work):
                shapes.add(WaitShape.CHIITOITSU)
            if is_kokushi(work):
                shapes.add(WaitShape.KOKUSHI_13 if counts[kind] == 1 else WaitShape.KOKUSHI)
        work[kind] -= 1
        if shapes:
            result.append(Wait(kind, tuple(sorted(shapes, key=_SHAPE_ORDER.index))))
    return result


_SHAPE_ORDER: Final = list(WaitShape)


def candidate_kinds(counts: Sequence[int], total: int) -> list[int]:
    """Kinds that could complete the hand: held tiles and their neighbours (all 13 for kokushi)."""
    candidates: set[int] = set()
    for kind, count in enumerate(counts):
        if not count:
            continue
        candidates.add(kind)
        if kind < EAST:
            rank = kind % 9
            for delta in (-2, -1, 1, 2):
                if 0 <= rank + delta <= 8:
                    candidates.add(kind + delta)
    if total == 13:
        candidates.update(YAOCHUU)
    return sorted(candidates)


def _shapes_in(decomposition: Decomposition, win_kind: int) -> set[WaitShape]:
    shapes: set[WaitShape] = set()
    if decomposition.pair == win_kind:
        shapes.add(WaitShape.TANKI)
    for group in decomposition.groups:
        if group >= TRIPLET:
            if group - TRIPLET == win_kind:
                shapes.add(WaitShape.SHANPON)
        elif group <= win_kind <= group + 2:
            shapes.add(run_wait_shape(group, win_kind))
    return shapes


def winning_kinds(counts: Sequence[int]) -> list[int]:
    """The kinds that complete a 3n+1-tile hand (see :func:`waits`)."""
    return [wait.kind for wait in waits(counts)]
