"""Game-record formats: one module per format behind one interface, found by name or by sniffing.

Each format module defines a :class:`Format` value (:mod:`engine.formats.base`) named
``FORMAT``; the registry below (:data:`FORMATS`) names them by dotted path and imports them on
first use. A reader takes the raw bytes of one file (compressed or not; any encoding the format is
found in) and returns every game in it; a writer turns games into bytes. Readers are lenient
about encoding and strict about meaning: anything they cannot make sense of raises
:class:`~engine.errors.MalformedLogError` naming the place.

>>> from engine.formats import read_games
>>> games, fmt = read_games(open("game.mjlog", "rb").read())  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Final

from engine.errors import MalformedLogError
from engine.events import Game
from engine.formats.base import (
    MAX_DECOMPRESSED_BYTES,
    MAX_JSON_INT_DIGITS,
    MAX_RECORD_ITEMS,
    NOT_A_RECORD,
    SNIFF_BYTES,
    Format,
    ReaderWarnings,
    check_items,
    check_strings,
    content_head,
    cut_short,
    cut_short_message,
    decompress,
    json_int,
    tenhou_log_started_at,
)

#: Every format by name, in sniffing order: the dotted path of its module, whose ``FORMAT`` is
#: its :class:`Format`.
FORMATS: Final[dict[str, str]] = {
    "canonical": "engine.formats.canonical",
    "mjlog": "engine.formats.mjlog",
    "tenhou6": "engine.formats.tenhou6",
    "mjai": "engine.formats.mjai",
}


def sniff_file(path: str | os.PathLike[str]) -> Format | None:
    """The format of a file's content (gzip-compressed or not), from its first
    :data:`SNIFF_BYTES` alone, or ``None`` when it is no game record in a known format. A file of
    any size costs one bounded read: nothing past the start is read.

    :raises MalformedLogError: gzip data corrupt from its start (what it holds cannot be told).
    :raises OSError: the file cannot be read.
    """
    with open(path, "rb") as stream:
        return sniff_head(content_head(stream))


def sniff_head(head: bytes) -> Format | None:
    """The format of content whose start is ``head`` (decompressed, as :func:`content_head`
    gives it), or ``None`` when no format recognises it."""
    # Format by format, in order: a file recognised early leaves the later formats' modules
    # unimported (an mjlog run never loads the tenhou.net/6 or mjai readers).
    for path in FORMATS.values():
        fmt = _load(path)
        if fmt.sniff(head):
            return fmt
    return None


def formats() -> dict[str, Format]:
    """Every known format by name, in sniffing order (each module imported on first use, so
    that importing this package stays cheap)."""
    return {name: _load(path) for name, path in FORMATS.items()}


def _load(path: str) -> Format:
    """The ``FORMAT`` of the module at ``path``, read at each look-up (imported the first
    time), so that a module's format may be replaced (a test's monkeypatch)."""
    module = sys.modules.get(path) or importlib.import_module(path)
    fmt = module.FORMAT
    if not isinstance(fmt, Format):
        raise TypeError(f"{path}.FORMAT is not a Format")
    return fmt


def get_format(name: str) -> Format:
    """A format by name.

    :raises MalformedLogError: no format has that name.
    """
    path = FORMATS.get(name)
    if path is None:
        raise MalformedLogError(f"unknown format {name!r}; known formats: {', '.join(FORMATS)}")
    return _load(path)  # (that format's module alone)


def sniff(data: bytes) -> Format:
    """The format of some (decompressed) bytes.

    :raises MalformedLogError: no format recognises them.
    """
    fmt = sniff_head(data)
    if fmt is None:
        raise MalformedLogError(NOT_A_RECORD)
    return fmt


def read_games(
    data: bytes,
    format_name: str | None = None,
    *,
    file_name: str | None = None,
    max_items: int | None = None,
) -> tuple[list[Game], Format]:
    """Every game in one file's bytes, and the format they were read as (sniffed when no format
    name is given). gzip-compressed bytes are decompressed first. ``file_name`` (a path or URL)
    lets a format take what only the name holds, such as an mjlog's log id. ``max_items``: refuse
    a file of more XML tags or JSON values than this before parsing it (``check_items``), as a
    service reading strangers' files does to bound its memory.

    :raises MalformedLogError: unknown or corrupt data, or more items than a file may hold
        (:func:`~engine.formats.base.check_items`).
    :raises UnsupportedLogError: a record using something the engine does not support.
    """
    plain = decompress(data)
    fmt = get_format(format_name) if format_name else sniff(plain)
    if max_items is not None:
        check_items(plain, fmt.markup, max_items)
    if file_name is not None and fmt.read_named is not None:
        return fmt.read_named(plain, file_name), fmt
    return fmt.read(plain), fmt


__all__ = [
    "FORMATS",
    "MAX_DECOMPRESSED_BYTES",
    "MAX_JSON_INT_DIGITS",
    "MAX_RECORD_ITEMS",
    "NOT_A_RECORD",
    "SNIFF_BYTES",
    "Format",
    "ReaderWarnings",
    "check_items",
    "check_strings",
    "content_head",
    "cut_short",
    "cut_short_message",
    "decompress",
    "formats",
    "get_format",
    "json_int",
    "read_games",
    "sniff",
    "sniff_file",
    "sniff_head",
    "tenhou_log_started_at",
]
