"""The canonical JSON form of :mod:`engine.events` (``"format": "mjlogs-canonical"``).

One file holds one game (a JSON object) or several (a JSON array of them). Every object carries
``"version"``; this module writes :data:`~engine.events.FORMAT_VERSION` and reads every version
up to it. ``docs/format.md`` describes each field and ``engine/schema/game.schema.json`` is the
JSON Schema. Decoding checks types and ranges and names the path of the first bad value
(``rounds[2].events[14].tile``), so a hand-edited file gets a useful message.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from enum import Enum
from typing import Any, TypeVar, cast

from engine.dialect import RIICHI, Dialect, PointsOrHalf
from engine.errors import EngineError, MalformedLogError
from engine.events import (
    FORMAT_VERSION,
    AbortKind,
    Discard,
    Draw,
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
from engine.families import family_of
from engine.formats.base import (
    Format,
    check_strings,
    cut_short,
    cut_short_message,
    json_loads,
)
from engine.tiles import Tile

#: The value of the ``format`` member that marks a canonical document.
FORMAT_MARK = "mjlogs-canonical"

T = TypeVar("T")


# -- dialects -------------------------------------------------------------------------------------


#: The dialect of the document being read or written (set by :func:`_speaking`).
_DIALECT: ContextVar[Dialect] = ContextVar("canonical_dialect", default=RIICHI)


def dialect_of(ruleset: str) -> Dialect:
    """The dialect of games under the rule set (preset) of this name: its family's
    (:func:`engine.families.family_of`)."""
    return family_of(ruleset).dialect


@contextmanager
def _speaking(dialect: Dialect) -> Iterator[None]:
    token = _DIALECT.set(dialect)
    try:
        yield
    finally:
        _DIALECT.reset(token)


# -- encoding -------------------------------------------------------------------------------------


def _tiles(tiles: Sequence[Tile]) -> list[str]:
    format_tile = _DIALECT.get().format_tile
    return [format_tile(tile) for tile in tiles]


#: Each dataclass's field names (:func:`_field_names`).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, looked up once per class (``dataclasses.fields`` builds a
    tuple on every call: it was a fifth of the encoding time of an import)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(spec.name for spec in dataclasses.fields(cls))
    return names


def _event_to_json(
    event: Event, format_tile: Callable[[Tile], str] | None = None
) -> dict[str, Any]:
    if format_tile is None:
        format_tile = _DIALECT.get().format_tile
    # Nine events in ten are draws and discards: written directly, as the general loop below
    # writes them (tests/engine/formats/test_canonical_writer.py holds the two equal).
    if type(event) is Draw:
        return {"type": "draw", "seat": event.seat, "tile": format_tile(event.tile)}
    if type(event) is Discard:
        tile = format_tile(event.tile)
        return {"type": "discard", "seat": event.seat, "tile": tile, "tsumogiri": event.tsumogiri}
    return _fields_to_json(event, format_tile)


def _fields_to_json(event: Event, format_tile: Callable[[Tile], str]) -> dict[str, Any]:
    """Any event, field by field (a field left ``None`` is left out)."""
    out: dict[str, Any] = {"type": event.type}
    for name in _field_names(type(event)):
        value = getattr(event, name)
        if value is None:
            continue
        if isinstance(value, Tile):
            value = format_tile(value)
        elif isinstance(value, RecordedWin):
            value = _recorded_win_to_json(value)
        elif isinstance(value, Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = [format_tile(item) if isinstance(item, Tile) else item for item in value]
        out[name] = value
    return out


def _recorded_win_to_json(recorded: RecordedWin) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in _field_names(type(recorded)):
        value = getattr(recorded, name)
        if value is None:
            continue
        if name == "yaku":
            value = [[yaku, han] for yaku, han in value]
        elif name == "hand":
            value = _tiles(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
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
    format_tile = _DIALECT.get().format_tile
    out["events"] = [_event_to_json(event, format_tile) for event in round_.events]
    return out


def game_to_json(game: Game) -> dict[str, Any]:
    """The canonical JSON object of a game (plain dicts and lists, ready for ``json.dumps``)."""
    with _speaking(dialect_of(game.header.ruleset)):
        return _game_to_json(game)


def _game_to_json(game: Game) -> dict[str, Any]:
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
    out: dict[str, Any] = {
        "format": FORMAT_MARK,
        "version": FORMAT_VERSION,
        "ruleset": header.ruleset,
        "rule_overrides": dict(header.rule_overrides),
        "players": players,
        "source": source,
        "started_at": header.started_at,
        "rounds": [_round_to_json(round_) for round_ in game.rounds],
        "final": None,
    }
    if game.recorded_final is not None:
        final: dict[str, Any] = {"scores": list(game.recorded_final.scores)}
        if game.recorded_final.results is not None:
            final["results"] = list(game.recorded_final.results)
        out["final"] = final
    if game.warnings:  # written only when the reader had something to say
        out["warnings"] = list(game.warnings)
    return out


def dumps(game: Game, *, indent: int | None = None) -> str:
    """One game as canonical JSON text."""
    return json.dumps(game_to_json(game), ensure_ascii=False, indent=indent)


def write(games: Sequence[Game]) -> bytes:
    """Games as one canonical file: a single object for one game, an array for several."""
    if len(games) == 1:
        return dumps(games[0]).encode()
    return json.dumps([game_to_json(game) for game in games], ensure_ascii=False).encode()


# -- decoding -------------------------------------------------------------------------------------


class _Reader:
    """Typed access to a JSON object that names the path of the first bad value."""

    def __init__(self, obj: object, path: str, members: Collection[str] | None = None) -> None:
        """``members``: the names the object may have; any other is refused (a misspelt
        optional member would otherwise be dropped without a word)."""
        if not isinstance(obj, dict):
            raise MalformedLogError(f"expected an object, got {_kind(obj)}", path)
        self.obj: dict[str, Any] = obj
        self.path = path
        if members is not None:
            unknown = sorted(set(obj) - set(members))
            if unknown:
                raise MalformedLogError(
                    f"unknown member(s) {', '.join(map(repr, unknown))}; "
                    f"known: {', '.join(members)}",
                    path,
                )

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, check: Callable[[Any, str], T], default: T | None = None) -> T:
        if key not in self.obj or self.obj[key] is None:
            if default is not None:
                return default
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
    try:
        number = float(value)
    except OverflowError:
        raise MalformedLogError("number out of range", path) from None
    if not math.isfinite(number):  # 1e999 reads as infinity, which no document can hold
        raise MalformedLogError("number out of range", path)
    return number


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
    text = _str(value, path)
    try:
        return _DIALECT.get().parse_tile(text)
    except EngineError as error:
        raise MalformedLogError(str(error), path) from None


def _list(item: Callable[[Any, str], T]) -> Callable[[Any, str], tuple[T, ...]]:
    def check(value: Any, path: str) -> tuple[T, ...]:
        if not isinstance(value, list):
            raise MalformedLogError(f"expected an array, got {_kind(value)}", path)
        return tuple(item(entry, f"{path}[{index}]") for index, entry in enumerate(value))

    return check


def _point(value: Any, path: str) -> int:
    """A score, score change or points: an integer, or in a dialect whose points may be halves
    (:attr:`Dialect.half_points`, Ùzje) a number with a fraction of one half (``2.5``), kept as
    that float (a :data:`~engine.dialect.PointsOrHalf`: the record's fields say ``int``)."""
    if type(value) is float and _DIALECT.get().half_points:
        if math.isfinite(value) and (value * 2).is_integer() and not value.is_integer():
            return cast(PointsOrHalf, value)
        raise MalformedLogError(
            f"expected an integer or a half (2.5), got {value!r}"
            if math.isfinite(value)
            else "number out of range",
            path,
        )
    return _int(value, path)


_ints = _list(_int)
_points = _list(_point)
_seats = _list(_seat)


def _fast_first(
    fast: Callable[[_FastPath, Any], T], careful: Callable[[Any, str], T]
) -> Callable[[Any, str], T]:
    """A reader that tries the fast path (below) and, where it gives up, the careful reader."""

    def read(value: Any, path: str) -> T:
        try:
            return fast(_fast_path(), value)
        except _Slow:
            pass  # (outside the handler: an error raised below is not "during" this one)
        return careful(value, path)

    return read


_careful_tiles = _list(_tile)
# (The careful readers are looked up at each call, so that a test can stand in for them.)
_tiles_of = _fast_first(
    lambda fast, value: fast.tiles_of(value), lambda value, path: _careful_tiles(value, path)
)


def _yaku_pair(value: Any, path: str) -> tuple[str, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise MalformedLogError("expected [yaku name, han]", path)
    return _str(value[0], f"{path}[0]"), _int(value[1], f"{path}[1]")


def _recorded_win(value: Any, path: str) -> RecordedWin:
    r = _Reader(value, path, _members(RecordedWin))
    return RecordedWin(
        han=r.optional("han", _int),
        fu=r.optional("fu", _int),
        yaku=r.optional("yaku", _list(_yaku_pair)),
        points=r.optional("points", _point),
        limit=r.optional("limit", _str),
        deltas=r.optional("deltas", _points),
        liable=r.optional("liable", _seat),
        hand=r.optional("hand", _tiles_of),
    )


def _abort_kind(value: Any, path: str) -> AbortKind:
    text = _str(value, path)
    try:
        return AbortKind(text)
    except ValueError:
        known = ", ".join(kind.value for kind in AbortKind)
        raise MalformedLogError(f"unknown abortive draw {text!r}; one of {known}", path) from None


#: How each event field is read, by field name (the same name means the same thing everywhere).
_FIELD_READERS: dict[str, Callable[[Any, str], Any]] = {
    "seat": _seat,
    "from_seat": _seat,
    "tile": _tile,
    "indicator": _tile,
    "consumed": _tiles_of,
    "tiles": _tiles_of,
    "tsumogiri": _bool,
    "recorded": _recorded_win,
    "recorded_tenpai": _seats,
    "recorded_deltas": _points,
    "kind": _abort_kind,
    "seats": _seats,
    "deltas": _points,
    "reason": _str,
}


def _event(value: Any, path: str) -> Event:
    r = _Reader(value, path)
    name = r.get("type", _str)
    event_types = _DIALECT.get().event_types
    cls = event_types.get(name)
    if cls is None:
        raise MalformedLogError(
            f"unknown event type {name!r}; known: {', '.join(event_types)}", r.at("type")
        )
    fields = {spec.name: spec for spec in dataclasses.fields(cls)}
    _Reader(value, path, ["type", *fields])
    kwargs: dict[str, Any] = {}
    for field_name, spec in fields.items():
        no_default = spec.default is dataclasses.MISSING
        if no_default and spec.default_factory is dataclasses.MISSING:
            kwargs[field_name] = r.get(field_name, _FIELD_READERS[field_name])
        elif field_name in r.obj:
            if r.obj[field_name] is None and spec.default is not None:
                raise MalformedLogError(f"{field_name} cannot be null", r.at(field_name))
            kwargs[field_name] = r.optional(field_name, _FIELD_READERS[field_name])
    try:
        # A variant's own events (Ùzje's flowers) travel in Round.events like the shared ones.
        return cast(Event, cls(**kwargs))
    except EngineError as error:
        raise MalformedLogError(str(error), path) from None


_careful_events = _list(_event)
_events = _fast_first(
    lambda fast, value: fast.events(value), lambda value, path: _careful_events(value, path)
)


# -- decoding: the fast path ----------------------------------------------------------------------
#
# The careful readers above build a path string and make a call per value, and parse every tile
# string: most of the time of reading a game went there. A round's tiles and events, nearly all
# of a document, are first read by the fast path below, with direct type checks and one parse
# per tile spelling. It gives up (raises _Slow) at anything it does not vouch for, and the careful
# reader then reads the same value again: what is accepted and every error message stay theirs.


class _Slow(Exception):
    """The fast path met something it does not vouch for: the careful readers take over."""


#: One dataclass field: its member, how it is read, whether it is required, whether it may be
#: null (the careful reader refuses null where the default is not None).
_FieldPlan = tuple[str, Callable[[Any], Any], bool, bool]


@dataclasses.dataclass(frozen=True, slots=True)
class _Plan:
    """How the fast path makes a dataclass (an event, a recorded win) from a JSON object."""

    cls: type[Any]
    #: The members the object may have (the careful reader refuses any other).
    members: frozenset[str]
    fields: tuple[_FieldPlan, ...]


def _plan(cls: type[Any], converters: Mapping[str, Callable[[Any], Any]], *extra: str) -> _Plan:
    fields = tuple(
        (
            spec.name,
            converters[spec.name],
            spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING,
            spec.default is None,
        )
        for spec in dataclasses.fields(cls)
    )
    return _Plan(cls, frozenset((*extra, *(field[0] for field in fields))), fields)


def _build(plan: _Plan, value: dict[str, Any]) -> Any:
    if not value.keys() <= plan.members:
        raise _Slow
    kwargs: dict[str, Any] = {}
    for name, convert, required, nullable in plan.fields:
        item = value.get(name)
        if item is not None:
            kwargs[name] = convert(item)
        elif required or (not nullable and name in value):
            raise _Slow
    try:
        return plan.cls(**kwargs)
    except EngineError:
        raise _Slow from None


# ``type(value) is int`` rather than isinstance: it refuses booleans (and subclasses, which JSON
# never makes) at once, as the careful readers do.


def _fast_int(value: object) -> int:
    if type(value) is int:
        return value
    raise _Slow


def _fast_seat(value: object) -> int:
    if type(value) is int and 0 <= value <= 5:
        return value
    raise _Slow


def _fast_half_point(value: object) -> int:
    """A point figure of a dialect whose points may be halves, as :func:`_point` takes it."""
    if type(value) is int:
        return value
    if type(value) is float and (value * 2).is_integer() and not value.is_integer():
        return cast(PointsOrHalf, value)  # (infinity is no integer: refused above)
    raise _Slow


def _fast_half_points(value: object) -> tuple[int, ...]:
    if type(value) is not list:
        raise _Slow
    return tuple(map(_fast_half_point, value))


def _fast_bool(value: object) -> bool:
    if type(value) is bool:
        return value
    raise _Slow


def _fast_str(value: object) -> str:
    if type(value) is str:
        return value
    raise _Slow


def _fast_ints(value: object) -> tuple[int, ...]:
    if type(value) is not list:
        raise _Slow
    for item in value:
        if type(item) is not int:
            raise _Slow
    return tuple(value)


def _fast_seats(value: object) -> tuple[int, ...]:
    seats = _fast_ints(value)
    for seat in seats:
        if not 0 <= seat <= 5:
            raise _Slow
    return seats


def _fast_yaku(value: object) -> tuple[tuple[str, int], ...]:
    if type(value) is not list:
        raise _Slow
    pairs = []
    for pair in value:
        if type(pair) is not list or len(pair) != 2:
            raise _Slow
        name, han = pair
        if type(name) is not str or type(han) is not int:
            raise _Slow
        pairs.append((name, han))
    return tuple(pairs)


_ABORT_KINDS = {kind.value: kind for kind in AbortKind}


def _fast_abort_kind(value: object) -> AbortKind:
    kind = _ABORT_KINDS.get(value) if type(value) is str else None
    if kind is None:
        raise _Slow
    return kind


class _FastPath:
    """The fast reading of one dialect's tiles and events."""

    def __init__(self, dialect: Dialect) -> None:
        self._parse_tile = dialect.parse_tile
        self._format_tile = dialect.format_tile
        #: Tiles by their string, for the writer's spelling only (see :meth:`_learn`).
        self._known: dict[str, Tile] = {}
        # The converters of _recorded_win and of _FIELD_READERS, member for member.
        point, points = (_fast_int, _fast_ints)
        if dialect.half_points:
            point, points = (_fast_half_point, _fast_half_points)
        recorded = {
            **dict.fromkeys(("han", "fu"), _fast_int),
            **{"points": point, "deltas": points, "yaku": _fast_yaku, "limit": _fast_str},
            **{"liable": _fast_seat, "hand": self.tiles_of},
        }
        self._recorded = _plan(RecordedWin, recorded)
        fields = {
            **dict.fromkeys(("seat", "from_seat"), _fast_seat),
            **dict.fromkeys(("tile", "indicator"), self.tile),
            **dict.fromkeys(("consumed", "tiles"), self.tiles_of),
            **dict.fromkeys(("recorded_tenpai", "seats"), _fast_seats),
            **dict.fromkeys(("recorded_deltas", "deltas"), points),
            **{"tsumogiri": _fast_bool, "recorded": self.recorded_win},
            **{"kind": _fast_abort_kind, "reason": _fast_str},
        }
        self._plans = {
            name: _plan(cls, fields, "type") for name, cls in dialect.event_types.items()
        }
        #: How each event type is read, by its name.
        self._readers: dict[str, Callable[[dict[str, Any]], Event]] = {
            name: functools.partial(_build, plan) for name, plan in self._plans.items()
        }
        # Draws and discards are most of the events: written out, they cost little more than
        # making the event (in every dialect that has the shared ones).
        if dialect.event_types.get("draw") is Draw:
            self._readers["draw"] = self._draw
        if dialect.event_types.get("discard") is Discard:
            self._readers["discard"] = self._discard

    def tile(self, value: object) -> Tile:
        if type(value) is not str:
            raise _Slow
        tile = self._known.get(value)
        return self._learn(value) if tile is None else tile

    def _learn(self, text: str) -> Tile:
        try:
            tile = self._parse_tile(text)
        except EngineError:
            raise _Slow from None
        # Only the writer's spelling is kept: a document can spell a tile in endless ways
        # (" 5m", "5 m"), and the memo must stay the size of the tile set.
        if self._format_tile(tile) == text:
            self._known[text] = tile
        return tile

    def tiles_of(self, value: object) -> tuple[Tile, ...]:
        if type(value) is not list:
            raise _Slow
        try:
            return tuple(map(self._known.__getitem__, value))
        except (KeyError, TypeError):  # a spelling not met yet, or no string: tile by tile
            return tuple(map(self.tile, value))

    def recorded_win(self, value: object) -> RecordedWin:
        if type(value) is not dict:
            raise _Slow
        recorded: RecordedWin = _build(self._recorded, value)
        return recorded

    def events(self, value: object) -> tuple[Event, ...]:
        if type(value) is not list:
            raise _Slow
        try:
            return tuple(map(self._event, value))
        except TypeError:  # a list or an object where a tile or an event type was looked up
            raise _Slow from None

    def _event(self, value: object) -> Event:
        if type(value) is not dict:
            raise _Slow
        read = self._readers.get(value.get("type", ""))
        if read is None:
            raise _Slow
        return read(value)

    def _draw(self, value: dict[str, Any]) -> Event:
        seat = value.get("seat")
        tile = self._known.get(value.get("tile", ""))
        if len(value) == 3 and type(seat) is int and 0 <= seat <= 5 and tile is not None:
            return Draw(seat, tile)
        event: Event = _build(self._plans["draw"], value)  # a tile not met yet, or an error
        return event

    def _discard(self, value: dict[str, Any]) -> Event:
        seat = value.get("seat")
        tile = self._known.get(value.get("tile", ""))
        tsumogiri = value.get("tsumogiri")
        if (
            len(value) == 4
            and type(seat) is int
            and 0 <= seat <= 5
            and tile is not None
            and type(tsumogiri) is bool
        ):
            return Discard(seat, tile, tsumogiri)
        event: Event = _build(self._plans["discard"], value)
        return event


@functools.cache
def _fast_path_of(dialect: Dialect) -> _FastPath:
    """One fast path per dialect, for the life of the process: its memo of tiles is filled by
    the first game read, and its plans are made once."""
    return _FastPath(dialect)


def _fast_path() -> _FastPath:
    """The fast path of the dialect being read."""
    return _fast_path_of(_DIALECT.get())


# -- decoding: rounds and the game ----------------------------------------------------------------


@functools.cache  # (asked for every round and win)
def _members(cls: type) -> tuple[str, ...]:
    """The JSON members of an object written from a dataclass: its field names."""
    return tuple(spec.name for spec in dataclasses.fields(cls))


_GAME_MEMBERS = (
    *("format", "version", "ruleset", "rule_overrides", "players", "source", "started_at"),
    *("rounds", "final", "warnings"),
)


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
        raise MalformedLogError(f"a round wind is 0-3 (E, S, W, N), got {wind}", r.at("wind"))
    if not 1 <= number <= 6:
        raise MalformedLogError(f"a hand number is 1-6, got {number}", r.at("number"))
    return Round(
        wind=wind,
        number=number,
        dealer=r.get("dealer", _seat),
        honba=r.get("honba", _int),
        sticks=r.get("sticks", _int),
        scores=r.get("scores", _points),
        hands=r.get("hands", _list(_tiles_of)),
        dora_indicators=r.get("dora_indicators", _tiles_of),
        events=r.get("events", _events),
        ura_indicators=r.get("ura_indicators", _tiles_of, ()),
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


def game_from_json(obj: object, path: str = "") -> Game:
    """A game from its canonical JSON object.

    :raises MalformedLogError: a missing or bad value, naming its path.
    """
    r = _Reader(obj, path, _GAME_MEMBERS)
    version = r.get("version", _int)
    if not 1 <= version <= FORMAT_VERSION:
        raise MalformedLogError(
            f"canonical format version {version} is not supported (this engine reads 1 to "
            f"{FORMAT_VERSION})",
            r.at("version"),
        )
    overrides = r.optional("rule_overrides", lambda v, p: _Reader(v, p).obj) or {}
    players = r.get("players", _list(_player))
    if not 2 <= len(players) <= 6:
        raise MalformedLogError(f"a game has 2-6 players, got {len(players)}", r.at("players"))
    final = r.optional("final", lambda v, p: _Reader(v, p, _members(FinalResult)))
    results = None if final is None else final.optional("results", _list(_number))
    header = GameHeader(
        ruleset=r.get("ruleset", _str),
        rule_overrides=dict(overrides),
        players=players,
        source=r.get("source", _source),
        started_at=r.optional("started_at", _str),
    )
    recorded_final = None
    with _speaking(dialect_of(header.ruleset)):
        if final is not None:
            recorded_final = FinalResult(scores=final.get("scores", _points), results=results)
        rounds = r.get("rounds", _list(_round))
    warnings = r.optional("warnings", _list(_str)) or ()
    return Game(header=header, rounds=rounds, recorded_final=recorded_final, warnings=warnings)


def loads(text: str | bytes) -> list[Game]:
    """Every game in canonical JSON text: one object, an array of them, or JSON lines (one game
    per line, as ``python -m engine simulate`` writes).

    :raises MalformedLogError: not JSON, or not a canonical game.
    """
    text = _text(text)
    try:
        obj = _parse_json(text)
    except MalformedLogError as error:
        if "Extra data" not in str(error):
            raise
        # Split on newlines only: str.splitlines() also splits on U+2028 and others, which a
        # line's JSON strings (player names) may hold as they are.
        return [
            game_from_json(_parse_json(line, f"line {number}"), f"line {number}")
            for number, line in enumerate(text.split("\n"), start=1)
            if line.strip()
        ]
    if isinstance(obj, list):
        if not obj:
            raise MalformedLogError("an empty array holds no game")
        return [game_from_json(item, f"[{index}]") for index, item in enumerate(obj)]
    return [game_from_json(obj)]


def _text(data: str | bytes) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MalformedLogError(f"not valid JSON: not UTF-8 text ({error})") from None


def _refuse_constant(name: str) -> None:
    raise MalformedLogError(f"{name} is not a JSON number")


def _parse_json(text: str, where: str | None = None) -> Any:
    """``json.loads`` whose every failure is a :class:`MalformedLogError`."""
    try:
        value = json_loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        if cut_short(error):
            size = f"{len(text):,} characters"
            detail = f"not valid JSON: {error}"
            raise MalformedLogError(cut_short_message("JSON", size, detail), where) from None
        raise MalformedLogError(f"not valid JSON ({error})", where) from None
    except RecursionError:
        raise MalformedLogError("JSON nested too deeply", where) from None
    except ValueError as error:  # e.g. an integer of more than 4300 digits
        raise MalformedLogError(f"not valid JSON ({error})", where) from None
    if "\\u" in text:  # only an escape can make a NUL or a lone surrogate
        check_strings(value, where)
    return value


def _sniff(data: bytes) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n[")
    return head.startswith(b"{") and FORMAT_MARK.encode() in data[:4096]


def _read(data: bytes) -> list[Game]:
    return loads(data)


FORMAT = Format(
    name="canonical",
    title="mjlogs canonical JSON",
    extensions=(".json",),
    sniff=_sniff,
    read=_read,
    write=write,
)
