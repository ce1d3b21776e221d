"""The worker's import task against ``python -m engine verify``, CPU a game, on the same games.

Usage, from the repository root (PostgreSQL and Redis as for ``benchmarks/load.py``)::

    python benchmarks/task_vs_verify.py [--games 500] [--rounds 2] [--profile]

What a worker spends on a game of a bulk upload, apart from the machine's other load and from
the waiting that makes ``benchmarks/load.py``'s end-to-end ratio move from run to run: issue
42's goal, end to end at half of ``engine verify`` with as many processes, needs the service's
CPU a game (the upload, the worker's task and PostgreSQL) at most twice the engine's, every part
overlapped.

Each round takes games it has not taken before from the load benchmark's cache of self-played
games (``benchmarks/load.py --only generate``; made here if missing), re-creates the database
(``--database-url``, never ``mjlogs`` nor a test database), queues the games as one queued
import (``import_logs --on-workers``, a task a batch, sent to ``--broker-url``, whose messages
no worker reads and which is emptied), then runs each batch's task body in this process as a
worker runs it (``mjlogs.queued_imports.queued_batch_import``, the worker's collector settings:
the import, the verification with its study aids, the verdicts and facts), timing its CPU and
that of its PostgreSQL session (``/proc``: a server on this machine). Then ``python -m engine
verify --jobs 1`` on the same games, one file each: its CPU less that of the same command on
the first of them (the interpreter's start, which a worker pays once), for the others. The
first round starts cold, as a worker's first batches; the best of the rounds is the warm
figure.

``--profile``: py-spy (``pip install py-spy``) samples the task body, and the script prints the
share of each part: the engine's (reading, the replay with the study aids) and the service's.
(Sampling stops the process 400 times a second: the CPU figures of a profiled run are a little
higher; the yardstick is a run without it.)

Exit status 1 if a game fails to import or to verify.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.loadbench import generate, pipeline, services  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/mjlogs_task_bench"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/8"

#: The parts of the task a sample is counted in: the innermost frame that matches, from the
#: leaf up (a verification runs inside the storing's commit, a reading inside the task).
STAGES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(pattern))
    for label, pattern in (
        ("engine: reading the file", r"^read_games "),
        ("engine: the replay with the study aids", r"replay_and_study "),
        ("service: identities, document, compression", r"^read_file "),
        ("service: verdicts, facts and ends", r"^games_verify "),
        ("service: storing the games", r"^games_store "),
        ("service: the queue's rows and the outcomes", r"^queued_batch_import "),
    )
)


@dataclass(frozen=True)
class Round:
    games: int
    task_cpu: float
    postgresql_cpu: float | None
    engine_cpu: float

    def per_game(self, seconds: float | None) -> str:
        return "n/a" if seconds is None else f"{seconds / self.games * 1000:.2f} ms"


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.games < 2 or args.rounds < 1:
        raise SystemExit(
            "--games must be at least 2 (the engine's start is one game's run), --rounds at least 1"
        )
    services.check_name(args.database_url)
    paths = generate.generate(
        args.cache,
        args.games * args.rounds,
        os.cpu_count() or 1,
        args.players,
        size=args.chunk_games,
        log=_log,
    )
    env = services.service_env(args.database_url, args.broker_url)
    services.recreate_database(args.database_url)
    pipeline.setup_django(env)
    from engine.gc_settings import settle_for_batch_work

    settle_for_batch_work()  # as a worker (config/celery.py)
    games = list(generate.iter_games(paths, args.games * args.rounds))
    rounds: list[Round] = []
    samples: Counter[str] = Counter()
    for number in range(args.rounds):
        lines = games[number * args.games : (number + 1) * args.games]
        done = _round(lines, args, samples)
        rounds.append(done)
        print(
            f"round {number + 1} (games {number * args.games + 1}-{(number + 1) * args.games}): "
            f"the import task {done.per_game(done.task_cpu)} a game (CPU), its PostgreSQL "
            f"session {done.per_game(done.postgresql_cpu)}, engine verify "
            f"{done.per_game(done.engine_cpu)}",
            flush=True,
        )
    _summary(rounds)
    if args.profile:
        _profile_summary(samples)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/task_vs_verify.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("--games", type=int, default=500, help="games a round (500)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, each on new games (2)")
    parser.add_argument("--profile", action="store_true", help="sample the task with py-spy")
    generate.add_cache_arguments(parser)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--broker-url", default=DEFAULT_BROKER_URL)
    return parser


def _round(lines: list[str], args: argparse.Namespace, samples: Counter[str]) -> Round:
    from django.db import connection

    from mjlogs.models import QueuedFile, QueuedImport
    from mjlogs.queued_imports import queued_batch_import

    connection.close()
    services.recreate_database(args.database_url)
    pipeline.migrate()
    services.flush_broker(args.broker_url)
    pipeline.queue_games(lines)
    services.flush_broker(args.broker_url)  # (nobody reads the tasks: this process runs them)
    (queued,) = QueuedImport.objects.all()
    batches = sorted(set(QueuedFile.objects.values_list("batch", flat=True)))
    postgresql = _session_cpu()
    spy = _spy_start() if args.profile else None
    started = time.process_time()
    for batch in batches:
        queued_batch_import(queued.pk, batch)
    task_cpu = time.process_time() - started
    if spy is not None:
        samples.update(_spy_stop(*spy))
    session = _session_cpu()
    queued.refresh_from_db()
    if queued.imported != len(lines) or queued.verdicts != {"verified": len(lines)}:
        raise SystemExit(f"not every game imported and verified: {queued} {queued.verdicts}")
    with tempfile.TemporaryDirectory() as folder:
        whole = pipeline.engine_verify(lines, 1, Path(folder) / "all", runs=1)
        # (The fastest of three: the start's CPU moves by tens of milliseconds.)
        start = pipeline.engine_verify(lines[:1], 1, Path(folder) / "one", runs=3)
    engine_cpu = whole.cpu_seconds - start.cpu_seconds
    if engine_cpu <= 0:
        raise SystemExit(
            f"engine verify of {len(lines)} games took no more CPU than of one: too few games "
            "to tell its work from its start (more --games)"
        )
    postgresql_cpu = None
    if postgresql is not None and session is not None and postgresql[0] == session[0]:
        postgresql_cpu = session[1] - postgresql[1]  # (the same session throughout)
    # The engine's CPU is that of the games after the first, the first's being in the start.
    scale = len(lines) / (len(lines) - 1)
    return Round(len(lines), task_cpu, postgresql_cpu, engine_cpu * scale)


def _session_cpu() -> tuple[int, float] | None:
    """This process's PostgreSQL session (its server process's id) and its CPU seconds so far,
    if its server runs on this machine."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    used = services.process_cpu_seconds(pid)
    return None if used is None else (pid, used)


