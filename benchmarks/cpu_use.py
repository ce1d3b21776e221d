"""How many cores a command keeps busy, moment by moment: the machine's CPU use sampled while it
runs (``/proc/stat``, Linux), to see where an import leaves a core idle.

Usage, from the repository root::

    python benchmarks/cpu_use.py [--every 0.05] -- COMMAND [ARG ...]

Prints, for each interval, the cores busy (0 to the machine's count, all processes counted, so
run it on a quiet machine), then the command's wall time and the share of the machine's cores
it kept busy. The command's output is discarded; its exit status is this script's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def _busy_and_total() -> tuple[int, int]:
    """CPU ticks spent busy and in all, over every core, since the machine started."""
    with open("/proc/stat") as stat:
        ticks = [int(field) for field in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return sum(ticks) - idle, sum(ticks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--every", type=float, default=0.05, help="seconds between samples")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    if not os.path.exists("/proc/stat"):
        parser.error("needs Linux's /proc/stat")
    cores = os.cpu_count() or 1
    samples: list[float] = []
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    busy, total = _busy_and_total()
    while process.poll() is None:
        time.sleep(args.every)
        now_busy, now_total = _busy_and_total()
        if now_total > total:
            samples.append(cores * (now_busy - busy) / (now_total - total))
        busy, total = now_busy, now_total
    wall = time.perf_counter() - started
    print(" ".join(f"{sample:.1f}" for sample in samples))
    mean = sum(samples) / len(samples) if samples else 0.0
    print(f"{wall:.2f} s wall; {mean:.2f} of {cores} cores busy on average")
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
