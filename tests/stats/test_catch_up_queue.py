"""At most one catch-up of each kind waits in the broker, and one starts at most every
STATS_CATCH_UP_INTERVAL (stats.catch_up): changes while one waits queue nothing more, a
change after it started queues the next for the end of the interval, one waiting starts early
once changes stop, a claim that waited too long (a lost message) is taken again, and two
claims at once have one winner."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from mjlogs.models import Game
from replay.models import Verification
from stats import catch_up
from stats.models import QueuedCatchUp, SummaryBacklog
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
    assert catch_up.claim(TASK) == 0.0  # never run: at once
    assert catch_up.claim(TASK) is None
    assert catch_up.claim("stats.tasks.another") == 0.0  # each task has its own slot
    catch_up.release(TASK)
    assert catch_up.claim(TASK) is not None


def due_in(now: Any) -> float:
    """Seconds from ``now`` until the waiting catch-up is due (what its claim holds)."""
    queued_at = QueuedCatchUp.objects.get(task=TASK).queued_at
    assert queued_at is not None
    return max(0.0, (queued_at - now).total_seconds())


def countdown_for(due: float) -> float:
    """The countdown of a catch-up a change queues, due in ``due`` seconds: it wakes every
    CHECK_EVERY, and first when the uploads may be settled (WAKE_WHEN_SETTLED)."""
    wake = catch_up.WAKE_WHEN_SETTLED.total_seconds()
    return min(due, catch_up.CHECK_EVERY.total_seconds(), wake)


def delay_after(started_ago: float, took: float | None) -> float | None:
    """The seconds until the catch-up a claim queues is due, after one that started
    ``started_ago`` seconds ago and took ``took`` seconds (``None``: still running); checks
    that the task's countdown is that, or CHECK_EVERY when it is further off."""
    now = timezone.now()
    started = now - timedelta(seconds=started_ago)
    finished = None if took is None else started + timedelta(seconds=took)
    catch_up.release(TASK)
    set_times(started_at=started, finished_at=finished)
    countdown = catch_up.claim(TASK)
    if countdown is None:
        return None
    due = due_in(now)
    assert countdown == pytest.approx(countdown_for(due), abs=1)
    return due


@pytest.mark.django_db
@override_settings(STATS_CATCH_UP_INTERVAL=60)
def test_the_next_catch_up_is_spaced_after_the_last_one() -> None:
    def about(delay: float | None, expected: float) -> bool:
        return delay is not None and expected - 1 < delay <= expected + 1

    # A short pass: the next starts an interval after it started.
    assert about(delay_after(0, 1), 60)
    assert about(delay_after(45, 1), 15)
    # A long pass: catching up takes at most a quarter of a worker (DUTY).
    assert catch_up.DUTY == 0.25
    assert about(delay_after(60, 60), 180)  # due 240 s after it started
    # Still running after 45 s: at least that long, so due 180 s after it started.
    assert about(delay_after(45, None), 135)
    # After a quiet spell, at once; never later than MAX_DELAY.
    assert delay_after(600, 1) == pytest.approx(0.0, abs=1)
    assert about(delay_after(600, 3600), catch_up.MAX_DELAY.total_seconds())
    with override_settings(STATS_CATCH_UP_INTERVAL=0):  # spacing turned off
        assert delay_after(0, None) == pytest.approx(0.0, abs=1)
        assert catch_up.postpone(TASK) is None


