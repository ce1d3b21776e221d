"""Write paths of the mjlogs app: importing game records.

Every change to the database goes through a function here (HackSoft Django Styleguide):
a service takes plain values, validates them, does the work in a transaction and returns
the result. Views, API endpoints, Celery tasks and management commands call services;
they never save models themselves. Reads belong in ``selectors.py``.

Importing: each uploaded file is opened (archives into their members), each file is read by the
engine (format sniffed), and each game of a file goes in within its own transaction. A file that
cannot be read stores nothing and gives one error naming the problem; the other files of the
batch go in. A game already stored where the uploader can see it is a duplicate (the same play,
whatever the format: ``mjlogs.identity``), also when two uploads of it race: the database's
unique constraints decide, and the loser reports the winner's game. After each game commits,
its verification is queued (``replay.tasks``); when the broker cannot be reached the game stays
stored with its verdict pending, and ``manage.py reverify --pending`` queues it later
(docs/faults.md).

An upload through the site or the API (:func:`upload_import`) is one transaction: if the
database goes away in the middle, nothing of it is stored, and sending it again stores it all.
"""

from __future__ import annotations

import io
import logging
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, OperationalError, connections, transaction
from django.db.models import Q

from engine.errors import EngineError
from engine.events import Game as EngineGame
from engine.formats import (
    NOT_A_RECORD,
    SNIFF_BYTES,
    canonical,
    content_head,
    sniff_file,
    sniff_head,
)
from mjlogs import record_cache
from mjlogs.archives import ArchiveError, Limits, UploadedFile, expand, is_archive
from mjlogs.copies import copies_regroup, counted_copy, plays_with_copies
from mjlogs.identity import compare_records, identity_hash
from mjlogs.models import Game, GameSeat, Player, PlayerKind, PlayerName, Visibility
from mjlogs.provenance import seat_kind
from mjlogs.reading import (
    FileReader,
    PooledFileReader,
    PreparedGame,
    ReadFailure,
    ReadFile,
    ReplayAhead,
    StoredDigests,
    can_fork,
    read_file,
)
from mjlogs.record_cache import StoredRecord
from mjlogs.selectors import user_can_manage_game
from mjlogs.storable import FILE_NAME_COLUMN

logger = logging.getLogger(__name__)

DEFAULT_LIMITS = Limits()

#: How many times an upload is tried when PostgreSQL aborts its transaction to resolve a
#: deadlock or a serialization failure with a concurrent upload of the same games or players.
UPLOAD_ATTEMPTS = 3
#: SQLSTATE codes of those aborts: deadlock_detected, serialization_failure. Trying again is
#: safe; anything else (a lost connection, a server shutting down) is not retried.
_RETRIED_SQLSTATES = frozenset({"40P01", "40001"})

#: What pages show for a player whose record gives no name (an mjai seat without one).
UNNAMED = "(no name)"


class Status(StrEnum):
    IMPORTED = "imported"
    DUPLICATE = "duplicate"
    FAILED = "failed"
    #: A file that is no game record, passed over (only imports that ask for it: import_logs).
    SKIPPED = "skipped"


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
        """Outcomes by status; ``skipped`` only when some file was (uploads skip none)."""
        counted = Counter(outcome.status.value for outcome in self.outcomes)
        return {
            status.value: counted[status.value]
            for status in Status
            if status is not Status.SKIPPED or counted[status.value]
        }


#: Games verified together where tasks run in-process (:class:`VerificationQueue`): large enough
#: that a batch's writes cost little per game, small enough that an import's progress moves.
VERIFY_BATCH = 50
#: Tries of a batch's verification in this process (Celery eager) when the database refuses
#: its transaction, before its games are left pending.
EAGER_VERIFY_TRIES = 3


