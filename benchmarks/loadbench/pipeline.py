"""Step 2: import the games through the service, verify them with K Celery workers, and bring
every player's statistics up to date; time each part.

This module runs inside a Django process set up for the benchmark's database (see
:func:`setup_django`). The import goes through ``mjlogs.importing.import_files``, the service
``manage.py import_logs`` calls, with one uploaded file per game (a file of many games would
store the whole file beside each of its games). The workers are stopped while importing, so
the import is timed alone and the verification tasks wait in the broker; then the K workers
start and verify. On 2 cores, importing and verifying at once would only share them.

Each K starts from the same state: the imported games with no verdict, facts, summaries or
ratings, and every game's verification queued in id order, in batches (as the import queues them).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from benchmarks.loadbench.services import (
    ROOT,
    Workers,
    flush_broker,
    server_cpu_seconds,
    tasks_left,
)

#: Games per call of the import service (its limit is 2,000 files per import).
IMPORT_BATCH = 500
#: How often the verdicts and the tasks left are counted: the last verdict and the statistics
#: being current are seen this late at most (each poll is one count, a few milliseconds).
POLL_SECONDS = 0.2


def setup_django(env: dict[str, str]) -> None:
    """Point this process's Django at the benchmark's database and broker, and set it up."""
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY"):
        os.environ[name] = env[name]
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()


def migrate() -> float:
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    return time.perf_counter() - started


@dataclass
class ImportFigures:
    games: int
    seconds: float
    statuses: dict[str, int]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"games_per_second": round(self.games_per_second, 1)}


def import_games(
    lines: Iterable[str], log: Callable[[str], None], check: Callable[[], None] = lambda: None
) -> ImportFigures:
    """Import one game per line through the import service; every game must go in. ``check``
    runs between batches (that the workers verifying meanwhile are alive)."""
    from mjlogs.archives import UploadedFile
    from mjlogs.importing import Status, import_files

    statuses: Counter[str] = Counter({status.value: 0 for status in Status})
    games = 0
    failures: list[str] = []
    started = time.perf_counter()
    for batch in _batches(lines, IMPORT_BATCH):
        files = [
            UploadedFile(f"load-{games + offset:06d}.json", line.encode())
            for offset, line in enumerate(batch)
        ]
        summary = import_files(files)
        check()
        for outcome in summary.outcomes:
            statuses[outcome.status.value] += 1
            if outcome.error:
                failures.append(f"{outcome.file}: {outcome.error}")
        games += len(batch)
        if games % (IMPORT_BATCH * 20) == 0:
            rate = games / (time.perf_counter() - started)
            log(f"  imported {games} games ({rate:.0f} games/s)")
    seconds = time.perf_counter() - started
    if failures:
        raise RuntimeError(f"{len(failures)} games failed to import, first: {failures[0]}")
    return ImportFigures(games, seconds, dict(statuses))


def queue_games(lines: Iterable[str]) -> ImportFigures:
    """Queue one game per line for the workers to import (``mjlogs.queued_imports``, as
    ``import_logs --on-workers`` does); the time is the queueing's alone."""
    from mjlogs.archives import UploadedFile
    from mjlogs.queued_imports import queued_import_create

    started = time.perf_counter()
    queued = queued_import_create(
        UploadedFile(f"load-{number:06d}.json", line.encode()) for number, line in enumerate(lines)
    )
    return ImportFigures(queued.files, time.perf_counter() - started, {"queued": queued.files})


def _queued_failures() -> None:
    """Every game queued must have gone in (once the workers are done)."""
    from mjlogs.models import QueuedImport

    for queued in QueuedImport.objects.all():
        if queued.failed or queued.duplicates or not queued.finished:
            raise RuntimeError(f"queued import {queued.pk} did not import every game: {queued}")


