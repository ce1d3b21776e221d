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

The same file holds the dense tables of the shanten's fast path (hands without four of a kind):
the fast frontiers are numbered first, ``0`` to ``classes - 1`` (fewer than 256: a suit's
*class*, one byte), and three tables of bytes combine them, so that a hand's regular shanten
costs three look-ups after the suits' classes (:attr:`SuitTable.pairs`,
:attr:`SuitTable.triples`, :attr:`SuitTable.finals`; what each holds is said there). Two suits'
classes combine into one of 123 pair classes, a pair class and a suit's class into one of 139
triple classes, and a triple class with the honours' blocks and pair gives the best score.

The file ``suit_frontiers.bin`` is zlib-compressed (about 300 KB; 7.9 MB once read). Inside:
the line ``MJSF2``, a 4-byte little-endian length, that many bytes of JSON (``frontiers``, each
a list of ``[melds, blocks, has pair, isolated state]`` options, and ``sizes``, the number of
classes, pair classes and triple classes), then two unsigned 16-bit ids (fast, full) for each
of the 5**9 patterns of counts 0-4 in base-5 order (rank 1 the lowest digit; patterns of more
than 14 tiles hold :data:`NO_PATTERN`), then the pair, triple and final tables.
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
MAGIC: Final = b"MJSF2\n"
#: The id of a pattern no hand holds (more than 14 tiles in one suit).
NO_PATTERN: Final = 0xFFFF
PATTERNS: Final = 5**9
_POWERS: Final = tuple(5**rank for rank in range(9))
#: The entries of :attr:`SuitTable.finals` per triple class: honour blocks 0-5 by has pair 0-1.
FINAL_STRIDE: Final = 12

Option = tuple[int, int, int, int]
Frontier = tuple[Option, ...]


@dataclass(frozen=True)
class SuitTable:
    """The frontiers, and each pattern's two frontier ids into them."""

    frontiers: tuple[Frontier, ...]
    #: (fast, full) ids of pattern ``i`` at ``2 i`` and ``2 i + 1``.
    ids: array[int]
    #: The number of classes: the fast frontiers are ids ``0`` to ``class_count - 1``.
    class_count: int
    #: Byte ``i``: the class (fast frontier id) of pattern ``i`` (:func:`pattern_index`); 255
    #: for a pattern of more than 14 tiles.
    classes: bytes
    #: Byte ``a * class_count + b``: the pair class of two suits of classes ``a`` and ``b`` (the
    #: frontier of the two together, numbered apart).
    pairs: bytes
    #: Byte ``p * class_count + c``: the triple class of pair class ``p`` and suit class ``c``.
    triples: bytes
    #: Byte ``t * FINAL_STRIDE + 2 * blocks + pair``: the best ``melds + min(all blocks, 4 +
    #: has pair)`` over the options of triple class ``t`` beside honours of ``blocks`` blocks
    #: (melds, pairs and calls, at most 5) and ``pair`` (whether one is a pair); the regular
    #: shanten is 8 less the honours' melds and calls less this.
    finals: bytes

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
        header = json.loads(data[start : start + length])
        frontiers = tuple(tuple(tuple(option) for option in front) for front in header["frontiers"])
        count, pair_count, triple_count = (int(size) for size in header["sizes"])
        start += length
        raw_ids = data[start : start + 4 * PATTERNS]
        ids.frombytes(raw_ids)
    except (struct.error, ValueError, TypeError, KeyError):
        return None
    if sys.byteorder == "big":  # pragma: no cover - stored little-endian
        ids.byteswap()
    start += 4 * PATTERNS
    sizes = (count * count, pair_count * count, triple_count * FINAL_STRIDE)
    if len(ids) != 2 * PATTERNS or len(data) != start + sum(sizes):
        return None
    pairs = data[start : start + sizes[0]]
    triples = data[start + sizes[0] : start + sizes[0] + sizes[1]]
    finals = data[start + sizes[0] + sizes[1] :]
    # The fast ids are below 256: their low bytes (little-endian) are the classes.
    return SuitTable(frontiers, ids, count, raw_ids[0::4], pairs, triples, finals)


def encode(
    frontiers: list[Frontier], ids: array[int], class_count: int, dense: tuple[bytes, ...]
) -> bytes:
    """The file contents of a table (``ids`` as :attr:`SuitTable.ids`, the fast frontiers the
    first ``class_count``; ``dense`` the pair, triple and final tables)."""
    ordered = array("H", ids)
    if sys.byteorder == "big":  # pragma: no cover - stored little-endian
        ordered.byteswap()
    _, triples, finals = dense
    header = {
        "frontiers": [[list(option) for option in front] for front in frontiers],
        "sizes": [class_count, len(triples) // class_count, len(finals) // FINAL_STRIDE],
    }
    listed = json.dumps(header).encode()
    body = MAGIC + struct.pack("<I", len(listed)) + listed + ordered.tobytes() + b"".join(dense)
    return zlib.compress(body, 9)


def pattern_index(counts: Sequence[int]) -> int:
    """The position of a suit's 9 counts among the patterns (base 5, rank 1 lowest)."""
    return sum(map(mul, counts, _POWERS))
