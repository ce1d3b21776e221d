"""Benchmark and cross-check ``engine.scoring`` against the ``mahjong`` package (2.1.0).

Usage, from the repository root::

    python benchmarks/score_vs_mahjong.py [--hands 100000] [--seed 1] [--ruleset tenhou-4p]

Generates random complete hands with the generator of the differential tests
(``tests/engine/scoring/hands.py``), builds each engine's inputs beforehand (ours: ``WinningHand``
and ``Ruleset`` from ``parse_request``; mahjong: 136-id arrays, ``Meld`` objects and a
``HandConfig``), then times scoring alone, in the same process on the same hands: our
``score_hand`` against mahjong's ``HandCalculator.estimate_hand_value``. Both engines' results
are then compared field by field (han, fu, yaku, limit, payments, total, or the same error);
the exit status is 1 if any hand disagrees.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.shanten_vs_mahjong import main as shanten_main  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from engine.scoring.request import parse_request, result_to_dict  # noqa: E402
from engine.scoring.score import score_hand  # noqa: E402
from tests.engine.scoring.hands import random_requests  # noqa: E402
from tests.engine.scoring.mahjong_adapter import (  # noqa: E402
    build_inputs,
    differences,
    estimate,
    response_to_dict,
)

T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    """Seconds taken by ``fn()`` (``time.perf_counter``), and what it returned."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def bench_score(requests: Sequence[dict[str, Any]], repeat: int = 1) -> dict[str, Any]:
    """Time both engines over prebuilt inputs of ``requests`` and compare their results.

    The timed passes drop each result as soon as it is made, for both engines alike: keeping
    100,000 results alive makes the garbage collector's passes, not scoring, dominate the time.
    A separate, untimed pass compares the two engines hand by hand.
    """
    ours_inputs = [parse_request(request) for request in requests]
    mahjong_inputs = [build_inputs(request) for request in requests]

    def ours() -> None:
        for hand, ruleset in ours_inputs:
            # try/except, not contextlib.suppress: a context manager per hand would be timed too.
            try:  # noqa: SIM105
                score_hand(hand, ruleset)
            except EngineError:
                pass

    def theirs() -> None:
        for inputs in mahjong_inputs:
            estimate(inputs)

    runs = max(1, repeat)
    ours_s = min(timed(ours)[0] for _ in range(runs))
    mahjong_s = min(timed(theirs)[0] for _ in range(runs))

    disagreements = []
    wins = 0
    for request, (hand, ruleset), inputs in zip(requests, ours_inputs, mahjong_inputs, strict=True):
        try:
            ours_dict = result_to_dict(score_hand(hand, ruleset))
            wins += 1
        except EngineError as error:
            ours_dict = {"error": error.code, "message": str(error)}
        found = differences(ours_dict, response_to_dict(estimate(inputs), inputs))
        if found:
            disagreements.append((request, found))
    n = len(requests)
    return {
        "hands": n,
        "wins": wins,
        "disagreements": len(disagreements),
        "examples": disagreements[:5],
        "ours_s": ours_s,
        "mahjong_s": mahjong_s,
        "ours_hps": n / ours_s,
        "mahjong_hps": n / mahjong_s,
        "ratio": mahjong_s / ours_s,
    }


def time_cli(requests: Sequence[dict[str, Any]]) -> float:
    """CPU seconds of a fresh ``python -m engine score`` process scoring these requests, read
    as JSON lines from standard input and written as JSON lines (what a user pipes)."""
    lines = "".join(json.dumps(request) + "\n" for request in requests)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1) or done.stdout.count("\n") != len(requests):
        sys.exit(f"engine score failed ({done.returncode}): {done.stderr[-1000:]}")
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="tenhou-4p")
    parser.add_argument("--repeat", type=int, default=1, help="time each engine N times, keep best")
    parser.add_argument(
        "--shanten-hands",
        type=int,
        default=200_000,
        help="then run benchmarks/shanten_vs_mahjong.py on this many hands (0: skip)",
    )
    parser.add_argument(
        "--cli",
        action="store_true",
        help="also time `python -m engine score` on the same hands as JSON lines (issue 21)",
    )
    args = parser.parse_args(argv)

    start = time.perf_counter()
    requests = random_requests(args.hands, args.seed, args.ruleset)
    generated = time.perf_counter() - start
    print(
        f"{len(requests)} random complete hands, rule set {args.ruleset}, seed {args.seed} "
        f"(generated in {generated:.1f} s)"
    )
    r = bench_score(requests, repeat=args.repeat)
    print(f"wins {r['wins']}, no-yaku {r['hands'] - r['wins']} (ours); scoring only, prebuilt")
    print(f"disagreements with mahjong: {r['disagreements']}")
    for request, found in r["examples"]:
        print(f"  {request}")
        for line in found:
            print(f"    {line}")
    for label, key in (("ours", "ours"), ("mahjong", "mahjong")):
        seconds = r[key + "_s"]
        print(
            f"{label:>8}: {r[key + '_hps']:>10,.0f} hands/s  "
            f"{seconds / r['hands'] * 1e6:7.2f} us/hand  ({seconds:.2f} s)"
        )
    print(f"ratio ours/mahjong (hands/s): {r['ratio']:.2f}")
    status = 1 if r["disagreements"] else 0
    if args.cli:
        cli_s = time_cli(requests)
        print(
            f"python -m engine score on the {len(requests)} requests as JSON lines, a fresh "
            f"process (reading, scoring and writing every line): {cli_s:.2f} s CPU, "
            f"{len(requests) / cli_s:,.0f} hands/s"
        )
        print(f"ratio engine score / mahjong scoring alone: {r['mahjong_s'] / cli_s:.2f}")
    if args.shanten_hands:
        print("\nshanten (benchmarks/shanten_vs_mahjong.py):")
        shanten_args = ["--hands", str(args.shanten_hands), "--seed", str(args.seed)]
        status |= shanten_main([*shanten_args, "--repeat", str(args.repeat)])
    return status


if __name__ == "__main__":
    sys.exit(main())
