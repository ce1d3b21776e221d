"""Hand analysis from a :class:`~engine.hand.shapes.HandShapes` description alone.

The standard shapes have fast table-driven code (:mod:`engine.hand.decompose`,
:mod:`engine.hand.shanten`); this module answers the same questions for *any* shapes, space
mahjong's wrap-around and honour runs included, by plain searches that are memoised:
decompositions, agari, waits with their shapes, and shanten (regular, seven pairs, thirteen
orphans, and space mahjong's open thirteen orphans). Hands are 34 counts of the concealed tiles;
called melds are implied by the tile count (3n+1 or 3n+2 tiles), and only the open thirteen
orphans looks at them (``called``: the counts of the called tiles when every called meld is an
honour run, else ``None``).

On the standard shapes every answer equals the fast code's (``tests/engine/variants/space/
test_generic.py`` checks it on many random hands): that is what shows this code right.

Parts
=====
Runs never join tiles of two *parts* (:class:`~engine.hand.shapes.Part`: a number suit; the
winds; the dragons; with the standard shapes each honour alone), so a hand is analysed part by
part, each part's answer memoised on its counts, and the parts' answers are combined.

Shanten
=======
The regular number is ``mahjong``'s (see :mod:`engine.hand.shanten` for the formula): the best
over every way to cut the hand into *blocks* (melds ``M``, partial runs and pairs, ``K`` blocks in
all) of ``8 - M - min(K, 4 + [a pair])``, with the same two corrections for four-of-a-kinds (a
decomposition without a pair whose isolated tiles are all of kinds held four times costs one more;
kinds held four times that belong to no run raise the result to their number, less one for a
3n+2 hand). Each part's blocks are searched exhaustively (one pair at most per kind: two pairs
of one kind would need a fifth tile), keeping the Pareto-best summaries ``(melds, blocks, pair,
isolated state)``, exactly the summaries the fast code keeps. A part without runs (a standard
honour) is cut as ``mahjong`` cuts honours: three or four copies a triplet (the fourth an isolated
tile), two a pair, one an isolated tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Final, Protocol

from engine.errors import InvalidHandError
from engine.hand.decompose import RawDecomposition, Wait, WaitShape, is_chiitoitsu, is_kokushi
from engine.tiles import KINDS, YAOCHUU, format_kind

__all__ = [
    "Part",
    "RunHolding",
    "RunKinds",
    "ShapeTable",
    "decompositions",
    "is_agari",
    "is_open_kokushi",
    "part_splits",
    "shanten",
    "waits",
    "winning_kinds",
]

#: The three kinds of a run, in run order (a wrapped run: 891m is (7, 8, 0)).
RunKinds = tuple[int, int, int]
#: A run holding a kind: (run start, wait shape when that kind completed the run).
RunHolding = tuple[int, WaitShape]


@dataclass(frozen=True, eq=False)
class Part:
    """Kinds that runs connect (a number suit; the winds, the dragons, or one honour alone), with
    the runs among them by local position (the index of a kind in ``kinds``).

    Runs never join tiles of two parts, so a hand's decompositions, waits and shanten are worked
    out part by part (and memoised per part: ``eq=False`` makes a part hash by identity).
    """

    kinds: tuple[int, ...]
    #: Per local position: the runs holding it, as (start, the run's three local positions).
    runs_at: tuple[tuple[tuple[int, tuple[int, int, int]], ...], ...]
    #: Per local position: the other positions it shares a run with (its partial-run partners).
    partners: tuple[tuple[int, ...], ...]


class ShapeTable(Protocol):
    """What this module reads of a set of hand shapes (:class:`engine.hand.shapes.HandShapes`,
    which builds on this module: the protocol keeps the dependency one way)."""

    @property
    def run_kinds(self) -> tuple[RunKinds | None, ...]: ...

    @property
    def runs_holding(self) -> tuple[tuple[RunHolding, ...], ...]: ...

    @property
    def runs_with(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def parts(self) -> tuple[Part, ...]: ...

    @property
    def open_kokushi(self) -> bool: ...


#: Memo bounds (patterns of one part; a part holds at most 14 tiles).
_MEMO: Final = 1 << 17

#: One split of a part: (pair kind or -1, run starts, triplet kinds), each sorted.
Split = tuple[int, tuple[int, ...], tuple[int, ...]]
#: A summary of one way to cut tiles into blocks: (melds, blocks capped at 5, has a pair 0/1,
#: isolated state: 0 none, 1 only tiles of kinds held four times, 2 some other tile).
Option = tuple[int, int, int, int]
Frontier = tuple[Option, ...]

_MAX_BLOCKS: Final = 5
#: How good an isolated state is for the four-copies penalty (higher is better): 1 risks it,
#: 0 risks it if another part is 1, 2 rules it out (as in engine.hand.shanten).
_STATE_RANK: Final = (1, 0, 2)
_YAOCHUU: Final = frozenset(YAOCHUU)


# -- decompositions --------------------------------------------------------------------------------


@lru_cache(maxsize=_MEMO)
def part_splits(part: Part, counts: tuple[int, ...]) -> tuple[Split, ...]:
    """Every way the tiles of one part (``counts`` by local position) split into runs,
    triplets and at most one pair; ``()`` if they do not split."""
    found: set[Split] = set()
    work = list(counts)
    size = len(work)

    def walk(first: int, pair: int, runs: tuple[int, ...], triplets: tuple[int, ...]) -> None:
        # The first tile left must belong to a group; try each group that can hold it.
        while first < size and not work[first]:
            first += 1
        if first == size:
            found.add((pair, tuple(sorted(runs)), tuple(sorted(triplets))))
            return
        kind = part.kinds[first]
        count = work[first]
        if count >= 3:
            work[first] -= 3
            walk(first, pair, runs, (*triplets, kind))
            work[first] += 3
        if count >= 2 and pair < 0:
            work[first] -= 2
            walk(first, kind, runs, triplets)
            work[first] += 2
        for start, positions in part.runs_at[first]:
            if all(work[position] for position in positions):
                for position in positions:
                    work[position] -= 1
                walk(first, pair, (*runs, start), triplets)
                for position in positions:
                    work[position] += 1

    walk(0, -1, (), ())
    return tuple(sorted(found))


def _part_counts(part: Part, counts: Sequence[int]) -> tuple[int, ...]:
    return tuple([counts[kind] for kind in part.kinds])


def decompositions(shapes: ShapeTable, counts: Sequence[int]) -> list[RawDecomposition]:
    """Every split of 3n+2 concealed tiles (34 counts) into groups and exactly one pair, as
    ``(pair, run starts, triplet kinds)`` (runs and triplets sorted)."""
    if sum(counts[:KINDS]) % 3 != 2:
        return []
    choices: list[tuple[Split, ...]] = []
    for part in shapes.parts:
        part_counts = _part_counts(part, counts)
        if not any(part_counts):
            continue
        splits = part_splits(part, part_counts)
        if not splits:
            return []
        choices.append(splits)
    result: list[RawDecomposition] = []
    for combo in product(*choices):
        pairs = [pair for pair, _, _ in combo if pair >= 0]
        if len(pairs) != 1:  # every part's splits hold a pair exactly when its size is 3n+2
            continue
        runs = tuple(sorted(start for _, starts, _ in combo for start in starts))
        triplets = tuple(sorted(kind for _, _, kinds in combo for kind in kinds))
        result.append((pairs[0], runs, triplets))
    return result


def is_open_kokushi(counts: Sequence[int], called: Sequence[int] | None) -> bool:
    """Thirteen orphans with honours called as honour runs: the concealed and the called tiles
    (``called``, at least one meld) are every terminal and honour, one of them twice."""
    if called is None or not any(called):
        return False
    total = [counts[kind] + called[kind] for kind in range(KINDS)]
    return (
        sum(total) == 14
        and all(total[kind] for kind in YAOCHUU)
        and not any(total[kind] for kind in range(KINDS) if kind not in _YAOCHUU)
    )


def is_agari(shapes: ShapeTable, counts: Sequence[int], called: Sequence[int] | None) -> bool:
    """Whether 3n+2 concealed tiles complete a hand (``called``: see the module docstring)."""
    total = sum(counts[:KINDS])
    if total % 3 != 2:
        return False
    if total == 14 and (is_chiitoitsu(counts[:KINDS]) or is_kokushi(counts[:KINDS])):
        return True
    if shapes.open_kokushi and is_open_kokushi(counts, called):
        return True
    return bool(decompositions(shapes, counts))


# -- waits -----------------------------------------------------------------------------------------


def _candidates(shapes: ShapeTable, counts: Sequence[int], total: int, kokushi: bool) -> list[int]:
    """Kinds that could complete the hand: held kinds and their run partners, and every
    terminal and honour when a thirteen orphans is possible."""
    candidates: set[int] = set()
    for kind in range(KINDS):
        if counts[kind]:
            candidates.add(kind)
            for start in shapes.runs_with[kind]:
                run = shapes.run_kinds[start]
                assert run is not None
                candidates.update(run)
    if total == 13 or kokushi:
        candidates.update(YAOCHUU)
    return sorted(candidates)


def waits(shapes: ShapeTable, counts: Sequence[int], called: Sequence[int] | None) -> list[Wait]:
    """The kinds completing 3n+1 concealed tiles, each with every shape in which it does; a
    kind held four times is never a wait."""
    total = sum(counts[:KINDS])
    if total % 3 != 1:
        return []
    open_kokushi = shapes.open_kokushi and called is not None and any(called)
    work = list(counts[:KINDS])
    result: list[Wait] = []
    for kind in _candidates(shapes, work, total, open_kokushi):
        if work[kind] >= 4:
            continue
        work[kind] += 1
        found: set[WaitShape] = set()
        for pair, runs, triplets in decompositions(shapes, work):
            if pair == kind:
                found.add(WaitShape.TANKI)
            if kind in triplets:
                found.add(WaitShape.SHANPON)
            for start, shape in shapes.runs_holding[kind]:
                if start in runs:
                    found.add(shape)
        if total == 13:
            if is_chiitoitsu(work):
                found.add(WaitShape.CHIITOITSU)
            if is_kokushi(work):
                found.add(WaitShape.KOKUSHI_13 if counts[kind] == 1 else WaitShape.KOKUSHI)
        if open_kokushi and is_open_kokushi(work, called):
            assert called is not None
            # Thirteen different kinds before the win: the winning tile made the pair.
            before = counts[kind] + called[kind]
            found.add(WaitShape.KOKUSHI_13 if before == 1 else WaitShape.KOKUSHI)
        work[kind] -= 1
        if found:
            result.append(Wait(kind, tuple(shape for shape in WaitShape if shape in found)))
    return result


def winning_kinds(
    shapes: ShapeTable, counts: Sequence[int], called: Sequence[int] | None
) -> list[int]:
    """The kinds completing 3n+1 concealed tiles (:func:`waits` without the shapes)."""
    total = sum(counts[:KINDS])
    if total % 3 != 1:
        return []
    open_kokushi = shapes.open_kokushi and called is not None and any(called)
    work = list(counts[:KINDS])
    found = []
    for kind in _candidates(shapes, work, total, open_kokushi):
        if work[kind] >= 4:
            continue
        work[kind] += 1
        if is_agari(shapes, work, called):
            found.append(kind)
        work[kind] -= 1
    return found


# -- shanten ---------------------------------------------------------------------------------------


def _dominates(a: Option, b: Option) -> bool:
    return (
        a[0] >= b[0]
        and a[0] + a[1] >= b[0] + b[1]
        and a[2] >= b[2]
        and _STATE_RANK[a[3]] >= _STATE_RANK[b[3]]
    )


def _prune(options: set[Option]) -> Frontier:
    """The Pareto-best options (no other option is at least as good in every respect)."""
    return tuple(
        sorted(a for a in options if not any(b != a and _dominates(b, a) for b in options))
    )


@lru_cache(maxsize=_MEMO)
def _blocks(part: Part, counts: tuple[int, ...], quads: tuple[bool, ...], paired: int) -> Frontier:
    """The best summaries of cutting a part's tiles (``counts`` by local position) into blocks.

    ``quads`` flags the positions the whole hand holds four times (their isolated tiles risk the
    penalty); ``paired`` is the position where a pair was just taken (no second pair there).
    """
    first = next((index for index, count in enumerate(counts) if count), -1)
    if first < 0:
        return ((0, 0, 0, 0),)
    if paired != first:
        paired = -1  # (the same sub-problem, whatever came before: one memo entry)
    found: set[Option] = set()

    def take(positions: tuple[int, ...], block: Option, paired_next: int) -> None:
        rest = list(counts)
        for position in positions:
            rest[position] -= 1
        melds, blocks, pair, state = block
        for m, k, p, s in _blocks(part, tuple(rest), quads, paired_next):
            found.add((m + melds, min(k + blocks, _MAX_BLOCKS), p | pair, max(s, state)))

    count = counts[first]
    lone = 1 if quads[first] else 2  # the isolated state of one tile of this kind
    if not part.runs_at[first]:
        # No run holds this kind (a standard honour): cut as mahjong does, see the docstring.
        if count >= 3:
            block = (1, 1, 0, lone if count == 4 else 0)
        elif count == 2:
            block = (0, 1, 1, 0)
        else:
            block = (0, 0, 0, lone)
        take((first,) * count, block, -1)
        return _prune(found)
    if count >= 3:
        take((first,) * 3, (1, 1, 0, 0), paired)
    if count >= 2 and paired != first:
        take((first,) * 2, (0, 1, 1, 0), first)
    for _, positions in part.runs_at[first]:
        if all(counts[position] for position in positions):
            take(positions, (1, 1, 0, 0), paired)
    for partner in part.partners[first]:
        if counts[partner]:
            take((first, partner), (0, 1, 0, 0), paired)
    take((first,), (0, 0, 0, lone), paired)
    return _prune(found)


def part_frontier(part: Part, counts: tuple[int, ...]) -> Frontier:
    """The Pareto-best block summaries of one part's tiles (by local position)."""
    return _blocks(part, counts, tuple(count == 4 for count in counts), -1)


