"""The services the benchmark runs against: its own PostgreSQL database, its own Redis database
as the Celery broker, and K Celery worker processes.

The database is never the service's own (``mjlogs``) nor a test database: :func:`check_name`
refuses those, because the benchmark drops and re-creates the database it is given.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/mjlogs_load"
#: Redis database 7: apart from the default 0 that development and the tests use, so no other
#: worker on this machine takes the benchmark's tasks (nor the benchmark theirs).
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/7"
#: Names the benchmark refuses to drop: the service's own database and PostgreSQL's.
PROTECTED_NAMES = frozenset({"mjlogs", "postgres", "template0", "template1"})
#: Celery's default queue (the service routes every task there) and the Redis hash that holds
#: the messages a worker took but has not acknowledged yet (late acks).
QUEUE = "celery"
UNACKED = "unacked"


class BenchmarkSetupError(RuntimeError):
    """A service the benchmark needs is missing or refused, named in the message."""


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def check_name(url: str) -> str:
    name = database_name(url)
    if not name:
        raise BenchmarkSetupError(f"{url}: no database name in the URL")
    if name in PROTECTED_NAMES or name.startswith("test"):
        raise BenchmarkSetupError(
            f"refusing to use the database {name!r}: the benchmark drops and re-creates its "
            "database, so give it one of its own (such as mjlogs_load)"
        )
    return name


def recreate_database(url: str) -> None:
    """Drop the benchmark's database if it exists and create it empty."""
    import psycopg

    name = check_name(url)
    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(maintenance, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        raise BenchmarkSetupError(f"PostgreSQL at {parts.netloc}: {error}") from error


def service_env(database_url: str, broker_url: str) -> dict[str, str]:
    """The environment of every process of the benchmark's service (web, workers, commands)."""
    return os.environ | {
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "load-benchmark-only-" + "x" * 40,
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }


def redis_client(broker_url: str):  # type: ignore[no-untyped-def]
    import redis

    client = redis.Redis.from_url(broker_url)
    try:
        client.ping()
    except redis.RedisError as error:
        raise BenchmarkSetupError(f"Redis at {broker_url}: {error}") from error
    return client


def flush_broker(broker_url: str) -> None:
    """Empty the benchmark's Redis database: no task of an earlier run is left."""
    redis_client(broker_url).flushdb()


def tasks_left(broker_url: str) -> int:
    """Tasks queued or taken but not finished (acknowledged only when done: late acks)."""
    client = redis_client(broker_url)
    return int(client.llen(QUEUE)) + int(client.hlen(UNACKED))


@dataclass
class Workers:
    """K Celery worker processes of one process each (``--concurrency 1``), as K machines of
    one core would run them. Their logs (``worker-K-N.log``) hold warnings only, or every
    task's start and end with ``LOADBENCH_WORKER_LOGLEVEL=INFO``: the run's timeline."""

    count: int
    env: dict[str, str]
    log_dir: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    #: The Celery app: the project's, or the one that counts each task's CPU
    #: (``benchmarks.loadbench.task_cpu``).
    app: str = "config"

    def start(self) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        for number in range(self.count):
            log = (self.log_dir / f"worker-{self.count}-{number}.log").open("wb")
            command = [
                sys.executable,
                "-m",
                "celery",
                "-A",
                self.app,
                "worker",
                "--concurrency",
                "1",
                "--hostname",
                f"load{number}@%h",
                "--loglevel",
                os.environ.get("LOADBENCH_WORKER_LOGLEVEL", "WARNING"),
                "--without-gossip",
                "--without-mingle",
            ]
            self.processes.append(
                subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=log)
            )

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Wait until every worker answers a ping (Celery's remote control, answered from
        the worker's event loop, which starts once its task consumer has): a service's
        workers are running before an upload comes, so a run's clock starts here, not while
        they boot."""
        from celery import Celery

        # Not the current app: the project's tasks, queued by this process, stay on its own.
        app = Celery(broker=self.env["CELERY_BROKER_URL"], set_as_current=False)
        names = {f"load{number}@{socket.gethostname()}" for number in range(self.count)}
        deadline = time.monotonic() + timeout
        try:
            while True:
                self.check_alive()
                answered = {name for reply in app.control.ping(timeout=0.2) for name in reply}
                if names <= answered:
                    return
                if time.monotonic() > deadline:
                    missing = ", ".join(sorted(names - answered))
                    raise BenchmarkSetupError(
                        f"Celery workers {missing} did not answer within {timeout:.0f} s; "
                        f"see {self.log_dir}"
                    )
        finally:
            app.close()  # its broker connections: one app for each wait

    def check_alive(self) -> None:
        for process in self.processes:
            if process.poll() is not None:
                raise BenchmarkSetupError(
                    f"a Celery worker exited with status {process.returncode}; see {self.log_dir}"
                )

    def stop(self) -> None:
        # Warm shutdown: each finishes its task. Only the processes started here are signalled.
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 60
        for process in self.processes:
            try:
                process.wait(timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()

    def __enter__(self) -> Workers:
        self.start()
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


#: The servers whose CPU the benchmark adds up when they run on this machine: PostgreSQL's
#: processes (the postmaster, its backends) and Redis.
SERVER_PROCESSES = {"postgres": "postgresql", "redis-server": "redis"}


def server_cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by the database's and the broker's processes on this machine,
    by server: each live process's own, plus what its exited children used (PostgreSQL's
    postmaster reaps the backends of closed connections, and the kernel adds their time to
    its own children's). Empty where they run elsewhere."""
    total: dict[str, float] = {}
    for path in Path("/proc").glob("[0-9]*/stat"):
        stat = _process_stat(path)
        server = None if stat is None else SERVER_PROCESSES.get(stat[0])
        if stat is None or server is None:
            continue
        total[server] = total.get(server, 0.0) + _cpu_seconds(stat[1], children=True)
    return total


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds the process ``pid`` of this machine has used so far (not its children's);
    ``None`` when there is no such process here."""
    stat = _process_stat(Path(f"/proc/{pid}/stat"))
    return None if stat is None else _cpu_seconds(stat[1], children=False)


def _process_stat(path: Path) -> tuple[str, list[str]] | None:
    """A process's name and the fields after it, from its ``/proc/<pid>/stat``; ``None`` when
    the process has ended (or never was)."""
    try:
        text = path.read_text()
    except OSError:
        return None
    return text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()


def _cpu_seconds(fields: list[str], *, children: bool) -> float:
    # After the name: utime and stime are the 12th and 13th fields, cutime and cstime (the
    # exited children's) the 14th and 15th (proc(5): the 14th to 17th of the whole line).
    used = fields[11:15] if children else fields[11:13]
    return sum(int(value) for value in used) / os.sysconf("SC_CLK_TCK")
