"""Ùzje hand shapes: melds, winning forms, every decomposition, waits, and a distance for bots
(seeds/002 "Hands - General structure" and "Special forms").

**Melds.** A *trip* (three identical tiles), a *quad* (four, declared; it counts as three), an
*arith* (three number tiles of one suit in arithmetic progression with any common difference
``d >= 1``: ``369s``, ``5xet``, ``xcfs``), a *gem* (ranks 124, 248, 48f, 139 of one suit, no
zero) and a *power* (ranks 014, 149, 49f, 018 of one suit; the zero is rank 0). The zero is rank 0
of whichever suit a meld needs, or an honour (``ZZZ``, a ``ZZ`` pair).

**Winning forms.** Four melds and a pair; seven pairs (closed; four identical tiles are two
pairs; a declared quad is not); thirteen orphans (``1ft1fs1fmNESWCFP`` and one more of them);
fourteen orphans (``1ft1fs1fmZNESWCFP``); the ultra-long straight (``123456789xabcd``,
``23456789xabcde`` or ``3456789xabcdef`` of one suit; its open melds may only be ``d = 1``
ariths). With the compressed winds, ``EW`` become ``HH`` and ``NS`` become ``VV`` (line 166).

A hand is given as *counts*: a list of :data:`~engine.variants.uzje.tiles.KINDS` counts of the
concealed tiles (flowers are never part of a hand), plus the declared melds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Final

from engine.variants.uzje.tiles import (
    ARROWS,
    FIRST_FLOWER,
    FULL_WINDS,
    HORIZONTAL,
    MAX_RANK,
    SUIT_BASE,
    VERTICAL,
    ZERO,
    copies,
    format_kinds,
    format_ranks,
    number_kind,
    rank_of,
    suit_of,
)

#: Gems and powers as rank triples (seeds/002 lines 150-160).
GEMS: Final = frozenset({(1, 2, 4), (2, 4, 8), (4, 8, 16), (1, 3, 9)})
POWERS: Final = frozenset({(0, 1, 4), (1, 4, 9), (4, 9, 16), (0, 1, 8)})


class Shape(StrEnum):
    TRIP = "trip"
    QUAD = "quad"
    ARITH = "arith"
    GEM = "gem"
    POWER = "power"


class Form(StrEnum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    FOURTEEN_ORPHANS = "fourteen_orphans"
    ULTRA_LONG = "ultra_long_straight"


def number_shape(ranks: Sequence[int]) -> Shape | None:
    """The shape of three ranks of one suit (0 is the zero), or ``None``: an arith if they are
    an arithmetic progression of distinct ranks, else a gem or a power if they are one."""
    low, middle, high = sorted(ranks)
    if not low < middle < high or high > MAX_RANK or low < 0:
        return None
    if middle - low == high - middle:
        return Shape.ARITH
    if (low, middle, high) in GEMS:
        return Shape.GEM
    if (low, middle, high) in POWERS:
        return Shape.POWER
    return None


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld: its shape, its kinds (sorted by rank, the zero first), the number suit of an
    arith, gem or power, and whether it was claimed from another player (``open``). A closed
    quad is a declared meld that is not open."""

    shape: Shape
    kinds: tuple[int, ...]
    suit: int | None = None
    open: bool = False

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(rank_of(kind) for kind in self.kinds)

    @property
    def difference(self) -> int | None:
        """The common difference of an arith."""
        if self.shape is not Shape.ARITH:
            return None
        ranks = self.ranks
        return ranks[1] - ranks[0]

    @property
    def key(self) -> tuple[int, ...]:
        """The tiles as three kinds (a quad as its trip), to compare melds ("stutter")."""
        return self.kinds[:3]

    def __str__(self) -> str:
        if self.suit is not None:
            return format_ranks(self.suit, self.ranks)
        return format_kinds(self.kinds)


