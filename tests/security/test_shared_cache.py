"""Throttles hold across web processes: with ``DJANGO_CACHE_URL`` naming Redis, gunicorn's
workers share one cache, so a limit of 5 uploads an hour lets exactly 5 through, whichever
worker takes each request; without it each process keeps its own local-memory cache.

Issue 20, finding 9 (see docs/security.md). The gunicorn test needs PostgreSQL (the workers
share the test database) and Redis; without them it is skipped naming the missing one, and
fails under ``MJ_REQUIRE_SERVICES=1`` (CI).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from rest_framework.authtoken.models import Token

import mjlogs.throttling
from config.env import cache_from_env
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.throttling import take_place
from tests.integration.conftest import shared_database_url  # noqa: F401 - a fixture
from tests.integration.http_client import upload
from tests.integration.processes import (
    Process,
    Processes,
    free_port,
    missing_service,
    port_answers,
)

#: A Redis database of its own for the shared cache, emptied before the test.
CACHE_URL = os.environ.get("MJ_TEST_CACHE_REDIS_URL", "redis://127.0.0.1:6379/12")
WORKERS = 3
UPLOADS = 15
LIMIT = 5


# --- DJANGO_CACHE_URL, read by config/env.py --------------------------------------------------


def test_no_url_is_the_local_memory_cache() -> None:
    assert cache_from_env(None) == {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    }
    assert cache_from_env("  ")["BACKEND"].endswith("LocMemCache")


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379/2", "rediss://:secret@cache.internal:6380/0", "redis://c"]
)
def test_a_redis_url_is_the_redis_cache(url: str) -> None:
    config = cache_from_env(url)
    assert config["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert config["LOCATION"] == url
    # A cache that stops answering fails the request in seconds, not at the OS's TCP timeout.
    assert config["OPTIONS"]["socket_connect_timeout"] > 0
    assert config["OPTIONS"]["socket_timeout"] > 0


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("memcached://127.0.0.1:11211", "has the scheme 'memcached', which is not supported"),
        ("127.0.0.1:6379", "is not a URL"),
        ("redis://127.0.0.1:6379/two", "names the Redis database '/two'"),
        ("redis://:hunter2@127.0.0.1:notaport/0", "is not a valid URL"),
    ],
)
def test_a_bad_url_is_refused(url: str, message: str) -> None:
    with pytest.raises(ImproperlyConfigured) as info:
        cache_from_env(url)
    assert str(info.value).startswith("DJANGO_CACHE_URL=")
    assert message in str(info.value)
    assert "hunter2" not in str(info.value)


# --- The window counters (mjlogs/throttling.py) ------------------------------------------------


def test_a_request_that_read_the_clock_before_the_window_opened_counts_in_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two workers take their first upload at once: the second read the clock a moment before
    # the first opened the window. Both count in that window (once, each worker opened its own
    # window, and a limit of 5 let 6 uploads through).
    cache.clear()
    monkeypatch.setattr(mjlogs.throttling, "clock", lambda: 1_800_000_000.5)
    first = take_place("test-race", 3600)
    monkeypatch.setattr(mjlogs.throttling, "clock", lambda: 1_800_000_000.4)
    second = take_place("test-race", 3600)
    assert (first.number, second.number) == (1, 2)
    assert first.key == second.key
    assert 3599 < second.wait <= 3600
    monkeypatch.setattr(mjlogs.throttling, "clock", lambda: 1_800_003_600.5)
    assert take_place("test-race", 3600).number == 1  # the next window


# --- gunicorn, three workers, one Redis cache ----------------------------------------------


class Gunicorn(Process):
    """``gunicorn config.wsgi`` with ``workers`` sync workers, logging each request with the
    id of the worker process that answered it."""

    def __init__(self, env: dict[str, str], log: Path, *, workers: int) -> None:
        self.port = free_port()
        argv = [
            sys.executable, "-m", "gunicorn", "config.wsgi:application",
            "--workers", str(workers),
            "--bind", f"127.0.0.1:{self.port}",
            "--access-logfile", "-",
            "--access-logformat", "served-by %(p)s %(m)s %(U)s %(s)s",
            "--timeout", "120",
        ]  # fmt: skip
        super().__init__(f"gunicorn:{self.port}", argv, env, log)
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            booted = self.log().count("Booting worker")
            if port_answers(self.port) and booted >= self.workers:
                return
            if not self.running():
                break
            time.sleep(0.2)
        pytest.fail(f"gunicorn did not start\n--- its log ---\n{self.log()[-4000:]}")

    def answered_by(self) -> Counter[str]:
        """How many uploads each worker process answered."""
        return Counter(re.findall(r"served-by <(\d+)> POST /api/uploads/", self.log()))


@pytest.fixture
def redis_cache() -> str:
    import redis

    try:
        redis.Redis.from_url(CACHE_URL, socket_connect_timeout=2).flushdb()
    except redis.RedisError as error:
        missing_service(f"Redis at {CACHE_URL} does not answer ({error})", "the shared-cache test")
    return CACHE_URL


@pytest.fixture
def processes(tmp_path: Path) -> object:
    started = Processes(tmp_path)
    try:
        yield started
    finally:
        started.stop_all()


def test_three_gunicorn_workers_share_one_upload_budget(
    shared_database_url: str,  # noqa: F811 - the fixture imported above
    redis_cache: str,
    processes: Processes,
    tmp_path: Path,
) -> None:
    user = User.objects.create_user("uploader", password="uploader-secret-1")
    key = Token.objects.create(user=user).key
    (game,) = simulate("tenhou-4p-east", 1, 7)
    data = canonical.write([game])
    env = dict(os.environ)
    for name in list(env):
        if name.startswith(("DJANGO_", "CELERY_", "MJLOGS_")):
            del env[name]
    env.update(
        DATABASE_URL=shared_database_url,
        DJANGO_CACHE_URL=redis_cache,
        MJLOGS_UPLOAD_RATE=f"{LIMIT}/hour",
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(Path(__file__).resolve().parents[2]),
    )
    server = Gunicorn(env, tmp_path / "gunicorn.log", workers=WORKERS)
    processes.add(server)
    server.start()
    server.wait_ready()

    # Five at a time, so that several workers are busy at once and each takes a share.
    with ThreadPoolExecutor(max_workers=5) as pool:
        answers = list(
            pool.map(lambda n: upload(server.url, key, f"game-{n}.json", data), range(UPLOADS))
        )
    statuses = Counter(answer.status for answer in answers)
    log = server.log()[-4000:]
    assert statuses[429] == UPLOADS - LIMIT, (statuses, log)
    assert statuses[201] + statuses[200] == LIMIT, (statuses, log)
    refused = next(answer for answer in answers if answer.status == 429)
    assert int(refused.headers["Retry-After"]) > 0
    # The test means something only if the uploads were spread over the workers: with a cache
    # per process, each worker would let its own 5 through.
    assert len(server.answered_by()) >= 2, log
