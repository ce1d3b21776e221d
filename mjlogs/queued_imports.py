"""Bulk imports the workers do: the files wait in the database, a batch a task, and each
worker reads, stores and verifies its batch's games in one pass.

An import in one process (:func:`mjlogs.importing.import_files`, ``manage.py import_logs``)
reads and stores every game there, and a worker then decodes each stored document again to
verify it. Queued (``manage.py import_logs --on-workers``), the upload only stores the files
(:func:`queued_import_create`: a transaction and a task a batch of :data:`BATCH_FILES`), and
the worker that takes a batch imports it as ``import_files`` does, then verifies each new game
from the record it has just read, its study aids counted in the same replay
(:func:`queued_batch_import`). Every worker imports; no game is decoded twice; no
verification task goes through the broker (docs/deploy.md, "The production path").

A batch's files are deleted, and its outcomes added to its :class:`QueuedImport`, in one
transaction once its games are stored: a task run twice finds no file and does nothing. A
worker lost in the middle of a batch (its task is delivered again: ``acks_late``) imports the
batch again, finds the games it had stored as duplicates, and verifies those of them it had
not verified yet.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import suppress

from django.contrib.auth.models import User
from django.db import DatabaseError, transaction
from django.db.models import F
from django.utils import timezone

from config import compression
from engine.gc_settings import collector_paused
from mjlogs import pipeline
from mjlogs.archives import ArchiveError, UploadedFile, expand, is_archive
from mjlogs.importing import DEFAULT_LIMITS, Outcome, Status, import_files
from mjlogs.models import Game, QueuedFile, QueuedImport, Visibility
from mjlogs.storing import check_visibility

logger = logging.getLogger(__name__)

#: Files a task imports: its games are verified in batches of this size too
#: (``mjlogs.verification_queue.VERIFY_BATCH``), and at about 10 ms a game a task takes half a
#: second, so that two workers share an import's end evenly.
BATCH_FILES = 50
#: Bytes of files past which a batch is closed early, so that a task holds a bounded amount
#: in memory (50 files of up to 32 MB each otherwise).
BATCH_BYTES = 16 * 1024 * 1024
#: Failed or skipped files named in a queued import's ``problems`` (the counts are whole).
PROBLEMS_KEPT = 1000
#: What a file left queued says when its batch could not be handed to a worker.
BROKER_LOST = "the task broker could not be reached: this file was not imported; upload it again"
#: ... and when the database failed while it was being queued.
DATABASE_LOST = (
    "the database failed while this file was queued: it was not imported; upload it again"
)


class QueueUnavailable(Exception):
    """The task broker cannot be reached: nothing of the import was queued."""


def queued_import_create(
    files: Iterable[UploadedFile],
    *,
    uploader: User | None = None,
    visibility: str = Visibility.PUBLIC,
    skip_non_records: bool = False,
    modifiers: Sequence[str] = (),
    batch_files: int = BATCH_FILES,
) -> QueuedImport:
    """Queue ``files`` for the workers to import (an archive's members each as a file of its
    own), a task for each ``batch_files`` of them, each queued once its files are committed (a
    batch is closed early once its files reach :data:`BATCH_BYTES`); returns the queued
    import, whose counts the workers fill in (``finished_at`` is set with the last batch's).

    Where tasks run in this process (Celery eager), each batch is imported here as it is
    queued. If the broker cannot be reached for the first batch, nothing is kept and
    :class:`QueueUnavailable` is raised; for a later one, the files not yet queued are counted
    failed (:data:`BROKER_LOST`) and the batches already queued go on.

    :raises QueueUnavailable: the broker cannot be reached.
    """
    check_visibility(visibility)
    queued = QueuedImport.objects.create(
        uploader=uploader,
        visibility=visibility,
        skip_non_records=skip_non_records,
        modifiers=list(modifiers),
    )
    batch: list[UploadedFile] = []
    batch_bytes = 0
    files = _one_by_one(files)
    try:
        for file in files:
            batch.append(file)
            batch_bytes += len(file.data)
            if len(batch) == batch_files or batch_bytes >= BATCH_BYTES:
                _batch_queue(queued, batch)
                batch, batch_bytes = [], 0
        if batch:
            _batch_queue(queued, batch)
    except (QueueUnavailable, DatabaseError) as error:
        if not queued.batches:
            with suppress(DatabaseError):  # (the database may be what failed)
                queued.delete()
            raise
        # Some batches are queued, and their workers import them: the rest is counted failed
        # and the import finishes with them (if the database lets it record that: else the
        # error goes up, and the page or command says the database failed).
        lost = [file.name for file in batch] + [file.name for file in files]
        reason = BROKER_LOST if isinstance(error, QueueUnavailable) else DATABASE_LOST
        logger.warning("Queued import %s: %d files not queued (%s)", queued.pk, len(lost), error)
        _lost_record(queued.pk, lost, reason)
    _all_queued(queued.pk)
    queued.refresh_from_db()
    return queued


def _one_by_one(files: Iterable[UploadedFile]) -> Iterator[UploadedFile]:
    """The files to queue, an archive's members each as a file of its own, so that the
    workers share a large archive. An archive that cannot be opened, or breaks part-way, is
    queued as a file that fails with the reason, after the members read before it: the
    outcomes an import of the archive gives (:func:`mjlogs.importing.import_files`)."""
    for file in files:
        if file.problem is not None or file.skipped is not None or not is_archive(file.data):
            yield file
            continue
        try:
            yield from expand(file.name, file.data, DEFAULT_LIMITS)
        except ArchiveError as error:
            yield UploadedFile(file.name, b"", problem=str(error))


def _batch_queue(queued: QueuedImport, files: Sequence[UploadedFile]) -> None:
    from kombu.exceptions import OperationalError as BrokerUnreachable

    from mjlogs.tasks import import_queued_batch

    number = queued.batches
    with transaction.atomic():
        QueuedFile.objects.bulk_create(
            QueuedFile(
                queued_import=queued,
                batch=number,
                name=file.name,
                # (Zstandard: an eighth of a canonical record's size for 0.06 ms)
                data=compression.compress(file.data),
                skipped=file.skipped or "",
                problem=file.problem or "",
            )
            for file in files
        )
        QueuedImport.objects.filter(pk=queued.pk).update(
            files=F("files") + len(files), batches=F("batches") + 1
        )
    queued.batches += 1
    try:
        import_queued_batch.delay(queued.pk, number)
    except BrokerUnreachable as error:
        with transaction.atomic():
            QueuedFile.objects.filter(queued_import=queued, batch=number).delete()
            QueuedImport.objects.filter(pk=queued.pk).update(
                files=F("files") - len(files), batches=F("batches") - 1
            )
        queued.batches -= 1
        raise QueueUnavailable(f"the task broker cannot be reached: {error}") from error


@collector_paused()  # (a batch's games are all alive until it ends: engine.gc_settings)
def queued_batch_import(queued_import_id: int, batch: int) -> int | None:
    """Import one batch of a queued import here, its games verified here too; returns how
    many files it held (``None``: none left, the batch is done or its import is gone)."""
    queued = QueuedImport.objects.select_related("uploader").filter(pk=queued_import_id).first()
    if queued is None:
        return None
    rows = list(
        QueuedFile.objects.filter(queued_import=queued, batch=batch)
        .order_by("pk")
        .values_list("pk", "name", "data", "skipped", "problem")
    )
    if not rows:
        return None
    files = [
        UploadedFile(name, compression.decompress(data), problem or None, skipped or None)
        for _, name, data, skipped, problem in rows
    ]
    summary = import_files(
        files,
        uploader=queued.uploader,
        visibility=queued.visibility,
        skip_non_records=queued.skip_non_records,
        verify_here=True,
        modifiers=queued.modifiers,
    )
    _verify_found_unverified(summary.outcomes)
    verdicts = pipeline.verification().verdict_counts(
        outcome.game_id for outcome in summary.outcomes if outcome.game_id
    )
    with transaction.atomic():
        deleted, _ = QueuedFile.objects.filter(pk__in=[row[0] for row in rows]).delete()
        if deleted != len(rows):
            # Another run of this task counted the batch meanwhile (a task delivered twice):
            # the games it found again are duplicates of its, and counted there.
            transaction.set_rollback(True)
            return None
        _outcomes_record(queued.pk, len(rows), summary.outcomes, verdicts)
    return len(rows)


def _verify_found_unverified(outcomes: Sequence[Outcome]) -> None:
    """Verify here the games found already stored that have no verdict: a run of this batch
    that died between storing them and verifying them left them so, and this run finds them
    as duplicates, whose verification no import queues."""
    found = [o.game_id for o in outcomes if o.status is Status.DUPLICATE and o.game_id]
    if not found:
        return
    unverified = list(
        Game.objects.filter(pk__in=found, verification__isnull=True).values_list("pk", flat=True)
    )
    if not unverified:
        return
    try:
        pipeline.verification().verify_now(unverified)
    except pipeline.TryAgain:
        logger.exception(
            "Games %s stay pending (`manage.py reverify --pending` verifies them)", unverified
        )


def _outcomes_record(
    queued_import_id: int, files: int, outcomes: Sequence[Outcome], verdicts: Mapping[str, int]
) -> None:
    """Add one batch's outcomes, and its games' verdicts, to its queued import (in the
    caller's transaction)."""
    queued = QueuedImport.objects.select_for_update().get(pk=queued_import_id)
    statuses = [outcome.status for outcome in outcomes]
    queued.files_done += files
    queued.batches_done += 1
    queued.imported += statuses.count(Status.IMPORTED)
    queued.duplicates += statuses.count(Status.DUPLICATE)
    queued.failed += statuses.count(Status.FAILED)
    queued.skipped += statuses.count(Status.SKIPPED)
    problems = [
        {"file": outcome.file, "status": outcome.status.value, "error": outcome.error}
        for outcome in outcomes
        if outcome.status in (Status.FAILED, Status.SKIPPED)
    ]
    queued.problems = (queued.problems + problems)[:PROBLEMS_KEPT]
    queued.verdicts = dict(Counter(queued.verdicts) + Counter(verdicts))
    if queued.all_queued and queued.batches_done == queued.batches:
        queued.finished_at = timezone.now()
    queued.save()


def _lost_record(queued_import_id: int, names: Sequence[str], reason: str) -> None:
    """Count the files that could not be queued as failed, for this reason."""
    with transaction.atomic():
        queued = QueuedImport.objects.select_for_update().get(pk=queued_import_id)
        queued.files += len(names)
        queued.files_done += len(names)
        queued.failed += len(names)
        lost = [{"file": name, "status": Status.FAILED.value, "error": reason} for name in names]
        queued.problems = (queued.problems + lost)[:PROBLEMS_KEPT]
        queued.save()


def _all_queued(queued_import_id: int) -> None:
    """Mark every file queued; the import is finished now if every batch is already done."""
    with transaction.atomic():
        queued = QueuedImport.objects.select_for_update().get(pk=queued_import_id)
        queued.all_queued = True
        if queued.batches_done == queued.batches:
            queued.finished_at = timezone.now()
        queued.save()
