"""What reading one hostile file costs the service's memory (docs/security.md, "A file is
counted before it is parsed").

Each case builds a file from the real mjlog and tenhou.net/6 record of one game
(``tests/data/real``), then reads it as an upload is read (``mjlogs.reading.read_file``) in a
process of its own, and prints the peak resident memory the reading added, its time and what
came of it (the games read, or the refusal)::

    .venv/bin/python benchmarks/read_memory.py            # every case, 30 MB each
    .venv/bin/python benchmarks/read_memory.py --mb 4.7 tags
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "tests" / "data" / "real"
PAIR = "2019103023gm-00a9-0000-f90e0fe9"
END = b"</mjloggm>"


def _mjlog() -> bytes:
    return (REAL / "mjlog_xml" / "tsubakisakura__mjlog2json" / f"{PAIR}.xml").read_bytes()


def _mjlog_with(padding: bytes) -> bytes:
    body = _mjlog().rstrip()
    return body[: -len(END)] + padding + END


def tags(size: int) -> bytes:
    """The mjlog with junk tags before its end (readers skip tags they do not know)."""
    return _mjlog_with(b'<X a="1"/>' * (size // 10))


def comment(size: int) -> bytes:
    """The mjlog with one XML comment of junk before its end."""
    return _mjlog_with(b"<!--" + b"x" * size + b"-->")


def rounds(size: int) -> bytes:
    """The mjlog with its first hand repeated (a game far over the hands a game may have)."""
    data = _mjlog()
    first = data.index(b"<INIT")
    second = data.index(b"<INIT", first + 1)
    hand = data[first:second]
    return data[:first] + hand * (size // len(hand)) + data[second:]


def values(size: int) -> bytes:
    """The tenhou.net/6 record with a member no reader knows, of short strings."""
    path = REAL / "tenhou6_json" / "tsubakisakura__mjlog2json" / f"{PAIR}.json"
    record = json.loads(path.read_text())
    record["junk"] = ["ab"] * (size // 5)
    return json.dumps(record, separators=(",", ":")).encode()


CASES: dict[str, Callable[[int], bytes]] = {
    "tags": tags,
    "comment": comment,
    "rounds": rounds,
    "values": values,
}


def measure(case: str, megabytes: float) -> str:
    """One case, read in this process: its line of the table."""
    data = CASES[case](int(megabytes * 1024 * 1024))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from mjlogs.reading import ReadFailure, read_file

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    read = read_file(f"{case}.bin", data)
    seconds = time.perf_counter() - start
    added = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    outcome = read.error if isinstance(read, ReadFailure) else f"{len(read.games)} game(s) read"
    return f"{case:8} {len(data) / 2**20:6.1f} MB  +{added:5.0f} MB  {seconds:5.2f} s  {outcome}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help=f"of {', '.join(CASES)} (default: all)")
    parser.add_argument("--mb", type=float, default=30.0, help="each file's size (default 30)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a case in a process of its own
    options = parser.parse_args()
    if options.one:
        print(measure(options.one, options.mb))
        return
    unknown = set(options.cases) - set(CASES)
    if unknown:
        parser.error(f"no such case: {', '.join(sorted(unknown))}")
    print("case        file      peak added  time   outcome")
    for case in options.cases or CASES:
        command = [sys.executable, __file__, "--one", case, "--mb", str(options.mb)]
        print(subprocess.run(command, check=True, capture_output=True, text=True).stdout, end="")


if __name__ == "__main__":
    main()
