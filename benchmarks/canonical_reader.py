"""Benchmark the canonical JSON reader against the mjlog reader, on the same games.

Usage, from the repository root::

    python benchmarks/canonical_reader.py [CORPUS] [--repeat 5]

``CORPUS`` (default ``../shared/corpus``) is searched for Tenhou mjlog files (the files the
mjlog format sniffs as its own, whatever their names). Each is read once with
``engine.formats.mjlog.read_mjlog`` and written as canonical JSON text (untimed), so both readers
get the same games as bytes held in memory, and both do the whole job from bytes to
:class:`~engine.events.Game` values: ours canonical, ``engine.formats.canonical.loads`` (JSON
parsing and validation); ours mjlog, ``read_mjlog`` (XML parsing and decoding). The passes
alternate between the two in one process, timed in CPU seconds of the process; the script prints
each pass, the first pass of the canonical reader ("cold": its caches start empty), the best pass
of each (games/s) and the ratio (how many times the mjlog reader's time the canonical reader
takes).

Exit status 1 if the canonical reader gives back any game other than the one written (a
benchmark of wrong answers is useless), 2 if no mjlog file is found.
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

from engine.formats import canonical  # noqa: E402
from engine.formats.mjlog import FORMAT as MJLOG  # noqa: E402
from engine.formats.mjlog import read_mjlog  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"


def mjlog_files(corpus: Path) -> list[bytes]:
    """The bytes of every mjlog file under ``corpus``, in path order."""
    paths = sorted(path for path in corpus.rglob("*") if path.is_file())
    datas = (path.read_bytes() for path in paths)
    return [data for data in datas if MJLOG.sniff(data)]


def read_canonical(texts: list[bytes]) -> int:
    return sum(len(canonical.loads(text)) for text in texts)


def read_mjlogs(datas: list[bytes]) -> int:
    for data in datas:
        read_mjlog(data)
    return len(datas)


def timed(run: Callable[[list[bytes]], int], datas: list[bytes]) -> float:
    """Seconds of this process's CPU time (not wall time: other load on the machine would
    skew whichever side it happened to fall on)."""
    gc.collect()  # each side starts from a clean heap, not the other side's garbage
    start = time.process_time()
    run(datas)
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    datas = mjlog_files(args.corpus)
    if not datas:
        print(f"no mjlog files under {args.corpus}", file=sys.stderr)
        return 2
    games = [read_mjlog(data) for data in datas]
    texts = [canonical.dumps(game).encode() for game in games]
    count = len(games)
    size = sum(map(len, texts)) / count / 1024
    print(f"{count} games from the mjlog files under {args.corpus} ({size:.0f} KiB canonical each)")
    cold = best_canonical = best_mjlog = float("inf")
    for number in range(1, args.repeat + 1):
        seconds = timed(read_canonical, texts)
        cold = seconds if number == 1 else cold
        best_canonical = min(best_canonical, seconds)
        mjlog_seconds = timed(read_mjlogs, datas)
        best_mjlog = min(best_mjlog, mjlog_seconds)
        print(
            f"pass {number}: canonical {count / seconds:7.1f} games/s, "
            f"mjlog {count / mjlog_seconds:7.1f} games/s"
        )
    print(f"canonical cold (first pass): {count / cold:7.1f} games/s")
    print(f"canonical best pass:         {count / best_canonical:7.1f} games/s")
    print(f"mjlog best pass:             {count / best_mjlog:7.1f} games/s")
    print(f"ratio (canonical / mjlog):   {best_canonical / best_mjlog:7.2f}x the time")
    if [game for text in texts for game in canonical.loads(text)] != games:
        print("the canonical reader gave back other games than were written", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
