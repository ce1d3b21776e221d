"""Rebuild the precomputed suit table of :mod:`engine.hand.shanten_table` by the walk.

Run ``python -m engine.hand.shanten_table_build`` after a change to the shanten walk or to what
a frontier holds (about a minute); the tests compare the table with the walk.
"""

from __future__ import annotations

from array import array
from itertools import product

from engine.hand import shanten_table
from engine.hand.shanten import suit_frontiers
from engine.hand.shanten_table import NO_PATTERN, PATTERNS, Frontier, encode, pattern_index


def build() -> bytes:
    """The table's file contents: every pattern of at most 14 tiles, walked."""
    frontiers: dict[Frontier, int] = {}
    ids = array("H", [NO_PATTERN]) * (2 * PATTERNS)
    for reversed_counts in product(range(5), repeat=9):
        counts = reversed_counts[::-1]  # product varies its last digit fastest: rank 1 here
        if sum(counts) > 14:
            continue
        index = 2 * pattern_index(counts)
        for offset, front in enumerate(suit_frontiers(counts)):
            ids[index + offset] = frontiers.setdefault(front, len(frontiers))
    return encode(list(frontiers), ids)


def main() -> None:
    path = shanten_table.TABLE_PATH
    path.write_bytes(build())
    shanten_table.load.cache_clear()
    table = shanten_table.load()
    if table is None:
        raise SystemExit(f"{path} was written but does not read back as a table")
    print(f"{path}: {len(table.frontiers)} frontiers, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
