"""At most one catch-up of each kind waits in the broker (stats.catch_up_queue): changes while
one waits queue nothing more, a change after it started queues the next, a claim that waited
too long (a lost message) is taken again, and two claims at once have one winner."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from stats import catch_up_queue
from stats.models import QueuedCatchUp
from tests.stats.second_connection import second_connection
from tests.stats.test_summaries import import_games

TASK = "stats.tasks.example"


def queued_tasks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the catch-ups a change queues instead of sending them."""
    from stats.tasks import catch_up_player_stats, update_ratings

    queued: list[str] = []
    for task in (catch_up_player_stats, update_ratings):
        monkeypatch.setattr(task, "delay", lambda *args, name=task.name: queued.append(name))
    return queued


@pytest.mark.django_db
def test_a_claim_waits_until_released() -> None:
    assert catch_up_queue.claim(TASK)
    assert not catch_up_queue.claim(TASK)
    assert catch_up_queue.claim("stats.tasks.another")  # each task has its own slot
    catch_up_queue.release(TASK)
    assert catch_up_queue.claim(TASK)


@pytest.mark.django_db
def test_a_claim_older_than_the_wait_limit_counts_as_lost() -> None:
    assert catch_up_queue.claim(TASK)
    almost = timezone.now() - catch_up_queue.WAIT_LIMIT + timedelta(seconds=5)
    QueuedCatchUp.objects.filter(task=TASK).update(queued_at=almost)
    assert not catch_up_queue.claim(TASK)
    lost = timezone.now() - catch_up_queue.WAIT_LIMIT - timedelta(seconds=1)
    QueuedCatchUp.objects.filter(task=TASK).update(queued_at=lost)
    assert catch_up_queue.claim(TASK)
    assert not catch_up_queue.claim(TASK)  # the new claim is fresh


@pytest.mark.django_db
def test_changes_queue_a_catch_up_only_when_none_is_waiting(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stats.tasks import catch_up_player_stats, update_ratings

    queued = queued_tasks(monkeypatch)
    import_games(django_capture_on_commit_callbacks, 3, 71)
    assert sorted(queued) == sorted([catch_up_player_stats.name, update_ratings.name])

    # The summaries' catch-up starts (and releases its slot); the ratings' still waits.
    queued.clear()
    catch_up_player_stats()
    import_games(django_capture_on_commit_callbacks, 1, 72)
    assert queued == [catch_up_player_stats.name]


@pytest.mark.django_db(transaction=True)
def test_two_claims_at_once_have_one_winner() -> None:
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (DATABASE_URL=postgres://...)")
    table = QueuedCatchUp._meta.db_table
    other = second_connection()
    try:
        # The other worker claims inside an open transaction: this claim waits on its row,
        # then finds it claimed, rather than both seeing it free.
        other.execute("BEGIN")
        other.execute(f"INSERT INTO {table} (task, queued_at) VALUES (%s, now())", [TASK])
        results: list[bool] = []
        claiming = threading.Thread(target=lambda: results.append(_claim_and_close(TASK)))
        claiming.start()
        claiming.join(timeout=1)
        assert claiming.is_alive(), "the claim did not wait for the other transaction"
        other.execute("COMMIT")
        claiming.join(timeout=10)
        assert results == [False]
    finally:
        other.close()


def _claim_and_close(task: str) -> bool:
    from django.db import connection

    try:
        return catch_up_queue.claim(task)
    finally:
        connection.close()
