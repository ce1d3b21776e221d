"""Ùzje fan, points and payments: the document's table and payment example line by line, and
every pattern of seeds/002 lines 173-298 on a hand that shows it. Expected values are worked out
from the document's numbers (and the documented choices for the open ones), in tenths of a fan."""

from __future__ import annotations

import re

import pytest

from engine.variants.uzje import tiles as T
from engine.variants.uzje.rules import UZJE_4P, Rounding, UzjeRules
from engine.variants.uzje.scoring import (
    HandValue,
    SpecialWin,
    WinConditions,
    best_value,
    bonus_kind,
    limit_value,
    limits_for_fan,
    payments,
    points_for,
    sequence_value,
    special_value,
)
from engine.variants.uzje.shapes import Meld, classify

RULES = UZJE_4P
ALL_TONGS = UZJE_4P.replace(name="x", all_tongs=True)


def counts(text: str) -> list[int]:
    kinds = T.parse_kinds(text)
    return [kinds.count(kind) for kind in range(T.KINDS)]


def declared(text: str, *, open: bool = True) -> Meld:
    meld = classify(T.parse_kinds(text), open=open)
    assert meld is not None
    return meld


def value(
    concealed: str,
    win: str,
    *melds: Meld,
    rules: UzjeRules = RULES,
    seat_wind: int | None = 2,
    round_wind: int = 1,
    self_draw: bool = False,
    **conditions: object,
) -> HandValue:
    """The value of a win: ``concealed`` includes the winning tile ``win``. By default the
    winner sits West in a South set, so that East and North trips are worth nothing."""
    found = best_value(
        counts(concealed),
        melds,
        T.parse_kinds(win)[0],
        WinConditions(
            seat_wind=seat_wind,
            round_wind=round_wind,
            self_draw=self_draw,
            **conditions,  # type: ignore[arg-type]
        ),
        rules,
    )
    assert found is not None, concealed
    return found


def patterns(found: HandValue) -> dict[str, int]:
    return dict(found.patterns)


# -- the score table, lines 116-130 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fan", "points"),
    [
        (3, 2),  # line 117
        (4, 5),  # line 118
        (5, 10),  # line 119
        (6, 20),  # line 120
        (7, 50),  # line 121
        (8, 100),  # line 122
        (9, 200),  # line 123
        (10, 500),  # line 124
        (11, 1000),  # line 125
        (12, 2000),  # line 126
        (13, 5000),  # line 127: 13 ~ 15 f = 1 l
        (14, 5000),
        (15, 5000),
        (16, 10_000),  # line 128: 16 ~ 18 f = 2 l
        (17, 10_000),
        (18, 10_000),
        (19, 15_000),  # line 129: 19 ~ 21 f = 3 l
        (20, 15_000),
        (21, 15_000),
        (22, 20_000),  # line 130: 22 ~ 24 f = 4 l
        (23, 20_000),
        (24, 20_000),
    ],
)
def test_score_table(fan: int, points: int) -> None:
    assert points_for(10 * fan, 0, RULES) == points


@pytest.mark.parametrize(
    ("fan", "limits"), [(12, 0), (13, 1), (15, 1), (16, 2), (18, 2), (19, 3), (22, 4), (24, 4)]
)
def test_limits_reached_by_fan(fan: int, limits: int) -> None:
    # lines 127-130 and 115: every third fan after the limit is one more limit.
    assert limits_for_fan(10 * fan, RULES) == limits


def test_minimum_and_fractions() -> None:
    # line 112: the bare minimum is 2 points; line 172: the minimum is 2.5 f and fan move in
    # 0.2 steps, so 2.4 f does not win and 2.6 f does.
    assert points_for(24, 0, RULES) == 0
    assert points_for(26, 0, RULES) == 2
    # Each whole fan above the minimum moves a step (line 113): 3.4 f is still 2 points, 3.6 f 5.
    assert points_for(34, 0, RULES) == 2
    assert points_for(36, 0, RULES) == 5


