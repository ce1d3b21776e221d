"""``python -m engine score``: one hand from arguments (readable or JSON), or JSON lines on
standard input, with exit statuses. Run as real subprocesses, as a user would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PINFU = ["--hand", "123m45699p345789s", "--win", "5s", "--seat-wind", "S"]


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_score_arguments_readable_output() -> None:
    done = engine("score", *PINFU, "--riichi")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "2 han 30 fu" in out
    assert "riichi" in out
    assert "pinfu" in out
    assert "2000" in out  # non-dealer ron, 2 han 30 fu
    assert "total" in out
    assert done.stderr == ""


def test_small_mahjong_readable_output_speaks_of_points_not_han_and_fu() -> None:
    hand = ("--hand", "123456789m11p234s", "--win", "4s", "--riichi", "--tsumo")
    done = engine("score", "--ruleset", "small-4p", *hand)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # riichi 1, menzen_tsumo 1, pinfu 1, ittsu 2 (seeds/004): paid by each of the three others.
    assert lines[0] == "5 points"
    assert "  riichi" in lines[1] and lines[1].endswith(" 1 point")
    assert any(line.startswith("  ittsu") and line.endswith("2 points") for line in lines)
    assert "han" not in done.stdout and "fu:" not in done.stdout
    assert "paid: S 5, W 5, N 5" in lines and lines[-1] == "total: 15"


def test_score_with_modifiers() -> None:
    hand = ("--ruleset", "minigame-4p", "--hand", "234m55m777p345678s", "--win", "5m", "--tsumo")
    done = engine("score", *hand, "--modifiers", "lucky_sevens", "--json")
    assert done.returncode == 0, done.stderr
    assert {"name": "lucky_seven", "han": 4} in json.loads(done.stdout)["yaku"]
    batch = engine("score", "--modifiers", "lucky_sevens", stdin="{}\n")
    assert batch.returncode == 2 and '"modifiers" field' in batch.stderr
    unknown = engine("score", *hand, "--modifiers", "lucky_sevens,flying")
    assert unknown.returncode == 2  # a usage error, as an unknown rule set
    assert "unknown rule modifier(s): flying; known modifiers: lucky_sevens" in unknown.stderr


def test_score_refuses_a_modifier_the_game_cannot_apply() -> None:
    small = ("--ruleset", "small-4p", "--hand", "123456789m11p234s", "--win", "4s", "--tsumo")
    done = engine("score", *small, "--modifiers", "lucky_sevens")
    assert done.returncode == 2
    assert "lucky_sevens cannot apply to small mahjong (rule set small-4p)" in done.stderr
    uzje = ("--ruleset", "uzje-4p", "--hand", "123t", "--win", "3t")
    done = engine("score", *uzje, "--modifiers", "peek")
    assert done.returncode == 2
    assert "Ùzje mahjong applies no rule modifiers: peek" in done.stderr


def test_score_arguments_json() -> None:
    done = engine("score", *PINFU, "--riichi", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["han"] == 2
    assert result["fu"] == 30
    assert {"name": "riichi", "han": 1} in result["yaku"]
    assert result["total"] == 2000


def test_score_with_melds_dora_and_counters() -> None:
    done = engine(
        "score",
        "--ruleset",
        "tenhou-4p",
        "--hand",
        "45699p345789s",
        "--win",
        "5s",
        "--meld",
        "pon:555z",
        "--dora",
        "8p",
        "--seat-wind",
        "S",
        "--tsumo",
        "--honba",
        "1",
        "--sticks",
        "1",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    names = {y["name"]: y["han"] for y in result["yaku"]}
    assert names == {"haku": 1, "dora": 2}
    # 3 han, 20 + 4 (open honour pon) + 2 (tsumo) = 26 -> 30 fu: 1000/2000, +100 each honba.
    payments = {p["payer"]: p["amount"] for p in result["payments"]}
    assert payments == {"E": 2100, "W": 1100, "N": 1100}
    assert result["sticks"] == 1000
    assert result["total"] == 4300 + 1000


def test_win_defaults_to_the_last_tile_written() -> None:
    done = engine("score", "--hand", "123m45699p789s345s", "--seat-wind", "S", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["wait"] == "ryanmen"


def test_score_error_from_arguments_exits_1_with_a_message() -> None:
    done = engine("score", "--hand", "123m45699p345789s", "--win", "4s")
    assert done.returncode == 1
    assert "no_yaku" in done.stderr
    assert done.stdout == ""


def test_score_error_as_json_exits_1() -> None:
    done = engine("score", "--hand", "123m45699p345789s", "--win", "4s", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"] == "no_yaku"


def test_bad_notation_from_arguments() -> None:
    done = engine("score", "--hand", "123x", "--win", "1m")
    assert done.returncode == 1
    assert "bad_notation" in done.stderr
    assert "'x'" in done.stderr


def test_unknown_ruleset_is_a_usage_error() -> None:
    done = engine("score", *PINFU, "--ruleset", "tenhou-9p")
    assert done.returncode == 2
    assert "tenhou-9p" in done.stderr


def test_no_command_is_a_usage_error() -> None:
    assert engine().returncode == 2


def lines(results: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in results.splitlines()]


def test_json_lines_on_stdin_one_result_per_line_in_order() -> None:
    requests = [
        {"ruleset": "tenhou-4p", "hand": "123m45699p345789s", "win": "5s", "seat_wind": "S"},
        {"ruleset": "tenhou-4p", "hand": "123m45699p345789s", "win": "4s", "seat_wind": "S"},
        {"ruleset": "majsoul-4p", "hand": "119m19p19s1234567z", "win": "1m", "id": "k13"},
        {"ruleset": "no-such-rules", "hand": "1m", "win": "1m"},
    ]
    stdin = "".join(json.dumps(request) + "\n" for request in requests)
    done = engine("score", stdin=stdin)
    assert done.returncode == 0, done.stderr
    results = lines(done.stdout)
    assert len(results) == 4
    assert results[0]["yaku"] == [{"name": "pinfu", "han": 1}]
    assert results[1]["error"] == "no_yaku"
    assert results[2]["id"] == "k13"
    assert results[2]["yakuman"] == 2
    assert results[3]["error"] == "unknown_ruleset"


def test_bad_json_line_gives_an_error_object_and_the_batch_goes_on() -> None:
    good = json.dumps({"ruleset": "tenhou-4p", "hand": "123m45699p345789s", "win": "5s"})
    done = engine("score", stdin=f"{good}\n{{not json\n{good}\n[1, 2]\n")
    assert done.returncode == 0, done.stderr
    results = lines(done.stdout)
    assert len(results) == 4
    assert "error" not in results[0]
    assert results[1]["error"] == "bad_json"
    assert "line 2" in results[1]["message"]
    assert "error" not in results[2]
    assert results[2] == results[0]
    assert results[3]["error"] == "invalid_conditions"


def test_empty_stdin_gives_no_output() -> None:
    done = engine("score", stdin="")
    assert done.returncode == 0
    assert done.stdout == ""


def test_flags_reach_the_request() -> None:
    done = engine("score", *PINFU, "--tsumo", "--double-riichi", "--ippatsu", "--json")
    assert done.returncode == 0, done.stderr
    names = {y["name"] for y in json.loads(done.stdout)["yaku"]}
    assert names == {"menzen_tsumo", "double_riichi", "ippatsu", "pinfu"}


def test_score_lines_survive_hostile_lines() -> None:
    """Deep nesting, a huge number and bytes that are not UTF-8 each get an error line."""
    good = json.dumps({"ruleset": "tenhou-4p", "hand": "123m45699p345789s", "win": "5s"})
    lines = b"\n".join([b"[" * 100_000, b"[" + b"9" * 5000 + b"]", b"\xff\xfe", good.encode()])
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score"],
        input=lines + b"\n",
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [result.get("error") for result in results] == ["bad_json", "bad_json", "bad_json", None]
    assert "UTF-8" in results[2]["message"]
    assert results[3]["han"] == 1


def test_lines_orjson_refuses_are_read_and_worded_as_json_reads_them() -> None:
    """The batch reads lines with orjson when it is installed, and gives json what orjson
    refuses: a number beyond 64 bits, NaN, a line that is not UTF-8, a line that is no JSON."""
    good = {"ruleset": "tenhou-4p", "hand": "123m45699p345789s", "win": "5s"}
    huge = json.dumps(good | {"honba": 2**70})
    nan = json.dumps(good | {"sticks": float("nan")})
    stdin = f"{json.dumps(good)}\n{huge}\n{nan}\n\xff\n\n"
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score"],
        input=stdin.encode("latin-1"),
        capture_output=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    results = lines(done.stdout.decode())
    assert len(results) == 5 and "error" not in results[0]
    assert results[1]["message"] == "honba must be a whole number 0-1000, got 'a huge number'"
    assert results[2]["error"] == "invalid_conditions" and "sticks" in results[2]["message"]
    assert results[3] == {"error": "bad_json", "message": "line 4 is not UTF-8 text"}
    assert results[4]["error"] == "bad_json" and "line 5 is not JSON" in results[4]["message"]


def test_the_notation_memo_keeps_no_long_text() -> None:
    from engine.scoring import request

    request._tiles_memo.cache_clear()
    hand = {"ruleset": "tenhou-4p", "hand": "123m45699p345789s", "win": "5s"}
    assert request.score_request(hand) == request.score_request(dict(hand))
    assert request._tiles_memo.cache_info().hits >= 1
    long_hand = hand | {"hand": " " * 80 + "123m45699p345789s"}  # spaces are allowed
    kept = request._tiles_memo.cache_info().currsize
    assert request.score_request(long_hand) == request.score_request(hand)
    assert request._tiles_memo.cache_info().currsize == kept
    bad = hand | {"hand": "123x"}
    assert request.score_request(bad)["error"] == request.score_request(bad)["error"]
