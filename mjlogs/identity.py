"""What makes two records one game: the identity hash (docs/security.md, "Which game is which").

A game is what was played: the rule set, the players' names, and each round's deal and moves.
Formats spell one game differently, and the identity leaves out every difference that is only
spelling, so that a Tenhou mjlog and its tenhou.net/6 or mjai conversion are one game:

- the order of the tiles in a dealt hand, of the tiles a call takes from the hand, and of a
  kan's tiles (mjlog lists them as dealt, tenhou.net/6 sorted);
- the figures a record states about a win, a draw or the end (``recorded``, ``recorded_deltas``,
  the final scores and points): some formats carry them and some do not, and the replay checks
  them against the rules anyway;
- when a new dora indicator is shown among the moves (the rules fix it; tenhou.net/6 cannot say
  it and its readers put it where the rule set does): the indicators are kept, in order;
- the wall beyond what the moves reveal: our own records and Tenhou's seed keep it, tenhou.net/6
  and mjai do not (every tile drawn and every dora shown is in the moves already);
- the options that only the game's date chose (Tenhou's rule history): a record read with and
  without its log id is one game;
- the source (its format, its log id, the lobby): a log id is the uploader's claim, not proof
  that two records are one game; two records claiming one log id with different play are two
  games.

Everything else is part of the game: a record with other names, another rule set or a move of
its own is another game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

import orjson

from engine.events import Discard, Draw
from engine.rules.tenhou import DATED_OPTIONS

#: Round fields that only some formats keep.
_NOT_PLAY = frozenset({"wall"})
#: Event fields listing tiles as a set: their order is the format's spelling.
_UNORDERED_TILE_FIELDS = ("consumed", "tiles")
#: The event types that have no field to leave out or sort (draws and discards, read off their
#: definitions, so that a field added to them later is handled like any other).
_AS_THEY_ARE = frozenset(
    kind.type
    for kind in (Draw, Discard)
    if not any(
        spec.name.startswith("recorded") or spec.name in _UNORDERED_TILE_FIELDS
        for spec in dataclasses.fields(kind)
    )
)


def identity_hash(document: dict[str, Any]) -> str:
    """SHA-256 (hex) of what a game's canonical document says was played (module docstring)."""
    return hashlib.sha256(identity_text(identity_content(document))).hexdigest()


def identity_content(document: dict[str, Any]) -> dict[str, Any]:
    """What of a game's canonical document makes its identity (module docstring)."""
    return {
        "ruleset": document["ruleset"],
        "rule_overrides": {
            option: value
            for option, value in document.get("rule_overrides", {}).items()
            if option not in DATED_OPTIONS
        },
        "players": [player["name"] for player in document["players"]],
        "rounds": [_round_identity(round_) for round_ in document["rounds"]],
    }


#: Where orjson and :func:`json.dumps` may write a float differently: in exponent form (a digit
#: then ``e``), and below 1e-4, which json writes in exponent form and orjson does not
#: (``0.00001`` against ``1e-05``). Text in names may match too: it then only costs the slower
#: writer. The digits are all read as ``0`` (and ``E`` as ``e``) so that two substring searches
#: find both: a regular expression over a game's 40 KB of text was a twentieth of an import.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789E", b"000000000e")


def _may_differ(text: bytes) -> bool:
    return b"0.0000" in text or b"0e" in text.translate(_DIGITS_AS_ZERO)


_ORJSON_OPTIONS = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def identity_text(content: Any) -> bytes:
    """``content`` as the identity's JSON text (UTF-8): keys sorted, no spaces, characters as
    they are; the bytes :func:`json.dumps` gives (``sort_keys=True, ensure_ascii=False,
    separators=(",", ":")``), which every stored hash was made with.

    orjson writes it ten times faster (it was a twentieth of an import's time); the two differ
    only where orjson refuses (integers beyond 64 bits, keys that are not text), on floats in
    exponent form or below 1e-4, and on NaN and the infinities (orjson writes ``null``): for
    those, and whenever the text holds a ``null`` or what may be such a float, json writes it
    (tests/mjlogs/test_identity.py holds the two equal)."""
    try:
        # Anything json.dumps would not write as it is (dates, dataclasses, subclasses of the
        # JSON types) is passed to json.dumps, which writes it or refuses it as ever.
        text = orjson.dumps(content, option=_ORJSON_OPTIONS)
    except TypeError:
        text = None
    if text is None or b"null" in text or _may_differ(text):
        text = json.dumps(
            content, sort_keys=True, ensure_ascii=False, separators=(",", ":")
        ).encode()
    return text


def _round_identity(round_: dict[str, Any]) -> dict[str, Any]:
    identity = {key: value for key, value in round_.items() if key not in _NOT_PLAY}
    if "hands" in identity:
        identity["hands"] = [sorted(hand) for hand in identity["hands"]]
    kept: list[dict[str, Any]] = []
    shown = []
    for event in round_.get("events", ()):
        kind = event.get("type")
        if kind in _AS_THEY_ARE:
            kept.append(event)  # nine events in ten: nothing to leave out or sort
        elif kind == "dora":
            shown.append(event.get("indicator"))
        else:
            kept.append(_event_identity(event))
    identity["events"] = kept
    identity["dora_shown"] = shown
    return identity


def _event_identity(event: dict[str, Any]) -> dict[str, Any]:
    identity = {key: value for key, value in event.items() if not key.startswith("recorded")}
    for key in _UNORDERED_TILE_FIELDS:
        if isinstance(identity.get(key), list):
            identity[key] = sorted(identity[key])
    return identity
