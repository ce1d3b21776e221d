"""tenhou.net links that carry a record: ``https://tenhou.net/5/#json={...}``.

Tenhou's viewer (``tenhou.net/5``) and log editor (``tenhou.net/6``) take a whole tenhou.net/6
object in the fragment of their address, after ``#json=``, and tools that convert games to
tenhou.net/6 hand them out that way: one link for a game, or one a round (the editor shows one
round), saved as a text file, a line each, sometimes among other words. The JSON is written as
it is (``#json={"title":...}``) or percent-encoded (``#json=%7B%22title%22...``, as
``encodeURIComponent`` writes it), and may be followed by the viewer's own parameters
(``&ts=2&tw=1``: which round and seat to show), which are not part of the record.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final
from urllib.parse import unquote

from engine.errors import MalformedLogError
from engine.formats.base import check_strings, cut_short, cut_short_message, json_int

#: Where a record starts in a link: the viewer's or the editor's address, then ``#json=``.
LINK: Final = re.compile(r"(?:https?://)?tenhou\.net/\d+/(?:index\.html)?#json=")
#: :data:`LINK` in bytes, for telling the format from a file's start.
LINK_BYTES: Final = re.compile(rb"(?:https?://)?tenhou\.net/\d+/(?:index\.html)?#json=")
#: A percent-encoded record runs to the first character no address holds.
_ENCODED: Final = re.compile(r"[^\s\"'<>]+")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


_DECODER: Final = json.JSONDecoder(parse_constant=_no_constant, parse_int=json_int)


def link_values(text: str) -> list[tuple[Any, str]]:
    """The record of every link in ``text``, in order, each with the prefix naming its place in
    error messages (``line 3: ``, or none when there is one link); empty when there is none.

    :raises MalformedLogError: a link whose record is not valid JSON, naming its line.
    """
    found = [(text.count("\n", 0, match.start()) + 1, match.end()) for match in LINK.finditer(text)]
    return [
        (_record(text, start, f"line {line}"), f"line {line}: " if len(found) > 1 else "")
        for line, start in found
    ]


def _record(text: str, start: int, where: str) -> Any:
    """The JSON value that starts at ``start`` (just after ``#json=``), as it is or
    percent-encoded; what follows it (``&ts=2``, the rest of the line) is not read."""
    if text.startswith("{", start):
        try:
            return _decode(text, start, where)
        except MalformedLogError:
            # A browser's address bar shows some characters decoded and keeps others encoded
            # (#json={%22title%22:...): such a link is read decoded.
            if "%" not in _token(text, start):
                raise
    try:
        decoded = unquote(_token(text, start), errors="strict")
    except UnicodeDecodeError:
        raise MalformedLogError(
            "the record in the tenhou.net link is percent-encoded, but not as UTF-8 text", where
        ) from None
    return _decode(decoded, 0, where)


def _token(text: str, start: int) -> str:
    found = _ENCODED.match(text, start)
    return found.group() if found else ""


def _decode(text: str, start: int, where: str) -> Any:
    """The JSON value at ``start``, refusing what Python's parser accepts beyond JSON."""
    try:
        value, _ = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as error:
        detail = f"not valid JSON: {error.msg}, column {error.colno}"
        if cut_short(error):
            size = f"{len(text) - start:,} characters"
            message = cut_short_message("record in the tenhou.net link", size, detail)
            raise MalformedLogError(message, where) from None
        raise MalformedLogError(
            f"the record in the tenhou.net link is not valid JSON ({error.msg}, column "
            f"{error.colno})",
            where,
        ) from None
    except RecursionError:
        raise MalformedLogError("JSON nested too deeply", where) from None
    except ValueError as error:
        raise MalformedLogError(str(error), where) from None
    if "\\u" in text:  # only an escape can make a NUL or a lone surrogate
        check_strings(value, where)
    return value
