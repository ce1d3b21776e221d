"""``python -m engine verify --jobs N``: files verified by N worker processes, the output the same.

Whatever the number of workers and whichever finishes first, every verdict line, warning,
skipped file, the summary (bar its games/s) and the exit status are those of ``--jobs 1``, which
verifies in the command's own process. Ctrl-C stops the workers with the command, quietly.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import time
from argparse import Namespace
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import engine.cli_games
import engine.jobs
from engine.cli import build_parser
from engine.cli_games import run_verify
from engine.formats import decompress
from tests.engine.corpus import CORPUS, corpus_dir
from tests.engine.test_cli_verify_scan import MJLOGS, ROOT, mjlogs, run

#: Real records read in place, of every format and outcome; the first is the slowest to verify
#: (about ten times any other), so workers finish the files after it before it.
CORPUS_FILES = (
    "mjai_jsonl/Apricot-S__mjai-manue-go/2026-07-01-130909.mjson",
    "mjlog_xml/mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.mjlog",
    "mjlog_xml/mjx-project__mjx/2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog",
    "mjai_jsonl/smly__RiichiEnv/126_204_0_mjai.jsonl",
    "tenhou6_json/Equim-chan__mjai-reviewer/confusing_nakis_1.json",  # a reader warning
    "tenhou6_json/Equim-chan__mjai-reviewer/confusing_nakis_2.json",  # illegal_action
    "tenhou6_json/mjx-project__mjx/2020051716gm-00a9-0000-7f8226dd.json",
)


def without_rate(text: str) -> str:
    """Standard error without the games/s of the summary: the one figure that may differ."""
    return re.sub(r" \(\d+ games/s\)", "", text)


def made_records(folder: Path) -> Path:
    """Files no corpus holds: a score changed, a record cut short, two games in one file, and
    a README."""
    folder.mkdir()
    text = decompress((CORPUS / CORPUS_FILES[1]).read_bytes())
    # A 9 before the first recorded win's fu: 30 fu becomes 930 fu.
    ten = text.index(b'ten="', text.index(b"<AGARI")) + len(b'ten="')
    (folder / "changed.mjlog").write_bytes(text[:ten] + b"9" + text[ten:])
    (folder / "cut.mjlog").write_bytes(text[: text.index(b"<INIT") + 20])
    # mjai JSON lines hold games one after another.
    game = (CORPUS / CORPUS_FILES[3]).read_bytes().rstrip(b"\n") + b"\n"
    (folder / "two.jsonl").write_bytes(game * 2)
    (folder / "README").write_text("Games we keep.\n")
    return folder


@pytest.mark.corpus
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_two_workers_print_what_one_prints(tmp_path: Path, as_json: bool) -> None:
    corpus_dir()
    slowest, *others = (str(CORPUS / name) for name in CORPUS_FILES)
    paths = [slowest, str(made_records(tmp_path / "made")), *others]
    options = ["--json"] if as_json else []
    one = run("verify", *options, "--jobs", "1", *paths)
    two = run("verify", *options, "--jobs", "2", *paths)
    assert two.stdout == one.stdout
    assert without_rate(two.stderr) == without_rate(one.stderr)
    assert two.returncode == one.returncode == 1
    # What is compared holds every kind of line, in the order the files were named.
    text = one.stdout + one.stderr
    for verdict in ("verified", "verified_fragment", "score_mismatch", "illegal_action"):
        assert f": {verdict}" in text or f'"verdict": "{verdict}"' in text, verdict
    assert "malformed" in one.stdout and "warning" in one.stdout
    assert f"{tmp_path / 'made' / 'README'}: skipped: not a game record" in one.stderr
    assert "two.jsonl [game 1]: verified" in one.stdout or '"game": 1,' in one.stdout
    assert one.stdout.index(slowest) < one.stdout.index(others[0])
    assert one.stderr.splitlines()[-1].startswith("11 game(s) in 10 file(s): ")


class TerminalStream(io.StringIO):
    """Standard error as a terminal: the progress line is shown."""

    def isatty(self) -> bool:
        return True


def verify_in_process(paths: list[Path], jobs: int) -> tuple[int, str, str]:
    out, err = TerminalStream(), TerminalStream()
    args = Namespace(paths=[str(path) for path in paths], json=False, format=None, jobs=jobs)
    status = run_verify(args, out, err)
    return status, out.getvalue(), without_rate(err.getvalue())


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The worker count of every process pool ``verify`` starts."""
    started: list[int] = []

    class Recorded(engine.cli_games.futures.ProcessPoolExecutor):
        def __init__(self, max_workers: int, **options: Any) -> None:
            started.append(max_workers)
            super().__init__(max_workers, **options)

    monkeypatch.setattr(engine.cli_games.futures, "ProcessPoolExecutor", Recorded)
    return started


