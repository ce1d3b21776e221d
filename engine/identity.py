"""A game's play identity: what was played, the same whichever format recorded it.

Two records are *the same game* when they tell the same deal and the same actions: every round's
dealt hands, the dora indicators turned over, and every action event (draws, discards, calls,
kans, norths, riichi declarations, wins, draws of the hand). :func:`play_identity` hashes exactly
that, from a game's canonical document (:mod:`engine.formats.canonical`), and leaves out
everything else, so that a Tenhou mjlog, its tenhou.net/6 export (with its names hidden or not)
and an mjai conversion of either give the same identity:

- **names, ranks, ratings, the source** (its format, its log id, the lobby), the date, the rule
  set and its options: these are what a record *claims* about the game, not the game. A
  tenhou.net/6 export names the players ``Aさん`` to ``Dさん``; an mjai record does not say the
  rule set (its reader assumes Tenhou's);
- **recorded values**: a win's han, fu, yaku, points and score changes, a draw's tenpai seats and
  payments, the final scores, and the scores, honba and sticks at each round's start. Some
  formats carry them and some do not, and the replay checks them against the rules anyway;
- **where a kan's dora indicator is shown** among the moves (tenhou.net/6 cannot say it, and its
  reader puts it where Tenhou's rules do): the indicators are kept in the order they are shown;
- **the order of tiles** in a dealt hand, in a call's tiles from the hand and in a closed kan
  (mjlog lists them as dealt, tenhou.net/6 sorted);
- **which five is red**, in riichi games: a red five is read as a plain five (a format or a
  converter that loses the red flag, ``0m`` against ``5m``, still tells the same deal; the replay
  finds a red five that changes a hand's value);
- **tsumogiri flags** (mjlog works them out from tile ids, mjai converters from the tile kind,
  so a discard of the other copy of the tile just drawn reads either way), **riichi acceptance**
  (mjai and mjlog write it, tenhou.net/6 does not, and it follows from the next move), the seat
  named by an **abortive draw**, and **nagashi mangan** against an exhaustive draw (how the
  wall's end was paid, worked out from the discards): each follows from the rest;
- the order of the **wins of a multiple ron** (each format lists them its own way);
- **an empty seat** (Tenhou's sanma writes a fourth seat without tiles) and the wall beyond what
  the moves reveal (only self-play knows it).

A round-less record (no deal at all) has no play to tell it by: its identity is then the
header's claims (players, rule set, source), so that two such records are not one game.

The identity is a SHA-256 hex digest of the normalised content's JSON text
(:func:`play_content`, written by :func:`json_text`); its first member says which version of
these rules made it (:data:`PLAY_IDENTITY_VERSION`), so that a change of the rules changes every
identity.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from engine.dialect import RIICHI
from engine.families import family_of

#: Which rules of this module made an identity; part of what is hashed.
PLAY_IDENTITY_VERSION: Final = 1

#: Round end events that are not what was played but what followed from it, mapped to the one
#: event the identity keeps for them.
_ENDS_OF_THE_WALL: Final = frozenset({"exhaustive_draw", "nagashi_mangan"})
#: Event types the identity leaves out of the moves: the dora indicator shown (kept in order
#: apart, see the module docstring), riichi acceptance (it follows from the next move).
_NOT_MOVES: Final = frozenset({"dora", "riichi_accepted"})
#: Event members that are not the move: the discard's tsumogiri flag.
_NOT_MOVE_MEMBERS: Final = frozenset({"tsumogiri"})
#: Event members holding one tile, and holding tiles as a set (their order is the format's).
_TILE_MEMBERS: Final = frozenset({"tile", "indicator"})
_TILE_SET_MEMBERS: Final = frozenset({"consumed", "tiles"})
#: Red fives as plain fives (riichi's MPSZ notation).
_PLAIN_FIVES: Final = {"0m": "5m", "0p": "5p", "0s": "5s"}


def json_text(content: Any) -> bytes:
    """``content``'s JSON text as the identity hashes it (UTF-8, keys sorted, no spaces,
    characters as they are)."""
    return json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def play_identity(
    document: Mapping[str, Any], *, encode: Callable[[Any], bytes] = json_text
) -> str:
    """The play identity (SHA-256, hex) of a game's canonical document (module docstring).

    ``encode`` writes the content as text; any writer giving exactly :func:`json_text`'s bytes
    may stand in for it (a faster one: the service's, ``mjlogs.identity.identity_text``).

    :raises KeyError, TypeError: ``document`` is not a canonical game document.
    """
    return hashlib.sha256(play_text(document, encode=encode)).hexdigest()


def play_text(document: Mapping[str, Any], *, encode: Callable[[Any], bytes] = json_text) -> bytes:
    """``encode(play_content(document))``, the text the play identity hashes, written faster:
    a draw or a discard (nine events in ten) is not built as a mapping and written, its text
    is taken from :data:`_MOVE_TEXTS` (written once, by :func:`json_text`), and every other
    part is written by ``encode``. JSON's text of a mapping, keys sorted and no spaces, is its
    members' texts joined in order, so the whole is the same bytes
    (tests/engine/test_identity.py holds the two equal).

    :raises KeyError, TypeError: ``document`` is not a canonical game document.
    """
    rounds = document["rounds"]
    if not rounds:
        return encode(play_content(document))
    plain = _plain_of(document)
    texts = _MOVE_TEXTS[plain]
    parts = [b'{"play_identity":', encode(PLAY_IDENTITY_VERSION), b',"rounds":[']
    for number, round_ in enumerate(rounds):
        hands, indicators, moves = _round_parts(round_, plain, texts)
        parts += (
            b',{"hands":' if number else b'{"hands":',
            encode(hands),
            b',"indicators":',
            encode(indicators),
            b',"moves":[',
            b",".join(move if isinstance(move, bytes) else encode(move) for move in moves),
            b"]}",
        )
    parts.append(b"]}")
    return b"".join(parts)


def play_content(document: Mapping[str, Any]) -> dict[str, Any]:
    """What of a game's canonical document its play identity is made of (module docstring), as
    plain JSON values."""
    rounds = document["rounds"]
    content: dict[str, Any] = {"play_identity": PLAY_IDENTITY_VERSION}
    if not rounds:
        source = document.get("source") or {}
        content["claims"] = {
            "ruleset": document["ruleset"],
            "players": [player.get("name") for player in document["players"]],
            "source": {"format": source.get("format"), "id": source.get("id")},
        }
        return content
    plain = _plain_of(document)
    content["rounds"] = [
        dict(zip(("hands", "indicators", "moves"), _round_parts(round_, plain), strict=True))
        for round_ in rounds
    ]
    return content


def _plain_of(document: Mapping[str, Any]) -> Callable[[str], str]:
    """How the game's tiles are read for its identity: riichi's red fives as plain fives."""
    return _plain_tile if family_of(str(document["ruleset"])).dialect is RIICHI else _same_tile


def _same_tile(tile: str) -> str:
    return tile


def _plain_tile(tile: str) -> str:
    return _PLAIN_FIVES.get(tile, tile)


#: The text of each draw and discard met so far (:func:`play_text`), for each way of reading
#: tiles, by ``(type, seat, tile)``: a few hundred in any family (seats times tiles).
_MOVE_TEXTS: Final[dict[Callable[[str], str], dict[tuple[str, int, str], bytes]]] = {
    _same_tile: {},
    _plain_tile: {},
}
#: Texts kept for each way at most: a record of made-up tiles or seats is written the long
#: way past it, and does not fill the memory.
_MOVE_TEXTS_KEPT: Final = 4096


def _round_parts(
    round_: Mapping[str, Any],
    plain: Callable[[str], str],
    texts: dict[tuple[str, int, str], bytes] | None = None,
) -> tuple[list[list[str]], list[str], list[Any]]:
    """A round's play: its dealt hands (each sorted, the empty seats' left out), its dora
    indicators in the order shown, and its moves (:func:`_move`; each run of wins in seat
    order). Given ``texts`` (:data:`_MOVE_TEXTS`), a draw or a discard written the engine's way
    is given as its move's text instead of the move."""
    hands = [sorted(plain(tile) for tile in hand) for hand in round_.get("hands", ())]
    indicators = [plain(tile) for tile in round_.get("dora_indicators", ())]
    moves: list[Any] = []
    for event in round_.get("events", ()):
        kind = event.get("type")
        if kind == "draw" or kind == "discard":  # nine events in ten: _move's result, faster
            seat = event.get("seat")
            tile = event.get("tile")
            members = len(event)
            # A seat, a tile and a tsumogiri flag, and no other member: every member known.
            # (Exact types: as a key, True is 1 and 1.0 is 1; as JSON, they are not.)
            if (
                type(seat) is int
                and type(tile) is str
                and (members == 3 or (members == 4 and "tsumogiri" in event))
            ):
                if texts is None:
                    moves.append({"type": kind, "seat": seat, "tile": plain(tile)})
                else:
                    key = (kind, seat, tile)
                    moves.append(texts.get(key) or _move_text(texts, key, plain))
                continue
            moves.append(_move(event, plain))
        elif kind == "dora":
            indicators.append(plain(event["indicator"]))
        elif kind not in _NOT_MOVES:
            moves.append(_move(event, plain))
    return [hand for hand in hands if hand], indicators, _wins_in_seat_order(moves)