class VerificationQueue:
    """Queues each new game's verification once the game is committed, for one import.

    With a broker, each game is a task of its own as soon as it is committed. Where tasks run
    in-process (Celery eager, the default setup), a queue opened for a bulk import
    (``batch=True``) verifies its committed games :data:`VERIFY_BATCH` at a time, and the rest
    when the import ends (:meth:`close`): one transaction writes a batch's verdicts and facts,
    and each game is replayed from the record the import read (:mod:`mjlogs.record_cache`)
    instead of its stored document, or not at all when a worker that read it replayed it
    ahead (:meth:`replay_ahead`). A game committed after :meth:`close` (an outer transaction
    the import ran in) is verified at once.

    When the broker cannot be reached, the game stays stored with its verdict pending (logged,
    with the command that queues it later) and the rest of this import does not wait on the
    broker again: a broker that does not answer costs each attempt seconds of retries, and an
    upload of many games must not wait that long for each of them.
    """

    def __init__(self, *, batch: bool = False) -> None:
        #: Games committed whose verification could not be queued.
        self.left_pending: list[int] = []
        self._broker_error: str | None = None
        self._batch = batch
        self._held: list[int] = []

    def after_commit(self, game_id: int, stored: StoredRecord | None = None) -> None:
        """Verify this game once the current transaction commits; ``stored`` is the record
        the import has in memory, used if the verification runs in this process."""
        transaction.on_commit(lambda: self._committed(game_id, stored))

    @staticmethod
    def _verified_here() -> bool:
        """Whether verifications run in this process (Celery eager), not on a worker. Read
        from the setting the Celery app reads, without importing Celery (config/__init__.py)."""
        return bool(settings.CELERY_TASK_ALWAYS_EAGER)

    def replay_ahead(self) -> ReplayAhead | None:
        """The replay an import's reader may make ahead of storing, for the verifications this
        queue runs in this process (Celery eager); ``None`` where a worker verifies."""
        if not self._verified_here():
            return None
        from replay.services import replayed

        return replayed

    def close(self) -> None:
        """Verify the games held back for a batch; later ones are verified one by one."""
        self._batch = False
        self._verify_held()

    def close_after_error(self) -> None:
        """:meth:`close` for an import that failed: the games it committed are still verified
        if the database lets us; if not, they stay pending (logged), for ``reverify --pending``."""
        try:
            self.close()
        except Exception:
            logger.exception(
                "Games committed before the import failed could not be verified; "
                "`manage.py reverify --pending` verifies them."
            )

    def _committed(self, game_id: int, stored: StoredRecord | None) -> None:
        if not self._verified_here():
            self._queue(game_id)
            return
        if stored is not None:
            record_cache.remember(game_id, stored)
        self._held.append(game_id)
        if not self._batch or len(self._held) >= VERIFY_BATCH:
            self._verify_held()

    def _verify_held(self) -> None:
        held, self._held = self._held, []
        if not held:
            return
        from celery.exceptions import Retry

        from replay.tasks import verify_games

        for attempt in range(1, EAGER_VERIFY_TRIES + 1):
            try:
                verify_games.delay(held)  # eager: runs here, now
                return
            except Retry:
                # The database refused the verdicts' transaction (a deadlock, a lost
                # connection), which a worker would try again later: the games are stored,
                # so the upload must not fail for it. Tried again here; the last failure
                # leaves them pending, for `manage.py reverify --pending`.
                if attempt == EAGER_VERIFY_TRIES:
                    logger.exception(
                        "Verifying games %s failed %d times; they stay pending "
                        "(`manage.py reverify --pending` verifies them)",
                        held,
                        attempt,
                    )

    def _queue(self, game_id: int) -> None:
        from kombu.exceptions import OperationalError as BrokerUnreachable

        from replay.tasks import verify_game

        if self._broker_error is None:
            try:
                verify_game.delay(game_id)
                return
            except BrokerUnreachable as error:
                self._broker_error = str(error)
                logger.warning(
                    "The task broker cannot be reached (%s): game %d and the games after it in "
                    "this import are stored with their verification pending; once the broker "
                    "is back, `manage.py reverify --pending` queues them.",
                    error,
                    game_id,
                )
        self.left_pending.append(game_id)

    def log_left_pending(self) -> None:
        """Log how many games of the import were left pending, if any."""
        if self.left_pending:
            logger.warning(
                "%d games stored with their verification pending (broker unreachable: %s); "
                "run `manage.py reverify --pending` once the broker is back.",
                len(self.left_pending),
                self._broker_error,
            )


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
    """The game's identity (:func:`mjlogs.identity.identity_hash`): what was played, not the
    file or the format it came in, so the same game in two formats has one hash."""
    return identity_hash(canonical.game_to_json(game))


