"""What a replay proves: a whole game (``verified``), whatever points it started with, or only the
part of a game a record holds (``verified_fragment``, and which part)."""

from __future__ import annotations

import dataclasses
import random

from engine.events import FinalResult, Game
from engine.replay import Verdict, replay
from engine.rules import get_ruleset
from engine.sim.bots import GreedyBot
from engine.sim.selfplay import play_game, simulate


def _at_30000() -> Game:
    """A self-played Tenhou game whose players started with 30,000 (a custom lobby's), its
    header naming plain ``tenhou-4p`` as a converter that does not write the starting points
    would."""
    ruleset = get_ruleset("tenhou-4p").replace(
        starting_points=30000, target_points=30000, points_base=30000
    )
    game = play_game(ruleset, [GreedyBot() for _ in range(4)], random.Random("at-30000"))
    assert game.rounds[0].scores == (30000,) * 4
    return dataclasses.replace(game, header=dataclasses.replace(game.header, rule_overrides={}))


def test_a_whole_game_from_other_starting_points_is_verified_whole_and_says_what_it_assumed() -> (
    None
):
    report = replay(_at_30000())
    assert report.verdict is Verdict.VERIFIED
    assert report.complete and report.fragment is None
    assert report.final_scores is not None and sum(report.final_scores) == 120000
    assert any("starts at 30,000 points" in line for line in report.warnings)
    assert report.points is None  # by rules the record does not state


def test_its_end_is_checked() -> None:
    game = _at_30000()
    assert game.recorded_final is not None
    scores = list(game.recorded_final.scores)
    scores[0] += 1000
    scores[1] -= 1000
    report = replay(dataclasses.replace(game, recorded_final=FinalResult(tuple(scores))))
    assert report.verdict is Verdict.SCORE_MISMATCH
    assert report.discrepancy is not None and report.discrepancy.what == "final scores"


def _self_played() -> Game:
    (game,) = simulate("tenhou-4p", 1, seed=7)
    assert len(game.rounds) > 3
    return game


def test_a_record_that_starts_later_is_a_verified_fragment_naming_its_hands() -> None:
    game = _self_played()
    later = dataclasses.replace(game, rounds=game.rounds[2:])
    report = replay(later)
    assert report.verdict is Verdict.VERIFIED_FRAGMENT
    assert not report.complete
    assert report.fragment is not None
    assert "starts after the game's first hand" in report.fragment
    assert f"{len(game.rounds) - 2} hands" in report.fragment
    assert report.to_json()["verdict"] == "verified_fragment"


def test_a_record_that_stops_early_is_a_verified_fragment() -> None:
    game = _self_played()
    cut = dataclasses.replace(game, rounds=game.rounds[:2], recorded_final=None)
    report = replay(cut)
    assert report.verdict is Verdict.VERIFIED_FRAGMENT
    assert report.fragment is not None and "stops before the end" in report.fragment


def test_a_whole_game_is_verified_with_no_fragment() -> None:
    report = replay(_self_played())
    assert report.verdict is Verdict.VERIFIED
    assert report.complete and report.fragment is None
    assert report.points is not None and round(sum(report.points), 1) == 0


def test_a_fragment_that_disagrees_keeps_its_discrepancys_verdict() -> None:
    game = _self_played()
    later = game.rounds[2:]
    first = dataclasses.replace(
        later[0], scores=tuple(s + 100 * i for i, s in enumerate(later[0].scores))
    )
    report = replay(dataclasses.replace(game, rounds=(first, *later[1:])))
    # A fragment starts from its own scores: the next hand's start no longer follows.
    assert report.verdict is Verdict.SCORE_MISMATCH