def classify(kinds: Sequence[int], *, open: bool = False) -> Meld | None:
    """The meld these three (or four identical) kinds make, or ``None``."""
    if len(kinds) == 4:
        if len(set(kinds)) == 1 and kinds[0] < FIRST_FLOWER:
            return Meld(Shape.QUAD, tuple(kinds), None, open)
        return None
    if len(kinds) != 3 or any(kind >= FIRST_FLOWER for kind in kinds):
        return None
    if kinds[0] == kinds[1] == kinds[2]:
        return Meld(Shape.TRIP, tuple(kinds), None, open)
    numbers = [kind for kind in kinds if kind < ZERO]
    if len(numbers) + list(kinds).count(ZERO) != 3 or len(numbers) < 2:
        return None
    suit = suit_of(numbers[0])
    if any(suit_of(kind) != suit for kind in numbers):
        return None
    shape = number_shape([rank_of(kind) for kind in kinds])
    if shape is None:
        return None
    ordered = tuple(sorted(kinds, key=rank_of))
    return Meld(shape, ordered, suit, open)


def _number_meld(shape: Shape, suit: int, ranks: tuple[int, int, int]) -> Meld:
    return Meld(shape, tuple(number_kind(suit, rank) for rank in ranks), suit)


#: Every number meld whose lowest rank is ``r``, by ``r`` (0-16): the rank triples and shapes.
_MELDS_FROM: Final[tuple[tuple[tuple[tuple[int, int, int], Shape], ...], ...]] = tuple(
    tuple(
        ((low, low + d, low + 2 * d), Shape.ARITH)
        for d in range(1, MAX_RANK)
        if low + 2 * d <= MAX_RANK
    )
    + tuple(
        (ranks, shape)
        for shape, group in ((Shape.GEM, GEMS), (Shape.POWER, POWERS))
        for ranks in sorted(group)
        if ranks[0] == low
    )
    for low in range(MAX_RANK + 1)
)


#: Every number meld containing rank ``r`` (0-16), by ``r``: its rank triples and shapes.
MELDS_WITH_RANK: Final[tuple[tuple[tuple[tuple[int, int, int], Shape], ...], ...]] = tuple(
    tuple(
        (ranks, shape)
        for low in range(MAX_RANK + 1)
        for ranks, shape in _MELDS_FROM[low]
        if rank in ranks
    )
    for rank in range(MAX_RANK + 1)
)


def melds_completed_by(counts: Sequence[int], kind: int) -> list[Meld]:
    """The number melds (arith, gem, power) that ``kind`` completes with two tiles of
    ``counts``, each once (a claim's choices)."""
    if kind > ZERO:
        return []
    rank = rank_of(kind)
    out = []
    for suit in range(3) if kind == ZERO else (suit_of(kind),):
        for ranks, shape in MELDS_WITH_RANK[rank]:
            others = [number_kind(suit, other) for other in ranks if other != rank]
            if all(counts[other] for other in others):
                out.append(_number_meld(shape, suit, ranks))
    return out


