"""What every game-record format shares: the :class:`Format` interface, decompression, the
readers' warnings and their JSON helpers.

The format modules (:mod:`engine.formats.canonical`, ``mjlog``, ``tenhou6``, ``mjai``) build on
this module; the registry in :mod:`engine.formats` (the package) finds them by name or by
sniffing. Kept apart from the registry so that no format module imports the module that lists
it.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final

from engine.errors import MalformedLogError
from engine.events import Game

#: Largest decompressed size accepted from one file: far above any real game (a hanchan is
#: well under 1 MB in every format), low enough that a compression bomb cannot exhaust memory.
MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Format:
    """One game-record format."""

    #: Short name used on the command line and in the API (``mjlog``, ``tenhou6``, ...).
    name: str
    #: What people call it.
    title: str
    #: Usual file name extensions, dot included.
    extensions: tuple[str, ...]
    #: Whether the (decompressed) bytes look like this format. Cheap: it reads the start only.
    sniff: Callable[[bytes], bool]
    #: Every game in one file's bytes (decompressed by :func:`read_games`).
    read: Callable[[bytes], list[Game]]
    #: The games as one file's bytes, or ``None`` when the format cannot be written.
    write: Callable[[Sequence[Game]], bytes] | None = None
    #: Like ``read``, also given the file's name, for a format whose files carry something of
    #: the game only in their name (an mjlog's Tenhou log id). ``None``: the name adds nothing.
    read_named: Callable[[bytes, str], list[Game]] | None = None
    #: ``"xml"`` or ``"json"``: what :func:`check_items` counts in a file before it is read.
    markup: str = "json"


#: How much a gzip stream is inflated at a time: a bomb is stopped at the limit, holding no
#: more than the limit (inflating to the limit in one call would hold it twice over).
_INFLATE_STEP = 1024 * 1024
_GZIP_MAGIC = b"\x1f\x8b"


def decompress(data: bytes) -> bytes:
    """The bytes themselves, or their gzip content when they are gzip-compressed (every member
    of a multi-member file, as ``cat a.gz b.gz`` makes).

    :raises MalformedLogError: corrupt gzip data, or more than :data:`MAX_DECOMPRESSED_BYTES`.
    """
    if data[:2] != _GZIP_MAGIC:
        return data
    parts: list[bytes] = []
    size = 0
    rest = data
    while rest[:2] == _GZIP_MAGIC:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending = rest
        while not inflater.eof:
            try:
                part = inflater.decompress(pending, _INFLATE_STEP)
            except zlib.error as error:
                raise MalformedLogError(f"corrupt gzip data ({error})") from None
            if not part and not pending:
                # A cut-off download: the partial content could still parse as a shorter
                # record.
                raise MalformedLogError(
                    "truncated gzip data (the file ends before the gzip stream does)"
                )
            size += len(part)
            if size > MAX_DECOMPRESSED_BYTES:
                raise MalformedLogError(
                    f"gzip content larger than {MAX_DECOMPRESSED_BYTES // (1024 * 1024)} MB; "
                    "refused"
                )
            parts.append(part)
            pending = inflater.unconsumed_tail
        rest = inflater.unused_data
    if rest.strip(b"\x00"):  # zeros after the last member are padding (gzip(1) allows it)
        raise MalformedLogError("data after the end of the gzip stream")
    return b"".join(parts)


#: Items a service may let one file hold (``read_games(max_items=...)``, :func:`check_items`):
#: XML tags, or JSON values. Parsing keeps each as a Python object of 200 bytes or so (a 30 MB
#: mjlog of three million tags took 670 MB to read), so this bounds a file's reading to about
#: 100 MB, where a game holds a few thousand (the largest real record read here, an mjai log with
#: a bot's notes, about 11,000): a collection of more games than this allows comes as several
#: files or an archive.
MAX_RECORD_ITEMS: Final = 500_000


def check_items(data: bytes, markup: str, limit: int = MAX_RECORD_ITEMS) -> None:
    """Refuse a file of more than ``limit`` items before it is parsed. Counted at C speed on
    the bytes, as an upper bound: a tag starts with ``<``; a JSON value but the first follows a
    comma, or starts a line (mjai's JSON lines), and a comma may come percent-encoded in a
    tenhou.net link's record (``%2C``).

    :raises MalformedLogError: naming the count and the limit.
    """
    if markup == "xml":
        tags = data.count(b"<")
        if tags > limit:
            raise MalformedLogError(
                f"the file holds {tags:,} XML tags; at most {limit:,} are read in one file (a "
                "game has a few thousand)"
            )
        return
    values = data.count(b",") + data.count(b"\n") + data.count(b"%2C") + data.count(b"%2c")
    if values > limit:
        raise MalformedLogError(
            f"the file holds about {values:,} JSON values; at most {limit:,} are read in one "
            "file (a game has a few thousand): split a collection into several files or an "
            "archive"
        )


#: Why bytes that no format recognises are no game record.
NOT_A_RECORD = (
    "not a game record in any known format (Tenhou mjlog XML, tenhou.net/6 JSON, mjai JSON "
    "lines, canonical JSON)"
)
#: How much of a file's content :func:`sniff_file` looks at: more than any sniffer reads (mjai's
#: first line, which may carry long bot comments, is looked for in its first 256 KiB).
SNIFF_BYTES = 256 * 1024
#: How much compressed data :func:`content_head` takes at a time.
_READ_STEP = 64 * 1024


def content_head(stream: BinaryIO, size: int = SNIFF_BYTES) -> bytes:
    """At most the first ``size`` bytes of a file's content, read from ``stream`` (at its
    start): gzip-compressed data is inflated as it is read, so that however large the file,
    only about ``size`` bytes are read and inflated. A gzip stream cut off early gives what it
    holds (the whole read, :func:`read_games`, refuses it).

    :raises MalformedLogError: gzip data corrupt from its start.
    """
    first = stream.read(min(size, _READ_STEP))
    if first[:2] != _GZIP_MAGIC:
        return first + stream.read(size - len(first)) if len(first) < size else first
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    parts: list[bytes] = []
    got = 0
    chunk = first
    while chunk and got < size and not inflater.eof:
        try:
            part = inflater.decompress(chunk, size - got)
        except zlib.error as error:
            raise MalformedLogError(f"corrupt gzip data ({error})") from None
        parts.append(part)
        got += len(part)
        # What the inflater could not take within the size stays in its tail: feed it first.
        chunk = inflater.unconsumed_tail or stream.read(_READ_STEP)
    return b"".join(parts)[:size]


def tenhou_log_started_at(log_id: str | None) -> str | None:
    """The start of the game a Tenhou log id names, in Japan time: its first ten digits are the
    date and hour (``2010081709gm-...`` is ``2010-08-17T09:00:00+09:00``); ``None`` for no id."""
    if not log_id or not log_id[:10].isdigit() or log_id[10:13] != "gm-":
        return None
    return f"{log_id[:4]}-{log_id[4:6]}-{log_id[6:8]}T{log_id[8:10]}:00:00+09:00"


@dataclass
class ReaderWarnings:
    """A reader's warnings about one game (:attr:`~engine.events.Game.warnings`): each
    distinct message once, with every place it applies to (the first few named), in the order
    first seen."""

    #: How many places one warning names; the rest are counted.
    MAX_PLACES = 5

    _places: dict[str, list[str]] = field(default_factory=dict)

    def add(self, message: str, where: str | None = None) -> None:
        """Note ``message`` at ``where`` (``line 12``, ``log[0][16]``)."""
        places = self._places.setdefault(message, [])
        if where is not None:
            places.append(where)

    def extend(self, other: ReaderWarnings) -> None:
        """Take in another collector's warnings (the parts of one game)."""
        for message, places in other._places.items():
            self._places.setdefault(message, []).extend(places)

    def lines(self) -> tuple[str, ...]:
        """The warnings as sentences: ``line 12, line 40: message``."""
        out = []
        for message, places in self._places.items():
            named = ", ".join(places[: self.MAX_PLACES])
            if len(places) > self.MAX_PLACES:
                named += f" and {len(places) - self.MAX_PLACES} more"
            out.append(f"{named}: {message}" if named else message)
        return tuple(out)

    def __bool__(self) -> bool:
        return bool(self._places)


