"""Celery tasks of the stats app.

A task is thin and safe to run twice: it takes ids, calls one service, and is queued after
the transaction commits (``transaction.on_commit`` or ``task.delay_on_commit``). Engine
errors are verdicts to record, never retried; only transient faults are retried.

Each verification (and each deletion or visibility change of a game) queues
:func:`update_player_stats` for the game's players: only they are recomputed.
``manage.py recompute_stats`` queues every player in chunks, which many workers share.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from stats.services import player_summaries_update


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def update_player_stats(player_ids: list[int]) -> int:
    """Recompute these players' summaries; returns how many were updated."""
    return player_summaries_update(player_ids)
