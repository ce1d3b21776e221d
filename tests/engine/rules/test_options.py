"""Option values are read into their option's type, or refused naming the option, the value and
what it takes (engine/rules/options.py): by ``Ruleset.replace``, ``UzjeRules.replace`` and every
path through them (a record's overrides, the command line)."""

from __future__ import annotations

import pytest

from engine.errors import UnknownRulesetError
from engine.replay import Verdict, replay
from engine.rules import get_ruleset
from engine.rules.presets import with_overrides
from engine.rules.ruleset import KanDoraTiming, KazoeLimit
from engine.scoring.request import parse_request
from engine.scoring.score import score_hand
from engine.variants.uzje import rules as uzje_rules
from engine.variants.uzje.rules import UZJE_4P, Rounding
from engine.variants.uzje.scoring import half
from engine.variants.uzje.selfplay import simulate as uzje_simulate

EMA = get_ruleset("ema-2016")

#: A closed 14-han hand without yakuman: riichi, tsumo, pinfu, iipeikou, ittsu, chinitsu and two
#: dora (the 9m indicator makes the two 1m dora).
KAZOE_HAND = {
    "ruleset": "ema-2016",
    "hand": "112233m456m789m99m",
    "win": "4m",
    "tsumo": True,
    "riichi": True,
    "dora": "9m",
}


def test_kazoe_given_as_a_string_scores_a_counted_yakuman() -> None:
    hand, _ = parse_request(KAZOE_HAND)
    assert score_hand(hand, EMA).limit == "sanbaiman"  # EMA's own: no counted yakuman
    for word in ("yakuman", "YAKUMAN", " Yakuman "):
        rules = EMA.replace(kazoe=word)
        assert rules.kazoe is KazoeLimit.YAKUMAN
        assert score_hand(hand, rules).limit == "kazoe_yakuman"
    assert score_hand(hand, EMA.replace(kazoe="sanbaiman")).limit == "sanbaiman"


def test_uzje_self_draw_rounding_up_given_as_a_string_pays_three() -> None:
    rules = UZJE_4P.replace(self_draw_rounding="up")
    assert rules.self_draw_rounding is Rounding.UP
    assert half(5, rules.self_draw_rounding) == 3
    assert half(5, UZJE_4P.replace(self_draw_rounding="DOWN").self_draw_rounding) == 2


def test_uzje_matches_under_rounding_given_as_a_string_verify() -> None:
    rules = UZJE_4P.replace(self_draw_rounding="up")
    for game in uzje_simulate(2, 7, rules):
        report = replay(game)
        assert report.verdict is Verdict.VERIFIED, report.discrepancy


@pytest.mark.parametrize(
    ("option", "given", "read"),
    [
        # an enumeration, by value or member name, in any case
        ("open_kan_dora_timing", "after_discard", KanDoraTiming.AFTER_DISCARD),
        ("open_kan_dora_timing", "AFTER_DISCARD", KanDoraTiming.AFTER_DISCARD),
        ("open_kan_dora_timing", KanDoraTiming.IMMEDIATE, KanDoraTiming.IMMEDIATE),
        # a bool, from true or false
        ("kuitan", "false", False),
        ("kiriage", "True", True),
        ("kiriage", True, True),
        # an int, from digits
        ("starting_points", "35000", 35000),
        ("honba_ron", " 200 ", 200),
        ("starting_points", 30000, 30000),
        # an int or none
        ("riichi_min_points", "none", None),
        ("riichi_min_points", None, None),
        ("riichi_min_points", "0", 0),
        # a word among the option's choices
        ("length", "east", "east"),
        # a fixed tuple, a tuple of any length, a set: lists, or words separated by commas
        ("red_fives", [0, 1, 1], (0, 1, 1)),
        ("red_fives", "0, 1, 1", (0, 1, 1)),
        ("uma", "30,10,-10,-30", (30, 10, -10, -30)),
        ("uma", [15, 5, -5, -15], (15, 5, -5, -15)),
        ("pao", "daisangen, suukantsu", frozenset({"daisangen", "suukantsu"})),
        ("pao", [], frozenset()),
        ("pao", "", frozenset()),
        ("double_yakuman", ["kokushi_13"], frozenset({"kokushi_13"})),
        ("modifiers", "swap, peek", ("swap", "peek")),
    ],
)
def test_a_riichi_option_is_read_into_its_type(option: str, given: object, read: object) -> None:
    rules = EMA.replace(**{option: given})
    value = getattr(rules, option)
    assert value == read and type(value) is type(read)
    # A record's overrides (JSON values) are read the same way.
    assert getattr(with_overrides("ema-2016", {option: given}), option) == read


