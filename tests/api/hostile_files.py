"""Hostile files for the upload tests, built in memory when a test asks: XML that expands or
reaches outside, decompression bombs (gzip, zip, tar.gz), zips that lie about their sizes,
tars of countless members, archives inside archives.

The bombs are made without compressing their content byte by byte: after a full flush a
deflate stream restarts from nothing, so every repetition of one chunk compresses to the same
bytes, and a gigabyte of zeros is one compressed megabyte chunk written a thousand times over.
"""

from __future__ import annotations

import io
import struct
import tarfile
import zipfile
import zlib

# The same documents as the reader's own test: the upload tests check the whole path refuses them.
from tests.engine.formats.test_mjlog import BILLION_LAUGHS as BILLION_LAUGHS

#: The chunk a bomb repeats.
CHUNK = 1024 * 1024
GIGABYTE = 1024 * 1024 * 1024

#: What the billion laughs would expand to: 10^9 times "lol".
BILLION_LAUGHS_EXPANDED = 3 * 10**9

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE mjloggm [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="&secret;" n1="b" n2="c" n3="d"/>
<TAIKYOKU oya="0"/></mjloggm>"""


def deflated_repeats(before: bytes, chunk: bytes, count: int, after: bytes = b"") -> bytes:
    """A raw deflate stream of ``before + chunk * count + after``, compressing ``chunk`` once."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    head = compressor.compress(before) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    tail = compressor.compress(after) + compressor.flush()
    return head + block * count + tail


def crc32_of_repeats(before: bytes, chunk: bytes, count: int, after: bytes = b"") -> int:
    crc = zlib.crc32(before)
    for _ in range(count):
        crc = zlib.crc32(chunk, crc)
    return zlib.crc32(after, crc)


def gzip_repeats(before: bytes, chunk: bytes, count: int, after: bytes = b"") -> bytes:
    """A gzip file (RFC 1952) of ``before + chunk * count + after``."""
    size = len(before) + len(chunk) * count + len(after)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    trailer = struct.pack("<II", crc32_of_repeats(before, chunk, count, after), size & 0xFFFFFFFF)
    return header + deflated_repeats(before, chunk, count, after) + trailer


def gzip_bomb(expanded: int = GIGABYTE) -> bytes:
    """gzip of ``expanded`` zero bytes (a multiple of :data:`CHUNK`): 1 GB in about 1 MB."""
    return gzip_repeats(b"", bytes(CHUNK), expanded // CHUNK)


def tar_gz_bomb(expanded: int = GIGABYTE) -> bytes:
    """A tar.gz of one member, ``bomb.json``, of ``expanded`` zero bytes, stated honestly."""
    info = tarfile.TarInfo("bomb.json")
    info.size = expanded
    header = info.tobuf(format=tarfile.GNU_FORMAT)
    # The member's data, then the two zero blocks that end a tar: all zeros.
    return gzip_repeats(header, bytes(CHUNK), expanded // CHUNK, bytes(2 * tarfile.BLOCKSIZE))


def tar_gz_of_many_members(members: int) -> bytes:
    """A tar.gz of ``members`` empty files (one name, repeated: a tar allows it)."""
    header = tarfile.TarInfo("g.json").tobuf(format=tarfile.GNU_FORMAT)
    per_chunk = CHUNK // len(header)
    chunks, rest = divmod(members, per_chunk)
    after = header * rest + bytes(2 * tarfile.BLOCKSIZE)
    return gzip_repeats(b"", header * per_chunk, chunks, after)


def zip_of_deflated(name: str, deflated: bytes, crc: int, stated_size: int) -> bytes:
    """A zip of one deflated member whose headers state ``stated_size`` uncompressed bytes,
    whatever the data expands to (APPNOTE 4.3.7, 4.3.12, 4.3.16)."""
    encoded = name.encode()
    fields = struct.pack(
        "<HHHHHIIIH", 20, 0, zipfile.ZIP_DEFLATED, 0, 0x21, crc, len(deflated), stated_size,
        len(encoded),
    )  # fmt: skip
    local = b"PK\x03\x04" + fields + b"\x00\x00" + encoded
    central = (
        b"PK\x01\x02"
        + struct.pack("<H", 20)
        + fields
        + struct.pack("<HHHHII", 0, 0, 0, 0, 0, 0)
        + encoded
    )
    end = b"PK\x05\x06" + struct.pack(
        "<HHHHIIH", 0, 0, 1, 1, len(central), len(local) + len(deflated), 0
    )
    return local + deflated + central + end


def zip_of_repeated_entries(count: int, stated: int | None = None) -> bytes:
    """A zip whose central directory lists one empty file ``g`` ``count`` times (readers list
    every entry before reading any), stating ``stated`` entries (the truth when ``None``; at
    most 65,535, the field's limit)."""
    fields = struct.pack("<HHHHHIIIH", 20, 0, zipfile.ZIP_STORED, 0, 0x21, 0, 0, 0, 1)
    local = b"PK\x03\x04" + fields + b"\x00\x00" + b"g"
    entry = b"PK\x01\x02" + struct.pack("<H", 20) + fields
    entry += struct.pack("<HHHHII", 0, 0, 0, 0, 0, 0) + b"g"
    listed = min(count if stated is None else stated, 0xFFFF)
    end = b"PK\x05\x06" + struct.pack(
        "<HHHHIIH", 0, 0, listed, listed, len(entry) * count, len(local), 0
    )
    return local + entry * count + end


def zip_bomb(expanded: int = GIGABYTE, stated: int | None = None) -> bytes:
    """A zip of one member of ``expanded`` zero bytes that states ``stated`` (the truth when
    ``None``): the bomb, or, stating a small size, the zip that lies about its member."""
    count = expanded // CHUNK
    deflated = deflated_repeats(b"", bytes(CHUNK), count)
    crc = crc32_of_repeats(b"", bytes(CHUNK), count)
    return zip_of_deflated("bomb.json", deflated, crc, expanded if stated is None else stated)


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def tar_gz_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()
