"""The Celery app reads its configuration from the Django settings, and is found where Celery
looks for it though Django starts without it."""

from __future__ import annotations

import atexit
import gc
import time
import weakref
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction

from config.celery import app as celery_app
from tests.config.processes import run


def test_celery_app_uses_the_django_settings() -> None:
    conf = celery_app.conf
    assert celery_app.main == "mjlogs"
    assert conf.broker_url == settings.CELERY_BROKER_URL
    assert conf.task_always_eager is settings.CELERY_TASK_ALWAYS_EAGER
    assert conf.task_eager_propagates is settings.CELERY_TASK_EAGER_PROPAGATES
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_serializer == "json"
    assert conf.accept_content == ["json"]


def test_a_starting_worker_takes_the_batch_collector_settings() -> None:
    from celery.signals import worker_init

    from config.celery import _collect_rarely
    from engine.gc_settings import BATCH_THRESHOLDS

    # Connected to the signal a worker sends as it starts (sending it here would also start
    # Django's worker fixup in this test process).
    receivers = [ref() if isinstance(ref, weakref.ref) else ref for _, ref in worker_init.receivers]
    assert _collect_rarely in receivers
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        _collect_rarely()
        assert gc.get_threshold() == BATCH_THRESHOLDS
    finally:
        gc.set_threshold(*before)
        atexit.unregister(gc.freeze)  # this test process keeps its last collection


def test_celery_dash_a_config_finds_the_project_app() -> None:
    # `celery -A config worker` (README, docs/deploy.md): config no longer imports the app with
    # the settings, so Celery must find it in config.celery.
    result = run(
        [
            "-c",
            "from celery.app.utils import find_app; app = find_app('config'); "
            "print(app.main, app.conf.task_serializer)",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["mjlogs", "json"]


def test_django_starts_without_celery_and_the_tasks_bind_to_the_project_app() -> None:
    # Celery is imported with the first tasks module (config/__init__.py), and each task is the
    # project app's, configured from the settings, whichever tasks module comes first.
    result = run(
        [
            "-c",
            "import sys, django; django.setup(); print('celery' in sys.modules); "
            "from stats.tasks import catch_up_study; from stats.catch_up import STUDY_CATCH_UP; "
            "print(catch_up_study.app.main, catch_up_study.app.conf.task_always_eager, "
            "catch_up_study.name == STUDY_CATCH_UP)",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "mjlogs", "True", "True"]


def test_django_starts_without_the_apps_above_the_records() -> None:
    # The replay and stats apps register what they do by name (mjlogs.pipeline): their
    # modules, and the engine's replay, are imported when a game is first verified or counted,
    # not by every `manage.py` command and every forked reader process.
    result = run(
        [
            "-c",
            "import sys, django; django.setup(); "
            "print(sorted(m for m in ('replay.services', 'replay.pipeline', 'stats.services', "
            "'stats.pipeline', 'stats.catch_up', 'engine.replay') if m in sys.modules)); "
            "from mjlogs import pipeline; "
            "print(type(pipeline.verification()).__name__, type(pipeline.statistics()).__name__)",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["[]", "ReplayVerification", "StatsOfGames"]


def _task(*, eager: bool) -> SimpleNamespace:
    return SimpleNamespace(request=SimpleNamespace(is_eager=eager))


@pytest.mark.django_db(transaction=True)
def test_a_workers_task_closes_only_connections_past_their_age() -> None:
    from config.celery import _close_old_connections

    connection.ensure_connection()
    connection.close_at = time.monotonic() + 60  # within CONN_MAX_AGE: kept for the next task
    _close_old_connections(task=_task(eager=False))
    assert connection.connection is not None
    connection.close_at = time.monotonic() - 1  # past it: closed
    _close_old_connections(task=_task(eager=False))
    assert connection.connection is None


@pytest.mark.django_db(transaction=True)
def test_a_task_run_eagerly_leaves_its_callers_transaction_alone() -> None:
    from config.celery import _close_old_connections

    with transaction.atomic():
        User.objects.create(username="caller")
        # Django would close a connection found outside autocommit, as inside a transaction.
        _close_old_connections(task=_task(eager=True))
        assert connection.connection is not None
        User.objects.create(username="caller-2")
    assert User.objects.filter(username__startswith="caller").count() == 2


def test_celerys_django_fixup_leaves_the_connections_to_us() -> None:
    # Without CELERY_DB_REUSE_MAX, the fixup closes every connection around every task.
    assert celery_app.conf.get("CELERY_DB_REUSE_MAX", 0) >= 10**9