def _batches(lines: Iterable[str], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def reset_verification(broker_url: str) -> list[int]:
    """Forget every verdict and everything computed from verdicts and empty the broker;
    returns every game's id, in order, for :func:`queue_verification`."""
    from django.db import connection

    from replay.models import Verification
    from stats.models import (
        PlayerSummary,
        QueuedCatchUp,
        RatingChange,
        RoundFact,
        SummaryBacklog,
    )

    flush_broker(broker_url)
    # QueuedCatchUp too: the claims of catch-ups in the emptied broker would hold back new ones.
    computed = (
        Verification,
        RoundFact,
        PlayerSummary,
        SummaryBacklog,
        RatingChange,
        QueuedCatchUp,
    )
    tables = [model._meta.db_table for model in computed]
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(tables)}")
    from mjlogs.models import Game

    return list(Game.objects.order_by("pk").values_list("pk", flat=True))


def queue_verification(ids: Sequence[int]) -> int:
    """Queue the verification of these games, in batches as an import queues them; returns
    how many games were queued."""
    from mjlogs.verification_queue import VERIFY_BATCH
    from replay.tasks import verify_games

    for start in range(0, len(ids), VERIFY_BATCH):
        verify_games.delay(list(ids[start : start + VERIFY_BATCH]))
    return len(ids)


@dataclass
class WorkerFigures:
    workers: int
    games: int
    verify_seconds: float
    verdicts: dict[str, int]
    #: Time from the last verdict until the statistics tasks the verifications queued (each
    #: game's players, ratings from its time on) were all done; ``None`` if cut off.
    incremental_stats_seconds: float | None
    incremental_stats_tasks_left: int
    #: ``manage.py recompute_stats`` with these workers, from queueing to the last task done.
    recompute_seconds: float
    players: int

    @property
    def verify_games_per_second(self) -> float:
        return self.games / self.verify_seconds

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"verify_games_per_second": round(self.verify_games_per_second, 1)}


def verify_with_workers(
    count: int,
    env: dict[str, str],
    log_dir: Path,
    broker_url: str,
    stats_timeout: float,
    log: Callable[[str], None],
) -> WorkerFigures:
    from django.core.management import call_command

    from mjlogs.models import Player

    ids = reset_verification(broker_url)
    log(f"K={count}: starting {count} workers, then queueing {len(ids)} verifications")
    workers = Workers(count, env, log_dir)
    workers.start()
    try:
        workers.wait_ready()
        started = time.perf_counter()
        games = queue_verification(ids)
        verdicts = _wait_for_verdicts(games, workers, started, log, f"K={count}: ")
        verify_seconds = time.perf_counter() - started
        log(f"K={count}: verified {games} in {verify_seconds:.1f} s; {dict(verdicts)}")

        incremental, left = _drain(broker_url, workers, stats_timeout)
        if incremental is None:
            log(f"K={count}: incremental stats cut off after {stats_timeout:.0f} s, {left} left")
            # What is left is dropped (recompute_stats below rebuilds everything from the
            # facts); the workers stop first so none is halfway through a dropped task.
            workers.stop()
            flush_broker(broker_url)
            workers.start()
            workers.wait_ready()
        else:
            log(f"K={count}: incremental stats done in {incremental:.1f} s")

        started = time.perf_counter()
        call_command("recompute_stats", "--quiet")
        _drain(broker_url, workers, timeout=None)
        recompute_seconds = time.perf_counter() - started
    finally:
        workers.stop()
    players = Player.objects.count()
    log(f"K={count}: recompute_stats for {players} players in {recompute_seconds:.1f} s")
    return WorkerFigures(
        workers=count,
        games=games,
        verify_seconds=verify_seconds,
        verdicts=dict(verdicts),
        incremental_stats_seconds=incremental,
        incremental_stats_tasks_left=left,
        recompute_seconds=recompute_seconds,
        players=players,
    )


