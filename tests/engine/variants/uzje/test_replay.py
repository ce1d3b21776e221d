"""Replaying Ùzje records: generated games verify, and one change to a record gives the right
verdict at the right place (the first bad event, with the rule it breaks)."""

from __future__ import annotations

import dataclasses
from typing import cast

import pytest

from engine.events import (
    Discard,
    Draw,
    Event,
    FinalResult,
    Game,
    GameHeader,
    Player,
    RecordedWin,
    Round,
    Win,
)
from engine.game_flow import whole_points
from engine.replay import Verdict
from engine.variants.uzje import tiles as T
from engine.variants.uzje.events import Chow
from engine.variants.uzje.replay import replay
from engine.variants.uzje.selfplay import simulate


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return simulate(4, 21)


def with_event(game: Game, round_index: int, event_index: int, event: object) -> Game:
    round_ = game.rounds[round_index]
    events = list(round_.events)
    events[event_index] = cast(Event, event)
    rounds = list(game.rounds)
    rounds[round_index] = dataclasses.replace(round_, events=tuple(events))
    return dataclasses.replace(game, rounds=tuple(rounds))


def find(game: Game, kind: type, start: int = 0) -> tuple[int, int, object]:
    for r, round_ in enumerate(game.rounds[start:], start=start):
        for e, event in enumerate(round_.events):
            if isinstance(event, kind):
                return r, e, event
    raise LookupError(kind)


def test_generated_games_verify(games: list[Game]) -> None:
    for game in games:
        report = replay(game)
        assert report.verdict is Verdict.VERIFIED, report.discrepancy
        assert report.complete and report.final_scores == list(game.recorded_final.scores)  # type: ignore[union-attr]
        assert sum(report.final_scores) == 0
        assert len(report.rounds) == len(game.rounds)
        assert len(report.facts) == 4 * len(game.rounds)


def test_facts_add_up(games: list[Game]) -> None:
    report = replay(games[0])
    for summary in report.rounds:
        facts = [f for f in report.facts if f.round == summary.index]
        # The facts count whole points (a half rounded away from zero); the summary is exact.
        assert [f.delta for f in facts] == [whole_points(delta) for delta in summary.deltas]
        assert sum(f.won for f in facts) == len(summary.wins)
        for win in summary.wins:
            assert facts[win.seat].win_points == whole_points(win.deltas[win.seat])
            if win.seat != win.from_seat:
                assert facts[win.from_seat].dealt_in


def test_a_discard_not_held_is_illegal(games: list[Game]) -> None:
    game = games[0]
    r, e, event = find(game, Discard)
    assert isinstance(event, Discard)
    held = {T.kind_of(t) for t in game.rounds[r].hands[event.seat]}
    stranger = next(k for k in range(16, 48) if k not in held)
    report = replay(with_event(game, r, e, Discard(event.seat, T.tile(stranger))))
    assert report.verdict is Verdict.ILLEGAL_ACTION
    assert report.discrepancy is not None
    assert (report.discrepancy.round, report.discrepancy.event) == (r, e)
    assert "but holds 0" in report.discrepancy.message


def test_a_draw_not_from_the_wall_is_illegal(games: list[Game]) -> None:
    game = games[0]
    r, e, event = find(game, Draw)
    assert isinstance(event, Draw)
    other = T.tile(T.ZERO if T.kind_of(event.tile) != T.ZERO else T.EAST)
    report = replay(with_event(game, r, e, Draw(event.seat, other)))
    assert report.verdict is Verdict.ILLEGAL_ACTION
    assert report.discrepancy is not None and report.discrepancy.event == e
    assert "front of the wall" in report.discrepancy.message