def import_files(
    files: Iterable[UploadedFile],
    *,
    uploader: AbstractBaseUser | None = None,
    visibility: str = Visibility.PUBLIC,
    limits: Limits = DEFAULT_LIMITS,
    progress: Callable[[Outcome], None] | None = None,
    verifications: VerificationQueue | None = None,
    skip_non_records: bool = False,
    study_after: bool = True,
    jobs: int = 1,
) -> ImportSummary:
    """Import uploaded files (archives are opened) and return every outcome. Each game is
    committed on its own (see :func:`upload_import` for all or nothing).

    ``jobs`` over 1 reads the files in that many worker processes
    (:class:`mjlogs.reading.PooledFileReader`), ahead of this process, which stores them; the
    verifications that run in this process (Celery eager) are then replayed there too. The
    outcomes are the same, in the same order.

    ``progress`` is called after each outcome (a progress bar, a streamed response). With
    ``skip_non_records`` (a folder of logs, ``import_logs``), an archive's member that is no game
    record in any known format is ``skipped`` instead of ``failed``, as is a file marked
    :attr:`~mjlogs.archives.UploadedFile.skipped` (:func:`local_file`).

    Without ``study_after``, an in-process import (Celery eager) leaves the study aids' counts
    of its games (about 40 ms a game) to ``manage.py study_games`` instead of running their
    pass of about a second at its end; a worker counts them as always.
    """
    own_queue = verifications is None
    queue = VerificationQueue(batch=True) if verifications is None else verifications
    _check_visibility(visibility)
    reader: FileReader = FileReader()
    if jobs > 1 and can_fork():
        replay_ahead = queue.replay_ahead()
        reader = PooledFileReader(
            jobs,
            replay_ahead=replay_ahead,
            before_fork=_close_connections_to_fork,
            stored=None if replay_ahead is None else _stored_digests(uploader),
            after_fork=_import_task_modules,
        )
    with _statistics_once_after(study=study_after):
        try:
            summary = _import(
                files, uploader, visibility, limits, progress, queue, skip_non_records, reader
            )
        except BaseException:
            if own_queue:
                queue.close_after_error()
            raise
        finally:
            reader.close()
        if own_queue:
            queue.close()
    if own_queue:
        queue.log_left_pending()
    return summary


#: Stored games beyond which an import's workers replay every game ahead, duplicates too,
#: rather than load the hashes of all of them first (about 14 MB and a few tenths of a second).
STORED_DIGESTS_LIMIT = 200_000


def _stored_digests(uploader: AbstractBaseUser | None) -> StoredDigests | None:
    """The games an import by ``uploader`` would find as duplicates, for its workers to skip
    their replays (:class:`~mjlogs.reading.StoredDigests`); ``None`` beyond
    :data:`STORED_DIGESTS_LIMIT` of them."""
    copies = Game.objects.filter(_copies_seen_by(uploader))
    if copies.values("pk")[: STORED_DIGESTS_LIMIT + 1].count() > STORED_DIGESTS_LIMIT:
        return None  # (counted no further than the limit: a large table is not counted whole)
    return StoredDigests(copies.values_list("content_hash", flat=True).iterator(chunk_size=5000))


def _close_connections_to_fork() -> None:
    """Before worker processes are forked: none must hold this process's database connections
    (a worker left behind would keep the server's session open). Django reconnects when next
    asked. Not inside a transaction, which must not be cut: its connection stays."""
    if not transaction.get_connection().in_atomic_block:
        connections.close_all()


def _import_task_modules() -> None:
    """Once an import's workers are forked: Celery and the tasks the storing queues, imported
    while the workers read their first files, not before the fork (about a tenth of a second
    of the import's start, config/__init__.py). The workers queue no task."""
    import replay.tasks  # noqa: F401
    import stats.tasks  # noqa: F401


