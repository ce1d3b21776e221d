"""Celery tasks of the replay app.

A task is thin and safe to run twice: it takes ids, calls one service, and is queued after
the transaction commits (``transaction.on_commit`` or ``task.delay_on_commit``). Engine
errors are verdicts to record, never retried; only transient faults are retried.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

import config.celery  # noqa: F401  (the project's app, before a task binds: config/__init__.py)
from replay.services import game_verify, games_verify


@shared_task(
    autoretry_for=(OperationalError,),  # the database blinked: try again later
    retry_backoff=True,
    max_retries=5,
)
def verify_game(game_id: int) -> str | None:
    """Verify one stored game; returns its verdict (``None`` when the game is gone)."""
    verification = game_verify(game_id)
    return None if verification is None else verification.verdict


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def verify_games(game_ids: list[int]) -> int:
    """Verify several stored games, their verdicts written together (a batch of a bulk
    import, queued for a worker by ``mjlogs.verification_queue.VerificationQueue``); returns how
    many were verified (games gone are skipped)."""
    return len(games_verify(game_ids))
