"""Rate limits: uploads per user, and requests per client address.

Every limit counts in Django's default cache with atomic operations (``cache.add`` and
``cache.incr``, atomic in Redis and in the local-memory cache alike), so concurrent requests
never both take the last place. Several web processes share a limit only when they share the
cache: production sets ``DJANGO_CACHE_URL`` to a Redis database (config/env.py), which also
keeps the counts across a restart of the web processes.

Each limit is a fixed window: the first request counted opens a window of ``duration``
seconds for its key, every request in it adds one (refused ones too, which changes nothing),
and the next request after it opens a new one, from zero. A limited client waits at most
until its window ends, whatever it sends meanwhile: no lock-out outlives its window.
"""

from __future__ import annotations

import contextlib
import ipaddress
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle, UserRateThrottle


def clock() -> float:
    """Now, in seconds since the epoch (a function, so that tests can move time on)."""
    return time.time()


@dataclass(frozen=True)
class Place:
    """One request's place in a window: its number there (1 for the first), the counter's
    cache key, and the seconds left until the window ends."""

    number: int
    key: str
    wait: float

    def give_back(self) -> None:
        """Take this place off the count (an attempt that turned out not to count)."""
        with contextlib.suppress(ValueError):  # the counter is gone: nothing to give back
            cache.decr(self.key)


def take_place(name: str, duration: int) -> Place:
    """Count one more request of ``name`` in its current window of ``duration`` seconds,
    which began with the first request counted in it."""
    now = clock()
    base = f"throttle:{name}:{duration}"
    # The window's start: set by its first request (add is atomic), gone with its window.
    cache.add(f"{base}:start", now, timeout=duration)
    start = cache.get(f"{base}:start")
    if start is None or not start <= now < start + duration:
        start = now  # the window just ended (or the clock was moved on): a new one
        cache.set(f"{base}:start", now, timeout=duration)
    # The counter is named by its window's start, so it is never read after the window, even
    # if it outlived it (redis-py's incr of a key that just expired makes one without expiry).
    key = f"{base}:{start!r}"
    wait = start + duration - now
    for _ in range(3):
        if cache.add(key, 1, timeout=duration + 1):
            return Place(1, key, wait)
        try:
            return Place(cache.incr(key), key, wait)
        except ValueError:  # it expired between the two calls: start it again
            continue
    return Place(1, key, wait)


def client_address(request: Any) -> str:
    """The client's address, as DRF's throttles tell it: ``REMOTE_ADDR``, or with
    ``NUM_PROXIES`` proxies of ours in front the address the outermost one saw (a client
    cannot forge it by sending X-Forwarded-For). An IPv6 client is counted by its /64 network,
    which one host usually has to itself, to pick a new address from at will."""
    ident = BaseThrottle().get_ident(request) or "unknown"
    if ":" in ident:
        with contextlib.suppress(ValueError):
            return str(ipaddress.ip_network(f"{ident}/64", strict=False))
    return ident


#: Seconds of each period of a rate (DRF's syntax: ``10/hour``, checked by config.env.env_rate).
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/hour"`` -> ``(10, 3600)``: requests allowed, and the window in seconds."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period.strip()]


def rate_wait(request: HttpRequest, scope: str, rate: str) -> float | None:
    """Count this request against ``rate`` (DRF's syntax, ``10/hour``) for its client address
    in ``scope``; ``None`` when it may go ahead, else the seconds until it may."""
    limit, duration = parse_rate(rate)
    place = take_place(f"{scope}:{client_address(request)}", duration)
    return None if place.number <= limit else max(place.wait, 1.0)


# --- Uploads ----------------------------------------------------------------------------------


class UploadRateThrottle(UserRateThrottle):
    """``MJLOGS_UPLOAD_RATE`` upload requests per user (per client address for an anonymous
    request, which the upload endpoint refuses anyway). The REST API's upload endpoint and the
    upload page (:func:`upload_wait`) both use it, so a user has one budget for both."""

    scope = "uploads"
    seconds_left: float | None = None

    def get_rate(self) -> str:
        # Read at each request, not once at import as DRF's THROTTLE_RATES is.
        return str(settings.MJLOGS_UPLOAD_RATE)

    def allow_request(self, request: Any, view: Any) -> bool:
        key = self.get_cache_key(request, view)
        if key is None or self.num_requests is None or self.duration is None:
            return True
        place = take_place(key, self.duration)
        self.seconds_left = place.wait
        return place.number <= self.num_requests

    def wait(self) -> float | None:
        return self.seconds_left


def upload_wait(request: HttpRequest) -> float | None:
    """Count this upload request against the user's rate; ``None`` when it may go ahead, else
    the seconds to wait before the next one is accepted."""
    throttle = UploadRateThrottle()
    if throttle.allow_request(request, None):
        return None
    return throttle.wait() or 1.0
