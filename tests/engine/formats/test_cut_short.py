"""A record that stops before its end (a download or a copy cut short) says so, in every
format, with the size where it stops; a record broken in its middle keeps the parser's words."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from engine.errors import MalformedLogError
from engine.formats import canonical, mjai, read_games, tenhou6
from engine.sim.selfplay import simulate

GAME = next(iter(simulate("tenhou-4p-east", 1, 4242)))
CORPUS_MJLOG = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "mjlog_xml"


def records() -> dict[str, bytes]:
    found = {
        "tenhou6": tenhou6.write([GAME]),
        "mjai": mjai.write([GAME]),
        "canonical": canonical.write([GAME]),
    }
    mjlogs = sorted(CORPUS_MJLOG.rglob("*.mjlog")) if CORPUS_MJLOG.is_dir() else []
    if mjlogs:
        found["mjlog"] = mjlogs[0].read_bytes()
    return found


@pytest.mark.parametrize("fraction", [0.3, 0.75, 0.999])
@pytest.mark.parametrize("name", sorted(records()))
def test_a_record_cut_short_says_so(name: str, fraction: float) -> None:
    data = records()[name]
    # Cut between characters (names may be Japanese): a cut inside one is a UTF-8 error.
    cut = data[: int(len(data) * fraction)].decode("utf-8", "ignore").rstrip("\n").encode()
    with pytest.raises(MalformedLogError) as caught:
        read_games(cut)
    message = str(caught.value)
    assert "the file ends in the middle of the" in message and "was it cut short?" in message
    # Where it stops: in bytes (XML) or characters (JSON).
    assert f"{len(cut):,} bytes" in message or f"{len(cut.decode()):,} characters" in message


@pytest.mark.parametrize("name", sorted(records()))
def test_a_record_cut_short_and_gzipped_says_so(name: str) -> None:
    data = records()[name]
    with pytest.raises(MalformedLogError, match="the file ends in the middle of the"):
        read_games(gzip.compress(data[: len(data) // 2].decode("utf-8", "ignore").encode()))


def test_a_record_broken_in_its_middle_is_not_called_cut_short() -> None:
    data = tenhou6.write([GAME])
    inside = data.index(b'"log":[') + 7  # between two values, far from the end
    broken = data[:inside] + b"@" + data[inside:]
    with pytest.raises(MalformedLogError) as caught:
        read_games(broken)
    assert "cut short" not in str(caught.value) and "not valid JSON" in str(caught.value)
    xml = records().get("mjlog")
    if xml is not None:
        with pytest.raises(MalformedLogError) as caught:
            read_games(xml.replace(b"<INIT", b"<INIT <", 1))
        assert "cut short" not in str(caught.value) and "not well-formed XML" in str(caught.value)
