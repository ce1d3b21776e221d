"""Benchmark a cold start: a fresh process verifying Tenhou mjlog files, ours against ``jansou``.

Usage, from the repository root::

    python benchmarks/cold_vs_jansou.py [--corpus ../shared/corpus/mjlog_xml] [--repeat 3]

Each pass starts two new Python processes on the same files, as a user runs them:
``python -m engine verify CORPUS --jobs 1`` (read, replay and score every game, one verdict
each), and a process that imports ``jansou`` and replays each file with
``jansou.io.replay.replay_paifu(parse_mjlog(...))`` to the end. Everything a fresh process pays
counts: interpreter start, imports, tables built or read on first use, and the games. The
script prints each pass's CPU seconds of the child (so that other load on the machine does not
count), the best of each, and the ratio (issue 21's goal: at least 10). ``benchmarks/
replay_vs_jansou.py`` measures the same replay warm, in one process.

``--bytecode``: both sides with byte-compiled modules, as on a machine that keeps ``.pyc`` files
(``benchmarks/bytecode.py``); without it, the environment as it is (this one compiles the
repository's modules at every start).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bytecode import child_env  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "mjlog_xml"

JANSOU = """
import sys
from pathlib import Path
from jansou.io.mjlog import parse_mjlog
from jansou.io.replay import replay_paifu
for path in sorted(p for p in Path(sys.argv[1]).rglob("*") if p.is_file()):
    try:
        for _ in replay_paifu(parse_mjlog(path.read_bytes())):
            pass
    except Exception:  # jansou's own errors: the file still took its time
        pass
"""


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict[str, str]) -> float:
    before = child_cpu()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: a game did not verify (still a full run)
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return child_cpu() - before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bytecode", action="store_true", help="both sides with .pyc files")
    args = parser.parse_args(argv)
    with child_env(args.bytecode) as env:
        return run(args, env)


def run(args: argparse.Namespace, env: dict[str, str]) -> int:
    files = sum(1 for path in args.corpus.rglob("*") if path.is_file())
    print(f"{files} files under {args.corpus}, a fresh process each pass")
    ours = [sys.executable, "-m", "engine", "verify", str(args.corpus), "--jobs", "1"]
    theirs = [sys.executable, "-c", JANSOU, str(args.corpus)]
    best_ours = best_theirs = float("inf")
    if args.bytecode:  # an untimed pass writes the .pyc files
        timed(ours, env), timed(theirs, env)
    for number in range(1, args.repeat + 1):
        mine, other = timed(ours, env), timed(theirs, env)
        print(f"pass {number}: ours {mine:.2f} s CPU, jansou {other:.2f} s CPU")
        best_ours, best_theirs = min(best_ours, mine), min(best_theirs, other)
    print(f"best: ours {best_ours:.2f} s, jansou {best_theirs:.2f} s")
    modules = "with .pyc files" if args.bytecode else "modules as the environment has them"
    ratio = best_theirs / best_ours
    print(f"ratio jansou/ours (cold, whole process, {modules}): {ratio:.1f}; goal 10")
    return 0


if __name__ == "__main__":
    sys.exit(main())
