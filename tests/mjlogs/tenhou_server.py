"""A stand-in for Tenhou's log server: a real HTTP server on 127.0.0.1 (a thread, a free port)
that answers ``GET /0/log/?<log id>`` as Tenhou does, from recorded answers: real game logs of
the shared corpus (read at test time, never copied here), 404 for any other id, and whatever a
test scripts (a status, a pause, an HTML page, a gzip-encoded body). It records every request
it gets, with its headers and the moment it arrived.

The ``tenhou`` fixture starts one and points ``MJLOGS_TENHOU_LOG_URL`` at it, with a short
timeout and no spacing between requests; import it into a test module to use it.
"""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from pytest_django.fixtures import Settings

from tests.engine.corpus import CORPUS, corpus_dir

#: Real Tenhou games of the corpus (mjx-project/mjx, MIT): their file names are their log ids.
GAME_IDS = (
    "2010081709gm-00a9-0000-fe3371ad",
    "2010102910gm-00a9-0000-cdb9804c",
    "2010110100gm-00a9-0000-de3472e8",
)
#: Seconds the tests give the server to answer (MJLOGS_FETCH_TIMEOUT).
TIMEOUT = 0.4


def corpus_log(log_id: str) -> bytes:
    """The recorded log of a corpus game (skips the test when the corpus is absent)."""
    corpus_dir()
    path: Path = CORPUS / "mjlog_xml" / "mjx-project__mjx" / f"{log_id}.mjlog"
    return path.read_bytes()


@dataclass(frozen=True)
class Answer:
    """One scripted answer: status, body, headers, and a pause before answering."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class Seen:
    """One request the server got."""

    log_id: str
    headers: dict[str, str]
    #: ``time.monotonic()`` when it arrived.
    at: float


class TenhouServer:
    """The server and what it answers; ``requests`` lists what it got."""

    def __init__(self) -> None:
        #: Log id -> the log's bytes (answered 200).
        self.logs: dict[str, bytes] = {}
        #: Log id -> answers given one per request, before the log (or 404) is.
        self.scripts: dict[str, list[Answer]] = {}
        #: Log ids whose log is sent with ``Content-Encoding: gzip``.
        self.gzip_encoded: set[str] = set()
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url_template(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/0/log/?{{log_id}}"

    def serve(self, *log_ids: str) -> None:
        """Answer these corpus games' logs."""
        for log_id in log_ids:
            self.logs[log_id] = corpus_log(log_id)

    def script(self, log_id: str, *answers: Answer) -> None:
        self.scripts.setdefault(log_id, []).extend(answers)

    def requests_for(self, log_id: str) -> list[Seen]:
        with self._lock:
            return [seen for seen in self.requests if seen.log_id == log_id]

    def answer(self, log_id: str) -> Answer:
        with self._lock:
            script = self.scripts.get(log_id)
            if script:
                return script.pop(0)
        if log_id not in self.logs:
            return Answer(404, b"<html><body>404 Not Found</body></html>")
        body = self.logs[log_id]
        if log_id in self.gzip_encoded:
            return Answer(200, gzip.compress(body), {"Content-Encoding": "gzip"})
        return Answer(200, body, {"Content-Type": "text/xml"})

    def record(self, seen: Seen) -> None:
        with self._lock:
            self.requests.append(seen)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def _handler(server: TenhouServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            path, _, query = self.path.partition("?")
            log_id = unquote(query) if path == "/0/log/" else ""
            server.record(Seen(log_id, dict(self.headers.items()), time.monotonic()))
            answer = server.answer(log_id)
            if answer.delay:
                time.sleep(answer.delay)
            self.send_response(answer.status)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer.body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(answer.body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet

    return Handler


@pytest.fixture
def tenhou(settings: Settings) -> Iterator[TenhouServer]:
    """A log server serving the corpus games of :data:`GAME_IDS`, set as the one to fetch from,
    with a short timeout, no spacing between requests and 3 tries."""
    server = TenhouServer()
    server.serve(*GAME_IDS)
    server.start()
    settings.MJLOGS_TENHOU_LOG_URL = server.url_template
    settings.MJLOGS_FETCH_TIMEOUT = TIMEOUT
    settings.MJLOGS_FETCH_MIN_INTERVAL = 0
    settings.MJLOGS_FETCH_ATTEMPTS = 3
    try:
        yield server
    finally:
        server.stop()
