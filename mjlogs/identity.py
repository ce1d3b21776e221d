"""Which records are one game, and which record says what of it (docs/security.md, "Which game
is which").

Two identities, from a game's canonical document:

- the **play** (:func:`play_hash`, ``Game.play_hash``): what was played, the same for the game in
  any format, with any names (:mod:`engine.identity`). Records of one play are *copies* of one
  game, counted once (``mjlogs.copies``);
- the **record** (:func:`identity_hash`, ``Game.content_hash``): the play and everything the
  record claims about it (:func:`record_claims`). Two records with the same identity say the
  same thing; the service stores such a record once in each scope (the public games, each
  uploader's private games).

What a record claims is a flat mapping, one entry per claim: each seat's name (unless the seat is
anonymous: a guest, Tenhou's hidden names), rank and rating; the rule set with the options the
record states that change it (not those only its date chose: a record read with and without its
log id says the same; nor an option stated at the value its rule set has anyway, nor an empty
list of modifiers: :func:`stated_options`); the log id; the room; the date; the final scores and
results; each hand's starting scores, honba, sticks and ura indicators; and every figure a win or
a draw states (``recorded``, ``recorded_*``). A claim a record does not make is absent, never
"empty", so that :func:`compare_records` can tell a record that *adds* to another (real names
over hidden ones, final scores over none) from one that *contradicts* it (other final scores,
another date). Only claims about the game add; claims about each hand (what the replay works out
anyway) can only contradict.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import orjson

from engine.errors import EngineError
from engine.events import GameHeader, Source
from engine.identity import plain_move_members, play_identity
from engine.rules.presets import apply_overrides, as_preset, get_ruleset
from engine.rules.tenhou import DATED_OPTIONS
from mjlogs.models import PlayerKind
from mjlogs.provenance import platform_of, room_of, seat_kind

#: What each claim is called (the first part of its key), in the order pages list them.
CLAIM_LABELS = {
    "name": "names",
    "rank": "ranks",
    "rating": "ratings",
    "ruleset": "rule set",
    "log_id": "log id",
    "room": "room",
    "date": "date",
    "final": "final scores",
    "results": "final results",
    "round": "hands' starting scores",
    "ura": "ura indicators",
    "win": "wins",
    "draw": "draws",
}


def identities(document: Mapping[str, Any]) -> tuple[str, str]:
    """The game's play identity and its record's identity (SHA-256, hex): ``(play, record)``."""
    play = play_hash(document)
    return play, _record_hash(play, record_claims(document))


def play_hash(document: Mapping[str, Any]) -> str:
    """What was played (:func:`engine.identity.play_identity`), written by the fast writer."""
    return play_identity(document, encode=identity_text)


def identity_hash(document: Mapping[str, Any]) -> str:
    """The record's identity: its play and everything it claims (module docstring)."""
    return identities(document)[1]


def _record_hash(play: str, claims: Mapping[str, Any]) -> str:
    """The hash of ``identity_text({"claims": claims, "play": play})``, ``play`` being the
    play's hash (hex), written after the claims rather than with them: hex digits before an
    ``e`` look like a float's exponent to :func:`identity_text`'s check, which then wrote 96
    records in 100 by ``json.dumps``. Hex needs no escaping, and ``claims`` sorts first."""
    text = b'{"claims":' + identity_text(claims) + b',"play":"' + play.encode() + b'"}'
    return hashlib.sha256(text).hexdigest()


