"""``manage.py import_logs --on-workers`` on a real Celery worker over Redis: the command (one
process) only queues the files; the worker (another) reads, stores and verifies them, its
study aids counted in the verification's own replay, and no verification task goes through
the broker; the command follows the worker and reports every file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.models import Game, QueuedFile, QueuedImport
from replay.models import Verdict, Verification
from stats.models import SummaryBacklog
from stats.selectors import study_pending_count
from tests.integration.conftest import wait_for
from tests.integration.processes import manage

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_workers_import_verify_and_study_a_queued_import(
    service_env: dict[str, str], celery_worker: Callable[[], str], tmp_path: Path
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    games = list(simulate("tenhou-4p-east", 5, 2042))
    for index, game in enumerate(games):
        (folder / f"{index}.json").write_bytes(canonical.write([game]))
    (folder / "again.json").write_bytes(canonical.write([games[0]]))
    (folder / "notes.txt").write_text("not a game")
    (folder / "broken.mjlog").write_text("<mjloggm><GO")

    imported = manage(service_env, "import_logs", "--quiet", "--on-workers", str(folder))

    assert imported.returncode == 1, imported.stderr  # broken.mjlog failed
    assert "8 files: 5 games imported, 1 duplicates, 1 failed, 1 skipped" in imported.stdout
    assert "failed: " in imported.stdout and "broken.mjlog" in imported.stdout
    assert "skipped: " in imported.stdout and "notes.txt" in imported.stdout
    assert "verdicts of these games: 6 verified" in imported.stdout  # again.json's too
    (queued,) = QueuedImport.objects.all()
    assert queued.finished and queued.batches_done == queued.batches == 1
    assert not QueuedFile.objects.exists()
    assert Game.objects.count() == 5
    verdicts = list(Verification.objects.values_list("verdict", flat=True))
    assert verdicts == [Verdict.VERIFIED] * 5

    log = celery_worker()
    assert "Task mjlogs.tasks.import_queued_batch[" in log
    assert "Task replay.tasks.verify_games[" not in log  # verified by the task that imported
    assert study_pending_count() == 0  # counted in the verification's replay

    def statistics_current() -> bool:
        return not SummaryBacklog.objects.exists()

    wait_for(statistics_current, timeout=60, what="the summaries' catch-up", log=celery_worker)
