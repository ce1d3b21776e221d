"""Real processes the fault tests start, stop and kill: Celery workers, a private Redis server
and the web site, each writing its output to a log file the test shows when it fails.

Every process is started in a session of its own, so killing its process group kills all of
it (a Celery worker's pool children too) and nothing else.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[2]


def missing_service(service: str, what: str) -> NoReturn:
    """Skip the test because a service it needs is missing, naming the service; fail instead
    under ``MJ_REQUIRE_SERVICES=1`` (CI sets it), so CI cannot pass by skipping."""
    message = f"{service}; start it (see README: Run the tests) to run {what}"
    if os.environ.get("MJ_REQUIRE_SERVICES") == "1":
        pytest.fail(f"required service missing: {message}", pytrace=False)
    pytest.skip(message)


def manage(
    env: dict[str, str], *args: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run ``manage.py`` in a process of its own, on the test's services."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def port_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Process:
    """A child process with its own process group and a log file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log_path = log
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log_path.open("ab") as out:
            self.popen = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        assert self.popen is not None, f"{self.name} was not started"
        return self.popen.pid

    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL the whole process group (the process and every child it started): what a
        crash of the machine or an out-of-memory kill of the container does."""
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError):  # already gone
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=30)

    def stop(self, timeout: float = 10) -> None:
        """SIGTERM (a clean shutdown), then SIGKILL the group if it takes longer than
        ``timeout`` seconds."""
        if self.popen is None:
            return
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):  # then killed below
                self.popen.wait(timeout=timeout)
        self.kill()


class CeleryWorker(Process):
    """``celery -A <app> worker``: ``app`` is ``config`` (the project's) or a test module that
    adds to it (``tests.integration.fault_worker``)."""

    def __init__(
        self, name: str, env: dict[str, str], log: Path, *, app: str, concurrency: int
    ) -> None:
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            app,
            "worker",
            f"--hostname={name}@%h",
            f"--concurrency={concurrency}",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        super().__init__(name, argv, env, log)

    def wait_ready(self, timeout: float = 60) -> None:
        """Wait until the worker says it is ready (connected, consuming)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if " ready." in self.log():
                return
            if not self.running():
                break
            time.sleep(0.1)
        pytest.fail(f"worker {self.name} did not start\n--- its log ---\n{self.log()[-4000:]}")


class RedisServer(Process):
    """A private ``redis-server`` on a port of its own, keeping nothing on disk: a restart
    empties it, as the CI's and many deployments' Redis does."""

    def __init__(self, port: int, log: Path) -> None:
        argv = [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        super().__init__(f"redis:{port}", argv, dict(os.environ), log)
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"

    def start(self) -> None:
        super().start()
        wait_until(lambda: port_answers(self.port), 10, f"redis-server on port {self.port}", self)


class WebServer(Process):
    """The site, served by Django's development server (``tests/integration/serve.py``)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        argv = [sys.executable, "-m", "tests.integration.serve", f"127.0.0.1:{self.port}"]
        super().__init__(f"web:{self.port}", argv, env, log)
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        super().start()
        wait_until(lambda: port_answers(self.port), 30, "the web server", self)


class Processes:
    """What one test started; everything is stopped (its whole process group) at teardown."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[Process] = []

    def add(self, process: Process) -> Process:
        self.started.append(process)
        return process

    def worker(
        self,
        env: dict[str, str],
        *,
        name: str = "worker",
        app: str = "config",
        concurrency: int = 1,
        extra: dict[str, str] | None = None,
    ) -> CeleryWorker:
        """Start a Celery worker and wait until it is ready; its log is ``<name>.log``."""
        (worker,) = self.workers(env, names=[name], app=app, concurrency=concurrency, extra=extra)
        return worker

    def workers(
        self,
        env: dict[str, str],
        *,
        names: list[str],
        app: str = "config",
        concurrency: int = 1,
        extra: dict[str, str] | None = None,
    ) -> list[CeleryWorker]:
        """Start several Celery workers at once, and wait until all are ready."""
        started = [
            CeleryWorker(
                name,
                {**env, **(extra or {})},
                self.folder / f"{name}.log",
                app=app,
                concurrency=concurrency,
            )
            for name in names
        ]
        for worker in started:
            self.add(worker)
            worker.start()
        for worker in started:
            worker.wait_ready()
        return started

    def web(self, env: dict[str, str], *, name: str = "web") -> WebServer:
        """Start the site (tests/integration/serve.py) and wait until it accepts connections."""
        server = WebServer(env, self.folder / f"{name}.log")
        self.add(server)
        server.start()
        return server

    def stop_all(self) -> None:
        for process in reversed(self.started):
            process.kill()


def wait_until(condition: Callable[[], object], timeout: float, what: str, *logs: Process) -> None:
    """Poll ``condition()`` every 0.1 s until it is truthy; fail naming ``what``, with the
    logs' tails, after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    tails = "".join(f"\n--- {log.name} ---\n{log.log()[-3000:]}" for log in logs)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}{tails}")


def broker_idle(url: str) -> bool:
    """Whether the Redis broker holds no task: none queued and none taken but unacknowledged."""
    import redis

    client = redis.Redis.from_url(url)
    return client.llen("celery") == 0 and client.hlen("unacked") == 0