def upload_import(
    files: Iterable[UploadedFile],
    *,
    uploader: AbstractBaseUser | None = None,
    visibility: str = Visibility.PUBLIC,
    limits: Limits = DEFAULT_LIMITS,
    modifiers: Sequence[str] = (),
) -> ImportSummary:
    """Import one upload (a request of the site or the API) all or nothing: its games are
    stored in one transaction, so a database that goes away in the middle leaves none of them
    (and no player, seat or verdict of theirs), and sending the upload again stores it all.
    Files that cannot be read still fail alone, as with :func:`import_files`. ``modifiers``
    are the rule modifiers the uploader says the games were played with (see
    :func:`import_file`).

    Two uploads sharing games or new players can each wait on a row the other inserted;
    PostgreSQL then aborts one of them, which is tried again (:data:`UPLOAD_ATTEMPTS`).

    :raises OperationalError: the database is unreachable, or went away during the upload.
    """
    files = list(files)
    _check_visibility(visibility)
    with _statistics_once_after():
        return _upload_import(files, uploader, visibility, limits, tuple(modifiers))


def _upload_import(
    files: list[UploadedFile],
    uploader: AbstractBaseUser | None,
    visibility: str,
    limits: Limits,
    modifiers: tuple[str, ...] = (),
) -> ImportSummary:
    attempt = 1
    while True:
        queue = VerificationQueue(batch=True)
        try:
            with transaction.atomic():
                summary = _import(
                    files, uploader, visibility, limits, None, queue, reader=FileReader(modifiers)
                )
        except OperationalError as error:
            sqlstate = getattr(error.__cause__, "sqlstate", None)
            if attempt == UPLOAD_ATTEMPTS or sqlstate not in _RETRIED_SQLSTATES:
                raise
            logger.info("Upload aborted by the database (SQLSTATE %s); trying again", sqlstate)
            attempt += 1
            continue
        queue.close()
        queue.log_left_pending()
        return summary


def _import(
    files: Iterable[UploadedFile],
    uploader: AbstractBaseUser | None,
    visibility: str,
    limits: Limits,
    progress: Callable[[Outcome], None] | None,
    verifications: VerificationQueue,
    skip_non_records: bool = False,
    reader: FileReader | None = None,
) -> ImportSummary:
    summary = ImportSummary()
    outcomes = _BatchedOutcomes(summary, progress, PlayerCache(), verifications)
    reader = FileReader() if reader is None else reader
    origin = _OriginOf(uploader, visibility)
    # Files read ahead (by a pooled reader) wait here, in order, for their turn to be stored.
    reading: deque[Outcome | Callable[[], ReadFile | ReadFailure]] = deque()
    for item in _to_read(files, limits, skip_non_records, reader):
        reading.append(item)
        while reading and reader.full(len(reading)):
            outcomes.add_read(reading.popleft(), origin)
    while reading:
        outcomes.add_read(reading.popleft(), origin)
    outcomes.flush()
    return summary


def _check_visibility(visibility: str) -> None:
    if visibility not in Visibility.values:
        raise ValueError(f"visibility must be one of {', '.join(Visibility.values)}")


@dataclass(frozen=True)
class _OriginOf:
    """Who uploads an import's files, and who may see them."""

    uploader: AbstractBaseUser | None
    visibility: str

    def __call__(self, read: ReadFile) -> Origin:
        return Origin(
            raw=read.raw,
            raw_name=read.name[: FILE_NAME_COLUMN.size],
            raw_size=read.raw_size,
            source_format=read.source_format,
            uploader=self.uploader,
            visibility=self.visibility,
        )


