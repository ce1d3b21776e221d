"""The upload page's "Let the workers import them": the files are queued in one post
(``mjlogs.queued_imports``), the browser is sent to the page that follows the workers, and that
page shows how far they are, what became of the files and the games' verdicts; only the
uploader and staff see it; a broker that cannot be reached is a 503 with nothing queued.

Tasks run in this process here (Celery eager), so a queued upload is done when the post
answers, unless a test holds the batches back."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from engine.formats import canonical
from mjlogs import tasks as mjlogs_tasks
from mjlogs.models import Game, QueuedFile, QueuedImport, Visibility
from replay.models import Verdict, Verification
from tests.mjlogs.conftest import Users
from tests.mjlogs.pages import engine_game, plain, rows, text

pytestmark = pytest.mark.django_db(transaction=True)

BROWSER = {"HTTP_ACCEPT": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def good_file(seed: int) -> SimpleUploadedFile:
    return SimpleUploadedFile(f"game-{seed}.json", canonical.write([engine_game(seed=seed)]))


@pytest.fixture
def alice(client: Client, users: Users) -> Client:
    client.force_login(users.alice)
    return client


def queue(client: Client, *files: SimpleUploadedFile, **extra: Any) -> Any:
    data = {"files": list(files), "visibility": extra.pop("visibility", "public")}
    return client.post("/upload/", {**data, "on_workers": "on"}, **{**BROWSER, **extra})


def test_a_queued_upload_is_followed_on_its_own_page(alice: Client, users: Users) -> None:
    garbage = SimpleUploadedFile("garbage.mjlog", b"<mjloggm><GO")
    response = queue(alice, good_file(1), good_file(2), good_file(1), garbage, visibility="private")

    (queued,) = QueuedImport.objects.all()
    assert response.status_code == 302
    assert response["Location"] == f"/upload/queued/{queued.pk}/"
    assert {(game.uploader, game.visibility) for game in Game.objects.all()} == {
        (users.alice, Visibility.PRIVATE)
    }
    assert Verification.objects.filter(verdict=Verdict.VERIFIED).count() == 2

    page = text(alice.get(response["Location"]))
    assert 'http-equiv="refresh"' not in page  # finished: nothing left to follow
    words = plain(page)
    assert "4 of 4" in words
    assert "2 imported, 1 already stored, 1 failed, 0 skipped" in words
    verdicts = page.split('id="queued-verdicts">', 1)[1].split("</ul>", 1)[0]
    assert plain(verdicts) == "Verified 3"  # the copy's game counted too
    (problem,) = rows(page, "results")
    assert "garbage.mjlog" in problem and "failed" in problem
    assert "Every file is read" in words


def test_the_page_reloads_itself_while_the_workers_import(
    alice: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", lambda *args: None)
    response = queue(alice, good_file(3), good_file(4))
    assert response.status_code == 302 and not Game.objects.exists()

    page = text(alice.get(response["Location"]))
    assert '<meta http-equiv="refresh" content="2">' in page
    assert '<progress max="2" value="0"' in page
    assert "0 of 2" in plain(page)
    assert "Every file is read" not in page


@pytest.mark.parametrize(("minutes", "seconds"), [(5, 10), (30, 60)])
def test_the_page_reloads_less_often_as_the_upload_ages(
    alice: Client, monkeypatch: pytest.MonkeyPatch, minutes: int, seconds: int
) -> None:
    """A tab left open on an import that will not finish (its workers gone) does not ask
    every 2 seconds for ever."""
    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", lambda *args: None)
    url = queue(alice, good_file(13))["Location"]
    sent = timezone.now() - timedelta(minutes=minutes)
    QueuedImport.objects.update(created_at=sent)
    assert f'<meta http-equiv="refresh" content="{seconds}">' in text(alice.get(url))


@override_settings(DATA_UPLOAD_MAX_NUMBER_FILES=3)
def test_more_files_than_one_upload_takes_is_a_400_naming_the_limit(alice: Client) -> None:
    response = queue(alice, *(good_file(seed) for seed in range(30, 34)))
    assert response.status_code == 400
    assert "Too many files in one upload: at most 3" in plain(text(response))
    assert not QueuedImport.objects.exists() and not Game.objects.exists()


def test_only_the_uploader_and_staff_see_it(alice: Client, users: Users) -> None:
    url = queue(alice, good_file(5))["Location"]
    bob = Client()
    bob.force_login(users.bob)
    assert bob.get(url).status_code == 404
    staff = Client()
    staff.force_login(users.staff)
    assert staff.get(url).status_code == 200
    assert Client().get(url).status_code == 302  # to log in
    assert alice.get("/upload/queued/99999/").status_code == 404


def test_no_broker_is_a_503_naming_it_with_nothing_queued(
    alice: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any) -> None:
        raise BrokerUnreachable("Error 111 connecting to 127.0.0.1:6379")

    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", refused)
    response = queue(alice, good_file(6))
    assert response.status_code == 503 and response["Retry-After"] == "60"
    assert "nothing of this upload was queued" in plain(text(response))
    assert not QueuedImport.objects.exists() and not QueuedFile.objects.exists()
    assert not Game.objects.exists()


def test_a_script_asking_for_json_gets_the_page_to_follow(alice: Client) -> None:
    response = queue(alice, good_file(7), HTTP_ACCEPT="application/json")
    (queued,) = QueuedImport.objects.all()
    assert response.status_code == 202
    assert response.json() == {"queued_import": queued.pk, "url": f"/upload/queued/{queued.pk}/"}


def test_without_the_box_the_upload_is_one_transaction_as_before(alice: Client) -> None:
    response = alice.post("/upload/", {"files": [good_file(8)], "visibility": "public"}, **BROWSER)
    assert response.status_code == 200 and not QueuedImport.objects.exists()
    assert Game.objects.count() == 1


def test_the_upload_page_lists_the_users_latest_uploads_on_the_workers(
    alice: Client, users: Users, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = queue(alice, good_file(9), good_file(10))["Location"]
    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", lambda *args: None)
    waiting = queue(alice, good_file(11))["Location"]
    staff = Client()
    staff.force_login(users.staff)
    queue(staff, good_file(12))  # not alice's: staff see it on its page, not in her list

    page = text(alice.get("/upload/"))
    listed = page.split('id="queued-recent">', 1)[1].split("</section>", 1)[0]
    assert listed.index(waiting) < listed.index(done)  # newest first
    assert listed.count("/upload/queued/") == 2
    assert "0 of 1 files read" in plain(listed) and "2 imported, 0 failed" in plain(listed)
    no_file = alice.post("/upload/", {"visibility": "public"}, **BROWSER)
    assert no_file.status_code == 400 and 'id="queued-recent"' in text(no_file)  # kept
    bob = Client()
    bob.force_login(users.bob)
    bobs = text(bob.get("/upload/"))
    assert 'id="upload-form"' in bobs and 'id="queued-recent"' not in bobs
