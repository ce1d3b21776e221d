"""The settings load in a fresh process: defaults work, and a bad value stops the start.

Each test runs Python in a subprocess with a controlled environment, because the settings
module is read once per process and these variables are read while it loads.
"""

from __future__ import annotations

import pytest

from tests.config.processes import PROJECT_DIR, run

# Variables that change what the settings do; each test starts with none of them set.

SETUP = "import django; django.setup()"
SHOW = (
    "import django; django.setup(); from django.conf import settings as s; "
    "d = s.DATABASES['default']; "
    "print(s.DEBUG, d['ENGINE'], d['NAME'], s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL, "
    "sorted(s.ALLOWED_HOSTS))"
)


def test_empty_environment_starts_with_defaults() -> None:
    result = run(["-c", SHOW])
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(" ", 5) == [
        "True",
        "django.db.backends.sqlite3",
        str(PROJECT_DIR / "db.sqlite3"),
        "True",
        "memory://",
        "['127.0.0.1', '[::1]', 'localhost', 'testserver']\n",
    ]


def test_manage_py_check_passes_with_empty_environment() -> None:
    result = run(["manage.py", "check"])
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_like_environment_starts() -> None:
    result = run(
        ["-c", SHOW],
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="a-real-secret-" + "0123456789abcdefghij" * 3,
        DJANGO_ALLOWED_HOSTS="logs.example.org, www.logs.example.org",
        DATABASE_URL="postgres://app:pw@db.internal:5432/mjlogs",
        CELERY_BROKER_URL="redis://cache.internal:6379/0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(" ", 5) == [
        "False",
        "django.db.backends.postgresql",
        "mjlogs",
        "False",
        "redis://cache.internal:6379/0",
        "['logs.example.org', 'www.logs.example.org']\n",
    ]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"DATABASE_URL": "mysql://root:hunter2@db/games"},
            "ImproperlyConfigured: DATABASE_URL='mysql://root:***@db/games' has the scheme "
            "'mysql', which is not supported",
        ),
        (
            {"DATABASE_URL": "garbage"},
            "ImproperlyConfigured: DATABASE_URL='garbage' is not a URL",
        ),
        (
            {"DATABASE_URL": "postgres://db.internal"},
            "ImproperlyConfigured: DATABASE_URL='postgres://db.internal' names no database",
        ),
        (
            {"CELERY_BROKER_URL": "sqs://key:secret@"},
            "ImproperlyConfigured: CELERY_BROKER_URL='sqs://key:***@' has the scheme 'sqs'",
        ),
        (
            {"CELERY_RESULT_BACKEND": "django-db"},
            "ImproperlyConfigured: CELERY_RESULT_BACKEND='django-db' is not a URL",
        ),
        (
            {"DJANGO_DEBUG": "maybe"},
            "ImproperlyConfigured: DJANGO_DEBUG='maybe' is not a boolean",
        ),
        (
            {"DJANGO_DEBUG": "false"},
            "ImproperlyConfigured: DJANGO_SECRET_KEY is not set and DJANGO_DEBUG is false",
        ),
        (
            {"DJANGO_LOG_LEVEL": "LOUD"},
            "ImproperlyConfigured: DJANGO_LOG_LEVEL='LOUD' is not accepted",
        ),
    ],
    ids=[
        "mysql",
        "garbage-db",
        "no-db-name",
        "sqs-broker",
        "django-db-results",
        "bad-debug",
        "no-secret",
        "bad-log-level",
    ],
)
@pytest.mark.parametrize(
    "args", [["-c", SETUP], ["manage.py", "check"]], ids=["django-setup", "manage-check"]
)
def test_bad_value_stops_the_start(args: list[str], env: dict[str, str], message: str) -> None:
    result = run(args, **env)
    assert result.returncode != 0
    assert message in result.stderr
    assert "hunter2" not in result.stderr
    assert "secret@" not in result.stderr


def test_manage_py_runs_its_commands_with_the_batch_collector_settings() -> None:
    from engine.gc_settings import BATCH_THRESHOLDS

    result = run(["manage.py", "shell", "-c", "import gc; print(gc.get_threshold())"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == str(BATCH_THRESHOLDS)


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_the_web_process_settles_its_collector_for_serving(entry: str) -> None:
    # config.wsgi, as gunicorn loads it: what the start made is frozen out of the collector's
    # sight, and the thresholds are the server's (engine/gc_settings.py).
    from engine.gc_settings import SERVING_THRESHOLDS

    result = run(
        ["-c", f"import gc, {entry}; print(gc.get_freeze_count() > 10_000, gc.get_threshold())"]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().split(maxsplit=1) == ["True", str(SERVING_THRESHOLDS)]
