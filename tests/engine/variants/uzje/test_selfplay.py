"""Ùzje self-play: a few hundred generated games of every preset (and the option switches)
replay as verified and complete, are reproducible, and show the rules' corners: wins, flowers,
ariths of several differences claimed, quads. ``MJ_SLOW=1`` plays 10,000 games (deals) per
preset."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.events import AddedKan, ClosedKan, Game, OpenKan, Win
from engine.formats.canonical import game_from_json, game_to_json
from engine.variants.uzje.events import Chow, FlowerExposed
from engine.variants.uzje.rules import PRESETS, UZJE_4P, Rounding, UzjeRules
from engine.variants.uzje.selfplay import simulate
from engine.variants.uzje.shapes import classify
from engine.variants.uzje.tiles import kind_of
from tests.engine.sim.test_selfplay import unverified

SEED = 20240607
SLOW_GAMES = 10_000

#: Matches per rule set in the normal run (a match is about twenty games).
RUNS: list[tuple[UzjeRules, int]] = [
    (PRESETS["uzje-4p"], 10),
    (PRESETS["uzje-3p"], 2),
    (PRESETS["uzje-5p"], 2),
    (PRESETS["uzje-6p"], 2),
    (UZJE_4P.replace(name="compressed", full_winds=False), 1),
    (UZJE_4P.replace(name="no-flowers", flowers=False), 1),
    (UZJE_4P.replace(name="all-tongs", all_tongs=True), 1),
    (UZJE_4P.replace(name="gems", claim_gems_powers=True, sets=2), 1),
    # The rounding of the records written before "exact" (test_halves.py has more).
    (UZJE_4P.replace(name="round-up", self_draw_rounding=Rounding.UP), 2),
]


@pytest.fixture(scope="module")
def generated() -> dict[str, list[Game]]:
    return {rules.name: simulate(count, SEED, rules) for rules, count in RUNS}


def test_every_generated_game_verifies(generated: dict[str, list[Game]]) -> None:
    everything = [game for games in generated.values() for game in games]
    assert unverified(everything) == []
    # "A few hundred self-played games": Ùzje games (deals), not matches.
    assert sum(len(game.rounds) for game in everything) >= 300


def test_rule_sets_are_recorded(generated: dict[str, list[Game]]) -> None:
    assert generated["uzje-6p"][0].header.ruleset == "uzje-6p"
    assert generated["compressed"][0].header.ruleset == "uzje-4p"
    assert generated["compressed"][0].header.rule_overrides == {
        "full_winds": False,
        "self_draw_rounding": "exact",  # the preset's, which a record must state (RECORD_DEFAULTS)
    }
    for games in generated.values():
        for game in games[:1]:
            assert game_from_json(game_to_json(game)) == game


def test_games_show_the_rules_corners(generated: dict[str, list[Game]]) -> None:
    counts: Counter[str] = Counter()
    differences: Counter[int] = Counter()
    patterns: Counter[str] = Counter()
    for games in generated.values():
        for game in games:
            for round_ in game.rounds:
                for event in round_.events:
                    counts[type(event).__name__] += 1
                    if isinstance(event, Chow):
                        meld = classify([kind_of(t) for t in (event.tile, *event.consumed)])
                        assert meld is not None and meld.difference is not None
                        differences[meld.difference] += 1
                    elif isinstance(event, Win) and event.recorded and event.recorded.yaku:
                        patterns.update(name for name, _ in event.recorded.yaku)
    assert counts[Win.__name__] > 200
    assert counts[FlowerExposed.__name__] > 200
    assert len(differences) >= 4, differences  # ariths of several differences claimed
    quads = counts[ClosedKan.__name__] + counts[OpenKan.__name__] + counts[AddedKan.__name__]
    assert quads >= 5, counts
    assert {"closed_hand", "self_draw", "bonus_tile", "seat_flower"} <= set(patterns)


def test_reproducible_from_the_seed() -> None:
    assert simulate(1, 99) == simulate(1, 99)
    assert simulate(1, 99) != simulate(1, 100)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_many_self_played_games_verify(name: str) -> None:
    # 10,000 games in the document's sense (line 101: a game is one deal, from the shuffle to a
    # win or the wall's end), in whole matches: 350-525 matches per preset, 2-3 minutes each.
    games = 0
    chunk = 0
    while games < SLOW_GAMES:
        matches = simulate(25, SEED + 1 + 1000 * chunk, PRESETS[name])
        assert unverified(matches) == []
        games += sum(len(match.rounds) for match in matches)
        chunk += 1