@dataclass
class IngestFigures:
    """Importing while K workers verify, as a service takes a bulk upload."""

    workers: int
    games: int
    #: The import alone, sharing the machine with the workers.
    import_seconds: float
    #: From the import's start to the last verdict.
    verify_seconds: float
    verdicts: dict[str, int]
    #: From the last verdict until every figure was current: no summary or rating behind and
    #: every game's study aids counted (:func:`figures_current`).
    stats_seconds: float | None
    stats_tasks_left: int
    #: From the last verdict until no task was left, queued or running (a catch-up queued for
    #: later may find nothing left to do, and end after the figures were current).
    idle_seconds: float | None = None
    #: Whether the workers imported (``import_seconds`` is then the queueing's).
    on_workers: bool = False
    #: CPU seconds of the importing process (this one) while it imported.
    import_cpu_seconds: float = 0.0
    #: The workers' CPU seconds and runs, by task name (``task_cpu``).
    task_cpu: dict[str, dict[str, float]] = field(default_factory=dict)
    #: CPU seconds of the database's and the broker's servers from the import's start until
    #: every figure was current, where they run on this machine (``server_cpu_seconds``).
    server_cpu: dict[str, float] = field(default_factory=dict)

    @property
    def end_to_end_seconds(self) -> float | None:
        """From the import's start until every figure was current."""
        if self.stats_seconds is None:
            return None
        return self.verify_seconds + self.stats_seconds

    def to_json(self) -> dict[str, Any]:
        end_to_end = self.end_to_end_seconds
        return asdict(self) | {
            "import_games_per_second": round(self.games / self.import_seconds, 1),
            "verify_games_per_second": round(self.games / self.verify_seconds, 1),
            "end_to_end_seconds": None if end_to_end is None else round(end_to_end, 1),
        }


def import_while_verifying(
    lines: Iterable[str],
    count: int,
    env: dict[str, str],
    log_dir: Path,
    broker_url: str,
    stats_timeout: float,
    log: Callable[[str], None],
    on_workers: bool = False,
) -> IngestFigures:
    """Import every game with K workers already verifying what the import queues; time the
    import, the last verdict and the statistics catching up. ``on_workers``: queue the games
    for the K workers to import and verify (``import_logs --on-workers``)."""

    from benchmarks.loadbench.task_cpu import CPU_DIR_VARIABLE, read_task_cpu

    log(f"starting {count} workers; importing while they verify")
    cpu_dir = log_dir / f"task-cpu-{count}"
    shutil.rmtree(cpu_dir, ignore_errors=True)
    cpu_dir.mkdir(parents=True)
    with Workers(
        count, env | {CPU_DIR_VARIABLE: str(cpu_dir)}, log_dir, app="benchmarks.loadbench.task_cpu"
    ) as workers:
        started = time.perf_counter()
        cpu_before = _own_cpu()
        servers_before = server_cpu_seconds()
        if on_workers:
            imported = queue_games(lines)
        else:
            imported = import_games(lines, log, check=workers.check_alive)
        import_seconds = time.perf_counter() - started
        import_cpu = _own_cpu() - cpu_before
        log(f"imported {imported.games} in {import_seconds:.1f} s; waiting for the verdicts")
        verdicts = _wait_for_verdicts(imported.games, workers, started, log)
        verify_seconds = time.perf_counter() - started
        log(f"last verdict after {verify_seconds:.1f} s; {dict(verdicts)}")
        waited = time.perf_counter()
        stats_seconds = _poll(figures_current, workers, stats_timeout)
        spent = time.perf_counter() - waited
        rest = None if stats_timeout is None else max(0.0, stats_timeout - spent)
        idle_seconds, left = _drain(broker_url, workers, rest)
        if idle_seconds is not None:
            idle_seconds += spent
        if on_workers:
            _queued_failures()
        servers = {
            name: used - servers_before.get(name, 0.0)
            for name, used in server_cpu_seconds().items()
        }
    if stats_seconds is not None and idle_seconds is not None:
        behind = statistics_behind()
        if behind:
            raise RuntimeError(f"no task left, yet statistics are behind: {behind}")
        log(
            f"statistics up to date {stats_seconds:.1f} s after the last verdict; "
            f"the workers idle after {idle_seconds:.1f} s"
        )
    return IngestFigures(
        workers=count,
        games=imported.games,
        import_seconds=import_seconds,
        verify_seconds=verify_seconds,
        verdicts=dict(verdicts),
        stats_seconds=stats_seconds,
        stats_tasks_left=left,
        idle_seconds=idle_seconds,
        on_workers=on_workers,
        import_cpu_seconds=import_cpu,
        task_cpu=read_task_cpu(cpu_dir),  # (the workers have stopped: every file written)
        server_cpu=servers,
    )


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class EngineVerifyFigures:
    """``python -m engine verify --jobs K`` on the same games, as files, nothing stored: what
    the service's path is measured against."""

    jobs: int
    games: int
    seconds: float
    cpu_seconds: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"games_per_second": round(self.games / self.seconds, 1)}


