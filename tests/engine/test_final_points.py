"""Final points (engine.game_flow.final_points) against what real records state, and the replay
comparing them with a record's."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.events import FinalResult, Game
from engine.formats.mjlog import log_id_from_name, read_mjlog
from engine.game_flow import final_points
from engine.replay import Verdict, replay
from engine.rules import get_ruleset
from engine.rules.ruleset import PointsRounding

REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def _owari(text: str) -> tuple[list[int], tuple[int, ...]]:
    """(scores, points in tenths) of an ``owari`` attribute."""
    values = text.split(",")
    scores = [int(value) * 100 for value in values[0::2]]
    return scores, tuple(round(float(value) * 10) for value in values[1::2])


# Owari attributes of real Tenhou games (the date and lobby beside each).
ROUNDED_4P = [
    "209,-29.0,237,-16.0,315,41.0,239,4.0",  # 2010s, houou: 20,900 -> 21 - 30 - 20 uma
    "55,-44.0,571,66.0,206,1.0,168,-23.0",  # 5,500 rounds to 6: -24 - 20
    "170,-3.0,90,-31.0,-5,-51.0,745,85.0",  # 2020-01-01: -500 rounds to -1: -31 - 20
    "389,19.0,-15,-52.0,201,-20.0,425,53.0",  # 2021-07-01: -1,500 rounds to -2
    "662,77.0,52,-35.0,331,13.0,-45,-55.0",  # 2016-09-09: -4,500 rounds to -5
]
ROUNDED_3P = [
    "592,54.0,228,-37.0,230,-17.0,0,0.0",  # 2014-09-11 sanma: uma 20, 0, -20; oka 15
    "834,79.0,411,1.0,-195,-80.0,0,0.0",  # 2020-01-01 sanma: -19,500 rounds to -20
]
EXACT_4P = ["538,63.8,161,-23.9,293,9.3,8,-49.2"]  # 2023-05-30 tokujou: to the hundred


@pytest.mark.parametrize("owari", ROUNDED_4P)
def test_tenhou_points_rounded_to_thousands(owari: str) -> None:
    scores, points = _owari(owari)
    ruleset = get_ruleset("tenhou-4p").replace(points_rounding=PointsRounding.THOUSANDS)
    assert final_points(scores, ruleset) == (points,)


@pytest.mark.parametrize("owari", ROUNDED_3P)
def test_tenhou_sanma_points_rounded_to_thousands(owari: str) -> None:
    scores, points = _owari(owari)
    scores = scores[:3]
    ruleset = get_ruleset("tenhou-3p").replace(points_rounding=PointsRounding.THOUSANDS)
    assert final_points(scores, ruleset) == (points[:3],)


@pytest.mark.parametrize("owari", EXACT_4P)
def test_tenhou_points_to_the_hundred_today(owari: str) -> None:
    scores, points = _owari(owari)
    today = get_ruleset("tenhou-4p").replace(points_rounding=PointsRounding.EXACT)
    assert final_points(scores, today) == (points,)


def test_either_rounding_gives_both_ways() -> None:
    scores, _ = _owari(EXACT_4P[0])
    ruleset = get_ruleset("tenhou-4p").replace(points_rounding=PointsRounding.EITHER)
    exact, rounded = final_points(scores, ruleset)
    assert exact == (638, -239, 93, -492)
    assert rounded == (640, -240, 90, -490)


def test_mahjong_soul_points_count_from_the_start_without_oka() -> None:
    # Mahjong Soul games converted to tenhou.net/6 (tests/data/real, kbkn3 and hidacow).
    assert final_points([7200, 52400, 15500, 24900], get_ruleset("majsoul-4p")) == (
        (-328, 424, -145, 49),
    )
    assert final_points([83000, -13000, 35000], get_ruleset("majsoul-3p")) == ((630, -630, 0),)


def test_equal_scores_rank_by_seat_from_the_first_dealer() -> None:
    points = final_points([25000] * 4, get_ruleset("tenhou-4p"))[0]
    assert points == (350, 50, -150, -250)  # -5 + 20 + 20 oka, -5 + 10, -5 - 10, -5 - 20


# -- the replay ---------------------------------------------------------------------------------

GAME = REAL / "mjlog_xml" / "Apricot-S__mahjax" / "2021070117gm-00a9-0000-0f750657.mjlog"


@pytest.fixture()
def real_game() -> Game:
    if not GAME.exists():
        pytest.skip(f"{GAME} is missing")
    return read_mjlog(GAME.read_bytes(), log_id_from_name(GAME.name))


def test_a_real_game_verifies_with_its_points(real_game: Game) -> None:
    report = replay(real_game)
    assert report.verdict is Verdict.VERIFIED
    assert report.points is not None
    assert report.points == list(real_game.recorded_final.results)


def test_a_changed_final_point_is_a_score_mismatch_naming_the_points(real_game: Game) -> None:
    recorded = real_game.recorded_final
    results = list(recorded.results)
    results[0] += 1.0
    results[1] -= 1.0
    changed = dataclasses.replace(
        real_game, recorded_final=FinalResult(recorded.scores, tuple(results))
    )
    report = replay(changed)
    assert report.verdict is Verdict.SCORE_MISMATCH
    assert report.discrepancy is not None
    assert report.discrepancy.what == "final points"
    assert report.discrepancy.round == len(real_game.rounds) - 1


def test_the_game_date_chooses_the_rounding(real_game: Game) -> None:
    # The same record read as undated (either way of rounding allowed) and as a 2023 game
    # (points to the hundred: its whole-thousand points no longer fit).
    undated = read_mjlog(GAME.read_bytes())
    assert replay(undated).verdict is Verdict.VERIFIED
    later = read_mjlog(GAME.read_bytes(), "2023010100gm-00a9-0000-0f750657")
    report = replay(later)
    assert report.verdict is Verdict.SCORE_MISMATCH
    assert report.discrepancy is not None and report.discrepancy.what == "final points"


def test_unchecked_points_give_no_way_and_the_replay_reports_none() -> None:
    unchecked = get_ruleset("tenhou-4p").replace(points_rounding=PointsRounding.UNCHECKED)
    assert final_points([25000] * 4, unchecked) == ()