@pytest.mark.django_db
@override_settings(STATS_CATCH_UP_INTERVAL=60)
def test_a_catch_up_not_yet_due_when_it_starts_puts_itself_off() -> None:
    now = timezone.now()
    check_every = catch_up.CHECK_EVERY.total_seconds()
    catch_up.release(TASK)
    wake = catch_up.WAKE_AFTER_CHANGE.total_seconds()
    settled = catch_up.WAKE_WHEN_SETTLED.total_seconds()
    # Running for 10 s; the last finished pass took 100 s: due 400 s after this one started.
    # The change's task wakes when the uploads may be settled; while the pass runs, it wakes
    # after as long again as the pass has run (10 s), and at most every CHECK_EVERY.
    set_times(started_at=now - timedelta(seconds=10), finished_at=None, last_seconds=100.0)
    for delay, expected in (
        (catch_up.claim(TASK), settled),
        (catch_up.postpone(TASK), 10),
    ):
        assert delay == pytest.approx(expected, abs=1)
        assert 389 < due_in(now) <= 391
    set_times(started_at=now - timedelta(seconds=100))
    assert catch_up.postpone(TASK) == pytest.approx(check_every, abs=1)
    # It finished after 300 s, and changes keep coming: the next is due 1,200 s after it
    # started, and the task wakes again when changes would have stopped after the last one.
    set_times(started_at=now - timedelta(seconds=300), finished_at=now, last_seconds=300.0)
    catch_up.claim(TASK)  # a change: the catch-up waits, and notes it
    delay = catch_up.postpone(TASK)
    assert delay == pytest.approx(settled, abs=0.5)
    assert 899 < due_in(now) <= 901
    # The last change 2 s ago, and no game has its verdict (there is none): not settled, so
    # it wakes when changes would have stopped.
    set_times(changed_at=now - timedelta(seconds=2))
    assert catch_up.postpone(TASK) == pytest.approx(wake - 2, abs=1)
    # Due (or nearly): run now.
    started = now - timedelta(seconds=1198)
    set_times(started_at=started, finished_at=started + timedelta(seconds=300))
    assert catch_up.postpone(TASK) is None
    # A pass that never finished in MAX_DELAY went with its worker: nothing to wait for.
    set_times(started_at=now - catch_up.MAX_DELAY - timedelta(seconds=1), finished_at=None)
    assert catch_up.postpone(TASK) is None


@pytest.mark.django_db
@override_settings(STATS_CATCH_UP_INTERVAL=60)
def test_a_catch_up_not_yet_due_starts_once_changes_stop() -> None:
    now = timezone.now()
    # The last pass took 300 s and finished a minute ago: the next is due in 840 s.
    catch_up.release(TASK)
    set_times(
        started_at=now - timedelta(seconds=360),
        finished_at=now - timedelta(seconds=60),
        last_seconds=300.0,
    )
    assert catch_up.claim(TASK) is not None  # a change queues it
    assert catch_up.postpone(TASK) is not None  # changes just came: wait
    # Changes that find it waiting keep it waiting.
    set_times(changed_at=now - catch_up.QUIET - timedelta(seconds=1))
    assert catch_up.claim(TASK) is None
    assert catch_up.postpone(TASK) is not None
    # No change for QUIET: it starts at once.
    set_times(changed_at=now - catch_up.QUIET - timedelta(seconds=1))
    assert catch_up.postpone(TASK) is None
    # But not while the last pass is still running: two would only share the marks.
    set_times(started_at=now - timedelta(seconds=20), finished_at=None)
    assert catch_up.postpone(TASK) is not None


@pytest.mark.django_db
@override_settings(STATS_CATCH_UP_INTERVAL=60)
def test_a_catch_up_starts_once_the_last_upload_is_verified(
    django_capture_on_commit_callbacks: Any,
) -> None:
    import_games(django_capture_on_commit_callbacks, 2, 73)  # stored and verified (eager)
    now = timezone.now()
    catch_up.release(TASK)
    set_times(started_at=now - timedelta(seconds=30), finished_at=now - timedelta(seconds=29))
    catch_up.claim(TASK)  # a change just now, the next pass not due for 30 s: it waits
    assert catch_up.postpone(TASK) is not None  # too soon to tell
    set_times(changed_at=now - catch_up.SETTLED - timedelta(seconds=0.1))
    assert catch_up.postpone(TASK) is None  # the newest game has its verdict: settled
    newest = Game.objects.order_by("-pk").first()
    assert newest is not None
    Verification.objects.filter(game=newest).delete()  # as if its verification were queued
    assert catch_up.postpone(TASK) is not None  # one is on its way: wait for QUIET
    set_times(changed_at=now - catch_up.QUIET - timedelta(seconds=0.1))
    assert catch_up.postpone(TASK) is None


