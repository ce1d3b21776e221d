"""The Celery application.

Start the workers with ``celery -A config worker -Q celery --loglevel=INFO`` and, for the link
fetches' own queue, ``celery -A config worker -Q fetch --concurrency 2 -n fetch@%h`` (a worker
without ``-Q`` takes both; docs/deploy.md). They need ``CELERY_BROKER_URL``; without it tasks
run eagerly inside the web process and no worker is needed. All Celery settings, the queues and
routes too, live in ``config/settings.py`` under the ``CELERY_`` prefix.
"""

import os

from celery import Celery
from celery.signals import worker_init

from engine.gc_settings import settle_for_batch_work

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("mjlogs")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds the tasks.py module of every installed app.
app.autodiscover_tasks()


@worker_init.connect
def _collect_rarely(**_: object) -> None:
    """A worker replays game after game, as ``manage.py`` commands do: the same thresholds
    (engine.gc_settings), set before its pool's processes are forked; its exit collects as
    usual (its tasks' libraries may hold open files)."""
    settle_for_batch_work(skip_exit_collection=False)