def _to_read(
    files: Iterable[UploadedFile],
    limits: Limits,
    skip_non_records: bool,
    reader: FileReader,
) -> Iterator[Outcome | Callable[[], ReadFile | ReadFailure]]:
    """Each file's outcome if it is not to be read, or its reading, handed to ``reader``; in
    the order of the files (an archive's members in the archive's order)."""
    seen = 0
    for upload in files:
        if upload.skipped is not None:
            yield Outcome(upload.name, Status.SKIPPED, error=upload.skipped)
            continue
        # A file refused before it was read (too large) has nothing to expand.
        members = [upload] if upload.problem is not None else None
        # One member at a time: an archive's files together may hold hundreds of megabytes.
        for member in members or _members(upload, limits):
            if isinstance(member, Outcome):
                yield member
                continue
            seen += 1
            if seen > limits.max_files:
                error = f"more than {limits.max_files:,} files in one import; the rest were skipped"
                yield Outcome(member.name, Status.FAILED, error=error)
                return
            if member.problem is not None:
                yield Outcome(member.name, Status.FAILED, error=member.problem)
                continue
            if skip_non_records and not _may_be_record(member.data):
                yield Outcome(member.name, Status.SKIPPED, error=NOT_A_RECORD)
                continue
            yield reader.submit(member.name, member.data)


#: Games of an import stored together (:func:`games_store`): one look-up for duplicates, one
#: for players, a few INSERTs and one commit, instead of about ten statements and a commit for
#: each game and five for each new player.
STORE_BATCH = 50


@dataclass(frozen=True)
class _ReadFile:
    """A file's games, read, waiting to be stored, and where they came from."""

    read: ReadFile
    origin: Origin


class _BatchedOutcomes:
    """An import's outcomes, in the order of its files, with the games of the files read stored
    :data:`STORE_BATCH` at a time: an outcome after a file waiting for its batch waits with it,
    so that the summary (and ``progress``) keep the files' order."""

    def __init__(
        self,
        summary: ImportSummary,
        progress: Callable[[Outcome], None] | None,
        players: PlayerCache,
        verifications: VerificationQueue,
    ) -> None:
        self._summary = summary
        self._progress = progress
        self._players = players
        self._verifications = verifications
        self._waiting: list[Outcome | _ReadFile] = []
        self._games = 0

    def add(self, outcome: Outcome) -> None:
        if self._waiting:
            self._waiting.append(outcome)
        else:
            _add(self._summary, outcome, self._progress)

    def add_read(
        self,
        item: Outcome | Callable[[], ReadFile | ReadFailure],
        origin: Callable[[ReadFile], Origin],
    ) -> None:
        """Add an outcome, or a file's reading once done (its failure, or its games)."""
        if isinstance(item, Outcome):
            self.add(item)
            return
        read = item()
        if isinstance(read, ReadFailure):
            self.add(_failure(read))
            return
        self._waiting.append(_ReadFile(read, origin(read)))
        self._games += len(read.games)
        if self._games >= STORE_BATCH:
            self.flush()

    def flush(self) -> None:
        """Store the games waiting, and give every outcome waiting, in order."""
        waiting, self._waiting, self._games = self._waiting, [], 0
        files = [item for item in waiting if isinstance(item, _ReadFile)]
        batch = [(game, item.origin) for item in files for game in item.read.games]
        stored = iter(
            games_store(batch, verifications=self._verifications, players=self._players)
            if batch
            else []
        )
        for item in waiting:
            if isinstance(item, Outcome):
                _add(self._summary, item, self._progress)
                continue
            read = item.read
            for index in range(len(read.games)):
                game_id, created = next(stored)
                status = Status.IMPORTED if created else Status.DUPLICATE
                outcome = Outcome(
                    read.name, status, index, game_id, source_format=read.source_format
                )
                _add(self._summary, outcome, self._progress)


def _may_be_record(data: bytes) -> bool:
    """Whether the bytes' start is a game record in a known format (gzip or not); gzip data too
    corrupt to tell counts as one, so that reading it says what is wrong."""
    try:
        return sniff_head(content_head(io.BytesIO(data))) is not None
    except EngineError:
        return True


