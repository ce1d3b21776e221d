"""Benchmark ``python -m engine verify`` on many files: one worker process against N.

Usage, from the repository root::

    python benchmarks/verify_jobs.py [PATH ...] [--jobs N] [--repeat 3]
    python benchmarks/verify_jobs.py --simulate 200 --files 8 [--seed 777]

Runs ``python -m engine verify --jobs 1`` and ``--jobs N`` (default: every core this process may
use) on the same files, as subprocesses, the two alternating, and prints the wall time of each
pass, the best of each and the ratio. PATH defaults to the shared corpus (``../shared/corpus``,
137 records of one game each and a manifest); ``--simulate GAMES --files K`` verifies
self-played tenhou-4p games instead (``engine simulate``, untimed), split into K files of
canonical JSON lines.

Wall time, whole commands: the user waits for interpreter start, engine import and the workers'
start-up as much as for the replays, and N workers cannot save CPU time, only wall time (each
starts cold: it builds the hand tables and caches that one process builds once). With other
load on the machine, N workers share the cores left: the ratio is that of this machine now.

Exit status 1 if the two commands' outputs differ (games/s aside): a benchmark of a parallel run
that answers differently is useless.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.jobs import all_cores  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
#: The summary's speed: the one part of the output that differs from run to run.
RATE = re.compile(r" \(\d+ games/s\)")


def engine_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "engine", *args]


def simulated_files(games: int, files: int, seed: int, folder: Path) -> list[Path]:
    """``games`` self-played games, split into ``files`` files of consecutive games."""
    simulate = ("simulate", "--ruleset", "tenhou-4p", "--games", str(games), "--seed", str(seed))
    lines = subprocess.run(
        engine_command(*simulate), cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines(keepends=True)
    size = -(-len(lines) // files)  # games per file, rounded up: no file left empty
    paths = []
    for start in range(0, len(lines), size):
        path = folder / f"games_{start:06}.jsonl"
        path.write_text("".join(lines[start : start + size]), encoding="utf-8")
        paths.append(path)
    return paths


def timed_verify(paths: list[str], jobs: int) -> tuple[float, str]:
    """Wall seconds of one ``verify --jobs`` command, and its output with games/s left out."""
    start = time.perf_counter()
    result = subprocess.run(
        engine_command("verify", "--jobs", str(jobs), *paths),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    return seconds, f"exit status {result.returncode}\n{result.stdout}{RATE.sub('', result.stderr)}"


def compare(paths: list[str], jobs: int, repeat: int) -> int:
    best = {1: float("inf"), jobs: float("inf")}
    outputs: list[str] = []
    for number in range(1, repeat + 1):
        times = []
        for count in best:
            seconds, output = timed_verify(paths, count)
            best[count] = min(best[count], seconds)
            outputs.append(output)
            times.append(f"--jobs {count} {seconds:6.2f} s")
        print(f"pass {number}: " + ", ".join(times))
    print(f"{'summary:':<24}{outputs[0].splitlines()[-1]}")
    for count, seconds in best.items():
        print(f"{f'--jobs {count} best pass:':<24}{seconds:6.2f} s")
    print(f"{'ratio (best / best):':<24}{best[1] / best[jobs]:6.2f}x")
    if len(set(outputs)) > 1:
        print("the outputs of the runs differ", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", metavar="PATH", default=[str(DEFAULT_CORPUS)])
    parser.add_argument("--jobs", type=int, default=all_cores(), help="default: %(default)s")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--simulate", type=int, metavar="GAMES", help="verify self-played games")
    parser.add_argument("--files", type=int, default=8, help="files of --simulate's games")
    parser.add_argument("--seed", type=int, default=777, help="seed of --simulate's games")
    args = parser.parse_args(argv)
    if args.jobs < 2 or args.repeat < 1 or args.files < 1:
        parser.error("--jobs must be 2 or more, --repeat and --files 1 or more")
    print(f"{all_cores()} core(s) for this process; --jobs 1 against --jobs {args.jobs}")
    if args.simulate is None:
        return compare(args.paths, args.jobs, args.repeat)
    with tempfile.TemporaryDirectory() as folder:
        files = simulated_files(args.simulate, args.files, args.seed, Path(folder))
        print(f"{args.simulate} self-played games in {len(files)} file(s)")
        return compare([str(path) for path in files], args.jobs, args.repeat)


if __name__ == "__main__":
    sys.exit(main())
