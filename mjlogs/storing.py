"""Storing read games: each with its seats and players, in one transaction, or found already
stored (a duplicate), or stored as another copy of its game (``mjlogs.copies``).

Every change to the database goes through a service (HackSoft Django Styleguide): plain values
in, the work in a transaction, the result out; reads belong in ``selectors.py``. A game already
stored where the uploader can see it is a duplicate (the same record: ``mjlogs.identity``), also
when two uploads of it race: the database's unique constraints decide, and the loser reports the
winner's game.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q

from engine.events import Game as EngineGame
from engine.formats import (
    canonical,
)
from mjlogs.copies import copies_regroup, counted_copy, plays_with_copies
from mjlogs.identity import compare_records, identity_hash
from mjlogs.models import Game, GameSeat, Player, PlayerKind, PlayerName, Visibility
from mjlogs.provenance import seat_kind
from mjlogs.reading import (
    PreparedGame,
)
from mjlogs.record_cache import StoredRecord
from mjlogs.verification_queue import VerificationQueue

logger = logging.getLogger(__name__)


#: What pages show for a player whose record gives no name (an mjai seat without one).
UNNAMED = "(no name)"


@dataclass(frozen=True)
class Origin:
    """Where the games of one file came from, stored with each of them."""

    #: The file's bytes, gzip-compressed.
    raw: bytes
    raw_name: str
    #: The file's size, uncompressed.
    raw_size: int
    source_format: str
    uploader: User | None
    visibility: str


def content_hash(game: EngineGame) -> str:
    """The game's identity (:func:`mjlogs.identity.identity_hash`): what was played, not the
    file or the format it came in, so the same game in two formats has one hash."""
    return identity_hash(canonical.game_to_json(game))


def check_visibility(visibility: str) -> None:
    if visibility not in Visibility.values:
        raise ValueError(f"visibility must be one of {', '.join(Visibility.values)}")


def game_store(
    game: PreparedGame,
    origin: Origin,
    *,
    verifications: VerificationQueue | None = None,
    players: PlayerCache | None = None,
) -> tuple[Game, bool]:
    """Store one game with its seats and players, in one transaction; or find the same record
    already stored where the uploader can see it. Returns the game and whether it is new. A new
    game's verification is queued once it is committed (``verifications``).

    A record (:func:`mjlogs.identity.identity_hash`) is stored once among the public games, and
    once among each uploader's private games; so is a record that says nothing a stored copy of
    its game does not (a tenhou.net/6 export with the names hidden, after the mjlog): a
    duplicate of that copy. A record of the same play that says more or otherwise is stored as
    another copy of the game, and one copy counts (``mjlogs.copies``). An upload never finds,
    and so never names or confirms, a game its uploader cannot see (someone else's private
    game): it is stored as a game of its own. A source id (a Tenhou log id) is not an identity:
    a record that claims one with other play is another game, stored beside the first
    (docs/security.md)."""
    players = PlayerCache() if players is None else players
    queue = VerificationQueue() if verifications is None else verifications
    try:
        with transaction.atomic():
            ((game_id, created),) = _store([(game, origin)], queue, players)
    except IntegrityError:
        players.forget()  # the players it created went with the rolled back game
        # Another upload stored this record, or a copy of its game that counts, between the
        # look-up and the insert: looked up again, it is found.
        with transaction.atomic():
            ((game_id, created),) = _store([(game, origin)], queue, players)
    return Game.objects.get(pk=game_id), created


def games_store(
    games: Sequence[tuple[PreparedGame, Origin]],
    *,
    verifications: VerificationQueue,
    players: PlayerCache,
) -> list[tuple[int, bool]]:
    """:func:`game_store` for the games of one import (their origins share the uploader and
    visibility), in a few statements: one look-up of the stored records, one of the stored
    copies of their games, one of the players, and the new games, seats and players inserted
    together in one transaction. Returns each game's id and whether it is new; a game twice in
    the batch is new once.

    When that transaction meets a unique constraint (another import stored one of these games
    or players meanwhile), it is rolled back and each game is stored on its own instead, as
    :func:`game_store` does, which knows how to find what the other import stored."""
    uploader, visibility = games[0][1].uploader, games[0][1].visibility
    if any(o.uploader != uploader or o.visibility != visibility for _, o in games):
        raise ValueError("the games of one batch share their uploader and visibility")
    try:
        with transaction.atomic():
            return _store(games, verifications, players)
    except IntegrityError as error:
        players.forget()  # the players it created went with the rolled back batch
        logger.info(
            "A batch of %d games met a unique constraint (%s): stored one by one",
            len(games),
            str(error).strip().partition("\n")[0] or "another import",
        )
        return [
            (stored.pk, created)
            for stored, created in (
                game_store(game, origin, verifications=verifications, players=players)
                for game, origin in games
            )
        ]


def _store(
    games: Sequence[tuple[PreparedGame, Origin]],
    verifications: VerificationQueue,
    players: PlayerCache,
) -> list[tuple[int, bool]]:
    """Store what of these games (one uploader's, one visibility) is new, in the current
    transaction; each game's id and whether it is new.

    Each game is, in this order: a record stored already (the same identity) or earlier in the
    batch; a record of a play stored already, or earlier in the batch, that says nothing the
    copy there does not (a duplicate of that copy); else new, a copy of its game's counted copy
    if there is one (``mjlogs.copies`` then chooses again which copy counts).

    :raises IntegrityError: another import stored one of these records, a counted copy of one
        of these games or one of these players meanwhile (the caller rolls back).
    """
    uploader, visibility = games[0][1].uploader, games[0][1].visibility
    found = _stored_ids([game.digest for game, _ in games], uploader)
    copies = _stored_copies({game.play for game, _ in games if game.digest not in found}, uploader)
    same_as: list[int | None] = []  # per place: a stored game's id, or None (new, or see below)
    earlier: list[int] = []  # per place: the place of the new game it is (itself when new)
    new: list[int] = []
    for place, (game, _) in enumerate(games):
        known = found.get(game.digest)
        if known is None:
            known = next(
                (
                    int(copy["pk"])
                    for copy in copies.get(game.play, ())
                    if compare_records(game.document, copy["document"]).covered
                ),
                None,
            )
        same_as.append(known)
        if known is not None:
            earlier.append(place)
            continue
        covering = next(
            (
                other
                for other in new
                if games[other][0].digest == game.digest
                or (
                    games[other][0].play == game.play
                    and compare_records(game.document, games[other][0].document).covered
                )
            ),
            None,
        )
        earlier.append(place if covering is None else covering)
        if covering is None:
            new.append(place)
    rows = _new_rows(games, new, copies, visibility)
    if rows:
        seat_names = [(games[place][0].platform, games[place][0].names) for place in new]
        ids = players.player_ids_many(seat_names)
        seats = [
            seat
            for place, player_ids in zip(new, ids, strict=True)
            for seat in _seat_rows(rows[place], games[place][0], player_ids)
        ]
        GameSeat.objects.bulk_create(seats)
        # Which copy counts is chosen again wherever a game now has several, seen by this
        # uploader or not (someone's private copy of a game now public counts under it).
        copies_regroup(plays_with_copies(games[place][0].play for place in new))
        for place in new:
            verifications.after_commit(rows[place].pk, _stored_record(games[place][0]))
    return [
        (known, False) if known is not None else (rows[earlier[place]].pk, earlier[place] == place)
        for place, known in enumerate(same_as)
    ]


def _new_rows(
    games: Sequence[tuple[PreparedGame, Origin]],
    new: Sequence[int],
    copies: Mapping[str, Sequence[Mapping[str, Any]]],
    visibility: str,
) -> dict[int, Game]:
    """The rows of the new games at these places, inserted: each a copy of its game's counted
    copy when there is one (stored, else the first new one of its play in the batch, inserted
    first), so that one copy of a game counts in its scope from the start."""
    rows = {place: _game_row(*games[place]) for place in new}
    first_of: dict[str, int] = {}
    later = []
    for place in new:
        play = games[place][0].play
        counted = counted_copy(copies.get(play, ()), visibility)
        if counted is not None:
            rows[place].copy_of_id = counted
        elif play in first_of:
            later.append(place)
        else:
            first_of[play] = place
    Game.objects.bulk_create([rows[place] for place in new if place not in later])
    for place in later:
        rows[place].copy_of_id = rows[first_of[games[place][0].play]].pk
    Game.objects.bulk_create([rows[place] for place in later])
    return rows


def _stored_ids(digests: Sequence[str], uploader: User | None) -> dict[str, int]:
    """By record identity, the id of the stored record an upload by ``uploader`` is a duplicate
    of, in one query."""
    same = Game.objects.filter(copies_seen_by(uploader), content_hash__in=digests)
    found: dict[str, int] = {}
    rows = same.values_list("content_hash", "visibility", "pk")
    # Public copies first, then the lowest id.
    for digest, _, pk in sorted(rows, key=lambda row: (row[1] != Visibility.PUBLIC, row[2])):
        found.setdefault(digest, pk)
    return found


def _stored_copies(
    plays: Iterable[str], uploader: User | None
) -> dict[str, list[Mapping[str, Any]]]:
    """By play identity, the stored copies of these games an upload by ``uploader`` may see
    (``pk``, ``visibility``, ``copy_of_id``, ``document``): the counted ones first, public
    first, then by id. One query; nothing read for a game stored nowhere."""
    wanted = {play for play in plays if play}
    if not wanted:
        return {}
    rows = Game.objects.filter(copies_seen_by(uploader), play_hash__in=wanted).values(
        "pk", "play_hash", "visibility", "copy_of_id", "document"
    )
    found: dict[str, list[Mapping[str, Any]]] = {}
    for row in sorted(
        rows,
        key=lambda row: (row["copy_of_id"] is not None, row["visibility"] != Visibility.PUBLIC,
                         row["pk"]),
    ):  # fmt: skip
        found.setdefault(row["play_hash"], []).append(row)
    return found


def copies_seen_by(uploader: User | None) -> Q:
    """The stored games an upload by ``uploader`` may be a duplicate of: public ones, and the
    uploader's own private ones (an upload with no uploader: private ones without one)."""
    own = Q(visibility=Visibility.PRIVATE)
    own &= Q(uploader__isnull=True) if uploader is None else Q(uploader=uploader)
    return Q(visibility=Visibility.PUBLIC) | own


def _game_row(game: PreparedGame, origin: Origin) -> Game:
    """A game's row, not saved yet."""
    return Game(
        **game.row,
        source_format=origin.source_format,
        content_hash=game.digest,
        play_hash=game.play,
        uploader=origin.uploader,
        visibility=origin.visibility,
        document=game.document,
        raw=origin.raw,
        raw_name=origin.raw_name,
        raw_size=origin.raw_size,
    )


def _seat_rows(stored: Game, game: PreparedGame, player_ids: Sequence[int]) -> list[GameSeat]:
    """A stored game's seats, not saved yet."""
    return [
        GameSeat(game=stored, seat=seat, player_id=player_ids[seat], **values)
        for seat, values in enumerate(game.seats)
    ]


def _stored_record(game: PreparedGame) -> StoredRecord:
    """What the verification in this process takes of a game just stored."""
    return StoredRecord(game.digest, game.record, game.document, game.replayed)


class PlayerCache:
    """The players one import has found or created, by platform and name: an import of many
    games meets the same few players again and again, and each look-up was a query.

    Anonymous seats are never cached (each is a player of its own). A player created in a game's
    transaction that is rolled back is gone: call :meth:`forget` then."""

    def __init__(self) -> None:
        self._ids: dict[tuple[str, str], int] = {}

    def player_ids_many(self, seats: Sequence[tuple[str, Sequence[str]]]) -> list[list[int]]:
        """The player of each seat's name for several games' seats, each a platform and its
        seats' names (an anonymous seat a new player of its own): the known players found in
        one query a platform, the new ones created together, in the order they are met (as
        game by game). A concurrent import that created one of
        them first makes this raise :class:`IntegrityError` (the caller rolls back)."""
        wanted: dict[str, set[str]] = {}
        for platform, names in seats:
            for name in names:
                if (platform, name) not in self._ids and not _anonymous(platform, name):
                    wanted.setdefault(platform, set()).add(name)
        for platform, names_wanted in wanted.items():
            found = PlayerName.objects.filter(platform=platform, name__in=names_wanted)
            for name, player_id in found.values_list("name", "player_id"):
                self._ids[platform, name] = player_id
        new: list[Player] = []
        named: dict[tuple[str, str], Player] = {}
        anonymous: dict[tuple[int, int], Player] = {}
        for place, (platform, names) in enumerate(seats):
            for seat, name in enumerate(names):
                if _anonymous(platform, name):
                    anonymous[place, seat] = player = _new_player(platform, name)
                elif (platform, name) in self._ids or (platform, name) in named:
                    continue
                else:
                    named[platform, name] = player = _new_player(platform, name)
                new.append(player)
        Player.objects.bulk_create(new)
        PlayerName.objects.bulk_create(
            PlayerName(player=player, platform=platform, name=name)
            for (platform, name), player in named.items()
        )
        for key, player in named.items():
            self._ids[key] = player.pk
        ids = [[self._ids.get((platform, name), 0) for name in names] for platform, names in seats]
        for (place, seat), player in anonymous.items():
            ids[place][seat] = player.pk
        return ids

    def forget(self) -> None:
        self._ids.clear()


def _anonymous(platform: str, name: str) -> bool:
    return seat_kind(platform, name) == PlayerKind.ANONYMOUS


def _new_player(platform: str, name: str) -> Player:
    """A new player for a seat's name, not saved yet. The record's name is kept as it is for
    telling players apart (PlayerName); pages show it without surrounding blanks, and a seat
    with no name at all as such, never a blank link."""
    return Player(name=name.strip() or UNNAMED, platform=platform, kind=seat_kind(platform, name))
