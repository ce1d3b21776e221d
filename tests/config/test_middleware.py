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
