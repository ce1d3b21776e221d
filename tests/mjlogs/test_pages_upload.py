"""The upload page: log-in required, several files in one post (each judged on its own),
answers in JSON for the page's script or as a page without it, and the limits: request size
(413), upload rate (429), CSRF."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from engine.formats import canonical
from mjlogs.models import Game, Visibility
from tests.mjlogs.conftest import Users
from tests.mjlogs.pages import engine_game, rows, text

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
#: What a browser's form post asks for.
BROWSER = {"HTTP_ACCEPT": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
GARBAGE = b"these are not the games you are looking for"


def good_file(name: str = "good.json", seed: int = 1) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, canonical.write([engine_game(seed=seed)]))


def garbage_file() -> SimpleUploadedFile:
    return SimpleUploadedFile("garbage.mjlog", GARBAGE)


@pytest.fixture
def alice(client: Client, users: Users) -> Client:
    client.force_login(users.alice)
    return client


def post(client: Client, *files: SimpleUploadedFile, **extra: Any) -> Any:
    data: dict[str, Any] = {"files": list(files)} if files else {}
    data["visibility"] = extra.pop("visibility", "public")
    return client.post("/upload/", data, **extra)


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    response = client.get("/upload/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/upload/"
    response = post(client, good_file(), **JSON)
    assert response.status_code == 302
    assert not Game.objects.exists()


def test_the_form_has_a_file_input_a_visibility_choice_and_the_script(alice: Client) -> None:
    page = text(alice.get("/upload/"))
    assert 'enctype="multipart/form-data"' in page
    assert '<input type="file" name="files"' in page and "multiple" in page
    assert 'type="radio" name="visibility" value="public"' in page
    assert 'value="private"' in page
    assert 'id="dropzone"' in page and "/static/mjlogs/upload.js" in page
    assert 'data-game-url="/games/999999999/"' in page


def test_the_script_is_found_by_staticfiles() -> None:
    from django.contrib.staticfiles import finders

    assert finders.find("mjlogs/upload.js") is not None


def test_one_good_and_one_garbage_file_in_json(alice: Client, users: Users) -> None:
    response = post(alice, good_file(), garbage_file(), **JSON)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["counts"] == {"imported": 1, "duplicate": 0, "failed": 1}
    good, bad = body["outcomes"]
    game = Game.objects.get()
    assert good == {
        "file": "good.json",
        "index": 0,
        "status": "imported",
        "game_id": game.pk,
        "error": "",
        "format": "canonical",
    }
    assert (bad["file"], bad["status"], bad["game_id"]) == ("garbage.mjlog", "failed", None)
    assert bad["error"]
    assert game.uploader == users.alice and game.visibility == Visibility.PUBLIC


def test_one_good_and_one_garbage_file_as_a_page(alice: Client) -> None:
    response = post(alice, good_file(), garbage_file(), **BROWSER)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = text(response)
    assert "1 imported, 0 duplicates, 1 failed." in page
    game = Game.objects.get()
    good, bad = rows(page, "results")
    assert "good.json" in good and "imported" in good
    assert f'href="/games/{game.pk}/"' in good
    error = post(alice, garbage_file(), **JSON).json()["outcomes"][0]["error"]
    assert "garbage.mjlog" in bad and "failed" in bad and error.split(":")[0] in bad


def test_a_duplicate_is_reported_with_the_stored_game(alice: Client) -> None:
    first = post(alice, good_file(), **JSON).json()["outcomes"][0]
    again = post(alice, good_file("renamed.json"), **JSON).json()
    assert again["counts"] == {"imported": 0, "duplicate": 1, "failed": 0}
    (outcome,) = again["outcomes"]
    assert outcome["status"] == "duplicate" and outcome["game_id"] == first["game_id"]
    page = text(post(alice, good_file("third.json"), **BROWSER))
    assert "0 imported, 1 duplicate, 0 failed." in page
    assert f'<a href="/games/{first["game_id"]}/">the stored game</a>' in page
    assert Game.objects.count() == 1


def test_private_uploads(alice: Client, users: Users) -> None:
    post(alice, good_file(), visibility="private", **JSON)
    assert Game.objects.get().visibility == Visibility.PRIVATE
    response = post(alice, good_file(seed=2), visibility="everyone", **JSON)
    assert response.status_code == 400
    assert "Select a valid choice" in response.json()["error"]
    assert Game.objects.count() == 1


def test_no_file_is_a_clear_error(alice: Client) -> None:
    response = post(alice, **JSON)
    assert response.status_code == 400
    assert response.json()["error"] == "Choose at least one file to upload."
    response = post(alice, **BROWSER)
    assert response.status_code == 400
    assert "Choose at least one file to upload." in text(response)


@override_settings(MJLOGS_MAX_UPLOAD_BYTES=2000)
def test_an_oversized_request_is_refused_with_413(alice: Client) -> None:
    def big() -> SimpleUploadedFile:
        return SimpleUploadedFile("big.json", b" " * 5000)

    response = post(alice, big(), **JSON)
    assert response.status_code == 413
    assert "at most 0.0 MB is accepted" in response.json()["error"]
    response = post(alice, big(), **BROWSER)
    assert response.status_code == 413
    assert "Too large: the upload is" in text(response)
    assert not Game.objects.exists()


@override_settings(MJLOGS_UPLOAD_RATE="2/hour")
def test_too_many_uploads_are_refused_with_429(alice: Client, users: Users) -> None:
    assert post(alice, good_file(), **JSON).status_code == 200
    assert post(alice, **JSON).status_code == 400  # a refused upload still counts
    response = post(alice, good_file(seed=2), **JSON)
    assert response.status_code == 429
    assert response.json()["error"].startswith("Too many uploads: try again in")
    assert 3500 < int(response["Retry-After"]) <= 3600
    assert post(alice, good_file(seed=2), **BROWSER).status_code == 429
    assert Game.objects.count() == 1
    other = Client()
    other.force_login(users.bob)
    assert post(other, good_file(seed=2), **JSON).status_code == 200


def test_csrf_is_checked(users: Users) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(users.alice)
    assert post(client, good_file(), **JSON).status_code == 403
    assert not Game.objects.exists()
    client.get("/upload/")  # sets the CSRF cookie, as the page does for its script
    token = client.cookies["csrftoken"].value
    response = post(client, good_file(), HTTP_X_CSRFTOKEN=token, **JSON)
    assert response.status_code == 200
    assert Game.objects.count() == 1


def test_upload_refuses_other_methods(alice: Client) -> None:
    assert alice.put("/upload/").status_code == 405


@override_settings(MJLOGS_MAX_UPLOAD_BYTES=2000)
def test_an_oversized_request_is_refused_before_its_body_is_read(
    users: Users, monkeypatch: pytest.MonkeyPatch
) -> None:
    def parse(*args: object) -> None:
        raise AssertionError("the body was read")

    monkeypatch.setattr("django.http.request.MultiPartParser.parse", parse)
    # With CSRF checks on, as in a browser: the middleware must not read the body either.
    client = Client(enforce_csrf_checks=True)
    client.force_login(users.alice)
    response = post(client, SimpleUploadedFile("big.json", b" " * 5000), **JSON)
    assert response.status_code == 413
