"""Unit tests of the environment parsers in config/env.py: every accepted and refused value."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    SQLITE_OPTIONS,
    broker_from_env,
    database_from_env,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_rate,
    mask_url,
    result_backend_from_env,
    secret_key_from_env,
    url_scheme,
)

BASE = Path("/srv/mjlogs")
POSTGRES = "django.db.backends.postgresql"
SQLITE = "django.db.backends.sqlite3"


# --- env_bool -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["1", "true", "TRUE", "True", "yes", "Yes", " yes "])
def test_env_bool_true_words(value: str) -> None:
    assert env_bool("DJANGO_DEBUG", value, default=False) is True


@pytest.mark.parametrize("value", ["0", "false", "FALSE", "no", "No", "\tno\n"])
def test_env_bool_false_words(value: str) -> None:
    assert env_bool("DJANGO_DEBUG", value, default=True) is False


@pytest.mark.parametrize("value", [None, "", "   "])
@pytest.mark.parametrize("default", [True, False])
def test_env_bool_unset_or_blank_gives_default(value: str | None, default: bool) -> None:
    assert env_bool("DJANGO_DEBUG", value, default=default) is default


@pytest.mark.parametrize("value", ["on", "off", "ture", "2", "y", "n", "enabled", "-1"])
def test_env_bool_refuses_other_words(value: str) -> None:
    with pytest.raises(ImproperlyConfigured) as info:
        env_bool("DJANGO_DEBUG", value, default=True)
    message = str(info.value)
    assert message.startswith(f"DJANGO_DEBUG={value!r} is not a boolean")
    assert "1, true, yes or 0, false, no" in message


# --- env_int and env_rate ------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [(None, 64), ("", 64), ("1000", 1000), (" 7 ", 7)])
def test_env_int_reads_whole_numbers(value: str | None, expected: int) -> None:
    assert env_int("MJLOGS_MAX_UPLOAD_BYTES", value, default=64) == expected


@pytest.mark.parametrize("value", ["10MB", "-1", "0", "1.5", "lots"])
def test_env_int_refuses_anything_else(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=r"MJLOGS_MAX_UPLOAD_BYTES=.* at least 1"):
        env_int("MJLOGS_MAX_UPLOAD_BYTES", value, default=64)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, "120/hour"), ("5/minute", "5/minute"), (" 10 / day ", "10/day")],
)
def test_env_rate_reads_a_count_per_period(value: str | None, expected: str) -> None:
    assert env_rate("MJLOGS_UPLOAD_RATE", value, default="120/hour") == expected


@pytest.mark.parametrize(
    "value", ["120", "120/week", "many/hour", "/hour", "1.5/hour", "\u00b2/hour"]
)
def test_env_rate_refuses_anything_else(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=r"MJLOGS_UPLOAD_RATE=.* is not a rate"):
        env_rate("MJLOGS_UPLOAD_RATE", value, default="120/hour")


# --- env_list and env_choice ----------------------------------------------------------------


@pytest.mark.parametrize("value", [",", " , ,"])
def test_env_list_set_but_empty_is_refused(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="DJANGO_ALLOWED_HOSTS"):
        env_list(value, default=["x"], name="DJANGO_ALLOWED_HOSTS")


def test_env_list_splits_and_strips() -> None:
    assert env_list(" a.example , b.example,,c ", default=["x"]) == ["a.example", "b.example", "c"]


@pytest.mark.parametrize("value", [None, "", "  "])
def test_env_list_default_is_a_copy(value: str | None) -> None:
    default = ["localhost"]
    result = env_list(value, default=default)
    assert result == ["localhost"]
    result.append("other")
    assert default == ["localhost"]


def test_env_choice_matches_case_insensitively() -> None:
    assert env_choice("LEVEL", "warning", choices=("INFO", "WARNING"), default="INFO") == "WARNING"
    assert env_choice("LEVEL", None, choices=("INFO", "WARNING"), default="INFO") == "INFO"


def test_env_choice_refuses_others() -> None:
    with pytest.raises(
        ImproperlyConfigured, match=r"^LEVEL='LOUD' is not accepted; use one of INFO, WARNING"
    ):
        env_choice("LEVEL", "LOUD", choices=("INFO", "WARNING"), default="INFO")


# --- secret_key_from_env --------------------------------------------------------------------


def test_secret_key_dev_default_only_in_debug() -> None:
    assert secret_key_from_env(None, debug=True, dev_default="dev") == "dev"
    assert secret_key_from_env("  ", debug=True, dev_default="dev") == "dev"


STRONG_KEY = "k3y-" + "".join(chr(ord("a") + i % 26) for i in range(60))


def test_secret_key_from_variable() -> None:
    assert secret_key_from_env(STRONG_KEY, debug=False, dev_default="dev") == STRONG_KEY
    assert secret_key_from_env("s3cret", debug=True, dev_default="dev") == "s3cret"


@pytest.mark.parametrize("weak", ["s3cret", "x" * 80])
def test_weak_secret_key_refused_without_debug(weak: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="too weak"):
        secret_key_from_env(weak, debug=False, dev_default="dev")


def test_secret_key_required_without_debug() -> None:
    with pytest.raises(ImproperlyConfigured) as info:
        secret_key_from_env(None, debug=False, dev_default="dev")
    assert str(info.value).startswith("DJANGO_SECRET_KEY is not set and DJANGO_DEBUG is false")


def test_secret_key_dev_default_refused_without_debug() -> None:
    with pytest.raises(ImproperlyConfigured, match="public development key"):
        secret_key_from_env("dev", debug=False, dev_default="dev")


# --- mask_url -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "masked"),
    [
        ("postgres://me:hunter2@db:5432/x", "postgres://me:***@db:5432/x"),
        ("redis://:hunter2@cache:6379/0", "redis://:***@cache:6379/0"),
        ("amqp://guest:p%40ss@rabbit//", "amqp://guest:***@rabbit//"),
        ("postgres://me@db/x", "postgres://me@db/x"),
        ("garbage", "garbage"),
        ("postgres://me:hunter2@[::1/x", "postgres://me:***@[::1/x"),
    ],
)
def test_mask_url(url: str, masked: str) -> None:
    assert mask_url(url) == masked


def test_url_scheme() -> None:
    assert url_scheme("Redis://:pw@host:6379/0") == "redis"


# --- database_from_env ----------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, "", "  "])
def test_database_unset_is_sqlite_file_in_project(value: str | None) -> None:
    assert database_from_env(value, base_dir=BASE) == {
        "ENGINE": SQLITE,
        "NAME": BASE / "db.sqlite3",
        "OPTIONS": SQLITE_OPTIONS,
    }


def test_sqlite_waits_for_the_write_lock_and_lets_readers_read() -> None:
    # WAL, write transactions that take the lock when they begin, and a busy timeout: the
    # embedded default under concurrent uploads (tests/integration/test_sqlite_concurrency.py).
    config = database_from_env("sqlite:///data/games.sqlite3", base_dir=BASE)
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] >= 20
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "POSTGRES"])
def test_database_postgres(scheme: str) -> None:
    config = database_from_env(f"{scheme}://me:pw@db.example:5433/games", base_dir=BASE)
    assert config["ENGINE"] == POSTGRES
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("games", "me", "pw")
    assert (config["HOST"], config["PORT"]) == ("db.example", 5433)
    assert config["CONN_MAX_AGE"] == 60
    assert config["CONN_HEALTH_CHECKS"] is True
    assert config["OPTIONS"] == {"connect_timeout": 10}


def test_database_postgres_keeps_url_options() -> None:
    config = database_from_env(
        "postgres://db/games?sslmode=require&connect_timeout=2", base_dir=BASE
    )
    assert config["OPTIONS"] == {"sslmode": "require", "connect_timeout": 2}


def test_database_sqlite_relative_path_is_under_base_dir() -> None:
    config = database_from_env("sqlite:///data/games.sqlite3", base_dir=BASE)
    assert config["ENGINE"] == SQLITE
    assert config["NAME"] == BASE / "data/games.sqlite3"
    assert config["CONN_MAX_AGE"] == 0


def test_database_sqlite_absolute_path_and_memory() -> None:
    assert database_from_env("sqlite:////tmp/x.db", base_dir=BASE)["NAME"] == "/tmp/x.db"
    assert database_from_env("sqlite:///:memory:", base_dir=BASE)["NAME"] == ":memory:"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("mysql://root:pw@db/games", "has the scheme 'mysql', which is not supported"),
        ("oracle://db/games", "has the scheme 'oracle', which is not supported"),
        ("pgsql://db/games", "has the scheme 'pgsql', which is not supported"),
        ("garbage", "is not a URL (it has no scheme"),
        ("postgres:games", "is not a URL of the form postgres://"),
        ("postgres://db:port/games", "is not a valid URL (Port could not be cast"),
        ("postgres://me:pw@db:5432/", "names no database"),
        ("postgres://db", "names no database"),
    ],
)
def test_database_refused(value: str, problem: str) -> None:
    with pytest.raises(ImproperlyConfigured) as info:
        database_from_env(value, base_dir=BASE)
    message = str(info.value)
    assert message.startswith(f"DATABASE_URL={mask_url(value)!r} {problem}")
    assert "postgres://USER:PASSWORD@HOST:PORT/DBNAME" in message
    assert "sqlite:///" in message


def test_database_error_hides_password() -> None:
    with pytest.raises(ImproperlyConfigured) as info:
        database_from_env("mysql://root:hunter2@db/games", base_dir=BASE)
    assert "hunter2" not in str(info.value)
    assert "mysql://root:***@db/games" in str(info.value)


# --- broker_from_env and result_backend_from_env -------------------------------------------


@pytest.mark.parametrize("value", [None, "", " "])
def test_broker_unset_means_eager(value: str | None) -> None:
    assert broker_from_env(value) is None


@pytest.mark.parametrize(
    "value",
    [
        "redis://127.0.0.1:6379/0",
        "rediss://:pw@cache.example:6380/0",
        "amqp://guest:guest@127.0.0.1:5672//",
        "amqps://user:pw@rabbit.example:5671/vhost",
        "pyamqp://guest@localhost//",
        " redis://localhost:6379/0 ",
    ],
)
def test_broker_accepted(value: str) -> None:
    assert broker_from_env(value) == value.strip()


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("memory://", "has the scheme 'memory', which is not supported"),
        ("sqs://key:secret@", "has the scheme 'sqs', which is not supported"),
        ("localhost:6379", "has the scheme 'localhost', which is not supported"),
        ("garbage", "is not a URL (it has no scheme"),
        ("redis:localhost", "is not a URL of the form redis://"),
        ("redis://localhost:port/0", "is not a valid URL"),
    ],
)
def test_broker_refused(value: str, problem: str) -> None:
    with pytest.raises(ImproperlyConfigured) as info:
        broker_from_env(value)
    message = str(info.value)
    assert message.startswith(f"CELERY_BROKER_URL={mask_url(value)!r} {problem}")
    assert "redis://HOST:6379/0" in message
    assert "amqp://" in message
    assert "secret" not in message


@pytest.mark.parametrize("value", ["redis://localhost:6379/1", "rediss://cache/1", "rpc://"])
def test_result_backend_accepted(value: str) -> None:
    assert result_backend_from_env(value) == value


def test_result_backend_unset() -> None:
    assert result_backend_from_env(None) is None
    assert result_backend_from_env("") is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("django-db", "is not a URL (it has no scheme"),
        ("amqp://guest@localhost//", "has the scheme 'amqp', which is not supported"),
        ("db+postgresql://db/x", "has the scheme 'db+postgresql', which is not supported"),
    ],
)
def test_result_backend_refused(value: str, problem: str) -> None:
    with pytest.raises(ImproperlyConfigured) as info:
        result_backend_from_env(value)
    message = str(info.value)
    assert message.startswith(f"CELERY_RESULT_BACKEND={value!r} {problem}")
    assert "rpc://" in message
