"""``python -m engine verify``, ``convert`` and ``simulate`` as a user runs them."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.corpus import CORPUS, corpus_dir

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=300,
        check=False,
    )


@pytest.mark.corpus
def test_verify_json_lines_over_a_folder() -> None:
    corpus_dir()
    result = run("verify", "--json", str(CORPUS / "mjlog_xml" / "mjx-project__mjx"))
    lines = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(lines) == len(list((CORPUS / "mjlog_xml" / "mjx-project__mjx").iterdir()))
    for line in lines:
        assert {"path", "game", "format", "verdict", "discrepancy"} <= set(line)
        assert line["format"] == "mjlog"
        # Whole games verified; the cut ones (no round end, no game end) as what they are.
        whole = "no-game-end" not in line["path"] and "no-round-end" not in line["path"]
        assert line["verdict"] == ("verified" if whole else "verified_fragment"), line
        assert (line["fragment"] is None) == whole
    assert result.returncode == 0
    assert b"verified" in result.stderr  # the summary


@pytest.mark.corpus
def test_verify_fails_on_a_broken_record(tmp_path: Path) -> None:
    corpus_dir()
    original = next((CORPUS / "mjlog_xml" / "mjx-project__mjx").glob("*.mjlog"))
    text = (
        gzip.decompress(original.read_bytes())
        if original.read_bytes()[:2] == b"\x1f\x8b"
        else original.read_bytes()
    )
    # Put a 9 before the first recorded win's fu (30 fu becomes 930 fu).
    agari = text.index(b"<AGARI")
    ten = text.index(b'ten="', agari) + len(b'ten="')
    broken = text[:ten] + b"9" + text[ten:]
    (tmp_path / "broken.mjlog").write_bytes(broken)
    (tmp_path / "good.mjlog").write_bytes(text)
    # An mjlog cut off after its first round starts: it is one (sniffed), and unreadable.
    (tmp_path / "cut.mjlog").write_bytes(text[: text.index(b"<INIT") + 20])
    # Not JSON of any record format: no game record at all, so skipped (not a failure).
    (tmp_path / "garbage.json").write_bytes(b"{not json")
    result = run("verify", "--json", str(tmp_path))
    verdicts = {
        Path(json.loads(line)["path"]).name: json.loads(line)
        for line in result.stdout.decode().splitlines()
    }
    assert verdicts["good.mjlog"]["verdict"] == "verified"
    assert verdicts["cut.mjlog"]["verdict"] == "malformed"
    assert verdicts["cut.mjlog"]["discrepancy"]["message"]
    assert verdicts["garbage.json"]["verdict"] == "skipped"
    assert verdicts["broken.mjlog"]["verdict"] == "score_mismatch"
    assert "fu" in verdicts["broken.mjlog"]["discrepancy"]["message"]
    assert result.returncode == 1


@pytest.mark.corpus
def test_convert_round_trip_through_tenhou6_and_mjai(tmp_path: Path) -> None:
    corpus_dir()
    original = next((CORPUS / "mjlog_xml" / "mjx-project__mjx").glob("*.mjlog"))
    for target in ("tenhou6", "mjai", "canonical"):
        out = tmp_path / f"game.{target}"
        result = run("convert", "--to", target, str(original), "-o", str(out))
        assert result.returncode == 0, result.stderr.decode()
        check = run("verify", "--json", str(out))
        line = json.loads(check.stdout)
        assert line["format"] == target
        assert line["verdict"] == "verified", line


def test_simulate_writes_games_that_verify(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run(
        "simulate", "--ruleset", "tenhou-4p", "--games", "3", "--seed", "7", "-o", str(out)
    )
    assert result.returncode == 0, result.stderr.decode()
    assert len(out.read_text().splitlines()) == 3
    check = run("verify", "--json", str(out))
    lines = [json.loads(line) for line in check.stdout.decode().splitlines()]
    assert [line["verdict"] for line in lines] == ["verified"] * 3
    assert check.returncode == 0


def test_simulate_with_modifiers_writes_games_that_use_them_and_verify(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run(
        "simulate", "--ruleset", "minigame-4p", "--games", "2", "--seed", "1",
        "--modifiers", "second_chance, swap,peek", "-o", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr.decode()
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert [game["rule_overrides"] for game in games] == [
        {"modifiers": ["second_chance", "swap", "peek"]}
    ] * 2
    events = [e["type"] for g in games for r in g["rounds"] for e in r["events"]]
    assert "swap" in events
    check = run("verify", "--json", str(out))
    lines = [json.loads(line) for line in check.stdout.decode().splitlines()]
    assert [line["verdict"] for line in lines] == ["verified"] * 2
    assert check.returncode == 0


def test_simulate_with_a_power_per_seat_writes_games_that_verify(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run(
        "simulate", "--ruleset", "minigame-4p", "--games", "2", "--seed", "3",
        "--seat-powers", "swap, second_chance,none,lucky_sevens", "-o", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr.decode()
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert [game["rule_overrides"] for game in games] == [
        {"seat_powers": ["swap", "second_chance", None, "lucky_sevens"]}
    ] * 2
    swaps = {
        e["seat"] for g in games for r in g["rounds"] for e in r["events"] if e["type"] == "swap"
    }
    assert swaps == {0}
    check = run("verify", "--json", str(out))
    lines = [json.loads(line) for line in check.stdout.decode().splitlines()]
    assert [line["verdict"] for line in lines] == ["verified"] * 2
    refused = run("simulate", "--ruleset", "minigame-4p", "--seat-powers", "swap,peek")
    assert refused.returncode == 2 and refused.stdout == b""
    assert "minigame-4p has 4 seats, not 2 (seat 0 swap, seat 1 peek)" in refused.stderr.decode()


@pytest.mark.parametrize(
    ("ruleset", "modifiers", "message"),
    [
        ("tenhou-4p", "flying", "unknown rule modifier(s): flying; known modifiers: lucky_sevens"),
        ("small-4p", "lucky_sevens", "lucky_sevens cannot apply to small mahjong"),
        ("uzje-4p", "peek", "Ùzje mahjong applies no rule modifiers: peek"),
    ],
)
def test_simulate_refuses_a_modifier_it_cannot_apply(
    ruleset: str, modifiers: str, message: str
) -> None:
    result = run("simulate", "--ruleset", ruleset, "--modifiers", modifiers)
    assert result.returncode == 2
    assert result.stdout == b""
    assert message in result.stderr.decode()


def test_convert_refuses_an_unknown_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"[1, 2, 3]")
    result = run("convert", "--to", "mjai", str(path))
    assert result.returncode == 1
    assert b"error" in result.stderr
