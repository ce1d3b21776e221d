"""Tile acceptance of many decisions at once, with numpy: what the statistics ask of a game.

:func:`engine.hand.acceptance.discard_outcome` answers one decision at a time in Python, at
some 40 µs. The statistics need only three numbers of each decision (the loss of the discard
made, the lowest shanten, the shanten the discard made leaves), so a whole game's decisions go
through here together: every (decision, discard) pair is a row of arrays, and each row at its
decision's lowest shanten gets its 34 draws as columns; each hand's regular shanten comes from
gathers in the precomputed tables (:mod:`engine.hand.shanten_table` gives each suit pattern
its full frontier, :mod:`engine.hand.join_tables` joins them), seven pairs and thirteen
orphans from counts. The numbers are those of :func:`engine.hand.shanten.shanten` and of
:func:`engine.hand.acceptance.acceptance` (``tests/engine/hand/test_acceptance_batch.py``
compares them on random hands and on the corpus's decisions).

Only the standard shapes are worked out here. A decision whose hand holds an honour four times
(in three-player mode 1m or 9m too: the jidahai floor), one the engine cannot value (bad
counts, not ``3n+2`` tiles, a discard it may not make) and every decision when the tables are
missing go to :func:`engine.hand.acceptance.decision_outcome`, one at a time.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.hand import join_tables, shanten_table
from engine.hand.acceptance import Decision, Outcome, decision_outcome
from engine.tiles import EAST, KINDS, YAOCHUU

__all__ = ["Decision", "Outcome", "discard_outcomes"]

_Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Tables:
    """The gathers' tables as arrays: full frontier id by suit pattern, the joins, finals."""

    full: npt.NDArray[np.uint16]
    suits: int
    join2: npt.NDArray[np.int64]
    join3: npt.NDArray[np.int64]
    final3: npt.NDArray[np.int8]
    final2: npt.NDArray[np.int8]


@functools.cache
def _tables() -> _Tables | None:
    table = shanten_table.load()
    joins = join_tables.load()
    if table is None or joins is None or joins.suits != len(table.frontiers):
        return None
    full = np.frombuffer(table.ids, dtype=np.uint16)[1::2].copy()
    return _Tables(
        full,
        joins.suits,
        np.frombuffer(joins.join2, dtype=np.uint16).astype(np.int64),
        np.frombuffer(joins.join3, dtype=np.uint16).astype(np.int64),
        np.frombuffer(joins.final3, dtype=np.int8),
        np.frombuffer(joins.final2, dtype=np.int8),
    )


@dataclass(frozen=True)
class _Layout:
    """Where each kind goes in one mode (four or three players)."""

    #: The number suits searched (0 manzu, 1 pinzu, 2 souzu), and each kind's place among
    #: them (-1: in the honour group).
    suits: list[int]
    column: _Ints
    #: The kinds of the honour group (honours, and 1m 9m in three-player mode).
    honours: _Ints
    #: 5 ** rank of each number kind (0 for the honour group's).
    power: _Ints
    #: 1 for the terminals and honours (thirteen orphans' kinds), and as booleans.
    orphan: _Ints
    orphan_kinds: npt.NDArray[np.bool_]
    three_player: bool


