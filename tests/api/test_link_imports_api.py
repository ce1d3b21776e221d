"""``POST /api/imports/links/`` and ``GET /api/imports/links/{id}/``: a game brought in by its
Tenhou link over the API, fetched from a real HTTP server on 127.0.0.1 (tests.mjlogs.
tenhou_server) by the task, run in-process as on the default setup."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from mjlogs.log_fetch import USER_AGENT
from mjlogs.models import Game, LinkImport
from replay.models import Verdict
from tests.api.conftest import client_for
from tests.mjlogs.tenhou_server import GAME_IDS, TenhouServer, tenhou

__all__ = ["tenhou"]  # the fixture, imported to be used here

pytestmark = pytest.mark.django_db

GAME = GAME_IDS[0]
URL = "/api/imports/links/"


@pytest.fixture
def post(django_capture_on_commit_callbacks: Any) -> Any:
    """POST a link as a user, running what the request queued after commit (the fetch and
    the import, then the verification): a test's transaction never commits."""

    def send(user: User | None, body: dict[str, Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return client_for(user).post(URL, body, format="json")

    return send


def test_a_link_is_fetched_imported_and_verified(
    post: Any, alice: User, tenhou: TenhouServer
) -> None:
    link = f"https://tenhou.net/0/?log={GAME}&tw=3"
    response = post(alice, {"link": link})
    assert response.status_code == 202
    row = LinkImport.objects.get()
    assert response["Location"] == f"http://testserver{URL}{row.pk}/"
    # The answer was written before the task ran (the test's commit is simulated after it):
    # the row as it is now is read back through the API.
    body = client_for(alice).get(response["Location"]).json()
    game = Game.objects.get()
    assert body == {
        "id": row.pk,
        "url": response["Location"],
        "link": link,
        "source": "tenhou",
        "log_id": GAME,
        "seat": 3,
        "visibility": "public",
        "status": "imported",
        "error": "",
        "attempts": 1,
        "game": game.pk,
        "game_url": f"http://testserver/api/games/{game.pk}/",
        "viewer_url": f"http://testserver/replay/{game.pk}/?seat=3",
        "created_at": body["created_at"],
        "finished_at": body["finished_at"],
    }
    assert body["finished_at"] is not None
    assert (game.source_id, game.uploader, game.verification.verdict) == (
        GAME,
        alice,
        Verdict.VERIFIED,
    )
    (seen,) = tenhou.requests
    assert seen.headers["User-Agent"] == USER_AGENT


def test_the_answer_is_the_result_when_the_task_runs_in_the_request(
    alice: User, tenhou: TenhouServer, transactional_db: None
) -> None:
    """As on the default setup (no broker, no surrounding transaction): the fetch runs within
    the request, and the 202 already says how it ended."""
    response = client_for(alice).post(URL, {"link": GAME}, format="json")
    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "imported" and body["game"] == Game.objects.get().pk


def test_the_same_log_id_again_is_a_duplicate_without_a_request(
    post: Any, alice: User, bob: User, tenhou: TenhouServer
) -> None:
    first = post(alice, {"link": GAME})
    second = post(bob, {"link": f"https://tenhou.net/5/?log={GAME}"})
    assert second.status_code == 202
    body = second.json()
    assert (body["status"], body["attempts"]) == ("duplicate", 0)
    assert body["game"] == LinkImport.objects.get(pk=first.json()["id"]).game_id
    assert len(tenhou.requests) == 1 and Game.objects.count() == 1


def test_a_missing_log_ends_failed(post: Any, alice: User, tenhou: TenhouServer) -> None:
    missing = "2019032206gm-00a9-0000-0b6b7592"
    response = post(alice, {"link": missing})
    body = client_for(alice).get(response["Location"]).json()
    assert body["status"] == "failed" and body["error"] == f"Tenhou has no log {missing}"
    assert body["game"] is None and body["viewer_url"] is None


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"link": "https://example.com/x"}, "link", "not tenhou.net"),
        ({"link": "2019032206gm-00a9"}, "link", "is not a log id"),
        ({"link": "https://game.mahjongsoul.com/?paipu=1"}, "link", "Mahjong Soul login"),
        ({"link": ""}, "link", "may not be blank"),
        ({}, "link", "required"),
        ({"link": GAME, "visibility": "friends"}, "visibility", "not a valid choice"),
    ],
)
def test_bad_input_is_a_400_naming_the_problem(
    post: Any, alice: User, body: dict[str, Any], field: str, message: str
) -> None:
    response = post(alice, body)
    assert response.status_code == 400
    assert message in " ".join(response.json()[field])
    assert not LinkImport.objects.exists()


def test_asking_needs_an_account(post: Any, tenhou: TenhouServer) -> None:
    assert post(None, {"link": GAME}).status_code == 401
    assert not LinkImport.objects.exists() and not tenhou.requests


def test_a_private_import_is_seen_by_its_requester_and_staff_only(
    post: Any, alice: User, bob: User, staff: User, tenhou: TenhouServer
) -> None:
    response = post(alice, {"link": GAME, "visibility": "private"})
    url = response["Location"]
    game = Game.objects.get()
    assert game.visibility == "private" and game.uploader == alice
    assert client_for(alice).get(url).json()["game"] == game.pk
    assert client_for(staff).get(url).status_code == 200
    assert client_for(bob).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 404


def test_a_public_import_does_not_name_a_game_made_private_since(
    post: Any, alice: User, bob: User, tenhou: TenhouServer
) -> None:
    url = post(alice, {"link": GAME})["Location"]
    Game.objects.update(visibility="private")
    assert client_for(bob).get(url).json()["game"] is None
    assert client_for(alice).get(url).json()["game"] == Game.objects.get().pk


def test_unknown_ids_are_404(alice: User) -> None:
    for link_import_id in ("12345", "99999999999999999999999"):
        assert client_for(alice).get(f"{URL}{link_import_id}/").status_code == 404


def test_asking_counts_in_the_upload_budget(
    post: Any, alice: User, settings: Settings, tenhou: TenhouServer
) -> None:
    settings.MJLOGS_UPLOAD_RATE = "1/hour"
    assert post(alice, {"link": GAME}).status_code == 202
    refused = client_for(alice).post("/api/uploads/", b"x", content_type="application/x")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_the_schema_documents_both_operations() -> None:
    schema = yaml.safe_load(APIClient().get("/api/schema/").content)
    create = schema["paths"]["/api/imports/links/"]["post"]
    assert set(create["responses"]) >= {"202", "400", "401", "429"}
    assert "Location" in create["responses"]["202"]["headers"]
    assert "get" in schema["paths"]["/api/imports/links/{id}/"]
