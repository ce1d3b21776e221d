"""At most one catch-up task of each kind waiting in the broker, and at most one starting per
``STATS_CATCH_UP_INTERVAL``.

Every change to a game marks what it makes stale (``stats.summary_backlog``,
``stats.rating_backlog``) and then needs a catch-up task to come after it. One waiting task is
enough, however many changes came before it starts, because it reads every mark there is when it
starts. Queueing one per change instead cost a bulk import of 100,000 games 200,000 tasks, all
but a few finding nothing to do (~13 ms of a worker each); and catching up as soon as a worker
was free kept a worker recomputing summaries all through a bulk import, each pass covering a
few games of each player.

So a change queues a catch-up only if it can :func:`claim` the task's row, and the task
:func:`release`\\ s it as the first thing it does:

* a change that finds the row claimed committed its marks before it looked, and the claimed
  task has not started (it releases first), so that task will see the marks;
* a change that comes after the release queues a new task, which sees it;
* the new task is queued to start ``STATS_CATCH_UP_INTERVAL`` seconds after the last one
  started (at once after a quiet spell), so a burst of changes is caught up in passes that
  each cover everything changed since the last;
* a claim older than the interval plus :data:`LOST_AFTER` counts as lost (a message lost with
  a broker that did not keep it, a task dropped by hand), and the next change queues anew.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from stats.models import QueuedCatchUp

#: How long past its start time a queued catch-up may still be waiting before it counts as
#: lost (a queue deeper than that only gets one more catch-up, which costs little).
LOST_AFTER = timedelta(minutes=2)


def interval() -> timedelta:
    return timedelta(seconds=settings.STATS_CATCH_UP_INTERVAL)


def claim(task: str) -> float | None:
    """Claim the waiting slot of ``task``. ``None`` when one is waiting (queue nothing);
    otherwise the seconds to delay the task by (0: at once). One statement, so two changes
    claiming at once cannot both win."""
    now = timezone.now()
    table = connection.ops.quote_name(QueuedCatchUp._meta.db_table)
    with connection.cursor() as cursor:
        # INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING (PostgreSQL, SQLite 3.35+):
        # a row comes back only when it was inserted or the WHERE let the update through.
        cursor.execute(
            f"INSERT INTO {table} (task, queued_at) VALUES (%s, %s) "
            f"ON CONFLICT (task) DO UPDATE SET queued_at = excluded.queued_at "
            f"WHERE {table}.queued_at IS NULL OR {table}.queued_at < %s "
            f"RETURNING started_at",
            [task, now, now - interval() - LOST_AFTER],
        )
        claimed = cursor.fetchone()
    if claimed is None:
        return None
    (started_at,) = claimed
    if started_at is None:
        return 0.0
    if isinstance(started_at, str):  # SQLite hands back text from RETURNING
        started_at = datetime.fromisoformat(started_at)
    if timezone.is_naive(started_at):
        started_at = timezone.make_aware(started_at, timezone.get_current_timezone())
    return max(0.0, (started_at + interval() - now).total_seconds())


def release(task: str) -> None:
    """Mark ``task`` as started, no longer waiting: call it when the task starts, before it
    reads any mark, so that a change committed from now on queues another."""
    table = connection.ops.quote_name(QueuedCatchUp._meta.db_table)
    with connection.cursor() as cursor:
        # An upsert: a task run without a claim (by hand, or redelivered after the table was
        # emptied) still records its start.
        cursor.execute(
            f"INSERT INTO {table} (task, queued_at, started_at) VALUES (%s, NULL, %s) "
            f"ON CONFLICT (task) DO UPDATE SET queued_at = NULL, started_at = excluded.started_at",
            [task, timezone.now()],
        )
