"""Keeping ratings up to date without recomputing them once per game.

A game's rating depends on every earlier game of its players, so a change to one game
(verified, deleted, made private) means recomputing every rating from that game's time on. Done
once per game, importing N games with random dates costs O(N²). Instead each change *marks* the
ratings stale from its time as it commits (:func:`ratings_mark_stale`, a short update of one
row), then queues a catch-up task; :func:`ratings_catch_up` recomputes from the earliest time
marked, once for every mark so far, and the catch-ups queued behind it find nothing left:

* one catch-up at a time: the others find the lock taken and return at once, because the one
  running goes round until no mark is left (a mark made while it ran bumps the version, so its
  "clear if unchanged" fails and it goes round again; a mark blocks on the row until a round
  that cleared it has committed, and by then the lock is free for the mark's own task);
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


def ratings_catch_up() -> int:
    """Recompute the ratings from the earliest time marked stale, until no mark is left.
    Returns the rating changes stored (0 when another worker is already catching up, or
    nothing was marked)."""
    stored = 0
    while True:
        # One transaction a round: its ratings and the clearing of its mark commit together.
        with transaction.atomic():
            if not _try_lock():
                return stored  # the worker holding the lock sees our mark before it lets go
            backlog = RatingsBacklog.objects.filter(pk=1, stale=True).first()
            if backlog is None:
                return stored
            stored += ratings_recompute(backlog.since)
            cleared = RatingsBacklog.objects.filter(pk=1, version=backlog.version).update(
                stale=False, since=None
            )
        if cleared:
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
