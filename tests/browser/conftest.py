"""Browser tests: the real pages in headless Chromium (Debian's ``chromium`` package, driven by
Playwright) against pytest-django's live server.

Chromium is found and started by tests/chromium.py (the ``browser`` fixture, one for the
session and every test directory). Screenshots go to ``MJ_ARTIFACTS``
(default ``test-artifacts/``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("MJ_ARTIFACTS") or ROOT / "test-artifacts")
#: The page languages every translated page is tried in, and a phone's viewport.
LANGUAGES = ("en", "ja")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# The session's Chromium (``browser``) is tests/chromium.py's, shared with tests/security.


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    # bypass_csp: Playwright's wait_for_function evaluates its predicate with eval() in the
    # page, which the site's Content-Security-Policy (no 'unsafe-eval') refuses. The policy
    # itself is tested in a page that keeps it: tests/security/test_csp.py.
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 1280, "height": 900}, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()


def _page_in(browser: Any, language: str, viewport: dict[str, int]) -> Iterator[Any]:
    """A page of a browser speaking ``language`` (``en`` or ``ja``) at ``viewport``."""
    context = browser.new_context(
        locale="ja-JP" if language == "ja" else "en-GB", viewport=viewport, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(params=LANGUAGES)
def language_page(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    """A desktop page (1280x900) whose browser speaks English or Japanese."""
    for page in _page_in(browser, request.param, DESKTOP):
        yield request.param, page


@pytest.fixture(params=LANGUAGES)
def phone(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    """A phone's page (390x844) whose browser speaks English or Japanese."""
    for page in _page_in(browser, request.param, PHONE):
        yield request.param, page


def screenshot(page: object, name: str) -> Path:
    """Save a full-page screenshot as a test artifact and return its path, once every picture
    on the page (the viewer's tile faces) has loaded."""
    page.wait_for_function(  # type: ignore[attr-defined]
        "Array.from(document.images).every((image) => image.complete)"
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path
