"""The mini-game's extra wind ends as soon as first place reaches the target, after a dealer's
repeat too (seeds/001 lines 82-83: "The game ends once the player in first place reaches or
exceeds the required points"): ``sudden_death_on_repeat``.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.events import (
    Discard,
    Draw,
    Event,
    FinalResult,
    Game,
    GameHeader,
    Player,
    Round,
    Source,
    Win,
)
from engine.game_flow import HandOutcome, RoundPosition, next_position
from engine.replay import Verdict, replay
from engine.rules import get_ruleset
from engine.tiles import parse_tile, parse_tiles

T = parse_tile
WON = HandOutcome(dealer_keeps=True, won=True)
TENPAI = HandOutcome(dealer_keeps=True, won=False)
ABORTED = HandOutcome(dealer_keeps=True, won=False, aborted=True)

#: West 2 of an East-South game: the extra wind, dealt by seat 1.
WEST_2 = RoundPosition(wind=2, number=2, dealer=1, honba=0, sticks=0)
#: South 4, the last scheduled hand, dealt by seat 3.
SOUTH_4 = RoundPosition(wind=1, number=4, dealer=3, honba=0, sticks=0)


def _next(
    preset: str, position: RoundPosition, outcome: HandOutcome, scores: list[int]
) -> RoundPosition | None:
    return next_position(position, outcome, scores, 0, get_ruleset(preset))


@pytest.mark.parametrize("preset", ["minigame-4p", "minigame-3p"])
@pytest.mark.parametrize("outcome", [WON, TENPAI, ABORTED])
def test_in_the_extra_wind_a_repeat_ends_the_game_once_first_place_has_the_target(
    preset: str, outcome: HandOutcome
) -> None:
    rules = get_ruleset(preset)
    target = rules.target_points
    below = [target - 1000] * rules.players
    # First place is the dealer, or another seat: either way the game is over.
    for leader in (1, 0):
        scores = list(below)
        scores[leader] = target
        assert _next(preset, WEST_2, outcome, scores) is None
    # Below the target the dealer repeats, as anywhere.
    repeat = _next(preset, WEST_2, outcome, below)
    assert repeat == RoundPosition(wind=2, number=2, dealer=1, honba=1, sticks=0)


def test_the_last_scheduled_hands_repeat_still_plays_on_in_the_mini_game() -> None:
    # "No auto-win if the last dealer is in first place and has the required points" (line 92).
    scores = [20000, 20000, 20000, 40000]
    assert _next("minigame-4p", SOUTH_4, WON, scores) == dataclasses.replace(SOUTH_4, honba=1)


def test_without_the_option_an_extra_wind_repeat_plays_on() -> None:
    # Tenhou's preset: only its agari-yame (the dealer in first place) ends a repeat.
    scores = [30000, 20000, 20000, 20000]
    assert _next("tenhou-4p", WEST_2, WON, scores) == dataclasses.replace(WEST_2, honba=1)
    scores = [20000, 30000, 20000, 20000]
    assert _next("tenhou-4p", WEST_2, WON, scores) is None


# -- a crafted record: two West hands of a mini-game --------------------------------------------

#: The dealer (seat 0) waits on 5p with all simples; the others hold tiles nobody calls.
HANDS = ("234m567m234p678s5p", "111m9m111p9p111s9s1z", "99m99p99s222z333z4z", "555z666z777z44z8m8p")
#: Seat 0 draws E and drops it, the others draw and drop a wind each, seat 0 draws 5p: tsumo
#: with all simples, 2 han 30 fu, 1,000 from each (and 100 each a counter).
EVENTS: tuple[Event, ...] = (
    Draw(0, T("1z")),
    Discard(0, T("1z"), tsumogiri=True),
    Draw(1, T("2z")),
    Discard(1, T("2z"), tsumogiri=True),
    Draw(2, T("3z")),
    Discard(2, T("3z"), tsumogiri=True),
    Draw(3, T("4z")),
    Discard(3, T("4z"), tsumogiri=True),
    Draw(0, T("5p")),
    Win(0, 0, T("5p")),
)


def _west_1(honba: int, scores: tuple[int, ...]) -> Round:
    return Round(
        wind=2,
        number=1,
        dealer=0,
        honba=honba,
        sticks=0,
        scores=scores,
        hands=tuple(tuple(parse_tiles(hand)) for hand in HANDS),
        dora_indicators=(T("9s"),),
        events=EVENTS,
    )


#: West 1: the dealer (26,000, first, below 30,000) wins 3,000: 29,000, still below the target,
#: so it repeats. West 1, one counter: it wins 3,300 more, 32,300: first place has the target.
ROUNDS = (
    _west_1(0, (26000, 25000, 25000, 24000)),
    _west_1(1, (29000, 24000, 24000, 23000)),
)
AFTER = (32300, 22900, 22900, 21900)


def _game(rounds: tuple[Round, ...], preset: str = "minigame-4p", **overrides: object) -> Game:
    header = GameHeader(
        ruleset=preset,
        rule_overrides=overrides,
        players=tuple(Player(f"P{seat}") for seat in range(4)),
        source=Source("test"),
    )
    return Game(header=header, rounds=rounds, recorded_final=FinalResult(AFTER))


def test_a_mini_game_ends_after_the_repeat_that_gives_first_place_the_target() -> None:
    report = replay(_game(ROUNDS))
    # The record starts in the West: a fragment, every hand and the end of the game agreeing.
    assert report.verdict is Verdict.VERIFIED_FRAGMENT, report.discrepancy
    assert [hand.scores_after for hand in report.rounds] == [
        [29000, 24000, 24000, 23000],
        list(AFTER),
    ]


def test_a_mini_game_that_plays_on_after_first_place_has_the_target_is_refused() -> None:
    third = _west_1(2, AFTER)
    report = replay(_game((*ROUNDS, third)))
    assert report.verdict is Verdict.ILLEGAL_ACTION
    assert report.discrepancy is not None
    assert report.discrepancy.round == 2
    assert "is over" in report.discrepancy.expected


def test_the_same_record_under_the_rule_off_expects_another_hand() -> None:
    report = replay(_game(ROUNDS, sudden_death_on_repeat=False))
    assert report.verdict is Verdict.ILLEGAL_ACTION
    assert report.discrepancy is not None
    assert "another hand" in report.discrepancy.expected
