"""Fuzzing every game-record reader (hypothesis).

Random bytes, and valid documents of each format (self-played games through the writers, a
hand-written mjlog: ``fuzz_support``) mutated the ways files go wrong or are made to: flipped,
inserted and deleted bytes, cut-off files, deleted, repeated and swapped lines or XML tags,
JSON values replaced by other types, huge or non-finite numbers, wrong tiles, hostile unicode,
other encodings and gzip. Each input is read by every format by name and by sniffing
(:func:`fuzz_support.check_reading`): a reader may refuse it with the engine's own error or
read games the service can store, nothing else. A failure prints the input (hypothesis shows
the falsifying example).

About 40 s in all; ``MJ_SLOW=1`` runs 50 times more examples. ``tests/fuzz_readers.py`` is the
coverage-guided (atheris) fuzzer for runs of hours.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import MalformedLogError
from engine.events import Game, Player
from engine.formats import canonical, formats, get_format, read_games, tenhou6
from engine.sim.selfplay import simulate
from tests.engine.formats.fuzz_support import (
    HAND_WRITTEN_MJLOG,
    check_reading,
    gzipped,
    seed_documents,
    seed_games,
)

#: ``MJ_SLOW=1``: a long local run.
SCALE = 50 if os.environ.get("MJ_SLOW") == "1" else 1


def fuzz_settings(examples: int) -> Any:
    return settings(
        max_examples=examples * SCALE,
        # The same inputs on every CI run (a red run is a change of ours, not a new draw);
        # MJ_SLOW=1 and the atheris harness (tests/fuzz_readers.py) explore.
        derandomize=SCALE == 1,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


DOCUMENT_NAMES = sorted(seed_documents())
JSON_DOCUMENT_NAMES = [name for name in DOCUMENT_NAMES if seed_documents()[name][0] != "mjlog"]


def test_every_seed_document_is_read_every_way_it_should() -> None:
    # The mutations start from valid documents: each reads as its own format, sniffed or not.
    for name, (format_name, data) in seed_documents().items():
        for document in (data, gzipped(data)):
            assert read_games(document, format_name)[0], name
            assert read_games(document)[1].name == format_name, name  # sniffed as its format
            assert check_reading(document) >= 3, name  # by name, sniffed, sniffed and named
    assert set(formats()) == {fmt for fmt, _ in seed_documents().values()}


# -- hostile values -------------------------------------------------------------------------------

#: Strings that are wrong where a tile, a name or a number is expected, or hard on a decoder.
HOSTILE_STRINGS = st.sampled_from(
    [
        "", " ", "5m", "0m", "0z", "8z", "10m", "5x", "m5", "?", "5mr", "\uff11", "5\uff4d",
        "\x00", "\ud800", "\udfff", "\u2028", "\u202e", "\ufeff", "e\u0301", "🀄", "🀄" * 300,
        "%00", "%ff%fe", "%", "a" * 5000, "-1", "1e999", "NaN", "Infinity", "null", "true",
        "mjlogs-canonical", "tenhou-4p", "uzje-4p", "nope", "log", "type", "\\", '"', "<", "&",
        "2010081709gm-00a9-0000-fe3371ad",
    ]
) | st.text(max_size=20)  # fmt: skip

HOSTILE_NUMBERS = st.sampled_from(
    [
        0, -1, 1, 2, 3, 4, 5, 6, 7, 13, 14, 34, 35, 37, 47, 51, 53, 54, 60, 135, 136,
        -(2**31), 2**31, 2**63, -(2**63) - 1, 2**64, 10**30, 10**400,
        0.5, -0.0, 1e308, -1e308, 5e-324, float("nan"), float("inf"), float("-inf"),
    ]
) | st.integers() | st.floats()  # fmt: skip

HOSTILE_SCALARS = st.none() | st.booleans() | HOSTILE_NUMBERS | HOSTILE_STRINGS

#: Stand-ins replaced in the JSON text after ``json.dumps``: values no encoder writes.
RAW_LITERALS = {
    "@huge-integer@": "9" * 5000,  # more digits than Python's int() takes by default
    "@huge-float@": "1" + "0" * 400 + ".5",
    "@deep-array@": "[" * 100_000 + "]" * 100_000,
    "@deep-object@": '{"a":' * 50_000 + "0" + "}" * 50_000,
}

HOSTILE_VALUES = st.recursive(
    HOSTILE_SCALARS | st.sampled_from(sorted(RAW_LITERALS)),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(HOSTILE_STRINGS, children, max_size=4)
    ),
    max_leaves=8,
)


def dumps(value: Any) -> str:
    """JSON text as a careless or hostile writer makes it: NaN and infinities included, no
    ASCII escaping (raw U+2028, lone surrogates escaped), raw literals substituted."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for stand_in, literal in RAW_LITERALS.items():
        text = text.replace(json.dumps(stand_in), literal)
    return text