def local_file(path: Path, limits: Limits, max_archive_bytes: int) -> UploadedFile:
    """A file on disk as an upload (``import_logs``), told by its content, whatever its name:
    a zip or tar archive, a game record in a known format (gzip or not), or else one that is
    skipped (:attr:`UploadedFile.skipped`). Only the file's start is read to tell which, so a
    large file that is neither costs one small read. A record larger than one game file may be
    (``limits.max_file_bytes``) and an archive larger than one upload (``max_archive_bytes``,
    the ``MJLOGS_MAX_UPLOAD_BYTES`` setting) fail unread (:attr:`UploadedFile.problem`)."""
    name = str(path)
    try:
        size = path.stat().st_size
        with path.open("rb") as stream:
            start = stream.read(SNIFF_BYTES)
        if is_archive(start):
            if size > max_archive_bytes:
                return UploadedFile(name, b"", problem=_over(name, size, max_archive_bytes, True))
            return UploadedFile(name, path.read_bytes())
        try:
            is_record = sniff_file(path) is not None
        except EngineError:  # gzip data corrupt from its start: reading it will say so
            is_record = True
        if not is_record:
            return UploadedFile(name, b"", skipped=NOT_A_RECORD)
        if size > limits.max_file_bytes:
            return UploadedFile(name, b"", problem=_over(name, size, limits.max_file_bytes, False))
        return UploadedFile(name, path.read_bytes())
    except OSError as error:
        return UploadedFile(name, b"", problem=f"{name} cannot be read ({error})")


def _over(name: str, size: int, limit: int, archive: bool) -> str:
    what = "an archive (one upload, MJLOGS_MAX_UPLOAD_BYTES)" if archive else "one game file"
    return f"{name} is {size:,} bytes; the limit for {what} is {limit:,}; not read"


def _members(upload: UploadedFile, limits: Limits) -> Iterator[UploadedFile | Outcome]:
    """The files of one upload, read one by one. An archive over a limit is one failure before
    any of its files is read; one found corrupt part-way ends with a failure for the archive
    after the files read before it."""
    try:
        yield from expand(upload.name, upload.data, limits)
    except ArchiveError as error:
        yield Outcome(upload.name, Status.FAILED, error=str(error))


def _failure(read: ReadFailure) -> Outcome:
    return Outcome(read.name, Status.FAILED, error=read.error, source_format=read.source_format)


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
    verifications: VerificationQueue | None = None,
    players: PlayerCache | None = None,
    modifiers: Sequence[str] = (),
) -> list[Outcome]:
    """Import the games of one file: one outcome per game, or one failure for the file.
    ``players`` carries the players already found across the files of one import.

    ``modifiers`` (an upload's choice) are rule modifiers the games were played with: each game
    whose record states none gets them in its ``rule_overrides``
    (:func:`engine.families.with_modifiers`), so that it is judged under them; a record stating
    others, or a game whose family or rule set cannot apply them, fails the file, naming them."""
    _check_visibility(visibility)
    read = read_file(name, data, modifiers)
    if isinstance(read, ReadFailure):
        return [_failure(read)]
    origin = _OriginOf(uploader, visibility)(read)
    queue = VerificationQueue() if verifications is None else verifications
    outcomes = []
    for index, game in enumerate(read.games):
        stored, created = game_store(game, origin, verifications=queue, players=players)
        status = Status.IMPORTED if created else Status.DUPLICATE
        outcomes.append(Outcome(name, status, index, stored.pk, source_format=read.source_format))
    return outcomes


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


def _stored_ids(digests: Sequence[str], uploader: AbstractBaseUser | None) -> dict[str, int]:
    """By record identity, the id of the stored record an upload by ``uploader`` is a duplicate
    of, in one query."""
    same = Game.objects.filter(_copies_seen_by(uploader), content_hash__in=digests)
    found: dict[str, int] = {}
    rows = same.values_list("content_hash", "visibility", "pk")
    # Public copies first, then the lowest id.
    for digest, _, pk in sorted(rows, key=lambda row: (row[1] != Visibility.PUBLIC, row[2])):
        found.setdefault(digest, pk)
    return found


