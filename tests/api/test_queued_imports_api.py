"""POST /api/imports/queued/: an upload the workers import. An account needed; 202 with the
queued import and its URL, which its uploader (and staff) can follow and nobody else; the
upload's options (visibility, rule modifiers) reach the workers; no file, or a bad option, is
a 400; a broker that cannot be reached is a 503 with nothing queued. (Tasks run in-process
here: the import is finished when the answer comes.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from kombu.exceptions import OperationalError as BrokerUnreachable

from mjlogs import tasks as mjlogs_tasks
from mjlogs.models import Game, QueuedFile, QueuedImport, Visibility
from replay.models import Verdict, Verification
from tests.api.conftest import client_for, self_played_document
from tests.api.test_upload_modifiers_api import mjai_file

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/imports/queued/"


def game_file(seed: int) -> SimpleUploadedFile:
    data = json.dumps(self_played_document(seed)).encode()
    return SimpleUploadedFile(f"game-{seed}.json", data, "application/json")


def test_queueing_needs_an_account() -> None:
    response = client_for(None).post(URL, {"files": [game_file(1)]})
    assert response.status_code == 401
    assert not QueuedImport.objects.exists()


def test_an_upload_is_queued_imported_and_followed_by_its_uploader(
    alice: User, bob: User, staff: User
) -> None:
    files = [game_file(1), game_file(2), SimpleUploadedFile("notes.txt", b"not a game")]
    response = client_for(alice).post(f"{URL}?visibility=private", {"files": files})

    assert response.status_code == 202, response.json()
    body = response.json()
    assert response["Location"] == body["url"]
    assert body["finished"] and body["files"] == body["files_done"] == 3
    assert (body["imported"], body["duplicates"], body["failed"]) == (2, 0, 1)
    assert [problem["file"] for problem in body["problems"]] == ["notes.txt"]
    assert body["verdicts"] == {Verdict.VERIFIED: 2}
    games = Game.objects.all()
    assert {(game.uploader, game.visibility) for game in games} == {(alice, Visibility.PRIVATE)}
    assert list(Verification.objects.values_list("verdict", flat=True)) == [Verdict.VERIFIED] * 2
    assert not QueuedFile.objects.exists()

    followed = client_for(alice).get(body["url"])
    assert followed.status_code == 200 and followed.json() == body
    assert client_for(staff).get(body["url"]).status_code == 200
    assert client_for(bob).get(body["url"]).status_code == 404
    assert [row["id"] for row in client_for(alice).get(URL).json()["results"]] == [body["id"]]
    assert client_for(bob).get(URL).json()["results"] == []


def test_the_rule_modifiers_reach_the_workers(alice: User) -> None:
    response = client_for(alice).post(f"{URL}?modifiers=second_chance", {"files": [mjai_file()]})
    assert response.status_code == 202, response.json()
    assert response.json()["modifiers"] == ["second_chance"]
    (game,) = Game.objects.all()
    assert game.rule_overrides == {"modifiers": ["second_chance"]}
    assert Verification.objects.get(game=game).verdict == Verdict.VERIFIED


@pytest.mark.parametrize(
    ("query", "files", "named"),
    [("", [], "files"), ("?modifiers=flying", ["game"], "modifiers"), ("?visibility=x", [], "")],
)
def test_bad_input_is_a_400_naming_the_problem(
    alice: User, query: str, files: list[str], named: str
) -> None:
    sent: dict[str, Any] = {"files": [game_file(3) for _ in files]}
    response = client_for(alice).post(URL + query, sent)
    assert response.status_code == 400
    assert named in json.dumps(response.json())
    assert not QueuedImport.objects.exists() and not Game.objects.exists()


def test_no_broker_is_a_503_with_nothing_queued(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: Any) -> None:
        raise BrokerUnreachable("Error 111 connecting to 127.0.0.1:6379")

    monkeypatch.setattr(mjlogs_tasks.import_queued_batch, "delay", refuse)
    response = client_for(alice).post(URL, {"files": [game_file(4)]})
    assert response.status_code == 503
    assert "broker" in response.json()["detail"]
    assert response["Retry-After"] == "60"
    assert not QueuedImport.objects.exists() and not QueuedFile.objects.exists()
    assert not Game.objects.exists()


@override_settings(DATA_UPLOAD_MAX_NUMBER_FILES=2)
@pytest.mark.parametrize("url", [URL, "/api/uploads/"])
def test_more_files_than_one_request_takes_is_a_json_400_naming_the_limit(
    alice: User, url: str
) -> None:
    files = [game_file(seed) for seed in (40, 41, 42)]
    response = client_for(alice).post(url, {"files": files})
    assert response.status_code == 400
    assert response.json()["files"] == [
        "too many files in one request: at most 2; put them in a zip or tar archive, "
        "or send them in several requests"
    ]
    assert not Game.objects.exists() and not QueuedImport.objects.exists()
