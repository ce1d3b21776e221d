"""Rebuild the precomputed suit table of :mod:`engine.hand.shanten_table` by the walk.

Run ``python -m engine.hand.shanten_table_build`` after a change to the shanten walk or to what
a frontier holds (about a minute); the tests compare the table with the walk, and its dense
tables with :func:`dense_tables` of its frontiers. It writes the frontiers' joins
(:mod:`engine.hand.join_tables`, :func:`join_tables`) beside it.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import product

from engine.hand import join_tables as joins
from engine.hand import shanten_table
from engine.hand.shanten import join_frontiers, suit_frontiers
from engine.hand.shanten_table import (
    FINAL_STRIDE,
    NO_PATTERN,
    PATTERNS,
    Frontier,
    encode,
    pattern_index,
)


def dense_tables(classes: Sequence[Frontier]) -> tuple[bytes, bytes, bytes]:
    """The pair, triple and final tables (:class:`~engine.hand.shanten_table.SuitTable`) of
    the fast frontiers ``classes`` (each class's frontier, by class)."""
    pair_ids: dict[Frontier, int] = {}
    pairs = bytes(
        pair_ids.setdefault(join_frontiers(a, b), len(pair_ids)) for a in classes for b in classes
    )
    triple_ids: dict[Frontier, int] = {}
    triples = bytes(
        triple_ids.setdefault(join_frontiers(p, c), len(triple_ids))
        for p in pair_ids
        for c in classes
    )
    finals = bytearray()
    for front in triple_ids:
        for blocks in range(FINAL_STRIDE // 2):
            for pair in (0, 1):
                finals.append(max(m + min(k + blocks, 5, 4 + (p | pair)) for m, k, p, _ in front))
    return pairs, triples, bytes(finals)


def join_tables(frontiers: Sequence[Frontier]) -> joins.JoinTables:
    """The joins of the suit table's frontiers (:mod:`engine.hand.join_tables`): every pair of
    suit frontiers, every pair with a third, and each closure's final values beside every
    honour context."""
    suits = len(frontiers)
    pair_ids: dict[Frontier, int] = {}
    join2 = array("H", [0]) * (suits * suits)
    for a in range(suits):
        for b in range(a, suits):
            pid = pair_ids.setdefault(join_frontiers(frontiers[a], frontiers[b]), len(pair_ids))
            join2[a * suits + b] = join2[b * suits + a] = pid
    triple_ids: dict[Frontier, int] = {}
    join3 = array("H", [0]) * (len(pair_ids) * suits)
    for p, pair in enumerate(pair_ids):
        for c in range(suits):
            front = join_frontiers(pair, frontiers[c])
            join3[p * suits + c] = triple_ids.setdefault(front, len(triple_ids))
    return joins.JoinTables(
        suits,
        len(pair_ids),
        len(triple_ids),
        join2,
        join3,
        _finals(list(triple_ids)),
        _finals(list(pair_ids)),
    )


def _finals(fronts: list[Frontier]) -> bytes:
    """Each frontier's final value beside each honour context (-1, complete, as 255)."""
    out = bytearray(len(fronts) * joins.CONTEXTS)
    for index, front in enumerate(fronts):
        base = index * joins.CONTEXTS
        for melds, blocks, pair, state in joins.contexts():
            value = joins.final_value(front, melds, blocks, pair, state)
            out[base + joins.honour_context(melds, blocks, pair, state)] = value & 0xFF
    return bytes(out)


def build() -> bytes:
    """The table's file contents: every pattern of at most 14 tiles, walked."""
    walked: list[tuple[int, Frontier, Frontier]] = []
    fast_ids: dict[Frontier, int] = {}
    for reversed_counts in product(range(5), repeat=9):
        counts = reversed_counts[::-1]  # product varies its last digit fastest: rank 1 here
        if sum(counts) > 14:
            continue
        fast, full = suit_frontiers(counts)
        fast_ids.setdefault(fast, len(fast_ids))
        walked.append((pattern_index(counts), fast, full))
    numbering = dict(fast_ids)  # the fast frontiers first: their ids are the classes
    ids = array("H", [NO_PATTERN]) * (2 * PATTERNS)
    for index, fast, full in walked:
        ids[2 * index] = numbering[fast]
        ids[2 * index + 1] = numbering.setdefault(full, len(numbering))
    classes = list(fast_ids)
    if len(classes) >= NO_PATTERN & 0xFF:  # pragma: no cover - 92 today
        raise RuntimeError(f"{len(classes)} classes: a class is a byte, 255 means no pattern")
    return encode(list(numbering), ids, len(classes), dense_tables(classes))


def main() -> None:
    path = shanten_table.TABLE_PATH
    path.write_bytes(build())
    shanten_table.load.cache_clear()
    table = shanten_table.load()
    if table is None:
        raise SystemExit(f"{path} was written but does not read back as a table")
    joins.JOINS_PATH.write_bytes(joins.encode(join_tables(table.frontiers)))
    joins.load.cache_clear()
    joined = joins.load()
    if joined is None:
        raise SystemExit(f"{joins.JOINS_PATH} was written but does not read back")
    print(f"{joins.JOINS_PATH}: {joined.pairs} pairs, {joined.triples} triples")
    print(
        f"{path}: {len(table.frontiers)} frontiers, {table.class_count} classes, "
        f"{path.stat().st_size:,} bytes"
    )


if __name__ == "__main__":
    main()
