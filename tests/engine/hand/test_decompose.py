"""Hand decomposition, agari detection, and waits with their shapes."""

from __future__ import annotations

import pytest

from engine.hand.decompose import (
    TRIPLET,
    Decomposition,
    WaitShape,
    decompositions,
    is_agari,
    is_chiitoitsu,
    is_kokushi,
    run_wait_shape,
    waits,
    winning_kinds,
)
from engine.tiles import format_kind, parse_counts, parse_tile

RYANMEN = WaitShape.RYANMEN
KANCHAN = WaitShape.KANCHAN
PENCHAN = WaitShape.PENCHAN
SHANPON = WaitShape.SHANPON
TANKI = WaitShape.TANKI


def k(text: str) -> int:
    return parse_tile(text).kind


def run(text: str) -> int:
    """Group code of the run starting at a tile."""
    return k(text)


def triplet(text: str) -> int:
    """Group code of the triplet of a tile."""
    return TRIPLET + k(text)


def readings(hand: str) -> set[tuple[int, tuple[int, ...]]]:
    """Decompositions as (pair, sorted group codes), so the order of groups does not matter."""
    return {(d.pair, tuple(sorted(d.groups))) for d in decompositions(parse_counts(hand))}


def wait_map(hand: str) -> dict[str, set[WaitShape]]:
    """The waits of a 3n+1 hand as {tile: shapes}."""
    return {format_kind(w.kind): set(w.shapes) for w in waits(parse_counts(hand))}


# -- decompositions ------------------------------------------------------------------------------


def test_ambiguous_hand_reads_as_triplets_and_as_runs() -> None:
    as_triplets = (k("7s"), tuple(sorted((triplet("1m"), triplet("2m"), triplet("3m"), run("4p")))))
    as_runs = (k("7s"), tuple(sorted((run("1m"), run("1m"), run("1m"), run("4p")))))
    assert readings("111222333m456p77s") == {as_triplets, as_runs}


def test_pair_can_move() -> None:
    # 11123444m: 111 + 234 + 44, or 11 + 123 + 444.
    assert readings("11123444m456p789s") == {
        (k("4m"), tuple(sorted((triplet("1m"), run("2m"), run("4p"), run("7s"))))),
        (k("1m"), tuple(sorted((run("1m"), triplet("4m"), run("4p"), run("7s"))))),
    }


def test_unique_reading() -> None:
    assert readings("123m456p789s23455s") == {
        (k("5s"), tuple(sorted((run("1m"), run("4p"), run("7s"), run("2s"))))),
    }


def test_three_identical_runs_or_three_triplets_with_a_pair() -> None:
    # 11122233344455m: 111 222 333 444 + 55, or 123 123 123 444 + 55, or 111 234 234 234 + 55.
    found = readings("11122233344455m")
    five = k("5m")
    assert (five, tuple(sorted(triplet(t) for t in ("1m", "2m", "3m", "4m")))) in found
    assert (five, tuple(sorted((run("1m"), run("1m"), run("1m"), triplet("4m"))))) in found
    assert (five, tuple(sorted((triplet("1m"), run("2m"), run("2m"), run("2m"))))) in found


def test_decomposition_needs_exactly_one_pair() -> None:
    assert decompositions(parse_counts("11m22p33s456m789p11z")) == []  # three pairs
    assert decompositions(parse_counts("123m456p789s123s")) == []  # no pair, 12 tiles


def test_honours_do_not_form_runs() -> None:
    assert decompositions(parse_counts("123z456p789s11m22m")) == []
    assert not is_agari(parse_counts("123z456p789s11m222m"))


def test_four_honours_are_not_a_group_and_a_tile() -> None:
    assert not is_agari(parse_counts("1111z234m567p789s1m"))


def test_decompositions_of_a_pair_alone() -> None:
    assert decompositions(parse_counts("55z")) == [Decomposition(k("5z"), ())]


def test_every_decomposition_has_four_groups_and_covers_the_tiles() -> None:
    for d in decompositions(parse_counts("11122233344455m")):
        assert len(d.groups) == 4
        counts = [0] * 34
        counts[d.pair] += 2
        for group in d.groups:
            for kind in [group - TRIPLET] * 3 if group >= TRIPLET else range(group, group + 3):
                counts[kind] += 1
        assert counts == parse_counts("11122233344455m")


