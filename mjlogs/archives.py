"""Uploaded files as the game files they hold: a zip or tar archive is opened, anything else is
one file.

Archives are untrusted: the member count, each member's size and the total are bounded *before*
anything is decompressed (a zip states its sizes; a tar member is read through a bounded read),
links, devices and nested archives are skipped, and a corrupt archive is one clear error.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath


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


@dataclass(frozen=True)
class UploadedFile:
    """One game file: its name (an archive member's is ``archive.zip/member/path``) and bytes."""

    name: str
    data: bytes


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


def _zip_members(name: str, data: bytes, limits: Limits) -> Iterator[UploadedFile]:
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


def _tar(data: bytes) -> tarfile.TarFile | None:
    """The tar archive in the bytes (plain, gzip, bzip2 or xz), or ``None``."""
    try:
        return tarfile.open(fileobj=io.BytesIO(data), mode="r:*")
    except _READ_ERRORS:
        return None


def _tar_members(name: str, tar: tarfile.TarFile, limits: Limits) -> Iterator[UploadedFile]:
    try:
        infos = [info for info in tar.getmembers() if info.isfile()]
    except _READ_ERRORS as error:
        raise ArchiveError(f"{name} is not a readable tar archive ({error})") from None

    def reader(info: tarfile.TarInfo) -> Callable[[int], bytes]:
        def read(count: int) -> bytes:
            handle = tar.extractfile(info)
            return handle.read(count) if handle is not None else b""

        return read

    members = [_Member(_member_name(name, i.name), i.size, reader(i)) for i in infos]
    return _read_members(name, "tar", members, limits)


def _read_members(
    name: str, kind: str, members: list[_Member], limits: Limits
) -> Iterator[UploadedFile]:
    """The members' files, the limits checked on the sizes the archive states before any
    member is decompressed, and each read bounded by its stated size."""
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
        if not is_archive(content):
            yield UploadedFile(member.name, content)


def _check_counts(name: str, count: int, total: int, limits: Limits) -> None:
    if count > limits.max_files:
        raise ArchiveError(f"{name} holds {count:,} files; the limit is {limits.max_files:,}")
    if total > limits.max_total_bytes:
        raise ArchiveError(
            f"{name} holds {total:,} bytes uncompressed; the limit is {limits.max_total_bytes:,}"
        )
