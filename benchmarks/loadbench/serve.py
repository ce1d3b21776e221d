"""Step 3: serve the benchmark's database with gunicorn and measure latency under load.

Before the load, each endpoint is requested once in this process with Django's test client, to
count its database queries (an N+1 shows as a count that grows with the page) and time it alone.
Then gunicorn serves the database and locust, headless, runs the readers of ``locustfile.py``;
its per-endpoint percentiles and rates are the figures.
"""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.loadbench.services import ROOT, BenchmarkSetupError

LOCUSTFILE = Path(__file__).with_name("locustfile.py")
#: Players always in the sample: the most active (their statistics cost the most).
TOP_PLAYERS = 20


def write_targets(path: Path, sample_games: int = 500, sample_players: int = 300) -> dict[str, Any]:
    """Choose the games and players the load requests, and write them for the locustfile."""
    from django.db.models import Count

    from mjlogs.models import Game, Player

    rng = random.Random(0)
    ids = list(Game.objects.values_list("pk", "rounds_count"))
    games = rng.sample(ids, min(sample_games, len(ids)))
    players = list(Player.objects.values_list("pk", flat=True))
    busiest = list(
        Player.objects.annotate(played=Count("seats"))
        .order_by("-played")
        .values_list("pk", flat=True)[:TOP_PLAYERS]
    )
    chosen = set(rng.sample(players, min(sample_players, len(players)))) | set(busiest)
    page_size = 50
    targets = {
        "games": [list(game) for game in games],
        "players": sorted(chosen),
        "list_pages": max(1, min(20, len(ids) // page_size)),
    }
    path.write_text(json.dumps(targets), encoding="utf-8")
    return targets


def endpoint_paths(targets: dict[str, Any]) -> dict[str, str]:
    """One path per endpoint, for the query counts: the heaviest player sampled, a game."""
    game_id, _ = targets["games"][0]
    from django.db.models import Count

    from mjlogs.models import Player

    busiest = (
        Player.objects.annotate(played=Count("seats")).order_by("-played").values("pk").first()
    )
    player_id = busiest["pk"] if busiest else targets["players"][0]
    return {
        "game list (page)": "/games/",
        "game list (page 20)": f"/games/?page={targets['list_pages']}",
        "game list (API)": "/api/games/",
        "game page": f"/games/{game_id}/",
        "viewer frames (API)": f"/api/games/{game_id}/rounds/0/frames/",
        "player stats (API), busiest player": f"/api/players/{player_id}/stats/",
    }


def query_counts(paths: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Each endpoint once, in this process: status, database queries, milliseconds."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    figures = {}
    for name, path in paths.items():
        client.get(path)  # warm: first-use costs (templates, caches) are not the endpoint's
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(path)
            elapsed = time.perf_counter() - started
        figures[name] = {
            "path": path,
            "status": response.status_code,
            "queries": len(queries.captured_queries),
            "ms": round(elapsed * 1000, 1),
        }
    return figures


def run_load(
    env: dict[str, str],
    out_dir: Path,
    *,
    port: int,
    web_workers: int,
    users: int,
    duration: int,
    log: Callable[[str], None],
) -> dict[str, dict[str, float]]:
    """Serve with gunicorn, run locust against it; per endpoint: p50, p95, p99 (ms), req/s."""
    out_dir.mkdir(parents=True, exist_ok=True)
    targets = out_dir / "targets.json"
    host = f"http://127.0.0.1:{port}"
    web_log = (out_dir / "gunicorn.log").open("wb")
    gunicorn = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--workers",
            str(web_workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--timeout",
            "60",
        ],
        cwd=ROOT,
        env=env,
        stdout=web_log,
        stderr=web_log,
    )
    try:
        _wait_healthy(host, gunicorn)
        _warm_up(host, targets, web_workers)
        prefix = out_dir / "locust"
        log(f"load: {users} users for {duration} s against {host} ({web_workers} web workers)")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "locust",
                "-f",
                str(LOCUSTFILE),
                "--headless",
                "--users",
                str(users),
                "--spawn-rate",
                str(users),
                "--run-time",
                f"{duration}s",
                "--host",
                host,
                "--csv",
                str(prefix),
                "--only-summary",
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env=env | {"LOADBENCH_TARGETS": str(targets)},
            check=False,
            stdout=subprocess.DEVNULL,
        )
        return _read_stats(prefix.with_name(prefix.name + "_stats.csv"))
    finally:
        gunicorn.terminate()
        gunicorn.wait(timeout=30)


def _warm_up(host: str, targets_path: Path, web_workers: int) -> None:
    """Request every endpoint a few times from ``web_workers`` clients at once before
    measuring, so that every web worker serves each of them: each process compiles its
    templates and fills the engine's tables on first use (the first viewer frames cost
    ~0.8 s, later ones ~30 ms), a cost paid once per process, not per request. Requests one
    at a time would mostly reach the same worker (the kernel wakes the last one to wait), and
    the first requests of the cold ones would be the p95 of the load."""
    targets = json.loads(targets_path.read_text(encoding="utf-8"))
    game_id, _ = targets["games"][0]
    paths = [
        "/games/",
        "/api/games/",
        f"/games/{game_id}/",
        f"/api/games/{game_id}/rounds/0/frames/",
        f"/api/players/{targets['players'][0]}/stats/",
    ]

    def browse(_: int) -> None:
        for _ in range(3):
            for path in paths:
                with urllib.request.urlopen(f"{host}{path}", timeout=60) as response:
                    response.read()

    with ThreadPoolExecutor(max_workers=web_workers) as clients:
        list(clients.map(browse, range(2 * web_workers)))


def _wait_healthy(host: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise BenchmarkSetupError(f"gunicorn exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(f"{host}/health/", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise BenchmarkSetupError(f"gunicorn at {host} did not answer /health/ within 60 s")


def _read_stats(path: Path) -> dict[str, dict[str, float]]:
    if not path.exists():
        raise BenchmarkSetupError(f"locust wrote no statistics ({path} missing)")
    figures = {}
    with path.open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            figures[row["Name"]] = {
                "requests": int(row["Request Count"]),
                "failures": int(row["Failure Count"]),
                "p50_ms": float(row["50%"]),
                "p95_ms": float(row["95%"]),
                "p99_ms": float(row["99%"]),
                "requests_per_second": round(float(row["Requests/s"]), 1),
            }
    return figures