# -- agari ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand",
    [
        "123m456p789s23455s",  # standard
        "111222333m456p77s",
        "11122233344455m",
        "11223344556677z",  # seven pairs of honours
        "1144m5588p2299s33z",  # seven pairs
        "19m19p19s11234567z",  # thirteen orphans
        "119m19p19s1234567z",
        "19m19p199s1234567z",
        "55z",  # hand with four calls
        "12355m",  # hand with three calls
    ],
)
def test_agari(hand: str) -> None:
    assert is_agari(parse_counts(hand))


@pytest.mark.parametrize(
    "hand",
    [
        "123m456p789s2345s",  # 13 tiles
        "123m456p789s23456s",  # 14 tiles, not complete
        "1111m5588p2299s33z",  # four of a kind is not two pairs
        "1133m5577p2299s3z4z",  # six pairs and two singles
        "19m19p19s1234566z",  # 13 orphans minus one kind, 13 tiles
        "19m19p19s12355667z",  # missing North
        "119m19p19s123456z1s",  # two 1s, no Red dragon
        "5z6z",
        "",
    ],
)
def test_not_agari(hand: str) -> None:
    assert not is_agari(parse_counts(hand))


def test_chiitoitsu_predicate() -> None:
    assert is_chiitoitsu(parse_counts("1144m5588p2299s33z"))
    assert not is_chiitoitsu(parse_counts("1111m5588p2299s33z"))
    assert not is_chiitoitsu(parse_counts("1144m5588p2299s3z"))
    assert not is_chiitoitsu(parse_counts("111444m5588p2299s"))


def test_kokushi_predicate() -> None:
    assert is_kokushi(parse_counts("19m19p19s11234567z"))
    assert is_kokushi(parse_counts("199m19p19s1234567z"))
    assert not is_kokushi(parse_counts("19m19p19s1234567z"))  # 13 tiles
    assert not is_kokushi(parse_counts("19m19p19s11123456z"))  # no Red, three East
    assert not is_kokushi(parse_counts("129m19p19s1234567z"))  # a 2m


def test_seven_pairs_that_also_read_as_ryanpeikou() -> None:
    counts = parse_counts("223344m667788p11s")
    assert is_chiitoitsu(counts)
    assert decompositions(counts)  # also four runs and a pair


# -- wait shapes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("run_start", "win", "shape"),
    [
        ("2m", "2m", RYANMEN),  # 34 waiting 2
        ("2m", "4m", RYANMEN),  # 23 waiting 4
        ("1m", "1m", RYANMEN),  # 23 waiting 1
        ("7m", "9m", RYANMEN),  # 78 waiting 9
        ("1m", "3m", PENCHAN),  # 12 waiting 3
        ("7s", "7s", PENCHAN),  # 89 waiting 7
        ("1p", "2p", KANCHAN),
        ("4p", "5p", KANCHAN),
        ("7p", "8p", KANCHAN),
    ],
)
def test_run_wait_shape(run_start: str, win: str, shape: WaitShape) -> None:
    assert run_wait_shape(k(run_start), k(win)) is shape


def test_ryanmen() -> None:
    assert wait_map("23m456p789s444z55z") == {"1m": {RYANMEN}, "4m": {RYANMEN}}


def test_kanchan() -> None:
    assert wait_map("13m456p789s444z55z") == {"2m": {KANCHAN}}


def test_penchan() -> None:
    assert wait_map("12m456p789s444z55z") == {"3m": {PENCHAN}}
    assert wait_map("89m456p789s444z55z") == {"7m": {PENCHAN}}


def test_shanpon() -> None:
    assert wait_map("11m456p99p789s444z") == {"1m": {SHANPON}, "9p": {SHANPON}}


def test_tanki() -> None:
    assert wait_map("123m456p789s444z5z") == {"5z": {TANKI}}


def test_nobetan() -> None:
    assert wait_map("1234m456p789s444z") == {"1m": {TANKI}, "4m": {TANKI}}


def test_sanmenchan() -> None:
    assert wait_map("23456m456p789s11z") == {
        "1m": {RYANMEN},
        "4m": {RYANMEN},
        "7m": {RYANMEN},
    }


def test_entotsu() -> None:
    # 34555 + a pair: 2m and 5m complete 34 (with 555), 5m or East complete a shanpon.
    assert wait_map("34555m456p789s11z") == {
        "2m": {RYANMEN},
        "5m": {RYANMEN, SHANPON},
        "1z": {SHANPON},
    }


def test_tanki_or_shanpon_triplet_and_single() -> None:
    # 5556: 6 as a pair (tanki), 4 and 7 complete 56 (ryanmen) with 55 the pair.
    assert wait_map("5556m456p789s444z") == {"4m": {RYANMEN}, "6m": {TANKI}, "7m": {RYANMEN}}