def encode(text: str) -> bytes:
    # Lone surrogates cannot be UTF-8: write them as a careless encoder would.
    return text.encode("utf-8", "surrogatepass")


# -- random bytes ---------------------------------------------------------------------------------


@fuzz_settings(600)
@given(st.binary(max_size=300))
def test_random_bytes(data: bytes) -> None:
    check_reading(data)


@fuzz_settings(300)
@given(
    st.sampled_from([b"", b"\x1f\x8b", b"\xef\xbb\xbf", b"\xff\xfe", b"<mjloggm", b'{"log":']),
    st.binary(max_size=200),
)
def test_random_bytes_after_a_format_start(start: bytes, rest: bytes) -> None:
    check_reading(start + rest)
    check_reading(gzipped(start + rest))


# -- byte mutations of valid documents ------------------------------------------------------------


@st.composite
def byte_mutations(draw: st.DrawFn, data: bytes) -> bytes:
    """The bytes with a few flips, insertions, deletions, repeats or a cut."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(out)))
        operation = draw(st.sampled_from(["flip", "set", "insert", "delete", "repeat", "cut"]))
        if operation == "flip" and at < len(out):
            out[at] ^= 1 << draw(st.integers(0, 7))
        elif operation == "set" and at < len(out):
            out[at] = draw(st.sampled_from(b'\x00\xff"<>{}[],:0123456789-.e\n'))
        elif operation == "insert":
            out[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif operation == "delete":
            del out[at : at + draw(st.integers(1, 64))]
        elif operation == "repeat":
            out[at:at] = out[at : at + draw(st.integers(1, 64))]
        elif operation == "cut":
            del out[at:]
    return bytes(out)


@fuzz_settings(100)
@given(st.data(), st.sampled_from(DOCUMENT_NAMES), st.booleans())
def test_byte_mutations(data: st.DataObject, name: str, compressed: bool) -> None:
    _, document = seed_documents()[name]
    mutated = data.draw(byte_mutations(document))
    check_reading(gzipped(mutated) if compressed else mutated)


@fuzz_settings(150)
@given(st.data(), st.sampled_from(DOCUMENT_NAMES))
def test_byte_mutations_of_gzip_data(data: st.DataObject, name: str) -> None:
    # Damage to the compressed stream itself: bad headers, bad CRCs, cut-off members.
    _, document = seed_documents()[name]
    check_reading(data.draw(byte_mutations(gzipped(document))))


# -- lines and XML tags ---------------------------------------------------------------------------

_TAG = re.compile(rb"<[^>]*>")


def units(name: str) -> tuple[list[bytes], bytes]:
    """The document cut in the units a record is made of: XML tags for an mjlog, lines for the
    JSON-lines formats (a canonical document is written indented to have lines)."""
    format_name, data = seed_documents()[name]
    if format_name == "mjlog":
        return _TAG.findall(data), b""
    if format_name == "canonical":
        data = json.dumps(json.loads(data), indent=1, ensure_ascii=False).encode()
    return data.split(b"\n"), b"\n"


@fuzz_settings(100)
@given(st.data(), st.sampled_from(DOCUMENT_NAMES))
def test_deleted_repeated_and_moved_lines_or_tags(data: st.DataObject, name: str) -> None:
    parts, joiner = units(name)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(parts) - 1))
        operation = data.draw(st.sampled_from(["delete", "repeat", "move", "swap"]))
        if operation == "delete":
            del parts[at]
        elif operation == "repeat":
            parts.insert(at, parts[at])
        else:
            to = data.draw(st.integers(0, len(parts) - 1))
            if operation == "move":
                parts.insert(to, parts.pop(at))
            else:
                parts[at], parts[to] = parts[to], parts[at]
        if not parts:
            break
    check_reading(joiner.join(parts))


# -- JSON values ----------------------------------------------------------------------------------

Path = tuple[str | int, ...]


@cache
def json_units(name: str) -> tuple[tuple[Any, ...], tuple[tuple[Path, ...], ...]]:
    """The JSON values of a document (one per line, or one for the whole) and every path in
    each; returned as copies are taken by the caller."""
    format_name, data = seed_documents()[name]
    lines = [data] if format_name == "canonical" else [ln for ln in data.split(b"\n") if ln]
    values = tuple(json.loads(line) for line in lines)
    return values, tuple(tuple(_paths(value, ())) for value in values)


def _paths(value: Any, path: Path) -> list[Path]:
    found: list[Path] = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _at(value: Any, path: Path) -> Any:
    for key in path:
        value = value[key]
    return value


@fuzz_settings(300)
@given(st.data(), st.sampled_from(JSON_DOCUMENT_NAMES))
def test_json_values_replaced_deleted_or_added(data: st.DataObject, name: str) -> None:
    originals, paths = json_units(name)
    line = data.draw(st.integers(0, len(originals) - 1))
    values = list(originals)
    document = json.loads(json.dumps(originals[line]))  # a copy to change
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths[line]))
        replacement = data.draw(HOSTILE_VALUES)
        operation = data.draw(st.sampled_from(["replace", "delete", "add", "repeat"]))
        if not path:
            document = replacement
            continue
        try:
            parent, key = _at(document, path[:-1]), path[-1]
            if operation == "replace":
                parent[key] = replacement
            elif operation == "delete":
                del parent[key]
            elif isinstance(parent, dict):
                parent[f"{key}_" if operation == "repeat" else "extra"] = replacement
            else:
                parent.insert(key, parent[key] if operation == "repeat" else replacement)
        except (KeyError, IndexError, TypeError, AttributeError):
            continue  # an earlier change removed or replaced this path
    values[line] = document
    text = "\n".join(dumps(value) for value in values)
    check_reading(encode(text))


@fuzz_settings(100)
@given(
    st.sampled_from(JSON_DOCUMENT_NAMES),
    st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig", "shift_jis"]),
)
def test_other_encodings(name: str, encoding: str) -> None:
    _, data = seed_documents()[name]
    check_reading(data.decode().encode(encoding, "replace"))


# -- mjlog attributes -----------------------------------------------------------------------------

_ATTRIBUTE = re.compile(rb'([A-Za-z0-9]+)="([^"]*)"')
_XML_TAGS = _TAG.findall(HAND_WRITTEN_MJLOG)

#: Attribute values that are wrong in an mjlog: numbers out of range, lists too short or too
#: long, escapes that decode to nothing printable, markup.
HOSTILE_ATTRIBUTES = st.sampled_from(
    [
        "", "-1", "136", "9999999999999999999999", "1e5", "0x10", "1,2", "0,0,0,0,0,0,0,0,0,0",
        ",", ",,", "1,,2", " 1", "\uff11", "%00", "%FF", "%E3%81", "%", "&#0;", "&#xD800;", "&lt;",
        "&amp;", "&#x1F004;", "NaN", "inf", "-0", "65536", "65535", "3", "4", "5",
        "250,250,250", "250,250,250,250,250", "0,0,0,1,2,136",
    ]
) | st.integers(-(2**70), 2**70).map(str) | st.text(max_size=12)  # fmt: skip


@fuzz_settings(300)
@given(st.data())
def test_mjlog_attributes_replaced_or_removed(data: st.DataObject) -> None:
    tags = list(_XML_TAGS)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.sampled_from([i for i, tag in enumerate(tags) if b"=" in tag]))
        attributes = _ATTRIBUTE.findall(tags[at])
        key, value = data.draw(st.sampled_from(attributes))
        if data.draw(st.booleans()):
            new = data.draw(HOSTILE_ATTRIBUTES).replace('"', "&quot;").replace("<", "&lt;")
            replacement = key + b'="' + encode(new) + b'"'
        else:
            replacement = b""
        tags[at] = tags[at].replace(key + b'="' + value + b'"', replacement, 1)
    check_reading(b"".join(tags))


@fuzz_settings(150)
@given(st.data())
def test_mjlog_tags_renamed(data: st.DataObject) -> None:
    tags = list(_XML_TAGS)
    names = sorted({m.group(1) for m in re.finditer(rb"<([A-Za-z]+)", HAND_WRITTEN_MJLOG)})
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(1, len(tags) - 2))  # not the root element
        new = data.draw(st.sampled_from([*names, b"T136", b"D0", b"T007", b"Z1", b"N"]))
        tags[at] = re.sub(rb"^<([A-Za-z]+[0-9]*)", b"<" + new, tags[at], count=1)
    check_reading(b"".join(tags))


# -- what the fuzzers found, kept as plain tests --------------------------------------------------


def _refusal(data: bytes, format_name: str | None = None) -> str:
    with pytest.raises(MalformedLogError) as caught:
        read_games(data, format_name)
    return str(caught.value)


def test_a_deeply_nested_first_line_is_not_sniffed_as_mjai() -> None:
    # The mjai sniffer let json's RecursionError out of read_games.
    assert "not a game record" in _refusal(b'{"type":' + b"[" * 100_000 + b"]" * 100_000 + b"}")


def test_an_empty_tenhou6_array_holds_no_game() -> None:
    # It read as no game and no error: the service had nothing to report for the file.
    assert _refusal(b"[]", "tenhou6") == "an empty array holds no game"


@pytest.mark.parametrize("format_name", ["canonical", "tenhou6"])
def test_games_with_a_line_separator_in_a_name_read_back(format_name: str) -> None:
    # Written as JSON lines with the name as it is; read back split on U+2028 too.
    games = [_renamed(game, "a\u2028b") for game in simulate("tenhou-4p-east", 2, 5)]
    if format_name == "canonical":  # as `python -m engine simulate` writes them
        data = "".join(canonical.dumps(game) + "\n" for game in games).encode()
    else:
        data = tenhou6.write(games)
    read, _ = read_games(data, format_name)
    assert [game.header.players[0].name for game in read] == ["a\u2028b", "a\u2028b"]


def _renamed(game: Game, name: str) -> Game:
    players = (Player(name), *game.header.players[1:])
    return dataclasses.replace(game, header=dataclasses.replace(game.header, players=players))


def _tenhou6_with(**members: str) -> bytes:
    _, data = seed_documents()["tenhou6-4p"]
    text = data.decode().rstrip("\n")
    for key, literal in members.items():
        text = re.sub(rf'"{key}":\[[^\]]*\]', f'"{key}":{literal}', text, count=1)
    return text.encode()


@pytest.mark.parametrize(
    ("data", "format_name", "where"),
    [
        (HAND_WRITTEN_MJLOG.replace(b'rate="1500,', b'rate="1e999,'), "mjlog", "bad dan or rate"),
        (HAND_WRITTEN_MJLOG.replace(b'owari="223,-27.7', b'owari="223,inf'), "mjlog", "owari="),
        (_tenhou6_with(sc="[223,1e999,235,-6.5,265,16.5,277,17.7]"), "tenhou6", "sc["),
    ],
    ids=["mjlog-rate", "mjlog-owari", "tenhou6-result"],
)
def test_an_infinite_number_is_refused(data: bytes, format_name: str, where: str) -> None:
    # float() reads 1e999 and inf as infinity: canonical JSON could not hold the game.
    assert where in _refusal(data, format_name)


def test_an_infinite_rating_in_a_canonical_game_is_refused() -> None:
    document = json.loads(seed_documents()["canonical-4p"][1])
    document["players"][0]["rating"] = "@huge"
    data = json.dumps(document).replace('"@huge"', "1e999").encode()
    assert _refusal(data) == "players[0].rating: number out of range"


@pytest.mark.parametrize("escape", ["\\u0000", "\\ud800"], ids=["nul", "surrogate"])
@pytest.mark.parametrize("format_name", ["canonical", "mjai", "tenhou6"])
def test_a_name_no_database_can_store_is_refused(format_name: str, escape: str) -> None:
    # Only a \u escape makes these in JSON; the service stored the NUL on SQLite, and on
    # PostgreSQL (or with the surrogate anywhere) failed with a server error.
    game = _renamed(seed_games()["4p"], "NAME-TO-ESCAPE")
    write = get_format(format_name).write
    assert write is not None
    data = write([game]).replace(b"NAME-TO-ESCAPE", f"half {escape} a name".encode())
    message = _refusal(data, format_name)
    assert "U+0000" in message or "surrogate" in message
    assert "players[0]" in message or "names[0]" in message or "name[0]" in message


def test_a_nul_in_an_mjlog_name_is_refused() -> None:
    data = HAND_WRITTEN_MJLOG.replace(b'n1="B"', b'n1="B%00"')
    assert "the name of seat 1 holds U+0000 (NUL)" in _refusal(data, "mjlog")


def test_every_member_of_a_multi_member_gzip_file_is_read() -> None:
    # `cat a.jsonl.gz b.jsonl.gz`: only the first member was read, the rest dropped unsaid.
    games = list(simulate("tenhou-4p-east", 2, 7))
    write = get_format("mjai").write
    assert write is not None
    data = b"".join(gzipped(write([game])) for game in games)
    read, _ = read_games(data)
    assert read == [read_games(write([game]))[0][0] for game in games]
    assert "data after the end of the gzip stream" in _refusal(data + b"junk")


def test_a_dtd_is_refused_by_name_when_sniffing() -> None:
    # Sniffing took an mjlog with a DTD for no known format, hiding why it was refused.
    document = b'<!DOCTYPE mjloggm [<!ENTITY x "y">]>' + HAND_WRITTEN_MJLOG
    assert "XML DTDs and entities are not allowed in an mjlog" in _refusal(document)
