"""A polite client of Tenhou's log server: one request for one game log.

Polite, because the log server is someone else's and free:

- **One request at a time per server, from every process together.** Requests to one host
  start at least ``MJLOGS_FETCH_MIN_INTERVAL`` seconds apart (:func:`wait_turn`): each takes a
  slot of that length, reserved in Django's cache with ``cache.add`` (atomic, shared by every
  process that shares the cache, as the rate limits are: ``DJANGO_CACHE_URL``), and starts when
  its slot does.
- **Bounded.** ``MJLOGS_FETCH_TIMEOUT`` seconds for the whole request, from connecting to the
  last byte of the answer, whatever the server sends and however slowly (:class:`_Deadline`:
  at the deadline the connection is shut down under the reading thread, so a server dripping
  its headers or its body a byte at a time is cut off too; only resolving the server's name
  is left to the system's resolver). An answer larger than ``MJLOGS_MAX_UPLOAD_BYTES`` (what an
  upload may be) is refused as it streams in, counted after gzip is undone.
- **Named.** Every request says who sends it (:data:`USER_AGENT`).
- **On the configured server only.** A redirect is followed only on the host, scheme and port
  of ``MJLOGS_TENHOU_LOG_URL`` (or from ``http`` to ``https`` on its host), and at most
  :data:`MAX_REDIRECTS` of them: the log server's word never chooses what else we connect to
  (an address inside our network), and a loop ends at once. Either is a final failure.
- **One try a call.** What to do with a failure is the caller's choice: :class:`FetchError` says
  whether trying again later may help (``transient``: no answer, a 5xx, a 429) and how long the
  server asked to wait (``Retry-After``); :func:`retry_delay` gives the pause before try
  ``n + 1``. A missing log (404, or an empty answer) is final. The Celery task
  ``mjlogs.tasks.import_tenhou_link`` tries ``MJLOGS_FETCH_ATTEMPTS`` times in all.

The request is Python's own ``http.client`` on a socket this module opens (TLS checked against
certifi's certificates), so that the deadline holds on every read; proxies named in the
environment (``HTTPS_PROXY``) are not used. The body is returned as the server sent it, less
any ``Content-Encoding`` (gzip is undone); a gzip file sent as such is read by the importer,
which undoes gzip itself.
"""

from __future__ import annotations

import email.utils
import functools
import http.client
import math
import socket
import ssl
import threading
import time
import zlib
from contextlib import suppress
from datetime import UTC, datetime
from http import HTTPStatus
from importlib import metadata
from urllib.parse import SplitResult, urljoin, urlsplit

import certifi
from django.conf import settings
from django.core.cache import cache

#: Who we are, in every request.
try:
    _VERSION = metadata.version("mjlogs-service")
except metadata.PackageNotFoundError:  # pragma: no cover - run from a tree never installed
    _VERSION = "0"
USER_AGENT = f"mjlogs-service/{_VERSION} (a mahjong game-log service, importing games by link)"

#: Longest pause a server's ``Retry-After`` is followed for; a longer one is cut to this.
RETRY_AFTER_CAP = 300.0
#: The pause before the second try when the server named none; doubled for each try after.
BACKOFF_FIRST = 5.0
#: How far ahead a request may reserve its turn; with more waiting than that, it fails
#: (transient) instead of holding a worker.
MAX_QUEUE_SECONDS = 300.0
#: Bytes read at a time.
CHUNK = 64 * 1024
#: Redirects followed in one fetch, at most, all on the log server's own host.
MAX_REDIRECTS = 3
#: The answers that send the request elsewhere (with a ``Location``).
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
#: The default port of each scheme followed.
_PORTS = {"http": 80, "https": 443}
#: ``Content-Encoding`` values undone here (zlib reads both wrappings).
_COMPRESSED = frozenset({"gzip", "x-gzip", "deflate"})


