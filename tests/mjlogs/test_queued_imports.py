"""Bulk imports the workers do (``mjlogs.queued_imports``): the files queued a batch a task,
each batch imported and verified by the process that runs its task, its outcomes counted on
the queued import; a task run twice does nothing; a broker that cannot be reached keeps
nothing half-queued.

Here the tasks run in this process (Celery eager) or are not run at all and called as a
worker would; tests/integration/test_queued_import_worker.py runs them on a real worker."""

from __future__ import annotations

import gc
import io
import json
import zipfile
from typing import Any

import pytest
from django.db import OperationalError as DatabaseOperationalError
from django.test import override_settings
from kombu.exceptions import OperationalError as BrokerUnreachable

from mjlogs import queued_imports
from mjlogs import tasks as mjlogs_tasks
from mjlogs.archives import UploadedFile
from mjlogs.importing import import_files
from mjlogs.models import Game, QueuedFile, QueuedImport
from mjlogs.queued_imports import (
    BROKER_LOST,
    DATABASE_LOST,
    QueueUnavailable,
    queued_batch_import,
    queued_import_create,
)
from replay import tasks as replay_tasks
from replay.models import Verdict, Verification
from replay.pipeline import ReplayVerification
from stats import catch_up
from stats.models import RoundFact
from stats.selectors import study_pending_count
from tests.api.conftest import self_played_document

pytestmark = pytest.mark.django_db(transaction=True)


def game_file(seed: int) -> UploadedFile:
    return UploadedFile(f"game-{seed}.json", json.dumps(self_played_document(seed)).encode())


def test_every_batch_is_imported_verified_and_counted() -> None:
    files = [game_file(seed) for seed in (1, 2, 3)]
    files += [
        game_file(1),  # the same record again: a duplicate
        UploadedFile("readme.txt", b"not a game"),
        UploadedFile("broken.mjlog", b"<mjloggm><GO"),
    ]
    queued = queued_import_create(files, skip_non_records=True, batch_files=2)

    assert (queued.files, queued.batches, queued.batches_done) == (6, 3, 3)
    assert queued.files_done == 6 and queued.finished and queued.all_queued
    assert (queued.imported, queued.duplicates, queued.failed, queued.skipped) == (3, 1, 1, 1)
    problems = {problem["file"]: problem["status"] for problem in queued.problems}
    assert problems == {"readme.txt": "skipped", "broken.mjlog": "failed"}
    assert Game.objects.count() == 3
    assert set(Verification.objects.values_list("verdict", flat=True)) == {Verdict.VERIFIED}
    assert Verification.objects.count() == 3
    assert queued.verdicts == {Verdict.VERIFIED: 4}  # the duplicate's game counted too
    assert not QueuedFile.objects.exists()


def test_a_batch_run_twice_is_imported_and_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    queued_tasks: list[tuple[int, int]] = []
    monkeypatch.setattr(
        mjlogs_tasks.import_queued_batch, "delay", lambda *args: queued_tasks.append(args)
    )
    queued = queued_import_create([game_file(4), game_file(5)], batch_files=1)
    assert queued_tasks == [(queued.pk, 0), (queued.pk, 1)] and not queued.finished

    assert queued_batch_import(queued.pk, 0) == 1
    assert queued_batch_import(queued.pk, 0) is None  # delivered again: nothing left
    queued.refresh_from_db()
    assert (queued.imported, queued.duplicates, queued.batches_done) == (1, 0, 1)
    assert not queued.finished

    assert queued_batch_import(queued.pk, 1) == 1
    queued.refresh_from_db()
    assert queued.finished and queued.imported == 2 and Game.objects.count() == 2
    assert queued.verdicts == {Verdict.VERIFIED: 2}  # the second delivery counted nothing


