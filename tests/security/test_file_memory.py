"""Files are counted before they are parsed, and a record is not kept for its padding (issue 40,
items 9 and 12).

Item 9: a file was parsed whole before any limit was checked: a 30 MB mjlog of three million
tags took 670 MB in the web worker (its tags kept as Python objects), a 30 MB JSON file 1.3 GB,
before the game's own limits refused it or (unknown tags being skipped) stored it. Now the service
counts a file's XML tags or JSON values on its bytes before parsing it
(``engine.formats.check_items``, ``MAX_RECORD_ITEMS``) and refuses a file of more, naming both
numbers; the engine's own command line reads any file.

Item 12: junk around a game was kept byte for byte with it (21 MB kept for a 21 KB game). Now a
file of more than ``PADDING_FLOOR`` bytes that is more than ``PADDING_RATIO`` times its games'
canonical records is refused as mostly padding (``mjlogs.reading``); the real mjai logs that carry
a bot's notes on every move (20 times their record) still go in.
"""

from __future__ import annotations

import json
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from engine.formats import MAX_RECORD_ITEMS, read_games
from mjlogs.models import Game
from mjlogs.reading import PADDING_FLOOR, ReadFailure, read_file
from tests.api.conftest import client_for

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
PAIR = "2019103023gm-00a9-0000-f90e0fe9"
MJLOG = (REAL / "mjlog_xml" / "tsubakisakura__mjlog2json" / f"{PAIR}.xml").read_bytes()
TENHOU6 = (REAL / "tenhou6_json" / "tsubakisakura__mjlog2json" / f"{PAIR}.json").read_bytes()
END = b"</mjloggm>"
#: mjai logs whose every move carries the bot's notes.
MANUE = REAL / "mjai_jsonl" / "Apricot-S__mjai-manue-go"


def mjlog_with(padding: bytes) -> bytes:
    """The real mjlog with ``padding`` before its closing tag."""
    body = MJLOG.rstrip()
    assert body.endswith(END)
    return body[: -len(END)] + padding + END


def tenhou6_with(junk: Any) -> bytes:
    """The real tenhou.net/6 record with a member no reader knows, holding ``junk``."""
    record = json.loads(TENHOU6)
    record["junk"] = junk
    return json.dumps(record, separators=(",", ":")).encode()


def peak_reading(name: str, data: bytes) -> tuple[object, int]:
    """What reading the file for storing gives, and the most memory it held at once (bytes)."""
    tracemalloc.start()
    try:
        read = read_file(name, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return read, peak


OVER = MAX_RECORD_ITEMS + 10_000


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("tags.xml", mjlog_with(b'<X a="1"/>' * OVER)),
        ("values.json", tenhou6_with(["ab"] * OVER)),
        ("lines.mjson", (MANUE / "2026-06-19-030401.mjson").read_bytes() + b"{}\n" * OVER),
    ],
    ids=["xml-tags", "json-values", "json-lines"],
)
def test_a_file_of_too_many_items_is_refused_before_it_is_parsed(name: str, data: bytes) -> None:
    read, peak = peak_reading(name, data)
    assert isinstance(read, ReadFailure), read
    assert f"at most {MAX_RECORD_ITEMS:,} are read in one file" in read.error
    counted = re.search(r"holds (?:about )?([0-9,]+)", read.error)
    assert counted is not None, read.error
    assert int(counted.group(1).replace(",", "")) >= OVER, read.error
    # Counted, not parsed (parsing held 40 times the file): what the format's sniffing reads of
    # the file's head at most.
    assert peak < 2 * 1024 * 1024, f"{peak:,} bytes held for a {len(data):,}-byte file"


def test_the_engine_itself_reads_a_file_of_any_size() -> None:
    """The limit is the service's: ``python -m engine verify`` reads what its user gives it."""
    games, fmt = read_games(tenhou6_with(["ab"] * OVER))
    assert (len(games), fmt.name) == (1, "tenhou6")


def test_a_file_within_the_limit_is_read() -> None:
    data = tenhou6_with([1] * (MAX_RECORD_ITEMS - 10_000))
    assert len(data) <= PADDING_FLOOR  # (nor refused as padding)
    read = read_file("within.json", data)
    assert not isinstance(read, ReadFailure), read.error


@pytest.mark.parametrize(
    "data",
    [
        mjlog_with(b"<!--" + b"x" * (21 * 1024 * 1024) + b"-->"),
        mjlog_with(b'<X junk="' + b"x" * (4 * 1024 * 1024) + b'"/>'),
        tenhou6_with("x" * (4 * 1024 * 1024)),
    ],
    ids=["mjlog-comment", "mjlog-attribute", "tenhou6-member"],
)
@pytest.mark.django_db(transaction=True)
def test_a_file_mostly_padding_is_refused_and_the_rest_goes_in(alice: User, data: bytes) -> None:
    files = [
        SimpleUploadedFile("padded.json", data, "application/octet-stream"),
        SimpleUploadedFile(f"{PAIR}.xml", MJLOG, "application/xml"),
    ]
    response = client_for(alice).post("/api/uploads/", {"files": files})
    assert response.status_code == 201, response.content
    refused, stored = response.json()["outcomes"]
    assert refused["status"] == "failed", refused
    assert "mostly bytes that are no part of any game" in refused["error"], refused
    assert f"{len(data):,} bytes" in refused["error"], refused
    assert stored["status"] == "imported", stored
    assert list(Game.objects.values_list("raw_size", flat=True)) == [len(MJLOG)]


def test_a_small_file_is_never_refused_as_padding() -> None:
    """Below ``PADDING_FLOOR`` a file is kept whatever its padding: a short game's record with
    a long comment is no threat to the database."""
    data = mjlog_with(b"<!--" + b"x" * (PADDING_FLOOR - len(MJLOG) - 100) + b"-->")
    assert len(data) <= PADDING_FLOOR
    read = read_file("commented.xml", data)
    assert not isinstance(read, ReadFailure), read.error


def test_real_logs_with_a_bots_notes_go_in() -> None:
    """mjai-manue-go's logs carry the bot's notes on every move: 16 to 20 times their record,
    some over the floor; none is refused as padding."""
    files = sorted(MANUE.glob("*.mjson"))
    assert any(path.stat().st_size > PADDING_FLOOR for path in files), "the test tries nothing"
    for path in files:
        read = read_file(path.name, path.read_bytes())
        assert not isinstance(read, ReadFailure), (path.name, read.error)