@pytest.mark.parametrize(
    ("option", "given", "takes"),
    [
        ("kazoe", "yakumann", "one of yakuman, sanbaiman"),
        ("kazoe", 13, "one of yakuman, sanbaiman"),
        ("kuitan", "yes", "true or false"),
        ("kuitan", 1, "true or false"),
        ("kuitan", "", "true or false"),
        ("starting_points", "35k", "a whole number"),
        ("starting_points", "3.5e4", "a whole number"),
        ("starting_points", 25000.0, "a whole number"),
        ("starting_points", True, "a whole number"),
        ("riichi_min_points", "never", "a whole number, or none"),
        ("length", "East", "one of east, east_south"),
        ("length", "south", "one of east, east_south"),
        ("red_fives", "1,1", "3 items"),
        ("red_fives", [1, 1, "x"], "each a whole number"),
        ("uma", 20, "a list"),
        ("pao", ["daisangen", "four_kans"], "each one of daisangen, daisuushii, suukantsu"),
        ("double_yakuman", "suuankou", "each one of daisuushii, junsei_chuuren, kokushi_13"),
    ],
)
def test_a_value_the_option_cannot_take_is_refused_naming_it(
    option: str, given: object, takes: str
) -> None:
    for read in (
        lambda: EMA.replace(**{option: given}),
        lambda: with_overrides("ema-2016", {option: given}),
    ):
        with pytest.raises(UnknownRulesetError) as refusal:
            read()
        message = str(refusal.value)
        assert f"rule option {option!r} cannot be {given!r} (in ema-2016)" in message
        assert takes in message


def test_an_unknown_option_is_refused_with_the_nearest_names() -> None:
    with pytest.raises(
        UnknownRulesetError, match=r"unknown rule option 'kazo' \(did you mean kazoe"
    ):
        EMA.replace(kazo="yakuman")
    with pytest.raises(UnknownRulesetError, match=r"unknown rule option 'flying'$"):
        with_overrides("ema-2016", {"flying": True})


@pytest.mark.parametrize(
    ("option", "given", "read"),
    [
        ("self_draw_rounding", "down", Rounding.DOWN),
        ("self_draw_rounding", "Exact", Rounding.EXACT),
        ("flowers", "false", False),
        ("players", "5", 5),
        ("min_fan", "3.5", 3.5),
        ("min_fan", 3.5, 3.5),
        ("dead_wall", "12", 12),
    ],
)
def test_an_uzje_option_is_read_into_its_type(option: str, given: object, read: object) -> None:
    rules = UZJE_4P.replace(**{option: given})
    value = getattr(rules, option)
    assert value == read and type(value) is type(read)
    assert getattr(uzje_rules.with_overrides("uzje-4p", {option: given}), option) == read


@pytest.mark.parametrize(
    ("option", "given", "takes"),
    [
        ("self_draw_rounding", "sideways", "one of up, down, exact"),
        ("flowers", "yes", "true or false"),
        ("players", "four", "a whole number"),
        ("min_fan", "nan", "a number"),
        ("min_fan", "two and a half", "a number"),
        ("limit_fan", 13.0, "a whole number"),
    ],
)
def test_an_uzje_value_the_option_cannot_take_is_refused_naming_it(
    option: str, given: object, takes: str
) -> None:
    with pytest.raises(UnknownRulesetError) as refusal:
        UZJE_4P.replace(**{option: given})
    message = str(refusal.value)
    assert f"Ùzje rule option {option!r} cannot be {given!r} (in uzje-4p)" in message
    assert takes in message


def test_every_option_of_every_type_has_a_reader() -> None:
    # A new option of a type the reader does not know fails here, not on its first use.
    for rules in (EMA, UZJE_4P):
        options = rules.options()
        assert rules.replace(**options).options() == options
