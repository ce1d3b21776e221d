"""Rate limits: uploads per user, failed log-ins per client address and per account, sign-ups
and password-reset requests per client address.

Every limit counts in Django's default cache with atomic operations (``cache.add`` and
``cache.incr``, atomic in Redis and in the local-memory cache alike), so concurrent requests
never both take the last place. Several web processes share a limit only when they share the
cache: production sets ``DJANGO_CACHE_URL`` to a Redis database (config/env.py), which also
keeps the counts across a restart of the web processes.

Each limit is a fixed window: the first request counted opens a window of ``duration``
seconds for its key, every request in it adds one (refused ones too, which changes nothing),
and the next request after it opens a new one, from zero. A limited client waits at most
until its window ends, whatever it sends meanwhile: no lock-out outlives its window.

The log-in limits (:func:`login_attempt`, used by ``mjlogs.auth_backends``) count failures:
an attempt takes its place before the password is hashed, so that concurrent attempts cannot
overshoot, and gives it back when it succeeds. See docs/security.md for the choice of limits.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle, UserRateThrottle

#: The attribute of a request whose log-in the throttle refused: seconds to wait.
REFUSED_ATTRIBUTE = "mjlogs_login_refused_wait"


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
    # The window's start: set by its first request (add is atomic: of concurrent first requests
    # in any processes, one sets it and the others read it), gone with its window. A request
    # that read the clock a moment before the start was set belongs to that window too.
    start = now
    for _ in range(3):
        if cache.add(f"{base}:start", now, timeout=duration):
            break
        found = cache.get(f"{base}:start")
        if found is None:  # it expired between the two calls: open the next window
            continue
        if now >= found + duration:  # it outlived its window by a moment, or the clock moved
            cache.set(f"{base}:start", now, timeout=duration)
        else:
            start = found
        break
    # The counter is named by its window's start, so it is never read after the window, even
    # if it outlived it (Django's RedisCache.incr checks that the key exists, then INCRs: a
    # key that expires between the two comes back without an expiry).
    key = f"{base}:{start!r}"
    wait = min(start + duration - now, float(duration))
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
    #: The rate, as SimpleRateThrottle's __init__ sets it (DRF's stubs leave them out).
    num_requests: int | None
    duration: int | None

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


# --- Log-in -----------------------------------------------------------------------------------


class LoginRefused(Exception):
    """Too many failed log-ins from this client address, or for this account."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"too many failed log-ins; try again in {wait:.0f} seconds")
        self.wait = wait


@dataclass(frozen=True)
class LoginAttempt:
    """The places a log-in attempt took; :meth:`succeeded` gives them back."""

    places: tuple[Place, ...]

    def succeeded(self) -> None:
        for place in self.places:
            place.give_back()


def account_key(username: str) -> str:
    """The account's name as the throttle counts it: blanks stripped, letter case folded
    (``user_create`` refuses a name that differs from another by case only), hashed (any
    characters, fixed length). The same whether or not the account exists."""
    folded = username.strip().casefold()
    return hashlib.sha256(folded.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def login_attempt(request: Any, username: str) -> LoginAttempt:
    """Take a place for one log-in attempt, before its password is checked.

    :raises LoginRefused: the client address has had ``MJLOGS_LOGIN_FAILURES_PER_IP`` failed
        attempts in this window, or the account ``MJLOGS_LOGIN_FAILURES_PER_ACCOUNT`` from all
        addresses together (then the address is not charged for this refusal).
    """
    duration = int(settings.MJLOGS_LOGIN_WINDOW)
    by_address = take_place(f"login-ip:{client_address(request)}", duration)
    if by_address.number > settings.MJLOGS_LOGIN_FAILURES_PER_IP:
        raise LoginRefused(max(by_address.wait, 1.0))
    by_account = take_place(f"login-account:{account_key(username)}", duration)
    if by_account.number > settings.MJLOGS_LOGIN_FAILURES_PER_ACCOUNT:
        by_address.give_back()
        raise LoginRefused(max(by_account.wait, 1.0))
    return LoginAttempt((by_address, by_account))


def forget_account_failures(username: str) -> None:
    """Close the account's failure window, so that its next log-in starts from zero: after
    its owner proved who they are another way (a password reset through their email)."""
    duration = int(settings.MJLOGS_LOGIN_WINDOW)
    cache.delete(f"throttle:login-account:{account_key(username)}:{duration}:start")


def mark_refused(request: Any, wait: float) -> None:
    """Note on the request (Django's, under DRF's) that its log-in was refused unchecked."""
    setattr(getattr(request, "_request", request), REFUSED_ATTRIBUTE, wait)


def refused_wait(request: Any) -> float | None:
    """Seconds to wait when this request's log-in was refused by the throttle, else ``None``."""
    wait: float | None = getattr(getattr(request, "_request", request), REFUSED_ATTRIBUTE, None)
    return wait
