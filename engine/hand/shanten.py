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

The dense path
==============
Without four of a kind (so no penalty and no floor) only the fast frontiers matter, and there
are 92 of them over all suit patterns: the shipped table (:mod:`engine.hand.shanten_table`)
numbers them ``0-91`` (a suit's *class*), holds each pattern's class by its base-5 index, and
has their combinations precomputed: two classes give one of 123 pair classes, a pair class and
a class one of 139 triple classes, and a triple class with the honours' blocks and pair the
best score (the tables' construction, ``shanten_table_build.dense_tables``, is the memo's
combination, and the tests hold the two equal). So :func:`shanten` of a list of counts holding
no kind four times is a pass over the counts and six byte look-ups (:func:`dense_shanten`).
The compiled engine takes it; anything else (four of a kind, a tuple, bad input, no table
file) goes to the memo, which also raises the errors. The pure-Python engine keeps to the
memo, as fast there: a Python loop over 34 counts costs more than ``bytes()`` and four dict
hits.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from typing import Any, Final

from engine.errors import InvalidHandError
from engine.hand import shanten_table
from engine.tiles import kinds_mask

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

#: Whether this module runs compiled (mypyc): then :func:`shanten` reads a list of counts one by
#: one (:func:`dense_shanten`) before it turns to the memo.
_NATIVE: Final = not (__file__ or "").endswith(".py")

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


def join_frontiers(a: _Frontier, b: _Frontier) -> _Frontier:
    """The frontier of a hand made of two groups with frontiers ``a`` and ``b``."""
    return _pareto(
        {
            (x[0] + y[0], min(x[1] + y[1], _MAX_BLOCKS), x[2] | y[2], max(x[3], y[3]))
            for x in a
            for y in b
        }
    )


def _combine(a: int, b: int) -> int:
    """Id of the frontier of a hand made of two groups with frontiers ``a`` and ``b``."""
    fid = _intern_frontier(join_frontiers(_FRONTIERS[a], _FRONTIERS[b]))
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


def _packed(counts: Sequence[int]) -> bytes:
    """The 34 counts as bytes (what the tables are keyed by).

    :raises InvalidHandError, TypeError: not 34 counts of 0-4 (:func:`_bad_input`).
    """
    try:
        b = bytes(counts)
    except (TypeError, ValueError):
        raise _bad_input(counts) from None
    if len(b) != 34:
        raise _bad_input(counts)
    return b


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
    if _NATIVE and isinstance(counts, list):
        result = dense_shanten(counts, three_player, use_chiitoitsu, use_kokushi)
        if result != NOT_DENSE:
            return result
    # The memo of frontiers: any hand, and the errors.
    b = _packed(counts)
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
    _DENSE.state = 0  # looked for again (the table file itself stays read: load's cache)
    _RESTS.clear()
    _MOVES.clear()


# --------------------------------------------------------------------------------------------
# The dense path: the shipped table's classes and their combination tables


#: What :func:`dense_shanten` returns for a hand it leaves to the memo.
NOT_DENSE: Final = -2


class _Dense:
    """The dense tables (:class:`engine.hand.shanten_table.SuitTable`), read at first use."""

    def __init__(self) -> None:
        #: 1 read, -1 no table file (the memo does everything), 0 not yet looked for.
        self.state = 0
        self.classes = b""
        self.pairs = b""
        self.triples = b""
        self.finals = b""
        self.count = 0
        self.empty = 0


_DENSE: Final = _Dense()
_DENSE_LOCK: Final = threading.Lock()


def _read_dense() -> bool:
    """Fill :data:`_DENSE` from the table file; whether there is one."""
    with _DENSE_LOCK:
        dense = _DENSE
        if dense.state == 0:
            table = shanten_table.load()
            if table is None:
                dense.state = -1
            else:
                dense.classes = table.classes
                dense.pairs = table.pairs
                dense.triples = table.triples
                dense.finals = table.finals
                dense.count = table.class_count
                dense.empty = table.classes[0]
                dense.state = 1
    return _DENSE.state == 1


def dense_shanten(
    counts: list[int], three_player: bool, use_chiitoitsu: bool, use_kokushi: bool
) -> int:
    """:func:`shanten` of a list of counts holding no kind four times, or :data:`NOT_DENSE`
    (anything else: the memo's). The compiled engine's path: the counts read one by one as
    machine integers, each suit's 9 counts as a base-5 number indexing the classes. (In the
    pure-Python engine a loop over 34 counts costs more than the memo's ``bytes()`` and dict
    hits, so :func:`shanten` does not take it there.)"""
    dense = _DENSE
    if dense.state != 1 and not _read_dense():
        return NOT_DENSE
    if len(counts) != 34:
        return NOT_DENSE
    km = 0
    kp = 0
    ks = 0
    n = 0
    kinds = 0
    pairs = 0
    for i in range(8, -1, -1):
        c = counts[i]
        e = counts[i + 9]
        f = counts[i + 18]
        if c < 0 or c > 3 or e < 0 or e > 3 or f < 0 or f > 3:
            return NOT_DENSE
        km = km * 5 + c
        kp = kp * 5 + e
        ks = ks * 5 + f
        n += c + e + f
        kinds += ((c + 3) >> 2) + ((e + 3) >> 2) + ((f + 3) >> 2)
        pairs += (c >> 1) + (e >> 1) + (f >> 1)
    h_melds = 0  # the honours'
    h_pairs = 0
    h_kinds = 0
    for i in range(27, 34):
        c = counts[i]
        if c:
            if c < 0 or c > 3:
                return NOT_DENSE
            n += c
            h_kinds += 1
            if c == 3:
                h_melds += 1
            elif c == 2:
                h_pairs += 1
    if n > 14:
        return NOT_DENSE
    calls = _CALLS[n]
    if calls < 0:
        return NOT_DENSE
    classes = dense.classes
    count = dense.count
    g_melds = h_melds  # the group searched as honours
    g_pairs = h_pairs
    if three_player:
        m1 = km % 5
        m9 = km // 390625
        if km != m1 + m9 * 390625:
            return NOT_DENSE  # 2m-8m
        if m1 == 3:
            g_melds += 1
        elif m1 == 2:
            g_pairs += 1
        if m9 == 3:
            g_melds += 1
        elif m9 == 2:
            g_pairs += 1
        x = dense.pairs[classes[kp] * count + classes[ks]]
        x = dense.triples[x * count + dense.empty]
    else:
        x = dense.pairs[classes[km] * count + classes[kp]]
        x = dense.triples[x * count + classes[ks]]
    blocks = g_melds + g_pairs + calls
    if blocks > 5:
        blocks = 5
    result = 8 - g_melds - calls - dense.finals[x * 12 + blocks * 2 + (1 if g_pairs else 0)]
    if n >= 13:
        if use_chiitoitsu:
            other = _chiitoitsu(pairs + h_pairs + h_melds, kinds + h_kinds)
            if other < result:
                result = other
        if use_kokushi:
            terms = h_kinds
            paired = h_pairs + h_melds
            for i in range(0, 27, 9):  # the suits' terminals
                c = counts[i]
                e = counts[i + 8]
                terms += ((c + 3) >> 2) + ((e + 3) >> 2)
                paired += (c >> 1) + (e >> 1)
            other = _kokushi(terms, paired)
            if other < result:
                result = other
    return result


def shanten_regular(counts: Sequence[int], *, three_player: bool = False) -> int:
    """Shanten of the regular shape (melds and a pair) alone, as ``mahjong`` computes it."""
    return shanten(counts, three_player=three_player, use_chiitoitsu=False, use_kokushi=False)


def _closed_hand_stats(counts: Sequence[int], shape: str) -> int:
    b = _packed(counts)
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


# --------------------------------------------------------------------------------------------
# Tile acceptance: every discard of a 3n+2 hand with the draws that lower its shanten

#: The kinds of each group of a hand by local position, per layout: the three number suits, the
#: honours, and the honours with 1m and 9m after them (three-player mode, as in the keys of
#: :data:`_HONOR3`).
_LAYOUT_KINDS: Final = (
    tuple(range(0, 9)),
    tuple(range(9, 18)),
    tuple(range(18, 27)),
    tuple(range(27, 34)),
    (*range(27, 34), 0, 8),
)


@functools.cache
def _layout_masks(layout: int) -> tuple[int, ...]:
    """The kinds mask (:func:`engine.tiles.kinds_mask`) of each set of a group's positions (bit
    ``i`` for position ``i``) in this layout; made at first use (not at import: a start of
    ``python -m engine verify`` never needs it)."""
    single = [kinds_mask((kind,)) for kind in _LAYOUT_KINDS[layout]]
    masks = [0] * (1 << len(single))
    for bits in range(1, len(masks)):
        low = bits & -bits
        masks[bits] = masks[bits ^ low] | single[low.bit_length() - 1]
    return tuple(masks)


_YAOCHUU_BYTES: Final = kinds_mask((0, 8, 9, 17, 18, 26, *range(27, 34)))
_ALL_BYTES: Final = kinds_mask(range(34))
_SANMA_BYTES: Final = kinds_mask(k for k in range(34) if not 1 <= k <= 7)
#: A count less one, as a byte.
_LESS: Final = tuple(bytes((count - 1,)) if count else b"" for count in range(5))
#: ``bytes.translate`` tables: 0xFF for a count of one, for a count of zero.
_ONES: Final = bytes(0xFF if count == 1 else 0 for count in range(256))
_ZEROS: Final = bytes(0xFF if count == 0 else 0 for count in range(256))
#: The most entries each memo of the acceptance keeps (each is cleared when full): the corpus's
#: 52,000 decisions meet 34,000 group patterns and 18,000 frontier combinations; 20,000 of
#: each take about 20 MB.
_ACCEPTANCE_MEMO_LIMIT: Final = 20_000


def _combined(a: int, b: int) -> int:
    found = _COMBINED.get(a << _ID_BITS | b)
    return _combine(a, b) if found is None else found


def _group_entry(layout: int, key: bytes) -> tuple[Any, int, Any]:
    """The memo entry of one group's counts (``layout``: 0-2 a suit, 3 the honours, 4 the
    honours with 1m and 9m)."""
    if layout < 3:
        found = _SUIT.get(key)
        return found if found is not None else _learn_suit(key, 0)
    table = _HONOR if layout == 3 else _HONOR3
    entry = table.get(key)
    if entry is None:
        _check_counts(key, 0, len(key))
        entry = table[key] = _learn_honor(key)
    return entry


def _full_id(layout: int, entry: tuple[Any, int, Any], calls: int) -> int:
    full = entry[2]
    return int(full[calls]) if layout >= 3 else int(full)


def _splits(groups: int) -> tuple[tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]], ...]:
    """For each group of a hand of ``groups`` groups: the other groups, and for each of those
    the groups left beside it."""
    out = []
    for g in range(groups):
        others = tuple(o for o in range(groups) if o != g)
        out.append((g, others, tuple(tuple(x for x in others if x != o) for o in others)))
    return tuple(out)