#: Digits of the longest integer a record's JSON may hold. Every figure of a game has far fewer
#: (points, counts, a timestamp in milliseconds); a longer number is still parsed, cheaply, up
#: to this, so that the field that holds it can say what is wrong with it. Beyond, Python would
#: refuse it (at 4,300 digits) in words about its own settings: the reader says it instead.
MAX_JSON_INT_DIGITS: Final = 1_000


def json_int(text: str) -> int:
    """``parse_int`` of the readers' ``json.loads``: an integer, refusing absurdly long ones
    before Python converts them (:data:`MAX_JSON_INT_DIGITS`).

    :raises MalformedLogError: naming how many digits the number has.
    """
    digits = len(text) - (text[0] == "-")
    if digits > MAX_JSON_INT_DIGITS:
        raise MalformedLogError(
            f"a number of {digits:,} digits (no game's figure has so many; at most "
            f"{MAX_JSON_INT_DIGITS:,} are read)"
        )
    return int(text)


#: Each byte to ``0`` if it is a digit, to a space if not: a run of ``0`` in the translation is a
#: run of digits in the text (UTF-8 encodes no other character with a byte of a digit).
_DIGITS_TO_ZERO: Final = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))


def holds_digit_run(text: str | bytes, digits: int) -> bool:
    """Whether ``text`` (or its UTF-8 bytes) has ``digits`` ASCII digits in a row, in a number
    or in a string alike (one translation of the bytes and a substring search: a regular
    expression took 0.9 ms on a game's 30 KB document)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return len(data) >= digits and b"0" * digits in data.translate(_DIGITS_TO_ZERO)


def json_loads(text: str | bytes, *, parse_constant: Callable[[str], object] | None = None) -> Any:
    """``json.loads(text, parse_constant=..., parse_int=json_int)``: the readers' JSON, numbers
    of more than :data:`MAX_JSON_INT_DIGITS` digits refused by :func:`json_int`.

    A ``parse_int`` makes the C scanner call into Python for every integer, a third of the
    parse of a record whose every tile is a number; so :func:`json_int` is given only to a
    text that may hold such a number (:func:`_may_hold_a_long_number`), and any other is
    parsed by the scanner alone, whose integers are then all short."""
    parse_int = json_int if _may_hold_a_long_number(text) else None
    return json.loads(text, parse_constant=parse_constant, parse_int=parse_int)


def _may_hold_a_long_number(text: str | bytes) -> bool:
    """Whether ``text`` holds a run of more than :data:`MAX_JSON_INT_DIGITS` digits (in a
    number or in a string: one quick scan of the bytes cannot tell). Bytes that ``json.loads``
    would read as UTF-16 or UTF-32, whose digits a NUL byte parts, may."""
    if isinstance(text, bytes) and not json.detect_encoding(text).startswith("utf-8"):
        return True
    return holds_digit_run(text, MAX_JSON_INT_DIGITS + 1)


def cut_short(error: json.JSONDecodeError) -> bool:
    """Whether a JSON error is the text running out (a file cut short in a download or a copy),
    not a wrong character: the parser stopped at the end of the text, or in a string that runs
    to it."""
    return error.pos >= len(error.doc.rstrip()) or error.msg.startswith("Unterminated string")


def cut_short_message(what: str, size: str, detail: str) -> str:
    """The words for a record whose text stops before its end (:func:`cut_short`); ``size``
    says where (``"1,200 bytes"``)."""
    return (
        f"the file ends in the middle of the {what}: it stops after {size}, before the record "
        f"is complete; was it cut short? ({detail})"
    )


def check_strings(value: object, where: str | None = None) -> None:
    """Refuse a decoded JSON value holding a string that is not storable text: U+0000 (which
    PostgreSQL cannot hold in text or JSON) or a lone surrogate (``"\\ud800"``: no UTF-8 has
    it). Only escapes make them (JSON text cannot hold them as they are), so a reader may call
    this only when its text holds a ``\\u``.

    :raises MalformedLogError: naming the path of the first such string (``players[0].name``),
        from ``where`` (a line, or the document's root when ``None``).
    """
    stack: list[tuple[object, str]] = [(value, where or "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            problem = _text_problem(item)
            if problem:
                raise MalformedLogError(problem, path or None)
        elif isinstance(item, dict):
            for key, member in item.items():
                problem = _text_problem(key)
                if problem:
                    raise MalformedLogError(f"a member name {problem}", path or None)
                stack.append((member, f"{path}.{key}" if path else key))
        elif isinstance(item, list):
            stack.extend((member, f"{path}[{index}]") for index, member in enumerate(item))


def _text_problem(text: str) -> str | None:
    """What makes a string unstorable, or ``None``."""
    if "\x00" in text:
        return "holds the character U+0000 (NUL), which no record may hold"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return f"holds {text[error.start]!r}, half of a UTF-16 surrogate pair: not text"
    return None