@lru_cache(maxsize=_MEMO)
def _combine(a: Frontier, b: Frontier) -> Frontier:
    """The frontier of tiles made of two groups with frontiers ``a`` and ``b``."""
    return _prune(
        {
            (x[0] + y[0], min(x[1] + y[1], _MAX_BLOCKS), x[2] | y[2], max(x[3], y[3]))
            for x in a
            for y in b
        }
    )


def _checked(counts: Sequence[int]) -> tuple[int, ...]:
    """The counts as a tuple, refusing what is no hand (as engine.hand.shanten does)."""
    if len(counts) != KINDS:
        raise InvalidHandError(f"a hand has 34 tile counts, got {len(counts)}")
    for kind, count in enumerate(counts):
        if not isinstance(count, int) or not 0 <= count <= 4:
            raise InvalidHandError(
                f"tile counts are 0-4, got {count!r} for {format_kind(kind)} (at index {kind})"
            )
    total = sum(counts)
    if total > 14 or total % 3 == 0:
        raise InvalidHandError(
            f"a hand has at most 14 tiles, got {total}"
            if total > 14
            else f"a hand has 3n+1 or 3n+2 tiles, got {total}"
        )
    return tuple(counts)


def shanten_regular(shapes: ShapeTable, counts: Sequence[int]) -> int:
    """Shanten of the regular form (groups and a pair) alone, as ``mahjong`` defines it."""
    hand = _checked(counts)
    tiles = sum(hand)
    calls = (14 - tiles) // 3
    frontier: Frontier = ((calls, min(calls, _MAX_BLOCKS), 0, 0),)
    for part in shapes.parts:
        part_counts = _part_counts(part, hand)
        if any(part_counts):
            frontier = _combine(frontier, part_frontier(part, part_counts))
    best = 0
    for melds, blocks, pair, state in frontier:
        value = melds + min(blocks, 4 + pair) - (1 if pair == 0 and state == 1 else 0)
        best = max(best, value)
    result = 8 - best
    # The fourth copy of a kind no run holds can be neither paired nor waited on.
    floor = sum(1 for kind in range(KINDS) if hand[kind] == 4 and not shapes.runs_with[kind])
    if floor and tiles % 3 == 2:
        floor -= 1
    if result != -1 and result < floor:
        result = floor
    return result


