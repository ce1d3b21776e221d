"""The Celery app reads its configuration from the Django settings."""

from __future__ import annotations

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
