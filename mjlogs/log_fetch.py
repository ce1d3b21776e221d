"""A polite client of Tenhou's log server: one request for one game log.

Polite, because the log server is someone else's and free:

- **One request at a time per server, from every process together.** Requests to one host
  start at least ``MJLOGS_FETCH_MIN_INTERVAL`` seconds apart (:func:`wait_turn`): each takes a
  slot of that length, reserved in Django's cache with ``cache.add`` (atomic, shared by every
  process that shares the cache, as the rate limits are: ``DJANGO_CACHE_URL``), and starts when
  its slot does.
- **Bounded.** ``MJLOGS_FETCH_TIMEOUT`` seconds to connect, and as long again for the whole
  answer; an answer larger than ``MJLOGS_MAX_UPLOAD_BYTES`` (what an upload may be) is refused as
  it streams in, counted after gzip is undone.
- **Named.** Every request says who sends it (:data:`USER_AGENT`).
- **One try a call.** What to do with a failure is the caller's choice: :class:`FetchError` says
  whether trying again later may help (``transient``: no answer, a 5xx, a 429) and how long the
  server asked to wait (``Retry-After``); :func:`retry_delay` gives the pause before try
  ``n + 1``. A missing log (404, or an empty answer) is final. The Celery task
  ``mjlogs.tasks.import_tenhou_link`` tries ``MJLOGS_FETCH_ATTEMPTS`` times in all.

The body is returned as the server sent it, less any ``Content-Encoding`` (requests undoes
gzip); a gzip file sent as such is read by the importer, which undoes gzip itself.
"""

from __future__ import annotations

import email.utils
import math
import time
from datetime import UTC, datetime
from http import HTTPStatus
from importlib import metadata
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.cache import cache
from urllib3.exceptions import ReadTimeoutError

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


def log_url(log_id: str) -> str:
    """Where the log of ``log_id`` is fetched from (``MJLOGS_TENHOU_LOG_URL``)."""
    return str(settings.MJLOGS_TENHOU_LOG_URL).format(log_id=log_id)


def fetch_tenhou_log(log_id: str) -> bytes:
    """The log of one Tenhou game, in one request (after waiting for this server's turn).

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
    deadline = time.monotonic() + timeout
    try:
        with requests.get(
            url,
            headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"},
            timeout=(timeout, timeout),
            stream=True,
        ) as response:
            _check_status(response, log_id)
            body = _read(response, limit, deadline, too_slow)
    except requests.Timeout:
        raise too_slow from None
    except requests.ConnectionError as error:
        if error.args and isinstance(error.args[0], ReadTimeoutError):
            raise too_slow from None
        raise FetchError(
            f"Tenhou's log server could not be reached ({_reason(error)})", transient=True
        ) from None
    except requests.exceptions.ChunkedEncodingError:
        raise FetchError("Tenhou's log server broke off its answer", transient=True) from None
    except requests.exceptions.ContentDecodingError:
        raise FetchError(
            "Tenhou's log server sent an answer that could not be decompressed", transient=False
        ) from None
    except requests.TooManyRedirects:
        raise FetchError("Tenhou's log server sent too many redirects", transient=False) from None
    if not body.strip():
        raise FetchError(f"Tenhou has no log {log_id}", transient=False)
    return body


def _check_status(response: requests.Response, log_id: str) -> None:
    code = response.status_code
    if code == HTTPStatus.OK:
        return
    if code in (HTTPStatus.NOT_FOUND, HTTPStatus.GONE):
        raise FetchError(f"Tenhou has no log {log_id}", transient=False)
    answered = f"Tenhou's log server answered {code}"
    if response.reason:
        answered += f" ({response.reason})"
    if code == HTTPStatus.TOO_MANY_REQUESTS or code >= 500:
        retry_after = _retry_after(response.headers.get("Retry-After"))
        raise FetchError(answered, transient=True, retry_after=retry_after)
    raise FetchError(answered, transient=False)


def _read(response: requests.Response, limit: int, deadline: float, too_slow: FetchError) -> bytes:
    """The whole body, refused past ``limit`` bytes (a stated length first, then what arrives,
    decompressed) or past ``deadline``."""
    too_large = FetchError(
        f"Tenhou's log server sent more than {limit:,} bytes, the most an upload may be "
        "(MJLOGS_MAX_UPLOAD_BYTES); not read",
        transient=False,
    )
    stated = response.headers.get("Content-Length", "")
    if stated.isascii() and stated.isdigit() and int(stated) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_content(CHUNK):
        size += len(chunk)
        if size > limit:
            raise too_large
        if time.monotonic() > deadline:
            raise too_slow
        chunks.append(chunk)
    return b"".join(chunks)


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


def _reason(error: Exception) -> str:
    """The innermost reason of a connection error, short (urllib3 wraps it twice)."""
    reason: BaseException = error
    while reason.args and isinstance(reason.args[0], BaseException):
        reason = reason.args[0]
    inner = getattr(reason, "reason", None)
    if isinstance(inner, BaseException):
        reason = inner
    text = str(reason).split(": ", 1)[-1] if ": " in str(reason) else str(reason)
    return text[:200] or type(reason).__name__


def retry_delay(attempt: int, error: FetchError) -> float:
    """Seconds to wait after failed try number ``attempt`` (1 for the first) before the next:
    what the server asked for (``Retry-After``, capped), else 5 s doubled for each try."""
    if error.retry_after is not None:
        return error.retry_after
    return min(BACKOFF_FIRST * 2 ** (attempt - 1), RETRY_AFTER_CAP)


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