def engine_verify(
    lines: Iterable[str], jobs: int, folder: Path, runs: int = 2
) -> EngineVerifyFigures:
    """Write each game to a file of its own in ``folder`` (as the import took them), then
    time ``python -m engine verify`` over them with ``jobs`` processes, as a fresh process
    (wall, and the CPU of it and its pool), ``runs`` times: the fastest run. (The yardstick
    of every ratio: one slow run on a busy machine would flatter the service.)"""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    games = 0
    for number, line in enumerate(lines):
        (folder / f"load-{number:06d}.json").write_text(line, encoding="utf-8")
        games += 1
    fastest: EngineVerifyFigures | None = None
    for _ in range(runs):
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_before = children.ru_utime + children.ru_stime
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "engine", "verify", str(folder), "--jobs", str(jobs)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - started
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):  # 1: a game did not verify
            raise RuntimeError(f"engine verify failed ({done.returncode}): {done.stderr[-2000:]}")
        cpu = children.ru_utime + children.ru_stime - cpu_before
        if fastest is None or seconds < fastest.seconds:
            fastest = EngineVerifyFigures(jobs, games, seconds, cpu)
    shutil.rmtree(folder)
    assert fastest is not None, "runs must be at least 1"
    return fastest


@dataclass
class StudyFigures:
    """The study aids against the replay, on a sample of the same games (CPU seconds): the
    replay's, and what the study adds to it in the verification's pass. Warm: in this
    process, the sample replayed and studied once before, best of three; cold: each pass once
    in a fresh process (``cold_pass``), as a worker's first games, best of two."""

    games: int
    replay_cpu_seconds: float
    study_cpu_seconds: float
    cold_replay_cpu_seconds: float
    cold_study_cpu_seconds: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {
            "study_over_replay": round(self.study_cpu_seconds / self.replay_cpu_seconds, 2),
            "cold_study_over_replay": round(
                self.cold_study_cpu_seconds / self.cold_replay_cpu_seconds, 2
            ),
        }


def study_vs_replay(lines: Iterable[str], sample: int, folder: Path) -> StudyFigures:
    """What the study aids cost a game against its replay: the verification with the study in
    its pass (``engine.replay.replay_and_study``, what a worker runs) less the replay alone
    (``engine.replay.replay``), warm and cold (:class:`StudyFigures`); ``folder`` holds the
    sample for the cold passes."""
    import json

    from engine.formats import canonical
    from engine.replay import replay, replay_and_study

    chosen = list(islice(lines, sample))
    folder.mkdir(parents=True, exist_ok=True)
    sample_file = folder / "study-sample.jsonl"
    sample_file.write_text("\n".join(chosen) + "\n", encoding="utf-8")
    cold_replay = cold_studied = float("inf")
    for _ in range(2):  # alternated, so that the machine's drift weighs on both alike
        cold_replay = min(cold_replay, _cold_pass(sample_file, "replay"))
        cold_studied = min(cold_studied, _cold_pass(sample_file, "study"))

    games = [canonical.game_from_json(json.loads(line)) for line in chosen]
    for game in games:  # warm: the engine's tables and memos, as a worker's after its first games
        replay_and_study(game)
    replayed = studied = float("inf")
    for _ in range(3):
        started = time.process_time()
        for game in games:
            replay(game)
        replayed = min(replayed, time.process_time() - started)
        started = time.process_time()
        for game in games:
            replay_and_study(game)
        studied = min(studied, time.process_time() - started)
    return StudyFigures(
        len(games),
        replayed,
        max(0.0, studied - replayed),
        cold_replay,
        max(0.0, cold_studied - cold_replay),
    )


