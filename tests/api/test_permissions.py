"""Guessing ids and touching other people's games, on every URL that takes a game or player id.

A private game of someone else and an id that does not exist get the same answer, on the site
and in the API, for anonymous visitors and other users: the answer does not tell that the id
exists. So do the players seen only in that game. Deleting or changing a game one may see but
does not manage is refused, and nothing changes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client

from mjlogs.models import Game, Player, Visibility
from tests.api.conftest import StoreGame, client_for, self_played_document

pytestmark = pytest.mark.django_db

#: Every page and endpoint that reads one game, by its id.
GAME_READS = [
    "/games/{id}/",
    "/replay/{id}/",
    "/api/games/{id}/",
    "/api/games/{id}/document/",
    "/api/games/{id}/raw/",
    "/api/games/{id}/export/canonical/",
    "/api/games/{id}/export/tenhou6/",
    "/api/games/{id}/export/mjai/",
    "/api/games/{id}/rounds/0/frames/",
    "/api/games/{id}/rounds/0/frames/3/",
    "/api/verifications/{id}/",
]

#: Every page and endpoint that reads one player, by id (``{other}``: a public player).
PLAYER_READS = [
    "/players/{id}/",
    "/stats/players/{id}/",
    "/api/players/{id}/",
    "/api/players/{id}/stats/",
    "/api/players/{id}/stats/series/",
    "/api/players/{id}/stats/facts.csv",
    "/api/stats/head-to-head/?a={id}&b={other}",
    "/api/stats/head-to-head/?a={other}&b={id}",
    "/stats/compare/?a={id}&b={other}",
    "/stats/compare/?a={other}&b={id}",
]

#: Queries that take a player id as a filter: they answer, but alike for both ids.
PLAYER_FILTERS = [
    "/api/games/?player_id={id}",
    "/games/?player_id={id}",
    "/api/players/{other}/stats/?opponent={id}",
    "/stats/players/{other}/?opponent={id}",
]

#: Every way to change a game: (method, path, data).
GAME_WRITES = [
    ("post", "/games/{id}/visibility/", {"visibility": "public"}),
    ("post", "/games/{id}/delete/", {}),
    ("patch", "/api/games/{id}/", {"visibility": "public"}),
    ("delete", "/api/games/{id}/", None),
]


class Ids:
    """Alice's private game and a player seen only in it, a public game of hers with a player
    of its own, and ids that exist nowhere."""

    def __init__(self, store_game: StoreGame, alice: User) -> None:
        private = store_game(
            self_played_document(2, ("Hidden", "Eve", "Fay", "Gus")),
            uploader=alice,
            visibility=Visibility.PRIVATE,
        )
        public = store_game(self_played_document(1, ("Ann", "Ben", "Cat", "Dan")), uploader=alice)
        self.private_game = private.pk
        self.public_game = public.pk
        self.hidden_player = Player.objects.get(name="Hidden").pk
        self.public_player = Player.objects.get(name="Ann").pk
        self.missing_game = Game.objects.order_by("-pk").values_list("pk", flat=True)[0] + 1000
        self.missing_player = Player.objects.order_by("-pk").values_list("pk", flat=True)[0] + 1000


@pytest.fixture
def ids(store_game: StoreGame, alice: User) -> Ids:
    return Ids(store_game, alice)


def _client(who: str, bob: User) -> Client:
    """A site client (session) for pages, which also carries bob's token for the API."""
    client = client_for(bob) if who == "bob" else client_for(None)
    if who == "bob":
        client.force_login(bob)
    return client


def _answer(response: Any, *ids: int) -> tuple[int, str, bytes]:
    """What a response tells: its status, where it redirects, and its body, with the ids
    compared masked wherever they stand alone (a page may repeat the id it was asked for) and
    the per-request CSRF token of the page's log-out form left out."""
    body = response.content if not response.streaming else b"".join(response.streaming_content)
    body = _CSRF_TOKEN.sub(b"", body)
    location = response.get("Location", "")
    for number in ids:
        alone = re.compile(rb"(?<![\w.])%d(?![\w.])" % number)
        body = alone.sub(b"<id>", body)
        location = alone.sub(b"<id>", location.encode()).decode()
    return response.status_code, location, body


