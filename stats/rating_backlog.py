"""Keeping ratings up to date without recomputing them once per game.

A game's rating depends on every earlier game of its players, so a change to one game
(verified, deleted, made private) means recomputing every rating from that game's time on. Done
once per game, importing N games with random dates costs O(N²). Instead each change *marks* the
ratings stale from its time as it commits (:func:`ratings_mark_stale`, a short update of one
row), then queues a catch-up task; :func:`ratings_catch_up` recomputes from the earliest time
marked, once for every mark so far, and the catch-ups queued behind it find nothing left:

* one catch-up at a time: another finds the lock taken and comes back later (the task queues
  itself again, ``stats.catch_up_queue``), because the one running may have read the marks
  before its own;
* a catch-up recomputes once: a mark made while it ran bumps the version, so its "clear if
  unchanged" leaves the mark, for the catch-up that mark's change queued (going round until no
  mark was left would never end while games keep being verified);
* the mark is cleared in the same transaction as the recomputation it stands for, so a worker
  killed in the middle leaves the ratings marked, and the redelivered task recomputes them.

On SQLite (one writer at a time anyway) the lock is not needed.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection, transaction
from django.db.models import F

from stats.models import RatingsBacklog
from stats.services import RATINGS_LOCK, ratings_recompute


def ratings_mark_stale(since: datetime | None) -> None:
    """Mark the ratings stale from ``since`` on (from the first game when ``None``)."""
    with transaction.atomic():
        backlog, _ = RatingsBacklog.objects.select_for_update().get_or_create(pk=1)
        if not backlog.stale:
            backlog.since = since
        elif backlog.since is not None:
            backlog.since = None if since is None else min(backlog.since, since)
        backlog.stale = True
        backlog.version = F("version") + 1
        backlog.save()


def ratings_catch_up() -> int | None:
    """Recompute the ratings from the earliest time marked stale, once. Returns the rating
    changes stored (0 when nothing was marked), or ``None`` when another worker is catching up
    and this call did nothing: that worker may have read the marks before this call's, so the
    caller must come back later."""
    # One transaction: the ratings and the clearing of the mark they stand for commit together.
    with transaction.atomic():
        if not _try_lock():
            return None
        backlog = RatingsBacklog.objects.filter(pk=1, stale=True).first()
        if backlog is None:
            return 0
        stored = ratings_recompute(backlog.since)
        # Not cleared when marked again meanwhile: that change queued the next catch-up.
        RatingsBacklog.objects.filter(pk=1, version=backlog.version).update(stale=False, since=None)
    return stored


def _try_lock() -> bool:
    """Take the ratings lock for this transaction if it is free (PostgreSQL; always on
    others)."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [RATINGS_LOCK])
        (taken,) = cursor.fetchone()
    return bool(taken)