def test_kanchan_and_tanki() -> None:
    # 1113: 2 completes 13 (kanchan, 11 pair) or ... 3 as the pair's tanki (111 + 33).
    assert wait_map("1113m456p789s444z") == {"2m": {KANCHAN}, "3m": {TANKI}}


def test_chuuren_nine_sided_wait() -> None:
    found = wait_map("1112345678999m")
    assert set(found) == {f"{rank}m" for rank in range(1, 10)}


def test_kokushi_thirteen_sided_wait() -> None:
    found = waits(parse_counts("19m19p19s1234567z"))
    assert [w.kind for w in found] == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    assert all(w.shapes == (WaitShape.KOKUSHI_13,) for w in found)


def test_kokushi_single_wait() -> None:
    found = waits(parse_counts("19m19p19s1123456z"))
    assert [(w.kind, w.shapes) for w in found] == [(k("7z"), (WaitShape.KOKUSHI,))]


def test_chiitoitsu_wait() -> None:
    found = waits(parse_counts("1133m5577p2299s4z"))
    assert [(w.kind, w.shapes) for w in found] == [(k("4z"), (WaitShape.CHIITOITSU,))]


def test_triplet_and_five_pairs_is_not_a_seven_pairs_wait() -> None:
    # The fourth 1m would make four of a kind, which is not two pairs.
    assert waits(parse_counts("11133m5577p2299s")) == []


def test_waiting_only_on_a_tile_held_four_times_is_no_wait() -> None:
    assert waits(parse_counts("1111m234p567p789s")) == []
    assert winning_kinds(parse_counts("1111m234p567p789s")) == []


def test_fourth_copy_removes_only_that_wait() -> None:
    # 1111 2: 11 + 12 ... -> 111 + 12 waits 3m; 1m is held four times.
    assert wait_map("11112m456p789s44z") == {"3m": {PENCHAN}}


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1234m", {"1m": {TANKI}, "4m": {TANKI}}),  # four tiles after three calls
        ("1155m", {"1m": {SHANPON}, "5m": {SHANPON}}),
        ("5z", {"5z": {TANKI}}),  # one tile after four calls
        ("3m", {"3m": {TANKI}}),
        # 1112345: 2 and 5 as the pair (111 + 345 + 22, 111 + 234 + 55), 3 completes 12 or 45,
        # 6 completes 45 (11 + 123 + 456).
        ("1112345m", {"2m": {TANKI}, "3m": {PENCHAN, RYANMEN}, "5m": {TANKI}, "6m": {RYANMEN}}),
    ],
)
def test_waits_of_hands_with_calls(hand: str, expected: dict[str, set[WaitShape]]) -> None:
    assert wait_map(hand) == expected


@pytest.mark.parametrize("hand", ["23m", "11m555p", "123m456p789s23455s", ""])
def test_no_waits_for_hands_that_are_not_3n_plus_1(hand: str) -> None:
    assert waits(parse_counts(hand)) == []


def test_not_tenpai() -> None:
    assert waits(parse_counts("147m258p369s1234z")) == []


def test_winning_kinds_matches_waits() -> None:
    counts = parse_counts("23456m456p789s11z")
    assert winning_kinds(counts) == [k("1m"), k("4m"), k("7m")]


def test_every_suit_pattern_splits_back_into_its_own_tiles_in_each_suit() -> None:
    """The suits' splits are translated to absolute kinds on first use (``_suit_splits``): for
    every complete pattern of one suit, in each of the three suits beside an honour pair, every
    decomposition's groups and pair give back exactly the hand's counts."""
    from engine.hand import decompose

    decompose.raw_decompositions([0] * 27 + [2, 0, 0, 0, 0, 0, 0])  # builds the tables
    patterns = [key for key in decompose._RELATIVE if (sum(key.to_bytes(9, "little")) % 3 == 0)]
    assert len(patterns) > 1000
    for suit in range(3):
        for key in patterns[suit::7]:  # a spread of a seventh of them in each suit
            counts = [0] * 34
            counts[27] = 2  # the pair: east
            for rank, count in enumerate(key.to_bytes(9, "little")):
                counts[suit * 9 + rank] = count
            found = decompose.raw_decompositions(counts)
            assert found, (suit, list(key.to_bytes(9, "little")))
            for pair, runs, triplets in found:
                rebuilt = [0] * 34
                rebuilt[pair] += 2
                for start in runs:
                    for kind in (start, start + 1, start + 2):
                        rebuilt[kind] += 1
                for kind in triplets:
                    rebuilt[kind] += 3
                assert rebuilt == counts
