"""Ùzje shapes: melds, the winning forms and their decompositions, waits and the bots' distance
(seeds/002 "Hands - General structure", lines 136-170)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.variants.uzje import tiles as T
from engine.variants.uzje.shapes import (
    Decomposition,
    Form,
    Meld,
    Shape,
    classify,
    decompositions,
    discard_distances,
    distance,
    is_complete,
    is_standard_complete,
    number_shape,
    special_form,
    standard_decompositions,
    waits,
)

ALL_KINDS = T.kinds_in_play(full_winds=True, flowers=False, all_tongs=True)


def counts(text: str) -> list[int]:
    kinds = T.parse_kinds(text)
    return [kinds.count(kind) for kind in range(T.KINDS)]


def meld(text: str, *, open: bool = False) -> Meld:
    found = classify(T.parse_kinds(text), open=open)
    assert found is not None, text
    return found


def readings(decomps: Sequence[Decomposition]) -> set[str]:
    return {str(d) for d in decomps}


# -- melds ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["369s", "5xet", "xcfs"])
def test_document_ariths(text: str) -> None:
    # seeds/002 line 146: "Valid examples of ariths include 369s, 5xet and xcfs."
    assert meld(text).shape is Shape.ARITH


def test_arith_differences() -> None:
    # line 146: the traditional sequence is an arith with difference 1.
    assert meld("123m").difference == 1
    assert meld("369s").difference == 3
    assert meld("5xet").difference == 5
    assert meld("xcfs").difference == 3
    assert meld("18em").difference == 7


def test_zero_in_ariths_of_any_suit() -> None:
    # seeds/002 line 147: "Zero can participate as an arith in either suit."
    for suit in "tsm":
        found = classify(T.parse_kinds(f"048{suit}"))
        assert found is not None and found.shape is Shape.ARITH
        assert found.suit == "tsm".index(suit)
        assert str(found) == f"048{suit}"
    assert meld("012s").difference == 1


@pytest.mark.parametrize("ranks", ["124", "248", "48f", "139"])
def test_gems(ranks: str) -> None:
    # seeds/002 lines 150-153: the gems.
    for suit in "tsm":
        assert meld(ranks + suit).shape is Shape.GEM


@pytest.mark.parametrize("ranks", ["014", "149", "49f", "018"])
def test_powers(ranks: str) -> None:
    # seeds/002 lines 157-160: the powers; the zero is rank 0.
    for suit in "tsm":
        assert meld(ranks + suit).shape is Shape.POWER


def test_zero_is_never_in_a_gem() -> None:
    # seeds/002 line 154: "Zero cannot participate as part of a gem." No gem has rank 0, and
    # no 0-rank triple is read as a gem.
    for a, b in itertools.combinations(range(1, 17), 2):
        assert number_shape((0, a, b)) is not Shape.GEM


def test_trips_quads_and_non_melds() -> None:
    # lines 141-143: trips and quads of identical tiles, honours and zero included.
    assert meld("EEE").shape is Shape.TRIP
    assert meld("ZZZ").shape is Shape.TRIP
    assert meld("5s5s5s5s").shape is Shape.QUAD
    for text in ("12s3m", "1s2s", "EES", "ESW", "135s5s", "00s4s", "hhh", "1t2t4s", "ZE1s"):
        assert classify(T.parse_kinds(text)) is None, text
    assert classify(T.parse_kinds("ZZ4s")) is None  # two zeros are never two ranks


def brute_force_arith(a: int, b: int, c: int) -> bool:
    """An arith by the definition: three distinct ranks and a common difference."""
    for first, second, third in itertools.permutations((a, b, c)):
        if second - first == third - second and second > first:
            return True
    return False


def test_arith_detection_agrees_with_brute_force_over_all_triples() -> None:
    # Every multiset of three ranks 0-16 (the zero is rank 0), in every suit.
    for a, b, c in itertools.combinations_with_replacement(range(17), 3):
        expected = brute_force_arith(a, b, c)
        assert (number_shape((a, b, c)) is Shape.ARITH) == expected, (a, b, c)
        for suit in range(3):
            kinds = [T.number_kind(suit, rank) for rank in (a, b, c)]
            found = classify(kinds)
            is_arith = found is not None and found.shape is Shape.ARITH
            assert is_arith == expected, (a, b, c, suit)


def test_melds_never_mix_suits() -> None:
    assert classify(T.parse_kinds("1s2s3m")) is None
    assert classify(T.parse_kinds("1t2s3m")) is None


# -- forms ----------------------------------------------------------------------------------------


def test_four_melds_and_a_pair_with_every_meld_kind() -> None:
    # line 137: four melds and a pair; the melds of lines 140-161.
    hand = counts("369s 5xet 149m ZZZ EE")
    assert is_complete(hand, full_winds=True)
    assert readings(standard_decompositions(hand)) == {"5xet 369s 149m ZZZ EE"}


def test_every_decomposition_is_found() -> None:
    # 1-6 of one suit split into two melds as 123 456 or as 135 246 (no gem or power fits).
    hand = counts("123456s 1m1m1m 2m2m2m CC")
    assert readings(standard_decompositions(hand)) == {
        "123s 456s 111m 222m CC",
        "135s 246s 111m 222m CC",
    }
    # 1-9 of one suit has many readings, sequences and wider ariths and gems among them.
    found = readings(standard_decompositions(counts("123456789s 1m1m1m CC")))
    assert {"123s 456s 789s 111m CC", "147s 258s 369s 111m CC", "139s 248s 567s 111m CC"} <= found


def test_zero_as_a_number_in_a_decomposition() -> None:
    hand = counts("Z48s Z24m 999t 1s1s1s PP")
    assert readings(standard_decompositions(hand)) == {"999t 111s 048s 024m PP"}


def test_zero_as_pair_or_as_numbers() -> None:
    # Two zeros with 2 4 of two suits: each zero is rank 0 of an arith of its own suit.
    hand = counts("ZZ 24s 24m 66m 111t EEE")
    assert readings(standard_decompositions(hand)) == {"111t 024s 024m EEE 66m"}


def test_seven_pairs_including_four_of_a_kind() -> None:
    # seeds/002 line 168: seven pairs is a winning hand; four identical tiles count as two
    # pairs (when not declared as a quad).
    hand = counts("1s1s1s1s 3m3m Z Z E E C C xt xt")
    assert special_form(hand, (), full_winds=True) is Form.SEVEN_PAIRS
    pairs = [d for d in decompositions(hand) if d.form is Form.SEVEN_PAIRS]
    assert len(pairs) == 1 and len(pairs[0].pairs) == 7
    # A declared quad is not two pairs: with it the rest cannot be seven pairs.
    rest = counts("3m3m ZZ EE CC xt")
    assert not is_complete(rest, [meld("1s1s1s1s")], full_winds=True)


def test_thirteen_orphans() -> None:
    # seeds/002 line 164: thirteen classical terminals 1ft1fs1fmNESWCFP and one more of them.
    base = "1ft1fs1fmNESWCFP"
    for extra in ("1t", "fm", "E", "P"):
        hand = counts(base + extra)
        assert special_form(hand, (), full_winds=True) is Form.THIRTEEN_ORPHANS, extra
    assert special_form(counts(base + "Z"), (), full_winds=True) is Form.FOURTEEN_ORPHANS
    assert special_form(counts(base + "2s"), (), full_winds=True) is None


def test_fourteen_orphans() -> None:
    # seeds/002 line 165: one of each of the fourteen terminals 1ft1fs1fmZNESWCFP.
    hand = counts("1ft1fs1fmZNESWCFP")
    assert special_form(hand, (), full_winds=True) is Form.FOURTEEN_ORPHANS
    assert is_complete(hand, full_winds=True)


def test_orphans_with_compressed_winds() -> None:
    # seeds/002 line 166: with compressed winds EW is replaced with HH and NS with VV.
    thirteen = counts("1ft1fs1fmHHVVCFP" + "C")
    assert special_form(thirteen, (), full_winds=False) is Form.THIRTEEN_ORPHANS
    assert special_form(thirteen, (), full_winds=True) is None
    fourteen = counts("1ft1fs1fmZHHVVCFP")
    assert special_form(fourteen, (), full_winds=False) is Form.FOURTEEN_ORPHANS


@pytest.mark.parametrize("straight", ["123456789xabcd", "23456789xabcde", "3456789xabcdef"])
def test_ultra_long_straights(straight: str) -> None:
    # seeds/002 line 170: 123456789xabcd, 23456789xabcde or 3456789xabcdef of one suit.
    for suit in "sm":
        hand = counts(straight + suit)
        assert special_form(hand, (), full_winds=True) is Form.ULTRA_LONG
        assert is_complete(hand, full_winds=True)


def test_ultra_long_straight_open_only_with_sequences() -> None:
    # line 170: it may be open, but every open meld is an arith of difference 1.
    rest = counts("456789xabcdm")
    assert special_form(rest, [meld("123m", open=True)], full_winds=True) is Form.ULTRA_LONG
    rest = counts("2345789xbcdm")
    assert special_form(rest, [meld("16am", open=True)], full_winds=True) is None  # d = 5
    rest = counts("2456789xabcdm")
    assert special_form(rest, [meld("135m", open=True)], full_winds=True) is None  # d = 2
    assert special_form(counts("123456789xabcs"), (), full_winds=True) is None  # 13 tiles


def test_incomplete_hands() -> None:
    assert not is_complete(counts("123s 456s 789s 111m C F"), full_winds=True)
    assert not is_complete(counts("123s 456s 789s 111m CC C"), full_winds=True)
    assert not is_complete(counts("EEEE 123s 456s 789s 1m"), full_winds=True)


# -- waits ----------------------------------------------------------------------------------------


def test_waits_of_a_long_arith_shape() -> None:
    # 2 and 6 of socks wait on 4s (2-4-6), xs (2-6-10) and, as 2 6 with the zero... no: 0, 2, 6
    # is no meld; the pair-wait EE takes the rest.
    hand = counts("26s 111m 222m 333m EE")
    assert T.format_kinds(waits(hand, (), ALL_KINDS, full_winds=True)) == "4xs"


def test_waits_include_the_zero_as_a_number_and_a_pair() -> None:
    # 4s 8s: 0-4-8 (the zero), 4-6-8, 4-8-12 (bs), and the gems 2-4-8 and 4-8-16 (fs).
    hand = counts("48s 111m 222m 333m EE")
    assert T.format_kinds(waits(hand, (), ALL_KINDS, full_winds=True)) == "26bfsZ"


def test_no_wait_on_a_fifth_copy() -> None:
    hand = counts("EEE 111m 222m 333m 1s")
    found = waits(hand, [meld("1s1s1s", open=True)], ALL_KINDS, full_winds=True)
    assert found == []


def test_thirteen_orphans_thirteen_sided_wait() -> None:
    hand = counts("1ft1fs1fmNESWCFP")
    assert T.format_kinds(waits(hand, (), ALL_KINDS, full_winds=True)) == "1ft1fs1fmZESWNCFP"


# -- consistency, by property ---------------------------------------------------------------------

SMALL_TABLE = T.kinds_in_play(full_winds=True, flowers=False, all_tongs=False)


def random_hand(rng: random.Random, size: int) -> list[int]:
    pool = [kind for kind in SMALL_TABLE for _ in range(4)]
    hand = rng.sample(pool, size)
    return [hand.count(kind) for kind in range(T.KINDS)]


def near_complete_hand(rng: random.Random) -> list[int]:
    """Four random melds and a pair (often valid), so that complete hands are common."""
    for _ in range(100):
        hand = [0] * T.KINDS
        for _ in range(4):
            if rng.random() < 0.3:
                kind = rng.choice(SMALL_TABLE)
                hand[kind] += 3
            else:
                suit = rng.randrange(1, 3)
                low = rng.randrange(0, 15)
                d = rng.randrange(1, (16 - low) // 2 + 1)
                for rank in (low, low + d, low + 2 * d):
                    hand[T.number_kind(suit, rank)] += 1
        hand[rng.choice(SMALL_TABLE)] += 2
        if max(hand) <= 4:
            return hand
    raise AssertionError("no hand")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_fast_check_agrees_with_the_decompositions(seed: int, built: bool) -> None:
    rng = random.Random(seed)
    hand = near_complete_hand(rng) if built else random_hand(rng, 14)
    found = standard_decompositions(hand)
    assert is_standard_complete(hand) == bool(found)
    for decomposition in found:
        # Each reading uses exactly the hand's tiles.
        used = [0] * T.KINDS
        for part in decomposition.melds:
            assert classify(part.kinds) is not None
            for kind in part.kinds:
                used[kind] += 1
        assert decomposition.pair is not None
        used[decomposition.pair] += 2
        assert used == hand


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_waits_are_exactly_the_completing_tiles(seed: int) -> None:
    rng = random.Random(seed)
    hand = near_complete_hand(rng)
    hand[rng.choice([k for k in range(T.KINDS) if hand[k]])] -= 1
    found = waits(hand, (), SMALL_TABLE, full_winds=True)
    for kind in SMALL_TABLE:
        if hand[kind] >= 4:
            continue
        hand[kind] += 1
        assert (kind in found) == bool(decompositions(hand)), T.format_kind(kind)
        hand[kind] -= 1


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_distance_is_minus_one_exactly_for_complete_zero_free_hands(seed: int, built: bool) -> None:
    rng = random.Random(seed)
    hand = near_complete_hand(rng) if built else random_hand(rng, 14)
    if hand[T.ZERO]:
        return
    complete = is_complete(hand, full_winds=True) and special_form(hand, (), True) in (
        None,
        Form.SEVEN_PAIRS,
        Form.THIRTEEN_ORPHANS,
        Form.FOURTEEN_ORPHANS,
    )
    found = distance(hand, (), full_winds=True, limited_tongs=True)
    assert (found == -1) == complete
    assert -1 <= found <= 8


def test_distance_counts_steps() -> None:
    assert distance(counts("123s 456s 789s 111m C F"), (), full_winds=True, limited_tongs=True) == 0
    hand = counts("1s 4s 9s 2m 7m 1t E S W N C F P Z")
    assert distance(hand, (), full_winds=True, limited_tongs=True) >= 3
    # Thirteen orphans: waiting (13 different), and one step further (12 and a stray 3m).
    assert distance(counts("1ft1fs1fmNESWCFP"), (), full_winds=True, limited_tongs=True) == 0
    assert distance(counts("1ft1fs1fmNESWCF3m"), (), full_winds=True, limited_tongs=True) == 1


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_discard_distances_agree_with_distance(seed: int, open_hand: bool) -> None:
    rng = random.Random(seed)
    hand = random_hand(rng, 11 if open_hand else 14)
    declared = [meld("EEE", open=True)] if open_hand and hand[T.EAST] <= 1 else []
    if open_hand and not declared:
        return
    together = discard_distances(hand, declared, full_winds=True, limited_tongs=True)
    for kind, count in enumerate(hand):
        if count:
            hand[kind] -= 1
            alone = distance(hand, declared, full_winds=True, limited_tongs=True)
            hand[kind] += 1
            assert together[kind] == alone, T.format_kind(kind)
