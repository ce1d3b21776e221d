"""Importing game records: files, uploads and folders in, one outcome a game or a file out.

Each uploaded file is opened (archives into their members), read by the engine (format sniffed:
``mjlogs.reading``) and its games stored (``mjlogs.storing``); after each game commits, its
verification is queued (``mjlogs.verification_queue``). A file that cannot be read stores nothing
and gives one error naming the problem; the other files of the batch go in. When the broker
cannot be reached the game stays stored with its verdict pending, and ``manage.py reverify
--pending`` queues it later (docs/faults.md).

An upload through the site or the API (:func:`upload_import`) is one transaction: if the
database goes away in the middle, nothing of it is stored, and sending it again stores it all.
A bulk import (:func:`import_files`, ``manage.py import_logs``) commits each batch of games.
"""

from __future__ import annotations

import io
import logging
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import OperationalError, connections, transaction

from engine.errors import EngineError
from engine.formats import (
    NOT_A_RECORD,
    SNIFF_BYTES,
    content_head,
    sniff_file,
    sniff_head,
)
from mjlogs import pipeline
from mjlogs.archives import ArchiveError, Limits, UploadedFile, expand, is_archive
from mjlogs.models import Game, Visibility
from mjlogs.reading import (
    FileReader,
    PooledFileReader,
    ReadFailure,
    ReadFile,
    StoredDigests,
    can_fork,
    read_file,
)
from mjlogs.storable import FILE_NAME_COLUMN
from mjlogs.storing import (
    Origin,
    PlayerCache,
    check_visibility,
    copies_seen_by,
    game_store,
    games_store,
)
from mjlogs.verification_queue import VerificationQueue

logger = logging.getLogger(__name__)


DEFAULT_LIMITS = Limits()


#: How many times an upload is tried when PostgreSQL aborts its transaction to resolve a
#: deadlock or a serialization failure with a concurrent upload of the same games or players.
UPLOAD_ATTEMPTS = 3
#: SQLSTATE codes of those aborts: deadlock_detected, serialization_failure. Trying again is
#: safe; anything else (a lost connection, a server shutting down) is not retried.
_RETRIED_SQLSTATES = frozenset({"40P01", "40001"})


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


def import_files(
    files: Iterable[UploadedFile],
    *,
    uploader: User | None = None,
    visibility: str = Visibility.PUBLIC,
    limits: Limits = DEFAULT_LIMITS,
    progress: Callable[[Outcome], None] | None = None,
    verifications: VerificationQueue | None = None,
    skip_non_records: bool = False,
    study_after: bool = True,
    jobs: int = 1,
    verify_here: bool = False,
    modifiers: Sequence[str] = (),
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

    With ``verify_here`` (an import a worker runs: :mod:`mjlogs.queued_imports`), the games
    are verified in this process from the records just read, not queued for a worker.
    ``modifiers``: the rule modifiers the games were played with, as :func:`import_file`'s.
    """
    own_queue = verifications is None
    queue = verifications or VerificationQueue(batch=True, here=verify_here)
    check_visibility(visibility)
    reader: FileReader = FileReader(modifiers)
    if jobs > 1 and can_fork():
        replay_ahead = queue.replay_ahead()
        reader = PooledFileReader(
            jobs,
            modifiers=modifiers,
            replay_ahead=replay_ahead,
            before_fork=_close_connections_to_fork,
            stored=None if replay_ahead is None else _stored_digests(uploader),
            after_fork=_import_task_modules,
        )
    with _statistics_once_after(study=study_after):
        try:
            request = ImportRequest(
                uploader, visibility, limits, queue, reader, progress, skip_non_records
            )
            summary = _import(files, request)
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


def _stored_digests(uploader: User | None) -> StoredDigests | None:
    """The games an import by ``uploader`` would find as duplicates, for its workers to skip
    their replays (:class:`~mjlogs.reading.StoredDigests`); ``None`` beyond
    :data:`STORED_DIGESTS_LIMIT` of them."""
    copies = Game.objects.filter(copies_seen_by(uploader))
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
    pipeline.verification().load()
    pipeline.statistics().load()


def upload_import(
    files: Iterable[UploadedFile],
    *,
    uploader: User | None = None,
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
    check_visibility(visibility)
    with _statistics_once_after():
        return _upload_import(files, uploader, visibility, limits, tuple(modifiers))


def _upload_import(
    files: list[UploadedFile],
    uploader: User | None,
    visibility: str,
    limits: Limits,
    modifiers: tuple[str, ...] = (),
) -> ImportSummary:
    attempt = 1
    while True:
        queue = VerificationQueue(batch=True)
        try:
            with transaction.atomic():
                request = ImportRequest(uploader, visibility, limits, queue, FileReader(modifiers))
                summary = _import(files, request)
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


@dataclass(frozen=True)
class ImportRequest:
    """How one import's files are taken in: whose they are, within which limits, who reads
    them and who verifies what is stored."""

    uploader: User | None
    visibility: str
    limits: Limits
    verifications: VerificationQueue
    reader: FileReader
    #: Called after each outcome (a progress bar, a streamed response).
    progress: Callable[[Outcome], None] | None = None
    #: An archive's member (or a folder's file) that is no game record is ``skipped``, not
    #: ``failed`` (``import_logs``).
    skip_non_records: bool = False


def _import(files: Iterable[UploadedFile], request: ImportRequest) -> ImportSummary:
    summary = ImportSummary()
    outcomes = _BatchedOutcomes(summary, request.progress, PlayerCache(), request.verifications)
    reader = request.reader
    origin = _OriginOf(request.uploader, request.visibility)
    # Files read ahead (by a pooled reader) wait here, in order, for their turn to be stored.
    reading: deque[Outcome | Callable[[], ReadFile | ReadFailure]] = deque()
    for item in _to_read(files, request.limits, request.skip_non_records, reader):
        reading.append(item)
        while reading and reader.full(len(reading)):
            outcomes.add_read(reading.popleft(), origin)
    while reading:
        outcomes.add_read(reading.popleft(), origin)
    outcomes.flush()
    return summary


@dataclass(frozen=True)
class _OriginOf:
    """Who uploads an import's files, and who may see them."""

    uploader: User | None
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
    uploader: User | None = None,
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
    check_visibility(visibility)
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


def _statistics_once_after(*, study: bool = True) -> AbstractContextManager[None]:
    """Statistics brought up to date once when the import ends, not after each of its games
    (it matters when tasks run in-process); without ``study``, the study aids' in-process pass
    is left to ``manage.py study_games``."""
    return pipeline.statistics().once_after(study=study)
