"""Lists count at most ``COUNT_CAP`` rows (mjlogs.pagination): the count stops there in SQL,
says so on the pages and in the API (``count_exact``), and the pages stop there too."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from mjlogs import pagination
from mjlogs.models import Game
from mjlogs.pagination import CappedPaginator
from tests.api.conftest import StoreGame, client_for, self_played_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def five_games(store_game: StoreGame) -> list[Game]:
    return [store_game(self_played_document(seed)) for seed in range(5)]


def test_the_count_stops_at_the_cap_in_sql(five_games: list[Game]) -> None:
    games = Game.objects.order_by("pk")
    with CaptureQueriesContext(connection) as queries:
        capped = CappedPaginator(games, 2, cap=3)
        assert (capped.count, capped.count_is_exact, capped.num_pages) == (3, False, 2)
    (count_query,) = [query["sql"] for query in queries.captured_queries]
    assert "COUNT(" in count_query.upper() and "LIMIT 4" in count_query.upper()
    assert "ORDER BY" not in count_query.upper()  # no sort for a count
    last = capped.page(2)
    assert [game.pk for game in last] == [five_games[2].pk]  # the pages stop at the cap
    exact = CappedPaginator(games, 2, cap=5)
    assert (exact.count, exact.count_is_exact, exact.num_pages) == (5, True, 3)
    assert (CappedPaginator(list(games), 2, cap=4).count_is_exact, len(exact.page(3))) == (False, 1)


def test_the_api_says_whether_its_count_is_exact(
    five_games: list[Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    body = client_for(None).get("/api/games/").json()
    assert (body["count"], body["count_exact"], len(body["results"])) == (5, True, 5)
    monkeypatch.setattr(pagination, "COUNT_CAP", 3)
    body = client_for(None).get("/api/games/").json()
    assert list(body) == ["count", "count_exact", "next", "previous", "results"]
    assert (body["count"], body["count_exact"], len(body["results"])) == (3, False, 3)
    players = client_for(None).get("/api/players/").json()
    assert (players["count"], players["count_exact"]) == (3, False)


def test_the_pages_say_at_least_and_where_the_rest_is(
    five_games: list[Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    page = Client().get("/games/").content.decode()
    assert "5 games" in page and "use the filters" not in page
    monkeypatch.setattr(pagination, "COUNT_CAP", 3)
    page = Client().get("/games/").content.decode()
    assert "3+ games" in page
    assert "The pages stop after the first 3: use the filters to reach the rest." in page


def test_the_schema_documents_count_exact() -> None:
    import yaml

    schema: Any = yaml.safe_load(client_for(None).get("/api/schema/").content)
    for name in ("PaginatedGameList", "PaginatedPlayerList", "PaginatedLeaderboardRowList"):
        page = schema["components"]["schemas"][name]
        assert page["properties"]["count_exact"]["type"] == "boolean", name
        assert "count_exact" in page["required"], name
