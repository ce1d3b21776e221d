"""``python -m engine verify DIR``: every file's content says whether it is a game record.

Tenhou logs are saved under any name (no extension, ``.html``, ``.log``, gzipped or not): each
is read. Files that are no game record (a README, a manifest) are listed as skipped with the
reason, counted apart, and fail nothing; a file that is a record but cannot be read still fails.
Hidden files and folders are not scanned, and no file is read whole just to be sniffed.
"""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest

import engine.cli_games
from engine.cli_games import _verify_file, run_verify
from engine.formats import SNIFF_BYTES, content_head, sniff_file

ROOT = Path(__file__).resolve().parents[2]
#: Real Tenhou mjlogs kept in the repository (plain XML, saved as .txt).
MJLOGS = ROOT / "tests" / "data" / "real" / "mjlog_xml" / "Agony5757__mahjong"


def mjlogs(count: int) -> list[bytes]:
    files = sorted(MJLOGS.glob("*gm-*"))[:count]
    if len(files) < count:
        pytest.skip(f"{MJLOGS} does not hold {count} mjlog files")
    return [path.read_bytes() for path in files]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def folder_of_saved_logs(tmp_path: Path) -> Path:
    """Three Tenhou logs as people save them, a README and a manifest, and hidden things."""
    first, second, third = mjlogs(3)
    folder = tmp_path / "logs"
    (folder / "sub").mkdir(parents=True)
    (folder / "2020010100gm-00a9-0000-41ec0486").write_bytes(first)  # no extension
    (folder / "sub" / "game.html").write_bytes(second)
    (folder / "sub" / "game.log").write_bytes(gzip.compress(third))
    (folder / "README").write_text("Tenhou logs I played, 2020.\n")
    (folder / "MANIFEST.tsv").write_text("path\tsha256\ngame.html\t0123\n")
    # Not scanned: a dot-folder and a hidden file, whatever they hold.
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_bytes(b"{not json")
    (folder / ".git" / "copy.mjlog").write_bytes(first)
    (folder / ".hidden.mjlog").write_bytes(b"<mjloggm ver='2.3'><INIT")
    return folder


def test_every_record_is_verified_whatever_its_name_and_the_rest_skipped(tmp_path: Path) -> None:
    folder = folder_of_saved_logs(tmp_path)
    result = run("verify", "--json", str(folder))
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    by_name = {Path(line["path"]).name: line for line in lines}
    assert sorted(by_name) == sorted(
        ["2020010100gm-00a9-0000-41ec0486", "game.html", "game.log", "README", "MANIFEST.tsv"]
    )
    for name in ("2020010100gm-00a9-0000-41ec0486", "game.html", "game.log"):
        assert by_name[name]["format"] == "mjlog"
        assert by_name[name]["verdict"] == "verified", by_name[name]
        assert by_name[name]["warnings"] == []
    assert by_name["2020010100gm-00a9-0000-41ec0486"]["source_id"] == (
        "2020010100gm-00a9-0000-41ec0486"
    )
    for name in ("README", "MANIFEST.tsv"):
        assert set(by_name[name]) == {"path", "verdict", "reason"}
        assert by_name[name]["verdict"] == "skipped"
        assert "not a game record" in by_name[name]["reason"]
    assert result.returncode == 0, result.stderr
    # Standard error lists the skipped files and counts them apart in the summary.
    assert f"{folder / 'README'}: skipped: not a game record" in result.stderr
    assert f"{folder / 'MANIFEST.tsv'}: skipped: not a game record" in result.stderr
    summary = result.stderr.splitlines()[-1]
    assert summary.startswith("3 game(s) in 3 file(s): 3 verified")
    assert summary.endswith("; 2 other file(s) skipped: not game records")


def test_a_broken_record_still_fails_among_skipped_files(tmp_path: Path) -> None:
    folder = folder_of_saved_logs(tmp_path)
    (first,) = mjlogs(1)
    # Cut inside the first round: it sniffs as an mjlog, and cannot be read.
    (folder / "broken").write_bytes(first[: first.index(b"<INIT") + 30])
    result = run("verify", str(folder))
    assert result.returncode == 1
    assert f"{folder / 'broken'}: malformed: " in result.stdout
    assert "README" not in result.stdout  # skipped files go to standard error only
    assert "1 malformed" in result.stderr.splitlines()[-1]