def _stored_copies(
    plays: Iterable[str], uploader: AbstractBaseUser | None
) -> dict[str, list[dict[str, Any]]]:
    """By play identity, the stored copies of these games an upload by ``uploader`` may see
    (``pk``, ``visibility``, ``copy_of_id``, ``document``): the counted ones first, public
    first, then by id. One query; nothing read for a game stored nowhere."""
    wanted = {play for play in plays if play}
    if not wanted:
        return {}
    rows = Game.objects.filter(_copies_seen_by(uploader), play_hash__in=wanted).values(
        "pk", "play_hash", "visibility", "copy_of_id", "document"
    )
    found: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(
        rows,
        key=lambda row: (row["copy_of_id"] is not None, row["visibility"] != Visibility.PUBLIC,
                         row["pk"]),
    ):  # fmt: skip
        found.setdefault(row["play_hash"], []).append(row)
    return found


def _copies_seen_by(uploader: AbstractBaseUser | None) -> Q:
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


def game_delete(*, user: AbstractBaseUser | AnonymousUser, game: Game) -> None:
    """Delete a game (its seats and verdict go with it; its players stay). Deleting the copy of
    a game that counts makes another of its copies count (``mjlogs.copies``).

    :raises PermissionDenied: the user is neither the uploader nor staff.
    """
    _check_can_manage(user, game)
    with transaction.atomic():
        copies_regroup([game.play_hash], leaving=game.pk)
        _queue_stats_update(game)
        game.delete()


class VisibilityConflict(ValueError):
    """The game cannot take that visibility: another copy of it already has it."""


def game_visibility_set(
    *, user: AbstractBaseUser | AnonymousUser, game: Game, visibility: str
) -> Game:
    """Make a game public or private. Which of its game's copies counts is chosen again, in the
    scope it leaves and in the one it joins (``mjlogs.copies``).

    :raises PermissionDenied: the user is neither the uploader nor staff.
    :raises VisibilityConflict: the same game is already public (making it public), or already
        among its uploader's private games (making it private); the message names that copy
        when the user may see it.
    :raises ValueError: an unknown visibility.
    """
    _check_can_manage(user, game)
    if visibility not in Visibility.values:
        raise ValueError(f"visibility must be one of {', '.join(Visibility.values)}")
    if visibility == game.visibility:
        return game
    try:
        with transaction.atomic():
            # Out of its copies' choice first, so that it joins the other scope as a copy.
            copies_regroup([game.play_hash], leaving=game.pk)
            Game.objects.filter(pk=game.pk).update(visibility=visibility)
            copies_regroup([game.play_hash])
            _queue_stats_update(game)
    except IntegrityError:
        raise VisibilityConflict(_conflict_message(game, visibility)) from None
    game.visibility = visibility
    return game


def _conflict_message(game: Game, visibility: str) -> str:
    # The copy in the way is public, or private to this game's own uploader: either way one
    # that whoever may manage this game may see.
    copies = Game.objects.filter(content_hash=game.content_hash, visibility=visibility)
    if visibility == Visibility.PRIVATE:
        copies = copies.filter(uploader=game.uploader)
    copy = copies.exclude(pk=game.pk).order_by("pk").first()
    where = "public" if visibility == Visibility.PUBLIC else "among its uploader's private games"
    named = f" (game {copy.pk})" if copy is not None else ""
    return f"the same game is already {where}{named}; delete this copy instead"


def _statistics_once_after(*, study: bool = True) -> AbstractContextManager[None]:
    """Statistics brought up to date once when the import ends, not after each of its games
    (``stats.catch_up.catch_up_once_after``: it matters when tasks run in-process); without
    ``study``, the study aids' in-process pass is left to ``manage.py study_games``."""
    from stats.catch_up import STUDY_CATCH_UP, catch_up_once_after  # stats depends on this app

    return catch_up_once_after(leave=() if study else (STUDY_CATCH_UP,))


def _queue_stats_update(game: Game) -> None:
    # Summaries and ratings count public games only: who sees a game changes them.
    from stats.tasks import game_stats_queue_update  # stats depends on this app

    game_stats_queue_update(game)


def _check_can_manage(user: AbstractBaseUser | AnonymousUser, game: Game) -> None:
    if not user_can_manage_game(user, game):
        raise PermissionDenied("only the game's uploader or staff may change or delete it")
