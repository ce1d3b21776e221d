"""A worker's memory and collector time over many verification tasks: Python's collector
settings against the batch ones a Celery worker starts with (``engine.gc_settings``), on the
same games.

Usage, from the repository root::

    python benchmarks/task_memory.py [--games 1000] [--seed 9090]

Stores GAMES self-played Tenhou games in a new SQLite database, then runs the body of the
``verify_game`` task (what a Celery worker's process runs for each game) for every one of them,
in a fresh process with Python's collector thresholds and then in one settled as a worker is
(``settle_for_batch_work``). The statistics' catch-up, which a worker runs as tasks of their
own, is left out: in one process each verification would recompute the summaries and ratings.
Prints, every 200 tasks, the process's resident memory, the collector's seconds so far (timed by
``gc.callbacks``) and the seconds since the first task; then each side's peak.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.import_vs_verify import default_setup_env  # noqa: E402

#: The two sides: Python's collector settings, and a worker's (engine.gc_settings).
SIDES = ("python", "worker")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=9090)
    parser.add_argument("--store", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--run", choices=SIDES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.store:
        return _store(args.games, args.seed)
    if args.run:
        return _run(args.run)
    with tempfile.TemporaryDirectory() as folder:
        env = default_setup_env(Path(folder) / "db.sqlite3", dict(os.environ))
        env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

        def this_script(*options: str) -> None:
            command = [sys.executable, __file__, *options]
            subprocess.run(command, cwd=ROOT, env=env, check=True)

        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True
        )
        this_script("--store", "--games", str(args.games), "--seed", str(args.seed))
        for side in SIDES:
            this_script("--run", side)
    return 0


def _set_up_django() -> None:
    """Django set up for this script's child processes, its logging below warnings quiet."""
    import logging

    import django

    django.setup()
    logging.disable(logging.WARNING)


def _store(games: int, seed: int) -> int:
    _set_up_django()
    from engine.formats import canonical
    from engine.sim.selfplay import simulate
    from mjlogs.archives import UploadedFile
    from mjlogs.importing import import_files

    played = simulate("tenhou-4p", games, seed)
    files = (UploadedFile(f"{i}.json", canonical.write([game])) for i, game in enumerate(played))
    summary = import_files(files, study_after=False)
    print(f"{summary.counts['imported']} self-played games stored (seed {seed})")
    return 0


def _run(side: str) -> int:
    import gc
    import time

    if side == "worker":
        from engine.gc_settings import settle_for_batch_work

        settle_for_batch_work(skip_exit_collection=False)
    _set_up_django()
    import stats.catch_up
    from mjlogs.models import Game
    from replay.tasks import verify_game

    # A worker queues the statistics' catch-up as tasks of their own: not run here.
    stats.catch_up.queue_catch_up = lambda task: None  # type: ignore[assignment]
    collecting = [0.0, 0.0]  # seconds in all, and when the current collection started

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[1] = time.perf_counter()
        else:
            collecting[0] += time.perf_counter() - collecting[1]

    gc.callbacks.append(timed)
    ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    print(f"{side}'s collector settings {gc.get_threshold()}: {len(ids)} verify_game tasks")
    started = time.perf_counter()
    for done, game_id in enumerate(ids, 1):
        verify_game.run(game_id)
        if done % 200 == 0 or done == len(ids):
            print(
                f"  {done:6d} tasks: {_resident_mb():6.1f} MB resident, collector "
                f"{collecting[0]:5.2f} s, {time.perf_counter() - started:6.1f} s",
                flush=True,
            )
    print(f"  peak {_resident_mb('VmHWM'):.1f} MB")
    return 0


def _resident_mb(field: str = "VmRSS") -> float:
    """This process's resident memory (``VmRSS``) or its peak (``VmHWM``), from Linux's /proc,
    in MB; 0 where it cannot be read."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


if __name__ == "__main__":
    sys.exit(main())
