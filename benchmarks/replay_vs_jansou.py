"""Benchmark the full legality replay of Tenhou mjlog files: ours against ``jansou``.

Usage, from the repository root::

    python benchmarks/replay_vs_jansou.py [--corpus ../shared/corpus/mjlog_xml] [--repeat 5]

Both sides get the same files' bytes, read from disk beforehand, and do the whole job: parse the
mjlog and replay every game with legality checks (ours: ``engine.formats.mjlog.read_mjlog`` then
``engine.replay.replay``, which also scores every win and compares every figure; jansou:
``jansou.io.mjlog.parse_mjlog`` then ``jansou.io.replay.replay_paifu``, consumed to the end). The
passes alternate between the two in one process, timed in CPU seconds of the process; the script
prints each pass, the best pass of each (games/s) and the ratio. The first pass of ours is also
shown on its own ("cold"): it includes filling the shanten tables, which later passes reuse.
Later passes replay hands the memos have seen; ``--warm-up N`` replays N self-played games
first and times one pass of the corpus before the others: games the process has not seen, in a
process that has run (a worker's steady state).

Exit status 1 if any game fails to verify on our side (a benchmark of wrong answers is useless).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.formats.mjlog import read_mjlog  # noqa: E402
from engine.replay import Verdict, replay  # noqa: E402
from engine.sim.selfplay import simulate  # noqa: E402

#: A record that holds part of a game (the corpus has two) verifies as far as it goes.
AGREEING = (Verdict.VERIFIED, Verdict.VERIFIED_FRAGMENT)
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "mjlog_xml"
#: Self-played games for --warm-up: none of their hands are the corpus's.
WARM_UP_SEED = 99_991


def ours(datas: list[bytes]) -> int:
    failures = 0
    for data in datas:
        report = replay(read_mjlog(data))
        failures += report.verdict not in AGREEING
    return failures


def theirs(datas: list[bytes]) -> int:
    from jansou.io.mjlog import parse_mjlog
    from jansou.io.replay import replay_paifu

    failures = 0
    for data in datas:
        try:
            for _ in replay_paifu(parse_mjlog(data)):
                pass
        except Exception:  # jansou's own error types: count them, keep timing
            failures += 1
    return failures


def timed(run: Callable[[list[bytes]], int], datas: list[bytes]) -> tuple[float, int]:
    """Seconds of this process's CPU time (not wall time: other load on the machine would
    skew whichever side it happened to fall on) and the failures."""
    gc.collect()  # each side starts from a clean heap, not the other side's garbage
    start = time.process_time()
    failures = run(datas)
    return time.process_time() - start, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--warm-up",
        type=int,
        default=0,
        metavar="N",
        help="first replay N self-played games, then time the corpus once as unseen games",
    )
    args = parser.parse_args(argv)
    paths = sorted(path for path in args.corpus.rglob("*") if path.is_file())
    if not paths:
        print(f"no files under {args.corpus}", file=sys.stderr)
        return 2
    datas = [path.read_bytes() for path in paths]
    games = len(datas)
    print(f"{games} mjlog games from {args.corpus}")
    unseen = None
    if args.warm_up:
        # Our code paths and tables warmed on other games (self-played), then the corpus once:
        # every hand of it unseen by the memos, as a long-running worker meets new games.
        for game in simulate("tenhou-4p", args.warm_up, WARM_UP_SEED):
            replay(game)
        unseen, _ = timed(ours, datas)
    best_ours = best_theirs = float("inf")
    cold = None
    our_failures = 0
    for number in range(1, args.repeat + 1):
        seconds, our_failures = timed(ours, datas)
        cold = seconds if cold is None else cold
        best_ours = min(best_ours, seconds)
        their_seconds, their_failures = timed(theirs, datas)
        best_theirs = min(best_theirs, their_seconds)
        print(
            f"pass {number}: ours {games / seconds:7.1f} games/s ({our_failures} not verified), "
            f"jansou {games / their_seconds:6.1f} games/s ({their_failures} failed)"
        )
    assert cold is not None
    if unseen is not None:
        print(f"ours unseen (after warm-up): {games / unseen:4.1f} games/s")
    else:
        print(f"ours cold (first pass):   {games / cold:7.1f} games/s")
    print(f"ours best pass:           {games / best_ours:7.1f} games/s")
    print(f"jansou best pass:         {games / best_theirs:7.1f} games/s")
    print(f"ratio (best / best):      {best_theirs / best_ours:7.1f}x")
    if unseen is not None:
        print(f"ratio (our unseen / best): {best_theirs / unseen:6.1f}x")
    else:
        print(f"ratio (our cold / best):  {best_theirs / cold:7.1f}x")
    return 1 if our_failures else 0


if __name__ == "__main__":
    sys.exit(main())
