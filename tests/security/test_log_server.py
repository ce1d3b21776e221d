"""Tenhou's log server and the link fetches (issue 40, items 6, 8 and 10).

- **Item 6.** Sixty link requests of one user held every worker (each fetch waits its turn for
  the log server) and delayed another user's verification from 0.3 s to 115 s. The fetch task
  now has a queue of its own (``fetch``), which the documented workers take apart from the
  verifications', and one user may have at most ``MJLOGS_FETCH_PENDING_PER_USER`` link imports
  waiting: the next is refused (429 in the API, on the page) until one ends.
- **Item 8.** A log server that sends its answer a byte a second held a fetch for 473 s despite
  the 10 s timeout: the timeout was per read, and the deadline was checked only between 64 KB
  chunks. Now ``MJLOGS_FETCH_TIMEOUT`` bounds the whole request, from connecting to the last
  byte: a real server on 127.0.0.1 dripping its headers, or its body, fails the fetch
  (transiently, "did not answer within") within twice the timeout.
- **Item 10.** Redirects from the log server were followed anywhere (an internal address, the
  cloud's metadata service), and a redirect loop made 31 requests. Now no redirect off the
  configured host (``MJLOGS_TENHOU_LOG_URL``'s scheme, host and port) is followed, and at most
  three on it: either is a final failure that says so.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from config.celery import app
from mjlogs.log_fetch import FetchError, fetch_tenhou_log
from mjlogs.models import LinkImport, LinkImportStatus
from mjlogs.tasks import import_tenhou_link
from replay.tasks import verify_game
from tests.api.conftest import client_for
from tests.config.processes import run

ROOT = Path(__file__).resolve().parents[2]


def _log_id(number: int) -> str:
    """A well-formed Tenhou log id of its own (nothing is fetched in the tests of item 6)."""
    return f"2010081709gm-00a9-0000-{number:08x}"


# --- Item 6: the fetches' own queue, and a limit of waiting fetches per user --------------------


def _queue(task_name: str) -> str:
    route = app.amqp.router.route({}, task_name, args=(1,), kwargs={})
    return str(route["queue"].name)


def test_the_fetch_task_has_a_queue_of_its_own() -> None:
    assert _queue(import_tenhou_link.name) == "fetch"
    assert _queue(verify_game.name) == "celery"
    # A worker started without -Q takes both, so that no fetch waits for ever on a worker
    # started as it was before the fetches had their queue.
    assert {"celery", "fetch"} <= set(app.amqp.queues)


@pytest.mark.parametrize("doc", ["README.md", "docs/deploy.md"])
def test_the_documented_workers_take_the_fetch_queue_apart(doc: str) -> None:
    commands = re.findall(r"celery -A config worker[^\n`]*", (ROOT / doc).read_text())
    queues = [
        set(found.group(1).split(","))
        for command in commands
        if (found := re.search(r"-Q (\S+)", command))
    ]
    # One worker (or more) for the verifications and the rest, one for the fetches: never both
    # in one, or one user's fetches hold the verifications' processes again.
    assert {"celery"} in queues and {"fetch"} in queues, commands


URL = "/api/imports/links/"


def _ask(user: User, number: int) -> Any:
    # The test's transaction never commits, so no task runs: each request stays waiting, as
    # it would behind a busy fetch worker.
    return client_for(user).post(URL, {"link": _log_id(number)}, format="json")


@pytest.mark.django_db
def test_one_user_may_have_so_many_fetches_waiting(
    settings: Settings, alice: User, bob: User
) -> None:
    settings.MJLOGS_FETCH_PENDING_PER_USER = 3
    assert [_ask(alice, number).status_code for number in range(3)] == [202] * 3
    refused = _ask(alice, 3)
    assert refused.status_code == 429
    detail = refused.json()["detail"]
    assert "3 games waiting to be fetched" in detail, detail
    assert LinkImport.objects.filter(requested_by=alice).count() == 3
    # Someone else's requests are not held by alice's.
    assert _ask(bob, 10).status_code == 202
    # Once one of alice's ends, she may ask again.
    first = LinkImport.objects.filter(requested_by=alice).order_by("pk").first()
    assert first is not None
    LinkImport.objects.filter(pk=first.pk).update(status=LinkImportStatus.FAILED)
    assert _ask(alice, 4).status_code == 202
    assert _ask(alice, 5).status_code == 429


@pytest.mark.django_db
def test_a_request_left_waiting_long_ago_holds_no_place(settings: Settings, alice: User) -> None:
    settings.MJLOGS_FETCH_PENDING_PER_USER = 1
    assert _ask(alice, 0).status_code == 202
    LinkImport.objects.update(created_at=timezone.now() - timedelta(hours=1))
    assert _ask(alice, 1).status_code == 202


@pytest.mark.django_db
def test_the_page_says_the_limit_too(settings: Settings, alice: User) -> None:
    settings.MJLOGS_FETCH_PENDING_PER_USER = 2
    page = Client()
    page.force_login(alice)
    for number in range(2):
        answer = page.post("/upload/link/", {"link": _log_id(number), "visibility": "public"})
        assert answer.status_code == 302
    refused = page.post("/upload/link/", {"link": _log_id(2), "visibility": "public"})
    assert refused.status_code == 429
    assert "2 games waiting to be fetched" in refused.content.decode()
    assert LinkImport.objects.count() == 2


def test_the_limit_has_a_default_and_can_be_set() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.MJLOGS_FETCH_PENDING_PER_USER)"
    )
    assert run(["-c", code]).stdout.split() == ["10"]
    assert run(["-c", code], MJLOGS_FETCH_PENDING_PER_USER="3").stdout.split() == ["3"]
    assert run(["-c", code], MJLOGS_FETCH_PENDING_PER_USER="0").returncode != 0


# --- Item 8: one deadline for the whole fetch, headers and body -----------------------------------

#: The fetch timeout of these tests (MJLOGS_FETCH_TIMEOUT), in seconds.
TIMEOUT = 1.0
#: A response, as a dripping server sends it: a status line, headers, and a long body.
RESPONSE = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 100000\r\n"
    b"Connection: close\r\n\r\n" + b'<mjloggm ver="2.3">' + b" " * 99_980
)


class DripServer:
    """A raw socket server on 127.0.0.1 (a thread, a free port) that reads a request and then
    sends ``RESPONSE`` a byte every ``pause`` seconds, from ``at_once`` bytes on (before that,
    at once): never a pause long enough for a per-read timeout to end it."""

    def __init__(self, *, at_once: int, pause: float = 0.05) -> None:
        self.at_once = at_once
        self.pause = pause
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url_template(self) -> str:
        port = self._listener.getsockname()[1]
        return f"http://127.0.0.1:{port}/0/log/?{{log_id}}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self._listener.accept()
            except TimeoutError:
                continue
            self.connections += 1
            threading.Thread(target=self._drip, args=(connection,), daemon=True).start()

    def _drip(self, connection: socket.socket) -> None:
        with connection:
            request = b""
            while b"\r\n\r\n" not in request:
                data = connection.recv(4096)
                if not data:
                    return
                request += data
            try:
                connection.sendall(RESPONSE[: self.at_once])
                for byte in range(self.at_once, len(RESPONSE)):
                    if self._stop.is_set():
                        return
                    connection.sendall(RESPONSE[byte : byte + 1])
                    time.sleep(self.pause)
            except OSError:
                return  # the client hung up: what it should do

    def __enter__(self) -> DripServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._listener.close()


@pytest.fixture
def fetch_settings(settings: Settings) -> Settings:
    settings.MJLOGS_FETCH_TIMEOUT = TIMEOUT
    settings.MJLOGS_FETCH_MIN_INTERVAL = 0
    return settings


def _timed_fetch(server: DripServer) -> tuple[FetchError, float]:
    """The error of a fetch from ``server``, and how long it took; a fetch still running after
    three times the timeout fails the test (the server then stops, which ends it)."""
    outcome: list[BaseException] = []

    def fetch() -> None:
        try:
            fetch_tenhou_log(_log_id(1))
        except BaseException as error:
            outcome.append(error)

    started = time.monotonic()
    thread = threading.Thread(target=fetch, daemon=True)
    thread.start()
    thread.join(timeout=3 * TIMEOUT)
    took = time.monotonic() - started
    if thread.is_alive():
        pytest.fail(f"the fetch was still running after {took:.1f} s (timeout {TIMEOUT:g} s)")
    (error,) = outcome
    assert isinstance(error, FetchError), error
    return error, took


@pytest.mark.parametrize(
    "at_once",
    [
        pytest.param(0, id="headers-dripped"),
        pytest.param(len(RESPONSE) - 99_980 + 5, id="body-dripped"),
    ],
)
def test_a_dripping_server_is_cut_off_at_the_deadline(
    fetch_settings: Settings, at_once: int
) -> None:
    with DripServer(at_once=at_once) as server:
        fetch_settings.MJLOGS_TENHOU_LOG_URL = server.url_template
        error, took = _timed_fetch(server)
    assert error.transient
    assert error.message == f"Tenhou's log server did not answer within {TIMEOUT:g} s"
    assert took < 2 * TIMEOUT, took
    assert server.connections == 1


# --- Item 10: redirects stay on the configured host, and are few ----------------------------------

#: What the log server sends as the log, once a request reaches it.
LOG = b'<mjloggm ver="2.3"></mjloggm>'


class LogServer:
    """An HTTP server on 127.0.0.1 (a thread, a free port) answering each path from
    ``redirects`` (a ``Location`` to send with a 302) or else with :data:`LOG`; ``paths`` lists
    the paths it was asked for."""

    def __init__(self) -> None:
        self.redirects: dict[str, str] = {}
        self.paths: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                path = self.path.partition("?")[0]
                outer.paths.append(path)
                location = outer.redirects.get(path)
                body = b"" if location else LOG
                self.send_response(302 if location else 200)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def __enter__(self) -> LogServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def log_server(fetch_settings: Settings) -> Iterator[LogServer]:
    """The configured log server (``MJLOGS_TENHOU_LOG_URL``)."""
    with LogServer() as server:
        fetch_settings.MJLOGS_TENHOU_LOG_URL = server.url("/0/log/?{log_id}")
        yield server


@pytest.fixture
def elsewhere() -> Iterator[LogServer]:
    """Another server on 127.0.0.1, which would answer the log too."""
    with LogServer() as server:
        yield server


@pytest.mark.parametrize(
    "target",
    [
        pytest.param("other port", id="another-port"),
        pytest.param("localhost", id="another-name"),
        pytest.param("http://169.254.169.254/latest/meta-data/", id="metadata-address"),
        pytest.param("file:///etc/passwd", id="another-scheme"),
    ],
)
def test_a_redirect_off_the_configured_host_is_not_followed(
    log_server: LogServer, elsewhere: LogServer, target: str
) -> None:
    location = {
        "other port": elsewhere.url("/0/log/?x"),
        "localhost": log_server.url("/moved/", host="localhost"),
    }.get(target, target)
    log_server.redirects["/0/log/"] = location
    with pytest.raises(FetchError) as raised:
        fetch_tenhou_log(_log_id(1))
    assert not raised.value.transient
    assert raised.value.message.startswith("Tenhou's log server redirected the request to "), (
        raised.value.message
    )
    assert raised.value.message.endswith(", off its own host; not followed")
    assert log_server.paths == ["/0/log/"] and elsewhere.paths == []


def test_a_redirect_loop_stops_after_three(log_server: LogServer) -> None:
    log_server.redirects["/0/log/"] = "/0/log/?again"
    with pytest.raises(FetchError) as raised:
        fetch_tenhou_log(_log_id(1))
    assert not raised.value.transient
    assert raised.value.message == "Tenhou's log server sent too many redirects"
    assert len(log_server.paths) == 4  # the request, and three redirects followed


def test_three_redirects_on_the_host_are_followed(log_server: LogServer) -> None:
    log_server.redirects["/0/log/"] = "/first/?x"  # relative
    log_server.redirects["/first/"] = log_server.url("/second/")  # absolute, same host
    log_server.redirects["/second/"] = "/third/"
    assert fetch_tenhou_log(_log_id(1)) == LOG
    assert log_server.paths == ["/0/log/", "/first/", "/second/", "/third/"]
