"""At most one catch-up task of each kind waiting in the broker.

Every change to a game marks what it makes stale (``stats.summary_backlog``,
``stats.rating_backlog``) and then needs a catch-up task to come after it. One waiting task is
enough, however many changes came before it starts, because it reads every mark there is when it
starts. Queueing one per change instead cost a bulk import of 100,000 games 200,000 tasks, all
but a few finding nothing to do (~13 ms of a worker each).

So a change queues a catch-up only if it can :func:`claim` the task's row, and the task
:func:`release`\\ s it as the first thing it does:

* a change that finds the row claimed committed its marks before it looked, and the claimed
  task has not started (it releases first), so that task will see the marks;
* a change that comes after the release queues a new task, which sees it;
* a claim older than :data:`WAIT_LIMIT` counts as lost (a message lost with a broker that did
  not keep it, a task dropped by hand), and the next change queues anew. Under a deep queue
  (a bulk import queues its verifications first) a catch-up can wait longer than that; then
  one more is queued every :data:`WAIT_LIMIT`, which costs little.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.utils import timezone

from stats.models import QueuedCatchUp

#: How long a queued catch-up may wait before the next change queues another anyway.
WAIT_LIMIT = timedelta(minutes=2)


def claim(task: str) -> bool:
    """Claim the waiting slot of ``task``; True when the caller must queue it (none is waiting,
    or the one waiting was queued more than :data:`WAIT_LIMIT` ago). One statement, so two
    changes claiming at once cannot both win."""
    now = timezone.now()
    table = connection.ops.quote_name(QueuedCatchUp._meta.db_table)
    with connection.cursor() as cursor:
        # INSERT ... ON CONFLICT DO UPDATE ... WHERE: PostgreSQL and SQLite both count a row
        # only when it was inserted or the WHERE let the update through.
        cursor.execute(
            f"INSERT INTO {table} (task, queued_at) VALUES (%s, %s) "
            f"ON CONFLICT (task) DO UPDATE SET queued_at = excluded.queued_at "
            f"WHERE {table}.queued_at IS NULL OR {table}.queued_at < %s",
            [task, now, now - WAIT_LIMIT],
        )
        return cursor.rowcount == 1


def release(task: str) -> None:
    """Mark ``task`` as no longer waiting: call it when the task starts, before it reads any
    mark, so that a change committed from now on queues another."""
    QueuedCatchUp.objects.filter(task=task).update(queued_at=None)