def _cold_pass(sample_file: Path, what: str) -> float:
    """The CPU seconds of one pass over the sample in a fresh process (``cold_pass``)."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.loadbench.cold_pass", str(sample_file), what],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip())


def statistics_behind() -> dict[str, Any]:
    """What the backlogs still mark as behind: empty when every summary and rating is current."""
    from stats.models import RatingsBacklog, SummaryBacklog

    behind: dict[str, Any] = {}
    if players := SummaryBacklog.objects.count():
        behind["players"] = players
    if RatingsBacklog.objects.filter(stale=True).exists():
        behind["ratings"] = True
    return behind


def figures_current() -> bool:
    """Whether every figure is current, as the data says: no summary or rating behind
    (:func:`statistics_behind`) and no game waiting for its study aids. A verdict marks what it
    puts behind in its own transaction, and a pass clears the marks with what it recomputed,
    so once every verdict is in, this is true exactly when the statistics have caught up."""
    from stats.selectors import study_pending_count

    return not statistics_behind() and study_pending_count() == 0


def _poll(done: Callable[[], bool], workers: Workers, timeout: float | None) -> float | None:
    """Seconds until ``done()`` (asked every :data:`POLL_SECONDS`, failing if a worker died),
    or ``None`` after ``timeout``."""
    started = time.perf_counter()
    while not done():
        if timeout is not None and time.perf_counter() - started > timeout:
            return None
        workers.check_alive()
        time.sleep(POLL_SECONDS)
    return time.perf_counter() - started


def _wait_for_verdicts(
    games: int,
    workers: Workers,
    started: float,
    log: Callable[[str], None],
    prefix: str = "",
) -> Counter[str]:
    """Wait until ``games`` games have a verdict (logging the rate since ``started`` every
    30 s, and failing if a worker died); the count of each verdict."""
    from replay.models import Verification

    last_log = time.perf_counter()
    while (done := Verification.objects.count()) < games:
        time.sleep(POLL_SECONDS)
        workers.check_alive()
        if time.perf_counter() - last_log > 30:
            rate = done / (time.perf_counter() - started)
            log(f"  {prefix}{done}/{games} verified ({rate:.1f} games/s)")
            last_log = time.perf_counter()
    return Counter(Verification.objects.values_list("verdict", flat=True))


def _drain(broker_url: str, workers: Workers, timeout: float | None) -> tuple[float | None, int]:
    """Wait until no task is queued or running; (seconds taken, 0), or (None, tasks left)."""
    seconds = _poll(lambda: tasks_left(broker_url) == 0, workers, timeout)
    return (seconds, 0) if seconds is not None else (None, tasks_left(broker_url))


class AnalyzeWhileBusy:
    """Stands in for autovacuum's ANALYZE while the tables grow, on a server that has
    autovacuum off (as this machine's PostgreSQL has): every ``interval`` seconds, from a
    connection of its own. Without it the planner keeps the row counts of the empty tables
    (a table of 20,000 games planned as 18 rows) and every statistics query scans whole
    tables, which no production server (autovacuum on, the default) would do."""

    def __init__(self, database_url: str, interval: float = 30.0) -> None:
        self.database_url = database_url
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> AnalyzeWhileBusy:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as connection:
            (setting,) = connection.execute("SHOW autovacuum").fetchone() or ("on",)
        if setting != "on":
            self._thread = threading.Thread(target=self._run, name="analyze", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as connection:
            while not self._stop.wait(self.interval):
                connection.execute("ANALYZE")


def analyze() -> None:
    """Refresh the planner's statistics. Autovacuum does it soon after a bulk change; the
    benchmark does it at once so that the plans measured do not depend on when it ran (right
    after the truncation and refill of the verification tables the planner thinks them empty)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def storage_figures() -> dict[str, Any]:
    """Bytes on disk: the database, and the biggest tables with their rows."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        database = cursor.fetchone()[0]
        cursor.execute(
            "SELECT c.relname, pg_total_relation_size(c.oid), c.reltuples::bigint "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind = 'r' AND n.nspname = 'public' "
            "ORDER BY 2 DESC LIMIT 8"
        )
        tables = {name: {"bytes": size, "rows": rows} for name, size, rows in cursor.fetchall()}
    return {"database_bytes": database, "tables": tables}
