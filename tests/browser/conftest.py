"""Browser tests: the real pages in headless Chromium (Debian's ``chromium`` package, driven by
Playwright) against pytest-django's live server.

Chromium is looked for at ``MJ_CHROMIUM`` or on the PATH (``chromium``, ``chromium-browser``,
``google-chrome``). Without it these tests are skipped with the reason shown; with
``MJ_REQUIRE_SERVICES=1`` (CI) they fail instead. Screenshots go to ``MJ_ARTIFACTS``
(default ``test-artifacts/``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("MJ_ARTIFACTS") or ROOT / "test-artifacts")

# Playwright's synchronous API runs an event loop in the test's thread; Django refuses ORM
# calls from such a thread unless told that this one is safe (it is: nothing awaits there).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _chromium() -> str | None:
    configured = os.environ.get("MJ_CHROMIUM")
    if configured:
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    executable = _chromium()
    if executable is None:
        message = "Chromium not found (apt-get install chromium, or set MJ_CHROMIUM)"
        if os.environ.get("MJ_REQUIRE_SERVICES") == "1":
            pytest.fail(f"required service missing: {message}", pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            browser.close()


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


def screenshot(page: object, name: str) -> Path:
    """Save a full-page screenshot as a test artifact and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path
