"""The mjai reader's fast path against its careful path (engine/formats/mjai.py).

The reader plays draws and discards (``tsumo``, ``dahai``) from the text of their line, parsed
once and remembered, and hands anything the fast path does not vouch for to the careful path,
the event handlers. The two must agree: the same games from every file, and for a broken one
the same error, word for word and at the same place. The careful path alone is
``mjai._read(data, fast=False)``.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.errors import MalformedLogError, UnsupportedLogError
from engine.events import Draw, Game
from engine.formats import canonical, mjai, mjlog
from engine.sim.selfplay import simulate
from tests.engine.corpus import corpus_dir

REPOSITORY = Path(__file__).resolve().parents[3]

#: Games read, as canonical JSON text; or the error's class, message and place.
Outcome = list[str] | tuple[str, str, str | None]


def outcome(data: bytes, *, fast: bool) -> Outcome:
    try:
        games = mjai._read(data, fast=fast)
    except (MalformedLogError, UnsupportedLogError) as error:
        return type(error).__name__, str(error), getattr(error, "where", None)
    return [canonical.dumps(game) for game in games]


def assert_same(data: bytes) -> Outcome:
    careful = outcome(data, fast=False)
    assert outcome(data, fast=True) == careful
    mjai._LINES.clear()  # and from a fresh process's empty memory of lines
    assert outcome(data, fast=True) == careful
    return careful


@functools.cache
def self_played() -> dict[str, bytes]:
    """Self-played games as mjai: 4 and 3 players, Tenhou's and Mahjong Soul's rules."""
    games = {
        "tenhou-4p": next(simulate("tenhou-4p", 1, 11)),
        "tenhou-3p": next(simulate("tenhou-3p", 1, 11)),
        "majsoul-4p": next(simulate("majsoul-4p", 1, 11)),
        "tenhou-4p-east-nored": next(simulate("tenhou-4p-east-nored", 1, 11)),
    }
    return {name: mjai.write([game]) for name, game in games.items()}


def files_under(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*") if path.is_file() and path.name[0] != ".")


@pytest.mark.parametrize("name", ["tenhou-4p", "tenhou-3p", "majsoul-4p", "tenhou-4p-east-nored"])
def test_self_played_games_read_the_same(name: str) -> None:
    assert isinstance(assert_same(self_played()[name]), list)


def test_the_real_files_of_the_tests_read_the_same() -> None:
    paths = files_under(REPOSITORY / "tests" / "data" / "real" / "mjai_jsonl")
    assert paths
    for path in paths:
        assert isinstance(assert_same(path.read_bytes()), list), path


def test_every_corpus_mjai_file_reads_the_same() -> None:
    paths = files_under(corpus_dir() / "mjai_jsonl")
    assert paths
    for path in paths:
        assert isinstance(assert_same(path.read_bytes()), list), path


def test_every_corpus_mjlog_game_written_as_mjai_reads_the_same() -> None:
    paths = files_under(corpus_dir() / "mjlog_xml")
    for path in paths:
        data = path.read_bytes()
        if mjlog.FORMAT.sniff(data):
            assert isinstance(assert_same(mjai.write(mjlog.read(data))), list), path


# -- broken files --------------------------------------------------------------------------------

#: Edits of one field that the fast path must notice: seats the game does not have, tiles that are
#: no tile or hidden, flags that are not booleans or do not fit, escapes, long numbers.
EDITS: tuple[tuple[bytes, bytes], ...] = (
    (b'"actor":0', b'"actor":4'),
    (b'"actor":1', b'"actor":3'),
    (b'"actor":2', b'"actor":true'),
    (b'"actor":1', b'"actor":-1'),
    (b'"actor":2', b'"actor":2.0'),
    (b'"actor":3', b'"actor":null'),
    (b'"actor":0', b'"actor":' + b"9" * 1200),
    (b'"tsumogiri":false', b'"tsumogiri":true'),
    (b'"tsumogiri":true', b'"tsumogiri":false'),
    (b'"tsumogiri":false', b'"tsumogiri":0'),
    (b'"tsumogiri":true', b'"tsumogiri":null'),
    (b'"pai":"5m"', b'"pai":"?"'),
    (b'"pai":"5m"', b'"pai":"5x"'),
    (b'"pai":"1p"', b'"pai":5'),
    (b'"pai":"5mr"', b'"pai":"5m"'),
    (b'"pai":"E"', b'"pai":"\\u0045"'),
    (b'"pai":"N"', b'"pai":"\\ud800"'),
    (b'"type":"tsumo"', b'"type":"dahai"'),
    (b'"type":"dahai"', b'"type":"tsumo"'),
    (b'"type":"tsumo"', b'"type":"tsumo","type":"dahai"'),
    (b'"type":"tsumo","actor":0', b'"type":"tsumo","actor":0,"tsumogiri":true'),
    (b'"type":"reach"', b'"type":"reach","x":"\\u0000"'),
    (b'"type":"hora"', b'"type":"error"'),
    (b'"type":"end_kyoku"', b'"type":"end_kyokuu"'),
    (b'"kyoku":1', b'"kyoku":5'),
    (b'{"type":"dahai"', b' {"type":"dahai"'),
    (b'"type":"dahai"', b'"type": "dahai"'),
)


def broken(data: bytes, rng: random.Random) -> bytes:
    """``data`` broken in one of several ways: lines dropped, repeated, swapped, cut, batched
    or padded, a field edited (:data:`EDITS`), the file cut short or given Windows line ends."""
    lines = data.split(b"\n")
    at, other = rng.randrange(len(lines)), rng.randrange(len(lines))
    way = rng.randrange(12)
    if way == 0:
        del lines[at]
    elif way == 1:
        lines.insert(at, lines[other])
    elif way == 2:
        lines[at], lines[other] = lines[other], lines[at]
    elif way == 3:
        lines[at] = lines[at][: rng.randrange(len(lines[at]) + 1)]
    elif way == 4:
        lines[at] += rng.choice((b" \t\r", b"x", b"}"))
    elif way == 5:
        return data[: rng.randrange(len(data))]
    elif way == 6:
        lines = [line + b"\r" for line in lines]
    elif way == 7:
        lines[at] = b"[" + lines[at] + b"," + lines[other] + b"]"
    elif way == 8:
        lines.insert(at, rng.choice((b"", b"   ", b"\xef\xbb\xbf" + lines[other])))
    elif way == 9:
        lines[at] = lines[at].replace(b"}", b',"extra":[1,{"a":null}]}', 1)
    else:
        old, new = rng.choice(EDITS)
        where = [number for number, line in enumerate(lines) if old in line]
        if where:
            number = rng.choice(where)
            lines[number] = lines[number].replace(old, new, 1)
    return b"\n".join(lines)


@pytest.mark.parametrize("name", ["tenhou-4p", "tenhou-3p"])
def test_broken_files_read_or_fail_the_same(name: str) -> None:
    rng = random.Random(f"mjai-fast-path-{name}")
    outcomes = {"games": 0, "errors": 0}
    for _ in range(150):
        data = self_played()[name]
        for _ in range(rng.randrange(1, 4)):
            data = broken(data, rng)
        outcomes["errors" if isinstance(assert_same(data), tuple) else "games"] += 1
    assert outcomes["games"] and outcomes["errors"]  # both kinds were met


def lines(*events: Any) -> bytes:
    return "\n".join(json.dumps(event, separators=(",", ":")) for event in events).encode()


def start_kyoku(hands: int = 4) -> dict[str, Any]:
    tehais = [["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p"]]
    return {
        "type": "start_kyoku",
        "bakaze": "E",
        "dora_marker": "1s",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "scores": [25000] * hands,
        "tehais": tehais * hands,
    }


TSUMO_3 = {"type": "tsumo", "actor": 3, "pai": "1s"}


@pytest.mark.parametrize(
    "events",
    [
        # A line remembered from a 4-player game, by a seat a 3-player game does not have.
        (start_kyoku(3), TSUMO_3),
        # A remembered line out of its place: before any round, after the round's end.
        (TSUMO_3,),
        ({"type": "start_game"}, TSUMO_3),
        (start_kyoku(), {"type": "ryukyoku", "reason": "fanpai"}, TSUMO_3),
        (start_kyoku(), {"type": "end_kyoku"}, TSUMO_3),
        # Without aka_flag, a red five drawn (and only drawn) makes the rule set one with them.
        (
            {"type": "start_game"},
            start_kyoku(),
            {"type": "tsumo", "actor": 0, "pai": "5mr"},
            {"type": "dahai", "actor": 0, "pai": "5mr", "tsumogiri": True},
        ),
        # A tsumogiri flag that does not fit: nothing drawn, another tile drawn, after a pon.
        (start_kyoku(), {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": True}),
        (
            start_kyoku(),
            {"type": "tsumo", "actor": 0, "pai": "1s"},
            {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": True},
        ),
        (
            start_kyoku(),
            {"type": "tsumo", "actor": 0, "pai": "1s"},
            {"type": "dahai", "actor": 0, "pai": "1s", "tsumogiri": True},
            {"type": "pon", "actor": 1, "target": 0, "pai": "1s", "consumed": ["1s", "1s"]},
            {"type": "dahai", "actor": 1, "pai": "1m", "tsumogiri": True},
        ),
    ],
)
def test_remembered_lines_where_they_do_not_fit(events: tuple[dict[str, Any], ...]) -> None:
    data = lines({"type": "start_game"}, start_kyoku(), TSUMO_3, {"type": "end_game"})
    mjai.read(data)  # the line of seat 3's draw is now remembered
    assert json.dumps(TSUMO_3, separators=(",", ":")) in mjai._LINES
    careful = outcome(lines(*events), fast=False)
    assert outcome(lines(*events), fast=True) == careful


# -- the fast path is taken, and holds little ---------------------------------------------------


def test_draws_and_discards_are_shared_events() -> None:
    """The fast path's draws are one shared object per seat and tile, as the mjlog reader's:
    two readings of a game hold the same objects (the careful path makes new ones)."""
    data = self_played()["tenhou-4p"]

    def first_draw(game: Game) -> Draw:
        draw = game.rounds[0].events[0]
        assert isinstance(draw, Draw)
        return draw

    fast = [first_draw(mjai.read(data)[0]) for _ in range(2)]
    careful = [first_draw(mjai._read(data, fast=False)[0]) for _ in range(2)]
    assert fast[0] is fast[1]
    assert careful[0] is not careful[1]
    assert fast[0] == careful[0]


def test_remembered_lines_are_bounded() -> None:
    """Lines whose fields change (a bot's notes) do not grow the reader's memory past its
    bound."""
    events: list[dict[str, Any]] = [{"type": "start_game"}, start_kyoku()]
    for note in range(mjai._LINES_HELD + 100):
        events.append({"type": "tsumo", "actor": 0, "pai": "1s", "note": note})
        events.append({"type": "dahai", "actor": 0, "pai": "1s", "note": note})
    mjai.read(lines(*events))
    assert 0 < len(mjai._LINES) <= mjai._LINES_HELD