def test_one_two_five_sequence() -> None:
    # line 113: "the next sequence of the 1-2-5 preferred numbers", from 2.
    assert [sequence_value(step) for step in range(11)] == [
        *(2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
    ]
    assert limit_value(RULES) == 5000  # line 127


def test_limit_hands_add_up_and_ignore_fan() -> None:
    # line 114: a limit hand is a fixed amount, several add together.
    assert points_for(0, 1, RULES) == 5000
    assert points_for(0, 3, RULES) == 15_000
    assert points_for(999, 2, RULES) == 10_000


def test_other_thresholds() -> None:
    # line 172: the minimum can be moved; the table moves with it.
    low = RULES.replace(name="low", min_fan=1.5)
    assert points_for(20, 0, low) == 2
    assert points_for(30, 0, low) == 5
    with pytest.raises(ValueError, match="half-integer"):
        RULES.replace(name="bad", min_fan=2.0)


# -- payments, lines 131-135 -----------------------------------------------------------------------


def test_discarder_pays_the_amount() -> None:
    # line 132: the player whose tile won pays the amount.
    assert payments(50, 1, 3, 4, RULES) == [0, 50, 0, -50]


def test_several_winners_each_paid() -> None:
    # line 133: the losing player pays each winner that amount.
    first = payments(20, 0, 2, 4, RULES)
    second = payments(5, 1, 2, 4, RULES)
    assert [a + b for a, b in zip(first, second, strict=True)] == [20, 5, -25, 0]


def test_self_draw_example() -> None:
    # line 134: "a 7 f hand won by self draw would have the other players pay 25 points (not
    # 20), and the winner receives 75 points".
    amount = points_for(70, 0, RULES)
    assert amount == 50
    assert payments(amount, 2, None, 4, RULES) == [-25, -25, 75, -25]


def test_a_five_point_self_draw_pays_exactly_half() -> None:
    # line 134: on a self-draw "all other players pay exactly half of the amount in the above
    # table". A closed self-draw is 1 f (line 181) + 2.6 f (line 186) = 3.6 f, one whole fan
    # above the 2.5 f minimum: 5 points (line 118, "4 f => 5 pt", the step of 3.5-4.4 f). Half
    # of 5 is 2.5 from each of the three others, 3 x 2.5 = 7.5 to the winner.
    found = value("123s 456s 789s 111m CC", "9s", self_draw=True)
    assert found.fan == 36 and found.points == 5
    assert RULES.self_draw_rounding is Rounding.EXACT  # the presets pay as the document says
    assert payments(found.points, 0, None, 4, RULES) == [7.5, -2.5, -2.5, -2.5]
    # The 7 f example of line 134 is whole either way: 25 each, 75 to the winner.
    assert payments(50, 2, None, 4, RULES) == [-25, -25, 75, -25]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("points", [2, 5, 10, 50, 5000])
def test_exact_payments_conserve_points(players: int, points: int) -> None:
    # Every point one player gains another loses, halves included; whole amounts stay ints
    # (5, not 5.0: a record writes whole points without a fraction).
    table = RULES.replace(name="x", players=players)
    for winner in range(players):
        deltas = payments(points, winner, None, players, table)
        assert sum(deltas) == 0
        assert deltas[winner] == points / 2 * (players - 1)
        assert all(type(delta) is int for delta in deltas if delta == int(delta))
        assert all(delta * 2 == int(delta * 2) for delta in deltas)


def test_half_of_an_odd_amount_rounded_as_before() -> None:
    # The rounding the engine had before "exact", an option still: 4 f self-drawn is 5 points,
    # half is 2.5, rounded up (3 each, 9 to the winner) or down (2 each, 6).
    up = RULES.replace(name="up", self_draw_rounding=Rounding.UP)
    assert payments(5, 0, None, 4, up) == [9, -3, -3, -3]
    down = RULES.replace(name="down", self_draw_rounding=Rounding.DOWN)
    assert payments(5, 0, None, 4, down) == [6, -2, -2, -2]
    for rules in (up, down, RULES):
        # Line 135: the minimum is 2 points so that a self-draw can be halved.
        assert payments(2, 1, None, 3, rules) == [-1, 2, -1]
        assert all(type(delta) is int for delta in payments(10, 1, None, 4, rules))


# -- luck-based wins, lines 177-219 --------------------------------------------------------------


def test_closed_hand_wins_alone() -> None:
    # line 186: closed hand 2.6 f; line 189: it should be winnable with minimal effort.
    found = value("123s 456s 789s 111m CC", "9s")
    assert patterns(found) == {"closed_hand": 26}
    assert found.points == 2


def test_closed_self_draw_is_always_winnable() -> None:
    # lines 181, 185, 188: self-draw 1 f combines with closed hand 2.6 f.
    found = value("123s 456s 789s 111m CC", "9s", self_draw=True)
    assert patterns(found) == {"closed_hand": 26, "self_draw": 10}
    assert found.points == 5


def test_open_hand_without_value_does_not_win() -> None:
    # line 180: self-draw is available open, but 1 f is below the 2.5 f minimum.
    found = value("456s 789s 111m CC", "9s", declared("123s"), self_draw=True)
    assert patterns(found) == {"self_draw": 10}
    assert found.points == 0 and not found.wins


def test_sea_scoop_on_one_tong() -> None:
    # lines 190-195: sea-scoop 1.8 f, + 3 f if the tile is a 1t.
    found = value("1t1t1t 456s 789s 111m CC", "1t", self_draw=True, sea_scoop=True)
    assert patterns(found) == {
        "self_draw": 10,
        "closed_hand": 26,
        "sea_scoop": 18,
        "sea_scoop_1t": 30,
    }
    assert found.fan == 84
    assert found.points == 100  # 8.4 f: five steps above 2.5


def test_pond_scoop_on_three_man() -> None:
    # lines 196-199: pond-scoop 1.2 f, + 3 f if the tile is a 3m. EEE is the round wind here.
    found = value("123m 456s 789s EEE CC", "3m", seat_wind=1, round_wind=0, pond_scoop=True)
    assert patterns(found) == {
        "closed_hand": 26,
        "pond_scoop": 12,
        "pond_scoop_3m": 30,
        "round_wind": 10,
    }
    assert found.points == 100


def test_quad_draw_on_five_tong_when_in_play() -> None:
    # lines 200-203: quad draw 1.6 f, + 3 f on a 5t "and the 5t is in play" (all tongs).
    quad = declared("EEEE", open=False)
    found = value("345t 789s 111m CC", "5t", quad, rules=ALL_TONGS, self_draw=True, quad_chain=1)
    assert patterns(found) == {
        "self_draw": 10,
        "closed_hand": 26,  # a closed quad does not open the hand
        "quad_draw": 16,
        "quad_draw_5t": 30,
    }
    assert found.points == 100


def test_multi_quad_draw() -> None:
    # lines 204-209: 5 f, + 3 f for each closed quad after the second; it replaces quad draw.
    quads = (declared("EEEE"), declared("1s1s1s1s", open=False), declared("9m9m9m9m", open=False))
    found = value("789s CC", "9s", *quads, self_draw=True, quad_chain=3)
    assert patterns(found) == {"self_draw": 10, "multi_quad_draw": 50, "multi_quad_draw_extra": 30}
    # 1 + 5 + 3 = 9 f: 6.5 above the minimum, step 6 of 2, 5, 10, 20, 50, 100, 200.
    assert found.fan == 90 and found.points == 200


def test_quad_rob_on_two_sock() -> None:
    # lines 210-215: quad rob 2 f, + 3 f if the tile is a 2s.
    found = value("123s 456s 789m EEE CC", "2s", quad_rob=True)
    assert patterns(found) == {"closed_hand": 26, "quad_rob": 20, "quad_rob_2s": 30}
    assert found.points == 100


# -- lucky tiles, lines 220-248 --------------------------------------------------------------------


def test_five_bonus_tiles_win_a_scoreless_open_hand() -> None:
    # lines 222-225: 0.6 f for each tile matching a bonus tile, in the hand or melded; "having
    # 5 bonus tiles is enough to win on an otherwise scoreless hand" at 2.5 f.
    found = value(
        "456s 789s 111m CC", "9s", declared("123s"), bonus=(T.parse_kinds("1m")[0], T.RED)
    )
    assert patterns(found) == {"bonus_tile": 30}
    assert found.points == 2


def test_bonus_tile_stacks_on_each() -> None:
    # line 223: two bonus tiles showing the same tile count each match twice.
    found = value("456s 789s 111m CC", "9s", declared("123s"), bonus=(T.RED, T.RED))
    assert patterns(found) == {"bonus_tile": 24}


def test_seat_flower() -> None:
    # lines 226-228: a flower matching the seat (HKOS: East h and o, South i and p, ...).
    east = value("123s 456s 789s 111m CC", "9s", seat_wind=0, round_wind=1, flowers=(T.FLOWERS[0],))
    assert patterns(east) == {"closed_hand": 26, "seat_flower": 10}
    south = value("123s 456s 789s 111m CC", "9s", seat_wind=1, flowers=(T.FLOWERS[0],))
    assert patterns(south) == {"closed_hand": 26}
    both = value("123s 456s 789s 111m CC", "9s", seat_wind=1, flowers=tuple(T.parse_kinds("ip")))
    assert patterns(both) == {"closed_hand": 26, "seat_flower": 20}


def test_orchard() -> None:
    # lines 229-233 (hijk|opqr): all four of one set, 3 f, superseding that set's seat flower;
    # the other set's seat flower still counts.
    found = value(
        "123s 456s 789s 111m CC", "9s", seat_wind=0, flowers=tuple(T.parse_kinds("hijko"))
    )
    assert patterns(found) == {"closed_hand": 26, "orchard": 30, "seat_flower": 10}
    assert found.points == 50


def test_flower_wins() -> None:
    # lines 234-239: six flowers wins at the minimum value.
    six = special_value(SpecialWin.SIX_FLOWERS, RULES)
    assert six.points == 2
    assert payments(six.points, 0, None, 4, RULES) == [3, -1, -1, -1]
    # lines 240-243: ivies on the wall, 8 f (5.5 above the minimum: 100 points).
    assert special_value(SpecialWin.IVIES_ON_THE_WALL, RULES).points == 100
    # lines 244-248 (hijkopqr): crossing the sea, 1 limit.
    crossing = special_value(SpecialWin.CROSSING_THE_SEA, RULES)
    assert crossing.limits == 1 and crossing.points == 5000


# -- special tiles, lines 249-257 ----------------------------------------------------------------


def test_seat_and_round_wind() -> None:
    # lines 250-253: 1 f each; a trip of East for East seat in the East set is both.
    found = value("EEE 789s 111m CC", "9s", declared("123s"), seat_wind=0, round_wind=0)
    assert patterns(found) == {"seat_wind": 10, "round_wind": 10}
    assert found.points == 0  # 2 f is below the minimum


def test_compressed_winds() -> None:
    # line 16: H stands for West and East, V for North and South.
    compressed = RULES.replace(name="c", full_winds=False)
    found = value(
        "HHH VVV 789s 111m CC", "9s", rules=compressed, seat_wind=2, round_wind=1, self_draw=True
    )
    assert patterns(found) == {
        "self_draw": 10,
        "closed_hand": 26,
        "seat_wind": 10,  # H for the West seat
        "round_wind": 10,  # V for the South set
    }


def test_a_compressed_wind_trip_is_one_of_its_two_winds() -> None:
    """Line 16: "When one uses compressed tiles, H stands for W and E and will become the most
    useful one of the two to complete a hand, and similar for V with N and S." A trip of H is
    East or West, one wind: in the East seat of the West set it is the seat wind or the round
    wind (1 f), not both; it is both only when seat and round are the same wind."""
    compressed = RULES.replace(name="c", full_winds=False)
    hand = ("HHH 123s 789s 111m CC", "9s")
    found = value(*hand, rules=compressed, seat_wind=0, round_wind=2, self_draw=True)
    assert patterns(found) == {"self_draw": 10, "closed_hand": 26, "seat_wind": 10}
    found = value(*hand, rules=compressed, seat_wind=3, round_wind=0, self_draw=True)
    assert patterns(found) == {"self_draw": 10, "closed_hand": 26, "round_wind": 10}
    found = value(*hand, rules=compressed, seat_wind=2, round_wind=2, self_draw=True)
    assert patterns(found) == {
        "self_draw": 10,
        "closed_hand": 26,
        "seat_wind": 10,
        "round_wind": 10,
    }
    # The fifth seat has no seat wind: H is the round wind.
    found = value(*hand, rules=compressed, seat_wind=None, round_wind=0, self_draw=True)
    assert patterns(found) == {"self_draw": 10, "closed_hand": 26, "round_wind": 10}


def test_arrows_and_archery_class() -> None:
    # lines 254-257 (CCC|FFF|PPP): 1 f per arrow trip; lines 285-286 (CCCFFFPP ...): trips of
    # two arrows and a pair of the last.
    found = value("FFF PP 123s 456s", "4s", declared("CCC"))
    # One number suit and honours: clean too (3 f). 2 + 5 + 3 = 10 f.
    assert patterns(found) == {"arrow": 20, "archery_class": 50, "clean": 30}
    assert found.points == 500
    found = value("FFF PP 123s 456m", "4m", declared("CCC"))
    assert patterns(found) == {"arrow": 20, "archery_class": 50}
    assert found.points == 50
    # The regexp's three arrangements: the pair may be any of the three arrows.
    for hand in ("CCC FFF PP", "FFF PPP CC", "CCC PPP FF"):
        found = value(f"{hand} 123s 456m", "4m")
        assert patterns(found) == {"closed_hand": 26, "arrow": 20, "archery_class": 50}, hand


def in_document_order(concealed: str, *melds: str) -> str:
    """A hand as the document's regexps read it: 14 tiles, flowers apart, sorted (line 175)."""
    return T.format_kinds(T.parse_kinds(concealed + "".join(melds)))


@pytest.mark.parametrize(
    ("line", "regexp", "hand"),
    [
        (257, "CCC|FFF|PPP", "FFF PP 123s 456m CCC"),
        (262, "[0-9xa-f]+[ms][NESWZCFP]+", "456s 789s EEE CC 123s"),
        (262, "[0-9xa-f]+[ms][NESWZCFP]+", "456m 789m ZZZ CC 123m"),
        (268, "[1f]+t[NESWZCFP]+", "ftftft EEE CCC SS 1t1t1t"),
        (271, "[0-9xa-f]+[tsm]", "123s 456s 7s7s7s 88s 999s"),
        (286, "CCCFFFPP|FFFPPPCC|CCCPPPFF", "FFF PP 123s 456m CCC"),
    ],
)
def test_hands_match_the_documents_regexps(line: int, regexp: str, hand: str) -> None:
    # Each regexp of the document is a sanity check on the sorted tile string (line 175); the
    # hands used for the patterns above satisfy the regexp of their line.
    text = in_document_order(hand)
    # The suit patterns describe the whole hand; the honour ones a part of it.
    match = re.fullmatch if line in (262, 268, 271) else re.search
    assert match(regexp, text), (line, text)


# -- limited tile choice, lines 258-286 ----------------------------------------------------------


def test_clean_socks() -> None:
    # lines 259-262 ([0-9xa-f]+[ms][NESWZCFP]+): one number suit and honours.
    found = value("456s 789s EEE CC", "9s", declared("123s"))
    assert patterns(found) == {"clean": 30}
    assert found.points == 2


def test_clean_mans_with_the_zero_as_honour() -> None:
    found = value("456m 789m ZZZ CC", "9m", declared("123m"))
    assert patterns(found) == {"clean": 30}


def test_clean_tongs() -> None:
    # lines 263-268 ([1f]+t[NESWZCFP]+): worth more, and always a rock field (line 266).
    found = value("ftftft EEE CCC SS", "S", declared("1t1t1t"))
    assert patterns(found) == {"clean_tongs": 40, "rock_field": 30, "arrow": 10}
    # line 267: not used when all tongs are in play: it is then an ordinary clean hand.
    found = value("ftftft EEE CCC SS", "S", declared("1t1t1t"), rules=ALL_TONGS)
    assert patterns(found) == {"clean": 30, "rock_field": 30, "arrow": 10}


def test_purity() -> None:
    # lines 269-271 ([0-9xa-f]+[tsm]): every tile of one suit.
    found = value("123s 456s 7s7s7s 88s", "8s", declared("999s"))
    assert patterns(found) == {"purity": 60}
    assert found.points == 20


def test_purity_with_the_zero_as_a_number() -> None:
    found = value("048s 456s 7s7s7s 88s", "8s", declared("999s"))
    assert patterns(found) == {"purity": 60}


def test_single_differences() -> None:
    # lines 272-274: every meld an arith of the same difference, 1.4 f.
    found = value("135s 246s 579m 9acm CC", "C")
    assert patterns(found) == {"closed_hand": 26, "single_differences": 14}
    assert found.points == 5


def test_all_powers_and_all_gems() -> None:
    # lines 275-278: every meld a power / a gem.
    powers = value("014s 149m 49fm 018s EE", "E")
    assert patterns(powers) == {"closed_hand": 26, "all_powers": 50}
    gems = value("124s 248m 48fm 139s EE", "E")
    assert patterns(gems) == {"closed_hand": 26, "all_gems": 50}
    assert gems.points == 100


def test_rock_field() -> None:
    # lines 279-281: every meld a trip.
    found = value("1s1s1s 5m5m5m EEE 9s9s9s CC", "C")
    assert patterns(found) == {"closed_hand": 26, "rock_field": 30}
    assert found.points == 20


def test_stutter() -> None:
    # lines 282-283: two melds exactly the same (here also one common difference).
    found = value("123s 123s 789m 456m EE", "E")
    assert patterns(found) == {"closed_hand": 26, "stutter": 10, "single_differences": 14}
    assert found.points == 10


def test_seven_pairs_value() -> None:
    # line 168; its value is our choice: 2 f, with the closed hand it always has.
    found = value("1s1s 3m3m 5m5m ZZ EE CC 9s9s", "9s")
    assert patterns(found) == {"closed_hand": 26, "seven_pairs": 20}
    assert found.points == 10


def test_fan_reaching_the_limit() -> None:
    # 1 + 2.6 + 6 + 1.4 + 1 = 12 f: 2000; a 9s bonus tile matches three 9s: 13.8 f, a limit.
    found = value("123s 123s 456s 789s 99s", "9s", self_draw=True)
    assert found.fan == 120 and found.points == 2000
    nine = T.parse_kinds("9s")[0]
    found = value("123s 123s 456s 789s 99s", "9s", self_draw=True, bonus=(nine,))
    assert found.fan == 138 and found.limits == 1 and found.points == 5000


# -- limit hands, lines 287-298 --------------------------------------------------------------------


def test_orphans_are_limits_and_ignore_fan() -> None:
    # lines 288-290 (see 164-166): one limit each; a limit pattern ignores fan.
    thirteen = value("1ft1fs1fmNESWCFP P", "P", self_draw=True, bonus=(T.WHITE,))
    assert patterns(thirteen) == {"thirteen_orphans": 1}
    assert thirteen.points == 5000


def test_every_limit_hand_is_one_limit() -> None:
    """Line 114: "A limit hand is scored as a fixed amount, typically worth the equivalent of
    13 f. Multiple limit hands are added together normally rather than continuing the
    sequence." Lines 287-293 list "Thirteen Orphans", "Fourteen Orphans" and "Globetrotter" as
    plain limit hands: one limit each (5,000 points), two only when two limit hands add up."""
    fourteen = value("1ft1fs1fmZNESWCFP", "Z")
    assert patterns(fourteen) == {"fourteen_orphans": 1}
    assert fourteen.points == 5000
    found = value("NNN EEE SSS WWW 1s1s", "1s")
    assert patterns(found) == {"globetrotter": 1}
    assert found.points == 5000
    # The old values stay options.
    house = RULES.replace(name="h", fourteen_orphans_limits=2, globetrotter_limits=2)
    assert value("1ft1fs1fmZNESWCFP", "Z", rules=house).points == 10_000


def test_globetrotter_and_honourable_add_up() -> None:
    # lines 291-293 (NNNEEESSSWWW): trips of all four winds; with an honour pair it is also
    # honourable (lines 296-298), and limits add up (line 114).
    found = value("NNN EEE SSS WWW CC", "C")
    assert patterns(found) == {"globetrotter": 1, "honourable": 1}
    assert found.points == 10_000


def test_journeyman() -> None:
    # lines 294-295: trips of three of the four winds and any other meld.
    found = value("EEE SSS WWW 123s 99m", "9m")
    assert patterns(found) == {"journeyman": 1}


def test_honourable_counts_the_zero() -> None:
    # lines 296-298: all honours, "Zero is an honour tile in this case".
    found = value("ZZZ CCC FFF PPP EE", "E")
    assert patterns(found) == {"honourable": 1}
    pairs = value("ZZ EE SS WW CC FF PP", "P")
    assert patterns(pairs) == {"honourable": 1}


def test_ultra_long_straight_is_a_limit() -> None:
    # line 170; its value is our choice: 1 limit.
    found = value("23456789xabcdem", "em")
    assert patterns(found) == {"ultra_long_straight": 1}
    opened = value("456789xabcdm", "dm", declared("123m"))
    assert patterns(opened) == {"ultra_long_straight": 1}


def test_no_hand() -> None:
    assert (
        best_value(counts("123s 456s 789s 111m C F"), (), 0, WinConditions(0, 0, False), RULES)
        is None
    )


def test_bonus_tile_choice() -> None:
    # The shown tile itself is the bonus tile ("matches the tile in the bonus box", line 222);
    # the riichi-style next tile is an option.
    nxt = RULES.replace(name="n", bonus_is_next=True)
    one_tong, sixteen_tong = T.parse_kinds("1tft")
    assert bonus_kind(one_tong, RULES) == one_tong
    assert bonus_kind(one_tong, nxt) == sixteen_tong  # tongs 1 and 16 only
    assert bonus_kind(sixteen_tong, nxt) == one_tong
    assert bonus_kind(T.parse_kinds("fs")[0], nxt) == T.parse_kinds("1s")[0]
    assert bonus_kind(T.NORTH, nxt) == T.EAST
    assert bonus_kind(T.WHITE, nxt) == T.RED
    assert bonus_kind(T.FLOWERS[3], nxt) == T.FLOWERS[0]
    assert bonus_kind(T.ZERO, nxt) == T.ZERO
