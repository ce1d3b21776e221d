"""The error contract of :func:`score_request`: every bad input gives ``{"error", "message"}``
with the right code and a message that names the problem, and never raises.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.scoring.request import score_request

# A valid hand: 123m 456p 99p 345s 789s, pinfu on 5s (South seat, East round, ron).
GOOD: dict[str, Any] = {
    "ruleset": "tenhou-4p",
    "hand": "123m45699p345789s",
    "win": "5s",
    "seat_wind": "S",
    "round_wind": "E",
}


def run(**changes: Any) -> dict[str, Any]:
    """Score GOOD with some fields changed (a value of ``...`` removes the field)."""
    data = {**GOOD, **changes}
    data = {key: value for key, value in data.items() if value is not ...}
    return score_request(data)


def fails(code: str, *words: str, **changes: Any) -> None:
    result = run(**changes)
    assert result.get("error") == code, result
    assert set(result) == {"error", "message"}
    for word in words:
        assert word.lower() in result["message"].lower(), (word, result["message"])


def test_the_good_request_scores() -> None:
    result = run()
    assert "error" not in result
    assert result["yaku"] == [{"name": "pinfu", "han": 1}]
    assert set(result) == {
        "han",
        "fu",
        "fu_items",
        "yaku",
        "limit",
        "yakuman",
        "wait",
        "payments",
        "sticks",
        "total",
    }


# -- notation and structure ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "word"),
    [
        ("hand", "123m45699p345789x", "'x'"),
        ("hand", "123m45699p345789", "no suit letter"),
        ("hand", "123m45699p345789s8z", "8z"),
        ("win", "5q", "'q'"),
        ("win", "55s", "one tile"),
        ("dora", "1x", "'x'"),
        ("ura", "9", "no suit letter"),
    ],
)
def test_bad_notation(field: str, value: str, word: str) -> None:
    fails("bad_notation", word, **{field: value})


def test_bad_wind_letter() -> None:
    fails("bad_notation", "'X'", seat_wind="X")


def test_unknown_ruleset_lists_presets() -> None:
    result = run(ruleset="tenhou-9p")
    assert result["error"] == "unknown_ruleset"
    assert "tenhou-9p" in result["message"]
    assert "tenhou-4p" in result["message"]
    assert "majsoul-4p" in result["message"]


def test_unknown_field_is_named() -> None:
    fails("invalid_conditions", "colour", colour="red")


def test_unknown_fields_are_all_named() -> None:
    fails("invalid_conditions", "aaa", "zzz", aaa=1, zzz=2)


@pytest.mark.parametrize("field", ["ruleset", "hand", "win"])
def test_missing_required_field(field: str) -> None:
    fails("invalid_conditions", field, **{field: ...})


def test_request_must_be_an_object() -> None:
    for bad in (None, [], "hand", 3):
        result = score_request(bad)
        assert result["error"] == "invalid_conditions"
        assert "object" in result["message"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("riichi", "yes"),
        ("tsumo", 1),
        ("ippatsu", None),
        ("double_riichi", "true"),
    ],
)
def test_flags_must_be_booleans(field: str, value: Any) -> None:
    fails("invalid_conditions", field, "true or false", **{field: value})


@pytest.mark.parametrize(
    ("field", "value"),
    [("honba", -1), ("honba", "2"), ("sticks", 1.5), ("kita", True), ("sticks", None)],
)
def test_counters_must_be_whole_numbers(field: str, value: Any) -> None:
    fails("invalid_conditions", field, **{field: value})


@pytest.mark.parametrize(
    ("field", "value"),
    [("hand", 123), ("win", None), ("ruleset", 4), ("dora", ["1m"]), ("seat_wind", 1)],
)
def test_strings_must_be_strings(field: str, value: Any) -> None:
    fails("invalid_conditions", field, "string", **{field: value})


def test_melds_must_be_a_list() -> None:
    fails("invalid_conditions", "melds", melds="pon:555z")


def test_meld_must_be_an_object_with_type_and_tiles() -> None:
    fails("invalid_conditions", "meld", melds=["pon", "555z"])
    fails("invalid_conditions", "meld", melds=[{"type": "pon", "tiles": "555z", "extra": 1}])


def test_unknown_meld_type() -> None:
    fails("invalid_hand", "kong", hand="45699p345789s", melds=[{"type": "kong", "tiles": "555z"}])


def test_invalid_meld() -> None:
    fails("invalid_hand", "chi", hand="45699p345789s", melds=[{"type": "chi", "tiles": "135m"}])


def test_id_is_echoed_on_results_and_errors() -> None:
    assert run(id=7)["id"] == 7
    result = run(id="abc", hand="1x")
    assert result["id"] == "abc"
    assert result["error"] == "bad_notation"


# -- impossible hands ----------------------------------------------------------------------------


def test_wrong_tile_count() -> None:
    fails("invalid_hand", "14", "13", hand="123m45699p34579s")
    fails("invalid_hand", "11", hand="123m45699p345789s", melds=[{"type": "pon", "tiles": "555z"}])


def test_winning_tile_must_be_in_the_hand() -> None:
    fails("invalid_hand", "1z", win="1z")


def test_red_winning_tile_must_be_a_red_in_the_hand() -> None:
    fails("invalid_hand", "0s", win="0s")


def test_five_copies() -> None:
    fails("invalid_hand", "5", "1m", hand="11111m456p345789s", win="1m")


def test_five_copies_counting_melds() -> None:
    fails(
        "invalid_hand",
        "5",
        "9p",
        hand="45699p345789s",
        melds=[{"type": "pon", "tiles": "999p"}],
    )


def test_five_copies_counting_north_extractions() -> None:
    three_player = {"ruleset": "tenhou-3p", "hand": "123p456p789s99s444z", "win": "9s"}
    assert run(**three_player, kita=1).get("error") != "invalid_hand"
    fails("invalid_hand", "5", "4z", **three_player, kita=2)


def test_more_red_fives_than_the_rule_set_has() -> None:
    # Two red 5p (a pair of them): Tenhou has one red five per suit.
    fails("invalid_hand", "red", "tenhou-4p", hand="123m45600p345789s", win="4p")


def test_red_fives_on_a_no_red_rule_set() -> None:
    fails("invalid_hand", "red", ruleset="tenhou-4p-nored", hand="123m40699p345789s")
    fails("invalid_hand", "red", ruleset="ema-2016", hand="123m45699p340789s", win="0s")


def test_red_five_man_in_three_player() -> None:
    result = run(ruleset="tenhou-3p", hand="00m123456p345789s", win="3s")
    assert result["error"] == "invalid_hand"


def test_two_man_in_three_player() -> None:
    fails("invalid_hand", "2m", "3-player", ruleset="tenhou-3p", hand="22m123456p345789s", win="3s")


def test_not_a_complete_hand() -> None:
    result = run(hand="123m45699p345788s", win="5s")
    assert result["error"] == "not_agari"
    assert "complete" in result["message"]


def test_no_yaku() -> None:
    fails("no_yaku", "yaku", win="4s")


# -- contradictory conditions --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"ippatsu": True}, ["ippatsu", "riichi"]),
        ({"rinshan": True}, ["rinshan"]),
        ({"haitei": True}, ["haitei", "tsumo"]),
        ({"houtei": True, "tsumo": True}, ["houtei", "ron"]),
        ({"chankan": True, "tsumo": True}, ["chankan"]),
        ({"tenhou": True, "tsumo": True}, ["tenhou", "dealer"]),
        ({"chiihou": True, "tsumo": True, "seat_wind": "E"}, ["chiihou"]),
        ({"tenhou": True, "seat_wind": "E"}, ["tenhou", "tsumo"]),
        ({"chiihou": True}, ["chiihou", "tsumo"]),
        ({"tenhou": True, "tsumo": True, "seat_wind": "E", "riichi": True}, ["riichi"]),
        ({"kita": 1}, ["north"]),
        ({"discarder": "W", "tsumo": True}, ["discarder"]),
        ({"discarder": "S"}, ["discarder"]),
        ({"discarder": "E", "seat_wind": "E"}, ["discarder"]),
        ({"haitei": True, "rinshan": True, "tsumo": True}, ["haitei"]),
        ({"houtei": True, "chankan": True}, ["houtei"]),
    ],
)
def test_contradictory_conditions(changes: dict[str, Any], words: list[str]) -> None:
    fails("invalid_conditions", *words, **changes)


def test_consistent_conditions_score() -> None:
    for changes in (
        {"riichi": True, "ippatsu": True},
        {"tsumo": True, "haitei": True},
        {"houtei": True},
        {"chankan": True},
        {"tsumo": True, "tenhou": True, "seat_wind": "E"},
        {"tsumo": True, "chiihou": True},
        {"discarder": "N"},
    ):
        result = run(**changes)
        assert "error" not in result, (changes, result)


def test_rinshan_on_tsumo_needs_a_kan() -> None:
    fails("invalid_conditions", "kan", rinshan=True, tsumo=True)


def test_rinshan_on_ron() -> None:
    fails(
        "invalid_conditions",
        "rinshan",
        hand="45699p345789s",
        melds=[{"type": "ankan", "tiles": "1111m"}],
        rinshan=True,
    )


def test_riichi_with_an_open_meld() -> None:
    fails(
        "invalid_conditions",
        "riichi",
        "closed",
        hand="45699p345789s",
        melds=[{"type": "pon", "tiles": "555z"}],
        riichi=True,
    )
    fails(
        "invalid_conditions",
        "riichi",
        hand="45699p345789s",
        melds=[{"type": "chi", "tiles": "123m"}],
        double_riichi=True,
    )


def test_riichi_with_a_closed_kan_is_fine() -> None:
    result = run(hand="45699p345789s", melds=[{"type": "ankan", "tiles": "1111m"}], riichi=True)
    assert "error" not in result


def test_first_turn_wins_have_no_calls() -> None:
    fails(
        "invalid_conditions",
        "call",
        hand="45699p345789s",
        melds=[{"type": "ankan", "tiles": "1111m"}],
        tenhou=True,
        tsumo=True,
        seat_wind="E",
    )


def test_north_seat_in_three_player() -> None:
    fails(
        "invalid_conditions",
        "seat",
        ruleset="tenhou-3p",
        seat_wind="N",
        hand="99m123456p345789s",
        win="3s",
    )


def test_too_many_norths() -> None:
    fails(
        "invalid_hand",
        "north",
        ruleset="tenhou-3p",
        hand="123456p345789s44z",
        win="3s",
        kita=3,
    )


def test_renhou_on_tsumo_or_for_the_dealer() -> None:
    fails("invalid_conditions", "renhou", ruleset="ema-2016", renhou=True, tsumo=True)
    fails("invalid_conditions", "renhou", ruleset="ema-2016", renhou=True, seat_wind="E")


def test_pao_cannot_be_an_absent_seat() -> None:
    result = run(ruleset="tenhou-3p", hand="99m123456p345789s", win="3s", tsumo=True, pao="N")
    assert result["error"] == "invalid_conditions"


def test_several_problems_are_reported_together() -> None:
    result = run(ippatsu=True, haitei=True)
    assert result["error"] == "invalid_conditions"
    assert "ippatsu" in result["message"]
    assert "haitei" in result["message"]


# -- physically impossible inputs the rules exclude ----------------------------------------------


SANMA_TANYAO = {"ruleset": "tenhou-3p", "hand": "456p34567888s", "win": "3s"}


def test_open_tanyao_with_a_pon_in_three_player() -> None:
    result = run(**SANMA_TANYAO, melds=[{"type": "pon", "tiles": "222p"}])
    assert result["yaku"] == [{"name": "tanyao", "han": 1}], result


def test_chi_in_three_player_is_impossible() -> None:
    # 3-player mahjong has no chi (every 3-player preset sets chi=False): the same hand with a
    # chi instead of the pon cannot exist.
    result = run(**SANMA_TANYAO, melds=[{"type": "chi", "tiles": "234p"}])
    assert result.get("error") in ("invalid_hand", "invalid_conditions"), result
    assert "chi" in result["message"]


def test_two_man_dora_indicator_in_three_player_is_impossible() -> None:
    # 2m-8m are not in the 3-player set, so they cannot be turned over as indicators either.
    result = run(ruleset="tenhou-3p", hand="99m123456p345789s", win="3s", dora="2m")
    assert result.get("error") == "invalid_hand", result
    assert "2m" in result["message"]


def test_a_fifth_copy_counting_the_dora_indicators_is_impossible() -> None:
    # All four 9p are in a closed kan; a 9p cannot also be lying face up as a dora indicator.
    result = run(
        hand="123m456p34599s",
        win="5s",
        melds=[{"type": "ankan", "tiles": "9999p"}],
        riichi=True,
        dora="9p",
    )
    assert result.get("error") == "invalid_hand", result
    assert "9p" in result["message"]


def test_the_same_hand_with_a_possible_indicator_scores() -> None:
    result = run(
        hand="123m456p34599s",
        win="5s",
        melds=[{"type": "ankan", "tiles": "9999p"}],
        riichi=True,
        dora="8p",
    )
    assert "error" not in result, result
    assert {"name": "dora", "han": 4} in result["yaku"]


def test_four_plain_fives_where_one_five_is_red_is_impossible() -> None:
    # Tenhou's set has one red 5m and three plain 5m: a kan of four plain 5m cannot exist.
    result = run(
        hand="12345699p345s",
        win="3s",
        melds=[{"type": "ankan", "tiles": "5555m"}],
        riichi=True,
    )
    assert result.get("error") == "invalid_hand", result
    assert "5m" in result["message"] or "red" in result["message"]


def test_the_kan_with_its_red_five_scores() -> None:
    result = run(
        hand="12345699p345s",
        win="3s",
        melds=[{"type": "ankan", "tiles": "0555m"}],
        riichi=True,
    )
    assert "error" not in result, result
    assert {"name": "aka_dora", "han": 1} in result["yaku"]


# -- impossible inputs found in review ---------------------------------------------------------


# Superscript two, fullwidth five, Arabic-Indic one, circled one: str.isdigit() says yes to all.
@pytest.mark.parametrize("digit", ["\u00b2", "\uff15", "\u0661", "\u2460"])
def test_digits_of_other_scripts_are_refused(digit: str) -> None:
    fails("bad_notation", "unexpected character", dora=f"{digit}z")


@pytest.mark.parametrize(
    ("field", "value"),
    [("honba", 1001), ("sticks", 10**5000), ("kita", 5)],
    ids=["honba", "sticks", "kita"],
)
def test_counters_have_bounds(field: str, value: int) -> None:
    result = run(**{field: value})
    assert result["error"] == "invalid_conditions"
    assert field in result["message"]
    assert len(result["message"]) < 200  # a huge number is not copied into the message


def test_chankan_winner_cannot_hold_another_copy() -> None:
    # The robbed 5z is the fourth: three are in the other player's kan, none can be in hand.
    fails(
        "invalid_conditions",
        "chankan",
        hand="222m456p789s11z555z",
        win="5z",
        chankan=True,
    )
    assert "error" not in run(hand="123m45699p345789s", win="5s", chankan=True)


def test_rinshan_after_own_kan_has_no_ippatsu() -> None:
    rinshan = {
        "hand": "111m222p345s99s",
        "win": "4s",
        "melds": [{"type": "ankan", "tiles": "7777z"}],
        "tsumo": True,
        "riichi": True,
        "rinshan": True,
    }
    fails("invalid_conditions", "ippatsu", ippatsu=True, **rinshan)
    assert "error" not in run(**rinshan)


@pytest.mark.parametrize("ruleset", ["tenhou-3p", "majsoul-3p", "minigame-3p"])
def test_rinshan_after_a_north_extraction_has_no_ippatsu_where_kita_breaks_it(ruleset: str) -> None:
    sanma = {
        "hand": "123p456p789s111s99m",
        "win": "9m",
        "tsumo": True,
        "riichi": True,
        "kita": 1,
    }
    assert "error" not in run(ruleset=ruleset, ippatsu=True, **sanma)  # no extraction between
    assert "error" not in run(ruleset=ruleset, rinshan=True, **sanma)
    fails("invalid_conditions", "ippatsu", ruleset=ruleset, ippatsu=True, rinshan=True, **sanma)


def test_extracted_norths_count_among_the_four_copies() -> None:
    fails(
        "invalid_hand",
        "4z",
        ruleset="tenhou-3p",
        hand="123p456p789s111s99m",
        win="9m",
        tsumo=True,
        kita=2,
        dora="4z4z4z",
    )


def test_at_most_five_indicators_of_each_kind() -> None:
    fails("invalid_hand", "indicators", dora="1m2m3m4m6m7m")
    fails("invalid_hand", "indicators", riichi=True, ura="1m2m3m4m6m7m")
