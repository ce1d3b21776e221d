"""Real records from other public repositories (tests/data/real, with its manifest): each gets the
verdict the manifest expects, and the rules behind the verdicts are the ones of where and when
the game was played (docs/rules.md).

``agrees``: a whole game is ``verified`` (its end, final scores and final points included) and
part of a game ``verified_fragment``; ``record error``: the replay finds the discrepancy;
``unsupported``: the reader or the replay says so, naming what it does not read.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from engine.errors import UnsupportedLogError
from engine.formats import read_games
from engine.replay import Verdict, replay

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
MANIFEST = REAL / "MANIFEST.tsv"


def _rows() -> list[dict[str, str]]:
    with MANIFEST.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


ROWS = _rows() if MANIFEST.exists() else []


@pytest.mark.parametrize("row", ROWS, ids=[row["path"] for row in ROWS])
def test_each_real_record_gets_the_verdict_its_manifest_expects(row: dict[str, str]) -> None:
    data = (REAL / row["path"]).read_bytes()
    expected = row["expected"]
    if expected.startswith("unsupported"):
        with pytest.raises(UnsupportedLogError):
            read_games(data, file_name=Path(row["path"]).name)
        return
    games, _ = read_games(data, file_name=Path(row["path"]).name)
    assert games
    for game in games:
        report = replay(game)
        message = report.discrepancy.message if report.discrepancy else ""
        if expected.startswith("record error"):
            assert report.verdict in (Verdict.SCORE_MISMATCH, Verdict.ILLEGAL_ACTION), message
            continue
        assert expected == "agrees"
        assert report.verdict in (Verdict.VERIFIED, Verdict.VERIFIED_FRAGMENT), message
        # A record that holds its game's end is a whole game, checked to the end.
        if game.recorded_final is not None and report.fragment is None:
            assert report.verdict is Verdict.VERIFIED
            assert report.complete and report.final_scores is not None


def test_the_manifest_lists_every_file_with_its_checksum() -> None:
    import hashlib

    if not ROWS:
        pytest.skip("tests/data/real/MANIFEST.tsv is missing")
    listed = {row["path"] for row in ROWS}
    present = {
        str(path.relative_to(REAL))
        for path in REAL.rglob("*")
        if path.is_file() and path.name not in ("MANIFEST.tsv", "README.md")
    }
    assert listed == present
    for row in ROWS:
        digest = hashlib.sha256((REAL / row["path"]).read_bytes()).hexdigest()
        assert digest == row["sha256"], row["path"]


def test_whole_tenhou_games_are_verified_with_their_final_points() -> None:
    """Every whole game from Tenhou's ranked lobbies is verified with the points the record
    states: the rules of its lobby and its date are right (at least 100 games)."""
    checked = 0
    for row in ROWS:
        if row["format"] != "mjlog_xml" or row["expected"] != "agrees":
            continue
        path = REAL / row["path"]
        (game,), _ = read_games(path.read_bytes(), file_name=path.name)
        if game.recorded_final is None or game.recorded_final.results is None:
            continue
        report = replay(game)
        if game.header.source.extra.get("lobby", "0") != "0":
            # A custom lobby counts points by its own settings: not compared, not reported.
            assert report.verdict is Verdict.VERIFIED and report.points is None
            continue
        assert report.verdict is Verdict.VERIFIED, (row["path"], report.discrepancy)
        assert report.points is not None
        assert [round(p * 10) for p in report.points] == [
            round(r * 10) for r in game.recorded_final.results
        ]
        checked += 1
    assert checked >= 100