def refuse_after(queued: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The broker takes the first ``queued`` tasks (run here), then cannot be reached."""
    task = mjlogs_tasks.import_queued_batch
    sent = []
    run = task.delay

    def delay(*args: Any) -> Any:
        if len(sent) >= queued:
            raise BrokerUnreachable("Error 111 connecting to 127.0.0.1:6379")
        sent.append(args)
        return run(*args)

    monkeypatch.setattr(task, "delay", delay)


def test_no_broker_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_after(0, monkeypatch)
    with pytest.raises(QueueUnavailable, match="broker cannot be reached"):
        queued_import_create([game_file(6), game_file(7)], batch_files=1)
    assert not QueuedImport.objects.exists()
    assert not QueuedFile.objects.exists()
    assert not Game.objects.exists()


def test_a_broker_lost_midway_counts_the_files_left_failed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    refuse_after(1, monkeypatch)
    queued = queued_import_create([game_file(seed) for seed in (8, 9, 10)], batch_files=1)
    assert queued.finished
    assert (queued.files, queued.imported, queued.failed) == (3, 1, 2)
    assert [problem["file"] for problem in queued.problems] == ["game-9.json", "game-10.json"]
    assert {problem["error"] for problem in queued.problems} == {BROKER_LOST}
    assert Game.objects.count() == 1
    assert not QueuedFile.objects.exists()


def test_a_database_failing_midway_counts_the_files_left_failed_and_finishes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The batches queued before the failure are imported; the import still finishes (its
    page stops waiting), the files not queued named with the reason."""
    queue_batch = queued_imports._batch_queue
    calls = []

    def failing_second(queued: QueuedImport, files: Any) -> None:
        calls.append(len(files))
        if len(calls) == 2:
            raise DatabaseOperationalError("server closed the connection unexpectedly")
        queue_batch(queued, files)

    monkeypatch.setattr(queued_imports, "_batch_queue", failing_second)
    queued = queued_import_create([game_file(seed) for seed in (21, 22, 23)], batch_files=1)
    assert queued.finished and (queued.files, queued.imported, queued.failed) == (3, 1, 2)
    assert [problem["file"] for problem in queued.problems] == ["game-22.json", "game-23.json"]
    assert {problem["error"] for problem in queued.problems} == {DATABASE_LOST}
    assert Game.objects.count() == 1 and not QueuedFile.objects.exists()


def test_a_database_failing_at_once_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(queued: QueuedImport, files: Any) -> None:
        raise DatabaseOperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(queued_imports, "_batch_queue", failing)
    with pytest.raises(DatabaseOperationalError):
        queued_import_create([game_file(24)])
    assert not QueuedImport.objects.exists()


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_on_a_worker_the_batch_is_verified_and_studied_in_its_own_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As a worker runs the task: the games are verified here from the records just read,
    not queued as verification tasks, and their study aids are counted in the same replay,
    not left to the study's catch-up (which counts nothing here)."""
    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", lambda *args: None)
    queued_verifications: list[Any] = []
    monkeypatch.setattr(
        replay_tasks.verify_games, "delay", lambda *args: queued_verifications.append(args)
    )
    monkeypatch.setattr(catch_up, "study_pass", lambda *args: 0)
    queued = queued_import_create([game_file(11), game_file(12)])

    assert queued_batch_import(queued.pk, 0) == 2
    assert queued_verifications == []
    assert Verification.objects.filter(verdict=Verdict.VERIFIED).count() == 2
    assert RoundFact.objects.filter(game__in=Game.objects.all()).exists()
    assert study_pending_count() == 0


def test_a_batch_is_imported_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch's games are all alive from their reading to their verdicts: the cycle collector
    is off through the task's batch (engine.gc_settings.collector_paused), on again after."""
    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", lambda *args: None)
    collecting: list[bool] = []
    real = queued_imports.import_files

    def spy(*args: Any, **kwargs: Any) -> Any:
        collecting.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(queued_imports, "import_files", spy)
    queued = queued_import_create([game_file(21), game_file(22)])
    assert gc.isenabled()

    assert queued_batch_import(queued.pk, 0) == 2
    assert collecting == [False]
    assert gc.isenabled()


def test_a_batch_closes_early_at_its_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    files = [game_file(seed) for seed in (13, 14, 15)]
    monkeypatch.setattr(queued_imports, "BATCH_BYTES", len(files[0].data) + len(files[1].data))
    queued = queued_import_create(files, batch_files=50)
    assert (queued.batches, queued.imported) == (2, 3)  # the first two, then the third


def test_a_batch_run_again_verifies_the_games_its_lost_run_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker lost between storing a batch's games and verifying them: the batch's task,
    delivered again, finds them as duplicates and verifies them."""
    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", lambda *args: None)
    files = [game_file(16), game_file(17)]
    queued = queued_import_create(files)
    with monkeypatch.context() as lost:  # the first run: stored, then the worker was lost
        lost.setattr(ReplayVerification, "verify_now", lambda self, ids: None)
        import_files(files, verify_here=True)
    assert Game.objects.count() == 2 and not Verification.objects.exists()

    assert queued_batch_import(queued.pk, 0) == 2
    queued.refresh_from_db()
    assert (queued.imported, queued.duplicates) == (0, 2)
    assert Verification.objects.filter(verdict=Verdict.VERIFIED).count() == 2
    assert queued.verdicts == {Verdict.VERIFIED: 2}


def test_games_left_unverified_are_counted_pending(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch whose verification could not be made (the database refused it: the games
    wait for `reverify --pending`) says so in its verdicts, beside the batches verified."""
    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", lambda *args: None)
    queued = queued_import_create([game_file(18), game_file(19), game_file(20)], batch_files=2)
    with monkeypatch.context() as refused:
        refused.setattr(ReplayVerification, "verify_now", lambda self, ids: None)
        assert queued_batch_import(queued.pk, 0) == 2
    assert queued_batch_import(queued.pk, 1) == 1
    queued.refresh_from_db()
    assert queued.verdicts == {Verdict.PENDING: 2, Verdict.VERIFIED: 1}


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("skip_non_records", [True, False])
def test_an_archive_is_shared_between_batches_with_its_outcomes_as_imported(
    skip_non_records: bool,
) -> None:
    """An archive's members are queued each as a file, so several tasks share it; what
    becomes of each is what an import of the archive in one process gives."""
    members = {f"logs/{seed}.json": game_file(seed).data for seed in (18, 19, 20)}
    members["logs/notes.txt"] = b"not a game"
    members["logs/inner.zip"] = zip_of({"a.json": game_file(21).data})
    archive = UploadedFile("games.zip", zip_of(members))
    corrupt = UploadedFile("broken.zip", zip_of(members)[:200])

    queued = queued_import_create(
        [archive, corrupt], skip_non_records=skip_non_records, batch_files=2
    )
    assert queued.files == 6 and queued.batches == 3  # five members and the broken archive
    assert queued.imported == 3

    Game.objects.all().delete()  # the same files in one process, for what it says of each
    alone = import_files([archive, corrupt], skip_non_records=skip_non_records)
    expected = {
        (o.file, o.status.value, o.error)
        for o in alone.outcomes
        if o.status.value in ("failed", "skipped")
    }
    problems = {(p["file"], p["status"], p["error"]) for p in queued.problems}
    assert problems == expected
    assert any(name == "broken.zip" for name, _, _ in problems)
