"""Shanten: how many tiles a hand is from tenpai (``0``), or ``-1`` when it is complete.

The numbers are exactly those of ``mahjong`` 2.1.0's ``Shanten.calculate_shanten`` (checked by a
differential test over tens of thousands of hands), computed with per-suit tables instead of a
search over the whole hand.

Hands
=====
A hand is 34 tile counts in the usual layout (0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s,
27-33 = East South West North White Green Red). A hand of ``3n+1`` or ``3n+2`` tiles (1, 2, 4,
5, ..., 13, 14) implies ``(14 - tiles) // 3`` called melds, which count as complete melds. In
three-player mode 2m-8m do not exist. Bad input raises :class:`~engine.errors.InvalidHandError`
(a ``ValueError``) naming the first problem found: not 34 counts, a count that is not 0-4, 2m-8m
in a three-player hand, or a tile total that is not 3n+1 / 3n+2 up to 14.

The three hand shapes
=====================
* Seven pairs (``shanten_chiitoitsu``): ``6 - pairs + max(0, 7 - kinds)``, ``-1`` at seven
  pairs, where *pairs* counts kinds held at least twice (four of a kind is one pair, not two) and
  *kinds* counts distinct kinds held.
* Thirteen orphans (``shanten_kokushi``): ``13 - kinds of terminal/honour held - (1 if one of
  them is held at least twice)``.
* Both only apply to a closed hand of 13 or 14 tiles; ``shanten`` takes the minimum of the
  regular number and, for such hands, these two.

The regular hand, as ``mahjong`` defines it
===========================================
``mahjong`` searches decompositions of the hand into melds (runs and triplets, ``M``), taatsu
(two tiles of a run, ``T``), pairs (``P``) and isolated tiles, and scores each one::

    8 - 2M - T - P,  + (M + T + P - 1 - 4) if there is a pair and that is > 0,
                     + (M + T - 4)         if there is no pair and that is > 0

(at most four meld candidates count, one pair being the head). Writing ``K = M + T + P`` for the
number of blocks, that is ``8 - M - min(K, 4 + [P > 0])``: a meld is worth two, any other block
one, at most five blocks when one is a pair (the head), at most four otherwise. On top of that:

1. Honours are never searched (they cannot form runs). Per honour kind: three = a meld, two = a
   pair, one = an isolated tile, four = a meld plus an isolated tile of a kind held four times
   (you hold the only copies, so that tile can never become a pair or a wait).
   In three-player mode 1m and 9m are handled like honours (2m-8m do not exist, so they cannot
   form runs either) and the manzu suit is not searched.
2. *Four-copies penalty*: if a decomposition has no pair, has isolated tiles, and every isolated
   tile is of a kind the hand holds four of, it gets ``+1``. The last tile of a kind you hold
   four of is a dead end: the pair it must become needs a fifth copy. (For honours the test is
   made on the honour group as a whole: its isolated tiles all come from four-of-a-kinds.)
3. *Jidahai floor*: let ``J`` be the number of honour kinds held four times (plus 1m/9m in
   three-player mode), less one when the hand has ``3n+2`` tiles. A non-complete result is
   raised to at least ``J``: the spare fourth tile of each such kind can be neither paired nor
   waited on, so each costs a draw to replace; in a ``3n+2`` hand one of them can be the
   discard you are about to make.
4. The search is *not* exhaustive; it is a fixed depth-first walk over each suit (for example a
   lone tile followed by a lone tile and any tile right after is always taken as a run, unless
   the fourth tile is a four-of-a-kind; two branches of a four-of-a-kind drop its fourth tile
   without counting it as isolated, harmless as those branches hold a pair, so the penalty
   cannot apply). Its result is reproduced by running that very walk per suit
   (:func:`_walk_suit`), not by an optimal search, so the numbers stay identical.

How it is computed here
=======================
The walk never looks across suits, so the set of decompositions of a hand is the product of the
per-suit sets. Each suit's 9 counts (as 9 bytes) are looked up in a memo, filled on first sight
by the walk; a decomposition reduces to an *option* ``(melds, blocks capped at 5, has pair,
isolated state)`` with isolated state 0 = none, 1 = only tiles of kinds held four times,
2 = some other tile. A suit keeps only its Pareto-best options (``a`` beats ``b`` when it has no
fewer melds, no fewer melds + blocks, a pair if ``b`` has one, and an isolated state no more
prone to the penalty: 2 before 0 before 1). Such option sets ("frontiers") are interned as small
integers, and combining two frontiers (option sums, capped and pruned again) is memoised by id
pair. So a warm lookup costs: one ``bytes`` conversion, four dict hits for the suit groups, three
for the combination and the final score. When no kind is held four times the penalty cannot
happen and the isolated state is dropped, which keeps the frontiers smaller; hands with a
four-of-a-kind use the full frontiers. Blocks are capped at 5 because the score only sees
``min(K, 5)``. Each memo is bounded by the number of distinct suit patterns of at most 14 tiles
(405,350) and stays far smaller in practice (about 10,000 after 100,000 random hands).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Final

from engine.errors import InvalidHandError
from engine.hand import shanten_table

__all__ = [
    "AGARI",
    "TENPAI",
    "clear_tables",
    "shanten",
    "shanten_chiitoitsu",
    "shanten_kokushi",
    "shanten_regular",
]

AGARI: Final = -1
"""Shanten of a complete hand."""
TENPAI: Final = 0
"""Shanten of a hand one tile from complete."""

# An option: (melds, blocks capped at _MAX_BLOCKS, has pair 0/1, isolated state 0/1/2).
_Option = tuple[int, int, int, int]
_Frontier = tuple[_Option, ...]

_MAX_BLOCKS: Final = 5
# How good an isolated state is, as far as the four-copies penalty goes (higher is better):
# 1 (only four-of-a-kind tiles isolated) risks it, 0 (none) risks it if another group is 1,
# 2 (some other isolated tile) rules it out.
_STATE_RANK: Final = (1, 0, 2)

# Per-group statistics packed into one int, 8 bits a field, so four groups add up in one sum.
_F_PAIRS: Final = 8  # kinds held >= 2
_F_KINDS: Final = 16  # kinds held >= 1
_F_TERMS: Final = 24  # terminal/honour kinds held
_F_TPAIRS: Final = 32  # terminal/honour kinds held >= 2
_F_QUADS: Final = 40  # kinds held 4 times (any group)
_F_JIDAHAI: Final = 48  # kinds held 4 times in the honour group
_QUAD_MASK: Final = 0xFF << _F_QUADS

_ID_BITS: Final = 20

_TILE_NAMES: Final = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple(
    f"{r}z" for r in range(1, 8)
)
_NO_MIDDLE_MAN: Final = bytes(7)

# Implied calls per tile total (-1: not a valid total). Totals go up to 34 * 4.
_CALLS: Final = tuple((14 - n) // 3 if 0 < n <= 14 and n % 3 else -1 for n in range(137))


def _chiitoitsu(pairs: int, kinds: int) -> int:
    if pairs == 7:
        return AGARI
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def _kokushi(kinds: int, with_pair: int) -> int:
    return 13 - kinds - (1 if with_pair else 0)


# The seven-pairs and thirteen-orphans numbers by two adjacent stats fields (low + high << 8),
# for hands of at most 14 tiles: at most 14 kinds, 7 pairs, 13 terminal kinds, 7 of them paired.
_CHIITOITSU: Final = tuple(_chiitoitsu(i & 0xFF, i >> 8) for i in range(15 << 8))
_KOKUSHI: Final = tuple(_kokushi(i & 0xFF, i >> 8) for i in range(8 << 8))

# Memo tables. Keys of the suit tables are the group's counts as bytes.
# _SUIT: 9 counts of a number suit -> (fast frontier id, stats, full frontier id)
# _HONOR / _HONOR3: honour group (7 honours, or 7 honours + 1m + 9m in three-player mode)
#   -> (fast frontier id by number of calls, stats, full frontier id by number of calls)
_SUIT: dict[bytes, tuple[int, int, int]] = {}
_HONOR: dict[bytes, tuple[tuple[int, ...], int, tuple[int, ...]]] = {}
_HONOR3: dict[bytes, tuple[tuple[int, ...], int, tuple[int, ...]]] = {}
_FRONTIERS: list[_Frontier] = []
_FRONTIER_IDS: dict[_Frontier, int] = {}
_COMBINED: dict[int, int] = {}  # (id_a << _ID_BITS | id_b) -> id of the combined frontier
_FINAL: dict[int, int] = {}  # (id_a << _ID_BITS | id_b) -> regular shanten before the floor
_INTERN_LOCK: Final = threading.Lock()


# --------------------------------------------------------------------------------------------
# Frontiers


def _dominates(a: _Option, b: _Option) -> bool:
    return (
        a[0] >= b[0]
        and a[0] + a[1] >= b[0] + b[1]
        and a[2] >= b[2]
        and _STATE_RANK[a[3]] >= _STATE_RANK[b[3]]
    )


def _pareto(options: set[_Option]) -> _Frontier:
    """The Pareto frontier of ``options``, sorted."""
    return tuple(
        sorted(a for a in options if not any(b != a and _dominates(b, a) for b in options))
    )


def _intern(options: set[_Option]) -> int:
    """Id of the Pareto frontier of ``options``."""
    return _intern_frontier(_pareto(options))


def _intern_frontier(front: _Frontier) -> int:
    """Id of a frontier (options already Pareto-reduced and sorted)."""
    with _INTERN_LOCK:  # ids are list positions: two threads must not take the same one
        fid = _FRONTIER_IDS.get(front)
        if fid is None:
            fid = len(_FRONTIERS)
            if fid >= 1 << _ID_BITS:  # pragma: no cover - far beyond any reachable count
                raise RuntimeError("too many shanten frontiers")
            _FRONTIERS.append(front)
            _FRONTIER_IDS[front] = fid
    return fid


def _combine(a: int, b: int) -> int:
    """Id of the frontier of a hand made of two groups with frontiers ``a`` and ``b``."""
    fid = _intern(
        {
            (x[0] + y[0], min(x[1] + y[1], _MAX_BLOCKS), x[2] | y[2], max(x[3], y[3]))
            for x in _FRONTIERS[a]
            for y in _FRONTIERS[b]
        }
    )
    _COMBINED[a << _ID_BITS | b] = fid
    return fid


def _final(a: int, b: int) -> int:
    """Regular shanten (before the jidahai floor) of a hand made of groups ``a`` and ``b``."""
    best = 0
    for m, k, p, s in _FRONTIERS[_combine(a, b)]:
        value = m + min(k, 4 + p) - (1 if p == 0 and s == 1 else 0)
        best = max(best, value)
    result = 8 - best
    _FINAL[a << _ID_BITS | b] = result
    return result


# --------------------------------------------------------------------------------------------
# The per-suit walk (a faithful copy of mahjong 2.1.0's _RegularShanten._run on one suit)


def _walk_suit(counts: Sequence[int]) -> set[tuple[int, int, int, int]]:
    """Every (melds, taatsu, pairs, isolated-tile mask) the mahjong walk reaches on one suit."""
    t = list(counts)
    leaves: set[tuple[int, int, int, int]] = set()

    def via(d: int, offsets: tuple[int, ...], k: int, *state: int) -> None:
        """Take ``k`` tiles at each ``d + offset``, walk on with ``state``, put them back."""
        for offset in offsets:
            t[d + offset] -= k
        run(*state)
        for offset in offsets:
            t[d + offset] += k

    def run(d: int, m: int, ta: int, p: int, iso: int) -> None:
        while d < 9 and not t[d]:
            d += 1
        if d >= 9:
            leaves.add((m, ta, p, iso))
            return
        c = t[d]
        if c == 4:
            t[d] -= 3  # triplet
            if d < 7 and t[d + 2]:
                if t[d + 1]:
                    via(d, (0, 1, 2), 1, d + 1, m + 2, ta, p, iso)
                via(d, (0, 2), 1, d + 1, m + 1, ta + 1, p, iso)
            if d < 8 and t[d + 1]:
                via(d, (0, 1), 1, d + 1, m + 1, ta + 1, p, iso)
            t[d] -= 1  # isolated
            run(d + 1, m + 1, ta, p, iso | 1 << d)
            t[d] += 1
            t[d] += 3
            t[d] -= 2  # pair
            if d < 7 and t[d + 2]:
                if t[d + 1]:
                    via(d, (0, 1, 2), 1, d, m + 1, ta, p + 1, iso)
                via(d, (0, 2), 1, d + 1, m, ta + 1, p + 1, iso)  # leaves one tile at d uncounted
            if d < 8 and t[d + 1]:
                via(d, (0, 1), 1, d + 1, m, ta + 1, p + 1, iso)  # leaves one tile at d uncounted
            t[d] += 2
        elif c == 3:
            t[d] -= 3  # triplet
            run(d + 1, m + 1, ta, p, iso)
            t[d] += 3
            t[d] -= 2  # pair
            if d < 7 and t[d + 1] and t[d + 2]:
                via(d, (0, 1, 2), 1, d + 1, m + 1, ta, p + 1, iso)
            else:
                if d < 7 and t[d + 2]:
                    via(d, (0, 2), 1, d + 1, m, ta + 1, p + 1, iso)
                if d < 8 and t[d + 1]:
                    via(d, (0, 1), 1, d + 1, m, ta + 1, p + 1, iso)
            t[d] += 2
            if d < 7 and t[d + 2] >= 2 and t[d + 1] >= 2:
                via(d, (0, 1, 2), 2, d, m + 2, ta, p, iso)
        elif c == 2:
            t[d] -= 2  # pair
            run(d + 1, m, ta, p + 1, iso)
            t[d] += 2
            if d < 7 and t[d + 2] and t[d + 1]:
                via(d, (0, 1, 2), 1, d, m + 1, ta, p, iso)
        elif c == 1:
            if d < 6 and t[d + 1] == 1 and t[d + 2] and t[d + 3] != 4:
                via(d, (0, 1, 2), 1, d + 2, m + 1, ta, p, iso)
            else:
                t[d] -= 1  # isolated
                run(d + 1, m, ta, p, iso | 1 << d)
                t[d] += 1
                if d < 7 and t[d + 2]:
                    if t[d + 1]:
                        via(d, (0, 1, 2), 1, d + 1, m + 1, ta, p, iso)
                    via(d, (0, 2), 1, d + 1, m, ta + 1, p, iso)
                if d < 8 and t[d + 1]:
                    via(d, (0, 1), 1, d + 1, m, ta + 1, p, iso)

    run(0, 0, 0, 0, 0)
    return leaves


# --------------------------------------------------------------------------------------------
# Learning groups (memo misses); these also validate the counts they see


def _check_counts(b: bytes, start: int, end: int) -> None:
    for i in range(start, end):
        if b[i] > 4:
            raise InvalidHandError(
                f"tile counts are 0-4, got {b[i]} for {_TILE_NAMES[i]} (at index {i})"
            )


def suit_frontiers(counts: Sequence[int]) -> tuple[_Frontier, _Frontier]:
    """The fast and full frontiers of one number suit's 9 counts, by the walk (what the
    precomputed table, :mod:`engine.hand.shanten_table`, holds for every pattern)."""
    quads = sum(1 << i for i, c in enumerate(counts) if c == 4)
    fast: set[_Option] = set()
    full: set[_Option] = set()
    for m, ta, p, iso in _walk_suit(counts):
        blocks = min(m + ta + p, _MAX_BLOCKS)
        has_pair = 1 if p else 0
        state = 0 if not iso else (1 if not iso & ~quads else 2)
        fast.add((m, blocks, has_pair, 0))
        full.add((m, blocks, has_pair, state))
    return _pareto(fast), _pareto(full)


#: The frontier id here of each frontier id of the precomputed table (filled at first use;
#: emptied by :func:`clear_tables`, which forgets the ids).
_FROM_TABLE: list[int] = []
_TABLE_LOCK: Final = threading.Lock()


def _tabled(key: bytes) -> tuple[int, int] | None:
    """The (fast, full) frontier ids of a suit pattern from the precomputed table; ``None``
    without the table or for a pattern it does not hold (more than 14 tiles)."""
    table = shanten_table.load()
    if table is None:
        return None
    if not _FROM_TABLE:
        with _TABLE_LOCK:
            if not _FROM_TABLE:
                mapped = [_intern_frontier(front) for front in table.frontiers]
                _FROM_TABLE[:] = mapped  # all at once: other threads read it unlocked
    fast, full = table.lookup(key)
    if fast == shanten_table.NO_PATTERN:
        return None
    return _FROM_TABLE[fast], _FROM_TABLE[full]


def _learn_suit(b: bytes, start: int) -> tuple[int, int, int]:
    _check_counts(b, start, start + 9)
    key = b[start : start + 9]
    counts = list(key)
    ids = _tabled(key)
    if ids is None:
        fast, full = suit_frontiers(counts)
        ids = _intern_frontier(fast), _intern_frontier(full)
    stats = (
        sum(counts)
        + (sum(1 for c in counts if c >= 2) << _F_PAIRS)
        + (sum(1 for c in counts if c) << _F_KINDS)
        + (((counts[0] > 0) + (counts[8] > 0)) << _F_TERMS)
        + (((counts[0] >= 2) + (counts[8] >= 2)) << _F_TPAIRS)
        + (sum(1 for c in counts if c == 4) << _F_QUADS)
    )
    entry = (ids[0], stats, ids[1])
    _SUIT[key] = entry
    return entry


def _learn_honor(key: bytes) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """Entry of an honour group: honours, plus 1m and 9m in three-player mode."""
    melds = sum(1 for c in key if c >= 3)
    pairs = sum(1 for c in key if c == 2)
    singles = sum(1 for c in key if c == 1)
    quads = sum(1 for c in key if c == 4)
    state = 2 if singles else (1 if quads else 0)
    has_pair = 1 if pairs else 0
    fast = []
    full = []
    for calls in range(5):
        blocks = min(melds + pairs + calls, _MAX_BLOCKS)
        fast.append(_intern({(melds + calls, blocks, has_pair, 0)}))
        full.append(_intern({(melds + calls, blocks, has_pair, state)}))
    kinds = sum(1 for c in key if c)
    held2 = sum(1 for c in key if c >= 2)
    stats = (
        sum(key)
        + (held2 << _F_PAIRS)
        + (kinds << _F_KINDS)
        + (kinds << _F_TERMS)
        + (held2 << _F_TPAIRS)
        + (quads << _F_QUADS)
        + (quads << _F_JIDAHAI)
    )
    return (tuple(fast), stats, tuple(full))


def _learn_honor4(b: bytes) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    _check_counts(b, 27, 34)
    key = b[27:34]
    entry = _learn_honor(key)
    _HONOR[key] = entry
    return entry


def _learn_honor3(b: bytes) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    _check_counts(b, 0, 9)
    _check_counts(b, 27, 34)
    key = b[27:34] + b[0:9:8]
    entry = _learn_honor(key)
    _HONOR3[key] = entry
    return entry


# --------------------------------------------------------------------------------------------
# Errors


def _bad_input(counts: Sequence[int]) -> InvalidHandError | TypeError:
    """The error for counts that ``bytes()`` refused (or that have the wrong length)."""
    try:
        size = len(counts)
    except TypeError:
        return TypeError(f"a hand is a sequence of 34 counts, got {type(counts).__name__}")
    if size != 34:
        return InvalidHandError(f"a hand has 34 tile counts, got {size}")
    for i, c in enumerate(counts):
        if not isinstance(c, int):
            return TypeError(f"tile counts are ints, got {c!r} for {_TILE_NAMES[i]}")
        if not 0 <= c <= 4:
            return InvalidHandError(
                f"tile counts are 0-4, got {c} for {_TILE_NAMES[i]} (at index {i})"
            )
    return TypeError(f"a hand is a sequence of 34 counts, got {counts!r}")  # pragma: no cover


def _bad_total(n: int) -> InvalidHandError:
    if n > 14:
        return InvalidHandError(f"a hand has at most 14 tiles, got {n}")
    return InvalidHandError(f"a hand has 3n+1 or 3n+2 tiles, got {n}")


def _bad_sanma(b: bytes) -> InvalidHandError:
    names = ", ".join(_TILE_NAMES[i] for i in range(1, 8) if b[i])
    return InvalidHandError(f"2m-8m do not exist in three-player mahjong, got {names}")


# --------------------------------------------------------------------------------------------
# Public API


def shanten(
    counts: Sequence[int],
    *,
    three_player: bool = False,
    use_chiitoitsu: bool = True,
    use_kokushi: bool = True,
) -> int:
    """Shanten of a hand: ``-1`` complete, ``0`` tenpai, else tiles short of tenpai.

    The minimum of the regular hand and, for a closed 13- or 14-tile hand, seven pairs (if
    ``use_chiitoitsu``) and thirteen orphans (if ``use_kokushi``); the same number as
    ``mahjong`` 2.1.0's ``Shanten.calculate_shanten``.

    >>> shanten([2] + [0] * 33)  # a lone pair: four melds were called
    -1
    """
    try:
        b = bytes(counts)
    except (TypeError, ValueError):
        raise _bad_input(counts) from None
    if len(b) != 34:
        raise _bad_input(counts)
    suit = _SUIT
    if three_player:
        if b[1:8] != _NO_MIDDLE_MAN:
            raise _bad_sanma(b)
        try:
            ep = suit[b[9:18]]
        except KeyError:
            ep = _learn_suit(b, 9)
        try:
            es = suit[b[18:27]]
        except KeyError:
            es = _learn_suit(b, 18)
        try:
            eh = _HONOR3[b[27:34] + b[0:9:8]]
        except KeyError:
            eh = _learn_honor3(b)
        stats = ep[1] + es[1] + eh[1]
        n = stats & 0xFF
        calls = _CALLS[n]
        if calls < 0:
            raise _bad_total(n)
        if stats & _QUAD_MASK:
            x = ep[2]
            y = es[2]
            h = eh[2][calls]
        else:
            x = ep[0]
            y = es[0]
            h = eh[0][calls]
        try:
            x = _COMBINED[x << _ID_BITS | y]
        except KeyError:
            x = _combine(x, y)
    else:
        try:
            em = suit[b[0:9]]
        except KeyError:
            em = _learn_suit(b, 0)
        try:
            ep = suit[b[9:18]]
        except KeyError:
            ep = _learn_suit(b, 9)
        try:
            es = suit[b[18:27]]
        except KeyError:
            es = _learn_suit(b, 18)
        try:
            eh = _HONOR[b[27:34]]
        except KeyError:
            eh = _learn_honor4(b)
        stats = em[1] + ep[1] + es[1] + eh[1]
        n = stats & 0xFF
        calls = _CALLS[n]
        if calls < 0:
            raise _bad_total(n)
        if stats & _QUAD_MASK:
            x = em[2]
            y = ep[2]
            z = es[2]
            h = eh[2][calls]
        else:
            x = em[0]
            y = ep[0]
            z = es[0]
            h = eh[0][calls]
        combined = _COMBINED
        try:
            x = combined[x << _ID_BITS | y]
        except KeyError:
            x = _combine(x, y)
        try:
            x = combined[x << _ID_BITS | z]
        except KeyError:
            x = _combine(x, z)
    try:
        result = _FINAL[x << _ID_BITS | h]
    except KeyError:
        result = _final(x, h)
    jidahai = stats >> _F_JIDAHAI
    if jidahai:
        if n % 3 == 2:
            jidahai -= 1
        if result != -1 and result < jidahai:
            result = jidahai
    if n >= 13:
        if use_chiitoitsu:
            other = _CHIITOITSU[stats >> _F_PAIRS & 0xFFFF]
            if other < result:
                result = other
        if use_kokushi:
            other = _KOKUSHI[stats >> _F_TERMS & 0xFFFF]
            if other < result:
                result = other
    return result


def clear_tables() -> None:
    """Forget every memoised suit pattern and combination (to measure a cold start).

    Not to be called while another thread is computing a shanten number.
    """
    _SUIT.clear()
    _HONOR.clear()
    _HONOR3.clear()
    _FRONTIERS.clear()
    _FRONTIER_IDS.clear()
    _COMBINED.clear()
    _FINAL.clear()
    _FROM_TABLE.clear()


def shanten_regular(counts: Sequence[int], *, three_player: bool = False) -> int:
    """Shanten of the regular shape (melds and a pair) alone, as ``mahjong`` computes it."""
    return shanten(counts, three_player=three_player, use_chiitoitsu=False, use_kokushi=False)


def _closed_hand_stats(counts: Sequence[int], shape: str) -> int:
    try:
        b = bytes(counts)
    except (TypeError, ValueError):
        raise _bad_input(counts) from None
    if len(b) != 34:
        raise _bad_input(counts)
    suit = _SUIT
    stats = (
        (suit.get(b[0:9]) or _learn_suit(b, 0))[1]
        + (suit.get(b[9:18]) or _learn_suit(b, 9))[1]
        + (suit.get(b[18:27]) or _learn_suit(b, 18))[1]
        + (_HONOR.get(b[27:34]) or _learn_honor4(b))[1]
    )
    n = stats & 0xFF
    if n != 13 and n != 14:
        if _CALLS[n] < 0:
            raise _bad_total(n)
        raise InvalidHandError(f"{shape} needs a closed hand of 13 or 14 tiles, got {n}")
    return stats


def shanten_chiitoitsu(counts: Sequence[int]) -> int:
    """Seven-pairs shanten of a closed 13- or 14-tile hand (four of a kind is one pair)."""
    stats = _closed_hand_stats(counts, "chiitoitsu")
    return _chiitoitsu(stats >> _F_PAIRS & 0xFF, stats >> _F_KINDS & 0xFF)


def shanten_kokushi(counts: Sequence[int]) -> int:
    """Thirteen-orphans shanten of a closed 13- or 14-tile hand."""
    stats = _closed_hand_stats(counts, "kokushi")
    return _kokushi(stats >> _F_TERMS & 0xFF, stats >> _F_TPAIRS & 0xFF)
