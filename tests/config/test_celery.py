"""The Celery app reads its configuration from the Django settings."""

from __future__ import annotations

import atexit
import gc
import weakref

from django.conf import settings

from config import celery_app


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
