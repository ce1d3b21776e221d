"""``benchmarks/load.py`` on a handful of games, so the scale benchmark cannot rot.

The end-to-end test runs the whole script (generate, import, verify with K = 1 and 2 real Celery
workers, recompute_stats, the database grown by SQL copies, gunicorn under a short locust load)
against a PostgreSQL database and a Redis database of its own, and checks the figures it writes
describe what happened: every game imported and verified, every endpoint answered without
failure. It needs PostgreSQL
(``DATABASE_URL=postgres://...``, the server only: the benchmark creates its own database) and
Redis, and skips naming the missing one (fails under ``MJ_REQUIRE_SERVICES=1``).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from benchmarks.loadbench import generate
from benchmarks.loadbench.report import summary_table
from benchmarks.loadbench.services import BenchmarkSetupError, check_name
from tests.integration.processes import ROOT, free_port, missing_service

#: The smoke run's own database and Redis database (the benchmark drops and flushes them).
SMOKE_DATABASE = "mjlogs_loadsmoke"
SMOKE_BROKER = os.environ.get("MJ_LOAD_SMOKE_REDIS_URL", "redis://127.0.0.1:6379/14")
GAMES = 12


def _missing(service: str) -> None:
    missing_service(service, "the load smoke test")


@pytest.fixture
def smoke_database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        _missing("PostgreSQL (DATABASE_URL=postgres://...) is needed by the load benchmark")
    import psycopg

    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    try:
        psycopg.connect(maintenance, connect_timeout=3).close()
    except psycopg.OperationalError as error:
        _missing(f"PostgreSQL at {parts.netloc} does not answer ({error})")
    yield urlunsplit(parts._replace(path=f"/{SMOKE_DATABASE}"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{SMOKE_DATABASE}" WITH (FORCE)')


@pytest.fixture
def smoke_broker_url() -> str:
    import redis

    try:
        redis.Redis.from_url(SMOKE_BROKER, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        _missing(f"Redis at {SMOKE_BROKER} does not answer ({error})")
    return SMOKE_BROKER


def test_load_script_end_to_end(
    tmp_path: Path, smoke_database_url: str, smoke_broker_url: str
) -> None:
    output = tmp_path / "summary.json"
    command = [
        sys.executable,
        "benchmarks/load.py",
        "--games", str(GAMES),
        "--chunk-games", "6",
        "--gen-processes", "2",
        "--players", "10",
        "--workers", "1", "2",
        "--cache", str(tmp_path / "cache"),
        "--run-dir", str(tmp_path / "runs"),
        "--database-url", smoke_database_url,
        "--broker-url", smoke_broker_url,
        "--stats-timeout", "60",
        "--port", str(free_port()),
        "--web-workers", "2",
        "--users", "2",
        "--duration", "6",
        "--replicate", "2",
        "--output", str(output),
    ]  # fmt: skip
    # Catch-ups two seconds apart: the interval's delayed tasks go through real workers.
    env = os.environ | {"PYTHONPATH": str(ROOT), "STATS_CATCH_UP_INTERVAL": "2"}
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    summary = json.loads(output.read_text(encoding="utf-8"))

    assert summary["import"]["games"] == GAMES
    statuses = summary["import"]["statuses"]
    assert statuses == {"imported": GAMES, "duplicate": 0, "failed": 0, "skipped": 0}
    assert [run["workers"] for run in summary["workers"]] == [1, 2]
    for run in summary["workers"]:
        # Self-played games are right by construction: anything else is a bug somewhere.
        assert run["verdicts"] == {"verified": GAMES}
        assert run["incremental_stats_tasks_left"] == 0
        assert run["players"] == 10
        assert run["verify_seconds"] > 0
    assert summary["storage"]["database_bytes"] > 0
    # The served database was grown by SQL copies: twice the games, each copy listed.
    assert summary["replicated"]["games"] == 2 * GAMES
    # ... and every player's statistics brought up to date over the copies too.
    assert summary["replicated"]["statistics"]["players"] == 10
    assert all(query["status"] == 200 for query in summary["queries"].values())
    endpoints = {
        "game list (page)",
        "game list (API)",
        "game page",
        "viewer frames (API)",
        "player stats (API)",
    }
    assert endpoints <= set(summary["load"])
    for name in endpoints:
        assert summary["load"][name]["failures"] == 0, name
    assert summary["load"]["Aggregated"]["requests"] > 0
    assert "verification K=2/K=1" in result.stdout


ROUND = re.compile(
    r"round (\d+) \(games (\d+)-(\d+)\): the import task ([\d.]+) ms a game \(CPU\), "
    r"its PostgreSQL session ([\d.]+) ms, engine verify ([\d.]+) ms"
)
RATIO = re.compile(r"the task's CPU over the engine's: ([\d.]+)x; with its PostgreSQL session's")


def test_task_vs_verify_times_the_import_task_and_the_engine_on_new_games(
    tmp_path: Path, smoke_database_url: str, smoke_broker_url: str
) -> None:
    command = [
        sys.executable,
        "benchmarks/task_vs_verify.py",
        "--games", "12",
        "--rounds", "2",
        "--chunk-games", "12",
        "--players", "6",
        "--cache", str(tmp_path / "cache"),
        "--database-url", smoke_database_url,
        "--broker-url", smoke_broker_url,
    ]  # fmt: skip
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    rounds = ROUND.findall(result.stdout)
    # Each round on games of its own, each side timed (the server runs here: its CPU too).
    assert [(first, last) for _, first, last, *_ in rounds] == [("1", "12"), ("13", "24")]
    for *_, task, postgresql, engine in rounds:
        assert float(task) > 0 and float(postgresql) > 0 and float(engine) > 0
    (ratio,) = RATIO.findall(result.stdout)
    best_task = min(float(task) for *_, task, _, _ in rounds)
    best_engine = min(float(engine) for *_, engine in rounds)
    assert float(ratio) == pytest.approx(best_task / best_engine, rel=0.03)


def test_import_while_workers_verify_replayed_games(
    tmp_path: Path, smoke_database_url: str, smoke_broker_url: str
) -> None:
    output = tmp_path / "summary.json"
    command = [
        sys.executable,
        "benchmarks/load.py",
        "--games", "8",
        "--self-played", "4",
        "--chunk-games", "4",
        "--gen-processes", "1",
        "--players", "10",
        "--workers", "2",
        "--verify-while-importing",
        "--only", "generate", "import",
        "--cache", str(tmp_path / "cache"),
        "--run-dir", str(tmp_path / "runs"),
        "--database-url", smoke_database_url,
        "--broker-url", smoke_broker_url,
        "--stats-timeout", "60",
        "--output", str(output),
    ]  # fmt: skip
    # Catch-ups two seconds apart: the interval's delayed tasks go through real workers.
    env = os.environ | {"PYTHONPATH": str(ROOT), "STATS_CATCH_UP_INTERVAL": "2"}
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    summary = json.loads(output.read_text(encoding="utf-8"))
    ingest = summary["ingest"]
    assert summary["self_played"] == 4
    assert ingest["games"] == 8 and ingest["workers"] == 2
    # The replays are new records, each imported and verified.
    assert ingest["verdicts"] == {"verified": 8}
    assert ingest["stats_tasks_left"] == 0 and ingest["stats_seconds"] is not None
    # Every figure current (as the data says) comes no later than the workers going idle.
    assert 0 <= ingest["stats_seconds"] <= ingest["idle_seconds"]
    assert "the workers idle" in result.stdout
    assert 0 < ingest["import_seconds"] <= ingest["verify_seconds"]
    assert "replay them as new records" in result.stdout
    # The production path against the engine alone, and each step's CPU from the workers.
    # (end to end is rounded to a tenth of a second in the summary, its parts are not)
    end_to_end = ingest["verify_seconds"] + ingest["stats_seconds"]
    assert ingest["end_to_end_seconds"] == pytest.approx(end_to_end, abs=0.051)
    assert summary["engine_verify"]["games"] == 8 and summary["engine_verify"]["jobs"] == 2
    verifying = ingest["task_cpu"]["replay.tasks.verify_games"]
    assert verifying["runs"] >= 1 and verifying["seconds"] > 0
    study = summary["study"]
    assert study["games"] == 8 and study["study_over_replay"] > 0
    assert study["cold_replay_cpu_seconds"] > 0 and study["cold_study_over_replay"] > 0
    assert "end to end (upload to every figure current), K=2" in result.stdout
    assert "replay.tasks.verify_games" in result.stdout
    assert ingest["server_cpu"].get("postgresql", 1.0) > 0  # (where it runs on this machine)

    import psycopg

    with psycopg.connect(smoke_database_url) as connection:
        (games,) = connection.execute("SELECT count(*) FROM mjlogs_game").fetchone()
        (seats,) = connection.execute("SELECT sum(games) FROM stats_playersummary").fetchone()
        (behind,) = connection.execute("SELECT count(*) FROM stats_summarybacklog").fetchone()
    assert games == 8
    # A replay is a copy of the game it replays (the same play): every seat of the 4 games
    # played counted once in its player's summary (four-player games), none of the copies.
    assert (seats, behind) == (4 * 4, 0)


def test_generated_games_are_renamed_dated_and_cached(tmp_path: Path) -> None:
    paths = generate.generate(tmp_path, 5, workers=1, pool=8, size=2, log=lambda _: None)
    assert [path.name for path in paths] == [
        "chunk-2-00000.jsonl.gz",
        "chunk-2-00001.jsonl.gz",
        "chunk-2-00002.jsonl.gz",
    ]
    games = [json.loads(line) for line in generate.iter_games(paths, 5)]
    assert len(games) == 5
    assert len({game["source"]["id"] for game in games}) == 5
    for game in games:
        names = [player["name"] for player in game["players"]]
        assert len(set(names)) == len(names)
        assert all(name.startswith("Player ") for name in names)
    starts = [game["started_at"] for game in games]
    assert starts == sorted(starts) and len(set(starts)) == 5

    # A second run reuses what is there and makes only what is missing.
    before = {path: path.stat().st_mtime_ns for path in paths}
    more = generate.generate(tmp_path, 8, workers=1, pool=8, size=2, log=lambda _: None)
    assert len(more) == 4
    assert all(path.stat().st_mtime_ns == before[path] for path in paths)
    with gzip.open(more[3], "rt", encoding="utf-8") as chunk:
        assert len(chunk.read().splitlines()) == 2


def test_games_beyond_the_self_played_replay_them_as_new_games(tmp_path: Path) -> None:
    quiet = {"workers": 1, "pool": 8, "size": 2, "log": lambda _: None}
    paths = generate.generate(tmp_path, 7, self_played=4, **quiet)  # type: ignore[arg-type]
    assert [path.name for path in paths] == [
        "chunk-2-00000.jsonl.gz",
        "chunk-2-00001.jsonl.gz",
        "chunk-2-00002-replays-00000.jsonl.gz",
        "chunk-2-00003-replays-00001.jsonl.gz",
    ]
    games = [json.loads(line) for line in generate.iter_games(paths, 7)]
    assert len(games) == 7
    for number, game in enumerate(games[4:], start=4):
        played = games[number % 4]
        # The same play, as a new record: its own seats, start time and source id.
        assert game["rounds"] == played["rounds"] and game["final"] == played["final"]
        assert game["players"] != played["players"]
        assert game["started_at"] > played["started_at"]
        assert game["source"]["id"] == f"{played['source']['id']}-replayed-as-{number}"
    assert len({game["source"]["id"] for game in games}) == 7
    with pytest.raises(ValueError, match="whole chunks"):
        generate.generate(tmp_path, 7, self_played=3, **quiet)  # type: ignore[arg-type]


def test_seat_names_are_distinct_and_skewed() -> None:
    import random

    rng = random.Random(1)
    seen: Counter[str] = Counter()
    for _ in range(4000):
        names = generate.seat_names(rng, 4, 200)
        assert len(set(names)) == 4
        seen.update(names)
    assert set(seen) <= {generate.player_name(k) for k in range(200)}
    # The most active player plays several times as often as the median one.
    counts = sorted(seen.values(), reverse=True)
    assert counts[0] > 4 * counts[len(counts) // 2]
    with pytest.raises(ValueError, match="cannot fill"):
        generate.seat_names(rng, 4, 3)


@pytest.mark.parametrize("name", ["mjlogs", "test_mjlogs", "postgres", ""])
def test_refuses_databases_it_must_not_drop(name: str) -> None:
    with pytest.raises(BenchmarkSetupError):
        check_name(f"postgres://postgres@127.0.0.1:5432/{name}")


def test_summary_table_states_the_worker_ratio() -> None:
    run = {
        "incremental_stats_seconds": 1.0,
        "incremental_stats_tasks_left": 0,
        "players": 3,
        "recompute_seconds": 1.0,
    }
    summary = {
        "games": 100,
        "machine": {"cores": 2},
        "workers": [
            run | {"workers": 1, "verify_games_per_second": 10.0, "verify_seconds": 10.0},
            run | {"workers": 2, "verify_games_per_second": 18.0, "verify_seconds": 5.6},
        ],
    }
    assert "verification K=2/K=1: 1.80x (on 2 cores)" in summary_table(summary)


def test_summary_table_states_the_production_path_ratios() -> None:
    summary = {
        "games": 100,
        "machine": {"cores": 2},
        "ingest": {
            "games": 100,
            "workers": 2,
            "import_seconds": 2.0,
            "import_games_per_second": 50.0,
            "verify_seconds": 4.0,
            "verify_games_per_second": 25.0,
            "stats_seconds": 1.0,
            "stats_tasks_left": 0,
            "end_to_end_seconds": 5.0,
            "import_cpu_seconds": 0.5,
            "task_cpu": {"replay.tasks.verify_games": {"seconds": 3.0, "runs": 2}},
            "server_cpu": {"postgresql": 0.8},
        },
        "engine_verify": {"jobs": 2, "games": 100, "seconds": 1.0, "cpu_seconds": 1.5,
                          "games_per_second": 100.0},
        "study": {"games": 10, "replay_cpu_seconds": 0.02, "study_cpu_seconds": 0.03,
                  "study_over_replay": 1.5, "cold_replay_cpu_seconds": 0.04,
                  "cold_study_cpu_seconds": 0.02, "cold_study_over_replay": 0.5},
    }  # fmt: skip
    table = summary_table(summary)
    assert "ratio 0.200 (goal 0.5)" in table  # 1.0 s of the engine against 5.0 s end to end
    assert "replay.tasks.verify_games                        30.0  (2 runs)" in table
    assert "import (the importing process)                    5.0" in table
    assert "engine verify (its processes)                    15.0" in table
    assert "study aids / replay, 10 of the games (goal 1.0x): warm 1.50x (replay 2.0 ms" in table
    assert "cold 0.50x (replay 4.0 ms, study 2.0 ms)" in table
    assert "postgresql (its processes on this machine)        8.0" in table
    # 0.5 s queue + 3.0 s workers + 0.8 s servers = 4.3 s against the engine's 1.5 s.
    assert "the service's CPU a game (queue, workers, servers) over the engine's: 2.87x" in table
    # From the CPU, as measured: the 2 workers' 3.0 s (1.5 s each) and the whole 4.3 s on 2
    # cores (2.15 s): 1.0 s of the engine's wall against 2.15. Were the service's code free:
    # the engine's 1.5 s and the study's 0.3 s on 2 workers (0.9 s), and with the servers'
    # 0.8 s on 2 cores (1.3 s): 1.0 against 1.3.
    assert "overlapped on 2 cores: 0.47 as measured; 0.77 were the service's own code" in table
    summary["ingest"] |= {"workers": 1}  # one worker: its own CPU bounds it (3.0 and 1.8 s)
    assert "overlapped on 2 cores: 0.33 as measured; 0.56 were" in summary_table(summary)
    summary["ingest"] |= {"workers": 2}

    # Imported on the workers: the uploading process only queued the files.
    summary["ingest"] |= {"on_workers": True}
    table = summary_table(summary)
    assert "queued for K=2 workers to import and verify: queued 50.0 games/s" in table
    assert "queue (the uploading process)                     5.0" in table
    assert "import (the importing process)" not in table


def test_a_run_waits_for_its_workers_and_names_one_that_never_starts(
    tmp_path: Path, smoke_broker_url: str
) -> None:
    """A run's clock starts once every worker answers; a worker that cannot start is an error
    that points at its log, not a wait for verdicts that never come."""
    from benchmarks.loadbench.services import Workers

    env = os.environ | {"PYTHONPATH": str(ROOT), "CELERY_BROKER_URL": smoke_broker_url}
    with Workers(1, env, tmp_path) as workers:  # the project's app: answers once it is up
        from celery import Celery

        control = Celery(broker=smoke_broker_url).control
        name = f"load0@{socket.gethostname()}"
        assert control.ping(destination=[name], timeout=2) == [{name: {"ok": "pong"}}]
        assert [process.poll() for process in workers.processes] == [None]
    broken = Workers(1, env, tmp_path / "broken", app="no_such_celery_app")
    broken.start()
    try:
        with pytest.raises(BenchmarkSetupError, match="exited with status") as raised:
            broken.wait_ready(timeout=60)
        assert str(tmp_path / "broken") in str(raised.value)
    finally:
        broken.stop()


def test_server_cpu_counts_this_machines_postgresql_and_redis() -> None:
    from benchmarks.loadbench.services import server_cpu_seconds

    used = server_cpu_seconds()
    assert set(used) <= {"postgresql", "redis"}
    running = set()
    for path in Path("/proc").glob("[0-9]*/comm"):
        try:
            running.add(path.read_text().strip())
        except OSError:  # the process ended meanwhile
            continue
    if "postgres" not in running:
        pytest.skip("no PostgreSQL process on this machine")
    assert used["postgresql"] > 0  # a server that has started has used some CPU


def test_task_cpu_files_add_up(tmp_path: Path) -> None:
    from benchmarks.loadbench.task_cpu import read_task_cpu

    for pid, seconds in ((1, 0.5), (2, 1.25)):
        figures = {"replay.tasks.verify_games": {"seconds": seconds, "runs": pid}}
        (tmp_path / f"cpu-{pid}.json").write_text(json.dumps(figures), encoding="utf-8")
    assert read_task_cpu(tmp_path) == {"replay.tasks.verify_games": {"seconds": 1.75, "runs": 3}}


@pytest.mark.django_db(transaction=True)  # (the import verifies once its games commit)
def test_figures_are_current_once_summaries_ratings_and_study_aids_are() -> None:
    from benchmarks.loadbench.pipeline import figures_current
    from engine.formats import canonical
    from engine.sim.selfplay import simulate
    from mjlogs.archives import UploadedFile
    from mjlogs.importing import import_files
    from mjlogs.models import Player
    from stats.catch_up import player_summaries_catch_up, ratings_catch_up, study_catch_up
    from stats.models import RatingsBacklog, RoundFact, SummaryBacklog
    from stats.selectors import study_pending_count

    (game,) = simulate("tenhou-4p-east", 1, 2032)
    import_files([UploadedFile("one.json", canonical.write([game]))])
    player_summaries_catch_up()
    ratings_catch_up()
    study_catch_up()
    assert figures_current()
    # A game whose study aids are not counted yet.
    RoundFact.objects.update(decisions=None)
    assert study_pending_count() == 1 and not figures_current()
    study_catch_up()  # counted: its players' summaries, which show them, are behind now
    assert study_pending_count() == 0 and SummaryBacklog.objects.exists()
    assert not figures_current()
    player_summaries_catch_up()
    assert figures_current()
    RatingsBacklog.objects.update_or_create(pk=1, defaults={"stale": True})
    assert not figures_current()
    RatingsBacklog.objects.filter(pk=1).update(stale=False)
    SummaryBacklog.objects.create(player=Player.objects.first())
    assert not figures_current()
