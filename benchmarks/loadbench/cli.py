"""The command line of ``benchmarks/load.py``: runs the steps and prints the summary."""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from benchmarks.loadbench import generate
from benchmarks.loadbench.report import summary_table
from benchmarks.loadbench.services import (
    DEFAULT_BROKER_URL,
    DEFAULT_DATABASE_URL,
    BenchmarkSetupError,
    check_name,
    flush_broker,
    recreate_database,
    redis_client,
    service_env,
)

ROOT = Path(__file__).resolve().parent.parent.parent
#: Games whose study aids are timed against their replay, in the benchmark's process.
STUDY_SAMPLE = 200
DEFAULT_RUNS = ROOT.parent / "loadbench-runs"
STEPS = ("generate", "import", "verify", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/load.py",
        description="Generate N self-played games, import them into a PostgreSQL database of "
        "their own, verify them with K Celery workers, bring the statistics up to date, then "
        "serve the database with gunicorn and measure latency under concurrent load.",
    )
    parser.add_argument("--games", type=int, default=1000, help="N, games to load (1000)")
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[1, 2],
        help="K, Celery worker counts to verify with, one run each on the same games (1 2)",
    )
    parser.add_argument(
        "--only",
        choices=STEPS,
        nargs="+",
        default=list(STEPS),
        help="steps to run (all): generate the games; import them (re-creates the database); "
        "verify them with each K; serve the database under load",
    )
    parser.add_argument(
        "--gen-processes",
        type=int,
        default=os.cpu_count() or 1,
        help="processes that self-play the games (one per core)",
    )
    parser.add_argument(
        "--self-played",
        type=int,
        metavar="D",
        help="self-play only the first D games (whole chunks) and fill the rest with replays of "
        "them under other names and times: new records to import and verify, without the cost "
        "of self-playing them (all N self-played)",
    )
    parser.add_argument(
        "--verify-while-importing",
        action="store_true",
        help="import with the first K workers already verifying, as the service takes a bulk "
        "upload (default: import with the workers stopped, so each step is timed alone)",
    )
    parser.add_argument(
        "--import-on-workers",
        action="store_true",
        help="with --verify-while-importing: queue the games for the K workers, which import "
        "and verify them (`import_logs --on-workers`), instead of importing in this process",
    )
    generate.add_cache_arguments(parser)
    parser.add_argument(
        "--run-dir",
        type=Path,
        default=DEFAULT_RUNS,
        help="where each run's logs and summary go (a folder per N)",
    )
    parser.add_argument(
        "--database-url",
        default=DEFAULT_DATABASE_URL,
        help="the benchmark's own PostgreSQL database, dropped and re-created by the import "
        f"step (never mjlogs nor a test database; default {DEFAULT_DATABASE_URL})",
    )
    parser.add_argument(
        "--broker-url",
        default=DEFAULT_BROKER_URL,
        help=f"the benchmark's own Redis database, emptied between steps ({DEFAULT_BROKER_URL})",
    )
    parser.add_argument(
        "--stats-timeout",
        type=float,
        default=900,
        help="seconds to wait for the statistics tasks the verifications queue (900)",
    )
    parser.add_argument("--port", type=int, default=8765, help="gunicorn's port (8765)")
    parser.add_argument("--web-workers", type=int, default=4, help="gunicorn workers (4)")
    parser.add_argument("--users", type=int, default=16, help="concurrent locust users (16)")
    parser.add_argument("--duration", type=int, default=60, help="seconds of load (60)")
    parser.add_argument(
        "--replicate",
        type=int,
        default=1,
        metavar="F",
        help="before serving, copy every game F-1 times in SQL (query costs at F x N games; "
        "changes the database for good)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        help="summary JSON (RUN_DIR/N/summary.json with the import step, else verify.json or "
        "serve.json)",
    )
    return parser


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except BenchmarkSetupError as error:
        log(f"error: {error}")
        return 2


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise BenchmarkSetupError("--games must be 1 or more")
    if any(count < 1 for count in args.workers):
        raise BenchmarkSetupError("--workers must be 1 or more")
    if args.replicate < 1:
        raise BenchmarkSetupError("--replicate must be 1 or more")
    if args.chunk_games < 1:
        raise BenchmarkSetupError("--chunk-games must be 1 or more")
    if args.self_played is not None and (
        args.self_played < 1
        or (args.self_played < args.games and args.self_played % args.chunk_games)
    ):
        raise BenchmarkSetupError(
            f"--self-played must be a positive multiple of --chunk-games ({args.chunk_games})"
        )
    run_dir = args.run_dir / str(args.games)
    run_dir.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {
        "games": args.games,
        "players_pool": args.players,
        "machine": {
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }

    started = time.perf_counter()
    paths = []
    if "generate" in args.only or "import" in args.only:
        paths = generate.generate(
            args.cache,
            args.games,
            args.gen_processes,
            args.players,
            args.chunk_games,
            log=log,
            self_played=args.self_played,
        )
        summary["self_played"] = min(args.self_played or args.games, args.games)
        summary["generate_seconds"] = round(time.perf_counter() - started, 1)
        summary["cache_bytes"] = sum(path.stat().st_size for path in paths)
    if args.only == ["generate"]:
        log(f"cache ready: {len(paths)} chunks, {summary['cache_bytes'] / 1e6:.0f} MB")
        return 0

    check_name(args.database_url)
    redis_client(args.broker_url)
    env = service_env(args.database_url, args.broker_url)
    from benchmarks.loadbench import pipeline

    if "import" in args.only:
        log(f"re-creating the database {args.database_url}")
        recreate_database(args.database_url)
        pipeline.setup_django(env)
        summary["migrate_seconds"] = round(pipeline.migrate(), 1)
        flush_broker(args.broker_url)
        games = generate.iter_games(paths, args.games)
        if args.verify_while_importing or args.import_on_workers:
            count = args.workers[0]
            with pipeline.AnalyzeWhileBusy(args.database_url):
                ingest = pipeline.import_while_verifying(
                    games,
                    count,
                    env,
                    run_dir / "logs",
                    args.broker_url,
                    args.stats_timeout,
                    log,
                    on_workers=args.import_on_workers,
                )
            summary["ingest"] = ingest.to_json()
            pipeline.analyze()
            summary["storage"] = pipeline.storage_figures()
            log(f"the same games through `python -m engine verify --jobs {count}`")
            summary["engine_verify"] = pipeline.engine_verify(
                generate.iter_games(paths, args.games), count, run_dir / "engine-verify"
            ).to_json()
            log(f"the study aids against the replay, {STUDY_SAMPLE} of the games, warm and cold")
            summary["study"] = pipeline.study_vs_replay(
                generate.iter_games(paths, args.games), STUDY_SAMPLE, run_dir
            ).to_json()
        else:
            log(f"importing {args.games} games (workers stopped)")
            with pipeline.AnalyzeWhileBusy(args.database_url):
                imported = pipeline.import_games(games, log)
            summary["import"] = imported.to_json()
            log(f"imported in {imported.seconds:.1f} s: {imported.games_per_second:.1f} games/s")
    else:
        pipeline.setup_django(env)
    if "verify" in args.only:
        pipeline.analyze()
        with pipeline.AnalyzeWhileBusy(args.database_url):
            summary["workers"] = [
                pipeline.verify_with_workers(
                    count, env, run_dir / "logs", args.broker_url, args.stats_timeout, log
                ).to_json()
                for count in args.workers
            ]
        pipeline.analyze()
        summary["storage"] = pipeline.storage_figures()
        _write(summary, args, run_dir)

    if "serve" in args.only:
        from benchmarks.loadbench import serve

        if args.replicate > 1:
            from benchmarks.loadbench.replicate import replicate, statistics_catch_up

            log(f"replicating every game {args.replicate - 1} times in SQL")
            summary["replicated"] = replicate(args.replicate)
            log(f"now {summary['replicated']['games']} games; bringing the statistics up to date")
            summary["replicated"]["statistics"] = statistics_catch_up()
            log(f"statistics up to date: {summary['replicated']['statistics']}")
        pipeline.analyze()
        targets = serve.write_targets(run_dir / "targets.json")
        summary["queries"] = serve.query_counts(serve.endpoint_paths(targets))
        summary["load"] = serve.run_load(
            env | {"DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost"},
            run_dir,
            port=args.port,
            web_workers=args.web_workers,
            users=args.users,
            duration=args.duration,
            log=log,
        )
        summary["load_settings"] = {
            "users": args.users,
            "duration_s": args.duration,
            "web_workers": args.web_workers,
        }
    summary["total_seconds"] = round(time.perf_counter() - started, 1)
    output = _write(summary, args, run_dir)
    print(summary_table(summary))
    log(f"summary written to {output}")
    return 0


def _write(summary: dict[str, Any], args: argparse.Namespace, run_dir: Path) -> Path:
    if "import" in args.only:
        default = "summary.json"
    else:
        default = "verify.json" if "verify" in args.only else "serve.json"
    output: Path = args.output or run_dir / default
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return output
