"""What the service stores of one game, checked before anything of it is stored.

A record the engine reads may still hold values the database cannot keep (a name longer than its
column, a score beyond a 32-bit integer) or a size no real game has (ten thousand rounds). Either
would fail deep inside the import (a ``DataError`` losing the whole upload) or later (a
verification that cannot write its facts, a frames request that takes a minute). Every such value
is checked here, when the record has been read, and a game that breaks a rule is a failure of its
file, with a message naming the value; the other files of the upload go in.

The size limits are far above any real game (docs/security.md, "Limits of one game"): the longest
records seen here are 18 rounds and 1,731 events (real Tenhou and Mahjong Soul games), and a
6-player Ùzje self-played game reaches 32 rounds, 3,977 events and 276 events in a round.

The text a record chooses (its rule set, its source's format, which names the players' platform,
its source id, the players' names and ranks) is checked against the size of each column it is
stored in, read from the model (:data:`COLUMNS`): a column made larger or smaller moves its limit
here with it. A record's seats must agree too: one starting score, one dealt hand (when it gives
them) and one final score a player, the dealer one of them.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from django.db import models

from engine.events import Event, Game
from mjlogs import models as stored

#: Rounds of one game.
MAX_ROUNDS: Final = 200
#: Events of one round, and of one game.
MAX_EVENTS_PER_ROUND: Final = 2_000
MAX_EVENTS_PER_GAME: Final = 50_000
#: Points any score, payment or stake of a record may reach (either sign): far above any game's,
#: and low enough that the sums the statistics keep stay within 32-bit columns.
MAX_POINTS: Final = 10_000_000
#: Honba counters and riichi sticks on the table at a round's start.
MAX_COUNTERS: Final = 1_000


@dataclass(frozen=True)
class Column:
    """A text column of the database that a record's value is stored in."""

    model: type[models.Model]
    field: str

    @property
    def size(self) -> int:
        """Its size in characters, as the model says."""
        field = self.model._meta.get_field(self.field)
        size = field.max_length if isinstance(field, models.Field) else None
        if not isinstance(size, int):
            raise TypeError(f"{self.model.__name__}.{self.field} has no max_length")
        return size


def _size(*columns: Column) -> int:
    """The characters a value stored in each of these columns may have."""
    return min(column.size for column in columns)


#: Where each text a record chooses is stored.
RULESET_COLUMNS: Final = (Column(stored.Game, "ruleset"),)
SOURCE_ID_COLUMNS: Final = (Column(stored.Game, "source_id"),)
#: The source's format names the platform of the players' names (``mjlogs.provenance``).
PLATFORM_COLUMNS: Final = (Column(stored.Player, "platform"), Column(stored.PlayerName, "platform"))
NAME_COLUMNS: Final = (Column(stored.Player, "name"), Column(stored.PlayerName, "name"))
RANK_COLUMNS: Final = (Column(stored.GameSeat, "recorded_rank"),)
#: Every column checked here.
COLUMNS: Final = (
    *RULESET_COLUMNS,
    *SOURCE_ID_COLUMNS,
    *PLATFORM_COLUMNS,
    *NAME_COLUMNS,
    *RANK_COLUMNS,
)
#: The uploaded file's name, kept cut to its column (not the record's: not refused).
FILE_NAME_COLUMN: Final = Column(stored.Game, "raw_name")

#: Characters of a player's name and of a record's source id (the columns' sizes).
MAX_NAME_LENGTH: Final = _size(*NAME_COLUMNS)
MAX_SOURCE_ID_LENGTH: Final = _size(*SOURCE_ID_COLUMNS)


class NotStorable(ValueError):
    """A value of the game that the service does not store; the message names it."""


def check_storable(game: Game) -> None:
    """Refuse a game holding a value the service cannot or will not store.

    :raises NotStorable: naming the first such value.
    """
    header = game.header
    if size := _too_long(header.ruleset, RULESET_COLUMNS):
        raise NotStorable(
            f"the rule set is {len(header.ruleset):,} characters long; at most {size} are kept"
        )
    if size := _too_long(header.source.format, PLATFORM_COLUMNS):
        raise NotStorable(
            f"the record's source format is {len(header.source.format):,} characters long; at "
            f"most {size} are kept"
        )
    _check_names(game)
    start_time(header.started_at)
    source_id = header.source.id
    if source_id is not None:
        if size := _too_long(source_id, SOURCE_ID_COLUMNS):
            raise NotStorable(
                f"the record's source id is {len(source_id):,} characters long; at most {size} "
                "are kept"
            )
        if _has_control(source_id):
            raise NotStorable(f"the record's source id {source_id!r} holds a control character")
    _check_size(game)
    _check_seats(game)
    for index, round_ in enumerate(game.rounds):
        where = f"round {index + 1} ({round_.name})"
        _check_points(round_.scores, f"{where}: a starting score")
        for label, count in (("honba", round_.honba), ("riichi sticks", round_.sticks)):
            if not 0 <= count <= MAX_COUNTERS:
                raise NotStorable(f"{where}: {count:,} {label}; at most {MAX_COUNTERS:,}")
        for event in round_.events:
            if _states_figures(type(event)):
                for value in _figures(event):
                    _check_points((value,), f"{where}: a figure of a {event.type} event")
    if game.recorded_final is not None:
        _check_points(game.recorded_final.scores, "the final scores")


