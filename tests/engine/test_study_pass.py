"""The study aids counted in the verification's own replay (engine.replay.replay_and_study,
engine.study.StudyPass): the same report as the replay alone, the same tallies as the study
alone, and a fault of the study's costs the verdict nothing."""

from __future__ import annotations

import pytest

from engine import study as study_module
from engine.events import Game
from engine.formats import canonical
from engine.replay import Verdict, replay, replay_and_study
from engine.study import riichi_study
from tests.engine.corpus import corpus_games

AGREES = (Verdict.VERIFIED, Verdict.VERIFIED_FRAGMENT)


@pytest.mark.corpus
def test_one_pass_gives_the_replay_and_the_study_of_each_alone() -> None:
    verified = disagreeing = 0
    for game in corpus_games(2):
        report, tallies = replay_and_study(game)
        assert report.to_json() == replay(game).to_json()
        if report.verdict in AGREES:
            assert tallies == riichi_study(game)
            verified += 1
        else:
            assert tallies is None
            disagreeing += 1
    assert verified > 20 and disagreeing  # the corpus holds records the rules refuse too


class FaultyStudy:
    """A study pass with a bug (a plain class: the compiled engine's classes cannot be
    patched or subclassed from a test)."""

    def __init__(self, ruleset: object) -> None:
        self.ruleset = ruleset

    def push_round(self, index: int, round_: object, table: object) -> None:
        raise RuntimeError("a bug of the study's")

    def tallies(self) -> list[object]:
        raise AssertionError("a faulty pass has no tallies")


@pytest.mark.corpus
@pytest.mark.skipif(
    not (study_module.__file__ or "").endswith(".py"),
    reason="compiled, the family reaches the study's class directly: it cannot be replaced",
)
def test_a_fault_of_the_study_costs_the_verdict_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    game = next(g for g in corpus_games(3) if replay(g).verdict in AGREES)
    monkeypatch.setattr(study_module, "StudyPass", FaultyStudy)
    report, tallies = replay_and_study(game)
    assert report.to_json() == replay(game).to_json() and report.verdict in AGREES
    assert tallies is None


@pytest.mark.corpus
def test_the_worker_verification_counts_the_study_in_its_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mjlogs import pipeline
    from replay.services import replayed

    game = next(g for g in corpus_games(3) if replay(g).verdict in AGREES)
    document = canonical.game_to_json(game)

    def no_second_study(record: Game, label: str) -> list[object]:
        raise AssertionError("the study was counted apart")

    monkeypatch.setattr(pipeline.statistics(), "study", no_second_study)
    made = replayed(document, None, "a corpus game", study=True)
    assert made.facts is not None
    assert made.study == riichi_study(game)
    assert sum(tally.decisions for tally in made.study) > 100


def test_a_family_without_a_pass_of_its_own_replays_then_studies() -> None:
    from engine.variants.uzje.selfplay import simulate

    (game,) = simulate(1, 5)
    report, tallies = replay_and_study(game)
    assert report.to_json() == replay(game).to_json()
    assert report.verdict in AGREES and tallies is None  # Ùzje counts no shanten


def test_a_record_judged_by_an_older_era_is_studied_apart() -> None:
    from tests.engine.rules.test_tenhou_rules import _dated, _played_on_after_tenpai_at_all_last

    game, _ = _played_on_after_tenpai_at_all_last()
    undated = _dated(game, None)  # today's rules refuse its last hand; an older era's fit
    report, tallies = replay_and_study(undated)
    assert report.era is not None and report.verdict in AGREES
    assert tallies == riichi_study(undated)
