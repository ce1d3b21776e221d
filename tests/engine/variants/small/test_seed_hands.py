"""Every hand and value of ``seeds/004`` (small mahjong) that fixes a shape or a value.

Each test cites the line of ``../shared/seeds/004_1679fc2b9b5d2e6b.txt`` it comes from. The
expected points are the document's (lines 101-128); hands are written so that only the
conditions named in each test apply, which the comment works out by hand.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.errors import InvalidConditionsError, InvalidHandError, NotAgariError
from engine.rules import get_ruleset
from engine.scoring.small import CONDITIONS, full_flush_points
from engine.sim.wall import deal as deal_wall
from engine.sim.wall import tile_set
from engine.tiles import EAST, SOUTH, WEST
from tests.engine.variants.small.helpers import conditions, won

# -- the tiles and the deal ----------------------------------------------------------------------


def test_the_tiles_are_108_of_27_kinds_in_three_suits() -> None:
    # seeds/004 line 44: "It uses 108 tiles of 27 different types."
    # lines 48-49: suits (three of them) and ranks 1-9; line 91: no honour tiles;
    # line 92: no dora tiles (so no red fives either).
    for name in ("small-4p", "small-3p", "small-2p", "small-4p-4"):
        tiles = tile_set(get_ruleset(name))
        assert len(tiles) == 108, name
        kinds = Counter(tile.kind for tile in tiles)
        assert len(kinds) == 27 and set(kinds.values()) == {4}, name
        assert {tile.suit for tile in tiles} == {"m", "p", "s"}
        assert {tile.rank for tile in tiles} == set(range(1, 10))
        assert not any(tile.red for tile in tiles)


@pytest.mark.parametrize("name, players", [("small-4p", 4), ("small-3p", 3), ("small-2p", 2)])
def test_the_stock_is_14_tiles_per_player(name: str, players: int) -> None:
    # seeds/004 line 58: "The number of stock tiles is 14 per player."
    ruleset = get_ruleset(name)
    assert ruleset.players == players
    hands, indicator, wall = deal_wall(ruleset, random.Random(name))
    assert len(wall.live) == 14 * players
    assert indicator is None and wall.dora_indicators == wall.ura_indicators == ()
    assert wall.replacements == ()
    # The stock and the hands come from one shuffled set: no tile more than four times.
    seen = Counter(tile for hand in hands for tile in hand)
    seen.update(wall.live)
    assert max(seen.values()) <= 4


@pytest.mark.parametrize(
    "name, dealt", [("small-4p", 13), ("small-4p-10", 10), ("small-4p-7", 7), ("small-4p-4", 4)]
)
def test_each_player_is_dealt_4_7_10_or_13_tiles(name: str, dealt: int) -> None:
    # seeds/004 line 60: "The number of dealt tiles can be selected from 4, 7, 10 and 13."
    hands, _, _ = deal_wall(get_ruleset(name), random.Random(dealt))
    assert [len(hand) for hand in hands] == [dealt] * 4


# -- winning hands (lines 53-56, 62-67) ---------------------------------------------------------


def test_4_dealt_tiles_win_with_a_pair_and_one_meld() -> None:
    # seeds/004 line 64: "4 dealt tiles: 1 twins and 1 meld".
    # 55m 123p, ron on 1p after reach: 23p waited on 1p or 4p (two-sided, line 108) -> Reach 1,
    # All Sequences 1; the 1p is a terminal, so no All Middles.
    assert conditions(won("55m123p", "1p", ruleset="small-4p-4")) == {"riichi": 1, "pinfu": 1}
    with pytest.raises(NotAgariError):
        won("12345m", "5m", ruleset="small-4p-4")  # no pair


def test_7_dealt_tiles_win_with_a_pair_and_two_melds() -> None:
    # seeds/004 line 65: "7 dealt tiles: 1 twins and 2 melds".
    # 234m 456p 77s, ron on 4p (56p: two-sided) -> Reach 1, All Middles 1, All Sequences 1.
    score = won("234m456p77s", "4p", ruleset="small-4p-7")
    assert conditions(score) == {"riichi": 1, "tanyao": 1, "pinfu": 1}
    assert score.han == 3


def test_10_dealt_tiles_win_with_a_pair_and_three_melds() -> None:
    # seeds/004 line 66: "10 dealt tiles: 1 twins and 3 melds".
    score = won("234m456p678s55s", "8s", ruleset="small-4p-10")
    assert conditions(score) == {"riichi": 1, "tanyao": 1, "pinfu": 1}


def test_13_dealt_tiles_win_with_a_pair_and_four_melds_or_seven_twins() -> None:
    # seeds/004 line 67: "13 dealt tiles: 1 twins and 4 melds, or 7 twins".
    score = won("234567m456p678s55s", "7m")
    assert conditions(score) == {"riichi": 1, "tanyao": 1, "pinfu": 1}
    # Seven twins (line 115: 2 points), with Reach: 1m and 9s are terminals, no All Middles.
    assert conditions(won("1133m5577p228899s", "9s")) == {"riichi": 1, "chiitoitsu": 2}


def test_seven_twins_need_13_dealt_tiles() -> None:
    # seeds/004 line 67: 7 twins only with 13 dealt tiles; four twins are no hand of 7.
    with pytest.raises(NotAgariError):
        won("1133m5577p", "7p", ruleset="small-4p-7")


def test_a_sequence_is_three_consecutive_ranks_of_one_suit() -> None:
    # seeds/004 line 55: "Sequence: 3 tiles of the consecutive ranks in the same suit";
    # line 54-56: twins and triplets of one rank in one suit. 9-1 does not wrap, suits do not mix.
    with pytest.raises(NotAgariError):
        won("189m55p", "1m", ruleset="small-4p-4")
    with pytest.raises(NotAgariError):
        won("78m9p55s", "9p", ruleset="small-4p-4")
    with pytest.raises(NotAgariError):
        won("5m5p5s99m", "5s", ruleset="small-4p-4")  # a "triplet" across suits


def test_a_winning_hand_has_the_dealt_tiles_and_one_more() -> None:
    # seeds/004 lines 60-67: with 4 dealt tiles a hand wins with 5 (a pair and a meld).
    with pytest.raises(InvalidHandError, match="5 tiles"):
        won("234567m456p678s55s", "7m", ruleset="small-4p-4")


def test_there_are_no_honour_tiles_nor_red_fives() -> None:
    # seeds/004 line 91: "No honor tiles"; line 92: "No dora tiles".
    with pytest.raises(InvalidHandError, match="only number tiles"):
        won("23m111z", "1z", ruleset="small-4p-4")
    with pytest.raises(InvalidHandError, match="red"):
        won("406m99p", "4m", ruleset="small-4p-4")


# -- the winning conditions (lines 97-128) ------------------------------------------------------

# A 13-tile hand of runs on a two-sided wait, no 1 or 9: All Middles and All Sequences.
PLAIN = "234567m456p678s55s"


def test_reach_is_one_point() -> None:
    # seeds/004 line 102: Reach, 1 point.
    assert conditions(won(PLAIN, "7m"))["riichi"] == 1


def test_one_shot_is_one_point() -> None:
    # seeds/004 line 103: One Shot, 1 point.
    score = won(PLAIN, "7m", ippatsu=True)
    assert conditions(score) == {"riichi": 1, "ippatsu": 1, "tanyao": 1, "pinfu": 1}
    assert score.han == 4


def test_last_stock_is_one_point() -> None:
    # seeds/004 line 104: Last Stock, 1 point (with Win from Stock, line 106).
    score = won(PLAIN, "7m", tsumo=True, haitei=True)
    assert conditions(score) == {"haitei": 1, "menzen_tsumo": 1, "tanyao": 1, "pinfu": 1}


def test_last_discard_is_one_point() -> None:
    # seeds/004 line 105: Last Discard, 1 point.
    score = won(PLAIN, "7m", houtei=True)
    assert conditions(score) == {"riichi": 1, "houtei": 1, "tanyao": 1, "pinfu": 1}


def test_win_from_stock_is_one_point_and_needs_no_reach() -> None:
    # seeds/004 line 106: Win from Stock, 1 point; line 77: tsumo without Reach.
    # 123m 789m 456p 789s 11s on a closed 5p wait: no other condition (456p holds no 1 or 9,
    # so no All Outside; no 456m, so no Pure Straight).
    score = won("123789m456p789s11s", "5p", tsumo=True)
    assert conditions(score) == {"menzen_tsumo": 1}
    assert score.han == 1


def test_all_middles_is_one_point() -> None:
    # seeds/004 line 107: All Middles, 1 point: no 1 or 9 at all.
    assert conditions(won("234m456p678s55s", "8s", ruleset="small-4p-10"))["tanyao"] == 1
    assert "tanyao" not in conditions(won("123m456p678s55s", "6p", ruleset="small-4p-10"))


def test_all_sequences_needs_runs_and_a_two_sided_wait() -> None:
    # seeds/004 line 108: All Sequences, 1 point. Chosen definition (docs/variants/small.md):
    # every meld a run and a two-sided wait, as riichi's pinfu and the original program.
    assert conditions(won(PLAIN, "7m"))["pinfu"] == 1  # 56m waited on 4m or 7m
    # The same tiles won on 5p, the middle of 46p: a closed wait, no All Sequences.
    assert conditions(won(PLAIN, "5p")) == {"riichi": 1, "tanyao": 1}
    # 2345m waits on 2m or 5m as a pair (nobetan): a pair wait, no All Sequences.
    score = won("23455m678p", "5m", ruleset="small-4p-7")
    assert conditions(score) == {"riichi": 1, "tanyao": 1}
    # 12m waits on 3m only (an edge wait): none either.
    assert "pinfu" not in conditions(won("123m456p55s", "3m", ruleset="small-4p-7"))


def test_pure_double_sequences_is_one_point() -> None:
    # seeds/004 line 109: Pure Double Sequences, 1 point: 234m twice.
    score = won("223344m55p", "4m", ruleset="small-4p-7")
    assert conditions(score) == {"riichi": 1, "tanyao": 1, "pinfu": 1, "iipeikou": 1}


def test_double_reach_is_two_points_instead_of_reach() -> None:
    # seeds/004 line 111: Double Reach, 2 points.
    score = won(PLAIN, "7m", double_riichi=True)
    assert conditions(score) == {"tanyao": 1, "pinfu": 1, "double_riichi": 2}


def test_mixed_triple_sequences_is_two_points() -> None:
    # seeds/004 line 112: Mixed Triple Sequences, 2 points: 345 in each suit.
    score = won("345m345p345s99m", "5s", ruleset="small-4p-10")
    assert conditions(score) == {"riichi": 1, "pinfu": 1, "sanshoku": 2}


def test_mixed_triple_triplets_is_two_points() -> None:
    # seeds/004 line 113: Mixed Triple Triplets, 2 points. 222m 222p 222s 99m won on 9m as the
    # pair: three triplets none of them completed by the ron, so also All Triplets (line 116)
    # and Three Closed Triplets (line 117).
    score = won("222m222p222s99m", "9m", ruleset="small-4p-10")
    assert conditions(score) == {
        "riichi": 1,
        "sanshoku_doukou": 2,
        "toitoi": 2,
        "sanankou": 2,
    }
    assert score.han == 7


def test_pure_straight_is_two_points() -> None:
    # seeds/004 line 114: Pure Straight, 2 points (78m waited on 6m or 9m).
    score = won("123456789m55p", "9m", ruleset="small-4p-10")
    assert conditions(score) == {"riichi": 1, "pinfu": 1, "ittsu": 2}


def test_all_triplets_is_two_points_even_with_one_meld() -> None:
    # seeds/004 line 116: All Triplets, 2 points; with 4 dealt tiles the one meld is a triplet.
    score = won("555m77p", "7p", ruleset="small-4p-4")
    assert conditions(score) == {"riichi": 1, "tanyao": 1, "toitoi": 2}


def test_three_closed_triplets_counts_no_triplet_completed_by_ron() -> None:
    # seeds/004 line 117: Three Closed Triplets, 2 points. 222m 444p 666s 345s 88m waited on
    # 6s or 8m: a ron on 6s completes that triplet from a discard (two closed), a tsumo does not.
    hand = "222m444p666s345s88m"
    assert conditions(won(hand, "6s")) == {"riichi": 1, "tanyao": 1}
    assert conditions(won(hand, "6s", tsumo=True)) == {
        "menzen_tsumo": 1,
        "tanyao": 1,
        "sanankou": 2,
    }


def test_all_outside_is_three_points() -> None:
    # seeds/004 line 119: All Outside, 3 points: a 1 or 9 in every meld and in the pair.
    assert conditions(won("123m99p", "3m", ruleset="small-4p-4")) == {"riichi": 1, "junchan": 3}
    score = won("123789m123p789s11s", "7s")
    assert conditions(score) == {"riichi": 1, "junchan": 3}


def test_two_pure_double_sequences_is_three_points() -> None:
    # seeds/004 line 120: Two Pure Double Sequences, 3 points; it is not also Pure Double
    # Sequences, and beats the seven-twins reading of the same tiles (2 points, line 115).
    score = won("223344m667788p55s", "8p")
    assert conditions(score) == {"riichi": 1, "tanyao": 1, "pinfu": 1, "ryanpeikou": 3}
    assert score.han == 6


@pytest.mark.parametrize(
    ("name", "hand"), [("small-4p", "222333444m678p55s"), ("small-4p-10", "222333444m55p")]
)
def test_three_identical_runs_are_two_pure_double_sequences(name: str, hand: str) -> None:
    """seeds/004 line 120, among the 3-point conditions: "Two Pure Double Sequences"; the rules
    are the original program's ("Repo: https://github.com/usumerican/smallmahjong", line 29).
    The program sorts the melds and counts a repeat for each one equal to the next: 234m 234m
    234m repeats twice, so it is Two Pure Double Sequences (3 points), not Pure Double
    Sequences (1). Here with riichi, All Middles and All Sequences (23m waited on 1m or 4m):
    1 + 1 + 1 + 3, over the reading 222m 333m 444m (the ron completes a triplet: no Three
    Closed Triplets)."""
    score = won(hand, "4m", ruleset=name)
    assert conditions(score) == {"riichi": 1, "tanyao": 1, "pinfu": 1, "ryanpeikou": 3}
    assert score.han == 6


@pytest.mark.parametrize(
    "name, tiles, win, points",
    [
        ("small-4p-4", "123m55m", "3m", 3),
        ("small-4p-7", "123456m88m", "8m", 4),
        ("small-4p-10", "123456789m88m", "8m", 5),
        ("small-4p", "123456789m23488m", "8m", 6),
    ],
)
def test_full_flush_is_worth_3_4_5_or_6_by_the_dealt_tiles(
    name: str, tiles: str, win: str, points: int
) -> None:
    # seeds/004 lines 121-122: Full Flush, "3, 4, 5, 6 points (according to dealt tiles)".
    assert conditions(won(tiles, win, ruleset=name))["chinitsu"] == points
    assert full_flush_points(get_ruleset(name).dealt_tiles) == points


def test_blessing_of_heaven_is_16_points_alone() -> None:
    # seeds/004 line 124: Blessing of Heaven, 16 (special: replaces Win from Stock, All
    # Middles, All Sequences); line 83: each of the three others pays 16.
    score = won(PLAIN, "7m", tsumo=True, tenhou=True, seat=EAST)
    assert conditions(score) == {"tenhou": 16}
    assert sorted(score.payments) == [("N", 16), ("S", 16), ("W", 16)]
    assert score.total == 48


def test_blessing_of_earth_is_16_points() -> None:
    # seeds/004 line 125: Blessing of Earth, 16.
    assert conditions(won(PLAIN, "7m", tsumo=True, chiihou=True, seat=SOUTH)) == {"chiihou": 16}


def test_all_terminals_is_16_points() -> None:
    # seeds/004 line 126: All Terminals, 16. A ron on 9p completes that triplet from a discard:
    # three closed triplets, so not Four Closed Triplets; the special replaces All Outside,
    # All Triplets, Three Closed Triplets and Reach.
    assert conditions(won("111m999m111p999p11s", "9p")) == {"chinroutou": 16}
    assert conditions(won("111m99p", "9p", ruleset="small-4p-4")) == {"chinroutou": 16}


def test_four_closed_triplets_is_16_points() -> None:
    # seeds/004 line 127: Four Closed Triplets, 16: by tsumo, or by ron on the pair.
    hand = "222m444p666s888s55m"
    assert conditions(won(hand, "5m", tsumo=True)) == {"suuankou": 16}
    assert conditions(won(hand, "5m")) == {"suuankou": 16}
    # A ron on 8s completes a triplet from a discard: three closed triplets (line 117) and
    # All Triplets (line 116) with All Middles and Reach.
    assert conditions(won(hand, "8s")) == {
        "riichi": 1,
        "tanyao": 1,
        "toitoi": 2,
        "sanankou": 2,
    }


def test_nine_gates_is_16_points() -> None:
    # seeds/004 line 128: Nine Gates, 16: 1112345678999 of one suit and one more.
    assert conditions(won("11123455678999m", "5m")) == {"chuuren": 16}


def test_special_conditions_add_up() -> None:
    # seeds/004 line 123 ("16 points (special conditions)") and line 79 (the total of the
    # conditions): the dealer's first draw completing four closed triplets is 16 + 16.
    score = won("222m444p666s888s55m", "5m", tsumo=True, tenhou=True, seat=EAST)
    assert conditions(score) == {"tenhou": 16, "suuankou": 16}
    assert score.han == 32


def test_every_condition_of_the_document_is_listed_with_its_points() -> None:
    # seeds/004 lines 101-128, name by name.
    document = {
        "Reach": 1, "One Shot": 1, "Last Stock": 1, "Last Discard": 1, "Win from Stock": 1,
        "All Middles": 1, "All Sequences": 1, "Pure Double Sequences": 1, "Double Reach": 2,
        "Mixed Triple Sequences": 2, "Mixed Triple Triplets": 2, "Pure Straight": 2,
        "Seven Twins": 2, "All Triplets": 2, "Three Closed Triplets": 2, "All Outside": 3,
        "Two Pure Double Sequences": 3, "Full Flush": 0, "Blessing of Heaven": 16,
        "Blessing of Earth": 16, "All Terminals": 16, "Four Closed Triplets": 16,
        "Nine Gates": 16,
    }  # fmt: skip
    assert {c.title: c.points for c in CONDITIONS.values()} == document
    assert {c.title for c in CONDITIONS.values() if c.special} == {
        "Blessing of Heaven", "Blessing of Earth", "All Terminals", "Four Closed Triplets",
        "Nine Gates",
    }  # fmt: skip


# -- points and payments (lines 79-83, 93) ------------------------------------------------------


def test_a_ron_is_paid_by_the_discarder_alone_per_opponent() -> None:
    # seeds/004 line 79: the winner gets the total per opponent; line 81: on a ron the
    # discarder pays it alone. PLAIN on 7m with Reach: 3 points, so 9 from the discarder (West).
    score = won(PLAIN, "7m", discarder=WEST)
    assert score.han == 3
    assert score.payments == (("W", 9),)
    assert score.total == 9
    # With three players, two opponents: 6.
    assert won(PLAIN, "7m", ruleset="small-3p", discarder=WEST).payments == (("W", 6),)


def test_a_tsumo_is_paid_by_every_other_player() -> None:
    # seeds/004 line 83: on a tsumo all the others pay the total. PLAIN by tsumo: Win from
    # Stock, All Middles, All Sequences: 3 points from each.
    score = won(PLAIN, "7m", tsumo=True)
    assert score.han == 3
    assert sorted(score.payments) == [("E", 3), ("N", 3), ("W", 3)]
    assert score.total == 9


def test_the_scoring_is_simple_no_fu_no_limits() -> None:
    # seeds/004 line 93: "Simple scoring".
    score = won(PLAIN, "7m")
    assert score.fu == 0 and score.fu_items == () and score.limit is None


def test_a_ron_needs_reach() -> None:
    # seeds/004 line 90: "The players can NOT declare Ron without Reach" (line 75).
    with pytest.raises(InvalidConditionsError, match="riichi"):
        won(PLAIN, "7m", riichi=False)


def test_there_are_no_calls_and_no_dora() -> None:
    # seeds/004 line 89: no open melds; line 92: no dora.
    from engine.hand.melds import Meld
    from engine.scoring import WinConditions, WinningHand, score_hand
    from engine.tiles import parse_tile, parse_tiles

    ruleset = get_ruleset("small-4p")
    melded = WinningHand(
        tiles=tuple(parse_tiles("567m456p678s55s")),
        win_tile=parse_tile("7m"),
        melds=(Meld.parse("pon", "222m"),),
        conditions=WinConditions(tsumo=True, seat_wind=SOUTH),
    )
    with pytest.raises(InvalidConditionsError, match="no calls"):
        score_hand(melded, ruleset)
    with_dora = WinningHand(
        tiles=tuple(parse_tiles(PLAIN)),
        win_tile=parse_tile("7m"),
        dora_indicators=(parse_tile("1m"),),
        conditions=WinConditions(tsumo=True, seat_wind=SOUTH),
    )
    with pytest.raises(InvalidConditionsError, match="no dora"):
        score_hand(with_dora, ruleset)
