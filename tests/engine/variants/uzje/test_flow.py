"""Ùzje game structure: dealer rotation, sets and the match (seeds/002 lines 98-108), and the
rules presets."""

from __future__ import annotations

import pytest

from engine.errors import UnknownRulesetError
from engine.game_flow import RoundPosition
from engine.variants.uzje.flow import first_position, next_position, seat_wind
from engine.variants.uzje.rules import (
    PRESETS,
    UZJE_4P,
    Rounding,
    UzjeRules,
    as_preset,
    get_rules,
    is_uzje_preset,
    with_overrides,
)


def after(
    position: RoundPosition, keeps: bool, played: int = 1, rules: UzjeRules = UZJE_4P
) -> RoundPosition | None:
    return next_position(position, rules, dealer_keeps=keeps, hands_played=played, first_dealer=0)


def test_dealer_keeps_the_deal_on_own_win_or_a_draw() -> None:
    # line 102: the prevailing wind rotates whenever someone other than the dealer goes out;
    # a dealer's win (and, our choice, a draw: "goulashes") adds a game to the set.
    start = first_position(0)
    assert after(start, True) == RoundPosition(0, 1, 0, 1, 0)
    assert after(start, False) == RoundPosition(0, 2, 1, 0, 0)


def test_a_set_ends_when_the_first_dealer_deals_again() -> None:
    # line 102: "At minimum, a set contains four games"; line 103: the set orientation moves
    # East, South, West, North; line 105: a match is four sets.
    position: RoundPosition | None = first_position(0)
    names = []
    played = 0
    while position is not None:
        names.append(position.name)
        played += 1
        position = after(position, False, played)
    assert names == [f"{wind}{number}" for wind in "ESWN" for number in range(1, 5)]


def test_half_match_and_fixed_games() -> None:
    # line 105: a half-match is two sets; line 108: a fixed number of games.
    half = UZJE_4P.replace(name="h", sets=2)
    position: RoundPosition | None = first_position(0)
    played = 0
    while position is not None:
        played += 1
        position = after(position, False, played, half)
    assert played == 8
    fixed = UZJE_4P.replace(name="f", fixed_games=3)
    assert after(first_position(0), True, 2, fixed) is not None
    assert after(first_position(0), True, 3, fixed) is None


def test_seat_winds() -> None:
    # The dealer is East, then anticlockwise; seats five and six have no wind.
    assert [seat_wind(seat, 1, 4) for seat in range(4)] == [3, 0, 1, 2]
    assert [seat_wind(seat, 0, 6) for seat in range(6)] == [0, 1, 2, 3, None, None]


def test_presets() -> None:
    # line 5: four players by default, three to six possible.
    assert {name: rules.players for name, rules in PRESETS.items()} == {
        "uzje-4p": 4,
        "uzje-3p": 3,
        "uzje-5p": 5,
        "uzje-6p": 6,
    }
    assert not UZJE_4P.all_tongs and UZJE_4P.full_winds and UZJE_4P.flowers
    assert UZJE_4P.min_fan == 2.5 and UZJE_4P.limit_fan == 13 and UZJE_4P.starting_points == 0
    assert PRESETS["uzje-6p"].all_tongs
    assert is_uzje_preset("uzje-4p") and not is_uzje_preset("tenhou-4p")
    with pytest.raises(UnknownRulesetError, match="known presets: uzje-3p"):
        get_rules("uzje-7p")
    with pytest.raises(UnknownRulesetError, match="3 to 6 players"):
        UZJE_4P.replace(name="x", players=7)


def test_overrides_round_trip() -> None:
    house = UZJE_4P.replace(
        name="house", full_winds=False, self_draw_rounding=Rounding.DOWN, min_fan=3.5
    )
    name, overrides = as_preset(house)
    assert name == "uzje-4p"
    assert overrides == {"full_winds": False, "self_draw_rounding": "down", "min_fan": 3.5}
    assert with_overrides(name, overrides) == house.replace(name="uzje-4p")
    with pytest.raises(UnknownRulesetError, match="unknown Ùzje rule option 'kiriage'"):
        with_overrides("uzje-4p", {"kiriage": True})
    with pytest.raises(UnknownRulesetError, match="cannot be 'yes'"):
        with_overrides("uzje-4p", {"flowers": "yes"})
    with pytest.raises(UnknownRulesetError, match="cannot be 'sideways'"):
        with_overrides("uzje-4p", {"self_draw_rounding": "sideways"})
