"""Fixtures of the security tests: an empty cache around each test (the throttles count there,
and a count must not leak into another test), and a password hasher that counts its work."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from pytest_django.fixtures import Settings

from tests.security.hashers import CountingHasher


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:  # browser: tests/chromium.py, the session's
    """A Chromium page under the site's Content-Security-Policy (tests/browser's bypass it)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def hashes(settings: Settings) -> list[str]:
    """The hashes computed since the test's accounts were made (see ``alice``)."""
    settings.PASSWORD_HASHERS = ["tests.security.hashers.CountingHasher"]
    CountingHasher.calls.clear()
    return CountingHasher.calls


@pytest.fixture
def alice(db: None, hashes: list[str]) -> User:
    user = User.objects.create_user("alice", email="alice@example.org", password="alice-secret-1")
    hashes.clear()
    return user


@pytest.fixture
def bob(db: None, hashes: list[str]) -> User:
    user = User.objects.create_user("bob", password="bob-secret-1")
    hashes.clear()
    return user