def test_nothing_but_non_records_is_a_failure(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no games here\n")
    result = run("verify", str(tmp_path))
    assert result.returncode == 1
    assert "0 game(s) in 0 file(s): nothing read; 1 other file(s) skipped" in result.stderr


def test_reader_warnings_are_printed_and_keep_the_verdict(tmp_path: Path) -> None:
    # An mjai round as gimite's Tenhou converter writes it: the discard right after the pon is
    # flagged tsumogiri (seat 1 discards the 1p it drew earlier).
    hands = [
        ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "S", "W"],
        ["P", "P", "F", "F", "2m", "3m", "4m", "6p", "7p", "8p", "9s", "9s", "N"],
        ["2m", "3m", "4m", "2p", "3p", "4p", "2s", "3s", "4s", "6m", "7m", "8m", "1p"],
        ["5m", "5m", "6p", "6p", "7p", "7p", "3s", "3s", "4s", "4s", "C", "C", "N"],
    ]
    events: list[dict[str, Any]] = [
        {"type": "start_game", "names": ["A", "B", "C", "D"],
         "uri": "http://tenhou.net/0/?log=2010081709gm-00a9-0000-fe3371ad&tw=0"},
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "oya": 0,
         "dora_marker": "9s", "tehais": hands},
    ]  # fmt: skip
    for seat, drawn, discarded in (
        (0, "9p", "S"), (1, "1p", "N"), (2, "9p", "9p"), (3, "1s", "N"), (0, "P", "P"),
    ):  # fmt: skip
        events.append({"type": "tsumo", "actor": seat, "pai": drawn})
        events.append({"type": "dahai", "actor": seat, "pai": discarded,
                       "tsumogiri": drawn == discarded})  # fmt: skip
    events.append({"type": "pon", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P"]})
    events.append({"type": "dahai", "actor": 1, "pai": "1p", "tsumogiri": True})
    path = tmp_path / "2010081709gm-00a9-0000-fe3371ad.mjson"
    path.write_text("".join(json.dumps(event) + "\n" for event in events))
    text = run("verify", str(path))
    assert text.returncode == 0, text.stdout + text.stderr
    assert "verified_fragment: only part of a game was checked" in text.stdout
    assert "\n  warning: line 14: dahai: tsumogiri true on the discard right after" in text.stdout
    assert "1 verified_fragment; 1 with reader warnings" in text.stderr
    as_json = json.loads(run("verify", "--json", str(path)).stdout)
    assert as_json["verdict"] == "verified_fragment"
    assert as_json["source_id"] == "2010081709gm-00a9-0000-fe3371ad"
    assert len(as_json["warnings"]) == 1 and "read as not tsumogiri" in as_json["warnings"][0]


def test_with_a_forced_format_every_file_is_read_as_it(tmp_path: Path) -> None:
    (tmp_path / "README").write_text("not a game\n")
    out, err = io.StringIO(), io.StringIO()
    args = Namespace(paths=[str(tmp_path)], json=True, format="mjlog", jobs=1)
    status = run_verify(args, out, err)
    assert status == 1
    assert json.loads(out.getvalue())["verdict"] == "malformed"


# -- bounded sniffing ---------------------------------------------------------------------------


class CountingStream(io.BytesIO):
    """A stream that counts the bytes read from it."""

    read_bytes = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.read_bytes += len(data)
        return data


def test_sniffing_reads_a_bounded_start_of_a_plain_file() -> None:
    stream = CountingStream(b"x" * (8 * SNIFF_BYTES))
    assert content_head(stream) == b"x" * SNIFF_BYTES
    assert stream.read_bytes == SNIFF_BYTES


def test_sniffing_inflates_gzip_lazily() -> None:
    # 64 MiB of text compresses to about 64 KiB: only a few chunks of it are inflated.
    big = gzip.compress(b"<mjloggm ver='2.3'>" + b"<T1/>" * (64 * 1024 * 1024 // 5))
    stream = CountingStream(big)
    head = content_head(stream)
    assert len(head) == SNIFF_BYTES and head.startswith(b"<mjloggm")
    assert stream.read_bytes < len(big)


def test_a_cut_gzip_file_gives_what_it_holds() -> None:
    data = gzip.compress(b"<mjloggm ver='2.3'><GO type='169'/>" * 100)
    assert content_head(io.BytesIO(data[: len(data) // 2])).startswith(b"<mjloggm")


def test_a_huge_file_that_is_no_record_is_skipped_without_being_read(tmp_path: Path) -> None:
    huge = tmp_path / "disk.img"
    with huge.open("wb") as handle:
        handle.truncate(4 * 1024**3)  # 4 GiB, sparse: reading it whole would take seconds
    assert sniff_file(huge) is None
    (line,) = _verify_file(huge, None)
    assert line["verdict"] == "skipped"


def test_a_record_larger_than_the_engine_reads_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (record,) = mjlogs(1)
    path = tmp_path / "game"
    path.write_bytes(record)
    monkeypatch.setattr(engine.cli_games, "MAX_DECOMPRESSED_BYTES", len(record) - 1)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("the file was read"))
    (line,) = _verify_file(path, None)
    assert line["verdict"] == "malformed"
    assert "more than the" in line["discrepancy"]["message"]
