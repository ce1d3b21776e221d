"""Celery tasks of the stats app.

A task is thin and safe to run twice: it takes ids (or nothing), calls ``stats.catch_up``,
and is queued after the transaction commits (``transaction.on_commit`` or
``task.delay_on_commit``). Engine errors are verdicts to record, never retried; only transient
faults are retried.

Each verification (and each deletion or visibility change of a game) calls
:func:`game_stats_queue_update`: it marks the game's players' summaries and the ratings from
the game's time on as behind, then queues :func:`catch_up_player_stats` and
:func:`update_ratings` unless one of each is already waiting: a burst of changes costs one
recomputation per player and a few of the ratings, not one each (``stats.catch_up``).
``manage.py recompute_stats`` queues every player in chunks (:func:`update_player_stats`),
which many workers share.

This is the top layer of the stats app (the layers are listed in ``stats/catch_up.py``):
``stats.catch_up`` never imports it, and is handed the tasks it queues.
"""

from __future__ import annotations

from collections.abc import Sequence

from celery import shared_task
from django.db import OperationalError

import config.celery  # noqa: F401  (the project's app, before a task binds: config/__init__.py)
from mjlogs.models import Game
from stats import catch_up


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def update_player_stats(player_ids: list[int]) -> int:
    """Recompute these players' summaries; returns how many were updated."""
    return catch_up.player_summaries_update(player_ids)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def catch_up_player_stats() -> int:
    """Recompute the summaries of the players marked behind when it starts, unless it is not
    yet due (``stats.catch_up.player_summaries_pass``); returns how many. Workers running it at
    once share the marks."""
    return catch_up.player_summaries_pass(catch_up_player_stats, help_catch_up_player_stats)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def help_catch_up_player_stats() -> int:
    """Take chunks of the players marked behind beside a running summaries' pass, which queues
    this (``stats.catch_up.player_summaries_pass``); returns how many summaries it did."""
    return catch_up.player_summaries_catch_up()


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def update_ratings() -> int:
    """Bring the ratings up to date from the earliest time marked stale; when another worker
    is doing it already, queue this again for later (``stats.catch_up.ratings_pass``). Returns
    the changes stored. Whoever changes a game marks the ratings stale first, then queues
    this."""
    return catch_up.ratings_pass(update_ratings)


@shared_task(
    name=catch_up.STUDY_CATCH_UP,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def catch_up_study() -> int:
    """Count the study aids (tile acceptance of every discard decision) of the games verified
    since the last pass, then queue the summaries' catch-up for their players
    (``stats.catch_up.study_pass``); returns the games counted."""
    return catch_up.study_pass(catch_up_study, catch_up_player_stats)


def game_stats_queue_update(game: Game) -> None:
    """Mark what a change to this game (verified, deleted, made public or private) changes,
    and after the current transaction commits, queue the tasks that bring it up to date: its
    players' summaries, and the ratings from its time on (``stats.catch_up.game_stats_mark``).
    Call it inside the transaction that changes the game, before deleting it (it reads the
    game's players now).

    The tasks run in-process when Celery is eager, and also when the broker cannot be reached
    (logged): the marks would keep the statistics correct (read from the rows) but slow until
    the next catch-up, so they are brought up to date now."""
    catch_up.game_stats_mark(game, summaries=catch_up_player_stats, ratings=update_ratings)


def games_stats_queue_update(games: Sequence[Game]) -> None:
    """:func:`game_stats_queue_update` for games just verified, in one transaction: also the
    study aids' counts of their hands, which a deletion or a change of visibility does not
    need."""
    catch_up.games_stats_mark(
        games, summaries=catch_up_player_stats, ratings=update_ratings, study=catch_up_study
    )
