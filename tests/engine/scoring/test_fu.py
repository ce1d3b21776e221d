"""Fu: the 20 base, closed ron and tsumo, triplets and kans, the pair, the wait, the rounding.

Each test states the unrounded count the rules give (checked against the sum of ``fu_items``)
and the rounded fu the hand is scored with. Unless a test says otherwise the winner sits South
in an East round and wins by ron under tenhou-4p.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.scoring.requests import scored as score


def raw_fu(result: dict[str, Any]) -> int:
    """The unrounded fu: the sum of the itemised fu."""
    return sum(item["fu"] for item in result["fu_items"])


def assert_fu(result: dict[str, Any], raw: int, rounded: int) -> None:
    assert raw_fu(result) == raw, result["fu_items"]
    assert result["fu"] == rounded, result["fu_items"]


def round_up(fu: int) -> int:
    return -(-fu // 10) * 10


# -- base, ron, tsumo, pinfu ---------------------------------------------------------------------

PINFU = "123m45699p345789s"  # ryanmen on 5s, 4s would be a kanchan


def test_every_hand_starts_from_20_base() -> None:
    for result in (
        score(PINFU, "5s"),
        score(PINFU, "5s", tsumo=True),
        score(PINFU, "4s", riichi=True),
        score("45699p345789s", "5s", "pon:555z"),
    ):
        assert result["fu_items"][0] == {"name": "base", "fu": 20}


def test_pinfu_ron_is_30() -> None:
    assert_fu(score(PINFU, "5s"), 30, 30)


def test_pinfu_tsumo_is_20_without_the_tsumo_fu() -> None:
    result = score(PINFU, "5s", tsumo=True)
    assert_fu(result, 20, 20)
    assert result["han"] == 2


def test_closed_ron_adds_10() -> None:
    # kanchan: 20 + 10 (closed ron) + 2 (kanchan) = 32 -> 40
    assert_fu(score(PINFU, "4s", riichi=True), 32, 40)


def test_tsumo_adds_2() -> None:
    # kanchan tsumo: 20 + 2 (kanchan) + 2 (tsumo) = 24 -> 30; no closed-ron 10
    assert_fu(score(PINFU, "4s", tsumo=True), 24, 30)


def test_open_hand_without_fu_is_30() -> None:
    # open tanyao, all runs, ryanmen, plain pair: 20 fu of items, scored as 30
    result = score("45688p345678s", "5s", "chi:234m")
    assert result["fu"] == 30
    assert {"name": "open_pinfu", "fu": 10} in result["fu_items"]
    assert raw_fu(result) == 30
    assert result["han"] == 1


def test_open_hand_tsumo_without_other_fu() -> None:
    # 20 + 2 (tsumo) = 22 -> 30
    assert_fu(score("45688p345678s", "5s", "chi:234m", tsumo=True), 22, 30)


def test_open_ron_is_not_closed_ron() -> None:
    # open hand, kanchan: 20 + 2 = 22 -> 30 (no 10 for a closed ron)
    assert_fu(score("45688p345678s", "4s", "chi:234m"), 22, 30)


def test_chiitoitsu_is_25_on_ron_and_tsumo() -> None:
    ron = score("1144m5588p2299s33z", "3z")
    assert ron["fu"] == 25
    tsumo = score("1144m5588p2299s33z", "3z", tsumo=True)
    assert tsumo["fu"] == 25
    assert tsumo["han"] == 3


# -- triplets and kans ---------------------------------------------------------------------------

# Closed ron with riichi on a ryanmen (6s with 78s), plain pair 88p: 20 + 10 + the triplet.
CLOSED_REST = "234m456p678s88p"


@pytest.mark.parametrize(
    ("triplet", "fu"),
    [
        ("333s", 4),  # closed simple triplet
        ("222p", 4),
        ("999m", 8),  # closed terminal triplet
        ("111s", 8),
        ("444z", 8),  # closed honour triplet (guest wind)
    ],
)
def test_closed_triplet_fu(triplet: str, fu: int) -> None:
    result = score(CLOSED_REST + triplet, "6s", riichi=True)
    assert_fu(result, 30 + fu, round_up(30 + fu))


# Open hand: pon of Red (4 fu, and the yaku), ron on a ryanmen 6s with 78s, plain pair 88p.
OPEN_REST = "234m678s88p"


@pytest.mark.parametrize(
    ("meld", "fu"),
    [
        ("pon:333p", 2),  # open simple triplet
        ("pon:999m", 4),  # open terminal triplet
        ("pon:111z", 4),  # open honour triplet
        ("minkan:3333p", 8),  # open simple kan
        ("kakan:3333p", 8),  # an added kan is an open kan
        ("minkan:9999m", 16),  # open terminal kan
        ("ankan:3333p", 16),  # closed simple kan
        ("ankan:9999m", 32),  # closed terminal kan
        ("ankan:4444z", 32),  # closed honour kan
    ],
)
def test_meld_fu(meld: str, fu: int) -> None:
    result = score(OPEN_REST, "6s", "pon:777z", meld)
    raw = 20 + 4 + fu  # base + open chun pon + the meld; open ron adds nothing
    assert_fu(result, raw, round_up(raw))


def test_ron_on_a_shanpon_makes_that_triplet_open() -> None:
    # 111s and 55p wait; the ron on 1s: 20 + 10 + 4 (open terminal triplet) = 34 -> 40.
    result = score("234m456p678s55p111s", "1s", riichi=True)
    assert_fu(result, 34, 40)


def test_tsumo_on_a_shanpon_keeps_the_triplet_closed() -> None:
    # 20 + 8 (closed terminal triplet) + 2 (tsumo) = 30
    result = score("234m456p678s55p111s", "1s", tsumo=True)
    assert_fu(result, 30, 30)


def test_ron_on_a_shanpon_honour_triplet() -> None:
    # 20 + 10 + 4 (open honour triplet) + the other closed triplet 999m 8 = 42 -> 50
    result = score("234m999m678s55p777z", "7z")
    assert_fu(result, 42, 50)


def test_ron_completing_a_run_keeps_the_triplets_closed() -> None:
    # 222m 333p 444s closed, ron on 6m (678m ryanmen), pair 99s: 20 + 10 + 4 * 3 = 42 -> 50
    assert_fu(score("222678m333p44499s", "6m", riichi=True), 42, 50)


# -- the pair ------------------------------------------------------------------------------------

# 234m 999m 456p + 23s waiting on 1s/4s, and a pair: closed ron with riichi.
# 20 + 10 + 8 (closed 999m) = 38 before the pair.
PAIR_REST = "234999m456p234s"


@pytest.mark.parametrize(
    ("pair", "seat", "round_", "pair_fu"),
    [
        ("55z", "S", "E", 2),  # White
        ("66z", "S", "E", 2),  # Green
        ("77z", "S", "E", 2),  # Red
        ("22z", "S", "E", 2),  # seat wind
        ("11z", "S", "E", 2),  # round wind
        ("44z", "S", "E", 0),  # guest wind
        ("33z", "W", "S", 2),  # seat wind West
        ("22z", "W", "S", 2),  # round wind South
        ("11z", "E", "E", 4),  # double East: seat and round wind
        ("22z", "S", "S", 4),  # double South
        ("55p", "S", "E", 0),  # number pair
    ],
)
def test_pair_fu_tenhou(pair: str, seat: str, round_: str, pair_fu: int) -> None:
    result = score(PAIR_REST + pair, "4s", riichi=True, seat_wind=seat, round_wind=round_)
    raw = 38 + pair_fu
    assert_fu(result, raw, round_up(raw))


@pytest.mark.parametrize("ruleset", ["ema-2016", "wrc"])
def test_double_wind_pair_is_2_fu_on_ema_and_wrc(ruleset: str) -> None:
    result = score(PAIR_REST + "11z", "4s", riichi=True, seat_wind="E", ruleset=ruleset)
    assert_fu(result, 40, 40)


def test_double_wind_pair_is_4_fu_on_majsoul() -> None:
    result = score(PAIR_REST + "11z", "4s", riichi=True, seat_wind="E", ruleset="majsoul-4p")
    assert_fu(result, 42, 50)


# -- the wait ------------------------------------------------------------------------------------


# 234m 456p 88p 123s 678s: 2s is a kanchan, 3s a penchan, 8p a tanki.
WAIT_HAND = "234m45688p123678s"


@pytest.mark.parametrize(("win", "shape"), [("2s", "kanchan"), ("3s", "penchan"), ("8p", "tanki")])
def test_kanchan_penchan_tanki_add_2(win: str, shape: str) -> None:
    result = score(WAIT_HAND, win, riichi=True)
    assert result["wait"] == shape
    assert_fu(result, 32, 40)


def test_ryanmen_adds_nothing() -> None:
    # Same shape with 23s: a ryanmen on 1s.
    result = score("234m45688p123678s", "1s", riichi=True)
    assert result["wait"] == "ryanmen"
    assert "pinfu" in {y["name"] for y in result["yaku"]}
    assert_fu(result, 30, 30)


def test_shanpon_wait_itself_adds_nothing() -> None:
    # 55p and 88m wait, 333s closed; ron on 5p: 20 + 10 + 4 (closed 333s) + 2 (open 555p) = 36
    result = score("23488m555p333678s", "5p", riichi=True)
    assert_fu(result, 36, 40)


def test_wait_fu_chosen_with_the_best_reading() -> None:
    # 12 345 + 3m: the 3m completes 123 (penchan, +2) or 345 (ryanmen, with 45). Read as the
    # ryanmen the hand is pinfu (1 han 30 fu); read as the penchan it has no yaku at all.
    result = score("123345m456p789s44z", "3m")
    assert result["wait"] == "ryanmen"
    assert result["fu"] == 30


# -- rounding ------------------------------------------------------------------------------------


def test_rounding_up_to_the_next_10() -> None:
    # 20 + 10 + 8 (closed 999m) + 8 (closed 444z) + 2 (kanchan) = 48 -> 50
    result = score("999m45688p123s444z", "2s", riichi=True)
    assert_fu(result, 48, 50)


def test_fu_already_a_multiple_of_10_is_kept() -> None:
    # 20 + 10 + 8 + 2 (kanchan) = 40
    result = score("999m45688p123678s", "2s", riichi=True)
    assert_fu(result, 40, 40)


def test_fu_items_sum_matches_fu_for_every_reading() -> None:
    for args, fields in (
        ((PINFU, "4s"), {"riichi": True}),
        ((PINFU, "5s"), {"tsumo": True}),
        (("234m456p678s55p111s", "1s"), {"tsumo": True}),
        (("123m456p555666z77z", "7z"), {}),
        (("999p111s777z44z", "4z", "pon:111m"), {}),
    ):
        result = score(*args, **fields)
        assert round_up(raw_fu(result)) == result["fu"], result


def test_fu_of_a_big_hand() -> None:
    # Two closed honour kans, closed terminal triplet, dragon pair, tanki tsumo:
    # 20 + 32 + 32 + 8 + 2 (pair) + 2 (tanki) + 2 (tsumo) = 98 -> 100 (still under mangan rules)
    result = score("999m123p55z", "5z", "ankan:1111z", "ankan:4444z", tsumo=True, seat_wind="S")
    assert_fu(result, 98, 100)