class FetchError(Exception):
    """A log that could not be fetched, with a message for the person who asked for it.

    ``transient``: trying again later may work (no answer, 5xx, 429). ``retry_after``: seconds
    the server asked us to wait (capped at :data:`RETRY_AFTER_CAP`), or ``None``.
    """

    def __init__(self, message: str, *, transient: bool, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.transient = transient
        self.retry_after = retry_after


class _Unreachable(Exception):
    """No connection to the server (refused, no route, a name that resolves to nothing, a TLS
    handshake that fails), with the system's reason."""


def log_url(log_id: str) -> str:
    """Where the log of ``log_id`` is fetched from (``MJLOGS_TENHOU_LOG_URL``)."""
    return str(settings.MJLOGS_TENHOU_LOG_URL).format(log_id=log_id)


def fetch_tenhou_log(log_id: str) -> bytes:
    """The log of one Tenhou game, in one request (after waiting for this server's turn), all
    of it within ``MJLOGS_FETCH_TIMEOUT`` seconds.

    :raises FetchError: no log by that id (404, 410, an empty answer), an answer too large, a
        refusal (another 4xx), or transiently: no answer in time, no connection, a 5xx, a 429.
    """
    url = log_url(log_id)
    timeout = float(settings.MJLOGS_FETCH_TIMEOUT)
    limit = int(settings.MJLOGS_MAX_UPLOAD_BYTES)
    wait_turn(urlsplit(url).netloc.lower(), float(settings.MJLOGS_FETCH_MIN_INTERVAL))
    too_slow = FetchError(
        f"Tenhou's log server did not answer within {timeout:g} s", transient=True
    )
    deadline = _Deadline(timeout)
    try:
        body = _fetch(url, log_id, limit, deadline)
    except FetchError:
        if deadline.stop():
            raise too_slow from None
        raise
    except TimeoutError:
        deadline.stop()
        raise too_slow from None
    except _Unreachable as error:
        if deadline.stop():
            raise too_slow from None
        raise FetchError(
            f"Tenhou's log server could not be reached ({error})", transient=True
        ) from None
    except zlib.error:
        if deadline.stop():
            raise too_slow from None
        raise FetchError(
            "Tenhou's log server sent an answer that could not be decompressed", transient=False
        ) from None
    except (OSError, http.client.HTTPException):
        deadline.stop()
        if deadline.passed:
            raise too_slow from None
        raise FetchError("Tenhou's log server broke off its answer", transient=True) from None
    except BaseException:  # nobody foresaw it: the caller's; the watch ends all the same
        deadline.stop()
        raise
    if deadline.stop():
        raise too_slow
    if not body.strip():
        raise FetchError(f"Tenhou has no log {log_id}", transient=False)
    return body


def _fetch(url: str, log_id: str, limit: int, deadline: _Deadline) -> bytes:
    """The body the server answers for ``url``, following at most :data:`MAX_REDIRECTS`
    redirects, none off the configured server (:func:`_same_server`)."""
    home = urlsplit(url)
    for _ in range(MAX_REDIRECTS + 1):
        connection, response = _open(urlsplit(url), deadline)
        try:
            location = response.getheader("Location", "").strip()
            if response.status in _REDIRECTS and location:
                target = urljoin(url, location)
                if not _same_server(urlsplit(target), home):
                    raise FetchError(
                        f"Tenhou's log server redirected the request to {_shown(target)}, "
                        "off its own host; not followed",
                        transient=False,
                    )
                url = target
                continue
            _check_status(response, log_id)
            return _read(response, limit)
        finally:
            connection.close()
    raise FetchError("Tenhou's log server sent too many redirects", transient=False)


def _same_server(target: SplitResult, home: SplitResult) -> bool:
    """Whether a redirect to ``target`` stays on the configured server ``home``: the same host
    name, scheme and port, or the same host moved from ``http`` to ``https`` on the default
    ports. Anything else (another host, another port on it, an address inside the network,
    another scheme) is not followed: the log server's word does not choose what we connect to."""
    try:
        there, here = (
            (parts.scheme.lower(), parts.hostname, parts.port or _PORTS.get(parts.scheme.lower()))
            for parts in (target, home)
        )
    except ValueError:  # a port that is no port
        return False
    if there[1] is None or there[2] is None or there[1] != here[1]:
        return False
    return there == here or (here[0::2] == ("http", 80) and there[0::2] == ("https", 443))


def _shown(url: str) -> str:
    """A redirect's target as a message shows it: no user name or password, no query, short."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    shown = f"{parts.scheme}://{netloc}{parts.path}" if netloc else f"{parts.scheme}:{parts.path}"
    return shown if len(shown) <= 100 else shown[:99] + "\N{HORIZONTAL ELLIPSIS}"


def _open(
    where: SplitResult, deadline: _Deadline
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    """Send the request for ``where`` on a connection of our own, watched by ``deadline``;
    the answer's status line and headers have been read."""
    secure = where.scheme.lower() == "https"
    host = where.hostname or ""
    port = where.port or (443 if secure else 80)
    left = deadline.left()
    if left <= 0:
        raise TimeoutError
    try:
        sock = socket.create_connection((host, port), timeout=left)
    except TimeoutError:
        raise
    except OSError as error:
        raise _Unreachable(_reason(error)) from None
    connection: http.client.HTTPConnection
    try:
        deadline.watch(sock)  # before the TLS handshake, which the server may drip too
        if secure:
            try:
                sock = _tls().wrap_socket(sock, server_hostname=host)
            except TimeoutError:
                raise
            except OSError as error:
                raise _Unreachable(_reason(error)) from None
            connection = http.client.HTTPSConnection(host, port, context=_tls())
        else:
            connection = http.client.HTTPConnection(host, port)
    except BaseException:
        sock.close()
        raise
    connection.sock = sock  # ours: http.client does not connect again
    try:
        target = where.path or "/"
        if where.query:
            target += f"?{where.query}"
        connection.request(
            "GET",
            target,
            headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip", "Connection": "close"},
        )
        return connection, connection.getresponse()
    except BaseException:
        connection.close()
        raise


@functools.cache
def _tls() -> ssl.SSLContext:
    """Certificates checked against certifi's authorities, as requests checks them."""
    return ssl.create_default_context(cafile=certifi.where())


def _reason(error: OSError) -> str:
    """Why a connection failed, short: the system's words (``Connection refused``)."""
    text = error.strerror if isinstance(error.strerror, str) and error.strerror else str(error)
    return text[:200] or type(error).__name__


class _Deadline:
    """One fetch's deadline. :meth:`watch` hands it each connection's socket; when the time is
    up, a timer thread shuts them down (``shutdown`` on a duplicate of the socket, which acts
    on the connection itself, TLS or not), so whatever read is waiting ends at once, however
    the server drips. :meth:`stop` ends the watch and says whether the deadline came first."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.passed = False
        self._stopped = False
        self._watched: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def left(self) -> float:
        """Seconds left (0 or less: none)."""
        return self.end - time.monotonic()

    def watch(self, sock: socket.socket) -> None:
        """Cut ``sock`` at the deadline; :class:`TimeoutError` when it has passed already."""
        with self._lock:
            if self.passed:
                raise TimeoutError
            self._watched.append(sock.dup())
        # Every read waits at most until the deadline too, should the timer be late.
        sock.settimeout(max(self.left(), 0.001))

    def _cut(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self.passed = True
            for sock in self._watched:
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def stop(self) -> bool:
        """Stop watching (once or more); whether the deadline passed first."""
        self._timer.cancel()
        with self._lock:
            self._stopped = True
            for sock in self._watched:
                sock.close()
            self._watched.clear()
            return self.passed


def _check_status(response: http.client.HTTPResponse, log_id: str) -> None:
    code = response.status
    if code == HTTPStatus.OK:
        return
    if code in (HTTPStatus.NOT_FOUND, HTTPStatus.GONE):
        raise FetchError(f"Tenhou has no log {log_id}", transient=False)
    answered = f"Tenhou's log server answered {code}"
    if response.reason:
        answered += f" ({response.reason})"
    if code == HTTPStatus.TOO_MANY_REQUESTS or code >= 500:
        retry_after = _retry_after(response.getheader("Retry-After"))
        raise FetchError(answered, transient=True, retry_after=retry_after)
    raise FetchError(answered, transient=False)


def _read(response: http.client.HTTPResponse, limit: int) -> bytes:
    """The whole body, gzip undone, refused past ``limit`` bytes (a stated length first, then
    what arrives, decompressed, as it arrives).

    :raises zlib.error: a compressed body that does not decompress.
    """
    too_large = FetchError(
        f"Tenhou's log server sent more than {limit:,} bytes, the most an upload may be "
        "(MJLOGS_MAX_UPLOAD_BYTES); not read",
        transient=False,
    )
    stated = response.getheader("Content-Length", "").strip()
    if stated.isascii() and stated.isdigit() and int(stated) > limit:
        raise too_large
    encoding = response.getheader("Content-Encoding", "").strip().lower()
    gunzip = _Gunzip() if encoding in _COMPRESSED else None
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read(CHUNK):
        if gunzip is not None:
            chunk = gunzip.feed(chunk, limit - size)
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


class _Gunzip:
    """A gzip (or zlib) stream undone as it arrives, one member after another, never more than
    asked for at once (a small body may unpack to gigabytes)."""

    def __init__(self) -> None:
        self._inflate = zlib.decompressobj(wbits=zlib.MAX_WBITS | 32)

    def feed(self, data: bytes, room: int) -> bytes:
        """What ``data`` unpacks to, cut after ``room + 1`` bytes (more than ``room``: too
        much, and the rest is not unpacked)."""
        out = bytearray()
        while data:
            out += self._inflate.decompress(data, room + 1 - len(out))
            if len(out) > room:
                break
            if self._inflate.eof:
                data = self._inflate.unused_data
                self._inflate = zlib.decompressobj(wbits=zlib.MAX_WBITS | 32)
            else:
                data = self._inflate.unconsumed_tail
        return bytes(out)


def _retry_after(value: str | None) -> float | None:
    """A ``Retry-After`` header (seconds, or an HTTP date) in seconds from now, capped."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        seconds = float(value)
    else:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    return min(max(seconds, 0.0), RETRY_AFTER_CAP)


def retry_delay(attempt: int, error: FetchError) -> float:
    """Seconds to wait after failed try number ``attempt`` (1 for the first) before the next:
    what the server asked for (``Retry-After``, capped), else 5 s doubled for each try."""
    if error.retry_after is not None:
        return error.retry_after
    backoff: float = BACKOFF_FIRST * 2 ** (attempt - 1)
    return min(backoff, RETRY_AFTER_CAP)


def wait_turn(host: str, interval: float) -> None:
    """Wait until this process may send the next request to ``host``: requests from all
    processes sharing the cache start at least ``interval`` seconds apart.

    Time is cut into slots of ``interval`` seconds (counted from the epoch, so that every
    process cuts it alike); a request reserves the first free slot after the current one with
    ``cache.add`` (atomic: of two processes, one gets it) and starts when that slot starts. So
    two requests never start in one slot, and the starts of two slots are ``interval`` apart.
    The cost: a request waits up to ``interval`` seconds even when nothing else is sent. (Across
    machines, it is as exact as their clocks agree.)

    :raises FetchError: (transient) more than :data:`MAX_QUEUE_SECONDS` of requests are already
        waiting for this host.
    """
    if interval <= 0:
        return
    now = time.time()
    slot = math.floor(now / interval) + 1
    while True:
        start = slot * interval
        if start - now > MAX_QUEUE_SECONDS:
            raise FetchError(
                "too many games are waiting to be fetched from Tenhou's log server",
                transient=True,
                retry_after=MAX_QUEUE_SECONDS,
            )
        # The key must outlive the slot's start: until then, other processes may try it.
        # (Whole seconds: Redis takes no fractions.)
        if cache.add(f"mjlogs:fetch-slot:{host}:{slot}", 1, timeout=math.ceil(start - now) + 2):
            break
        slot += 1
    delay = start - time.time()
    if delay > 0:
        time.sleep(delay)