def record_claims(document: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the record claims about its game, one entry per claim, keyed
    ``kind/where/what`` (module docstring); plain JSON values."""
    source = document.get("source") or {}
    extra = source.get("extra") or {}
    source_format = str(source.get("format", ""))
    ruleset = str(document["ruleset"])
    # What the record claims, read as its source says it was written (a claim, not its origin).
    platform = platform_of(GameHeader(ruleset, {}, (), Source(source_format)), source_format)
    claims: dict[str, Any] = {
        "ruleset": [ruleset, stated_options(ruleset, document.get("rule_overrides") or {})]
    }
    for seat, player in enumerate(document["players"]):
        name = str(player.get("name", ""))
        if seat_kind(platform, name) != PlayerKind.ANONYMOUS:
            claims[f"name/{seat}"] = name
        for what in ("rank", "rating"):
            if player.get(what) is not None:
                claims[f"{what}/{seat}"] = player[what]
    if source.get("id") is not None:
        claims["log_id"] = source["id"]
    room = room_of(ruleset, source_format, {k: str(v) for k, v in extra.items()})
    if room:
        claims["room"] = room
    if document.get("started_at") is not None:
        claims["date"] = document["started_at"]
    final = document.get("final")
    if final is not None:
        claims["final"] = final["scores"]
        if final.get("results") is not None:
            claims["results"] = final["results"]
    for index, round_ in enumerate(document["rounds"]):
        claims[f"round/{index}"] = [round_.get("honba"), round_.get("sticks"), round_.get("scores")]
        if round_.get("ura_indicators"):
            claims[f"ura/{index}"] = round_["ura_indicators"]
        for event in round_.get("events", ()):
            kind = event.get("type")
            if (kind == "draw" or kind == "discard") and plain_move_members(event):
                continue  # nine events in ten, with no member a claim
            if kind == "win":
                for what, value in (event.get("recorded") or {}).items():
                    claims[f"win/{index}/{event.get('seat')}/{what}"] = value
                continue
            for member, value in event.items():
                if member.startswith("recorded_"):
                    claims[f"draw/{index}/{member.removeprefix('recorded_')}"] = value
    return claims


def stated_options(ruleset: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """What a record's ``rule_overrides`` claim about its rule set: the options that change it,
    each as the rules read it (``"TRUE"`` and ``true`` alike). Left out: the options only a
    game's date chose (:data:`~engine.rules.tenhou.DATED_OPTIONS`), an option at the value the
    rule set has anyway (``red_fives`` where the preset has them, ``modifiers: []``), and seat
    powers no seat chose. Options of a rule set the riichi presets do not know (another game
    family's), or that the rules cannot read, are claimed as written (the verification says
    why they are not played)."""
    options = {option: value for option, value in overrides.items() if option not in DATED_OPTIONS}
    if not options:
        return options
    try:
        base = get_ruleset(ruleset)
        _, changed = as_preset(apply_overrides(base, options), base)
    except EngineError:
        return options
    # Seat powers of which no seat chose one are none (``Ruleset.for_seat``).
    powers = changed.get("seat_powers", ())
    if isinstance(powers, list | tuple) and not any(powers):
        changed.pop("seat_powers", None)
    return changed


@dataclass(frozen=True)
class Comparison:
    """How one record of a game stands to another record of it: the claims (by their labels,
    :data:`CLAIM_LABELS`) it makes that the other does not, and those both make differently."""

    adds: frozenset[str]
    conflicts: frozenset[str]

    @property
    def covered(self) -> bool:
        """Whether the other record says all this one says: this one adds nothing to it."""
        return not self.adds and not self.conflicts


#: Claims about each hand (its starting scores, ura indicators, the figures of its wins and
#: draws): what the replay works out from the moves anyway. A record that states more of them
#: is not the richer for it (formats differ in which they state: mjlog a win's hand, tenhou.net/6
#: none), but one that states them otherwise says something else.
_PER_HAND: Final = frozenset({"round", "ura", "win", "draw"})


def compare_records(record: Mapping[str, Any], other: Mapping[str, Any]) -> Comparison:
    """How ``record`` stands to ``other`` (two canonical documents of one play): what it adds
    (claims about the game ``other`` does not make; never claims about each hand, see
    :data:`_PER_HAND`) and what it claims otherwise."""
    mine, theirs = record_claims(record), record_claims(other)
    adds = {
        _label(key) for key in mine.keys() - theirs.keys() if key.partition("/")[0] not in _PER_HAND
    }
    conflicts = {_label(key) for key in mine.keys() & theirs.keys() if mine[key] != theirs[key]}
    return Comparison(frozenset(adds), frozenset(conflicts))


def claims_stated(document: Mapping[str, Any]) -> int:
    """How many claims about the game the record makes (not about each hand): of two copies,
    the richer makes more."""
    return sum(key.partition("/")[0] not in _PER_HAND for key in record_claims(document))


def _label(key: str) -> str:
    return CLAIM_LABELS[key.partition("/")[0]]


def ordered_labels(labels: frozenset[str] | set[str]) -> list[str]:
    """Claim labels in the order pages list them."""
    order = list(CLAIM_LABELS.values())
    return sorted(labels, key=order.index)


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
