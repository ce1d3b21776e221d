"""``python -m engine score`` and ``simulate`` speak small mahjong, as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.engine.test_cli_games import run


def test_score_one_hand() -> None:
    # seeds/004 line 83 and lines 106-108: a tsumo with Win from Stock, All Middles and All
    # Sequences is 3 points from each of the three others.
    result = run(
        "score", "--ruleset", "small-4p", "--hand", "234567m456p678s55s", "--win", "7m",
        "--tsumo", "--seat-wind", "S", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["yaku"] == [
        {"name": "menzen_tsumo", "han": 1},
        {"name": "tanyao", "han": 1},
        {"name": "pinfu", "han": 1},
    ]
    assert answer["han"] == 3 and answer["fu"] == 0 and answer["limit"] is None
    assert sorted((p["payer"], p["amount"]) for p in answer["payments"]) == [
        ("E", 3),
        ("N", 3),
        ("W", 3),
    ]
    assert answer["total"] == 9


def test_score_lines_of_json() -> None:
    # seeds/004 line 81: a ron is paid by the discarder alone, times the opponents (Reach and
    # Nine Gates: the special condition replaces Reach, line 123); line 90: no ron without reach.
    requests = [
        {"ruleset": "small-4p", "hand": "11123455678999m", "win": "5m", "riichi": True,
         "seat_wind": "S", "discarder": "E"},
        {"ruleset": "small-4p-4", "hand": "55m123p", "win": "1p", "discarder": "E",
         "seat_wind": "S"},
        {"ruleset": "small-4p-4", "hand": "55m123z", "win": "1z", "tsumo": True},
    ]  # fmt: skip
    stdin = "".join(json.dumps(request) + "\n" for request in requests).encode()
    result = run("score", stdin=stdin)
    assert result.returncode == 0
    nine_gates, no_reach, honours = map(json.loads, result.stdout.decode().splitlines())
    assert nine_gates["yaku"] == [{"name": "chuuren", "han": 16}]
    assert nine_gates["payments"] == [{"payer": "E", "amount": 48}]
    assert no_reach["error"] == "invalid_conditions" and "riichi" in no_reach["message"]
    assert honours["error"] == "invalid_hand"


def test_simulate_writes_small_games_that_verify(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run("simulate", "--ruleset", "small-4p", "--games", "3", "--seed", "5", "-o", str(out))
    assert result.returncode == 0, result.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    assert all(json.loads(line)["ruleset"] == "small-4p" for line in lines)
    verified = run("verify", "--json", str(out))
    reports = [json.loads(line) for line in verified.stdout.decode().splitlines()]
    assert [report["verdict"] for report in reports] == ["verified"] * 3
    assert verified.returncode == 0
