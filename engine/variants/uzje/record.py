"""Ùzje games in the canonical JSON shape (``docs/format.md``), tiles in UJMJ notation.

The document is the canonical one member for member (``format``, ``version``, ``ruleset``,
``rule_overrides``, ``players``, ``source``, ``started_at``, ``rounds``, ``final``); what differs:

- tiles are UJMJ strings (``"1t"``, ``"fs"``, ``"Z"``, ``"E"``, ``"h"``), one per array entry;
- ``ruleset`` is an Ùzje preset (``uzje-4p`` ...) and ``rule_overrides`` holds
  :class:`~engine.variants.uzje.rules.UzjeRules` options;
- a round's ``hands`` give the dealer 14 tiles; ``dora_indicators`` holds the first bonus tile;
  a ``wall`` has the whole live wall in ``live`` (front to back: replacements are drawn from its
  end), an empty ``replacements``, and the dead wall in reveal order in ``dora_indicators``;
- the events are :data:`~engine.variants.uzje.events.UZJE_EVENT_TYPES`: the shared ``draw``,
  ``discard``, ``pon`` (a trip), ``open_kan``, ``closed_kan``, ``added_kan``, ``win``,
  ``exhaustive_draw``, ``score_change``, and Ùzje's ``flower``, ``chow`` and ``bonus``;
- a win's ``recorded`` gives ``han`` as the fan in tenths (``36`` is 3.6 f; left out for a
  limit-hand pattern), ``yaku`` as ``[pattern, tenths]`` (``[pattern, limits]`` for limit-hand
  patterns), ``limit`` as ``"<n>l"`` when the hand is worth limits, ``points``, ``deltas`` and
  ``hand``.

The lead's canonical reader and writer call :func:`game_from_json` and :func:`game_to_json` when
the ``ruleset`` names an Ùzje preset (:func:`~engine.variants.uzje.rules.is_uzje_preset`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar, cast

from engine.errors import EngineError, MalformedLogError
from engine.events import (
    FORMAT_VERSION,
    Event,
    FinalResult,
    Game,
    GameHeader,
    Player,
    RecordedWin,
    Round,
    Source,
    Wall,
)
from engine.tiles import Tile
from engine.variants.uzje.events import UZJE_EVENT_TYPES, UzjeEvent
from engine.variants.uzje.rules import is_uzje_preset
from engine.variants.uzje.tiles import format_tiles, parse_tile

FORMAT_MARK = "mjlogs-canonical"

T = TypeVar("T")


# -- writing --------------------------------------------------------------------------------------


def _tiles(tiles: Sequence[Tile]) -> list[str]:
    return [format_tiles([value]) for value in tiles]


def _event_to_json(event: UzjeEvent) -> dict[str, Any]:
    out: dict[str, Any] = {"type": event.type}
    for spec in dataclasses.fields(event):
        value = getattr(event, spec.name)
        if value is None:
            continue
        if isinstance(value, Tile):
            value = format_tiles([value])
        elif isinstance(value, RecordedWin):
            value = _recorded_to_json(value)
        elif isinstance(value, tuple):
            value = [format_tiles([item]) if isinstance(item, Tile) else item for item in value]
        out[spec.name] = value
    return out


def _recorded_to_json(recorded: RecordedWin) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in dataclasses.fields(recorded):
        value = getattr(recorded, spec.name)
        if value is None:
            continue
        if spec.name == "yaku":
            value = [[name, amount] for name, amount in value]
        elif spec.name == "hand":
            value = _tiles(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[spec.name] = value
    return out


def _round_to_json(round_: Round) -> dict[str, Any]:
    out: dict[str, Any] = {
        "wind": round_.wind,
        "number": round_.number,
        "dealer": round_.dealer,
        "honba": round_.honba,
        "sticks": round_.sticks,
        "scores": list(round_.scores),
        "hands": [_tiles(hand) for hand in round_.hands],
        "dora_indicators": _tiles(round_.dora_indicators),
    }
    if round_.ura_indicators:
        out["ura_indicators"] = _tiles(round_.ura_indicators)
    if round_.wall is not None:
        out["wall"] = {
            "live": _tiles(round_.wall.live),
            "replacements": _tiles(round_.wall.replacements),
            "dora_indicators": _tiles(round_.wall.dora_indicators),
            "ura_indicators": _tiles(round_.wall.ura_indicators),
        }
    events = cast(tuple[UzjeEvent, ...], round_.events)
    out["events"] = [_event_to_json(event) for event in events]
    return out


def game_to_json(game: Game) -> dict[str, Any]:
    """The JSON object of an Ùzje game (plain dicts and lists, ready for ``json.dumps``)."""
    header = game.header
    players: list[dict[str, Any]] = []
    for player in header.players:
        entry: dict[str, Any] = {"name": player.name}
        if player.rank is not None:
            entry["rank"] = player.rank
        if player.rating is not None:
            entry["rating"] = player.rating
        players.append(entry)
    source: dict[str, Any] = {"format": header.source.format}
    if header.source.id is not None:
        source["id"] = header.source.id
    if header.source.extra:
        source["extra"] = dict(header.source.extra)
    final: dict[str, Any] | None = None
    if game.recorded_final is not None:
        final = {"scores": list(game.recorded_final.scores)}
        if game.recorded_final.results is not None:
            final["results"] = list(game.recorded_final.results)
    return {
        "format": FORMAT_MARK,
        "version": FORMAT_VERSION,
        "ruleset": header.ruleset,
        "rule_overrides": dict(header.rule_overrides),
        "players": players,
        "source": source,
        "started_at": header.started_at,
        "rounds": [_round_to_json(round_) for round_ in game.rounds],
        "final": final,
    }


def dumps(game: Game, *, indent: int | None = None) -> str:
    return json.dumps(game_to_json(game), ensure_ascii=False, indent=indent)


# -- reading --------------------------------------------------------------------------------------


class _Reader:
    """Typed access to a JSON object that names the path of the first bad value."""

    def __init__(self, obj: object, path: str, members: Collection[str] | None = None) -> None:
        if not isinstance(obj, dict):
            raise MalformedLogError(f"expected an object, got {_kind(obj)}", path or None)
        self.obj: dict[str, Any] = obj
        self.path = path
        if members is not None:
            unknown = sorted(set(obj) - set(members))
            if unknown:
                raise MalformedLogError(
                    f"unknown member(s) {', '.join(map(repr, unknown))}; known: "
                    f"{', '.join(members)}",
                    path or None,
                )

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, check: Callable[[Any, str], T]) -> T:
        if self.obj.get(key) is None:
            raise MalformedLogError("missing", self.at(key))
        return check(self.obj[key], self.at(key))

    def optional(self, key: str, check: Callable[[Any, str], T]) -> T | None:
        if self.obj.get(key) is None:
            return None
        return check(self.obj[key], self.at(key))


def _kind(value: object) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, int | float) else "null"
    )


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedLogError(f"expected an integer, got {_kind(value)}", path)
    return value


def _number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise MalformedLogError(f"expected a number, got {_kind(value)}", path)
    return float(value)


def _str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise MalformedLogError(f"expected a string, got {_kind(value)}", path)
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise MalformedLogError(f"expected true or false, got {_kind(value)}", path)
    return value


def _seat(value: Any, path: str) -> int:
    seat = _int(value, path)
    if not 0 <= seat <= 5:
        raise MalformedLogError(f"a seat is 0-5, got {seat}", path)
    return seat


def _tile(value: Any, path: str) -> Tile:
    try:
        return parse_tile(_str(value, path))
    except EngineError as error:
        if isinstance(error, MalformedLogError):
            raise
        raise MalformedLogError(str(error), path) from None


def _list(item: Callable[[Any, str], T]) -> Callable[[Any, str], tuple[T, ...]]:
    def check(value: Any, path: str) -> tuple[T, ...]:
        if not isinstance(value, list):
            raise MalformedLogError(f"expected an array, got {_kind(value)}", path)
        return tuple(item(entry, f"{path}[{index}]") for index, entry in enumerate(value))

    return check


_tiles_of = _list(_tile)
_ints = _list(_int)


def _pattern(value: Any, path: str) -> tuple[str, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise MalformedLogError("expected [pattern, value]", path)
    return _str(value[0], f"{path}[0]"), _int(value[1], f"{path}[1]")


def _members(cls: type) -> tuple[str, ...]:
    return tuple(spec.name for spec in dataclasses.fields(cls))


def _recorded(value: Any, path: str) -> RecordedWin:
    r = _Reader(value, path, _members(RecordedWin))
    return RecordedWin(
        han=r.optional("han", _int),
        fu=r.optional("fu", _int),
        yaku=r.optional("yaku", _list(_pattern)),
        points=r.optional("points", _int),
        limit=r.optional("limit", _str),
        deltas=r.optional("deltas", _ints),
        liable=r.optional("liable", _seat),
        hand=r.optional("hand", _tiles_of),
    )


_FIELD_READERS: dict[str, Callable[[Any, str], Any]] = {
    "seat": _seat,
    "from_seat": _seat,
    "tile": _tile,
    "consumed": _tiles_of,
    "tiles": _tiles_of,
    "tsumogiri": _bool,
    "recorded": _recorded,
    "recorded_tenpai": _list(_seat),
    "recorded_deltas": _ints,
    "deltas": _ints,
    "reason": _str,
}


def _event(value: Any, path: str) -> UzjeEvent:
    r = _Reader(value, path)
    name = r.get("type", _str)
    cls = UZJE_EVENT_TYPES.get(name)
    if cls is None:
        raise MalformedLogError(
            f"unknown Ùzje event type {name!r}; known: {', '.join(UZJE_EVENT_TYPES)}",
            r.at("type"),
        )
    fields = {spec.name: spec for spec in dataclasses.fields(cls)}
    _Reader(value, path, ["type", *fields])
    kwargs: dict[str, Any] = {}
    for field_name, spec in fields.items():
        required = (
            spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING
        )
        if required:
            kwargs[field_name] = r.get(field_name, _FIELD_READERS[field_name])
        elif field_name in r.obj:
            if r.obj[field_name] is None and spec.default is not None:
                raise MalformedLogError(f"{field_name} cannot be null", r.at(field_name))
            kwargs[field_name] = r.optional(field_name, _FIELD_READERS[field_name])
    return cls(**kwargs)


def _wall(value: Any, path: str) -> Wall:
    r = _Reader(value, path, _members(Wall))
    return Wall(
        live=r.get("live", _tiles_of),
        replacements=r.get("replacements", _tiles_of),
        dora_indicators=r.get("dora_indicators", _tiles_of),
        ura_indicators=r.get("ura_indicators", _tiles_of),
    )


def _round(value: Any, path: str) -> Round:
    r = _Reader(value, path, _members(Round))
    wind = r.get("wind", _int)
    number = r.get("number", _int)
    if not 0 <= wind <= 3:
        raise MalformedLogError(f"a set wind is 0-3 (E, S, W, N), got {wind}", r.at("wind"))
    if not 1 <= number <= 6:
        raise MalformedLogError(f"a game number is 1-6, got {number}", r.at("number"))
    events = r.get("events", _list(_event))
    return Round(
        wind=wind,
        number=number,
        dealer=r.get("dealer", _seat),
        honba=r.get("honba", _int),
        sticks=r.get("sticks", _int),
        scores=r.get("scores", _ints),
        hands=r.get("hands", _list(_tiles_of)),
        dora_indicators=r.get("dora_indicators", _tiles_of),
        # An Ùzje round holds Ùzje events (engine.events.Event does not list three of them).
        events=cast(tuple[Event, ...], events),
        ura_indicators=r.optional("ura_indicators", _tiles_of) or (),
        wall=r.optional("wall", _wall),
    )


def _player(value: Any, path: str) -> Player:
    r = _Reader(value, path, _members(Player))
    return Player(
        name=r.get("name", _str),
        rank=r.optional("rank", _str),
        rating=r.optional("rating", _number),
    )


def _source(value: Any, path: str) -> Source:
    r = _Reader(value, path, _members(Source))
    extra = r.optional("extra", lambda v, p: _Reader(v, p).obj) or {}
    return Source(
        format=r.get("format", _str),
        id=r.optional("id", _str),
        extra={str(key): _str(item, f"{path}.extra.{key}") for key, item in extra.items()},
    )


_GAME_MEMBERS = (
    *("format", "version", "ruleset", "rule_overrides", "players", "source", "started_at"),
    *("rounds", "final"),
)


def game_from_json(obj: object, path: str = "") -> Game:
    """An Ùzje game from its JSON object.

    :raises MalformedLogError: a missing or bad value, naming its path.
    """
    r = _Reader(obj, path, _GAME_MEMBERS)
    if r.optional("format", _str) not in (None, FORMAT_MARK):
        raise MalformedLogError(f"format must be {FORMAT_MARK!r}", r.at("format"))
    version = r.get("version", _int)
    if not 1 <= version <= FORMAT_VERSION:
        raise MalformedLogError(
            f"canonical format version {version} is not supported (1 to {FORMAT_VERSION})",
            r.at("version"),
        )
    ruleset = r.get("ruleset", _str)
    if not is_uzje_preset(ruleset):
        raise MalformedLogError(f"{ruleset!r} is not an Ùzje rule set", r.at("ruleset"))
    overrides = r.optional("rule_overrides", lambda v, p: _Reader(v, p).obj) or {}
    players = r.get("players", _list(_player))
    if not 3 <= len(players) <= 6:
        raise MalformedLogError(f"Ùzje has 3-6 players, got {len(players)}", r.at("players"))
    final = r.optional("final", lambda v, p: _Reader(v, p, _members(FinalResult)))
    recorded_final = None
    if final is not None:
        recorded_final = FinalResult(
            scores=final.get("scores", _ints), results=final.optional("results", _list(_number))
        )
    header = GameHeader(
        ruleset=ruleset,
        rule_overrides=dict(overrides),
        players=players,
        source=r.get("source", _source),
        started_at=r.optional("started_at", _str),
    )
    return Game(header, r.get("rounds", _list(_round)), recorded_final)


def loads(text: str | bytes) -> Game:
    """One Ùzje game from JSON text."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise MalformedLogError(f"not UTF-8 text ({error})") from None
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as error:
        raise MalformedLogError(f"not valid JSON ({error})") from None
    return game_from_json(obj)
