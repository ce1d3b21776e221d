"""The Celery application.

Start the workers with ``celery -A config worker -Q celery --loglevel=INFO`` and, for the link
fetches' own queue, ``celery -A config worker -Q fetch --concurrency 2 -n fetch@%h`` (a worker
without ``-Q`` takes both; docs/deploy.md). They need ``CELERY_BROKER_URL``; without it tasks
run eagerly inside the web process and no worker is needed. All Celery settings, the queues and
routes too, live in ``config/settings.py`` under the ``CELERY_`` prefix.
"""

import os
import sys
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init

from engine.gc_settings import settle_for_batch_work

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("mjlogs")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Celery's Django fixup closes every database connection before and after each task unless
# this is set (then once every this many tasks): a worker opened a new PostgreSQL session for
# each task, whose server process then had to load the catalogue again for every table the
# task touched. Set beyond reach, the fixup leaves them be; they are closed as Django closes
# a request's (below), after CONN_MAX_AGE or when unusable (config/env.py).
app.conf.update(CELERY_DB_REUSE_MAX=sys.maxsize)
# Finds the tasks.py module of every installed app.
app.autodiscover_tasks()


@worker_init.connect
def _collect_rarely(**_: object) -> None:
    """A worker replays game after game, as ``manage.py`` commands do: the same thresholds
    (engine.gc_settings), set before its pool's processes are forked; its exit collects as
    usual (its tasks' libraries may hold open files)."""
    settle_for_batch_work(skip_exit_collection=False)


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(task: Any = None, **_: Any) -> None:
    """Around each task a worker runs, what Django does around each request: close the
    database connections that are past ``CONN_MAX_AGE`` or unusable (a task that failed on a
    lost connection), and keep the rest for the next task. Not around a task run eagerly: it
    runs inside its caller (a request, a command), maybe inside its transaction."""
    if task is None or getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