def test_a_chow_from_the_wrong_seat_is_illegal(games: list[Game]) -> None:
    for game in games:
        try:
            r, e, event = find(game, Chow)
        except LookupError:
            continue
        assert isinstance(event, Chow)
        wrong = dataclasses.replace(event, seat=(event.seat + 1) % 4)
        report = replay(with_event(game, r, e, wrong))
        assert report.verdict is Verdict.ILLEGAL_ACTION
        assert report.discrepancy is not None and report.discrepancy.event == e
        return
    pytest.fail("no chow in the games")


def test_wrong_points_are_a_score_mismatch_and_the_replay_goes_on(games: list[Game]) -> None:
    game = games[0]
    r, e, event = find(game, Win)
    assert isinstance(event, Win) and event.recorded is not None
    wrong = dataclasses.replace(event.recorded, points=(event.recorded.points or 0) + 1)
    report = replay(with_event(game, r, e, dataclasses.replace(event, recorded=wrong)))
    assert report.verdict is Verdict.SCORE_MISMATCH
    assert report.discrepancy is not None and report.discrepancy.event == e
    assert "points" in report.discrepancy.message
    assert report.complete and len(report.discrepancies) == 1


def test_wrong_patterns_and_fan(games: list[Game]) -> None:
    game = games[0]
    r, e, event = find(game, Win)
    assert isinstance(event, Win) and event.recorded is not None
    wrong = RecordedWin(han=999, yaku=(("purity", 60),))
    report = replay(with_event(game, r, e, dataclasses.replace(event, recorded=wrong)))
    whats = [d.what for d in report.discrepancies]
    assert any("patterns" in w for w in whats) and any("fan" in w for w in whats)


def test_final_scores_and_truncation(games: list[Game]) -> None:
    game = games[1]
    final = game.recorded_final
    assert final is not None
    changed = dataclasses.replace(
        game, recorded_final=FinalResult(tuple(s + 1 for s in final.scores))
    )
    assert replay(changed).verdict is Verdict.SCORE_MISMATCH
    cut = dataclasses.replace(game, rounds=game.rounds[:3], recorded_final=None)
    report = replay(cut)
    assert report.verdict is Verdict.VERIFIED_FRAGMENT and not report.complete
    half = dataclasses.replace(game.rounds[2], events=game.rounds[2].events[:10])
    report = replay(dataclasses.replace(game, rounds=(*game.rounds[:2], half), recorded_final=None))
    assert report.verdict is Verdict.VERIFIED_FRAGMENT and not report.complete


def test_a_record_that_starts_later_is_a_fragment_that_says_so(games: list[Game]) -> None:
    # The shared replay loop (engine.report.ReplayDriver) names the part of the match held in
    # Ùzje's words, as riichi's does in its own.
    game = games[1]
    late = dataclasses.replace(game, rounds=game.rounds[2:3], recorded_final=None)
    report = replay(late)
    assert report.verdict is Verdict.VERIFIED_FRAGMENT and not report.complete
    assert report.fragment is not None
    assert "starts after the match's first game" in report.fragment
    assert f"(1 game, {game.rounds[2].name})" in report.fragment
    assert len(report.rounds) == 1


def test_start_scores_are_checked(games: list[Game]) -> None:
    game = games[0]
    second = game.rounds[1]
    bad: Round = dataclasses.replace(second, scores=tuple(s + 10 for s in second.scores))
    report = replay(dataclasses.replace(game, rounds=(game.rounds[0], bad, *game.rounds[2:])))
    assert report.verdict is Verdict.SCORE_MISMATCH
    assert report.discrepancy is not None and report.discrepancy.what == "start scores"


def test_unknown_rules_and_wrong_player_count(games: list[Game]) -> None:
    game = games[0]
    unknown = dataclasses.replace(game, header=dataclasses.replace(game.header, ruleset="uzje-9p"))
    assert replay(unknown).verdict is Verdict.UNSUPPORTED
    header: GameHeader = dataclasses.replace(
        game.header, players=(Player("a"), Player("b"), Player("c"))
    )
    assert replay(dataclasses.replace(game, header=header)).verdict is Verdict.MALFORMED