def shanten_chiitoitsu(counts: Sequence[int]) -> int:
    """Seven pairs (four of a kind is one pair), for 13 or 14 tiles."""
    pairs = sum(1 for count in counts if count >= 2)
    kinds = sum(1 for count in counts if count)
    if pairs == 7:
        return -1
    return 6 - pairs + max(0, 7 - kinds)


def shanten_kokushi(counts: Sequence[int]) -> int:
    """Thirteen orphans (closed, or open with ``counts`` the concealed and called tiles)."""
    kinds = sum(1 for kind in YAOCHUU if counts[kind])
    paired = any(counts[kind] >= 2 for kind in YAOCHUU)
    return 13 - kinds - (1 if paired else 0)


def shanten(
    shapes: ShapeTable,
    counts: Sequence[int],
    called: Sequence[int] | None,
    *,
    use_chiitoitsu: bool = True,
    use_kokushi: bool = True,
) -> int:
    """Shanten: ``-1`` complete, ``0`` tenpai; the best of the regular form and, for a closed
    hand of 13 or 14 tiles, seven pairs and thirteen orphans, and, for a hand whose every called
    meld is an honour run, the open thirteen orphans (when the shapes allow it)."""
    result = shanten_regular(shapes, counts)
    tiles = sum(counts)
    if tiles >= 13:
        if use_chiitoitsu:
            result = min(result, shanten_chiitoitsu(counts))
        if use_kokushi:
            result = min(result, shanten_kokushi(counts))
    elif use_kokushi and shapes.open_kokushi and called is not None and any(called):
        total = [counts[kind] + called[kind] for kind in range(KINDS)]
        result = min(result, shanten_kokushi(total))
    return result
