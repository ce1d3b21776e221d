"""Bringing a game in by its Tenhou link, in a real browser and in both languages (issue 39):
the form says at once when a game with the link's log id is already here (with a link to it,
before anything is queued or fetched), the status page shows how far a waiting fetch has come
as it reloads itself, and a failed fetch has a "Try again" button that asks anew. Tenhou's log
server is the test's stand-in (tests/mjlogs/tenhou_server.py). Screenshots:
``link-already-here-<lang>.png``, ``link-progress-<lang>.png``, ``link-failed-<lang>.png``."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from mjlogs.importing import import_file
from mjlogs.models import Game, LinkImport, LinkImportStatus
from tests.browser.conftest import screenshot
from tests.browser.test_translations import new_page
from tests.browser.test_upload_page import logged_in
from tests.mjlogs.tenhou_server import GAME_IDS, Answer, TenhouServer, tenhou

__all__ = ["tenhou"]  # the fixture, imported to be used here

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.corpus]

GAME, OTHER = GAME_IDS[0], GAME_IDS[1]

#: What each page says, by language.
WORDS = {
    "en": {
        "here": f"Tenhou game {GAME} is already here",
        "uploaded": "its log id is what the record claims",
        "anyway": "Fetch it from Tenhou anyway",
        "waiting": "Waiting for its turn",
        "fetching": "Fetching the log from Tenhou",
        "try": "(try 2 of 3)",
        "again": "Try again",
        "stored": "The game is stored",
    },
    "ja": {
        "here": f"天鳳の対局 {GAME} はすでにあります",
        "uploaded": "牌譜IDは牌譜自身の記載によるもの",
        "anyway": "それでも天鳳から取得する",
        "waiting": "順番待ち",
        "fetching": "天鳳から牌譜を取得し",
        "try": "3回中2回目",
        "again": "もう一度試す",
        "stored": "対局を保存しました",
    },
}


@pytest.fixture
def alice(transactional_db: None) -> User:
    return User.objects.create_user("alice", password="alice-secret-1")


@pytest.fixture(params=["en", "ja"])
def page(request: Any, browser: Any) -> Any:
    """A page in the language asked (the browser's), 1280x900."""
    locale = "ja-JP" if request.param == "ja" else "en-US"
    one = new_page(browser, locale=locale, viewport={"width": 1280, "height": 900})
    one.language = request.param
    yield one
    one.context.close()


def current_step(page: Any) -> str:
    return str(page.locator(".link-steps li[aria-current='step']").inner_text())


def test_a_game_already_here_is_said_at_once(
    page: Any, live_server: Any, alice: User, tenhou: TenhouServer
) -> None:
    words = WORDS[page.language]
    tenhou.serve(GAME)
    (uploaded,) = import_file(f"{GAME}.mjlog", tenhou.logs[GAME], uploader=alice)
    logged_in(page, live_server, alice)
    page.goto(f"{live_server.url}/upload/link/")
    page.fill("input[name='link']", f"https://tenhou.net/0/?log={GAME}&tw=1")
    page.locator("#upload-link-form button[type='submit']").click()
    notice = page.locator("#already-here")
    notice.wait_for()
    assert words["here"] in notice.inner_text() and words["uploaded"] in notice.inner_text()
    link = notice.locator("a.already-here-game")
    assert link.get_attribute("href") == f"/games/{uploaded.game_id}/"
    assert not LinkImport.objects.exists() and tenhou.requests == []
    screenshot(page, f"link-already-here-{page.language}")
    # Asked again: fetched (in-process), the same game: here already, now from Tenhou.
    assert page.locator("#fetch-anyway").inner_text() == words["anyway"]
    page.locator("#fetch-anyway").click()
    page.wait_for_url(f"{live_server.url}/upload/link/*/")
    assert page.locator("#link-import-game").get_attribute("href") == (
        f"/games/{uploaded.game_id}/"
    )
    assert len(tenhou.requests_for(GAME)) == 1


def test_the_status_page_shows_progress_and_a_failed_fetch_can_be_tried_again(
    page: Any, live_server: Any, alice: User, tenhou: TenhouServer
) -> None:
    words = WORDS[page.language]
    logged_in(page, live_server, alice)
    # A request waiting for its turn (as a worker would leave it), then being fetched: the
    # page reloads itself and shows each step.
    row = LinkImport.objects.create(
        link=OTHER, log_id=OTHER, requested_by=alice, visibility="public", attempts=1,
        error="try 1 of 3: Tenhou's log server did not answer within 5 s (trying again in 5 s)",
    )  # fmt: skip
    page.goto(f"{live_server.url}/upload/link/{row.pk}/")
    assert words["waiting"] in current_step(page)
    assert words["try"] in page.locator(".link-try").inner_text()
    assert page.locator("#link-import-progress progress").get_attribute("value") == "1"
    # The failed try's note is in the page's language too.
    note = page.locator("p[role='status']").inner_text()
    assert ("did not answer" in note) == (page.language == "en")
    screenshot(page, f"link-progress-{page.language}")
    LinkImport.objects.filter(pk=row.pk).update(status=LinkImportStatus.FETCHING, attempts=2)
    page.wait_for_function(
        "() => document.querySelector('#link-import-progress')?.dataset.step === '2'",
        timeout=10_000,
    )
    assert words["fetching"] in current_step(page)
    # It fails; the page shows the failure and the button, which asks anew.
    LinkImport.objects.filter(pk=row.pk).update(
        status=LinkImportStatus.FAILED, error=f"Tenhou has no log {OTHER}"
    )
    retry = page.locator("#link-import-retry")
    retry.wait_for(timeout=10_000)
    assert retry.inner_text() == words["again"]
    assert page.locator("#link-import-progress").count() == 0
    screenshot(page, f"link-failed-{page.language}")
    tenhou.script(OTHER, Answer(200, tenhou_log(tenhou, OTHER), {"Content-Type": "text/xml"}))
    retry.click()
    page.wait_for_url(lambda url: url.rstrip("/").split("/")[-1] != str(row.pk))
    again = LinkImport.objects.exclude(pk=row.pk).get()
    assert (again.link, again.visibility, again.status) == (OTHER, "public", "imported")
    assert words["stored"] in page.locator("main").inner_text()
    assert page.locator("#link-import-game").get_attribute("href") == f"/games/{again.game_id}/"
    assert Game.objects.filter(pk=again.game_id, source_id=OTHER).exists()


def tenhou_log(server: TenhouServer, log_id: str) -> bytes:
    server.serve(log_id)
    return server.logs[log_id]