@functools.cache
def _layout(three_player: bool) -> _Layout:
    suits = [1, 2] if three_player else [0, 1, 2]
    column = np.full(KINDS, -1, dtype=np.int64)
    power = np.zeros(KINDS, dtype=np.int64)
    for kind in range(EAST):
        if kind // 9 in suits:
            column[kind] = suits.index(kind // 9)
            power[kind] = 5 ** (kind % 9)
    honours = [kind for kind in range(KINDS) if column[kind] < 0]
    if three_player:  # 2m-8m do not exist: only 1m and 9m join the honours
        honours = [kind for kind in honours if not 1 <= kind <= 7]
    orphan = np.zeros(KINDS, dtype=np.int64)
    orphan[list(YAOCHUU)] = 1
    honour_kinds = np.array(honours, dtype=np.int64)
    return _Layout(suits, column, honour_kinds, power, orphan, orphan > 0, three_player)


_POWERS: Final = np.array([5**rank for rank in range(9)], dtype=np.int64)
#: The last pattern index: a draw onto a rank held four times carries into the next digit
#: (its kind has no copy unseen, so its value is never counted); this keeps it in the table.
PATTERN_LIMIT: Final = shanten_table.PATTERNS - 1


def discard_outcomes(
    decisions: Sequence[Decision], copies: Sequence[int], *, three_player: bool = False
) -> list[Outcome | None]:
    """Each decision's :data:`Outcome` (``None``: a hand the engine cannot value), with the
    rule set's ``copies`` of each kind (:func:`engine.study.tile_copies`), under the standard
    shapes (sanma's with ``three_player``)."""
    out: list[Outcome | None] = [None] * len(decisions)
    if not decisions:
        return out
    tables = _tables()
    layout = _layout(three_player)
    batched: list[int] = []
    counts = _rows([decision.counts for decision in decisions])
    seen = _rows([decision.seen for decision in decisions])
    if tables is not None and counts is not None and seen is not None:
        batched = _batchable(decisions, counts, layout)
        if batched:
            found = _outcomes(
                tables,
                layout,
                counts[batched],
                seen[batched],
                np.array(copies, dtype=np.int16),
                [decisions[i] for i in batched],
            )
            for index, outcome in zip(batched, found, strict=True):
                out[index] = outcome
    for index in sorted(set(range(len(decisions))) - set(batched)):
        out[index] = decision_outcome(decisions[index], copies, three_player=three_player)
    return out


def _rows(rows: list[Sequence[int]]) -> _Ints | None:
    """Rows of 34 counts as an array (from bytes when they are, the study's way); ``None``
    when a row is not 34 numbers."""
    if any(len(row) != KINDS for row in rows):
        return None
    try:
        flat = b"".join(map(bytes, rows))  # bytes of bytes is the same object: no copy
    except (TypeError, ValueError):  # numbers outside a byte: _batchable leaves the row
        try:
            return np.array(rows, dtype=np.int64)
        except (TypeError, ValueError):
            return None
    return np.frombuffer(flat, dtype=np.uint8).reshape(-1, KINDS).astype(np.int16)


def _batchable(decisions: Sequence[Decision], counts: _Ints, layout: _Layout) -> list[int]:
    """The decisions the arrays work out: counts 0-4 of ``3n+2`` tiles up to 14, none of
    2m-8m in three-player mode, no honour-group kind held four times, a discard held and
    allowed."""
    total = counts.sum(axis=1)
    fine = (counts.min(axis=1) >= 0) & (counts.max(axis=1) <= 4)
    fine &= (total % 3 == 2) & (total <= 14)
    fine &= (counts[:, layout.honours] < 4).all(axis=1)
    if layout.three_player:
        fine &= (counts[:, 1:8] == 0).all(axis=1)
    discarded = np.array([decision.discarded for decision in decisions], dtype=np.int64)
    known = (discarded >= 0) & (discarded < KINDS)
    fine &= known
    fine &= counts[np.arange(len(decisions)), np.where(known, discarded, 0)] > 0
    for index, decision in enumerate(decisions):  # a swap call's bans: rare
        if decision.allowed is not None and decision.discarded not in decision.allowed:
            fine[index] = False
    out: list[int] = np.flatnonzero(fine).tolist()
    return out


def _honour_context(
    melds: _Ints, pairs: _Ints, singles: _Ints, quads: _Ints, calls: _Ints
) -> _Ints:
    """:func:`engine.hand.join_tables.honour_context` of honour groups by their counts."""
    state: _Ints = np.where(singles > 0, 2, np.where(quads > 0, 1, 0))
    blocks = np.minimum(melds + pairs + calls, 5)
    context: _Ints = ((melds + calls) * 6 + blocks) * 6 + (pairs > 0) * 3 + state
    return context


def _seven_pairs(pairs: _Ints, kinds: _Ints) -> _Ints:
    """Seven pairs' shanten by pairs and kinds held (:func:`engine.hand.shanten._chiitoitsu`)."""
    number: _Ints = np.where(pairs == 7, -1, 6 - pairs + np.maximum(0, 7 - kinds))
    return number


def _orphans(terms: _Ints, paired: _Ints) -> _Ints:
    """Thirteen orphans' shanten by orphan kinds held and whether one is paired."""
    number: _Ints = 13 - terms - (paired > 0)
    return number


def _outcomes(
    tables: _Tables,
    layout: _Layout,
    counts: _Ints,
    seen: _Ints,
    copies: _Ints,
    decisions: Sequence[Decision],
) -> list[Outcome]:
    """The outcomes of decisions :func:`_batchable` kept (``counts`` and ``seen`` their rows).

    Every (decision, discard) is a row: its hand after the discard, that hand's number (the
    shanten, as :func:`engine.hand.shanten.shanten`). Only the rows at their decision's lowest
    number need their draws (the loss compares those alone), each row with all 34 kinds at
    once: a suit's nine draws by its grown patterns beside the rest of the hand, the honours'
    by their counts, seven pairs and thirteen orphans (closed hands) by the counts.
    """
    unseen = np.maximum(copies - seen - counts, 0)
    allowed = counts > 0
    for number, decision in enumerate(decisions):
        if decision.allowed is not None:
            keep = np.zeros(KINDS, dtype=bool)
            keep[list(decision.allowed)] = True
            allowed[number] &= keep
    calls = (14 - counts.sum(axis=1)) // 3
    suits = layout.suits
    pattern = counts[:, :27].reshape(-1, 3, 9)[:, suits] @ _POWERS  # (decisions, suits)

    # Each decision's counts of pairs, kinds, orphan kinds and paired orphans, and of the
    # honour group's melds, pairs, singles and fours: a row (below) adjusts them by its
    # discard instead of counting its 34 kinds again.
    held = counts > 0
    paired = counts >= 2
    held_pairs = paired.sum(axis=1)
    kinds_held = held.sum(axis=1)
    terms = held @ layout.orphan
    terms_paired = paired @ layout.orphan
    honour = counts[:, layout.honours]
    melds = (honour >= 3).sum(axis=1)
    pairs = (honour == 2).sum(axis=1)
    singles = (honour == 1).sum(axis=1)

    # Every (decision, discard) as a row: the hand left, each suit's pattern and frontier.
    owner, kind = np.nonzero(allowed)
    rows = len(owner)
    had = counts[owner, kind]  # copies of the discarded kind before the discard
    patterns = pattern[owner]
    column = layout.column[kind]
    moved = np.flatnonzero(column >= 0)
    patterns[moved, column[moved]] -= layout.power[kind[moved]]
    ids = tables.full[patterns].astype(np.int64)
    in_honours = column < 0
    had_one = had == 1
    had_two = had == 2
    had_three = had == 3
    melds = melds[owner] - (in_honours & had_three)
    pairs = pairs[owner] + (in_honours & had_three) - (in_honours & had_two)
    singles = singles[owner] + (in_honours & had_two) - (in_honours & had_one)
    quads = np.zeros(rows, dtype=np.int64)  # none: such hands are valued one by one
    row_calls = calls[owner]
    context = _honour_context(melds, pairs, singles, quads, row_calls)
    final = tables.final2 if layout.three_player else tables.final3
    whole = _suits_joined(tables, layout, ids)
    number = final[whole * join_tables.CONTEXTS + context]
    closed = row_calls == 0
    orphan = layout.orphan[kind]
    held_pairs = held_pairs[owner] - had_two
    kinds_held = kinds_held[owner] - had_one
    terms = terms[owner] - orphan * had_one
    terms_paired = terms_paired[owner] - orphan * had_two
    pairs_number = _seven_pairs(held_pairs, kinds_held)
    orphans_number = _orphans(terms, terms_paired)
    number = np.where(closed, np.minimum(number, np.minimum(pairs_number, orphans_number)), number)
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    lowest = np.minimum.reduceat(number, starts)

    # The draws of the rows at the lowest number: the value of every kind drawn.
    low = np.flatnonzero(number == lowest[owner])
    low_left = counts[owner[low]]
    low_left[np.arange(len(low)), kind[low]] -= 1
    low_context = context[low]
    value = np.empty((len(low), KINDS), dtype=np.int8)
    for place, suit in enumerate(suits):
        base, join = _rest_of(tables, layout, ids[low], place)
        grown = np.minimum(patterns[low, place][:, None] + _POWERS, PATTERN_LIMIT)
        grown_ids = np.minimum(tables.full[grown], tables.suits - 1)  # a 5th copy: masked below
        joined = join[base[:, None] * tables.suits + grown_ids]
        value[:, 9 * suit : 9 * suit + 9] = final[
            joined * join_tables.CONTEXTS + low_context[:, None]
        ]
    before = low_left[:, layout.honours]
    from_zero = (before == 0).astype(np.int64)
    from_one = (before == 1).astype(np.int64)
    from_two = (before == 2).astype(np.int64)
    drawn_context = _honour_context(
        melds[low][:, None] + from_two,
        pairs[low][:, None] + from_one - from_two,
        singles[low][:, None] + from_zero - from_one,
        quads[low][:, None] + (before == 3),
        row_calls[low][:, None],
    )
    value[:, layout.honours] = final[whole[low][:, None] * join_tables.CONTEXTS + drawn_context]
    lowers = value < number[low][:, None]
    shut = np.flatnonzero(closed[low])
    if len(shut):
        # A draw lowers seven pairs by one when it pairs a single, or adds a kind to fewer
        # than seven; thirteen orphans when it adds an orphan kind, or pairs one where none
        # is paired. Either matters only where its shape has the hand's number.
        rows_shut = low[shut]
        before = low_left[shut]
        zero = before == 0
        one = before == 1
        target = number[rows_shut]
        by_pairs = (pairs_number[rows_shut] == target)[:, None] & (
            one | (zero & (kinds_held[rows_shut] < 7)[:, None])
        )
        by_orphans = (orphans_number[rows_shut] == target)[:, None] & (
            layout.orphan_kinds & (zero | (one & (terms_paired[rows_shut] == 0)[:, None]))
        )
        lowers[shut] |= by_pairs | by_orphans
    count = np.full(rows, -1, dtype=np.int64)
    count[low] = (lowers * unseen[owner[low]]).sum(axis=1)

    # Per decision: the best count at the lowest number, and the discard made.
    best = np.maximum.reduceat(count, starts)
    discarded = np.array([decision.discarded for decision in decisions], dtype=np.int64)
    made = np.flatnonzero(kind == discarded[owner])
    made_number = number[made]
    return [
        (loss if kept else None, low_number, left_number)
        for loss, kept, low_number, left_number in zip(
            (best - count[made]).tolist(),
            (made_number == lowest).tolist(),
            lowest.tolist(),
            made_number.tolist(),
            strict=True,
        )
    ]


def _suits_joined(tables: _Tables, layout: _Layout, ids: _Ints) -> _Ints:
    """The join of the searched suits' frontiers: a triple id (four players) or a pair id."""
    suits = tables.suits
    pair: _Ints = tables.join2[ids[:, 0] * suits + ids[:, 1]]
    if layout.three_player:
        return pair
    triple: _Ints = tables.join3[pair * suits + ids[:, 2]]
    return triple


def _rest_of(tables: _Tables, layout: _Layout, ids: _Ints, place: int) -> tuple[_Ints, _Ints]:
    """The searched suits but the one at ``place``, joined, and the table that joins them with
    it: (pair id, the triple joins) with four players, (suit id, the pair joins) with three."""
    others = [other for other in range(len(layout.suits)) if other != place]
    if layout.three_player:
        return ids[:, others[0]], tables.join2
    pair = tables.join2[ids[:, others[0]] * tables.suits + ids[:, others[1]]]
    return pair, tables.join3
