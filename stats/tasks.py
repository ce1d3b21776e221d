"""Celery tasks of the stats app.

A task is thin and safe to run twice: it takes ids, calls one service, and is queued after
the transaction commits (``transaction.on_commit`` or ``task.delay_on_commit``). Engine
errors are verdicts to record, never retried; only transient faults are retried.

Each verification (and each deletion or visibility change of a game) marks the game's
players' summaries and the ratings from the game's time on as behind, then queues
:func:`catch_up_player_stats` and :func:`update_ratings` unless one of each is already waiting
(``stats.catch_up_queue``): a burst of changes costs one recomputation per player and a few of
the ratings, not one each (``stats.summary_backlog``, ``stats.rating_backlog``).
``manage.py recompute_stats`` queues every player in chunks (:func:`update_player_stats`),
which many workers share.
"""

from __future__ import annotations

from celery import Task, shared_task
from django.db import OperationalError
from kombu.exceptions import OperationalError as BrokerUnreachable

from stats import catch_up_queue
from stats.rating_backlog import ratings_catch_up
from stats.services import player_summaries_catch_up, player_summaries_update, queue_catch_up


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def update_player_stats(player_ids: list[int]) -> int:
    """Recompute these players' summaries; returns how many were updated."""
    return player_summaries_update(player_ids)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def catch_up_player_stats() -> int:
    """Recompute the summaries of the players marked behind when it starts
    (``stats.summary_backlog``), unless it is not yet due (``stats.catch_up_queue``); returns
    how many. Workers running it at once share the marks."""
    if _postponed(catch_up_player_stats):
        return 0
    catch_up_queue.release(catch_up_player_stats.name)
    try:
        return player_summaries_catch_up()
    finally:
        catch_up_queue.finish(catch_up_player_stats.name)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def update_ratings() -> int:
    """Bring the ratings up to date from the earliest time marked stale; when another worker
    is doing it already, queue this again for later (``stats.rating_backlog``). Returns the
    changes stored. Whoever changes a game marks the ratings stale first, then queues this."""
    if _postponed(update_ratings):
        return 0
    catch_up_queue.release(update_ratings.name)
    try:
        stored = ratings_catch_up()
    finally:
        catch_up_queue.finish(update_ratings.name)
    if stored is None:  # another worker is catching up: come back after it
        if not update_ratings.app.conf.task_always_eager:  # eager, it would run again at once
            queue_catch_up(update_ratings)
        return 0
    return stored


def _postponed(task: Task) -> bool:
    """Whether this catch-up put itself off: not yet due while changes keep coming, or the last
    one still running (queued again to look at most 30 s later, ``stats.catch_up_queue``).
    Eager tasks run one after another, and never are."""
    if task.app.conf.task_always_eager:
        return False
    delay = catch_up_queue.postpone(task.name)
    if delay is None:
        return False
    try:
        task.apply_async(countdown=delay)
    except BrokerUnreachable:  # run here, as the change that found no broker asked
        return False
    return True
