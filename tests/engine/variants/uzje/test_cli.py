"""``python -m engine score/simulate/verify`` speak Ùzje when the rule set is an Ùzje preset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_score_values_a_hand_by_the_documents_table(capsys: pytest.CaptureFixture[str]) -> None:
    # 123s 456s 789s (three ariths of difference 1) 234m, pair 11m, self-drawn and closed:
    # self-draw 1 f + closed hand 2.6 f + single differences 1.4 f = 5 f (seeds/002 lines
    # 173-186, 271-274); 5 f is 10 points (line 120), half from each other player (line 134).
    code, out, _ = run(
        capsys, "score", "--ruleset", "uzje-4p", "--hand", "123s456s789s11m234m", "--win", "1m",
        "--tsumo", "--json",
    )  # fmt: skip
    result = json.loads(out)
    assert code == 0
    assert result["fan"] == 5
    assert result["points"] == 10
    assert result["paid"] == {"each": 5, "payers": 3}
    names = {pattern["name"] for pattern in result["patterns"]}
    assert {"self_draw", "closed_hand", "single_differences"} <= names


def test_score_refuses_a_hand_that_is_not_complete(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "score", "--ruleset", "uzje-4p", "--hand", "123s456s789s11m235m", "--win", "1m"
    )
    assert code == 1
    assert "no winning hand" in err


def test_score_refuses_a_meld_that_is_no_meld(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "score", "--ruleset", "uzje-4p", "--hand", "456s789s11m234m", "--win", "1m",
        "--meld", "open:125s",
    )  # fmt: skip
    assert code == 1
    assert "'125s' is not a trip, quad, arith, gem or power" in err


def test_simulate_then_verify(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "uzje.jsonl"
    code, _, _ = run(
        capsys, "simulate", "--ruleset", "uzje-5p", "--games", "2", "--seed", "3", "-o",
        str(target),
    )  # fmt: skip
    assert code == 0
    lines = target.read_text().splitlines()
    assert [json.loads(line)["ruleset"] for line in lines] == ["uzje-5p", "uzje-5p"]
    code, out, _ = run(capsys, "verify", str(target))
    assert code == 0
    assert out.count(": verified") == 2


@pytest.mark.parametrize("win", ["1m2m", "5t", ""])
def test_score_refuses_a_winning_tile_that_is_not_one_of_the_hand(
    capsys: pytest.CaptureFixture[str], win: str
) -> None:
    code, _, err = run(
        capsys, "score", "--ruleset", "uzje-4p", "--hand", "123s456s789s11m234m", "--win", win
    )
    assert code == 1
    assert "must be one of the hand's tiles" in err
