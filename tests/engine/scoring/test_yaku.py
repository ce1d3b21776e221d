"""Every yaku and yakuman: a hand that has it (with its han, closed and open) and a close
hand that does not.

Hands are scored through :func:`score_request` with MPSZ strings. Unless a test says otherwise
the winner sits South (a non-dealer) in an East round, wins by ron, on Tenhou's 4-player rules.
Melds are written ``"type:tiles"`` (``"pon:555z"``, ``"ankan:1111m"``). The expected values are
the rules of riichi mahjong as played on Tenhou and Mahjong Soul, not the engine's output.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules import Renhou, Ruleset, get_ruleset
from engine.scoring import result_to_dict, score_hand
from engine.scoring.request import parse_request
from tests.engine.scoring.requests import request, score, scored


def yaku(hand: str, win: str, *melds: str, **fields: Any) -> dict[str, int]:
    """{yaku name: han} of a hand that must score."""
    return {y["name"]: y["han"] for y in scored(hand, win, *melds, **fields)["yaku"]}


def error(hand: str, win: str, *melds: str, **fields: Any) -> str:
    """The error code of a hand that must not score."""
    result = score(hand, win, *melds, **fields)
    assert "error" in result, result
    return str(result["error"])


def score_with(ruleset: Ruleset, hand: str, win: str, *melds: str, **fields: Any) -> dict[str, Any]:
    """Score under a rule set that is not a preset (``Ruleset.replace``)."""
    winning_hand, _ = parse_request(request(hand, win, *melds, **fields))
    return result_to_dict(score_hand(winning_hand, ruleset))


# 123m 456p 99p 345s 789s, winning on 5s: a ryanmen wait, four runs, a plain pair: pinfu.
PINFU = "123m45699p345789s"
# The same without 123m, for hands with one call.
PINFU_REST = "45699p345789s"


# -- situational yaku ----------------------------------------------------------------------------


def test_menzen_tsumo() -> None:
    assert yaku(PINFU, "5s", tsumo=True) == {"pinfu": 1, "menzen_tsumo": 1}
    assert "menzen_tsumo" not in yaku(PINFU, "5s")


def test_menzen_tsumo_needs_a_closed_hand() -> None:
    assert yaku(PINFU_REST, "5s", "pon:555z", tsumo=True) == {"haku": 1}


def test_closed_kan_keeps_the_hand_closed() -> None:
    assert yaku(PINFU_REST, "5s", "ankan:1111m", tsumo=True) == {"menzen_tsumo": 1}


def test_riichi() -> None:
    assert yaku(PINFU, "5s", riichi=True) == {"riichi": 1, "pinfu": 1}
    assert "riichi" not in yaku(PINFU, "5s")


def test_ippatsu() -> None:
    assert yaku(PINFU, "5s", riichi=True, ippatsu=True) == {"riichi": 1, "ippatsu": 1, "pinfu": 1}
    assert "ippatsu" not in yaku(PINFU, "5s", riichi=True)


def test_double_riichi_replaces_riichi() -> None:
    found = yaku(PINFU, "5s", double_riichi=True)
    assert found == {"double_riichi": 2, "pinfu": 1}
    assert "riichi" not in found


def test_double_riichi_with_ippatsu() -> None:
    assert yaku(PINFU, "5s", double_riichi=True, ippatsu=True)["ippatsu"] == 1


def test_chankan_closed_and_open() -> None:
    assert yaku(PINFU, "5s", chankan=True) == {"chankan": 1, "pinfu": 1}
    assert yaku(PINFU_REST, "5s", "chi:123m", chankan=True) == {"chankan": 1}
    assert error(PINFU_REST, "5s", "chi:123m") == "no_yaku"


def test_rinshan_closed_and_open() -> None:
    assert yaku(PINFU_REST, "5s", "ankan:1111m", tsumo=True, rinshan=True) == {
        "menzen_tsumo": 1,
        "rinshan": 1,
    }
    assert yaku(PINFU_REST, "5s", "minkan:1111m", tsumo=True, rinshan=True) == {"rinshan": 1}
    assert error(PINFU_REST, "5s", "minkan:1111m", tsumo=True) == "no_yaku"


def test_rinshan_after_a_north_extraction() -> None:
    found = yaku("99m123456p345789s", "3s", ruleset="tenhou-3p", kita=1, tsumo=True, rinshan=True)
    assert found == {"menzen_tsumo": 1, "pinfu": 1, "rinshan": 1, "kita": 1}


def test_haitei_closed_and_open() -> None:
    assert yaku(PINFU, "5s", tsumo=True, haitei=True) == {
        "menzen_tsumo": 1,
        "pinfu": 1,
        "haitei": 1,
    }
    assert yaku(PINFU_REST, "5s", "chi:123m", tsumo=True, haitei=True) == {"haitei": 1}
    assert error(PINFU_REST, "5s", "chi:123m", tsumo=True) == "no_yaku"


def test_houtei_closed_and_open() -> None:
    assert yaku(PINFU, "5s", houtei=True) == {"pinfu": 1, "houtei": 1}
    assert yaku(PINFU_REST, "5s", "chi:123m", houtei=True) == {"houtei": 1}


# -- pinfu ---------------------------------------------------------------------------------------


def test_pinfu() -> None:
    assert yaku(PINFU, "5s") == {"pinfu": 1}
    result = scored(PINFU, "5s")
    assert result["wait"] == "ryanmen"


def test_pinfu_read_as_ryanmen_when_the_tile_is_also_a_kanchan() -> None:
    # 23445m + 3m: 2_4 (kanchan) with 345, or 45 + 3 (ryanmen) with 234; the best reading wins.
    result = scored("233445m456p789s44z", "3m")
    assert {y["name"]: y["han"] for y in result["yaku"]} == {"pinfu": 1}
    assert result["wait"] == "ryanmen"
    assert result["fu"] == 30


def test_pinfu_broken_by_a_kanchan_wait() -> None:
    # Same tiles, winning on 4s: 3_5 is a closed wait.
    assert yaku(PINFU, "4s", riichi=True) == {"riichi": 1}


def test_pinfu_broken_by_a_penchan_wait() -> None:
    assert yaku("123m45699p123789s", "3s", riichi=True) == {"riichi": 1}


def test_pinfu_broken_by_a_tanki_wait() -> None:
    # 123m 456p 345s 789s + 9p: the pair is the wait.
    assert "pinfu" not in yaku(PINFU, "9p", riichi=True)


@pytest.mark.parametrize(
    ("pair", "seat", "round_"),
    [
        ("55z", "S", "E"),  # dragon
        ("66z", "S", "E"),
        ("77z", "S", "E"),
        ("22z", "S", "E"),  # seat wind
        ("11z", "S", "E"),  # round wind
        ("33z", "W", "E"),  # seat wind West
        ("22z", "W", "S"),  # round wind South
    ],
)
def test_pinfu_broken_by_a_value_pair(pair: str, seat: str, round_: str) -> None:
    hand = f"123m456p345789s{pair}"
    assert "pinfu" not in yaku(hand, "5s", riichi=True, seat_wind=seat, round_wind=round_)


@pytest.mark.parametrize(("pair", "seat"), [("44z", "S"), ("33z", "S"), ("22z", "W")])
def test_pinfu_with_a_guest_wind_pair(pair: str, seat: str) -> None:
    assert yaku(f"123m456p345789s{pair}", "5s", seat_wind=seat) == {"pinfu": 1}


def test_pinfu_broken_by_an_open_meld() -> None:
    assert yaku("45688p345678s", "5s", "chi:234m") == {"tanyao": 1}


def test_pinfu_broken_by_a_closed_kan() -> None:
    assert "pinfu" not in yaku("45688p345678s", "5s", "ankan:2222m", riichi=True)


# -- tanyao --------------------------------------------------------------------------------------


def test_tanyao_closed_and_open() -> None:
    assert yaku("234m45688p345678s", "5s") == {"tanyao": 1, "pinfu": 1}
    assert yaku("45688p345678s", "5s", "chi:234m") == {"tanyao": 1}


def test_tanyao_broken_by_a_terminal() -> None:
    assert "tanyao" not in yaku("234m45688p345789s", "5s")


def test_tanyao_broken_by_an_honour() -> None:
    assert "tanyao" not in yaku("234m456p345678s44z", "5s")


def test_kuitan_off_refuses_open_tanyao() -> None:
    assert error("45688p345678s", "5s", "chi:234m", ruleset="tenhou-4p-nokuitan") == "no_yaku"
    assert yaku("234m45688p345678s", "5s", ruleset="tenhou-4p-nokuitan") == {
        "tanyao": 1,
        "pinfu": 1,
    }


# -- peikou --------------------------------------------------------------------------------------


def test_iipeikou() -> None:
    assert yaku("112233m456p67899s", "6s") == {"iipeikou": 1, "pinfu": 1}


def test_iipeikou_not_on_an_open_hand() -> None:
    assert yaku("123m67899s", "6s", "chi:123m", "pon:777z") == {"chun": 1}


def test_iipeikou_with_a_closed_kan() -> None:
    assert "iipeikou" in yaku("112233m67899s", "6s", "ankan:4444p", riichi=True)


def test_ryanpeikou_over_chiitoitsu() -> None:
    found = yaku("223344m667788p11s", "8p")
    assert found == {"ryanpeikou": 3, "pinfu": 1}
    assert "chiitoitsu" not in found
    assert "iipeikou" not in found


def test_three_identical_runs_are_one_iipeikou() -> None:
    # 111222333m ron on 3m: as runs (123 x3, penchan) the hand is iipeikou; as triplets the
    # 333m made by the ron is open, so there is no sanankou -- the runs reading is worth more.
    found = yaku("111222333m456p77s", "3m", riichi=True)
    assert found == {"riichi": 1, "iipeikou": 1}


# -- value tiles ---------------------------------------------------------------------------------

WIND_NAMES = {"E": "east", "S": "south", "W": "west", "N": "north"}
WIND_DIGIT = {"E": "1", "S": "2", "W": "3", "N": "4"}


@pytest.mark.parametrize("wind", "ESWN")
def test_seat_wind_triplet(wind: str) -> None:
    round_ = "S" if wind == "E" else "E"
    triplet = WIND_DIGIT[wind] * 3 + "z"
    found = yaku(f"12399m456p789s{triplet}", "9m", seat_wind=wind, round_wind=round_)
    assert found == {f"seat_wind_{WIND_NAMES[wind]}": 1}


@pytest.mark.parametrize("wind", "ESWN")
def test_round_wind_triplet(wind: str) -> None:
    seat = "S" if wind != "S" else "W"
    triplet = WIND_DIGIT[wind] * 3 + "z"
    found = yaku(f"12399m456p789s{triplet}", "9m", seat_wind=seat, round_wind=wind)
    assert found == {f"round_wind_{WIND_NAMES[wind]}": 1}


def test_double_wind_triplet_counts_twice() -> None:
    found = yaku("12399m456p789s111z", "9m", seat_wind="E", round_wind="E")
    assert found == {"seat_wind_east": 1, "round_wind_east": 1}


def test_guest_wind_triplet_is_no_yaku() -> None:
    assert error("12399m456p789s444z", "9m", seat_wind="S", round_wind="E") == "no_yaku"


def test_open_wind_triplet() -> None:
    assert yaku("12399m456p789s", "9m", "pon:222z") == {"seat_wind_south": 1}


@pytest.mark.parametrize(("digit", "name"), [("5", "haku"), ("6", "hatsu"), ("7", "chun")])
def test_dragon_triplet_closed_and_open(digit: str, name: str) -> None:
    assert yaku(f"12399m456p789s{digit * 3}z", "9m") == {name: 1}
    assert yaku("12399m456p789s", "9m", f"pon:{digit * 3}z") == {name: 1}
    assert yaku("12399m456p789s", "9m", f"minkan:{digit * 4}z") == {name: 1}


@pytest.mark.parametrize("digit", "567")
def test_dragon_pair_is_no_yaku(digit: str) -> None:
    assert error(f"123m456p789s123s{digit * 2}z", "3s") == "no_yaku"


# -- two-han and more ----------------------------------------------------------------------------


def test_chiitoitsu() -> None:
    assert yaku("1144m5588p2299s33z", "3z") == {"chiitoitsu": 2}


def test_chiitoitsu_with_tanyao() -> None:
    assert yaku("2244m5588p226688s", "8s") == {"chiitoitsu": 2, "tanyao": 1}


def test_four_of_a_kind_is_not_two_pairs() -> None:
    assert error("1111m5588p2299s33z", "3z") == "not_agari"


def test_chanta_closed_and_open() -> None:
    assert yaku("123m789p123s999s44z", "3s") == {"chanta": 2}
    assert yaku("789p123s999s44z", "3s", "chi:123m") == {"chanta": 1}


def test_chanta_broken_by_a_middle_run() -> None:
    assert "chanta" not in yaku("123m678p123s999s44z", "3s", riichi=True)


def test_junchan_closed_and_open() -> None:
    found = yaku("123999m789p11789s", "7s")
    assert found == {"junchan": 3}
    assert yaku("999m789p11789s", "7s", "chi:123m") == {"junchan": 2}


def test_junchan_is_not_chanta_and_chanta_is_not_junchan() -> None:
    assert "chanta" not in yaku("123999m789p11789s", "7s")
    assert "junchan" not in yaku("123m789p123s999s44z", "3s")


def test_junchan_broken_by_a_middle_run() -> None:
    assert "junchan" not in yaku("123999m678p11789s", "7s", riichi=True)


def test_honroutou_with_toitoi() -> None:
    found = yaku("999p111s777z44z", "4z", "pon:111m")
    assert found["honroutou"] == 2
    assert found["toitoi"] == 2
    assert found["chun"] == 1
    assert "chanta" not in found
    assert "junchan" not in found


def test_honroutou_with_chiitoitsu() -> None:
    assert yaku("1199m1199p1199s11z", "1z") == {"chiitoitsu": 2, "honroutou": 2}


def test_ittsu_closed_and_open() -> None:
    assert yaku("123456789m45677p", "9m") == {"ittsu": 2, "pinfu": 1}
    assert yaku("456789m45677p", "9m", "chi:123m") == {"ittsu": 1}


def test_ittsu_needs_one_suit() -> None:
    assert yaku("123456m45677p789s", "9s") == {"pinfu": 1}


def test_sanshoku_closed_and_open() -> None:
    assert yaku("123m12377p123456s", "4s") == {"sanshoku": 2, "pinfu": 1}
    assert yaku("12377p123456s", "4s", "chi:123m") == {"sanshoku": 1}


def test_sanshoku_needs_the_same_numbers() -> None:
    assert "sanshoku" not in yaku("123m12377p234456s", "4s")


def test_sanshoku_doukou_closed_and_open() -> None:
    found = yaku("222456m222p22288s", "4m")
    assert found["sanshoku_doukou"] == 2
    assert found == {"sanshoku_doukou": 2, "sanankou": 2, "tanyao": 1}
    assert yaku("456m222p22288s", "4m", "pon:222m") == {"sanshoku_doukou": 2, "tanyao": 1}


def test_sanshoku_doukou_needs_the_same_numbers() -> None:
    assert "sanshoku_doukou" not in yaku("222456m222p33388s", "4m")


def test_sankantsu() -> None:
    found = yaku("678m88p", "8p", "ankan:2222m", "minkan:3333p", "ankan:4444s")
    assert found == {"sankantsu": 2, "tanyao": 1}


def test_two_kans_are_not_sankantsu() -> None:
    found = yaku("678m88p", "8p", "ankan:2222m", "pon:333p", "ankan:4444s")
    assert found == {"tanyao": 1}


def test_toitoi() -> None:
    found = yaku("333p444s66688s", "8s", "pon:222m")
    assert found == {"toitoi": 2, "sanankou": 2, "tanyao": 1}


def test_toitoi_broken_by_a_run() -> None:
    assert "toitoi" not in yaku("333p444s67888s", "8s", "pon:222m")


def test_sanankou() -> None:
    assert yaku("222678m333p44499s", "6m", riichi=True) == {"riichi": 1, "sanankou": 2}


def test_sanankou_broken_by_ron_on_the_shanpon() -> None:
    # 13 tiles 222m 678m 333p 44s 99s wait on 4s/9s; the ron on 4s makes 444s an open triplet.
    assert yaku("222678m333p44499s", "4s", riichi=True) == {"riichi": 1}


def test_sanankou_on_tsumo_of_the_shanpon() -> None:
    found = yaku("222678m333p44499s", "4s", tsumo=True)
    assert found == {"menzen_tsumo": 1, "sanankou": 2}


def test_sanankou_with_an_open_meld() -> None:
    assert yaku("333p444s66688s", "8s", "chi:234m", riichi=False)["sanankou"] == 2


def test_sanankou_with_a_closed_kan() -> None:
    assert yaku("222m333p678s99s", "6s", "ankan:4444s", riichi=True) == {
        "riichi": 1,
        "sanankou": 2,
    }


def test_three_triplets_read_over_three_runs_when_worth_more() -> None:
    # 111222333m 456p 77s tsumo on 4p: as triplets sanankou + tsumo, 3 han 40 fu;
    # as runs pinfu + tsumo + iipeikou, 3 han 20 fu. The triplets pay more.
    found = yaku("111222333m456p77s", "4p", tsumo=True)
    assert found == {"menzen_tsumo": 1, "sanankou": 2}
    assert scored("111222333m456p77s", "4p", tsumo=True)["fu"] == 40


def test_shousangen_counts_the_two_dragon_triplets() -> None:
    assert yaku("123m456p555666z77z", "7z") == {"shousangen": 2, "haku": 1, "hatsu": 1}


def test_shousangen_needs_the_dragon_pair() -> None:
    assert yaku("123m456p555666z44z", "4z") == {"haku": 1, "hatsu": 1}


def test_honitsu_closed_and_open() -> None:
    assert yaku("123456999m55566z", "6z") == {"honitsu": 3, "haku": 1}
    assert yaku("456999m55566z", "6z", "chi:123m") == {"honitsu": 2, "haku": 1}


def test_honitsu_needs_one_suit() -> None:
    assert yaku("123456m999p55566z", "6z") == {"haku": 1}


def test_chinitsu_closed_and_open() -> None:
    found = yaku("12233445556789m", "9m")
    assert found["chinitsu"] == 6
    assert "honitsu" not in found
    found = yaku("23445556789m", "9m", "chi:123m")
    assert found["chinitsu"] == 5
    assert "honitsu" not in found


def test_chinitsu_with_an_honour_is_honitsu() -> None:
    found = yaku("122334456789m11z", "9m")
    assert found["honitsu"] == 3
    assert "chinitsu" not in found


# -- renhou --------------------------------------------------------------------------------------


def test_renhou_is_a_mangan_on_ema() -> None:
    result = scored(PINFU, "5s", ruleset="ema-2016", renhou=True)
    assert {y["name"]: y["han"] for y in result["yaku"]} == {"renhou_mangan": 5}
    assert result["limit"] == "mangan"
    assert result["total"] == 8000


def test_renhou_on_ema_keeps_a_better_hand() -> None:
    # A closed full flush (haneman) is worth more than renhou's mangan.
    result = scored("12233445556789m", "9m", ruleset="ema-2016", renhou=True)
    assert "renhou_mangan" not in {y["name"] for y in result["yaku"]}
    assert result["total"] >= 12000


def test_renhou_does_not_exist_on_tenhou() -> None:
    result = score(PINFU, "5s", renhou=True)
    assert result["error"] == "invalid_conditions"
    assert "renhou" in result["message"]


def test_renhou_as_a_yakuman_when_the_rules_say_so() -> None:
    ruleset = get_ruleset("tenhou-4p").replace(renhou=Renhou.YAKUMAN)
    result = score_with(ruleset, PINFU, "5s", renhou=True)
    assert {y["name"]: y["han"] for y in result["yaku"]} == {"renhou": 13}
    assert result["yakuman"] == 1


# -- yakuman -------------------------------------------------------------------------------------


def yakuman(result: dict[str, Any]) -> dict[str, int]:
    assert "error" not in result, result
    return {y["name"]: y["han"] for y in result["yaku"]}


def test_tenhou() -> None:
    result = scored(PINFU, "5s", seat_wind="E", tsumo=True, tenhou=True)
    assert yakuman(result) == {"tenhou": 13}
    assert result["yakuman"] == 1
    assert result["total"] == 48000


def test_chiihou() -> None:
    result = scored(PINFU, "5s", seat_wind="S", tsumo=True, chiihou=True)
    assert yakuman(result) == {"chiihou": 13}
    assert result["total"] == 32000


def test_kokushi_single_wait() -> None:
    result = scored("119m19p19s1234567z", "9m")
    assert yakuman(result) == {"kokushi": 13}
    assert result["limit"] == "yakuman"
    assert result["yakuman"] == 1
    majsoul = scored("119m19p19s1234567z", "9m", ruleset="majsoul-4p")
    assert yakuman(majsoul) == {"kokushi": 13}


def test_kokushi_thirteen_sided_is_single_on_tenhou_double_on_majsoul() -> None:
    tenhou = scored("119m19p19s1234567z", "1m")
    assert tenhou["yakuman"] == 1
    assert tenhou["han"] == 13
    majsoul = scored("119m19p19s1234567z", "1m", ruleset="majsoul-4p")
    assert yakuman(majsoul) == {"kokushi_13": 26}
    assert majsoul["yakuman"] == 2
    assert majsoul["limit"] == "double_yakuman"
    assert majsoul["total"] == 64000


def test_not_kokushi() -> None:
    assert error("129m19p19s1234567z", "9m") == "not_agari"


def test_suuankou_on_tsumo() -> None:
    result = scored("22288m333p444666s", "6s", tsumo=True)
    assert yakuman(result) == {"suuankou": 13}


def test_suuankou_on_majsoul_tsumo_of_the_shanpon_is_single() -> None:
    result = scored("22288m333p444666s", "6s", tsumo=True, ruleset="majsoul-4p")
    assert yakuman(result) == {"suuankou": 13}


def test_ron_on_the_shanpon_is_not_suuankou() -> None:
    found = yaku("22288m333p444666s", "6s")
    assert found["sanankou"] == 2
    assert found["toitoi"] == 2
    assert "suuankou" not in found


def test_suuankou_tanki_single_on_tenhou_double_on_majsoul() -> None:
    tenhou = scored("22288m333p444666s", "8m")
    assert tenhou["yakuman"] == 1
    assert tenhou["han"] == 13
    assert set(yakuman(tenhou)) <= {"suuankou", "suuankou_tanki"}
    majsoul = scored("22288m333p444666s", "8m", ruleset="majsoul-4p")
    assert yakuman(majsoul) == {"suuankou_tanki": 26}
    assert majsoul["yakuman"] == 2


def test_suuankou_with_a_closed_kan() -> None:
    result = scored("22288m333p444s", "8m", "ankan:6666s")
    assert result["yakuman"] >= 1
    assert "suuankou" in yakuman(result) or "suuankou_tanki" in yakuman(result)


def test_daisangen() -> None:
    assert yakuman(scored("123m44p555666777z", "4p")) == {"daisangen": 13}
    assert yakuman(scored("123m44p", "4p", "pon:555z", "pon:666z", "pon:777z")) == {"daisangen": 13}


def test_shousuushii() -> None:
    assert yakuman(scored("123m11122233344z", "4z")) == {"shousuushii": 13}


def test_two_wind_triplets_and_a_wind_pair_are_not_shousuushii() -> None:
    found = yaku("123m456p11122244z", "4z")
    assert "shousuushii" not in found
    assert found == {"round_wind_east": 1, "seat_wind_south": 1}


def test_daisuushii_single_on_tenhou_double_on_majsoul() -> None:
    tenhou = scored("55m222333444z", "5m", "pon:111z")
    assert yakuman(tenhou) == {"daisuushii": 13}
    assert tenhou["yakuman"] == 1
    majsoul = scored("55m222333444z", "5m", "pon:111z", ruleset="majsoul-4p")
    assert yakuman(majsoul) == {"daisuushii": 26}
    assert majsoul["yakuman"] == 2
    assert "shousuushii" not in yakuman(majsoul)


def test_tsuuiisou() -> None:
    assert yakuman(scored("22233355566z", "6z", "pon:111z")) == {"tsuuiisou": 13}


def test_tsuuiisou_as_seven_pairs() -> None:
    result = scored("11223344556677z", "7z")
    assert yakuman(result) == {"tsuuiisou": 13}
    assert result["yakuman"] == 1


def test_terminal_pair_is_not_tsuuiisou() -> None:
    found = yaku("99m112233445566z", "6z")
    assert found == {"chiitoitsu": 2, "honroutou": 2, "honitsu": 3}


def test_chinroutou() -> None:
    assert yakuman(scored("999m111p999p11s", "1s", "pon:111m")) == {"chinroutou": 13}


def test_an_honour_makes_it_honroutou_not_chinroutou() -> None:
    found = yaku("999m111p999p11z", "1z", "pon:111m")
    assert "chinroutou" not in found
    assert found["honroutou"] == 2


def test_ryuuiisou_with_hatsu() -> None:
    assert yakuman(scored("223344666888s66z", "6z")) == {"ryuuiisou": 13}


def test_ryuuiisou_without_hatsu() -> None:
    result = scored("22333344666888s", "2s")
    assert "ryuuiisou" in yakuman(result)
    assert result["yakuman"] >= 1


def test_a_non_green_tile_breaks_ryuuiisou() -> None:
    found = yaku("22333344666999s", "2s")
    assert "ryuuiisou" not in found
    assert found["chinitsu"] == 6


def test_chuuren() -> None:
    # 1111 2345678 999 winning on 9m: the 13 tiles were 1111234567899, not the pure form.
    assert yakuman(scored("11112345678999m", "9m")) == {"chuuren": 13}


def test_junsei_chuuren_single_on_tenhou_double_on_majsoul() -> None:
    # Winning on 1m: the 13 tiles were 1112345678999, the nine-sided wait.
    tenhou = scored("11112345678999m", "1m")
    assert tenhou["yakuman"] == 1
    assert set(yakuman(tenhou)) <= {"chuuren", "junsei_chuuren"}
    majsoul = scored("11112345678999m", "1m", ruleset="majsoul-4p")
    assert yakuman(majsoul) == {"junsei_chuuren": 26}
    assert majsoul["yakuman"] == 2


def test_junsei_chuuren_on_a_middle_tile() -> None:
    majsoul = scored("11123455678999m", "5m", ruleset="majsoul-4p")
    assert yakuman(majsoul) == {"junsei_chuuren": 26}


def test_chuuren_needs_a_closed_hand() -> None:
    found = yaku("11145678999m", "9m", "chi:123m")
    assert "chuuren" not in found
    assert found["chinitsu"] == 5


def test_a_full_flush_that_is_not_nine_gates() -> None:
    found = yaku("11223345678999m", "9m")
    assert "chuuren" not in found
    assert found["chinitsu"] == 6


def test_suukantsu() -> None:
    melds = ("ankan:2222m", "minkan:3333p", "ankan:4444s", "minkan:6666s")
    assert yakuman(scored("88p", "8p", *melds)) == {"suukantsu": 13}


def test_three_kans_and_a_pon_are_sankantsu() -> None:
    found = yaku("88p", "8p", "ankan:2222m", "minkan:3333p", "ankan:4444s", "pon:666s")
    assert found["sankantsu"] == 2
    assert "suukantsu" not in found


# -- stacking and caps ---------------------------------------------------------------------------

DAISANGEN_TSUUIISOU = ("111z22z", "2z", "pon:555z", "pon:666z", "pon:777z")


def test_stacked_yakuman_on_tenhou() -> None:
    result = scored(*DAISANGEN_TSUUIISOU)
    assert yakuman(result) == {"daisangen": 13, "tsuuiisou": 13}
    assert result["yakuman"] == 2
    assert result["han"] == 26
    assert result["limit"] == "double_yakuman"
    assert result["total"] == 64000


def test_ema_counts_one_yakuman_at_most() -> None:
    result = scored(*DAISANGEN_TSUUIISOU, ruleset="ema-2016")
    assert result["yakuman"] == 1
    assert result["limit"] == "yakuman"
    assert result["total"] == 32000


def test_tenhou_plus_daisangen_on_tenhou() -> None:
    result = scored("123m44p555666777z", "4p", seat_wind="E", tsumo=True, tenhou=True)
    assert {"tenhou", "daisangen"} <= set(yakuman(result))
    assert result["yakuman"] >= 2


def test_kazoe_yakuman_on_tenhou_sanbaiman_on_ema() -> None:
    # Closed full flush, pinfu, iipeikou, ittsu, riichi, tsumo, dora: 13 han or more.
    hand = "11223345678999m"
    tenhou = scored(hand, "9m", riichi=True, tsumo=True, dora="8m")
    assert tenhou["han"] >= 13
    assert tenhou["limit"] == "kazoe_yakuman"
    assert tenhou["yakuman"] == 0
    assert tenhou["total"] == 32000
    ema = scored(hand, "9m", riichi=True, tsumo=True, dora="8m", ruleset="ema-2016")
    assert ema["limit"] == "sanbaiman"
    assert ema["total"] == 24000


# -- dora ----------------------------------------------------------------------------------------


def test_dora() -> None:
    # Indicator 8p: 9p is dora, and the hand holds two.
    assert yaku(PINFU, "5s", dora="8p") == {"pinfu": 1, "dora": 2}


def test_kan_dora_indicators_add_up() -> None:
    # 8p -> 9p (two), 2m -> 3m (one), 4s -> 5s (one).
    assert yaku(PINFU, "5s", dora="8p2m4s")["dora"] == 4


def test_no_dora_entry_without_dora_in_hand() -> None:
    assert "dora" not in yaku(PINFU, "5s", dora="1z")


def test_red_fives() -> None:
    assert yaku("123m40699p345789s", "5s") == {"pinfu": 1, "aka_dora": 1}
    assert yaku("123m40699p340789s", "0s")["aka_dora"] == 2


def test_red_fives_do_not_count_on_no_red_rules() -> None:
    assert error("123m40699p345789s", "5s", ruleset="tenhou-4p-nored") == "invalid_hand"


def test_ura_dora_with_riichi() -> None:
    assert yaku(PINFU, "5s", riichi=True, ura="8p") == {"riichi": 1, "pinfu": 1, "ura_dora": 2}
    assert yaku(PINFU, "5s", double_riichi=True, ura="8p")["ura_dora"] == 2


def test_ura_dora_only_with_riichi() -> None:
    assert yaku(PINFU, "5s", ura="8p") == {"pinfu": 1}


def test_dora_is_not_a_yaku() -> None:
    # Kanchan wait, ron, no riichi: complete but without a yaku; two dora do not change that.
    result = score(PINFU, "4s", dora="8p")
    assert result["error"] == "no_yaku"
    assert "yaku" in result["message"]


def test_red_fives_are_not_a_yaku() -> None:
    assert error("123m40699p345789s", "4s") == "no_yaku"


def test_dora_do_not_add_to_yakuman() -> None:
    result = scored("123m44p555666777z", "4p", dora="5z3p", ura="6z", riichi=True)
    assert yakuman(result) == {"daisangen": 13}
    assert result["han"] == 13
    assert result["total"] == 32000


def test_kita_in_three_player() -> None:
    found = yaku("99m123456p345789s", "3s", ruleset="tenhou-3p", kita=2)
    assert found == {"pinfu": 1, "kita": 2}


def test_extracted_norths_are_dora_under_a_west_indicator() -> None:
    found = yaku("99m123456p345789s", "3s", ruleset="tenhou-3p", kita=2, dora="3z")
    assert found == {"pinfu": 1, "dora": 2, "kita": 2}


def test_north_in_hand_and_extracted_under_a_west_indicator() -> None:
    # North is a guest wind in 3-player (seats East, South, West): a North pair allows pinfu.
    found = yaku("123456p345789s44z", "3s", ruleset="tenhou-3p", kita=1, dora="3z")
    assert found == {"pinfu": 1, "dora": 3, "kita": 1}


def test_three_player_one_man_indicator_points_at_nine_man() -> None:
    assert yaku("99m123456p345789s", "3s", ruleset="tenhou-3p", dora="1m")["dora"] == 2
    assert "dora" not in yaku("99m123456p345789s", "3s", ruleset="tenhou-3p", dora="9m")
    assert yaku("11m123456p345789s", "3s", ruleset="tenhou-3p", dora="9m")["dora"] == 2


def test_kita_is_not_a_yaku() -> None:
    assert error("99m123456p345789s", "4s", ruleset="tenhou-3p", kita=3) == "no_yaku"