#: :func:`_splits` of a four-player hand (four groups) and a three-player one (three).
_SPLITS: Final = {4: _splits(4), 3: _splits(3)}

#: The full frontier ids of a hand's groups -> per group: the frontier of the rest of the hand,
#: the other groups, and the frontier of the rest without each of them.
_RESTS: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]] = {}


def _rests(
    ids: tuple[int, ...],
) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """:data:`_RESTS` of a hand, computed (a memo miss)."""
    contexts = []
    for _, others, aparts in _SPLITS[len(ids)]:
        rest = ids[others[0]]
        for o in others[1:]:
            rest = _combined(rest, ids[o])
        apart = []
        for beside in aparts:
            part = ids[beside[0]]
            for x in beside[1:]:
                part = _combined(part, ids[x])
            apart.append(part)
        contexts.append((rest, others, tuple(apart)))
    found = tuple(contexts)
    if len(_RESTS) >= _ACCEPTANCE_MEMO_LIMIT:
        _RESTS.clear()
    _RESTS[ids] = found
    return found


#: (layout, a group's counts, calls) -> every discard from it, then every draw into it, packed
#: into ints to keep the memo small. A discard: the full frontier id of the group after it
#: (bits 8 and up), the count held (bits 4-7) and the position in the group (bits 0-3), then
#: its stats less the group's. A draw: the full frontier id of the group after it (bits 9 and
#: up) and the positions of every draw that makes it (bits 0-8, bit ``i`` for position ``i``).
_MOVES: dict[tuple[int, bytes, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _moves(layout: int, key: bytes, calls: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:data:`_MOVES` of one group, computed (a memo miss)."""
    stats = _group_entry(layout, key)[1]
    changed = bytearray(key)
    shrinks: list[int] = []
    grows: dict[int, int] = {}
    for position, count in enumerate(key):
        if count:
            changed[position] = count - 1
            key_d = bytes(changed)
            entry = _group_entry(layout, key_d)
            fid = _full_id(layout, entry, calls)
            shrinks += (fid << 8 | count << 4 | position, entry[1] - stats)
        if count < 4:
            changed[position] = count + 1
            fid = _full_id(layout, _group_entry(layout, bytes(changed)), calls)
            grows[fid] = grows.get(fid, 0) | 1 << position
        changed[position] = count
    found = (tuple(shrinks), tuple(fid << 9 | bits for fid, bits in grows.items()))
    if len(_MOVES) >= _ACCEPTANCE_MEMO_LIMIT:
        _MOVES.clear()
    _MOVES[layout, key, calls] = found
    return found


def _draw_values(rest: int, layout: int, grows: tuple[int, ...]) -> list[tuple[int, int]]:
    """The regular shanten (before the jidahai floor) of each group of draws into a group
    (:data:`_MOVES`) beside ``rest`` (the rest of the hand's frontier), with their kinds
    mask."""
    final = _FINAL
    masks = _layout_masks(layout)
    out = []
    for grow in grows:
        fid = grow >> 9
        value = final.get(rest << _ID_BITS | fid)
        if value is None:
            value = _final(rest, fid)
        out.append((value, masks[grow & 0x1FF]))
    return out


def discard_acceptance(
    counts: Sequence[int], *, three_player: bool = False, lowest_only: bool = False
) -> list[tuple[int, int, int]]:
    """Every discard of a ``3n+2`` hand with its tile acceptance: for each kind held, in kind
    order, ``(kind, shanten after discarding it, the kinds whose draw lowers that shanten)``, the
    kinds as a kinds mask (byte ``k`` is 0xFF for kind ``k``: :func:`engine.tiles.kinds_mask`,
    so that ``mask & packed`` keeps the packed counts of those kinds). The shapes are those of
    :func:`shanten`: the regular hand and, for a closed hand, seven pairs and thirteen orphans.
    A draw is any kind the hand then holds fewer than four of (none of 2m-8m in three-player
    mode); how many copies of it are left is the caller's to count. With ``lowest_only``, only
    the discards that leave the lowest shanten are listed (the others' draws are not worked
    out).

    Exactly what :func:`shanten` gives for each discard and each draw (``tests/engine/hand/
    test_acceptance.py`` compares them), without computing each hand whole: a discard changes
    one group (a number suit, the honours) and a draw one, so each group's frontier after each
    discard or draw (:data:`_MOVES`) is combined with the frontier of the rest of the hand
    (:data:`_RESTS`), and discards of one group that leave the same frontier share the other
    groups' draws. A hand holding an honour (in three-player mode also 1m or 9m) four times,
    where the jidahai floor can matter, is worked out draw by draw.

    :raises InvalidHandError: not 34 counts of 0-4, or not ``3n+2`` tiles (up to 14).
    """
    b = _packed(counts)
    n = sum(b)
    calls = _CALLS[n] if n < len(_CALLS) else -1
    if calls < 0 or n % 3 != 2:
        raise InvalidHandError(f"a hand to discard from has 3n+2 tiles up to 14, got {n}")
    if three_player:
        if b[1:8] != _NO_MIDDLE_MAN:
            raise _bad_sanma(b)
        honour_key = b[27:34] + b[0:9:8]
        keys: tuple[bytes, ...] = (b[9:18], b[18:27], honour_key)
        layouts: tuple[int, ...] = (1, 2, 4)
        exists = _SANMA_BYTES
    else:
        honour_key = b[27:34]
        keys = (b[0:9], b[9:18], b[18:27], honour_key)
        layouts = (0, 1, 2, 3)
        exists = _ALL_BYTES
    if 4 in honour_key:
        return acceptance_by_draws(list(b), three_player, lowest_only)
    entries = [_group_entry(layout, key) for layout, key in zip(layouts, keys, strict=True)]
    ids = tuple(
        _full_id(layout, entry, calls) for layout, entry in zip(layouts, entries, strict=True)
    )
    moves = [
        _MOVES.get((layout, key, calls)) or _moves(layout, key, calls)
        for layout, key in zip(layouts, keys, strict=True)
    ]
    stats = sum(entry[1] for entry in entries)
    closed = n == 14
    final = _FINAL
    contexts = _RESTS.get(ids) or _rests(ids)
    # First every discard's shanten, then (for those wanted) its draws.
    found: list[tuple[int, int, int, int, int, int, int]] = []
    for g, (rest, _, _) in enumerate(contexts):
        kinds = _LAYOUT_KINDS[layouts[g]]
        shrinks = moves[g][0]
        for index in range(0, len(shrinks), 2):
            packed = shrinks[index]
            id_d = packed >> 8
            position = packed & 0xF
            count = packed >> 4 & 0xF
            kind = kinds[position]
            change = shrinks[index + 1]
            number = final.get(rest << _ID_BITS | id_d)
            if number is None:
                number = _final(rest, id_d)
            stats_d = stats + change
            if closed:
                number = min(
                    number,
                    _CHIITOITSU[stats_d >> _F_PAIRS & 0xFFFF],
                    _KOKUSHI[stats_d >> _F_TERMS & 0xFFFF],
                )
            found.append((kind, number, g, position, count, id_d, stats_d))
    lowest = min(row[1] for row in found)
    if closed:
        singles = int.from_bytes(b.translate(_ONES), "little")
        absent = int.from_bytes(b.translate(_ZEROS), "little") & exists
    elsewhere: dict[tuple[int, int], list[tuple[int, int]]] = {}
    out: list[tuple[int, int, int]] = []
    for kind, number, g, position, count, id_d, stats_d in found:
        if lowest_only and number != lowest:
            continue
        rest, others, apart = contexts[g]
        layout = layouts[g]
        key = keys[g]
        key_d = key[:position] + _LESS[key[position]] + key[position + 1 :]
        grows = (_MOVES.get((layout, key_d, calls)) or _moves(layout, key_d, calls))[1]
        accepted = 0
        for value, mask in _draw_values(rest, layout, grows):
            if value < number:
                accepted |= mask
        values = elsewhere.get((g, id_d))
        if values is None:
            values = []
            for o, part in zip(others, apart, strict=True):
                values += _draw_values(_combined(part, id_d), layouts[o], moves[o][1])
            elsewhere[g, id_d] = values
        for value, mask in values:
            if value < number:
                accepted |= mask
        if closed:
            mask = 0xFF << 8 * kind
            if count == 1:
                singles_d, absent_d = singles & ~mask, absent | mask
            elif count == 2:
                singles_d, absent_d = singles | mask, absent
            else:
                singles_d, absent_d = singles, absent
            if _CHIITOITSU[stats_d >> _F_PAIRS & 0xFFFF] == number:
                held = stats_d >> _F_KINDS & 0xFF
                accepted |= singles_d | (absent_d if held < 7 else 0)
            if _KOKUSHI[stats_d >> _F_TERMS & 0xFFFF] == number:
                paired = stats_d >> _F_TPAIRS & 0xFF
                accepted |= _YAOCHUU_BYTES & (absent_d if paired else exists)
        out.append((kind, number, accepted))
    out.sort()
    return out


def acceptance_by_draws(
    counts: list[int], three_player: bool, lowest_only: bool = False
) -> list[tuple[int, int, int]]:
    """:func:`discard_acceptance` worked out one discard and one draw at a time: its fallback,
    and the plain way the benchmark (``benchmarks/study_cost.py``) times it against."""
    out = []
    kinds = [k for k in range(34) if not (three_player and 1 <= k <= 7)]
    numbers = {}
    for kind in range(34):
        if counts[kind]:
            counts[kind] -= 1
            numbers[kind] = shanten(counts, three_player=three_player)
            counts[kind] += 1
    lowest = min(numbers.values())
    for kind, number in numbers.items():
        if lowest_only and number != lowest:
            continue
        counts[kind] -= 1
        accepted = 0
        for draw in kinds:
            if counts[draw] < 4:
                counts[draw] += 1
                if shanten(counts, three_player=three_player) < number:
                    accepted |= 0xFF << 8 * draw
                counts[draw] -= 1
        counts[kind] += 1
        out.append((kind, number, accepted))
    return out
