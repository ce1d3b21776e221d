"""Benchmark an import on the default setup against the engine alone on the same files.

Usage, from the repository root::

    python benchmarks/import_vs_verify.py [PATH ...] [--repeat 3] [--jobs N]

PATH defaults to ``../shared/corpus``. Each pass runs, as fresh processes (cold, as a user runs
them), ``manage.py import_logs PATH`` into a new SQLite database with Celery eager (the default
setup: the import stores each game, verifies it in-process and brings the statistics up to
date) and ``python -m engine verify PATH`` (read and replay every game, nothing stored), both
as a user runs them: each with every core by default (``--jobs N``: both with N). The
database's tables are made before the clock starts. The script prints each pass's wall and CPU
seconds (CPU: of the child process and its workers, so that other load on the machine does not
count), the best of each side as games/s, and the ratio import/verify (wall): issue 21's goal
is at least 0.5.

``--bytecode``: both sides with byte-compiled modules, as on a machine that keeps ``.pyc`` files
(``benchmarks/bytecode.py``); without it, the environment as it is (this one compiles the
repository's modules at every start: Django's apps and the engine).

Exit status 1 if the two disagree on how many games there are (or a command fails).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bytecode import child_env  # noqa: E402
from engine.jobs import all_cores  # noqa: E402

DEFAULT_PATHS = [ROOT.parent / "shared" / "corpus"]
PYTHON = sys.executable

IMPORTED = re.compile(r"(\d+) games imported, (\d+) duplicates")
VERIFIED = re.compile(r"^(\d+) game\(s\) in", re.MULTILINE)


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict[str, str], cwd: Path = ROOT) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the child, and its output (run in ``cwd``)."""
    cpu = child_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: some game did not verify, or a file failed
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return wall, child_cpu() - cpu, done.stdout + done.stderr  # (engine verify sums up on stderr)


def default_setup_env(database: Path, base: dict[str, str]) -> dict[str, str]:
    env = {name: value for name, value in base.items() if not name.startswith("CELERY_")}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    env.pop("DJANGO_CACHE_URL", None)
    return env


def import_pass(
    paths: list[str], jobs: list[str], base: dict[str, str], tree: Path = ROOT, again: bool = False
) -> tuple[float, float, int]:
    """One ``import_logs`` of ``tree`` (a checkout) into a new database: its wall and CPU
    seconds, and the games it counted. ``again``: the database holds the games already (an
    untimed import first), as for a folder imported a second time."""
    with tempfile.TemporaryDirectory() as folder:
        env = default_setup_env(Path(folder) / "db.sqlite3", base)
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=tree, env=env, check=True)
        command = [PYTHON, "manage.py", "import_logs", *paths, "--quiet", *jobs]
        if again:
            timed(command, env, tree)
        wall, cpu, output = timed(command, env, tree)
    found = IMPORTED.search(output)
    if found is None:
        sys.exit(f"import_logs said no count:\n{output[-2000:]}")
    return wall, cpu, int(found.group(1)) + int(found.group(2))


def verify_pass(paths: list[str], jobs: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    wall, cpu, output = timed([PYTHON, "-m", "engine", "verify", *paths, *jobs], env)
    found = VERIFIED.search(output)
    if found is None:
        sys.exit(f"engine verify said no count:\n{output[-2000:]}")
    return wall, cpu, int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=DEFAULT_PATHS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bytecode", action="store_true", help="both sides with .pyc files")
    parser.add_argument(
        "--jobs", type=int, help="processes of each side (default: each command's, every core)"
    )
    args = parser.parse_args(argv)
    with child_env(args.bytecode) as env:
        return compare([str(path.resolve()) for path in args.paths], args, env)


def compare(paths: list[str], args: argparse.Namespace, env: dict[str, str]) -> int:
    never = (float("inf"), float("inf"))
    best = {"import_logs": never, "engine verify": never}  # (wall, CPU) seconds
    counts = {}
    sides = (("import_logs", import_pass), ("engine verify", verify_pass))
    jobs = [] if args.jobs is None else ["--jobs", str(args.jobs)]
    if args.bytecode:  # an untimed pass of each writes the .pyc files
        for _, run in sides:
            run(paths, jobs, env)
    for number in range(1, args.repeat + 1):
        for side, run in sides:
            wall, cpu, games = run(paths, jobs, env)
            counts[side] = games
            print(f"pass {number} {side:>13}: {games} games, {wall:6.2f} s wall, {cpu:6.2f} s CPU")
            best[side] = (min(best[side][0], wall), min(best[side][1], cpu))
    if counts["import_logs"] != counts["engine verify"]:
        print(f"the two count different games: {counts}", file=sys.stderr)
        return 1
    games = counts["import_logs"]
    for side, (wall, cpu) in best.items():
        print(f"best {side:>13}: {games / wall:6.1f} games/s wall, {games / cpu:6.1f} games/s CPU")
    wall_ratio = best["engine verify"][0] / best["import_logs"][0]
    cpu_ratio = best["engine verify"][1] / best["import_logs"][1]
    modules = "with .pyc files" if args.bytecode else "modules as the environment has them"
    processes = f"--jobs {args.jobs}" if args.jobs else f"every core ({all_cores()})"
    print(
        f"import_logs / engine verify ({modules}; {processes}): {wall_ratio:.2f} (wall), "
        f"{cpu_ratio:.2f} (CPU); goal 0.5 (wall)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