def start_time(text: str | None) -> datetime | None:
    """The record's start time as it is stored, in UTC; a time without a zone (or a date
    alone) is taken as UTC, and text that is no ISO 8601 time is no start time (``None``; the
    record's claim stays in its document).

    :raises NotStorable: the time is outside years 1 to 9999 once in UTC (year 9999 with a
        negative offset, year 1 with a positive one): Python cannot hold it, so SQLite cannot
        take it and PostgreSQL, which can, could never give it back.
    """
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise NotStorable(
            f"the start time {text!r} is outside years 1 to 9999 in UTC; no date beyond them "
            "is kept"
        ) from None


def _too_long(text: str, columns: tuple[Column, ...]) -> int | None:
    """The size of these columns when ``text`` is longer, else ``None``. (Each caller writes
    its whole sentence, so that the pages' catalogue of messages can be checked against it:
    tests/mjlogs/test_engine_words.py.)"""
    size = _size(*columns)
    return size if len(text) > size else None


def _check_names(game: Game) -> None:
    for seat, player in enumerate(game.header.players):
        name = player.name
        if size := _too_long(name, NAME_COLUMNS):
            raise NotStorable(
                f"the name of seat {seat} is {len(name):,} characters long; at most {size} are kept"
            )
        if _has_control(name):
            raise NotStorable(f"the name of seat {seat} ({name!r}) holds a control character")
        if player.rank is not None and (size := _too_long(player.rank, RANK_COLUMNS)):
            raise NotStorable(
                f"the rank of seat {seat} is {len(player.rank):,} characters long; at most "
                f"{size} are kept"
            )


def _check_seats(game: Game) -> None:
    """One starting score, one dealt hand (when the record gives them) and one final score a
    player; the dealer one of them."""
    seats = game.players
    for number, round_ in enumerate(game.rounds, start=1):
        name = round_.name
        if len(round_.scores) != seats:
            raise NotStorable(
                f"the record names {seats} players, but round {number} ({name}) has "
                f"{len(round_.scores)} starting scores"
            )
        if round_.hands and len(round_.hands) != seats:
            raise NotStorable(
                f"the record names {seats} players, but round {number} ({name}) has "
                f"{len(round_.hands)} dealt hands"
            )
        if not 0 <= round_.dealer < seats:
            raise NotStorable(
                f"the record names {seats} players, but the dealer of round {number} ({name}) "
                f"is seat {round_.dealer}"
            )
    final = game.recorded_final
    if final is not None:
        if len(final.scores) != seats:
            raise NotStorable(
                f"the record names {seats} players, but the final scores are {len(final.scores)}"
            )
        if final.results is not None and len(final.results) != seats:
            raise NotStorable(
                f"the record names {seats} players, but the final results are {len(final.results)}"
            )


def _has_control(text: str) -> bool:
    # Cc: line breaks, tabs, NUL and the like; Cf: invisible format characters, among them the
    # bidirectional overrides (U+202E) that make a name read backwards on every page.
    return any(unicodedata.category(char) in ("Cc", "Cf") for char in text)


def _check_size(game: Game) -> None:
    rounds = len(game.rounds)
    if rounds > MAX_ROUNDS:
        raise NotStorable(f"the game has {rounds:,} rounds; the service keeps at most {MAX_ROUNDS}")
    events = 0
    for index, round_ in enumerate(game.rounds):
        count = len(round_.events)
        if count > MAX_EVENTS_PER_ROUND:
            raise NotStorable(
                f"round {index + 1} ({round_.name}) has {count:,} events; at most "
                f"{MAX_EVENTS_PER_ROUND:,} are kept"
            )
        events += count
    if events > MAX_EVENTS_PER_GAME:
        raise NotStorable(
            f"the game has {events:,} events; the service keeps at most {MAX_EVENTS_PER_GAME:,}"
        )


def _check_points(values: tuple[float, ...] | list[float], what: str) -> None:
    for value in values:
        # (A float is an Ùzje half point, 2.5: docs/variants/uzje.md, "Payments".)
        if isinstance(value, int | float) and abs(value) > MAX_POINTS:
            raise NotStorable(f"{what} is {value:,} points; at most {MAX_POINTS:,} either way")


#: Whether events of a class may state figures (most do not: draws, discards, calls), by class.
_STATES_FIGURES: dict[type, bool] = {}
_FIGURE_FIELDS: Final = frozenset({"recorded", "recorded_deltas"})


def _states_figures(kind: type) -> bool:
    """Whether :func:`_figures` can find anything on an event of this class: nine events in
    ten are draws and discards, and asking each of them was a tenth of storing a game."""
    states = _STATES_FIGURES.get(kind)
    if states is None:
        if dataclasses.is_dataclass(kind):
            names = {spec.name for spec in dataclasses.fields(kind)}
            states = bool(names & _FIGURE_FIELDS) or any(
                hasattr(kind, name) for name in _FIGURE_FIELDS
            )
        else:
            states = True  # not a dataclass: ask the event itself
        _STATES_FIGURES[kind] = states
    return states


def _figures(event: Event) -> Iterator[float]:
    """The point figures an event states (a win's recorded points and score changes, a draw's
    recorded changes)."""
    recorded = getattr(event, "recorded", None)
    if recorded is not None:
        for name in ("han", "fu"):
            value = getattr(recorded, name, None)
            if isinstance(value, int) and not 0 <= value <= MAX_COUNTERS:
                raise NotStorable(f"a recorded {name} of {value:,}; at most {MAX_COUNTERS:,}")
        for name in ("points", "deltas"):
            value = getattr(recorded, name, None)
            if isinstance(value, int | float):
                yield value
            elif isinstance(value, tuple | list):
                yield from (item for item in value if isinstance(item, int | float))
    deltas = getattr(event, "recorded_deltas", None)
    if isinstance(deltas, tuple | list):
        yield from (item for item in deltas if isinstance(item, int | float))