@pytest.mark.django_db
def test_a_catch_up_task_started_while_another_runs_queues_itself_for_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stats.tasks import catch_up_player_stats

    queued = queued_tasks(monkeypatch)
    monkeypatch.setitem(catch_up_player_stats.app.conf, "task_always_eager", False)
    name = catch_up_player_stats.name
    QueuedCatchUp.objects.create(
        task=name, started_at=timezone.now(), finished_at=None, last_seconds=30.0
    )
    assert catch_up_player_stats() == 0
    ((queued_name, delay),) = queued
    # The other pass has only just started: it looks again soon, in case it ends soon.
    assert queued_name == name
    assert delay == pytest.approx(catch_up.WAKE_WHEN_SETTLED.total_seconds(), abs=0.1)
    row = QueuedCatchUp.objects.get(task=name)
    assert row.queued_at is not None
    assert 100 < (row.queued_at - timezone.now()).total_seconds() <= 120  # due after 4 x 30 s
    assert row.finished_at is None  # the running one's record is untouched
    # Once the other has finished and the next is due, the task runs and records its pass.
    long_ago = timezone.now() - timedelta(minutes=10)
    QueuedCatchUp.objects.filter(task=name).update(
        started_at=long_ago, finished_at=long_ago + timedelta(seconds=30)
    )
    assert catch_up_player_stats() == 0 and len(queued) == 1
    row.refresh_from_db()
    assert row.finished_at is not None and row.started_at is not None
    assert row.started_at > long_ago and row.finished_at >= row.started_at


@pytest.mark.django_db
@override_settings(STATS_CATCH_UP_INTERVAL=60)
def test_a_claim_waiting_past_its_due_time_and_the_grace_counts_as_lost() -> None:
    delay = delay_after(0, 1)
    assert delay is not None and delay > 59
    due = QueuedCatchUp.objects.get(task=TASK).queued_at
    assert due is not None and due > timezone.now()  # the claim holds until it is due
    assert catch_up.claim(TASK) is None
    set_times(queued_at=timezone.now() - catch_up.LOST_AFTER + timedelta(seconds=5))
    assert catch_up.claim(TASK) is None
    set_times(queued_at=timezone.now() - catch_up.LOST_AFTER - timedelta(seconds=1))
    assert catch_up.claim(TASK) is not None
    assert catch_up.claim(TASK) is None  # the new claim is fresh


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

    # The summaries' catch-up runs (releasing its slot as it starts); the ratings' still waits.
    # The next change queues the summaries' again, an interval after this one started.
    queued.clear()
    catch_up_player_stats()
    import_games(django_capture_on_commit_callbacks, 1, 72)
    ((name, delay),) = queued
    assert name == catch_up_player_stats.name and delay == countdown_for(60)
    row = QueuedCatchUp.objects.get(task=name)
    assert row.queued_at is not None
    assert 45 < (row.queued_at - timezone.now()).total_seconds() <= 60  # less the import's time


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
        return catch_up.claim(task)
    finally:
        connection.close()


@pytest.mark.django_db
def test_a_catch_up_not_yet_due_runs_here_when_the_broker_cannot_be_reached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kombu.exceptions import OperationalError as BrokerUnreachable

    from stats.tasks import catch_up_player_stats

    def unreachable(countdown: float) -> None:
        raise BrokerUnreachable("connection refused")

    monkeypatch.setattr(catch_up_player_stats, "apply_async", unreachable)
    monkeypatch.setitem(catch_up_player_stats.app.conf, "task_always_eager", False)
    ann = import_games_marked()
    QueuedCatchUp.objects.create(
        task=catch_up_player_stats.name, started_at=timezone.now(), last_seconds=30.0
    )
    assert catch_up_player_stats() == 1  # not put off: there is nowhere to put it
    assert not SummaryBacklog.objects.filter(player_id=ann).exists()


def import_games_marked() -> int:
    """A player with a game, marked behind."""
    from mjlogs.models import Player
    from stats.catch_up import player_summaries_update

    player = Player.objects.create(name="Ann")
    player_summaries_update([player.pk])
    catch_up.summaries_mark_stale([player.pk])
    return player.pk
