"""tenhou.net/6 and mjai hold riichi games only: their writers refuse every variant by name."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence

import pytest

from engine.errors import UnsupportedLogError
from engine.events import Game
from engine.formats import mjai, tenhou6
from engine.rules.presets import get_ruleset
from engine.sim.bots import GreedyBot
from engine.sim.selfplay import play_game
from engine.variants.uzje.selfplay import simulate as simulate_uzje


def riichi_game(preset: str, **options: object) -> Game:
    ruleset = get_ruleset(preset)
    if options:
        ruleset = ruleset.replace(**options)
    bots = [GreedyBot() for _ in range(ruleset.players)]
    return play_game(ruleset, bots, random.Random(preset))


VARIANTS = [
    ("space mahjong", lambda: riichi_game("space-4p")),
    ("small mahjong", lambda: riichi_game("small-4p")),
    ("small mahjong", lambda: riichi_game("small-4p-7")),
    (
        "rule modifiers lucky_sevens",
        lambda: riichi_game("minigame-4p", modifiers=("lucky_sevens",)),
    ),
    (
        "rule modifiers swap, second_chance",
        lambda: riichi_game("tenhou-4p", modifiers=("swap", "second_chance")),
    ),
    ("Ùzje mahjong", lambda: simulate_uzje(1, 3)[0]),
]


@pytest.mark.parametrize(("variant", "make"), VARIANTS)
@pytest.mark.parametrize("writer", [tenhou6.write, mjai.write])
def test_writers_refuse_variants_naming_them(
    variant: str, make: Callable[[], Game], writer: Callable[[Sequence[Game]], bytes]
) -> None:
    with pytest.raises(UnsupportedLogError, match=f"riichi mahjong games; this one is {variant}"):
        writer([make()])


def test_a_riichi_game_is_still_written() -> None:
    game = riichi_game("tenhou-4p")
    assert tenhou6.write([game]) and mjai.write([game])


@pytest.mark.parametrize("writer", [tenhou6.write, mjai.write])
def test_writers_refuse_a_modifier_event_whatever_the_rule_set(
    writer: Callable[[Sequence[Game]], bytes],
) -> None:
    """A swap event (a rule modifier's action) in a game whose header names no modifier: the
    format could not hold it, so the writer refuses it rather than drop it."""
    game = riichi_game("tenhou-4p", modifiers=("swap",))
    plain = dataclasses.replace(game, header=dataclasses.replace(game.header, rule_overrides={}))
    with pytest.raises(
        UnsupportedLogError, match=r"cannot hold a swap event.*round [ESWN]\d, event"
    ):
        writer([plain])
