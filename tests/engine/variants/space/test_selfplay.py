"""Self-play under ``space-4p``: every game replays as verified, and the games use the space
shapes (wins that only wrap-around or honour runs make, chis of such runs).

The 10,000-game run is the slow parametrisation of tests/engine/sim/test_selfplay.py over every
preset, which includes space-4p (checked below).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

import engine
from engine.events import Chi, Game, Win
from engine.formats import canonical
from engine.hand.shapes import SPACE, STANDARD
from engine.rules import get_ruleset
from engine.sim.selfplay import simulate
from engine.state import GameState
from engine.tiles import EAST
from tests.engine.sim.test_selfplay import PRESET_PARAMS, game_problems, mixed_bots

SEED = 20250107
GAMES = 200


@pytest.fixture(scope="module")
def space_games() -> list[Game]:
    return list(simulate("space-4p", GAMES, SEED, bots=mixed_bots(4)))


def test_space_games_replay_verified(space_games: list[Game]) -> None:
    assert game_problems(space_games) == []


def test_the_slow_run_covers_space_mahjong() -> None:
    assert "space-4p" in PRESET_PARAMS


def _is_wrapped(start: int) -> bool:
    return start < EAST and start % 9 >= 7


def space_shape_use(games: list[Game]) -> Counter[str]:
    """What the games use of the space shapes: chis of wrapped or honour runs, and wins whose
    hand no standard reading completes, by whether every reading holds a wrapped run or an
    honour run (called or concealed)."""
    seen: Counter[str] = Counter()
    ruleset = get_ruleset("space-4p")
    for game in games:
        for round_ in game.rounds:
            state = GameState(ruleset)
            state.start_round(round_)
            for event in round_.events:
                if isinstance(event, Chi):
                    start = SPACE.run_start((event.tile.kind, *(t.kind for t in event.consumed)))
                    assert start is not None
                    if _is_wrapped(start):
                        seen["wrapped chi"] += 1
                    elif start >= EAST:
                        seen["honour chi"] += 1
                if isinstance(event, Win):
                    seen["win"] += 1
                    data = state.seats[event.seat]
                    counts = list(data.counts)
                    if not event.tsumo:
                        counts[event.tile.kind] += 1
                    called = [meld.kind for meld in data.melds if meld.is_run]
                    standard_melds = all(STANDARD.run_kinds[start] for start in called)
                    if standard_melds and STANDARD.is_agari(counts):
                        seen["standard win"] += 1
                    else:
                        seen["space-only win"] += 1
                        readings = SPACE.decompositions(counts) or [(-1, (), ())]
                        if any(map(_is_wrapped, called)) or all(
                            any(map(_is_wrapped, runs)) for _, runs, _ in readings
                        ):
                            seen["win with a wrapped run"] += 1
                        if any(start >= EAST for start in called) or all(
                            any(start >= EAST for start in runs) for _, runs, _ in readings
                        ):
                            seen["win with an honour run"] += 1
                state.apply(event)
    return seen


def test_space_games_use_the_space_shapes(space_games: list[Game]) -> None:
    seen = space_shape_use(space_games)
    rounds = sum(len(game.rounds) for game in space_games)
    for what in ("wrapped chi", "honour chi", "win with a wrapped run", "win with an honour run"):
        assert seen[what] > 0, f"no {what} in {rounds} hands: {dict(seen)}"
    # Games end in wins, not only draws; and a fair share of them need the space shapes.
    assert seen["win"] > rounds / 2, dict(seen)
    assert seen["space-only win"] > seen["win"] / 10, dict(seen)


def test_space_games_survive_the_canonical_codec(space_games: list[Game]) -> None:
    # The canonical format stores space games as any other: the preset's name, the events.
    schema = json.loads((Path(engine.__file__).parent / "schema" / "game.schema.json").read_text())
    for game in space_games[:20]:
        text = canonical.dumps(game)
        jsonschema.validate(json.loads(text), schema)
        assert canonical.loads(text) == [game]
