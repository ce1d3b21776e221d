"""Write paths of the mjlogs app: importing game records.

Every change to the database goes through a function here (HackSoft Django Styleguide):
a service takes plain values, validates them, does the work in a transaction and returns
the result. Views, API endpoints, Celery tasks and management commands call services;
they never save models themselves. Reads belong in ``selectors.py``.

Importing: each uploaded file is opened (archives into their members), each file is read by the
engine (format sniffed), and each game of a file goes in within its own transaction. A file that
cannot be read stores nothing and gives one error naming the problem; the other files of the
batch go in. A game already stored (same content, or same source id) is a duplicate, also when
two uploads of it race: the database's unique constraints decide, and the loser reports the
winner's game. After each game commits, its verification is queued (``replay.tasks``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q

from engine.errors import EngineError
from engine.events import Game as EngineGame
from engine.formats import canonical, read_games
from engine.game_flow import placements
from mjlogs.archives import ArchiveError, Limits, UploadedFile, expand
from mjlogs.models import Game, GameSeat, Player, PlayerName, Visibility
from mjlogs.selectors import user_can_manage_game

DEFAULT_LIMITS = Limits()

#: The platform a player's name belongs to, by the format the record came from.
PLATFORM_OF_FORMAT = {"mjlog": "tenhou", "tenhou6": "tenhou"}


class Status(StrEnum):
    IMPORTED = "imported"
    DUPLICATE = "duplicate"
    FAILED = "failed"


@dataclass(frozen=True)
class Outcome:
    """What became of one game of an upload (or of a whole file that could not be read)."""

    file: str
    status: Status
    #: The game's position in its file (0 for a file of one game; ``None`` for a file error).
    index: int | None = None
    #: The stored game: the new one, or for a duplicate the one already there.
    game_id: int | None = None
    error: str = ""
    source_format: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "index": self.index,
            "status": self.status.value,
            "game_id": self.game_id,
            "error": self.error,
            "format": self.source_format,
        }


@dataclass
class ImportSummary:
    """Every outcome of one import, in order."""

    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        counted = Counter(outcome.status.value for outcome in self.outcomes)
        return {status.value: counted[status.value] for status in Status}


@dataclass(frozen=True)
class Origin:
    """Where the games of one file came from, stored with each of them."""

    #: The file's bytes, gzip-compressed.
    raw: bytes
    raw_name: str
    #: The file's size, uncompressed.
    raw_size: int
    source_format: str
    uploader: AbstractBaseUser | None
    visibility: str


def content_hash(game: EngineGame) -> str:
    """SHA-256 of what the game *is* (rule set, player names, rounds and events, final result),
    not of the file it came from: the same game in two formats has one hash."""
    return _document_hash(canonical.game_to_json(game))


def _document_hash(document: dict[str, Any]) -> str:
    """:func:`content_hash` of a game's canonical document."""
    content = {
        "ruleset": document["ruleset"],
        "rule_overrides": document["rule_overrides"],
        "players": [player["name"] for player in document["players"]],
        "rounds": document["rounds"],
        "final": document["final"],
    }
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def import_files(
    files: Iterable[UploadedFile],
    *,
    uploader: AbstractBaseUser | None = None,
    visibility: str = Visibility.PUBLIC,
    limits: Limits = DEFAULT_LIMITS,
    progress: Callable[[Outcome], None] | None = None,
) -> ImportSummary:
    """Import uploaded files (archives are opened) and return every outcome.

    ``progress`` is called after each outcome (a progress bar, a streamed response).
    """
    summary = ImportSummary()
    seen = 0
    for upload in files:
        try:
            members = list(expand(upload.name, upload.data, limits))
        except ArchiveError as error:
            members = []
            _add(summary, Outcome(upload.name, Status.FAILED, error=str(error)), progress)
        for member in members:
            seen += 1
            if seen > limits.max_files:
                error = f"more than {limits.max_files:,} files in one import; the rest were skipped"
                _add(summary, Outcome(member.name, Status.FAILED, error=error), progress)
                return summary
            for outcome in import_file(
                member.name, member.data, uploader=uploader, visibility=visibility
            ):
                _add(summary, outcome, progress)
    return summary


def _add(
    summary: ImportSummary, outcome: Outcome, progress: Callable[[Outcome], None] | None
) -> None:
    summary.outcomes.append(outcome)
    if progress is not None:
        progress(outcome)


