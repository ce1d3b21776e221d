"""Scenarios (engine.sim.scenarios): games whose first hands are arranged for a rare situation
replay as verified, and reach the situation they aim at."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from benchmarks.referee import rare
from engine.events import Game, RecordedWin, Win
from engine.replay import Verdict, replay
from engine.rules.presets import get_ruleset
from engine.sim.scenarios import SCENARIOS, Rig, complete_kinds, scenario_game, scenarios_for
from engine.sim.wall import dead_wall_replacements, tile_set

#: Each scenario, a preset it applies to, and the rare situation (benchmarks/referee/rare.py)
#: that at least one of its games must reach.
AIMS = [
    ("tenhou", "tenhou-4p", "tenhou"),
    ("chiihou", "tenhou-4p", "chiihou"),
    ("first_turn_ron", "tenhou-4p", "first-turn ron (renhou-style)"),
    ("double_ron", "majsoul-3p", "double ron"),
    ("triple_ron", "tenhou-4p", "triple ron abort (sanchahou)"),
    ("triple_ron", "majsoul-4p", "triple ron paid"),
    ("chankan", "tenhou-4p", "chankan"),
    ("kokushi_ankan", "majsoul-4p", "kokushi robs a closed kan"),
    ("kita_ron", "tenhou-3p", "ron on kita"),
    ("rinshan", "tenhou-3p", "rinshan kaihou"),
    ("suukantsu", "majsoul-4p", "suukantsu"),
    ("suukaikan", "tenhou-4p", "four kans abort (suukaikan)"),
    ("nagashi", "majsoul-3p", "nagashi mangan"),
    ("pao_daisangen", "tenhou-4p", "pao daisangen"),
    ("pao_daisuushii", "majsoul-4p", "pao daisuushii"),
    ("kyuushu", "tenhou-3p", "nine terminals (kyuushu kyuuhai)"),
    ("suufon", "tenhou-4p", "four winds (suufon renda)"),
    ("suucha", "majsoul-4p", "four riichi (suucha riichi)"),
    ("haitei_kan", "tenhou-4p", "kan replacement is the last tile"),
]
GAMES = 3


def test_every_scenario_has_an_aim_here() -> None:
    assert {name for name, _, _ in AIMS} == set(SCENARIOS)


@pytest.mark.parametrize(("scenario", "preset", "situation"), AIMS)
def test_scenario_games_verify_and_reach_their_situation(
    scenario: str, preset: str, situation: str
) -> None:
    seen: Counter[str] = Counter()
    for number in range(GAMES):
        game = scenario_game(preset, scenario, random.Random(f"{scenario}-{preset}-{number}"))
        report = replay(game)
        assert report.verdict is Verdict.VERIFIED and report.complete, report.discrepancy
        seen.update(rare.count(game))
    assert seen[situation] > 0, dict(seen)


def test_scenarios_apply_to_their_table_sizes() -> None:
    four = {s.name for s in scenarios_for(4)}
    three = {s.name for s in scenarios_for(3)}
    assert "triple_ron" in four - three and "suucha" in four - three
    assert "kita_ron" in three - four


@pytest.mark.parametrize("preset", ["tenhou-4p", "tenhou-3p"])
def test_an_arranged_wall_holds_every_tile_once(preset: str) -> None:
    ruleset = get_ruleset(preset)
    rig = Rig(ruleset, random.Random(5), dealer=1)
    kinds = complete_kinds(rig, 4)
    rig.give(2, kinds[:13])
    rig.draw_at(2, kinds[13])
    hands, indicator, wall = rig.build()
    # Relative seat 2 of a hand dealt by seat 1: its tiles, and its first draw (live draw 2).
    assert sorted(t.kind for t in hands[(1 + 2) % ruleset.players]) == sorted(kinds[:13])
    assert wall.live[2].kind == kinds[13]
    dealt = [tile for hand in hands for tile in hand]
    everything = (
        dealt
        + list(wall.live)
        + list(wall.replacements[: dead_wall_replacements(ruleset)])
        + list(wall.dora_indicators)
        + list(wall.ura_indicators)
    )
    assert sorted(everything) == sorted(tile_set(ruleset))
    assert indicator == wall.dora_indicators[0]


def _suukantsu_wins(game: Game) -> list[RecordedWin]:
    return [
        event.recorded
        for round_ in game.rounds
        for event in round_.events
        if isinstance(event, Win)
        and event.recorded is not None
        and "suukantsu" in dict(event.recorded.yaku or ())
    ]


def test_a_fed_fourth_kan_is_pao_only_where_the_rule_set_lists_suukantsu() -> None:
    # Mahjong Soul's pao is daisangen and daisuushii only (riichi.wiki's Mahjong Soul rules):
    # the suukantsu scenario's fed fourth kan is a plain win there, and the same arranged games
    # hold the feeder liable only under a rule set that adds suukantsu to `pao`.
    majsoul = get_ruleset("majsoul-4p")
    with_pao = majsoul.replace(pao=majsoul.pao | {"suukantsu"})
    liable: dict[str, list[int | None]] = {"majsoul": [], "with_pao": []}
    for number in range(GAMES):
        for label, rules in (("majsoul", majsoul), ("with_pao", with_pao)):
            game = scenario_game(rules, "suukantsu", random.Random(f"suukantsu-pao-{number}"))
            report = replay(game)
            assert report.verdict is Verdict.VERIFIED and report.complete, report.discrepancy
            liable[label] += [win.liable for win in _suukantsu_wins(game)]
    assert liable["majsoul"] and all(seat is None for seat in liable["majsoul"])
    assert any(seat is not None for seat in liable["with_pao"]), liable
