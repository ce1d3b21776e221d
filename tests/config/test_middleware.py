"""Site-wide request checks (config/middleware.py)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/api/players/?search=a%00b", "search"),  # found by schemathesis on PostgreSQL: a 500
        ("/api/verifications/?engine_version=%00", "engine_version"),
        ("/api/games/?page=1&ruleset=tenhou-4p&ruleset=x%00", "ruleset"),
        ("/api/players/?se%00arch=a", "se\x00arch"),
    ],
)
def test_a_nul_in_an_api_query_is_a_400_naming_the_parameter(
    client: Client, url: str, name: str
) -> None:
    answer = client.get(url)
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": f"the query parameter {name!r} holds the character U+0000 (NUL)"
    }


def test_a_nul_in_a_page_query_is_a_400_in_words(client: Client) -> None:
    answer = client.get("/players/?search=%00")
    assert answer.status_code == 400
    assert "'search' holds the character U+0000" in answer.content.decode()


def test_queries_without_nul_go_through(client: Client) -> None:
    assert client.get("/api/players/?search=a%01b").status_code == 200
    assert client.get("/players/?search=%E5%A4%A9").status_code == 200


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new query fails as when the server refuses connections."""
    from django.db import OperationalError, connection

    def refused() -> None:
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')

    monkeypatch.setattr(connection, "cursor", refused)


@pytest.mark.parametrize("url", ["/games/", "/players/", "/stats/leaderboard/", "/games/1/"])
def test_a_page_is_a_503_naming_the_database_when_it_is_down(
    client: Client, database_down: None, url: str, caplog: pytest.LogCaptureFixture
) -> None:
    answer = client.get(url)
    assert answer.status_code == 503
    assert answer["Retry-After"] == "60"
    page = answer.content.decode()
    assert "The database is not available right now. Please try again in a minute." in page
    assert "port 5432" not in page  # the server's address stays in the log
    assert f"GET {url} refused, the database is not available" in caplog.text


@pytest.mark.parametrize("url", ["/api/games/", "/api/players/1/stats/", "/api/games/1/"])
def test_an_api_answer_is_a_503_in_json_when_the_database_is_down(
    client: Client, database_down: None, url: str
) -> None:
    answer = client.get(url)
    assert answer.status_code == 503
    assert answer["Retry-After"] == "60"
    assert answer.json() == {
        "detail": "The database is not available right now. Please try again in a minute."
    }


def test_other_errors_are_left_to_django(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from mjlogs import selectors

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug, not the database")

    monkeypatch.setattr(selectors, "game_filter", broken)
    with pytest.raises(ZeroDivisionError):
        client.get("/games/")