def import_file(
    name: str,
    data: bytes,
    *,
    uploader: AbstractBaseUser | None = None,
    visibility: str = Visibility.PUBLIC,
) -> list[Outcome]:
    """Import the games of one file: one outcome per game, or one failure for the file."""
    if visibility not in Visibility.values:
        raise ValueError(f"visibility must be one of {', '.join(Visibility.values)}")
    try:
        games, fmt = read_games(data, file_name=name)
    except EngineError as error:
        return [Outcome(name, Status.FAILED, error=str(error))]
    if not games:
        return [Outcome(name, Status.FAILED, error="the file holds no game")]
    origin = Origin(
        raw=gzip.compress(data, mtime=0),
        raw_name=name[:255],
        raw_size=len(data),
        source_format=fmt.name,
        uploader=uploader,
        visibility=visibility,
    )
    outcomes = []
    for index, game in enumerate(games):
        stored, created = game_store(game, origin)
        status = Status.IMPORTED if created else Status.DUPLICATE
        outcomes.append(Outcome(name, status, index, stored.pk, source_format=fmt.name))
    return outcomes


def game_store(game: EngineGame, origin: Origin) -> tuple[Game, bool]:
    """Store one game with its seats and players, in one transaction; or find the game already
    stored (same content or same source id). Returns the game and whether it is new."""
    document = canonical.game_to_json(game)
    digest = _document_hash(document)
    source_id = game.header.source.id
    existing = _stored(digest, source_id)
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            stored = _create(game, document, digest, origin)
    except IntegrityError:
        # Another upload of the same game committed between the look-up and the insert.
        existing = _stored(digest, source_id)
        if existing is None:
            raise
        return existing, False
    transaction.on_commit(lambda: _queue_verification(stored.pk))
    return stored, True


def _stored(digest: str, source_id: str | None) -> Game | None:
    match = Q(content_hash=digest)
    if source_id is not None:
        match |= Q(source_id=source_id)
    return Game.objects.filter(match).order_by("pk").first()


def _create(game: EngineGame, document: dict[str, Any], digest: str, origin: Origin) -> Game:
    header = game.header
    final = game.recorded_final
    stored = Game.objects.create(
        ruleset=header.ruleset,
        rule_overrides=dict(header.rule_overrides),
        players_count=game.players,
        rounds_count=len(game.rounds),
        complete=final is not None,
        source_format=origin.source_format,
        source_id=header.source.id,
        content_hash=digest,
        started_at=_started_at(header.started_at),
        uploader=origin.uploader,
        visibility=origin.visibility,
        document=document,
        raw=origin.raw,
        raw_name=origin.raw_name,
        raw_size=origin.raw_size,
    )
    platform = PLATFORM_OF_FORMAT.get(header.source.format, header.source.format)
    start = game.rounds[0].scores if game.rounds else (0,) * game.players
    places = placements(final.scores) if final is not None else None
    GameSeat.objects.bulk_create(
        GameSeat(
            game=stored,
            seat=seat,
            player=_player(platform, player.name),
            start_score=start[seat],
            final_score=final.scores[seat] if final is not None else None,
            placement=places[seat] if places is not None else None,
        )
        for seat, player in enumerate(header.players)
    )
    return stored


def _player(platform: str, name: str) -> Player:
    """The player known by this name on this platform, created on first sight."""
    known = PlayerName.objects.select_related("player").filter(platform=platform, name=name)
    found = known.first()
    if found is not None:
        return found.player
    player = Player.objects.create(name=name)
    try:
        with transaction.atomic():
            PlayerName.objects.create(player=player, platform=platform, name=name)
    except IntegrityError:  # created meanwhile by a concurrent import
        player.delete()
        return known.get().player
    return player


def _started_at(text: str | None) -> datetime | None:
    """The record's start time; a time without a zone (or a date alone) is taken as UTC."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _queue_verification(game_id: int) -> None:
    from replay.tasks import verify_game  # the replay app depends on this one, not the reverse

    verify_game.delay(game_id)


def game_delete(*, user: AbstractBaseUser | AnonymousUser, game: Game) -> None:
    """Delete a game (its seats and verdict go with it; its players stay).

    :raises PermissionDenied: the user is neither the uploader nor staff.
    """
    _check_can_manage(user, game)
    with transaction.atomic():
        _queue_stats_update(game)
        game.delete()


def game_visibility_set(
    *, user: AbstractBaseUser | AnonymousUser, game: Game, visibility: str
) -> Game:
    """Make a game public or private.

    :raises PermissionDenied: the user is neither the uploader nor staff.
    :raises ValueError: an unknown visibility.
    """
    _check_can_manage(user, game)
    if visibility not in Visibility.values:
        raise ValueError(f"visibility must be one of {', '.join(Visibility.values)}")
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(visibility=visibility)
        _queue_stats_update(game)
    game.visibility = visibility
    return game


def _queue_stats_update(game: Game) -> None:
    # Summaries and ratings count public games only: who sees a game changes them.
    from stats.services import game_stats_queue_update  # stats depends on this app

    game_stats_queue_update(game)


def _check_can_manage(user: AbstractBaseUser | AnonymousUser, game: Game) -> None:
    if not user_can_manage_game(user, game):
        raise PermissionDenied("only the game's uploader or staff may change or delete it")
