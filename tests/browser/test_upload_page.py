"""The upload page in a real browser: files chosen in the file input and files dropped on the
drop zone are each sent on their own with a progress bar, and each shows what became of its
games (imported with a link, already stored, or failed with the reason)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.models import Game, QueuedImport
from replay.models import Verdict, Verification
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def game_json(seed: int) -> bytes:
    (game,) = simulate("tenhou-4p-east", 1, seed)
    return canonical.write([game])


def logged_in(page: Any, live_server: Any, user: User) -> None:
    """Put the user's session cookie in the browser, as after logging in."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def open_upload_page(page: Any, live_server: Any, user: User, *, to_workers: bool = False) -> None:
    """The upload page, logged in; with "Let the workers import them" checked if asked."""
    logged_in(page, live_server, user)
    page.goto(f"{live_server.url}/upload/")
    if to_workers:
        page.check('input[name="on_workers"]')


#: Drop a file (its name and text) on the drop zone, as a browser does.
DROP = """([name, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, {type: "application/json"}));
    const zone = document.getElementById("dropzone");
    zone.dispatchEvent(new DragEvent("dragover", {dataTransfer: data, bubbles: true}));
    zone.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true}));
}"""


@pytest.fixture
def alice(transactional_db: None) -> User:
    return User.objects.create_user("alice", password="alice-secret-1")


def test_chosen_files_are_uploaded_one_by_one_with_their_results(
    page: Any, live_server: Any, alice: User
) -> None:
    open_upload_page(page, live_server, alice)
    page.set_input_files(
        'input[type="file"]',
        files=[
            {"name": "one.json", "mimeType": "application/json", "buffer": game_json(1)},
            {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"no game here"},
        ],
    )
    items = page.locator("#upload-list > li")
    page.wait_for_function("document.querySelectorAll('#upload-list .outcome').length >= 2")
    assert items.count() == 2
    good, bad = items.nth(0), items.nth(1)
    assert good.locator(".file-name").inner_text() == "one.json"
    assert good.locator("progress").get_attribute("value") == "100"
    link = good.locator(".outcome-imported a")
    (game,) = Game.objects.all()
    assert link.get_attribute("href") == f"/games/{game.pk}/"
    assert "not a game record" in bad.locator(".outcome-failed").inner_text()
    assert Verification.objects.get(game=game).verdict == Verdict.VERIFIED
    assert game.uploader == alice
    screenshot(page, "upload-page")
    link.click()
    page.wait_for_url(f"**/games/{game.pk}/")
    assert "Verified" in page.locator("main").inner_text()


def test_a_dropped_file_is_uploaded_and_a_second_drop_is_a_duplicate(
    page: Any, live_server: Any, alice: User
) -> None:
    open_upload_page(page, live_server, alice)
    text = game_json(2).decode()
    page.evaluate(DROP, ["dropped.json", text])
    page.wait_for_selector("#upload-list .outcome-imported")
    page.evaluate(DROP, ["again.json", text])
    page.wait_for_selector("#upload-list .outcome-duplicate")
    (game,) = Game.objects.all()
    duplicate = page.locator("#upload-list .outcome-duplicate a")
    assert duplicate.get_attribute("href") == f"/games/{game.pk}/"
    assert game.raw_name == "dropped.json"  # the second drop stored nothing


def test_checked_for_the_workers_the_files_go_in_one_post_to_the_page_that_follows_them(
    page: Any, live_server: Any, alice: User
) -> None:
    open_upload_page(page, live_server, alice, to_workers=True)
    page.set_input_files(
        'input[type="file"]',
        files=[
            {"name": "one.json", "mimeType": "application/json", "buffer": game_json(3)},
            {"name": "two.json", "mimeType": "application/json", "buffer": game_json(4)},
            {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"no game here"},
        ],
    )
    page.wait_for_url("**/upload/queued/*/")
    (queued,) = QueuedImport.objects.all()
    assert page.url == f"{live_server.url}/upload/queued/{queued.pk}/"
    assert page.locator("#queued-files").inner_text() == "3 of 3"
    assert page.locator("#queued-counts").inner_text().startswith("2 imported, 0 already stored")
    assert page.locator("#queued-verdicts").inner_text().split() == ["Verified", "2"]
    assert "notes.txt" in page.locator("#queued-problems").inner_text()
    assert {game.uploader for game in Game.objects.all()} == {alice}
    assert page.locator("#upload-list > li").count() == 0  # no file was posted on its own
    screenshot(page, "queued-upload-page")


def test_files_dropped_for_the_workers_go_to_them_too(
    page: Any, live_server: Any, alice: User
) -> None:
    open_upload_page(page, live_server, alice, to_workers=True)
    page.evaluate(DROP, ["dropped.json", game_json(5).decode()])
    page.wait_for_url("**/upload/queued/*/")
    assert page.locator("#queued-files").inner_text() == "1 of 1"
    (game,) = Game.objects.all()
    assert game.raw_name == "dropped.json"