def _summary(rounds: list[Round]) -> None:
    best = min(rounds, key=lambda r: r.task_cpu / r.games)
    engine = min(r.engine_cpu / r.games for r in rounds)
    task = best.task_cpu / best.games
    line = (
        f"best of {len(rounds)}: the import task {task * 1000:.2f} ms a game, engine verify "
        f"{engine * 1000:.2f} ms; the task's CPU over the engine's: {task / engine:.2f}x"
    )
    if best.postgresql_cpu is not None:
        both = (best.task_cpu + best.postgresql_cpu) / best.games
        line += f"; with its PostgreSQL session's: {both / engine:.2f}x"
    print(line)
    print("(end to end at 0.5x engine verify needs the service's CPU at most 2x the engine's)")


def _spy_start() -> tuple[subprocess.Popen[bytes], Path]:
    spy = Path(sys.executable).with_name("py-spy")
    command = str(spy) if spy.exists() else "py-spy"
    output = Path(tempfile.mkdtemp()) / "samples.txt"
    try:
        process = subprocess.Popen(
            [
                *(command, "record", "--rate", "400", "--format", "raw"),
                *("--output", str(output), "--pid", str(os.getpid())),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise SystemExit("--profile needs py-spy: pip install py-spy") from None
    time.sleep(1.0)  # (py-spy attaches)
    return process, output


def _spy_stop(process: subprocess.Popen[bytes], output: Path) -> Counter[str]:
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    counted: Counter[str] = Counter()
    for line in output.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if not any(frame.startswith("queued_batch_import ") for frame in frames):
            continue
        counted[_stage(frames)] += int(count)
    return counted


def _stage(frames: list[str]) -> str:
    for frame in reversed(frames):
        for label, pattern in STAGES:
            if pattern.search(frame):
                return label
    return "the rest"


def _profile_summary(samples: Counter[str]) -> None:
    total = sum(samples.values())
    if not total:
        print("py-spy took no sample of the task")
        return
    print(f"where the task's time goes (py-spy, {total:,} samples, every round):")
    for label, _ in (*STAGES, ("the rest", None)):
        print(f"  {samples[label] / total:6.1%}  {label}")


def _log(message: str) -> None:
    print(message, flush=True)


if __name__ == "__main__":
    sys.exit(main())
