"""benchmarks/score_vs_mahjong.py compares like with like (issue 42): the mahjong script of its
whole-process comparison (benchmarks/mahjong_score_lines.py) scores JSON lines as the engine
does, a disagreement between the two processes' lines is reported, and one small run prints
both ratios."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from benchmarks.score_vs_mahjong import PEER_SCRIPT, ROOT, compare_lines, main
from engine.scoring.request import score_request
from tests.engine.scoring.hands import random_requests
from tests.engine.scoring.mahjong_adapter import differences


def _lines(requests: list[dict[str, object]]) -> str:
    return "".join(json.dumps(request) + "\n" for request in requests)


def test_the_mahjong_script_scores_lines_as_the_engine_does() -> None:
    requests = random_requests(40, 11, "majsoul-4p")
    done = subprocess.run(
        [sys.executable, str(PEER_SCRIPT)],
        input=_lines(requests).encode(),
        capture_output=True,
        cwd=ROOT,
        check=True,
    )
    theirs = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(theirs) == len(requests)
    assert any("error" not in result for result in theirs)
    for request, result in zip(requests, theirs, strict=True):
        assert differences(score_request(request), result) == [], request


def test_a_bad_request_is_an_error_line_and_the_batch_goes_on() -> None:
    from benchmarks.mahjong_score_lines import score_lines

    good = random_requests(1, 2, "tenhou-4p")[0]
    out = io.StringIO()
    score_lines(
        io.BytesIO(b'{"ruleset": "nonesuch", "hand": "1m"}\n' + _lines([good]).encode()), out
    )
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["error"] == "bad_request"
    assert differences(score_request(good), second) == []


def test_the_comparison_of_lines_reports_a_changed_or_missing_line() -> None:
    requests = random_requests(5, 4, "tenhou-4p")
    ours = [score_request(request) for request in requests]
    assert compare_lines(requests, _lines(ours), _lines(ours)) == []

    changed = [dict(result) for result in ours]
    changed[2] = {"error": "no_yaku"} if "error" not in changed[2] else {**ours[0]}
    found = compare_lines(requests, _lines(ours), _lines(changed))
    assert [request for request, _ in found] == [requests[2]]

    assert compare_lines(requests, _lines(ours), _lines(ours[:-1])) == [
        (requests[-1], ["line 5 missing"])
    ]


def test_a_small_run_prints_both_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "60", "--seed", "5", "--shanten-hands", "0"]) == 0
    printed = capsys.readouterr().out
    assert "ratio ours/mahjong (hands/s, in process, scoring alone)" in printed
    assert "ratio engine score / mahjong script (hands/s, whole process)" in printed
    assert "disagreements between the two processes' lines: 0" in printed
