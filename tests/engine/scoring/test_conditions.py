"""The quick check of win conditions agrees with the full list of rules it stands in for.

``_check_conditions`` decides the common, consistent case with one expression and only builds
the list of problems otherwise; this test draws many combinations of flags and counters and
demands that it raises exactly when ``_condition_problems`` finds something.
"""

from __future__ import annotations

import random

import pytest

from engine.errors import InvalidConditionsError
from engine.hand.melds import Meld
from engine.rules import get_ruleset
from engine.scoring.request import FLAGS
from engine.scoring.rule_tables import rule_tables
from engine.scoring.score import (
    WinConditions,
    WinningHand,
    _check_conditions,
    _condition_problems,
)
from engine.tiles import EAST, parse_tile, parse_tiles

CLOSED = (tuple(parse_tiles("123m45699p345789s")), ())
WITH_KAN = (tuple(parse_tiles("123m99p345789s")), (Meld.parse("ankan", "1111z"),))
OPEN = (tuple(parse_tiles("45699p345789s")), (Meld.parse("chi", "123m"),))


@pytest.mark.parametrize("ruleset_name", ["tenhou-4p", "tenhou-3p", "minigame-3p", "ema-2016"])
def test_quick_check_agrees_with_the_rule_list(ruleset_name: str) -> None:
    ruleset = get_ruleset(ruleset_name)
    rng = random.Random(ruleset_name)
    raised = 0
    for _ in range(4000):
        flags = {flag: rng.random() < 0.2 for flag in FLAGS}
        tiles, melds = rng.choice((CLOSED, WITH_KAN, OPEN))
        conditions = WinConditions(
            **flags,
            seat_wind=EAST + rng.randrange(5),
            round_wind=EAST + rng.randrange(5),
            honba=rng.choice((0, 0, 1, -1)),
            sticks=rng.choice((0, 0, 2, -1)),
            kita=rng.choice((0, 0, 0, 1, 2)),
        )
        seat = rng.choice((None, None, EAST, EAST + 1, EAST + 2, EAST + 3, EAST + 4))
        hand = WinningHand(
            tiles=tiles,
            win_tile=parse_tile("5s"),
            melds=melds,
            conditions=conditions,
            discarder=seat,
            liable=rng.choice((None, None, None, EAST + 1)),
        )
        closed = not any(meld.is_open for meld in melds)
        problems = _condition_problems(hand, ruleset, closed)
        try:
            _check_conditions(hand, rule_tables(ruleset), closed)
        except InvalidConditionsError:
            raised += 1
            assert problems, conditions
        else:
            assert not problems, (conditions, problems)
    assert 0 < raised < 4000
