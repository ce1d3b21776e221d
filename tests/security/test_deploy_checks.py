"""``manage.py check --deploy`` says when the cache is private to each process (issue 40, item
13): without ``DJANGO_CACHE_URL`` each web process counts every rate limit on its own, and with
gunicorn's workers each lets the whole budget through (issue 20, finding 9); before, the
deployment check was silent about it. ``config.checks`` warns, under the deploy tag, whenever
debug is off and the cache is a process-local one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.checks import Warning, run_checks
from pytest_django.fixtures import Settings

from config.env import LOCAL_MEMORY_CACHE, REDIS_CACHE
from tests.config.processes import run
from tests.security.test_production_settings import PRODUCTION

CHECK_ID = "config.W001"


def deploy_warnings() -> list[Any]:
    return [
        message for message in run_checks(include_deployment_checks=True) if message.id == CHECK_ID
    ]


@pytest.mark.parametrize(
    "backend",
    [LOCAL_MEMORY_CACHE, "django.core.cache.backends.dummy.DummyCache"],
)
def test_a_process_local_cache_in_production_is_a_warning(settings: Settings, backend: str) -> None:
    settings.DEBUG = False
    settings.CACHES = {"default": {"BACKEND": backend}}
    (warning,) = deploy_warnings()
    assert isinstance(warning, Warning)
    assert "DJANGO_CACHE_URL" in warning.hint
    assert "process" in warning.msg


def test_a_shared_cache_or_debug_is_no_warning(settings: Settings) -> None:
    settings.DEBUG = False
    settings.CACHES = {"default": {"BACKEND": REDIS_CACHE, "LOCATION": "redis://127.0.0.1/2"}}
    assert deploy_warnings() == []
    settings.DEBUG = True
    settings.CACHES = {"default": {"BACKEND": LOCAL_MEMORY_CACHE}}
    assert deploy_warnings() == []


def test_the_warning_is_a_deployment_check_only(settings: Settings) -> None:
    settings.DEBUG = False
    settings.CACHES = {"default": {"BACKEND": LOCAL_MEMORY_CACHE}}
    assert [m for m in run_checks() if m.id == CHECK_ID] == []


def test_check_deploy_warns_without_a_cache_url_in_production() -> None:
    environment = {key: value for key, value in PRODUCTION.items() if key != "DJANGO_CACHE_URL"}
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **environment)
    output = result.stdout + result.stderr
    assert set(re.findall(r"\b[a-z]+\.W\d+", output)) == {CHECK_ID}, output
    assert "DJANGO_CACHE_URL" in output
    assert result.returncode != 0  # a warning fails --fail-level WARNING
