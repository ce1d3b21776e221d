"""At most one catch-up of each kind waits in the broker, and one starts at most every
STATS_CATCH_UP_INTERVAL (stats.catch_up_queue): changes while one waits queue nothing more, a
change after it started queues the next for the end of the interval, a claim that waited too
long (a lost message) is taken again, and two claims at once have one winner."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from stats import catch_up_queue
from stats.models import QueuedCatchUp
from tests.stats.second_connection import second_connection
from tests.stats.test_summaries import import_games

TASK = "stats.tasks.example"


def queued_tasks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """Record the catch-ups a change queues, with their delays, instead of sending them."""
    from stats.tasks import catch_up_player_stats, update_ratings

    queued: list[tuple[str, float]] = []
    for task in (catch_up_player_stats, update_ratings):
        monkeypatch.setattr(task, "delay", lambda name=task.name: queued.append((name, 0.0)))
        monkeypatch.setattr(
            task,
            "apply_async",
            lambda countdown, name=task.name: queued.append((name, countdown)),
        )
    return queued


def set_times(**times: Any) -> None:
    QueuedCatchUp.objects.filter(task=TASK).update(**times)


@pytest.mark.django_db
def test_a_claim_waits_until_released() -> None:
    assert catch_up_queue.claim(TASK) == 0.0  # never run: at once
    assert catch_up_queue.claim(TASK) is None
    assert catch_up_queue.claim("stats.tasks.another") == 0.0  # each task has its own slot
    catch_up_queue.release(TASK)
    assert catch_up_queue.claim(TASK) is not None


@pytest.mark.django_db
@override_settings(STATS_CATCH_UP_INTERVAL=60)
def test_the_next_catch_up_starts_an_interval_after_the_last_started() -> None:
    catch_up_queue.release(TASK)  # one starts now
    delay = catch_up_queue.claim(TASK)
    assert delay is not None and 59 < delay <= 60
    catch_up_queue.release(TASK)
    set_times(started_at=timezone.now() - timedelta(seconds=45))
    delay = catch_up_queue.claim(TASK)
    assert delay is not None and 14 < delay <= 15
    catch_up_queue.release(TASK)
    set_times(started_at=timezone.now() - timedelta(minutes=5))  # after a quiet spell
    assert catch_up_queue.claim(TASK) == 0.0


@pytest.mark.django_db
@override_settings(STATS_CATCH_UP_INTERVAL=60)
def test_a_claim_waiting_past_its_start_and_the_grace_counts_as_lost() -> None:
    assert catch_up_queue.claim(TASK) is not None
    limit = catch_up_queue.interval() + catch_up_queue.LOST_AFTER
    set_times(queued_at=timezone.now() - limit + timedelta(seconds=5))
    assert catch_up_queue.claim(TASK) is None
    set_times(queued_at=timezone.now() - limit - timedelta(seconds=1))
    assert catch_up_queue.claim(TASK) is not None
    assert catch_up_queue.claim(TASK) is None  # the new claim is fresh


@pytest.mark.django_db
@override_settings(STATS_CATCH_UP_INTERVAL=60)
def test_changes_queue_a_catch_up_only_when_none_is_waiting(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stats.tasks import catch_up_player_stats, update_ratings

    queued = queued_tasks(monkeypatch)
    import_games(django_capture_on_commit_callbacks, 3, 71)
    # Never run before: each at once, and one of each for the three games.
    assert sorted(queued) == sorted([(catch_up_player_stats.name, 0.0), (update_ratings.name, 0.0)])

    # The summaries' catch-up starts (and releases its slot); the ratings' still waits. The next
    # change queues the summaries' again, for an interval after this one started.
    queued.clear()
    catch_up_player_stats()
    import_games(django_capture_on_commit_callbacks, 1, 72)
    ((name, delay),) = queued
    assert name == catch_up_player_stats.name and 59 < delay <= 60


@pytest.mark.django_db(transaction=True)
def test_two_claims_at_once_have_one_winner() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (DATABASE_URL=postgres://...)")
    table = QueuedCatchUp._meta.db_table
    other = second_connection()
    try:
        # The other worker claims inside an open transaction: this claim waits on its row,
        # then finds it claimed, rather than both seeing it free.
        other.execute("BEGIN")
        other.execute(f"INSERT INTO {table} (task, queued_at) VALUES (%s, now())", [TASK])
        results: list[float | None] = []
        claiming = threading.Thread(target=lambda: results.append(_claim_and_close(TASK)))
        claiming.start()
        claiming.join(timeout=1)
        assert claiming.is_alive(), "the claim did not wait for the other transaction"
        other.execute("COMMIT")
        claiming.join(timeout=10)
        assert results == [None]
    finally:
        other.close()


def _claim_and_close(task: str) -> float | None:
    try:
        return catch_up_queue.claim(task)
    finally:
        connection.close()
