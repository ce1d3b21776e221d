"""Every real game in the corpus replays: each action legal, each recorded figure equal to ours."""

from __future__ import annotations

import pytest

from engine.formats import read_games
from engine.replay import Verdict, replay
from tests.engine.corpus import CorpusFile, corpus_dir, manifest

pytestmark = pytest.mark.corpus

FILES = manifest()


def _id(entry: CorpusFile) -> str:
    return f"{entry.format}/{entry.path.parent.name}/{entry.name}"


@pytest.mark.parametrize("entry", FILES or [None], ids=_id if FILES else None)
def test_corpus_game_verifies(entry: CorpusFile | None) -> None:
    corpus_dir()
    assert entry is not None
    games, _ = read_games(entry.path.read_bytes())
    assert len(games) == 1
    report = replay(games[0])
    if entry.complete:
        assert report.verdict is Verdict.VERIFIED, report.discrepancy and report.discrepancy.message
        assert report.complete
        assert len(report.rounds) == entry.rounds
        assert report.final_scores is not None
        assert (
            sum(report.final_scores)
            == sum(games[0].rounds[0].scores) + 1000 * games[0].rounds[0].sticks
        )
    else:
        # Fragments cut out of games by converter projects, some edited by hand: two of them
        # contradict the rules they declare (four plain 5s with red fives on; a riichi stick
        # missing from a win's payments), so they are not required to verify. Each must replay
        # to a verdict, and a fragment that verifies is complete only if it reaches the end.
        assert report.verdict is not Verdict.UNSUPPORTED
        if report.verdict in (Verdict.VERIFIED, Verdict.VERIFIED_FRAGMENT):
            # A record verified whole says so only when it reaches the end; else it says
            # which part it holds.
            assert report.complete == (report.verdict is Verdict.VERIFIED)
            assert (report.fragment is None) == report.complete
        else:
            assert report.discrepancy is not None and report.discrepancy.message


def test_corpus_facts_add_up() -> None:
    """Each hand's facts agree with its result: one winner row per win, deltas sum to zero
    apart from riichi sticks, dealt-in rows only for rons."""
    corpus_dir()
    for entry in FILES:
        if not entry.complete or entry.format != "mjlog_xml":
            continue
        games, _ = read_games(entry.path.read_bytes())
        report = replay(games[0])
        for summary in report.rounds:
            rows = [fact for fact in report.facts if fact.round == summary.index]
            assert len(rows) == entry.players
            assert sum(fact.won for fact in rows) == len(summary.wins)
            rons = [win for win in summary.wins if win.seat != win.from_seat]
            assert sum(fact.dealt_in for fact in rows) == len({win.from_seat for win in rons})
            assert sum(fact.delta for fact in rows) % 1000 == 0
