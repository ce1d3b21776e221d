"""POST /api/uploads/: multipart (many files, archives) or a raw body; an account needed;
duplicates reported, bad files refused with a reason and nothing of them stored, oversized
requests refused before they are read, and uploads throttled per user."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from mjlogs.models import Game, GameSeat, Player
from replay.models import Verdict, Verification
from tests.api.conftest import client_for, self_played_document
from tests.engine.corpus import CORPUS, corpus_dir

pytestmark = pytest.mark.django_db(transaction=True)

MJLOG = "mjlog_xml/mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.mjlog"


def game_file(seed: int, name: str | None = None) -> SimpleUploadedFile:
    data = json.dumps(self_played_document(seed)).encode()
    return SimpleUploadedFile(name or f"game-{seed}.json", data, "application/json")


def test_uploading_needs_an_account() -> None:
    response = client_for(None).post("/api/uploads/", {"files": [game_file(1)]})
    assert response.status_code == 401
    assert not Game.objects.exists()


def test_a_multipart_upload_stores_each_game_and_verifies_it(alice: User) -> None:
    response = client_for(alice).post("/api/uploads/", {"files": [game_file(1), game_file(2)]})
    assert response.status_code == 201
    body = response.json()
    assert body["counts"] == {"imported": 2, "duplicate": 0, "failed": 0}
    ids = [outcome["game_id"] for outcome in body["outcomes"]]
    assert [outcome["file"] for outcome in body["outcomes"]] == ["game-1.json", "game-2.json"]
    games = Game.objects.filter(pk__in=ids)
    assert games.count() == 2 and {game.uploader for game in games} == {alice}
    # Celery runs eagerly here and the request committed: each game has its verdict.
    verdicts = Verification.objects.filter(game_id__in=ids).values_list("verdict", flat=True)
    assert list(verdicts) == [Verdict.VERIFIED] * 2


def test_a_bad_file_is_refused_with_its_reason_while_the_good_one_goes_in(alice: User) -> None:
    garbage = SimpleUploadedFile("notes.txt", b"this is not a game record")
    response = client_for(alice).post("/api/uploads/", {"files": [game_file(1), garbage]})
    assert response.status_code == 201
    good, bad = response.json()["outcomes"]
    assert good["status"] == "imported"
    assert bad == {
        "file": "notes.txt",
        "index": None,
        "status": "failed",
        "game_id": None,
        "error": bad["error"],
        "format": "",
    }
    assert "not a game record" in bad["error"]
    assert Game.objects.count() == 1


def test_a_truncated_corpus_file_stores_nothing(alice: User) -> None:
    corpus_dir()
    data = (CORPUS / MJLOG).read_bytes()
    cut = SimpleUploadedFile("cut.mjlog", data[: len(data) // 2])
    response = client_for(alice).post("/api/uploads/", {"files": [cut]})
    assert response.status_code == 400
    (outcome,) = response.json()["outcomes"]
    assert outcome["status"] == "failed" and outcome["error"]
    assert not Game.objects.exists() and not Player.objects.exists()


def test_uploading_the_same_game_again_is_a_duplicate(alice: User, bob: User) -> None:
    first = client_for(alice).post("/api/uploads/", {"files": [game_file(1)]}).json()
    again = client_for(bob).post("/api/uploads/", {"files": [game_file(1, "copy.json")]})
    assert again.status_code == 200
    (outcome,) = again.json()["outcomes"]
    assert outcome["status"] == "duplicate"
    assert outcome["game_id"] == first["outcomes"][0]["game_id"]
    assert Game.objects.count() == 1 and GameSeat.objects.count() == 4


def test_a_raw_body_upload_takes_its_name_from_the_headers(alice: User) -> None:
    corpus_dir()
    data = (CORPUS / MJLOG).read_bytes()
    response = client_for(alice).post(
        "/api/uploads/",
        data,
        content_type="application/octet-stream",
        HTTP_CONTENT_DISPOSITION=f'attachment; filename="{Path(MJLOG).name}"',
    )
    assert response.status_code == 201
    (outcome,) = response.json()["outcomes"]
    assert outcome["format"] == "mjlog"
    game = Game.objects.get(pk=outcome["game_id"])
    assert game.source_id == "2010081709gm-00a9-0000-fe3371ad"  # read from the file's name
    assert game.raw_name == Path(MJLOG).name


def test_a_raw_json_body_is_a_canonical_game(alice: User) -> None:
    document = self_played_document(4)
    response = client_for(alice).post(
        "/api/uploads/?visibility=private", document, format="json", HTTP_X_FILE_NAME="g.json"
    )
    assert response.status_code == 201
    game = Game.objects.get(pk=response.json()["outcomes"][0]["game_id"])
    assert game.visibility == "private" and game.raw_name == "g.json"


def test_an_empty_upload_is_a_400(alice: User) -> None:
    response = client_for(alice).post("/api/uploads/", {})
    assert response.status_code == 400
    assert response.json() == {"files": ["no file was sent"]}


def test_a_bad_visibility_is_a_400_and_stores_nothing(alice: User) -> None:
    response = client_for(alice).post("/api/uploads/?visibility=hidden", {"files": [game_file(1)]})
    assert response.status_code == 400 and "visibility" in response.json()
    assert not Game.objects.exists()


def test_a_zip_archive_is_opened(alice: User) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for seed in (5, 6):
            archive.writestr(f"logs/{seed}.json", json.dumps(self_played_document(seed)))
    upload = SimpleUploadedFile("logs.zip", buffer.getvalue(), "application/zip")
    response = client_for(alice).post("/api/uploads/", {"files": [upload]})
    assert response.status_code == 201
    assert [o["file"] for o in response.json()["outcomes"]] == [
        "logs.zip/logs/5.json",
        "logs.zip/logs/6.json",
    ]
    assert Game.objects.count() == 2


@override_settings(MJLOGS_MAX_UPLOAD_BYTES=1000)
def test_an_oversized_request_is_refused_before_it_is_read(alice: User) -> None:
    response = client_for(alice).post("/api/uploads/", {"files": [game_file(1)]})
    assert response.status_code == 413
    assert "at most" in response.json()["detail"]
    assert not Game.objects.exists()


@override_settings(MJLOGS_UPLOAD_RATE="2/hour")
def test_uploads_are_throttled_per_user(alice: User, bob: User) -> None:
    client = client_for(alice)
    statuses = [
        client.post("/api/uploads/", {"files": [game_file(seed)]}).status_code for seed in (1, 2, 3)
    ]
    refused = client.post("/api/uploads/", {"files": [game_file(4)]})
    other = client_for(bob).post("/api/uploads/", {"files": [game_file(5)]}).status_code
    assert statuses == [201, 201, 429]
    assert int(refused["Retry-After"]) > 0
    assert other == 201
    assert Game.objects.count() == 3


@override_settings(MJLOGS_UPLOAD_RATE="2/hour")
def test_the_upload_page_and_the_api_share_one_budget(alice: User) -> None:
    from django.test import Client

    page = Client()
    page.force_login(alice)
    assert (
        page.post("/upload/", {"files": [game_file(1)], "visibility": "public"}).status_code == 200
    )
    assert client_for(alice).post("/api/uploads/", {"files": [game_file(2)]}).status_code == 201
    assert client_for(alice).post("/api/uploads/", {"files": [game_file(3)]}).status_code == 429
    assert (
        page.post("/upload/", {"files": [game_file(4)], "visibility": "public"}).status_code == 429
    )