_CSRF_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def _differences(
    client: Client, paths: list[str], hidden: int, missing: int, **more: int
) -> list[str]:
    """The paths whose answer differs between the hidden id and the missing one."""
    found = []
    for path in paths:
        one = client.get(path.format(id=hidden, **more))
        other = client.get(path.format(id=missing, **more))
        if _answer(one, hidden, missing) != _answer(other, hidden, missing):
            found.append(f"{path}: {one.status_code} for the hidden id, {other.status_code} else")
    return found


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for label in ("mjlogs", "replay", "stats", "auth", "authtoken")
        for model in apps.get_app_config(label).get_models()
    }


@pytest.mark.parametrize("who", ["anonymous", "bob"])
def test_a_private_game_is_answered_as_a_missing_one(who: str, ids: Ids, bob: User) -> None:
    client = _client(who, bob)
    assert not _differences(client, GAME_READS, ids.private_game, ids.missing_game)
    statuses = {
        path: client.get(path.format(id=ids.private_game)).status_code for path in GAME_READS
    }
    assert set(statuses.values()) == {404}, statuses
    # The uploader sees it: the paths are right, only the permission differs.
    owner = client_for(User.objects.get(username="alice"))
    owner.force_login(User.objects.get(username="alice"))
    statuses = {
        path: owner.get(path.format(id=ids.private_game)).status_code for path in GAME_READS
    }
    assert set(statuses.values()) == {200}, statuses


@pytest.mark.parametrize("who", ["anonymous", "bob"])
def test_a_player_seen_only_in_a_private_game_is_answered_as_a_missing_one(
    who: str, ids: Ids, bob: User
) -> None:
    client = _client(who, bob)
    other = {"other": ids.public_player}
    paths = PLAYER_READS + PLAYER_FILTERS
    assert not _differences(client, paths, ids.hidden_player, ids.missing_player, **other)
    statuses = {
        path: client.get(path.format(id=ids.hidden_player, **other)).status_code
        for path in PLAYER_READS
    }
    assert set(statuses.values()) == {404}, statuses
    # Seen by the uploader, the same player is found everywhere.
    owner = client_for(User.objects.get(username="alice"))
    owner.force_login(User.objects.get(username="alice"))
    statuses = {
        path: owner.get(path.format(id=ids.hidden_player, **other)).status_code
        for path in PLAYER_READS
    }
    assert set(statuses.values()) == {200}, statuses


def _write(client: Client, method: str, path: str, data: dict[str, str] | None) -> Any:
    if method == "patch":
        return client.patch(path, data, format="json")  # type: ignore[call-arg]
    return getattr(client, method)(path, **({} if data is None else {"data": data}))


@pytest.mark.parametrize("who", ["anonymous", "bob"])
def test_changing_a_private_game_is_answered_as_for_a_missing_one_and_changes_nothing(
    who: str, ids: Ids, bob: User
) -> None:
    client = _client(who, bob)
    before = row_counts()
    for method, path, data in GAME_WRITES:
        hidden = _write(client, method, path.format(id=ids.private_game), data)
        missing = _write(client, method, path.format(id=ids.missing_game), data)
        # Bob: not found. Anonymous: sent to log in (site) or 401 (API), before any look-up.
        expected = 404 if who == "bob" else 401 if path.startswith("/api/") else 302
        assert hidden.status_code == expected, (method, path)
        assert _answer(hidden, ids.private_game, ids.missing_game) == _answer(
            missing, ids.private_game, ids.missing_game
        ), (method, path)
    assert row_counts() == before
    assert Game.objects.get(pk=ids.private_game).visibility == Visibility.PRIVATE


def test_changing_a_game_of_someone_else_is_refused_and_changes_nothing(
    ids: Ids, bob: User
) -> None:
    client = _client("bob", bob)
    before = row_counts()
    for method, path, data in GAME_WRITES:
        wanted = {"visibility": "private"} if data else data
        response = _write(client, method, path.format(id=ids.public_game), wanted)
        assert response.status_code == 403, (method, path)
    assert row_counts() == before
    assert Game.objects.get(pk=ids.public_game).visibility == Visibility.PUBLIC


def test_the_uploader_may_change_what_others_may_not(ids: Ids, alice: User) -> None:
    # The refusals above are about who asks: the same requests work for the uploader.
    client = client_for(alice)
    response = client.patch(
        f"/api/games/{ids.public_game}/", {"visibility": "private"}, format="json"
    )
    assert response.status_code == 200
    assert Game.objects.get(pk=ids.public_game).visibility == Visibility.PRIVATE
    assert client.delete(f"/api/games/{ids.public_game}/").status_code == 204
    assert not Game.objects.filter(pk=ids.public_game).exists()
