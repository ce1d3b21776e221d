"""Celery tasks of the mjlogs app.

A task is thin and safe to run twice: it takes ids, calls one service, and is queued after
the transaction commits (``transaction.on_commit`` or ``task.delay_on_commit``). Engine
errors are verdicts to record, never retried; only transient faults are retried.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task

import config.celery  # noqa: F401  (the project's app, before a task binds: config/__init__.py)
from config.middleware import DATABASE_ERRORS
from mjlogs.link_imports import TryAgainLater, link_import_fail, link_import_run
from mjlogs.queued_imports import queued_batch_import

logger = logging.getLogger(__name__)

#: What a link import says when its task stopped on an error after its retries.
TASK_FAILED = "the import stopped on an error before it could finish; please try again"


class _LinkImportTask(Task[[int], str | None]):
    """Ends the task's link import as failed when the task fails for good (the database
    stayed away through every retry), so that no row waits for ever."""

    def on_failure(self, exc: Exception, task_id: str, args: Any, kwargs: Any, einfo: Any) -> None:
        link_import_id = args[0] if args else kwargs.get("link_import_id")
        try:
            link_import_fail(link_import_id, TASK_FAILED)
        except DATABASE_ERRORS as error:
            logger.error("Link import %s left waiting: %s", link_import_id, error)


@shared_task(
    bind=True,
    base=_LinkImportTask,
    autoretry_for=DATABASE_ERRORS,  # the database blinked: try again later
    retry_backoff=True,
    max_retries=5,
    # Per worker: the log server is spaced further, across every process (mjlogs.log_fetch).
    rate_limit="30/m",
)
def import_tenhou_link(self: Any, link_import_id: int) -> str | None:
    """Fetch and import the game of one link import (``mjlogs.link_imports``); returns the
    row's status (``None`` when the row is gone).

    A transient failure of the log server with tries left is retried after the pause the
    service names (its backoff, or the server's ``Retry-After``); the service counts the tries
    on the row (``MJLOGS_FETCH_ATTEMPTS``) and marks it failed after the last. Without a broker
    (tasks run in-process) nothing would run a retry later, so the next try runs at once; the
    fetch client still spaces requests by ``MJLOGS_FETCH_MIN_INTERVAL``.
    """
    while True:
        try:
            row = link_import_run(link_import_id)
        except TryAgainLater as later:
            if self.request.is_eager:
                continue
            # The row bounds the tries: Celery is told to allow this one, whatever its count.
            raise self.retry(
                exc=later, countdown=later.delay, max_retries=self.request.retries + 1
            ) from None
        return None if row is None else row.status


@shared_task(autoretry_for=DATABASE_ERRORS, retry_backoff=True, max_retries=5)
def import_queued_batch(queued_import_id: int, batch: int) -> int | None:
    """Import, and verify here, one batch of a queued import (``mjlogs.queued_imports``);
    returns how many files it held (``None``: nothing left to do)."""
    return queued_batch_import(queued_import_id, batch)