# -- decompositions ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read a complete hand: its form, its melds (declared ones included) and its
    pair (standard form), or its pairs (seven pairs, a kind per pair)."""

    form: Form
    melds: tuple[Meld, ...] = ()
    pair: int | None = None
    pairs: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.form is Form.STANDARD:
            assert self.pair is not None
            return " ".join([*map(str, self.melds), format_kinds((self.pair, self.pair))])
        if self.form is Form.SEVEN_PAIRS:
            return " ".join(format_kinds((kind, kind)) for kind in self.pairs)
        return self.form.value


#: The order in which the decomposition takes tiles: the zero first (it is the lowest rank of
#: any number meld it is in), then the number tiles, then the honours.
_TAKE_ORDER: Final = (ZERO, *range(ZERO), *range(ZERO + 1, FIRST_FLOWER))


def _concealed_melds(counts: list[int], pair: bool) -> Iterator[tuple[list[Meld], int | None]]:
    """Every way to read the concealed tiles as melds and (if ``pair``) one pair, each way once
    per order of taking its melds (callers remove duplicates)."""
    for kind in _TAKE_ORDER:
        if counts[kind]:
            break
    else:
        if not pair:
            yield [], None
        return
    count = counts[kind]
    if count >= 3:
        counts[kind] -= 3
        for melds, head in _concealed_melds(counts, pair):
            yield [Meld(Shape.TRIP, (kind, kind, kind)), *melds], head
        counts[kind] += 3
    if pair and count >= 2:
        counts[kind] -= 2
        for melds, _ in _concealed_melds(counts, False):
            yield melds, kind
        counts[kind] += 2
    if kind > ZERO:
        return
    suits = range(3) if kind == ZERO else (suit_of(kind),)
    low = rank_of(kind)
    for suit in suits:
        for ranks, shape in _MELDS_FROM[low]:
            others = [number_kind(suit, rank) for rank in ranks[1:]]
            if all(counts[other] for other in others):
                counts[kind] -= 1
                for other in others:
                    counts[other] -= 1
                meld = _number_meld(shape, suit, ranks)
                for melds, head in _concealed_melds(counts, pair):
                    yield [meld, *melds], head
                counts[kind] += 1
                for other in others:
                    counts[other] += 1


def standard_decompositions(
    counts: Sequence[int], declared: Sequence[Meld] = ()
) -> list[Decomposition]:
    """Every four-melds-and-a-pair reading of a complete hand (each once)."""
    if sum(counts) + 3 * len(declared) != 14:
        return []
    found: dict[tuple[object, ...], Decomposition] = {}
    for melds, head in _concealed_melds(list(counts), True):
        concealed = tuple(sorted(melds, key=lambda meld: (meld.kinds, meld.suit or 0)))
        key = (concealed, head)
        if key not in found:
            found[key] = Decomposition(Form.STANDARD, (*declared, *concealed), head)
    return list(found.values())


def orphan_kinds(full_winds: bool) -> tuple[dict[int, int], dict[int, int]]:
    """The tiles of thirteen and of fourteen orphans as counts by kind (before the extra tile
    of thirteen orphans). Compressed winds: ``EW`` -> ``HH``, ``NS`` -> ``VV``."""
    terminals = {number_kind(suit, rank): 1 for suit in range(3) for rank in (1, MAX_RANK)}
    winds = dict.fromkeys(FULL_WINDS, 1) if full_winds else {HORIZONTAL: 2, VERTICAL: 2}
    thirteen = {**terminals, **winds, **dict.fromkeys(ARROWS, 1)}
    return thirteen, {**thirteen, ZERO: 1}


_THIRTEEN_FULL, _FOURTEEN_FULL = orphan_kinds(True)
_THIRTEEN_COMPRESSED, _FOURTEEN_COMPRESSED = orphan_kinds(False)

#: The three ultra-long straights: first rank 1, 2 or 3, fourteen ranks each (line 170).
ULTRA_LONG_STARTS: Final = (1, 2, 3)


def special_form(counts: Sequence[int], declared: Sequence[Meld], full_winds: bool) -> Form | None:
    """The special form of a complete hand, if it is one (a hand is at most one of them)."""
    if not declared:
        if sum(counts) != 14:
            return None
        if all(count % 2 == 0 for count in counts):
            return Form.SEVEN_PAIRS
        thirteen = _THIRTEEN_FULL if full_winds else _THIRTEEN_COMPRESSED
        fourteen = _FOURTEEN_FULL if full_winds else _FOURTEEN_COMPRESSED
        if _matches(counts, fourteen, 0):
            return Form.FOURTEEN_ORPHANS
        if _matches(counts, thirteen, 1):
            return Form.THIRTEEN_ORPHANS
    if _is_ultra_long(counts, declared):
        return Form.ULTRA_LONG
    return None


def _matches(counts: Sequence[int], wanted: dict[int, int], extra: int) -> bool:
    """Whether the counts are exactly ``wanted`` plus ``extra`` more of its kinds."""
    over = 0
    for kind, need in wanted.items():
        count = counts[kind]
        if count < need:
            return False
        over += count - need
    # Every tile is one of the wanted kinds (the caller's hand has 14 tiles).
    return over == extra and sum(counts) == sum(wanted.values()) + extra


#: The ultra-long straights as the ranks 1-16 of one suit: a 0/1 tuple per start.
_STRAIGHTS: Final = tuple(
    tuple(int(start <= rank < start + 14) for rank in range(1, MAX_RANK + 1))
    for start in ULTRA_LONG_STARTS
)


def _is_ultra_long(counts: Sequence[int], declared: Sequence[Meld]) -> bool:
    if any(meld.shape is not Shape.ARITH or meld.difference != 1 for meld in declared):
        return False
    held = list(counts)
    for meld in declared:
        for kind in meld.kinds:
            held[kind] += 1
    for base in SUIT_BASE:
        suit = tuple(held[base : base + MAX_RANK])
        if suit in _STRAIGHTS:
            return sum(held) == 14
    return False


def decompositions(
    counts: Sequence[int], declared: Sequence[Meld] = (), *, full_winds: bool = True
) -> list[Decomposition]:
    """Every reading of a complete hand: the standard ones and its special form, if any."""
    out = standard_decompositions(counts, declared)
    form = special_form(counts, declared, full_winds)
    if form is Form.SEVEN_PAIRS:
        pairs = tuple(kind for kind, count in enumerate(counts) for _ in range(count // 2))
        out.append(Decomposition(form, pairs=pairs))
    elif form is not None:
        out.append(Decomposition(form, tuple(declared)))
    return out


# -- fast completeness and waits ----------------------------------------------------------------

_NO_MELD_WAY: Final = 0
_MELDS: Final = 1  # the tiles are melds only
_MELDS_AND_PAIR: Final = 2  # the tiles are melds and one pair


@lru_cache(maxsize=1 << 16)
def _suit_ways(ranks: tuple[int, ...]) -> int:
    """Bit set of how one suit's tiles (counts by rank 0-16, rank 0 being zeros the suit uses
    as numbers) decompose: :data:`_MELDS` and/or :data:`_MELDS_AND_PAIR`."""
    low = next((rank for rank, count in enumerate(ranks) if count), -1)
    if low < 0:
        return _MELDS
    count = ranks[low]
    ways = _NO_MELD_WAY
    counts = list(ranks)
    if low and count >= 3:
        counts[low] -= 3
        ways |= _suit_ways(tuple(counts))
        counts[low] += 3
    if low and count >= 2:
        counts[low] -= 2
        if _suit_ways(tuple(counts)) & _MELDS:
            ways |= _MELDS_AND_PAIR
        counts[low] += 2
    if ways == _MELDS | _MELDS_AND_PAIR:
        return ways
    for (_, middle, high), _shape in _MELDS_FROM[low]:
        if counts[middle] and counts[high]:
            counts[low] -= 1
            counts[middle] -= 1
            counts[high] -= 1
            ways |= _suit_ways(tuple(counts))
            counts[low] += 1
            counts[middle] += 1
            counts[high] += 1
            if ways == _MELDS | _MELDS_AND_PAIR:
                break
    return ways


def _splits(total: int) -> Iterator[tuple[int, int, int]]:
    """Ways to share ``total`` zeros among the three suits."""
    for first in range(total + 1):
        for second in range(total - first + 1):
            yield first, second, total - first - second


def is_standard_complete(counts: Sequence[int]) -> bool:
    """Whether the concealed tiles (3n + 2 of them) are melds and one pair."""
    pairs = 0
    for kind in range(ZERO + 1, FIRST_FLOWER):
        count = counts[kind]
        if count == 2:
            pairs += 1
        elif count and count != 3:
            return False
    if pairs > 1:
        return False
    zeros = counts[ZERO]
    if not zeros:
        # Without zeros each suit is melds (a multiple of three tiles) or melds and the pair.
        residues = [sum(counts[base : base + MAX_RANK]) % 3 for base in SUIT_BASE]
        if 1 in residues or residues.count(2) + pairs != 1:
            return False
    suits = [tuple(counts[base : base + MAX_RANK]) for base in SUIT_BASE]
    for as_honour in (0, 2, 3):
        if as_honour > zeros:
            break
        need_pair = 1 - pairs - (as_honour == 2)
        if need_pair < 0:
            continue
        for split in _splits(zeros - as_honour):
            ways = [_suit_ways((used, *suit)) for used, suit in zip(split, suits, strict=True)]
            if need_pair == 0:
                if all(way & _MELDS for way in ways):
                    return True
            else:
                for index, way in enumerate(ways):
                    if way & _MELDS_AND_PAIR and all(
                        other & _MELDS for position, other in enumerate(ways) if position != index
                    ):
                        return True
    return False


def is_complete(counts: Sequence[int], declared: Sequence[Meld] = (), *, full_winds: bool) -> bool:
    """Whether the concealed tiles with the declared melds make a winning shape."""
    if sum(counts) + 3 * len(declared) != 14:
        return False
    if is_standard_complete(counts):
        return True
    return special_form(counts, declared, full_winds) is not None


def waits(
    counts: Sequence[int],
    declared: Sequence[Meld],
    candidates: Sequence[int],
    *,
    full_winds: bool,
) -> list[int]:
    """The kinds (among ``candidates``) that complete a hand one tile short. A kind the player
    already holds all copies of (concealed or in melds) is no wait."""
    held = list(counts)
    for meld in declared:
        for kind in meld.kinds[:3]:
            held[kind] += 1
    out = []
    hand = list(counts)
    for kind in candidates:
        if kind >= FIRST_FLOWER or held[kind] >= copies(kind):
            continue
        hand[kind] += 1
        if is_complete(hand, declared, full_winds=full_winds):
            out.append(kind)
        hand[kind] -= 1
    return out


# -- distance (for bots) --------------------------------------------------------------------------

#: ``_PARTNERS[limited][r]``: ranks ``s > r`` such that ``r, s`` and some third rank in play make
#: a number meld (``limited``: the tongs of a 4-player table, ranks 1 and 16 only).
_IN_PLAY: Final = (frozenset(range(MAX_RANK + 1)), frozenset({0, 1, MAX_RANK}))


def _partners(limited: bool) -> tuple[frozenset[int], ...]:
    in_play = _IN_PLAY[limited]
    out = []
    for low in range(MAX_RANK + 1):
        found = set()
        for high in range(low + 1, MAX_RANK + 1):
            if (
                low in in_play
                and high in in_play
                and any(
                    third not in (low, high) and number_shape((low, high, third)) is not None
                    for third in in_play
                )
            ):
                found.add(high)
        out.append(frozenset(found))
    return tuple(out)


_PARTNERS: Final = (_partners(False), _partners(True))

#: A group's best (melds, partial melds, pair) triples.
_Options = frozenset[tuple[int, int, int]]


def _pareto(options: set[tuple[int, int, int]]) -> _Options:
    """The options no other option beats in every count. In descending order an option can
    only be beaten by one kept before it."""
    kept: list[tuple[int, int, int]] = []
    for m, p, h in sorted(options, reverse=True):
        if not any(km >= m and kp >= p and kh >= h for km, kp, kh in kept):
            kept.append((m, p, h))
    return frozenset(kept)


@lru_cache(maxsize=1 << 17)
def _suit_options(ranks: tuple[int, ...], limited: bool) -> _Options:
    """Pareto-best (melds, partials, pair) of one suit's tiles (counts by rank 1-16 at index
    1-16; index 0 unused: the distance keeps zeros with the honours)."""
    low = next((rank for rank, count in enumerate(ranks) if count), -1)
    if low < 0:
        return frozenset({(0, 0, 0)})
    count = ranks[low]
    counts = list(ranks)
    found: set[tuple[int, int, int]] = set()

    def add(delta: tuple[int, int, int]) -> None:
        dm, dp, dh = delta
        for m, p, h in _suit_options(tuple(counts), limited):
            if not (dh and h):
                found.add((m + dm, p + dp, h + dh))

    counts[low] -= 1
    add((0, 0, 0))  # the tile is left on its own
    counts[low] += 1
    if count >= 3:
        counts[low] -= 3
        add((1, 0, 0))
        counts[low] += 3
    if count >= 2:
        counts[low] -= 2
        add((0, 1, 0))
        add((0, 0, 1))
        counts[low] += 2
    for (_, middle, high), _shape in _MELDS_FROM[low]:
        if counts[middle] and counts[high]:
            counts[low] -= 1
            counts[middle] -= 1
            counts[high] -= 1
            add((1, 0, 0))
            counts[low] += 1
            counts[middle] += 1
            counts[high] += 1
    for partner in _PARTNERS[limited][low]:
        if counts[partner]:
            counts[low] -= 1
            counts[partner] -= 1
            add((0, 1, 0))
            counts[low] += 1
            counts[partner] += 1
    return _pareto(found)


def _honour_options(counts: Sequence[int]) -> _Options:
    melds = pairs = 0
    for kind in range(ZERO, FIRST_FLOWER):
        count = counts[kind]
        if count >= 3:
            melds += 1
        elif count == 2:
            pairs += 1
    options = {(melds, pairs, 0)}
    if pairs:
        options.add((melds, pairs - 1, 1))
    return frozenset(options)


def standard_distance(counts: Sequence[int], declared: int, limited_tongs: bool) -> int:
    """Tiles still to change to reach four melds and a pair (shanten: -1 complete, 0 one tile
    short). Exact for the melds and pairs it sees; it keeps the zero with the honours (never
    as rank 0 of a suit), so it may overstate by one for hands that need the zero as a number."""
    groups = [
        _suit_options((0, *counts[base : base + MAX_RANK]), limited_tongs and base == 0)
        for base in SUIT_BASE
    ]
    return _combined_distance(*groups, _honour_options(counts), declared)


@lru_cache(maxsize=1 << 16)
def _combined_distance(
    tongs: _Options, socks: _Options, mans: _Options, honours: _Options, declared: int
) -> int:
    """The distance of the best combination of the groups' options (at most four melds and
    one pair; partial melds count only while melds and partials are at most four)."""
    best: set[tuple[int, int, int]] = {(declared, 0, 0)}
    for options in (tongs, socks, mans, honours):
        best = {
            (min(m + gm, 4), min(p + gp, 4), h + gh)
            for m, p, h in best
            for gm, gp, gh in options
            if h + gh <= 1
        }
    value = max(2 * m + min(p, 4 - m) + h for m, p, h in best)
    return 8 - value


def pairs_distance(counts: Sequence[int]) -> int:
    """Seven pairs shanten of a closed hand (four of a kind are two pairs)."""
    return 6 - min(7, sum(count // 2 for count in counts))


_ORPHAN_TARGETS: Final = {
    full: ((tuple(thirteen.items()), 1), (tuple(fourteen.items()), 0))
    for full, (thirteen, fourteen) in ((True, orphan_kinds(True)), (False, orphan_kinds(False)))
}


def orphans_distance(counts: Sequence[int], full_winds: bool) -> int:
    """Thirteen/fourteen orphans shanten of a closed hand: -1 complete."""
    best = 99
    for wanted, extra in _ORPHAN_TARGETS[full_winds]:
        have = 0
        spare = False
        for kind, need in wanted:
            count = counts[kind]
            have += count if count < need else need
            spare = spare or count > need
        best = min(best, 13 - have - (1 if extra and spare else 0))
    return best


def discard_distances(
    counts: Sequence[int], declared: Sequence[Meld], *, full_winds: bool, limited_tongs: bool
) -> dict[int, int]:
    """:func:`distance` after discarding each held kind (not flowers), computed together: only
    the discarded tile's group changes, and the closed forms' counts change by one tile."""
    suits = [tuple(counts[base : base + MAX_RANK]) for base in SUIT_BASE]
    options = [
        _suit_options((0, *suit), limited_tongs and index == 0) for index, suit in enumerate(suits)
    ]
    closed = not declared
    pairs = sum(count // 2 for count in counts) if closed else 0
    # Orphans can only get one worse when a tile goes: work it out only where it may matter.
    orphans = orphans_distance(counts, full_winds) if closed else 99
    honours = _honour_options(counts)
    out: dict[int, int] = {}
    hand = list(counts)
    for kind in range(FIRST_FLOWER):
        count = counts[kind]
        if not count:
            continue
        hand[kind] -= 1
        if kind < ZERO:
            suit = kind // MAX_RANK
            changed = list(suits[suit])
            changed[kind % MAX_RANK] -= 1
            groups = list(options)
            groups[suit] = _suit_options((0, *changed), limited_tongs and suit == 0)
            result = _combined_distance(*groups, honours, len(declared))
        else:
            result = _combined_distance(*options, _honour_options(hand), len(declared))
        if closed:
            lost_pair = count % 2 == 0  # an even count loses a pair when one tile goes
            result = min(result, 6 - min(7, pairs - lost_pair))
            if orphans < result:
                result = min(result, orphans_distance(hand, full_winds))
        hand[kind] += 1
        out[kind] = result
    return out


def distance(
    counts: Sequence[int], declared: Sequence[Meld], *, full_winds: bool, limited_tongs: bool
) -> int:
    """The smallest distance over the winning forms a bot aims at (closed forms only without
    declared melds; the ultra-long straight is left out)."""
    result = standard_distance(counts, len(declared), limited_tongs)
    if not declared:
        result = min(result, pairs_distance(counts), orphans_distance(counts, full_winds))
    return result
