"""Real services for integration tests: a Redis broker and Celery worker processes sharing the
test database (so PostgreSQL: an in-memory SQLite database cannot be shared with another
process).

A missing service skips these tests with a reason that names it; with ``MJ_REQUIRE_SERVICES=1``
(CI sets it) a missing service fails them instead, so CI cannot pass by skipping.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.integration.processes import ROOT, Processes, RedisServer, free_port, missing_service

#: A Redis database of its own, emptied before each test, so no stray worker or leftover task
#: of another run interferes.
REDIS_URL = os.environ.get("MJ_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _missing(service: str) -> None:
    missing_service(service, "this integration test")


@pytest.fixture
def redis_broker() -> str:
    """The broker URL, after checking Redis answers and emptying its test database."""
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.flushdb()
    except redis.RedisError as error:
        _missing(f"Redis at {REDIS_URL} does not answer ({error})")
    return REDIS_URL


@pytest.fixture
def shared_database_url(transactional_db: None) -> str:
    """A DATABASE_URL for other processes that points at this test's database."""
    settings = connection.settings_dict
    if settings["ENGINE"] != "django.db.backends.postgresql":
        _missing("PostgreSQL (DATABASE_URL=postgres://...) is needed to share the database")
    user = settings.get("USER") or ""
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"


@pytest.fixture
def service_env(redis_broker: str, shared_database_url: str) -> dict[str, str]:
    """Environment of a process of the service (worker, command) on the test's services."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=shared_database_url,
        CELERY_BROKER_URL=redis_broker,
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
        # Catch up on every change at once: the tests wait for the statistics, and the interval
        # (stats.catch_up) has tests of its own.
        STATS_CATCH_UP_INTERVAL="0",
    )
    env.pop("CELERY_RESULT_BACKEND", None)
    return env


@pytest.fixture
def celery_worker(service_env: dict[str, str], tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Start one real Celery worker (two processes) on the test broker; yields a function that
    returns its log so far. The worker is stopped (warm shutdown) after the test."""
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--concurrency=2",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=service_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield lambda: log.read_text(errors="replace")
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def wait_for(
    condition: Callable[[], Any], *, timeout: float, what: str, log: Callable[[], str]
) -> Any:
    """Poll until ``condition()`` is truthy; fail naming ``what`` with the worker's log tail."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.25)
    pytest.fail(
        f"timed out after {timeout:.0f} s waiting for {what}\n--- worker log ---\n" + log()[-4000:]
    )


# --- Fault tests: processes to start, stop and kill (tests/integration/processes.py) ---------


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    started = Processes(tmp_path)
    try:
        yield started
    finally:
        started.stop_all()


@pytest.fixture
def private_redis(processes: Processes, tmp_path: Path) -> RedisServer:
    """A Redis server of this test's own, on a free port, that the test may stop and start
    (the machine's shared Redis is never restarted)."""
    if shutil.which("redis-server") is None:
        _missing("redis-server (the Redis server program) is not installed")
    server = RedisServer(free_port(), tmp_path / "redis.log")
    processes.add(server)
    server.start()
    return server
