"""The player list (with its search) and a player's page: only games, and players, that the
visitor may see."""

from __future__ import annotations

import pytest
from django.test import Client

from mjlogs.models import Game, Player, Visibility
from tests.mjlogs.conftest import Store, Users
from tests.mjlogs.pages import engine_game, listed_game_ids, plain, rows, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(users: Users, store: Store) -> dict[str, Game]:
    """Ann plays three games: one public, one private of Alice's, one public in tenhou6 (so she
    has a second name, on tenhou besides sim). Zed plays only in the private one."""
    return {
        "public": store(engine_game(seed=1, names=("Ann", "Ben", "Cho", "Dai"))),
        "private": store(
            engine_game(seed=1, number=1, names=("Ann", "Zed", "Cho", "Dai")),
            uploader=users.alice,
            visibility=Visibility.PRIVATE,
        ),
        "tenhou6": store(
            engine_game(seed=2, names=("Eve", "Fay", "Gus", "Ann")), file_format="tenhou6"
        ),
    }


def test_the_player_list_and_its_search(client: Client, games: dict[str, Game]) -> None:
    page = text(client.get("/players/"))
    names = [plain(row).split(" ")[0] for row in rows(page, "player-list")]
    # Zed plays only in a private game; Ann twice (a self-play name and a tenhou name).
    assert names == sorted(["Ann", "Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus"])
    assert "Zed" not in page
    found = text(client.get("/players/?q=an"))
    # The same name on two platforms is two players, each with where it comes from; the
    # self-played one is marked as a bot.
    assert [plain(row) for row in rows(found, "player-list")] == [
        "Ann self-play (bots) bot",
        "Ann Tenhou",
    ]
    assert 'value="an"' in found and "matching “an”" in found
    assert "No player found." in text(client.get("/players/?q=nobody"))


def test_the_player_list_is_paginated(
    client: Client, games: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("mjlogs.views.common.PAGE_SIZE", 3)
    first = text(client.get("/players/?q=a"))  # Ann, Ann, Dai, Fay
    assert len(rows(first, "player-list")) == 3
    assert 'href="?q=a&amp;page=2"' in first
    assert len(rows(text(client.get("/players/?q=a&page=2")), "player-list")) == 1


def test_the_player_page_lists_the_visible_games_only(
    client: Client, users: Users, games: dict[str, Game]
) -> None:
    ann = Player.objects.get(names__platform="sim", names__name="Ann")
    response = client.get(f"/players/{ann.pk}/")
    assert response.status_code == 200
    page = text(response)
    assert "<h1>Ann</h1>" in page
    assert "A name on <strong>self-play (bots)</strong>: a <strong>bot</strong>" in page
    assert listed_game_ids(response) == {games["public"].pk}
    assert '<li class="highlight">' in page
    client.force_login(users.alice)
    both = {games["public"].pk, games["private"].pk}
    assert listed_game_ids(client.get(f"/players/{ann.pk}/")) == both


def test_a_player_seen_only_in_hidden_games_is_not_found(
    client: Client, users: Users, games: dict[str, Game]
) -> None:
    zed = Player.objects.get(name="Zed")
    assert client.get(f"/players/{zed.pk}/").status_code == 404
    client.force_login(users.bob)
    assert client.get(f"/players/{zed.pk}/").status_code == 404
    client.force_login(users.staff)
    assert client.get(f"/players/{zed.pk}/").status_code == 200
    assert client.get("/players/999999/").status_code == 404


def test_a_player_seated_twice_in_one_game_lists_it_once(client: Client, store: Store) -> None:
    """One name in two seats (an anonymous name, a bot playing itself): the player's page and
    the game list filtered by the player show the game once, without error."""
    game = store(engine_game(seed=3, names=("Twin", "Ben", "Twin", "Dai")))
    twin = Player.objects.get(name="Twin")
    for url in (f"/players/{twin.pk}/", f"/games/?player_id={twin.pk}"):
        page = client.get(url)
        assert page.status_code == 200, url
        assert len(rows(text(page), "games")) == 1 and listed_game_ids(page) == {game.pk}, url
    api = client.get(f"/api/games/?player_id={twin.pk}")
    assert api.status_code == 200 and [row["id"] for row in api.json()["results"]] == [game.pk]


def test_a_player_seated_twice_has_statistics_for_each_seat(client: Client, store: Store) -> None:
    store(engine_game(seed=3, names=("Twin", "Ben", "Twin", "Dai")))
    twin = Player.objects.get(name="Twin")
    ben = Player.objects.get(name="Ben")
    for url in (f"/stats/players/{twin.pk}/", f"/api/players/{twin.pk}/stats/"):
        assert client.get(url).status_code == 200, url
    counts = client.get(f"/api/players/{twin.pk}/stats/").json()["counts"]
    alone = client.get(f"/api/players/{ben.pk}/stats/").json()["counts"]
    # Each seat is a hand of its own in every round, and a game of its own.
    assert counts["hands"] == 2 * alone["hands"] and counts["games"] == 2 * alone["games"] == 2
