"""The full frontiers' joins, precomputed: a whole hand's regular shanten by four look-ups.

:mod:`engine.hand.shanten_table` gives every suit pattern its *full* frontier (the one that keeps
the four-copies state, :func:`engine.hand.shanten.suit_frontiers`), as an id below 512. Joining
frontiers (:func:`engine.hand.shanten.join_frontiers`) closes over few frontiers: two suits'
full frontiers join into one of about 800 *pair* frontiers, a pair and a third suit into one of
about 1,100 *triple* frontiers. An honour group is one option (its melds and calls, blocks,
whether one is a pair, its isolated state: :func:`honour_context`), so the regular shanten
(before the jidahai floor) of a hand is a look-up in a *final* table by (triple, honours), or in
three-player mode by (pair of pinzu and souzu, honours with 1m and 9m).

These are what :mod:`engine.hand.acceptance_batch` gathers from, a whole game's decisions at a
time. The file ``suit_joins.bin`` beside this module holds them, zlib-compressed: the line
``MJSJ1``, a 4-byte little-endian length, that many bytes of JSON (``suits``, ``pairs``,
``triples``: the table sizes), then the tables as little-endian unsigned integers: ``join2``
(16 bits, ``a * suits + b``: the pair id of suit frontiers ``a`` and ``b``), ``join3`` (16 bits,
``p * suits + c``: the triple id of pair ``p`` and suit frontier ``c``), ``final3`` (8 bits,
``t * CONTEXTS + h``) and ``final2`` (8 bits, ``p * CONTEXTS + h``). ``python -m
engine.hand.shanten_table_build`` writes it with the suit table (its ``join_tables``); the
tests hold it equal to the joins and the memo's numbers.
"""

from __future__ import annotations

import functools
import json
import struct
import sys
import zlib
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: Where the tables are, beside this module (package data).
JOINS_PATH: Final = Path(__file__).with_name("suit_joins.bin")
MAGIC: Final = b"MJSJ1\n"
#: Blocks are capped at 5, melds (with calls) at 4 in a hand of at most 14 tiles.
_MAX_BLOCKS: Final = 5
_MELDS: Final = 5
#: The honour contexts: melds with calls 0-4, blocks 0-5, pair 0-1, isolated state 0-2.
CONTEXTS: Final = _MELDS * (_MAX_BLOCKS + 1) * 2 * 3

Option = tuple[int, int, int, int]
Frontier = tuple[Option, ...]


def honour_context(melds: int, blocks: int, pair: int, state: int) -> int:
    """The index of an honour group's one option (melds with the calls, blocks capped at 5,
    has a pair, isolated state as :mod:`engine.hand.shanten` keeps it) in the final tables."""
    return ((melds * (_MAX_BLOCKS + 1) + blocks) * 2 + pair) * 3 + state


def contexts() -> list[tuple[int, int, int, int]]:
    """Every honour context (melds, blocks, pair, state), in no particular order."""
    return [
        (melds, blocks, pair, state)
        for melds in range(_MELDS)
        for blocks in range(_MAX_BLOCKS + 1)
        for pair in (0, 1)
        for state in (0, 1, 2)
    ]


def final_value(front: Frontier, melds: int, blocks: int, pair: int, state: int) -> int:
    """The regular shanten (before the jidahai floor) of a hand: the frontier of its number
    suits beside an honour group of that one option, as :func:`engine.hand.shanten._final`
    scores a joined frontier."""
    best = 0
    for m, k, p, s in front:
        has_pair = p | pair
        total_blocks = min(k + blocks, _MAX_BLOCKS)
        value = m + melds + min(total_blocks, 4 + has_pair)
        if not has_pair and max(s, state) == 1:
            value -= 1
        best = max(best, value)
    return 8 - best


@dataclass(frozen=True)
class JoinTables:
    """The tables of ``suit_joins.bin`` (what each holds: the module's docstring)."""

    suits: int
    pairs: int
    triples: int
    join2: array[int]
    join3: array[int]
    final3: bytes
    final2: bytes


def encode(tables: JoinTables) -> bytes:
    """The file contents of ``tables``."""
    header = json.dumps(
        {"suits": tables.suits, "pairs": tables.pairs, "triples": tables.triples}
    ).encode()
    join2 = array("H", tables.join2)
    join3 = array("H", tables.join3)
    if sys.byteorder == "big":  # pragma: no cover - stored little-endian
        join2.byteswap()
        join3.byteswap()
    body = (
        MAGIC
        + struct.pack("<I", len(header))
        + header
        + join2.tobytes()
        + join3.tobytes()
        + tables.final3
        + tables.final2
    )
    return zlib.compress(body, 9)


@functools.cache
def load(path: Path = JOINS_PATH) -> JoinTables | None:
    """The tables, read once per process; ``None`` when the file is missing or not a table."""
    try:
        data = zlib.decompress(path.read_bytes())
    except (OSError, zlib.error):
        return None
    if not data.startswith(MAGIC):
        return None
    try:
        (length,) = struct.unpack_from("<I", data, len(MAGIC))
        start = len(MAGIC) + 4
        header = json.loads(data[start : start + length])
        suits, pairs, triples = (int(header[name]) for name in ("suits", "pairs", "triples"))
    except (struct.error, ValueError, TypeError, KeyError):
        return None
    start += length
    sizes = (2 * suits * suits, 2 * pairs * suits, triples * CONTEXTS, pairs * CONTEXTS)
    if len(data) != start + sum(sizes):
        return None
    parts = []
    for size in sizes:
        parts.append(data[start : start + size])
        start += size
    join2, join3 = array("H"), array("H")
    join2.frombytes(parts[0])
    join3.frombytes(parts[1])
    if sys.byteorder == "big":  # pragma: no cover - stored little-endian
        join2.byteswap()
        join3.byteswap()
    return JoinTables(suits, pairs, triples, join2, join3, parts[2], parts[3])
