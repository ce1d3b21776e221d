"""A rule set written into a game record as a preset name and overrides, and read back."""

from __future__ import annotations

import pytest

from engine.errors import UnknownRulesetError
from engine.rules.presets import PRESETS, as_preset, tenhou_ruleset, with_overrides
from engine.rules.ruleset import KanDoraTiming


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_is_named_without_overrides(name: str) -> None:
    assert as_preset(PRESETS[name], PRESETS["wrc"]) == (name, {})


def test_a_variant_round_trips_through_its_json_overrides() -> None:
    variant = tenhou_ruleset(three_player=True, east_only=True, red=False, kuitan=False).replace(
        open_kan_dora_timing=KanDoraTiming.AFTER_DISCARD, pao=frozenset({"suukantsu"})
    )
    name, overrides = as_preset(variant, PRESETS["tenhou-3p-east"])
    assert name == "tenhou-3p-east"
    assert overrides == {
        "red_fives": [0, 0, 0],
        "kuitan": False,
        "open_kan_dora_timing": "after_discard",
        "pao": ["suukantsu"],
    }
    back = with_overrides(name, overrides)
    assert back.options() | {"name": variant.name} == variant.options()


@pytest.mark.parametrize(
    ("overrides", "problem"),
    [
        ({"open_kan_dora_timing": "sometimes"}, "cannot be"),
        ({"no_such_option": 1}, "unknown rule option"),
    ],
)
def test_bad_overrides_are_refused(overrides: dict[str, object], problem: str) -> None:
    with pytest.raises(UnknownRulesetError, match=problem):
        with_overrides("tenhou-4p", overrides)
