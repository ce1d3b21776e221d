"""The ratings backlog (stats.catch_up): changes to games mark the ratings stale, and one
catch-up recomputes for every mark so far; a mark made during a catch-up is not lost, a failed
catch-up leaves its mark, and a second worker does not recompute while the first one does."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

from stats import catch_up
from stats.catch_up import ratings_catch_up, ratings_mark_stale
from stats.models import RatingChange, RatingsBacklog
from stats.services import RATINGS_LOCK, ratings_recompute
from tests.stats.second_connection import second_connection
from tests.stats.test_ratings import stored, stored_ratings

DAY = datetime(2024, 1, 12, tzinfo=UTC)


def backlog() -> tuple[bool, datetime | None]:
    row = RatingsBacklog.objects.get(pk=1)
    return row.stale, row.since


@pytest.mark.django_db
def test_marks_keep_the_earliest_time_and_none_means_every_game() -> None:
    ratings_mark_stale(DAY)
    ratings_mark_stale(datetime(2024, 1, 20, tzinfo=UTC))
    assert backlog() == (True, DAY)
    ratings_mark_stale(datetime(2024, 1, 3, tzinfo=UTC))
    assert backlog() == (True, datetime(2024, 1, 3, tzinfo=UTC))
    ratings_mark_stale(None)
    ratings_mark_stale(DAY)
    assert backlog() == (True, None)


@pytest.mark.django_db
def test_one_catch_up_serves_every_mark_and_equals_a_full_recomputation(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [stored(django_capture_on_commit_callbacks, seed, 10 + seed) for seed in range(4)]
    RatingChange.objects.all().delete()  # as if the four verifications were still queued
    calls: list[datetime | None] = []

    def counted(since: datetime | None = None) -> int:
        calls.append(since)
        return ratings_recompute(since)

    monkeypatch.setattr(catch_up, "ratings_recompute", counted)
    for game in reversed(games):
        ratings_mark_stale(game.started_at)
    assert ratings_catch_up() == 16
    assert calls == [games[0].started_at]  # once, from the earliest game marked
    assert backlog() == (False, None)
    assert ratings_catch_up() == 0 and len(calls) == 1  # nothing left to do
    caught_up = stored_ratings()
    ratings_recompute()
    assert stored_ratings() == caught_up


@pytest.mark.django_db
def test_a_mark_made_during_a_catch_up_is_left_for_the_next(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [stored(django_capture_on_commit_callbacks, seed, 10 + seed) for seed in range(3)]
    calls: list[datetime | None] = []

    def marks_during_the_first(since: datetime | None = None) -> int:
        calls.append(since)
        if len(calls) == 1:  # another verification lands while this round runs
            ratings_mark_stale(games[0].started_at)
        return ratings_recompute(since)

    monkeypatch.setattr(catch_up, "ratings_recompute", marks_during_the_first)
    ratings_mark_stale(games[2].started_at)
    ratings_catch_up()
    assert calls == [games[2].started_at]
    # One round only (going round until no mark is left would never end under a steady
    # stream of verifications): the new mark stays, for the catch-up its change queued.
    assert backlog() == (True, games[0].started_at)
    ratings_catch_up()
    assert calls == [games[2].started_at, games[0].started_at]
    assert backlog() == (False, None)


@pytest.mark.django_db
def test_a_failed_catch_up_leaves_its_mark_and_its_ratings(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored(django_capture_on_commit_callbacks, 1, 10)
    before = stored_ratings()

    def dies(since: datetime | None = None) -> int:
        RatingChange.objects.all().delete()
        raise RuntimeError("worker lost")

    monkeypatch.setattr(catch_up, "ratings_recompute", dies)
    ratings_mark_stale(DAY)
    with pytest.raises(RuntimeError):
        ratings_catch_up()
    assert backlog() == (True, DAY)  # rolled back with the ratings: the retry will redo it
    assert stored_ratings() == before


@pytest.mark.django_db(transaction=True)
def test_a_second_worker_comes_back_after_the_one_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the catch-up lock is PostgreSQL's (DATABASE_URL=postgres://...)")
    from stats.tasks import update_ratings

    delays: list[float] = []
    monkeypatch.setattr(update_ratings, "delay", lambda: delays.append(0.0))
    monkeypatch.setattr(update_ratings, "apply_async", lambda countdown: delays.append(countdown))
    monkeypatch.setitem(update_ratings.app.conf, "task_always_eager", False)
    other = second_connection()
    try:
        ratings_mark_stale(DAY)
        other.execute("SELECT pg_advisory_lock(%s)", [RATINGS_LOCK])  # a worker catching up
        assert ratings_catch_up() is None
        assert backlog() == (True, DAY)  # untouched
        # The task queues itself again, after the catch-up interval (it has just started).
        assert update_ratings() == 0
        assert len(delays) == 1 and 0 < delays[0] <= settings.STATS_CATCH_UP_INTERVAL
        other.execute("SELECT pg_advisory_unlock(%s)", [RATINGS_LOCK])
        with override_settings(STATS_CATCH_UP_INTERVAL=0):  # as if that catch-up were due
            assert update_ratings() == 0  # no game to rate, but the mark is cleared
        assert backlog() == (False, None)
        assert len(delays) == 1
    finally:
        other.close()


@pytest.mark.django_db
def test_catch_ups_queued_behind_a_burst_of_verifications_recompute_once(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stats.tasks import update_ratings

    queued: list[Any] = []
    monkeypatch.setattr(update_ratings, "delay", lambda *args: queued.append(args))
    games = [stored(django_capture_on_commit_callbacks, seed, 20 - seed) for seed in range(4)]
    # Each verification marked the ratings stale as it committed; the first queued a catch-up,
    # and the others found it still waiting (stats.catch_up).
    assert queued == [()]
    assert backlog() == (True, min(game.started_at for game in games))
    calls: list[datetime | None] = []

    def counted(since: datetime | None = None) -> int:
        calls.append(since)
        return ratings_recompute(since)

    monkeypatch.setattr(catch_up, "ratings_recompute", counted)
    # The worker runs the one queued; a second (a redelivery) finds nothing left.
    done = [update_ratings(), update_ratings()]
    assert done == [16, 0] and len(calls) == 1
