"""Benchmark ``import_logs`` of this checkout against another commit's, on the same files.

Usage, from the repository root::

    python benchmarks/import_commits.py REV [PATH ...] [--repeat 5] [--jobs N] [--again]

REV (a commit, a branch) is checked out in a temporary git worktree; each pass runs, as fresh
processes, ``manage.py import_logs PATH`` of that tree and then of this one, alternated so that
the machine's changes of speed fall on both alike, each into a new SQLite database on the
default setup (Celery eager) whose tables are made before the clock starts. With ``--again``
each database already holds the files' games (imported once, untimed): the timed import finds
every game a duplicate, as a folder imported a second time does. PATH defaults to
``../shared/corpus``; ``--jobs`` is passed to both (default: each command's own).

Prints each pass's wall and CPU seconds (the command's and its workers'), then each side's
mean and best, and this tree's time as a fraction of REV's (below 1: faster). Exit status 1
if the two count different games.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bytecode import child_env  # noqa: E402
from benchmarks.import_vs_verify import DEFAULT_PATHS, import_pass  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("rev", help="the commit to compare this checkout with")
    parser.add_argument("paths", nargs="*", type=Path, default=DEFAULT_PATHS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jobs", type=int, help="import_logs --jobs of both")
    parser.add_argument(
        "--again", action="store_true", help="time an import of games already stored"
    )
    args = parser.parse_args(argv)
    if any((ROOT / "engine").rglob("*.so")):
        # The other commit's worktree holds none: a compiled engine against a pure one.
        sys.exit("this checkout's engine is compiled: `python -m engine.compile --clean` first")
    paths = [str(path.resolve()) for path in args.paths]
    jobs = [] if args.jobs is None else ["--jobs", str(args.jobs)]
    with tempfile.TemporaryDirectory(prefix="import-commits-") as folder:
        other = Path(folder) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(other), args.rev],
            cwd=ROOT,
            check=True,
        )
        try:
            with child_env(False) as env:
                return compare(other, paths, jobs, env, args)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=False
            )


def compare(
    other: Path, paths: list[str], jobs: list[str], env: dict[str, str], args: argparse.Namespace
) -> int:
    sides = {args.rev: other, "this checkout": ROOT}
    walls: dict[str, list[float]] = {side: [] for side in sides}
    cpus: dict[str, list[float]] = {side: [] for side in sides}
    counts: dict[str, int] = {}
    for number in range(1, args.repeat + 1):
        for side, tree in sides.items():
            wall, cpu, counts[side] = import_pass(paths, jobs, env, tree, args.again)
            walls[side].append(wall)
            cpus[side].append(cpu)
            print(
                f"pass {number} {side:>15}: {counts[side]} games, {wall:6.2f} s wall, "
                f"{cpu:6.2f} s CPU"
            )
    if len(set(counts.values())) != 1:
        print(f"the two count different games: {counts}", file=sys.stderr)
        return 1
    for side, seconds in walls.items():
        print(
            f"{side:>15}: mean {statistics.mean(seconds):.2f} s, best {min(seconds):.2f} s; "
            f"CPU mean {statistics.mean(cpus[side]):.2f} s"
        )
    case = "games already stored" if args.again else "new database"
    if jobs:
        case += ", " + " ".join(jobs)
    this, that = walls["this checkout"], walls[args.rev]
    means = statistics.mean(this) / statistics.mean(that)
    cpu_means = statistics.mean(cpus["this checkout"]) / statistics.mean(cpus[args.rev])
    print(
        f"this checkout / {args.rev} ({case}): {means:.2f} (means), "
        f"{min(this) / min(that):.2f} (bests); CPU {cpu_means:.2f} (means)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
