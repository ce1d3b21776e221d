"""benchmarks/study_cost.py runs without the comparison with the plain definition
(``--plain 0`` divided by zero: issue 42), and with it on a few real games."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.study_cost import main

GAMES = (
    Path(__file__).resolve().parents[1] / "data" / "real" / "mjlog_xml" / "kamatama41__tenhou-go"
)


@pytest.mark.parametrize("plain", ["0", "20"])
def test_the_study_cost_runs(plain: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(GAMES), "--repeat", "1", "--plain", plain]) == 0
    printed = capsys.readouterr().out
    assert "the study aids in the verification's pass" in printed
    assert "x the replay" in printed
    assert ("plain definition" in printed) == (plain != "0")
