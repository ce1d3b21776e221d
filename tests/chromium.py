"""Headless Chromium for the tests that drive a browser (tests/browser, tests/security/test_csp.py):
one browser for the whole session, shared by every test directory. Playwright's synchronous API
runs one event loop per thread, so a second ``sync_playwright()`` in the same process fails
("using Playwright Sync API inside the asyncio loop"): every browser test takes this fixture.

Chromium is looked for at ``MJ_CHROMIUM`` or on the PATH (``chromium``, ``chromium-browser``,
``google-chrome``). Without it these tests are skipped with the reason shown; with
``MJ_REQUIRE_SERVICES=1`` (CI) they fail instead. Loaded by tests/conftest.py
(``pytest_plugins``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

# Playwright's synchronous API runs an event loop in the test's thread; Django refuses ORM
# calls from such a thread unless told that this one is safe (it is: nothing awaits there).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def chromium_path() -> str | None:
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
    executable = chromium_path()
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
