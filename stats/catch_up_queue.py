"""At most one catch-up task of each kind waiting in the broker, spaced so that catching up
takes a bounded share of the workers.

Every change to a game marks what it makes stale (``stats.summary_backlog``,
``stats.rating_backlog``) and then needs a catch-up task to come after it. One waiting task is
enough, however many changes came before it starts, because it reads every mark there is when it
starts. Queueing one per change instead cost a bulk import of 100,000 games 200,000 tasks, all
but a few finding nothing to do; and catching up whenever a worker was free kept the workers
recomputing summaries all through a bulk import (with 2,000 players, each pass recomputed
nearly all of them for a few games each), at half the verification rate.

So a change queues a catch-up only if it can :func:`claim` the task's row, and the task
:func:`release`\\ s it as the first thing it does and records its end (:func:`finish`):

* a change that finds the row claimed committed its marks before it looked, and the claimed
  task has not started (it releases first), so that task will see the marks;
* a change that comes after the release queues a new task, which sees it;
* the new task is due ``STATS_CATCH_UP_INTERVAL`` seconds after the last one started, or
  later when the last one ran long: a catch-up kind uses at most :data:`DUTY` of one worker's
  time, however long a pass gets (after a quiet spell, it starts at once). A bulk import is
  caught up in passes, each covering every game verified since the last;
* the spacing only matters while changes keep coming: a waiting catch-up looks again every
  :data:`CHECK_EVERY` and starts at once when no change has come for :data:`QUIET` (the end of
  a bulk import, a single upload), so the statistics catch up soon after the last change;
* a claim still waiting :data:`LOST_AFTER` past its due time counts as lost (a message lost
  with a broker that did not keep it, a task dropped by hand), and the next change queues anew.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from stats.models import QueuedCatchUp

#: The share of one worker's time a catch-up kind may take: a pass that took a minute is
#: followed by the next four minutes after it started at the soonest.
DUTY = 0.25
#: The longest a catch-up is put off, however long the last pass took: how far behind the
#: summaries may fall while changes keep coming. (Each countdown is at most CHECK_EVERY, far
#: under the Redis visibility timeout, so a delayed task is never delivered twice.)
MAX_DELAY = timedelta(minutes=30)
#: A catch-up due this soon runs now rather than going round the broker again.
POSTPONE_SLACK = timedelta(seconds=5)
#: How long past its due time a queued catch-up may still be waiting before it counts as lost
#: (a queue deeper than that only gets one more catch-up, which costs little).
LOST_AFTER = timedelta(minutes=2)
#: A catch-up not yet due wakes at least this often to see whether changes have stopped.
CHECK_EVERY = timedelta(seconds=30)
#: No change for this long: changes have stopped, and a waiting catch-up need not be spaced
#: (while a stream of verifications goes on, they come many times a second).
QUIET = timedelta(seconds=10)


def interval() -> timedelta:
    return timedelta(seconds=settings.STATS_CATCH_UP_INTERVAL)


def claim(task: str) -> float | None:
    """Claim the waiting slot of ``task`` for a change just committed. ``None`` when one is
    waiting (queue nothing); otherwise the seconds to delay the task by (0: at once). The
    claim is one statement, so two changes claiming at once cannot both win."""
    now = timezone.now()
    table = connection.ops.quote_name(QueuedCatchUp._meta.db_table)
    with connection.cursor() as cursor:
        # INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING (PostgreSQL, SQLite 3.35+):
        # a row comes back only when it was inserted or the WHERE let the update through.
        cursor.execute(
            f"INSERT INTO {table} (task, queued_at, changed_at) VALUES (%s, %s, %s) "
            f"ON CONFLICT (task) DO UPDATE "
            f"SET queued_at = excluded.queued_at, changed_at = excluded.changed_at "
            f"WHERE {table}.queued_at IS NULL OR {table}.queued_at < %s "
            f"RETURNING started_at, finished_at, last_seconds",
            [task, now, now, now - LOST_AFTER],
        )
        claimed = cursor.fetchone()
        if claimed is None:  # one is waiting: note the change, so it keeps to its spacing
            cursor.execute(f"UPDATE {table} SET changed_at = %s WHERE task = %s", [now, task])
    if claimed is None:
        return None
    started, finished, last_seconds = _aware(claimed[0]), _aware(claimed[1]), claimed[2]
    due = now if started is None else next_start(started, finished, last_seconds, now)
    return _hold_until(task, due, now)


def postpone(task: str) -> float | None:
    """Called by a catch-up as it is about to start: the seconds to put it off by (its claim
    held until it is due), or ``None`` to run now. It was queued with a delay reckoned from
    what was known then; the last pass may have run longer since (or still be running: two
    passes at once would only share the marks, with a second worker taken from verifying), or
    changes may have stopped coming (then it need not wait)."""
    now = timezone.now()
    row = QueuedCatchUp.objects.filter(task=task).first()
    if row is None or row.started_at is None:
        return None
    due = next_start(row.started_at, row.finished_at, row.last_seconds, now)
    if due <= now + POSTPONE_SLACK:
        return None
    if not _running(row.started_at, row.finished_at, now) and _quiet(row.changed_at, now):
        return None
    return _hold_until(task, due, now)


def next_start(
    started: datetime, finished: datetime | None, last_seconds: float | None, now: datetime
) -> datetime:
    """When the next catch-up may start, after the one that started at ``started``: an interval
    later, or later still when passes run long, so that they take at most :data:`DUTY` of a
    worker. A pass still running counts as long as it has run so far, or as the last finished
    one took, whichever is longer."""
    if not interval():  # spacing turned off: catch up after every change
        return now
    if _running(started, finished, now):
        busy = max(now - started, timedelta(seconds=last_seconds or 0))
    elif finished is not None:
        busy = finished - started
    else:  # started long ago and never finished: a worker lost with it
        busy = timedelta(seconds=last_seconds or 0)
    return min(started + max(interval(), busy / DUTY), now + MAX_DELAY)


def _running(started: datetime, finished: datetime | None, now: datetime) -> bool:
    """Whether the pass that started at ``started`` is still running (or was lost: one that has
    not finished in :data:`MAX_DELAY` is taken for lost with its worker)."""
    return (finished is None or finished < started) and started > now - MAX_DELAY


def _quiet(changed_at: datetime | None, now: datetime) -> bool:
    """Whether changes have stopped: none for :data:`QUIET`."""
    return changed_at is None or changed_at <= now - QUIET


def _hold_until(task: str, due: datetime, now: datetime) -> float:
    """Hold the claim until ``due`` (and LOST_AFTER more); the task's countdown, at most
    :data:`CHECK_EVERY`: it wakes that often to see whether changes have stopped."""
    if due > now:
        QueuedCatchUp.objects.filter(task=task).update(queued_at=due)
    return max(0.0, min(due - now, CHECK_EVERY).total_seconds())


def release(task: str) -> None:
    """Mark ``task`` as started, no longer waiting: call it when the task starts, before it
    reads any mark, so that a change committed from now on queues another."""
    table = connection.ops.quote_name(QueuedCatchUp._meta.db_table)
    with connection.cursor() as cursor:
        # An upsert: a task run without a claim (by hand, or redelivered after the table was
        # emptied) still records its start.
        cursor.execute(
            f"INSERT INTO {table} (task, started_at) VALUES (%s, %s) "
            f"ON CONFLICT (task) DO UPDATE SET queued_at = NULL, started_at = excluded.started_at",
            [task, timezone.now()],
        )


def finish(task: str) -> None:
    """Record that ``task`` finished (or failed), and how long it took: the next is spaced
    after it."""
    now = timezone.now()
    row = QueuedCatchUp.objects.filter(task=task).first()
    if row is None or row.started_at is None:
        return
    took = (now - row.started_at).total_seconds()
    QueuedCatchUp.objects.filter(task=task).update(finished_at=now, last_seconds=took)


def _aware(value: datetime | str | None) -> datetime | None:
    """A timestamp from RETURNING (SQLite hands back text, naive in UTC)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is not None and timezone.is_naive(value):
        value = value.replace(tzinfo=UTC)
    return value
