"""Every number-suit pattern's shanten frontiers, precomputed and shipped as package data.

:mod:`engine.hand.shanten` memoises each suit pattern (9 counts) the first time it meets it,
by running ``mahjong``'s walk over the suit (about 60 µs a pattern). A fresh process verifying a
few dozen games meets some 9,000 patterns, so its first games spent about half a second walking.
There are only 405,350 patterns of at most 14 tiles, and their walks reduce to 512 distinct
frontiers: this table holds, for every pattern, the ids of its two frontiers (the fast one
without the four-copies state, and the full one), so that a memo miss is a lookup instead of
a walk. The walk stays the definition: the table is built by it (``python -m
engine.hand.shanten_table_build`` rewrites the file, about a minute), the tests check the
table against it, and a process without the file walks as before.

The file ``suit_frontiers.bin`` is zlib-compressed (about 300 KB; 7.8 MB once read). Inside:
the line ``MJSF1``, a 4-byte little-endian length, that many bytes of JSON (the frontiers, each
a list of ``[melds, blocks, has pair, isolated state]`` options), then two unsigned 16-bit ids
(fast, full) for each of the 5**9 patterns of counts 0-4 in base-5 order (rank 1 the lowest
digit); patterns of more than 14 tiles hold :data:`NO_PATTERN`.
"""

from __future__ import annotations

import functools
import json
import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul
from pathlib import Path
from typing import Final

#: Where the table is, beside this module (package data).
TABLE_PATH: Final = Path(__file__).with_name("suit_frontiers.bin")
MAGIC: Final = b"MJSF1\n"
#: The id of a pattern no hand holds (more than 14 tiles in one suit).
NO_PATTERN: Final = 0xFFFF
PATTERNS: Final = 5**9
_POWERS: Final = tuple(5**rank for rank in range(9))

Option = tuple[int, int, int, int]
Frontier = tuple[Option, ...]


@dataclass(frozen=True)
class SuitTable:
    """The frontiers, and each pattern's two frontier ids into them."""

    frontiers: tuple[Frontier, ...]
    #: (fast, full) ids of pattern ``i`` at ``2 i`` and ``2 i + 1``.
    ids: array[int]

    def lookup(self, key: bytes) -> tuple[int, int]:
        """The (fast, full) frontier ids of one suit's 9 counts (each 0-4, at most 14 in all)."""
        index = 2 * pattern_index(key)
        return self.ids[index], self.ids[index + 1]


@functools.cache
def load(path: Path = TABLE_PATH) -> SuitTable | None:
    """The table, read once per process; ``None`` when the file is missing or not a table
    (the shanten memo then walks every new pattern, as it did before there was a table)."""
    try:
        data = zlib.decompress(path.read_bytes())
    except (OSError, zlib.error):
        return None
    if not data.startswith(MAGIC):
        return None
    start = len(MAGIC) + 4
    ids = array("H")
    try:
        (length,) = struct.unpack_from("<I", data, len(MAGIC))
        raw = json.loads(data[start : start + length])
        frontiers = tuple(tuple(tuple(option) for option in front) for front in raw)
        ids.frombytes(data[start + length :])
    except (struct.error, ValueError, TypeError):
        return None
    if sys.byteorder == "big":  # pragma: no cover - stored little-endian
        ids.byteswap()
    if len(ids) != 2 * PATTERNS:
        return None
    return SuitTable(frontiers, ids)


def encode(frontiers: list[Frontier], ids: array[int]) -> bytes:
    """The file contents of a table (``ids`` as :attr:`SuitTable.ids`)."""
    ordered = array("H", ids)
    if sys.byteorder == "big":  # pragma: no cover - stored little-endian
        ordered.byteswap()
    listed = json.dumps([[list(option) for option in front] for front in frontiers]).encode()
    body = MAGIC + struct.pack("<I", len(listed)) + listed + ordered.tobytes()
    return zlib.compress(body, 9)


def pattern_index(counts: Sequence[int]) -> int:
    """The position of a suit's 9 counts among the patterns (base 5, rank 1 lowest)."""
    return sum(map(mul, counts, _POWERS))
