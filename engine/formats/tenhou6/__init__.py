"""tenhou.net/6 JSON reader and writer (format ``tenhou6``).

A tenhou.net/6 object (spec: ``../shared/docs/reference/log-formats.md`` section B) holds a game's
header (``name``, ``dan``, ``rate``, ``rule``, the final ``sc``...) and its rounds in ``log``.
A round is 17 elements: ``[kyoku, honba, sticks]``, the start scores, the dora and ura
indicators, then per seat its starting hand, its *takes* (draws; chi/pon/open-kan strings) and
its *discards* (tiles; ``60`` tsumogiri; ``0`` after an open kan; riichi, closed-kan, added-kan
and north strings), and last the result.

**Reading.** A file holds one whole-game object or several objects (JSON lines, or a JSON
array). Consecutive objects are rounds of one game while their ``ref`` (without one: their
player names) stays the same and their rounds go forward: the mjx files hold one round per
line. The record never says how the seats' takes and discards interleave; :class:`Interleaver`
rebuilds it by playing the turns (the dealer draws first; after a discard, a seat whose next
take calls that very tile from that seat calls it, else the next seat draws) and backtracks
when a choice leads nowhere, as when a pon was of the second of two identical discards
(mjai-reviewer's "confusing_nakis"). Kan dora go where Tenhou's mjlog puts them: a closed kan's
right after the kan; an open or added kan's before the kanner's discard, or after their next
kan or north once it is not robbed. Sanma drops the empty North seat everywhere but counts call
directions over four seats, as Tenhou does.

**Writing** gives Tenhou's structure (``ver`` 2.3, ``ref``, ``log``, ``ratingc``, ``rule``,
``lobby``, ``dan``, ``rate``, ``sx``, ``sc``, ``name``), one object per game and line, with hands
and meld tiles in Tenhou's order. Only Tenhou rule sets can be written.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from typing import Final

from engine.events import Game
from engine.formats.base import Format, tenhou_log_started_at
from engine.formats.mjlog import log_id_from_name
from engine.formats.tenhou6.calls import (
    CODE_OF_TILE,
    DUMMY,
    TILE_OF_CODE,
    TSUMOGIRI,
    CallString,
    format_call,
    parse_call,
)
from engine.formats.tenhou6.links import LINK_BYTES
from engine.formats.tenhou6.reader import NAME, read_log, strip_comment_lines
from engine.formats.tenhou6.round_data import Slot
from engine.formats.tenhou6.strings import (
    ScoreString,
    format_score,
    format_yaku,
    parse_score,
    parse_yaku,
)
from engine.formats.tenhou6.writer import game_to_json

__all__ = [
    "CODE_OF_TILE",
    "DUMMY",
    "FORMAT",
    "NAME",
    "TILE_OF_CODE",
    "TSUMOGIRI",
    "CallString",
    "ScoreString",
    "Slot",
    "format_call",
    "format_score",
    "format_yaku",
    "game_to_json",
    "parse_call",
    "parse_score",
    "parse_yaku",
    "read",
    "sniff",
    "strip_comment_lines",
    "write",
]


def read(data: bytes) -> list[Game]:
    """Every game in a tenhou.net/6 file (see the module docstring).

    :raises MalformedLogError: anything that is not tenhou.net/6 JSON, naming the place:
        ``line 3: log[0][11][4]`` is the 5th take of seat 2 in the round on line 3.
    """
    return read_log(data)


def read_named(data: bytes, file_name: str) -> list[Game]:
    """:func:`read`, and a file of one game without a ``ref`` takes the Tenhou log id in its
    name (exports are often saved as ``<log id>.json``)."""
    games = read(data)
    log_id = log_id_from_name(file_name)
    if len(games) != 1 or log_id is None or games[0].header.source.id is not None:
        return games
    header = games[0].header
    source = dataclasses.replace(header.source, id=log_id)
    started = header.started_at or tenhou_log_started_at(log_id)
    header = dataclasses.replace(header, source=source, started_at=started)
    return [dataclasses.replace(games[0], header=header)]


def sniff(data: bytes) -> bool:
    """A JSON object (or lines, or an array of them) with a ``log`` member near the start,
    whole-line ``//`` comments before or between them skipped; or a text that is no JSON
    holding a tenhou.net link with a record (``https://tenhou.net/5/#json=...``)."""
    head = data[:16384]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        head = head.decode("utf-16", "ignore").encode()
    head = head.removeprefix(b"\xef\xbb\xbf")
    if b"//" in head:
        head = _COMMENT_LINE.sub(b"", head)
    head = head.lstrip(b" \t\r\n")
    if not head.startswith((b"{", b"[")):
        return LINK_BYTES.search(head) is not None
    head = head.lstrip(b" \t\r\n[")
    return head.startswith(b"{") and b'"log"' in head and b"mjlogs-canonical" not in head


#: :func:`strip_comment_lines`' comment line, in bytes.
_COMMENT_LINE: Final = re.compile(rb"^[ \t]*//[^\n]*", re.MULTILINE)


def write(games: Sequence[Game]) -> bytes:
    """Games as tenhou.net/6: one object per game, one game per line.

    :raises UnsupportedLogError: what tenhou.net/6 cannot express: a rule set not Tenhou's, a
        first dealer other than seat 0, a score change outside play.
    :raises MalformedLogError: a record at odds with itself (an added kan with no pon...).
    """
    lines = [
        json.dumps(game_to_json(game), ensure_ascii=False, separators=(",", ":")) for game in games
    ]
    return "".join(line + "\n" for line in lines).encode()


FORMAT = Format(
    name=NAME,
    title="tenhou.net/6 JSON",
    extensions=(".json",),
    sniff=sniff,
    read=read,
    write=write,
    read_named=read_named,
)
