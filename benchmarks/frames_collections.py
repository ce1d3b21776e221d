"""The viewer's frames requests in a web process as the server runs it (``config.wsgi``: the
collector settled for serving, ``engine.gc_settings.settle_for_serving``) against Python's
default collector, on the same requests.

Usage, from the repository root, against a database with verified games (such as the load
benchmark's, ``benchmarks/load.py``)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mjlogs_load \\
        python benchmarks/frames_collections.py [--requests 150] [--repeat 2]

Each pass is a fresh process that sets Django up, then asks the first hand's frames of
``--requests`` games (the same games, in the same order, for both sides) through Django's test
client, timing each request and each full collection (``gc.callbacks``). The passes alternate
between the two sides; the script prints each pass's p50 and p95, the full collections and
their time, and the ratio of the best p95 of each side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PASS = r"""
import gc, json, os, sys, time
import django
django.setup()
from django.test import Client
from mjlogs.models import Game
if sys.argv[1] == "serving":
    from engine.gc_settings import settle_for_serving
    settle_for_serving()
pauses, started = [], [0.0]
def timed(phase, info):
    if phase == "start":
        started[0] = time.perf_counter()
    elif info["generation"] == 2:
        pauses.append(time.perf_counter() - started[0])
gc.callbacks.append(timed)
client = Client()
ids = Game.objects.filter(verification__verdict="verified").order_by("pk")
times = []
for game_id in ids.values_list("pk", flat=True)[: int(sys.argv[2])]:
    begun = time.perf_counter()
    answer = client.get(f"/api/games/{game_id}/rounds/0/frames/")
    assert answer.status_code == 200, answer.status_code
    times.append(time.perf_counter() - begun)
times.sort()
print(json.dumps({"p50": times[len(times) // 2], "p95": times[int(len(times) * 0.95)],
                  "requests": len(times), "full": len(pauses), "full_seconds": sum(pauses)}))
"""


def one_pass(side: str, requests: int) -> dict[str, float]:
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT)}
    env.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    done = subprocess.run(
        [sys.executable, "-c", PASS, side, str(requests)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the {side} pass failed:\n{done.stderr[-3000:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=150, help="frames requests a pass")
    parser.add_argument("--repeat", type=int, default=2, help="passes of each side")
    args = parser.parse_args(argv)
    best: dict[str, float] = {}
    for number in range(1, args.repeat + 1):
        for side in ("default", "serving"):
            figures = one_pass(side, args.requests)
            print(
                f"pass {number} {side:8}: {int(figures['requests'])} requests, "
                f"p50 {figures['p50'] * 1000:6.1f} ms, p95 {figures['p95'] * 1000:6.1f} ms; "
                f"{int(figures['full'])} full collections, {figures['full_seconds'] * 1000:.0f} ms"
            )
            best[side] = min(best.get(side, figures["p95"]), figures["p95"])
    print(
        f"best p95: default collector {best['default'] * 1000:.1f} ms, settled for serving "
        f"{best['serving'] * 1000:.1f} ms; ratio {best['serving'] / best['default']:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
