"""A real Celery worker consumes the verification and statistics tasks from Redis: games
imported by the command line (another process) are verified by the worker (a third), which
writes each verdict once; re-verifying through the broker leaves the same rows (the tasks are
idempotent); the statistics the verifications queued equal a rebuild through the broker."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.models import Game
from replay.models import Verdict, Verification
from stats.models import PlayerSummary, RatingChange, SummaryBacklog
from stats.selectors import study_pending_count
from tests.integration.conftest import wait_for
from tests.integration.processes import manage

pytestmark = pytest.mark.django_db(transaction=True)


def verdicts_by_file() -> dict[str, str]:
    rows = Verification.objects.values_list("game__raw_name", "verdict")
    return {Path(name).name: verdict for name, verdict in rows}


def test_a_worker_verifies_imported_games_from_redis(
    service_env: dict[str, str], celery_worker: Callable[[], str], tmp_path: Path
) -> None:
    games = list(simulate("tenhou-4p-east", 4, 2026))
    mismatched = canonical.game_to_json(games[3])
    mismatched["final"]["scores"][0] += 100
    folder = tmp_path / "logs"
    folder.mkdir()
    for index, game in enumerate(games[:3]):
        (folder / f"{index}.json").write_bytes(canonical.write([game]))
    (folder / "bad.json").write_text(canonical.dumps(canonical.game_from_json(mismatched)))
    (folder / "junk.txt").write_text("not a game")
    (folder / "broken.mjlog").write_text("<mjloggm><GO")

    imported = manage(service_env, "import_logs", "--quiet", str(folder))
    assert imported.returncode == 1, imported.stderr  # broken.mjlog failed
    output = imported.stdout + imported.stderr
    assert "broken.mjlog" in output
    assert "junk.txt" in output  # listed as skipped: no game record
    assert Game.objects.count() == 4

    def all_verified() -> bool:
        return Verification.objects.exclude(verdict=Verdict.PENDING).count() == 4

    wait_for(all_verified, timeout=120, what="four verdicts", log=celery_worker)
    verdicts = verdicts_by_file()
    assert verdicts == {
        "0.json": Verdict.VERIFIED,
        "1.json": Verdict.VERIFIED,
        "2.json": Verdict.VERIFIED,
        "bad.json": Verdict.SCORE_MISMATCH,
    }
    assert set(Verification.objects.values_list("engine_version", flat=True)) == {
        engine.__version__
    }
    assert "replay.tasks.verify_games" in celery_worker()

    # Re-verify everything through the broker: the same four rows, the same verdicts.
    first_times = dict(Verification.objects.values_list("game_id", "verified_at"))
    reverified = manage(service_env, "reverify", "--quiet")
    assert reverified.returncode == 0, reverified.stderr

    def all_verified_again() -> bool:
        times = dict(Verification.objects.values_list("game_id", "verified_at"))
        return all(times[game] > first for game, first in first_times.items())

    wait_for(all_verified_again, timeout=120, what="the second verification", log=celery_worker)
    assert Verification.objects.count() == 4
    assert verdicts_by_file() == verdicts

    # The verifications queued the statistics tasks: the four players' summaries and the
    # ratings of the three verified games. A rebuild through the broker gives the same.
    def statistics() -> tuple[dict[int, Any], list[tuple[Any, ...]]]:
        summaries = {s.player_id: (s.games, s.counts) for s in PlayerSummary.objects.all()}
        ratings = RatingChange.objects.order_by("game_id", "player_id")
        return summaries, list(ratings.values_list("game_id", "player_id", "rating_after"))

    def statistics_done() -> bool:
        summaries, ratings = statistics()
        # The study aids' counts come after the verifications, and the summaries after them.
        settled = study_pending_count() == 0 and not SummaryBacklog.objects.exists()
        games = sum(count for count, _ in summaries.values())
        return settled and len(ratings) == 12 and games == 12

    wait_for(statistics_done, timeout=120, what="the statistics tasks", log=celery_worker)
    incremental = statistics()
    PlayerSummary.objects.all().delete()
    RatingChange.objects.all().delete()
    rebuilt = manage(service_env, "recompute_stats", "--quiet", "--chunk", "1")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "4 players queued for recomputation in 4 tasks" in rebuilt.stdout
    wait_for(statistics_done, timeout=120, what="the rebuild", log=celery_worker)
    assert statistics() == incremental


def _other_sessions() -> list[Any]:
    """When each session on this test's database but this process's own began."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT backend_start FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


def test_a_worker_keeps_its_database_sessions_from_task_to_task(
    service_env: dict[str, str], celery_worker: Callable[[], str], tmp_path: Path
) -> None:
    # Celery's Django fixup closed every connection after each task: each task of a worker
    # began a new PostgreSQL session (config/celery.py). Its sessions now outlive its tasks.
    folder = tmp_path / "logs"
    folder.mkdir()
    for index, game in enumerate(simulate("tenhou-4p-east", 2, 2031)):
        (folder / f"{index}.json").write_bytes(canonical.write([game]))
    assert manage(service_env, "import_logs", "--quiet", str(folder)).returncode == 0

    def verified(count: int) -> Callable[[], bool]:
        return lambda: Verification.objects.filter(verdict=Verdict.VERIFIED).count() == count

    wait_for(verified(2), timeout=120, what="two verdicts", log=celery_worker)
    sessions = _other_sessions()
    assert sessions, "the worker kept no database session after its tasks"
    first_times = dict(Verification.objects.values_list("game_id", "verified_at"))
    assert manage(service_env, "reverify", "--quiet").returncode == 0

    def reverified() -> bool:
        times = dict(Verification.objects.values_list("game_id", "verified_at"))
        return all(times[game] > first for game, first in first_times.items())

    wait_for(reverified, timeout=120, what="the second verification", log=celery_worker)
    # The sessions the second round of tasks ran on include those of the first: a worker
    # process that ran tasks in both rounds began no session for the second.
    assert set(sessions) & set(_other_sessions())