def _move_text(
    texts: dict[tuple[str, int, str], bytes],
    key: tuple[str, int, str],
    plain: Callable[[str], str],
) -> bytes:
    """The text of a draw or a discard (``key``: its type, seat and tile), kept in ``texts``
    while they number under :data:`_MOVE_TEXTS_KEPT`."""
    kind, seat, tile = key
    text = json_text({"type": kind, "seat": seat, "tile": plain(tile)})
    if len(texts) < _MOVE_TEXTS_KEPT:
        texts[key] = text
    return text


def plain_move_members(event: Mapping[str, Any]) -> bool:
    """Whether a draw or a discard has the members the engine writes and no other: a seat, a
    tile and (a discard) the tsumogiri flag, besides its type. Every member is then known, and
    a loop over them (of :func:`_move`, or of a record's claims) can be skipped."""
    members = len(event)
    return (members == 3 or (members == 4 and "tsumogiri" in event)) and (
        "seat" in event and "tile" in event
    )


def _move(event: Mapping[str, Any], plain: Callable[[str], str]) -> dict[str, Any]:
    kind = event.get("type")
    if kind in _ENDS_OF_THE_WALL:
        return {"type": "exhaustive_draw"}
    if kind == "abortive_draw":
        return {"type": kind, "kind": event.get("kind")}
    move: dict[str, Any] = {}
    for member, value in event.items():
        if member.startswith("recorded") or member in _NOT_MOVE_MEMBERS:
            continue
        if member in _TILE_MEMBERS and isinstance(value, str):
            value = plain(value)
        elif member in _TILE_SET_MEMBERS and isinstance(value, list):
            value = sorted(plain(tile) for tile in value)
        move[member] = value
    return move


def _wins_in_seat_order(moves: list[Any]) -> list[Any]:
    """The moves with each run of wins (a multiple ron) in seat order (a move given as its
    text is a draw or a discard)."""
    ordered: list[Any] = []
    run: list[dict[str, Any]] = []
    for move in moves:
        if isinstance(move, dict) and move.get("type") == "win":
            run.append(move)
            continue
        if run:
            ordered.extend(_by_seat(run))
            run = []
        ordered.append(move)
    ordered.extend(_by_seat(run))
    return ordered


def _by_seat(wins: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(wins, key=lambda win: int(win.get("seat", 0)))
