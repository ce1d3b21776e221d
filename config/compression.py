"""The compression of what the service stores compressed: a game's raw file
(``Game.raw``), its canonical document and the other packed JSON columns
(:mod:`config.json_columns`), and the files a queued import holds
(``QueuedFile.data``).

Written as Zstandard, level 3; read by the opening of the bytes, so that what was stored
before is read too: gzip (the raw files) and zlib (the packed columns, the queued files).
On the load bench's 2,000 games (31 KB of canonical JSON each, the file and the document
alike), zstd level 3 wrote 3.9 KB in 0.06 ms a game where gzip level 4 wrote 4.3 KB in
0.20 ms and zlib level 1 5.1 KB in 0.11 ms; it read them back in 0.025 ms against zlib's
0.055 (docs/performance.md, "Compression").

This module needs no Django: an import's reader processes compress here too.
"""

from __future__ import annotations

import gzip
import threading
import zlib
from typing import Final

import zstandard

__all__ = ["LEVEL", "compress", "decompress"]

#: Zstandard's level: 3 (its default) wrote 2% fewer bytes than level 1 for 15% more time.
LEVEL: Final = 3

#: The opening of a Zstandard frame, and of a gzip member (RFC 8878, RFC 1952).
ZSTD_MAGIC: Final = b"\x28\xb5\x2f\xfd"
GZIP_MAGIC: Final = b"\x1f\x8b"

# A compressor or decompressor must not serve two threads at once: one of each a thread.
_local = threading.local()


def compress(data: bytes) -> bytes:
    """``data`` as one Zstandard frame (its size written in it)."""
    try:
        compressor = _local.compressor
    except AttributeError:
        compressor = _local.compressor = zstandard.ZstdCompressor(level=LEVEL)
    compressed: bytes = compressor.compress(data)
    return compressed


def decompress(data: bytes | bytearray | memoryview) -> bytes:
    """The bytes :func:`compress` made ``data`` from, or gzip or zlib made (stored before).

    :raises ValueError: bytes that none of the three can read.
    """
    data = bytes(data)
    if data[:4] == ZSTD_MAGIC:
        try:
            decompressor = _local.decompressor
        except AttributeError:
            decompressor = _local.decompressor = zstandard.ZstdDecompressor()
        try:
            plain: bytes = decompressor.decompress(data)
            return plain
        except zstandard.ZstdError as error:
            raise ValueError(f"stored bytes that do not decompress: {error}") from error
    try:
        if data[:2] == GZIP_MAGIC:
            return gzip.decompress(data)
        return zlib.decompress(data)
    except (OSError, EOFError, zlib.error) as error:
        raise ValueError(f"stored bytes that do not decompress: {error}") from error
