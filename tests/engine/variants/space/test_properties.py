"""Properties of the hand analysis (hypothesis).

* The generic code (engine/hand/generic.py) run on the *standard* shapes gives exactly what the
  fast table code gives (decompositions, agari, waits with their shapes, shanten): the proof that
  the generic code, which space mahjong uses, is right.
* Space mahjong is symmetric: shifting every rank of a suit by one (9 becomes 1), or every wind
  to the next, keeps a complete hand complete and moves its waits along.
* Every hand complete under the standard shapes is complete in space mahjong, read at least
  the same ways.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.hand import decompose, generic
from engine.hand.shanten import shanten as fast_shanten
from engine.hand.shapes import SPACE, STANDARD, HandShapes
from engine.tiles import EAST, KINDS, format_counts

Counts = list[int]

PROPERTY = settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)

HONOURS = list(range(EAST, KINDS))


@st.composite
def complete_hands(draw: st.DrawFn, shapes: HandShapes) -> Counts:
    """A complete hand of 2, 5, 8, 11 or 14 tiles: groups of ``shapes`` and a pair."""
    starts = [start for start, run in enumerate(shapes.run_kinds) if run is not None]
    counts = [0] * KINDS
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            run = shapes.run_kinds[draw(st.sampled_from(starts))]
            assert run is not None
            for kind in run:
                counts[kind] += 1
        else:
            counts[draw(st.integers(0, KINDS - 1))] += 3
    counts[draw(st.integers(0, KINDS - 1))] += 2
    assume(max(counts) <= 4)
    return counts


@st.composite
def near_hands(draw: st.DrawFn, shapes: HandShapes) -> Counts:
    """A complete hand less one tile (mostly tenpai: waits to find)."""
    counts = draw(complete_hands(shapes))
    held = [kind for kind in range(KINDS) if counts[kind]]
    counts[draw(st.sampled_from(held))] -= 1
    assume(sum(counts) > 0)
    return counts


@st.composite
def random_hands(draw: st.DrawFn) -> Counts:
    """Any hand of 1-14 tiles (3n+1 or 3n+2), often crowded into one suit and the honours,
    often with four of a kind: the hard cases of shanten."""
    size = draw(st.sampled_from([1, 2, 4, 5, 7, 8, 10, 11, 13, 14]))
    pool = draw(
        st.sampled_from(
            [list(range(KINDS)), list(range(9)), list(range(9)) + HONOURS, list(range(18, 27))]
        )
    )
    counts = [0] * KINDS
    while sum(counts) < size:  # (every pool holds at least 36 tiles)
        kind = draw(st.sampled_from(pool))
        room = min(4 - counts[kind], size - sum(counts))
        if room > 0:
            counts[kind] += draw(st.integers(1, room))
    return counts


def any_hand() -> st.SearchStrategy[Counts]:
    return st.one_of(
        random_hands(),
        complete_hands(STANDARD),
        near_hands(STANDARD),
        complete_hands(SPACE),
        near_hands(SPACE),
    )


def decomposition_set(
    found: Sequence[tuple[int, tuple[int, ...], tuple[int, ...]]],
) -> set[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    return {(pair, tuple(sorted(runs)), tuple(sorted(triplets))) for pair, runs, triplets in found}


# -- the generic code equals the fast code on the standard shapes ------------------------------


@PROPERTY
@given(any_hand())
def test_generic_shanten_equals_the_fast_shanten(counts: Counts) -> None:
    assert generic.shanten(STANDARD, counts, None) == fast_shanten(counts), format_counts(counts)
    assert generic.shanten_regular(STANDARD, counts) == fast_shanten(
        counts, use_chiitoitsu=False, use_kokushi=False
    )


@PROPERTY
@given(any_hand())
def test_generic_decompositions_and_waits_equal_the_fast_ones(counts: Counts) -> None:
    hand = format_counts(counts)
    if sum(counts) % 3 == 2:
        assert decomposition_set(generic.decompositions(STANDARD, counts)) == decomposition_set(
            decompose.raw_decompositions(counts)
        ), hand
        assert generic.is_agari(STANDARD, counts, None) == decompose.is_agari(counts), hand
    else:
        assert generic.waits(STANDARD, counts, None) == decompose.waits(counts), hand
        assert generic.winning_kinds(STANDARD, counts, None) == decompose.winning_kinds(counts)


# -- space mahjong's symmetry -------------------------------------------------------------------


def shifted(counts: Counts, shifts: Sequence[int]) -> Counts:
    """Every rank of suit ``s`` moved up by ``shifts[s]`` (modulo 9), every wind by
    ``shifts[3]`` (modulo 4, East after North)."""
    moved = [0] * KINDS
    for kind, count in enumerate(counts):
        moved[shift_kind(kind, shifts)] = count
    return moved


def shift_kind(kind: int, shifts: Sequence[int]) -> int:
    if kind < EAST:
        base = kind - kind % 9
        return base + (kind % 9 + shifts[kind // 9]) % 9
    if kind < EAST + 4:
        return EAST + (kind - EAST + shifts[3]) % 4
    return kind


SHIFTS = st.lists(st.integers(0, 8), min_size=4, max_size=4)


@PROPERTY
@given(complete_hands(SPACE), SHIFTS)
def test_shifting_the_ranks_keeps_a_space_hand_complete(counts: Counts, shifts: list[int]) -> None:
    assert SPACE.is_agari(counts)
    assert SPACE.is_agari(shifted(counts, shifts)), format_counts(counts)
    # Shift by one rank (the document's "wrap around": 9 then 1): also complete.
    assert SPACE.is_agari(shifted(counts, [1, 1, 1, 1]))


@PROPERTY
@given(near_hands(SPACE), SHIFTS)
def test_shifting_the_ranks_moves_the_waits_along(counts: Counts, shifts: list[int]) -> None:
    waits = SPACE.waits(counts)
    moved = SPACE.waits(shifted(counts, shifts))
    assert sorted((shift_kind(wait.kind, shifts), wait.shapes) for wait in waits) == [
        (wait.kind, wait.shapes) for wait in moved
    ], format_counts(counts)
    assert SPACE.shanten(shifted(counts, shifts)) == SPACE.shanten(counts)


@PROPERTY
@given(near_hands(SPACE))
def test_every_near_space_hand_waits_on_the_tile_it_lost(counts: Counts) -> None:
    # A complete hand less one tile is tenpai: the tile taken away is among its waits (unless
    # the hand holds all four copies of it, never here as one copy was just removed).
    assert SPACE.shanten(counts) <= 0
    assert SPACE.waits(counts), format_counts(counts)


# -- standard hands are space hands ---------------------------------------------------------------


@PROPERTY
@given(complete_hands(STANDARD))
def test_every_standard_complete_hand_is_complete_in_space(counts: Counts) -> None:
    standard = decomposition_set(STANDARD.decompositions(counts))
    assert standard
    space = decomposition_set(SPACE.decompositions(counts))
    assert standard <= space, format_counts(counts)
    assert SPACE.shanten(counts) == -1


@PROPERTY
@given(near_hands(STANDARD))
def test_standard_waits_are_space_waits(counts: Counts) -> None:
    # A tile that completes a hand in the standard shapes completes it in space too, with at
    # least the same shapes (but an edge wait, which space mahjong reads as two-sided).
    space = {wait.kind: set(wait.shapes) for wait in SPACE.waits(counts)}
    for wait in STANDARD.waits(counts):
        assert wait.kind in space, format_counts(counts)
        expected = {shape for shape in wait.shapes if shape.value != "penchan"}
        assert expected <= space[wait.kind], format_counts(counts)
