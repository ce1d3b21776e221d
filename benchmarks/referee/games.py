"""The referee's games: each one regenerated from its rule set and seed alone.

Seeds cycle through three kinds of game (``kind_of``):

* ``seed % 4 == 0``: four :class:`~engine.sim.bots.GreedyBot` players (ordinary play);
* ``seed % 4 == 1``: greedy players with one or two :class:`~engine.sim.bots.RandomBot` among
  them (random riichi, kans, calls and aborts reach corners greedy play does not);
* ``seed % 4 in (2, 3)``: a scenario (:mod:`engine.sim.scenarios`), the scenarios of the table
  size taken in turn (from a different one for each rule set, so that a short run of several
  rule sets meets many): its first three hands are arranged for a rare situation.

The game's random generator is seeded with ``referee-{ruleset}-{seed}``, so
``make_game("tenhou-4p", 1234)`` is the same game on every machine and every run.
"""

from __future__ import annotations

import random

from engine.events import Game
from engine.rules.presets import get_ruleset
from engine.sim.bots import GreedyBot, RandomBot, RiichiBot
from engine.sim.scenarios import scenario_game, scenarios_for
from engine.sim.selfplay import play_game

#: Hands of a scenario game that are arranged (the rest is played on shuffled walls).
ARRANGED_HANDS = 3


def kind_of(ruleset: str, seed: int) -> str:
    """``greedy``, ``mixed`` or ``scenario:<name>`` for a game."""
    turn = seed % 4
    if turn == 0:
        return "greedy"
    if turn == 1:
        return "mixed"
    scenarios = scenarios_for(get_ruleset(ruleset).players)
    number = (seed // 4) * 2 + (turn - 2) + 5 * sum(map(ord, ruleset))
    return f"scenario:{scenarios[number % len(scenarios)].name}"


def game_id(ruleset: str, seed: int) -> str:
    return f"referee-{ruleset}-{seed}"


def make_game(ruleset: str, seed: int) -> Game:
    """The game of ``ruleset`` and ``seed`` (see the module docstring)."""
    rng = random.Random(game_id(ruleset, seed))
    kind = kind_of(ruleset, seed)
    rules = get_ruleset(ruleset)
    if kind.startswith("scenario:"):
        return scenario_game(
            ruleset,
            kind.removeprefix("scenario:"),
            rng,
            hands=ARRANGED_HANDS,
            game_id=game_id(ruleset, seed),
        )
    bots: list[RiichiBot]
    if kind == "mixed":
        randoms = set(rng.sample(range(rules.players), 1 + rng.randrange(2)))
        bots = [
            RandomBot(rng, pass_rate=rng.choice((0.2, 0.5, 0.9)))
            if seat in randoms
            else GreedyBot()
            for seat in range(rules.players)
        ]
    else:
        bots = [GreedyBot() for _ in range(rules.players)]
    return play_game(rules, bots, rng, game_id=game_id(ruleset, seed))