def saved_logs(folder: Path, count: int) -> list[Path]:
    folder.mkdir()
    paths = [folder / f"{number:02}.mjlog" for number in range(count)]
    for path, data in zip(paths, mjlogs(count), strict=True):
        path.write_bytes(data)
    (folder / "notes.txt").write_text("not a game\n")
    return [*paths, folder / "notes.txt"]


def test_progress_on_a_terminal_is_the_same_with_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int]
) -> None:
    monkeypatch.setattr(engine.cli_games, "PROGRESS_FROM", 3)
    paths = saved_logs(tmp_path / "logs", 4)
    alone = verify_in_process(paths, 1)
    assert pools == []
    assert verify_in_process(paths, 2) == alone
    assert pools == [2]
    status, _, err = alone
    assert status == 0
    assert "\r5/5 files, 4 games" in err and "skipped: not a game record" in err


def test_no_more_workers_than_files(tmp_path: Path, pools: list[int]) -> None:
    paths = saved_logs(tmp_path / "logs", 2)
    assert verify_in_process(paths[:1], 8)[0] == 0  # one file: verified in this process
    assert verify_in_process(paths, 8)[0] == 0
    assert pools == [3]


def test_jobs_must_be_one_or_more(capsys: pytest.CaptureFixture[str]) -> None:
    assert build_parser().parse_args(["verify", "--jobs", "3", "x"]).jobs == 3
    assert build_parser().parse_args(["verify", "x"]).jobs == engine.jobs.all_cores()
    for bad in ("0", "-1", "two"):
        with pytest.raises(SystemExit) as exit_info:
            build_parser().parse_args(["verify", "--jobs", bad, "x"])
        assert exit_info.value.code == 2
        assert f"'{bad}' is not a whole number of 1 or more" in capsys.readouterr().err


def test_jobs_are_at_most_a_few_a_core(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(engine.jobs, "all_cores", lambda: 2)
    assert build_parser().parse_args(["verify", "--jobs", "8", "x"]).jobs == 8
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["verify", "--jobs", "9", "x"])
    assert exit_info.value.code == 2
    assert "9 is more than 4 a core (8 for the 2 this process may run on)" in (
        capsys.readouterr().err
    )


def test_the_cores_are_those_this_process_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not every core of the machine: those its CPU affinity lets it use."""
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "process_cpu_count", lambda: 1, raising=False)
    assert engine.jobs.all_cores() == 1


Starter = Callable[[str, int], subprocess.Popen[bytes]]


@pytest.fixture
def start_verify() -> Iterator[Starter]:
    """Starts ``verify`` of the same record named N times (a line each), in a session of its own
    (Ctrl-C signals a terminal's whole process group), and returns once it has printed a
    verdict. Its output is unbuffered here too: a line read ahead now would be missing from
    ``communicate()``. Whatever a test leaves running is killed after it."""
    record = sorted(MJLOGS.glob("*gm-*"))[0]
    started: list[subprocess.Popen[bytes]] = []

    def start(jobs: str, files: int) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [sys.executable, "-m", "engine", "verify", "--jobs", jobs, *[str(record)] * files],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        started.append(process)
        assert process.stdout is not None
        assert process.stdout.readline().endswith(b": verified\n")
        return process

    yield start
    for process in started:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_every_process_quietly(start_verify: Starter, jobs: str) -> None:
    process = start_verify(jobs, 400)
    os.killpg(process.pid, signal.SIGINT)
    out, err = (output.decode() for output in process.communicate(timeout=60))
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted: " in err and " of 400 file(s) verified to the end" in err
    assert re.match(r"\d+ game\(s\) in \d+ file\(s\): \d+ verified", err.splitlines()[-1])
    assert len(out.splitlines()) < 399
    assert group_ends(process.pid), "a worker outlives the command"


def group_ends(group: int, seconds: float = 10) -> bool:
    """Whether every process of ``group`` is gone within ``seconds`` (a fork server or resource
    tracker that the pool started, if any, notices its parent gone a moment later)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def helpers(command: int) -> list[int]:
    """The processes of ``command``'s process group but itself: its workers (and, where the
    pool starts them from a fork server, that server), read from Linux's /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):  # a process that ended meanwhile
            group = int(stat.read_text().rpartition(")")[2].split()[2])
            if group == command and int(stat.parent.name) != command:
                found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs Linux's /proc")
def test_workers_leave_ctrl_c_to_the_command(start_verify: Starter) -> None:
    # A worker that took it would end its file with KeyboardInterrupt, or die and leave the
    # pool waiting for it forever: what the command does on Ctrl-C must come from itself alone.
    process = start_verify("2", 400)
    workers = helpers(process.pid)
    assert len(workers) >= 2
    for worker in workers:
        os.kill(worker, signal.SIGINT)
    out, err = (output.decode() for output in process.communicate(timeout=60))
    assert (process.returncode, len(out.splitlines())) == (0, 399), err
