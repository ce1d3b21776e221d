"""Benchmark and cross-check ``engine.scoring`` against the ``mahjong`` package (2.1.0).

Usage, from the repository root::

    python benchmarks/score_vs_mahjong.py [--hands 100000] [--seed 1] [--ruleset tenhou-4p]

Generates random complete hands with the generator of the differential tests
(``tests/engine/scoring/hands.py``, from ``--seed``), then compares the two engines twice, like
with like:

* **In process, scoring alone.** Each engine's inputs are built beforehand (ours: ``WinningHand``
  and ``Ruleset`` from ``parse_request``; mahjong: 136-id arrays, ``Meld`` objects and a
  ``HandConfig``), then scoring alone is timed in this process (its CPU seconds) on the same
  hands: our ``score_hand`` against mahjong's ``HandCalculator.estimate_hand_value``.
* **Whole processes** (``--no-processes`` skips it). The hands are written as JSON lines to a
  file; ``python -m engine score`` and ``benchmarks/mahjong_score_lines.py`` (what a user would
  write to score the same lines with mahjong) each run as a fresh process reading that file and
  writing one JSON result per line: CPU seconds of the child (``getrusage``), the two
  alternated, best of ``--repeat``.

Both engines' results are compared field by field (han, fu, yaku, limit, payments, total, or
the same error), in process and line by line between the two processes; the exit status is 1
if any hand disagrees.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.shanten_vs_mahjong import main as shanten_main  # noqa: E402
from engine import is_compiled  # noqa: E402
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
    """CPU seconds this process spent in ``fn()`` (``time.process_time``: the machine is
    shared, and another process's work must not count), and what it returned."""
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


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


PEER_SCRIPT = Path(__file__).resolve().parent / "mahjong_score_lines.py"

#: The two whole processes, each reading JSON lines on standard input and writing JSON lines.
PROCESSES: dict[str, list[str]] = {
    "engine score": [sys.executable, "-m", "engine", "score"],
    "mahjong script": [sys.executable, str(PEER_SCRIPT)],
}


def run_process(command: Sequence[str], lines: Path) -> tuple[float, float, str]:
    """CPU seconds (``getrusage`` of the child) and wall seconds of a fresh process reading
    ``lines`` on standard input, and what it wrote; exits if it failed."""
    with lines.open("rb") as stdin:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, stdin=stdin, capture_output=True, cwd=ROOT)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-1000:]!r}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return cpu, wall, done.stdout.decode()


def compare_lines(
    requests: Sequence[dict[str, Any]], ours: str, theirs: str
) -> list[tuple[dict[str, Any], list[str]]]:
    """The requests on which the two processes' JSON lines disagree (a missing or extra line
    disagrees too), each with the fields that differ."""
    ours_lines, theirs_lines = ours.splitlines(), theirs.splitlines()
    found: list[tuple[dict[str, Any], list[str]]] = []
    for index, request in enumerate(requests):
        if index >= len(ours_lines) or index >= len(theirs_lines):
            found.append((request, [f"line {index + 1} missing"]))
            continue
        fields = differences(json.loads(ours_lines[index]), json.loads(theirs_lines[index]))
        if fields:
            found.append((request, fields))
    if max(len(ours_lines), len(theirs_lines)) > len(requests):
        found.append(({}, [f"{len(ours_lines)} and {len(theirs_lines)} lines for {len(requests)}"]))
    return found


def bench_processes(requests: Sequence[dict[str, Any]], repeat: int = 1) -> dict[str, Any]:
    """Time ``python -m engine score`` and the mahjong script (``PEER_SCRIPT``) as fresh
    processes on the same JSON lines file, alternated, best of ``repeat`` each; each also once
    on an empty file (its start and end alone). Compares their results line by line."""
    with tempfile.TemporaryDirectory() as temporary:
        lines = Path(temporary) / "requests.jsonl"
        lines.write_text("".join(json.dumps(request) + "\n" for request in requests))
        empty = Path(temporary) / "empty.jsonl"
        empty.write_bytes(b"")
        cpu: dict[str, float] = {}
        wall: dict[str, float] = {}
        outputs: dict[str, str] = {}
        for _ in range(max(1, repeat)):
            for name, command in PROCESSES.items():
                cpu_s, wall_s, outputs[name] = run_process(command, lines)
                cpu[name] = min(cpu.get(name, cpu_s), cpu_s)
                wall[name] = min(wall.get(name, wall_s), wall_s)
        empty_cpu = {name: run_process(command, empty)[0] for name, command in PROCESSES.items()}
    disagreements = compare_lines(requests, outputs["engine score"], outputs["mahjong script"])
    return {
        "hands": len(requests),
        "cpu": cpu,
        "wall": wall,
        "empty_cpu": empty_cpu,
        "disagreements": len(disagreements),
        "examples": disagreements[:5],
        "ratio": cpu["mahjong script"] / cpu["engine score"],
    }


def print_processes(r: dict[str, Any]) -> None:
    """The whole-process comparison, as :func:`main` prints it."""
    print(
        f"\nwhole processes, fresh, on the same {r['hands']} JSON lines (start, reading, "
        f"scoring, writing; best of the runs):"
    )
    for name in PROCESSES:
        cpu = r["cpu"][name]
        print(
            f"{name:>15}: {r['hands'] / cpu:>10,.0f} hands/s  {cpu:6.2f} s CPU  "
            f"{r['wall'][name]:6.2f} s wall  (empty input: {r['empty_cpu'][name]:.2f} s CPU)"
        )
    print(f"disagreements between the two processes' lines: {r['disagreements']}")
    for request, found in r["examples"]:
        print(f"  {request}")
        for line in found:
            print(f"    {line}")
    print(f"ratio engine score / mahjong script (hands/s, whole process): {r['ratio']:.2f}")


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
        "--processes",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time `python -m engine score` against the mahjong script "
        "(benchmarks/mahjong_score_lines.py), fresh processes on the same JSON lines",
    )
    args = parser.parse_args(argv)

    start = time.perf_counter()
    requests = random_requests(args.hands, args.seed, args.ruleset)
    generated = time.perf_counter() - start
    print(
        f"{len(requests)} random complete hands, rule set {args.ruleset}, seed {args.seed} "
        f"(generated in {generated:.1f} s); engine {'compiled' if is_compiled() else 'pure'}"
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
    status = 1 if r["disagreements"] else 0
    print(f"ratio ours/mahjong (hands/s, in process, scoring alone): {r['ratio']:.2f}")
    if args.processes:
        whole = bench_processes(requests, repeat=args.repeat)
        print_processes(whole)
        status |= 1 if whole["disagreements"] else 0
    if args.shanten_hands:
        print("\nshanten (benchmarks/shanten_vs_mahjong.py):")
        shanten_args = ["--hands", str(args.shanten_hands), "--seed", str(args.seed)]
        status |= shanten_main([*shanten_args, "--repeat", str(args.repeat)])
    return status


if __name__ == "__main__":
    sys.exit(main())
