"""Uploaded files as the game files they hold: a zip or tar archive is opened, anything else is
one file.

Archives are untrusted: the member count, each member's size and the total are bounded *before*
anything is decompressed (a zip states its sizes, and the size of its directory is checked
before the directory is parsed; a tar is read header by header and refused as soon as it goes
over a limit, never listed whole), and each member is read through a read bounded by its stated
size. Links and devices are skipped; an archive inside an archive is not opened but reported as
a file that failed; a corrupt archive is one clear error.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal


class ArchiveError(ValueError):
    """An archive that cannot be opened, or one beyond the limits."""


@dataclass(frozen=True)
class Limits:
    """How much one upload may hold."""

    #: Game files in one upload (archive members count one each).
    max_files: int = 2000
    #: Bytes of one game file (after leaving an archive; gzip inside a file is bounded by the
    #: engine's reader).
    max_file_bytes: int = 32 * 1024 * 1024
    #: Bytes of all the files of one archive, uncompressed.
    max_total_bytes: int = 512 * 1024 * 1024
    #: Entries of one archive of any kind (files, folders, links): each costs memory while the
    #: archive is listed, before any is read.
    max_entries: int = 10_000


@dataclass(frozen=True)
class UploadedFile:
    """One game file: its name (an archive member's is ``archive.zip/member/path``) and bytes."""

    name: str
    data: bytes
    #: Why the file is not to be imported (an archive inside an archive), or ``None``.
    problem: str | None = None
    #: Why the file is passed over although nothing is wrong with it (it is no game record, as
    #: a README in a folder of logs), or ``None``.
    skipped: str | None = None


#: The problem of an archive found inside an archive.
NESTED_ARCHIVE = (
    "an archive inside an archive is not opened; upload the inner archive on its own, or its "
    "files in one archive"
)


def is_archive(data: bytes) -> bool:
    """Whether the bytes are a zip or (possibly compressed) tar archive."""
    if data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06":
        return True
    return _tar(data) is not None


def expand(name: str, data: bytes, limits: Limits | None = None) -> Iterator[UploadedFile]:
    """The game files of one upload: the members of a zip or tar archive (directories, links and
    archives inside it skipped), or the upload itself.

    :raises ArchiveError: a corrupt archive, or one with too many or too large members.
    """
    limits = limits or Limits()
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        yield from _zip_members(name, data, limits)
        return
    tar = _tar(data)
    if tar is not None:
        yield from _tar_members(name, tar, limits)
        return
    if len(data) > limits.max_file_bytes:
        raise ArchiveError(_too_large(name, len(data), limits))
    yield UploadedFile(name, data)


def _too_large(name: str, size: int, limits: Limits) -> str:
    return f"{name} is {size:,} bytes; the limit for one file is {limits.max_file_bytes:,}"


def _member_name(archive: str, member: str) -> str:
    return f"{archive}/{PurePosixPath(member).as_posix().lstrip('/')}"


#: What reading a damaged archive raises, whichever kind it is.
_READ_ERRORS = (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError, ValueError)


@dataclass(frozen=True)
class _Member:
    """One file of an archive: its name, the size the archive states, and how to read it."""

    name: str
    size: int
    read: Callable[[int], bytes]


#: A zip's end-of-central-directory record, the zip64 locator and record (APPNOTE 4.3.14-16).
_END_OF_DIRECTORY = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_END_OF_DIRECTORY = b"PK\x06\x06"
#: The smallest central directory entry (a file with a one-letter name, no extra field).
_SMALLEST_ZIP_ENTRY = 47


def _zip_directory(data: bytes) -> tuple[int, int] | None:
    """(entries, directory bytes) as the zip's last end-of-central-directory record states them
    (zip64 values when it has them), or ``None`` when there is no such record."""
    # The record is 22 bytes and a comment of at most 65,535: it is in the file's last 65,557.
    at = data.rfind(_END_OF_DIRECTORY, max(0, len(data) - 65_557))
    if at < 0 or len(data) < at + 22:
        return None
    entries = int.from_bytes(data[at + 10 : at + 12], "little")
    size = int.from_bytes(data[at + 12 : at + 16], "little")
    locator = at - 20
    if locator >= 0 and data[locator : locator + 4] == _ZIP64_LOCATOR:
        record = int.from_bytes(data[locator + 8 : locator + 16], "little")
        if data[record : record + 4] == _ZIP64_END_OF_DIRECTORY:
            entries = int.from_bytes(data[record + 32 : record + 40], "little")
            size = int.from_bytes(data[record + 40 : record + 48], "little")
    return entries, size


def _check_zip_directory(name: str, data: bytes, limits: Limits) -> None:
    """Refuse a zip with too many entries before :class:`zipfile.ZipFile` lists them all (an
    object each). The directory's size bounds the count whatever the stated count says:
    ``zipfile`` reads entries until that many bytes are used."""
    directory = _zip_directory(data)
    if directory is None:
        return  # not a zip: ZipFile says so
    entries, size = directory
    if entries > limits.max_entries:
        raise ArchiveError(f"{name} holds {entries:,} entries; the limit is {limits.max_entries:,}")
    if size > limits.max_entries * _SMALLEST_ZIP_ENTRY * 8:
        raise ArchiveError(
            f"{name} has a central directory of {size:,} bytes, too large for the "
            f"{limits.max_entries:,} entries an archive may hold"
        )


def _zip_members(name: str, data: bytes, limits: Limits) -> Iterator[UploadedFile]:
    _check_zip_directory(name, data, limits)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [info for info in archive.infolist() if not info.is_dir()]
    except _READ_ERRORS as error:
        raise ArchiveError(f"{name} is not a readable zip archive ({error})") from None

    def reader(info: zipfile.ZipInfo) -> Callable[[int], bytes]:
        def read(count: int) -> bytes:
            with archive.open(info) as handle:
                return handle.read(count)

        return read

    members = [_Member(_member_name(name, i.filename), i.file_size, reader(i)) for i in infos]
    return _read_members(name, "zip", members, limits)


#: The openings of a compressed tar's stream, by the ``tarfile`` mode that reads it: only a
#: stream that opens so is tried with it (``r:*`` tries every kind in turn: three failed
#: decompressions, 50 µs, for each game file that is no archive, against 6 µs).
_TarMode = Literal["r:", "r:gz", "r:bz2", "r:xz"]
_COMPRESSED_TAR: tuple[tuple[_TarMode, tuple[bytes, ...]], ...] = (
    ("r:gz", (b"\x1f\x8b",)),
    ("r:bz2", (b"BZh",)),
    # xz, and the legacy .lzma stream with the properties every common tool writes (lc=3,
    # lp=0, pb=2), which ``r:xz`` reads too.
    ("r:xz", (b"\xfd7zXZ\x00", b"\x5d\x00\x00")),
)


def _tar(data: bytes) -> tarfile.TarFile | None:
    """The tar archive in the bytes (plain, gzip, bzip2 or xz), or ``None``. Bytes that open
    as a tar without a member (512 zero bytes do, compressed or not) are no archive: they go
    to the readers, which say what they are (a gzip bomb of zeros: too large)."""
    modes: list[_TarMode] = ["r:"]
    modes += [mode for mode, heads in _COMPRESSED_TAR if data.startswith(heads)]
    for mode in modes:
        try:
            tar = tarfile.open(fileobj=io.BytesIO(data), mode=mode)  # noqa: SIM115 - returned
            # The first member, read on opening; iterating the archive starts from it again.
            first = tar.next()
        except _READ_ERRORS:
            continue
        return tar if first is not None else None
    return None


def _tar_members(name: str, tar: tarfile.TarFile, limits: Limits) -> Iterator[UploadedFile]:
    infos = _tar_files(name, tar, limits)

    def reader(info: tarfile.TarInfo) -> Callable[[int], bytes]:
        def read(count: int) -> bytes:
            handle = tar.extractfile(info)
            return handle.read(count) if handle is not None else b""

        return read

    members = [_Member(_member_name(name, i.name), i.size, reader(i)) for i in infos]
    return _read_members(name, "tar", members, limits)


def _tar_files(name: str, tar: tarfile.TarFile, limits: Limits) -> list[tarfile.TarInfo]:
    """The regular files of a tar, read header by header (``getmembers()`` would list every
    entry first: millions of tiny ones cost gigabytes) and refused at the first header that
    goes over a limit, before the data of the members past it is decompressed."""
    files: list[tarfile.TarInfo] = []
    total = 0
    try:
        for entries, info in enumerate(tar, start=1):
            if entries > limits.max_entries:
                raise ArchiveError(
                    f"{name} holds more than {limits.max_entries:,} entries; "
                    f"the limit is {limits.max_entries:,}"
                )
            if not info.isfile():
                continue
            files.append(info)
            total += info.size
            if len(files) > limits.max_files:
                raise ArchiveError(
                    f"{name} holds more than {limits.max_files:,} files; "
                    f"the limit is {limits.max_files:,}"
                )
            if info.size > limits.max_file_bytes:
                raise ArchiveError(_too_large(_member_name(name, info.name), info.size, limits))
            if total > limits.max_total_bytes:
                raise ArchiveError(
                    f"{name} holds more than {limits.max_total_bytes:,} bytes uncompressed; "
                    f"the limit is {limits.max_total_bytes:,}"
                )
    except ArchiveError:
        raise
    except _READ_ERRORS as error:
        raise ArchiveError(f"{name} is not a readable tar archive ({error})") from None
    return files


def _read_members(
    name: str, kind: str, members: list[_Member], limits: Limits
) -> Iterator[UploadedFile]:
    """The members' files, the limits checked on the sizes the archive states before any
    member is decompressed, and each read bounded by its stated size."""
    if not members:
        raise ArchiveError(f"{name} holds no file")
    _check_counts(name, len(members), sum(member.size for member in members), limits)
    for member in members:
        if member.size > limits.max_file_bytes:
            raise ArchiveError(_too_large(member.name, member.size, limits))
        try:
            # The stated size is the uploader's word: read one byte past it to be sure.
            content = member.read(member.size + 1)
        except _READ_ERRORS as error:
            raise ArchiveError(
                f"{member.name} cannot be read from the {kind} archive ({error})"
            ) from None
        if len(content) > member.size:
            raise ArchiveError(f"{member.name} holds more than the {member.size:,} bytes it states")
        if is_archive(content):
            yield UploadedFile(member.name, b"", problem=NESTED_ARCHIVE)
        else:
            yield UploadedFile(member.name, content)


def _check_counts(name: str, count: int, total: int, limits: Limits) -> None:
    if count > limits.max_files:
        raise ArchiveError(f"{name} holds {count:,} files; the limit is {limits.max_files:,}")
    if total > limits.max_total_bytes:
        raise ArchiveError(
            f"{name} holds {total:,} bytes uncompressed; the limit is {limits.max_total_bytes:,}"
        )
