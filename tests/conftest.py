"""Fixtures and checks shared by every test.

Tests touch the database only when they ask for it (``@pytest.mark.django_db`` or the
``db`` fixture); pytest-django refuses any other access, which keeps the engine tests free
of Django's database. With ``DATABASE_URL`` unset the database tests run on an in-memory
SQLite database; with it set to PostgreSQL, Django creates ``test_<name>`` on that server.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.test import override_settings

from config.env import mask_url

# The session's Chromium, shared by tests/browser and tests/security (one Playwright a process).
pytest_plugins = ("tests.chromium",)

# Seconds to wait for PostgreSQL before declaring it unreachable.
CONNECT_TIMEOUT = 3


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (or set MJ_SLOW=1)",
    )


#: The repository's root (SHARED_SERVICES is relative to it, whatever pytest's rootdir).
REPOSITORY = Path(__file__).resolve().parents[1]

#: Tests that use what all test processes share: the Redis test database (flushed by each), the
#: broker's queues, Celery workers and servers started on the services. They are marked
#: ``shared_services``: the README's test command runs the other tests in parallel
#: (pytest-xdist, ``-m "not shared_services"``) and then these in one process, one after another.
SHARED_SERVICES = (
    "tests/integration",
    "tests/benchmarks/test_load_smoke.py",
    "tests/security/test_shared_cache.py",
    "tests/security/test_production_settings.py",
    "tests/mjlogs/test_home_and_health.py",
    "tests/config",
)


# First: the marks must be on before pytest's own hook deselects by them (-m).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of shared services; skip tests marked ``slow`` (long differential runs)
    unless asked for."""
    shared = [REPOSITORY / prefix for prefix in SHARED_SERVICES]
    for item in items:
        if any(item.path.is_relative_to(place) for place in shared):
            item.add_marker(pytest.mark.shared_services)
    if config.getoption("--runslow") or os.environ.get("MJ_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow test: run with --runslow or MJ_SLOW=1")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing() -> Iterator[None]:
    """Accounts made and logged in by the tests use a fast hash (MD5) instead of PBKDF2's
    million rounds (about half a second each here): Django's advice for test suites. The
    production hasher is the settings' own; tests that count hashing set theirs on top
    (tests/security/hashers.py). ``override_settings`` also empties Django's hasher cache."""
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    fast.enable()
    yield
    fast.disable()


def _needs_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("django_db") is not None:
        return True
    # `db`, `transactional_db`, `live_server`, `admin_client`, ... all depend on this one.
    return "django_db_setup" in getattr(item, "fixturenames", ())


def _postgres_error(database: dict[str, object]) -> str | None:
    """Try to connect; return the error text, or ``None`` when the server answers.

    Tries the configured database, then ``postgres``: Django's test runner connects to the
    latter to create ``test_<name>``, so a server whose database does not exist yet is fine.
    """
    first_error: str | None = None
    for dbname in (database["NAME"], "postgres"):
        try:
            psycopg.connect(
                dbname=str(dbname),
                user=str(database.get("USER") or "") or None,
                password=str(database.get("PASSWORD") or "") or None,
                host=str(database.get("HOST") or "") or None,
                port=str(database.get("PORT") or "") or None,
                connect_timeout=CONNECT_TIMEOUT,
            ).close()
        except psycopg.Error as exc:
            # psycopg's messages span lines; keep them on the one line of the exit message.
            first_error = first_error or " ".join(str(exc).split()).rstrip(".")
        else:
            return None
    return first_error


def pytest_collection_finish(session: pytest.Session) -> None:
    """Stop at once, with a clear message, when database tests cannot reach PostgreSQL.

    Without this every database test would fail on its own with a long traceback.
    Only checked when a collected test needs the database, so ``pytest tests/engine``
    runs whatever ``DATABASE_URL`` says.
    """
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        return
    if not any(_needs_database(item) for item in session.items):
        return
    error = _postgres_error(database)
    if error is not None:
        url = mask_url(os.environ.get("DATABASE_URL", ""))
        pytest.exit(
            f"DATABASE_URL={url} is not reachable: {error}. "
            "Start PostgreSQL or unset DATABASE_URL to use SQLite.",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


@pytest.fixture
def latest_schema_after() -> Iterator[None]:
    """For a test that migrates the test database back to try a data migration: migrate it
    forward to the latest migrations afterwards, the schema every other test expects (the
    database lives for the whole session)."""
    yield
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """On SQLite, the test database is a file, as the site's is, not Django's default shared
    in-memory database: there the live server's threads (the browser tests) lock each other's
    tables ("database table is locked", which no busy timeout waits out), where a file in WAL
    mode lets readers go on and queues writers (``config.env.SQLITE_OPTIONS``)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if str(database["ENGINE"]).endswith("sqlite3"):
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
