"""What the reader fuzzers share: valid documents of every format to start from, and the one
check every input must pass.

The check: each reader, asked by name, and :func:`engine.formats.read_games` sniffing (with and
without a file name), either refuses the bytes with one of the engine's reader errors or
returns games that the canonical writer writes as strict JSON and reads back equal (what the
service stores). Any other exception is a bug of the reader.

Used by ``tests/engine/formats/test_fuzz.py`` (hypothesis) and ``tests/fuzz_readers.py``
(atheris); not a test module itself.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections.abc import Callable
from functools import cache, partial

from engine.errors import MalformedLogError, UnsupportedLogError
from engine.events import Game
from engine.formats import canonical as canonical_format
from engine.formats import formats, get_format, read_games
from engine.sim.selfplay import simulate
from engine.variants.uzje.selfplay import simulate as simulate_uzje

#: What a reader may raise on bad input (engine.formats: "anything they cannot make sense of
#: raises MalformedLogError"; UnsupportedLogError for what the engine cannot hold yet).
READER_ERRORS = (MalformedLogError, UnsupportedLogError)

#: Self-played games chosen for what they hold: the 4-player one has chi, pon, open, closed and
#: added kans, kan dora, riichi and wins; the sanma one North extractions, kans and an
#: abortive draw.
FOUR_PLAYER = ("tenhou-4p-east", 6)
SANMA = ("tenhou-3p-east", 4)

#: Starting hands by tile id: seat 0 holds ids 0-12, seat 1 13-25, and so on.
_HANDS = tuple(",".join(map(str, range(13 * seat, 13 * seat + 13))) for seat in range(4))


def _init(seed: str, ten: str) -> str:
    hands = " ".join(f'hai{seat}="{_HANDS[seat]}"' for seat in range(4))
    return f'<INIT seed="{seed}" ten="{ten}" oya="{seed.split(",")[0]}" {hands}/>'


#: A small hand-written mjlog (there is no mjlog writer): a header with URL-encoded names,
#: ranks and ratings; a round with a tsumogiri, a chi, a riichi, a closed kan with its dora and
#: an exhaustive draw; a round with a pon, an added kan, a disconnect and a ron that ends the
#: game (owari). Only the reader's structure is right: the hands are not a real deal.
HAND_WRITTEN_MJLOG = (
    '<mjloggm ver="2.3"><SHUFFLE seed="mt19937ar-sha512-n288-base64,AAAA" ref=""/>'
    '<GO type="169" lobby="0"/>'
    '<UN n0="%41%6C%69" n1="B" n2="C" n3="D" dan="0,9,10,20" rate="1500,1600.5,1700,1800" '
    'sx="M,F,M,C"/><TAIKYOKU oya="0"/>'
    + _init("0,0,0,1,2,60", "250,250,250,250")
    + '<T52/><D52/><U53/><E25/><N who="2" m="18447"/><F36/>'
    '<W54/><REACH who="3" step="1"/><G54/><REACH who="3" ten="250,250,250,240" step="2"/>'
    '<T55/><N who="0" m="1024"/><DORA hai="70"/><T130/><D130/>'
    f'<RYUUKYOKU ba="0,1" sc="250,15,250,-15,250,15,240,-15" hai0="{_HANDS[0]}" '
    f'hai2="{_HANDS[2]}"/>'
    + _init("1,1,1,3,4,100", "265,235,265,225")
    + '<U56/><E56/><N who="2" m="21611"/><F12/><W60/><BYE who="2"/><G60/><T61/><D61/>'
    '<U62/><E62/><V59/><N who="2" m="21619"/><V63/><F63/>'
    '<AGARI ba="1,1" hai="39,40,41,42,43,44,45,46,47,48,49,50,51,63" machi="63" '
    'ten="30,3900,0" yaku="7,1,8,1,52,1" doraHai="100" doraHaiUra="101" who="3" fromWho="2" '
    'sc="265,0,235,0,265,-42,225,52" owari="223,-27.7,235,-6.5,265,16.5,277,17.7"/>'
    "</mjloggm>"
).encode()


@cache
def seed_games() -> dict[str, Game]:
    """The self-played games the documents are written from, by name."""
    (four,) = simulate(FOUR_PLAYER[0], 1, FOUR_PLAYER[1])
    (sanma,) = simulate(SANMA[0], 1, SANMA[1])
    (uzje,) = simulate_uzje(1, 3, "uzje-4p")
    # A whole Ùzje match is twenty-odd deals; two keep the document small and hold every kind
    # of its events that the reader must know.
    uzje = dataclasses.replace(uzje, rounds=uzje.rounds[:2])
    return {"4p": four, "3p": sanma, "uzje": uzje}


@cache
def seed_documents() -> dict[str, tuple[str, bytes]]:
    """Valid documents of every format: name -> (format name, bytes)."""
    games = seed_games()
    documents: dict[str, tuple[str, bytes]] = {"mjlog": ("mjlog", HAND_WRITTEN_MJLOG)}
    for format_name in ("canonical", "tenhou6", "mjai"):
        write = get_format(format_name).write
        assert write is not None
        for game_name in ("4p", "3p"):
            documents[f"{format_name}-{game_name}"] = (format_name, write([games[game_name]]))
    # Ùzje mahjong speaks its own canonical dialect (16 ranks, flowers, its own events).
    documents["canonical-uzje"] = ("canonical", canonical_format.write([games["uzje"]]))
    return documents


def gzipped(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


_LOG_ID_NAME = "2010081709gm-00a9-0000-fe3371ad.json"


def _readings(data: bytes) -> list[tuple[str, Callable[[], list[Game]]]]:
    """Every way the service and the command line read a file: each format by name, sniffed,
    and sniffed with a file name (formats that take something from the name)."""
    ways: list[tuple[str, Callable[[], list[Game]]]] = [
        (name, partial(_games, data, name)) for name in formats()
    ]
    ways.append(("sniffed", partial(_games, data, None)))
    ways.append(("sniffed, named", partial(_games, data, None, _LOG_ID_NAME)))
    return ways


def _games(data: bytes, format_name: str | None, file_name: str | None = None) -> list[Game]:
    return read_games(data, format_name, file_name=file_name)[0]


def check_reading(data: bytes) -> int:
    """Read the bytes every way; return how many readings were accepted.

    :raises AssertionError: an accepted game that is not storable (see the module docstring).
    Any exception other than :data:`READER_ERRORS` escapes: that is the bug to report.
    """
    accepted = 0
    for how, read in _readings(data):
        try:
            games = read()
        except READER_ERRORS as error:
            assert str(error), f"{how}: a reader error without a message"
            continue
        accepted += 1
        check_storable(games, how)
    return accepted


def check_storable(games: list[Game], how: str) -> None:
    """The games are what the service can store: canonical JSON that is strict JSON (no NaN,
    no infinity), UTF-8 text without U+0000 (PostgreSQL's text and jsonb refuse it) that reads
    back as the same games."""
    assert games, f"{how}: read no game and raised nothing"
    data = canonical_format.write(games)  # UnicodeEncodeError on a lone surrogate
    text = data.decode()
    assert "\\u0000" not in text, f"{how}: a string holds U+0000"
    documents = json.loads(text)
    json.dumps(documents, allow_nan=False)  # ValueError on NaN or infinity: not storable
    assert canonical_format.loads(text) == games, f"{how}: canonical round trip differs"
