"""The OpenAPI schema validates and lists every endpoint; the docs pages render from our own
static files; a token is obtained with a username and password."""

from __future__ import annotations

import pytest
import yaml
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def test_the_schema_lists_every_endpoint() -> None:
    response = APIClient().get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    paths = set(schema["paths"])
    assert {
        "/api/games/",
        "/api/games/{id}/",
        "/api/games/{id}/document/",
        "/api/games/{id}/export/{format_name}/",
        "/api/games/{id}/raw/",
        "/api/players/",
        "/api/players/{id}/",
        "/api/verifications/",
        "/api/verifications/{game_id}/",
        "/api/uploads/",
        "/api/auth/token/",
    } <= paths
    filters = {p["name"] for p in schema["paths"]["/api/games/"]["get"]["parameters"]}
    assert {"player", "ruleset", "since", "until", "verdict", "source", "page"} <= filters


@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
def test_the_docs_pages_use_local_static_files(page: str) -> None:
    response = APIClient().get(page)
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/" in html and "cdn." not in html


def test_a_token_is_obtained_with_a_password_and_authenticates(alice: User) -> None:
    response = APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": "alice-secret-1"}
    )
    assert response.status_code == 200
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post("/api/uploads/", {}).status_code == 400  # authenticated, but no file


def test_a_wrong_password_gets_no_token(alice: User) -> None:
    response = APIClient().post("/api/auth/token/", {"username": "alice", "password": "nope"})
    assert response.status_code == 400 and "token" not in response.json()


def test_a_bad_token_is_refused() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert client.get("/api/games/").status_code == 401
    assert client_for(None).get("/api/games/").status_code == 200


def test_the_schema_is_valid_openapi_without_warnings(tmp_path: object) -> None:
    from pathlib import Path

    from django.core.management import call_command

    target = Path(str(tmp_path)) / "schema.yml"
    # --validate checks it against the OpenAPI 3 meta-schema; --fail-on-warn turns every
    # "could not resolve" guess of drf-spectacular into an error.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    assert yaml.safe_load(target.read_text())["openapi"].startswith("3.")
