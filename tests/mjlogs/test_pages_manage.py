"""Changing who sees a game and deleting it from its page: its uploader and staff may, others
may not (403), a game they cannot see is not found (404), and anonymous visitors are sent to
log in."""

from __future__ import annotations

import pytest
from django.test import Client

from mjlogs.models import Game, Visibility
from tests.mjlogs.conftest import Store, Users
from tests.mjlogs.pages import engine_game, listed_game_ids, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(users: Users, store: Store) -> Game:
    return store(engine_game(seed=1), uploader=users.alice)


@pytest.fixture
def private_game(users: Users, store: Store) -> Game:
    return store(engine_game(seed=1, number=1), uploader=users.alice, visibility="private")


# -- Delete -------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["alice", "staff"])
def test_the_uploader_or_staff_deletes_a_game(
    client: Client, users: Users, game: Game, who: str
) -> None:
    client.force_login(getattr(users, who))
    page = text(client.get(f"/games/{game.pk}/"))
    assert f'action="/games/{game.pk}/delete/"' in page and "cannot be undone" in page
    response = client.post(f"/games/{game.pk}/delete/", follow=True)
    assert response.redirect_chain == [("/games/", 302)]
    assert f"Deleted {game}." in text(response)
    assert not Game.objects.filter(pk=game.pk).exists()


def test_someone_else_may_not_delete_a_game(client: Client, users: Users, game: Game) -> None:
    client.force_login(users.bob)
    page = text(client.get(f"/games/{game.pk}/"))
    assert "/delete/" not in page and "/visibility/" not in page
    assert client.post(f"/games/{game.pk}/delete/").status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


def test_an_anonymous_visitor_is_sent_to_log_in(client: Client, game: Game) -> None:
    assert "/delete/" not in text(client.get(f"/games/{game.pk}/"))
    for action in ("delete", "visibility"):
        response = client.post(f"/games/{game.pk}/{action}/", {"visibility": "private"})
        assert response.status_code == 302
        assert response["Location"] == f"/accounts/login/?next=/games/{game.pk}/{action}/"
    game.refresh_from_db()
    assert game.visibility == Visibility.PUBLIC


def test_a_private_game_of_someone_else_is_not_found(
    client: Client, users: Users, private_game: Game
) -> None:
    client.force_login(users.bob)
    assert client.post(f"/games/{private_game.pk}/delete/").status_code == 404
    response = client.post(f"/games/{private_game.pk}/visibility/", {"visibility": "public"})
    assert response.status_code == 404
    private_game.refresh_from_db()
    assert private_game.visibility == Visibility.PRIVATE


def test_delete_and_visibility_take_post_only(client: Client, users: Users, game: Game) -> None:
    client.force_login(users.alice)
    assert client.get(f"/games/{game.pk}/delete/").status_code == 405
    assert client.get(f"/games/{game.pk}/visibility/").status_code == 405
    assert Game.objects.filter(pk=game.pk).exists()


def test_csrf_protects_the_forms(users: Users, game: Game) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(users.alice)
    assert client.post(f"/games/{game.pk}/delete/").status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()
    client.get(f"/games/{game.pk}/")  # sets the CSRF cookie, as a browser would
    token = client.cookies["csrftoken"].value
    response = client.post(f"/games/{game.pk}/delete/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()


# -- Visibility ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["alice", "staff"])
def test_the_uploader_or_staff_makes_a_game_private_and_public_again(
    client: Client, users: Users, game: Game, who: str
) -> None:
    client.force_login(getattr(users, who))
    response = client.post(f"/games/{game.pk}/visibility/", {"visibility": "private"}, follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert "The game is now private: the uploader and staff only." in text(response)
    game.refresh_from_db()
    assert game.visibility == Visibility.PRIVATE
    assert game.pk not in listed_game_ids(Client().get("/games/"))
    client.post(f"/games/{game.pk}/visibility/", {"visibility": "public"})
    game.refresh_from_db()
    assert game.visibility == Visibility.PUBLIC
    assert game.pk in listed_game_ids(Client().get("/games/"))


def test_someone_else_may_not_change_visibility(client: Client, users: Users, game: Game) -> None:
    client.force_login(users.bob)
    response = client.post(f"/games/{game.pk}/visibility/", {"visibility": "private"})
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.visibility == Visibility.PUBLIC


def test_an_unknown_visibility_changes_nothing(client: Client, users: Users, game: Game) -> None:
    client.force_login(users.alice)
    response = client.post(f"/games/{game.pk}/visibility/", {"visibility": "secret"}, follow=True)
    assert "Visibility not changed: visibility must be one of public, private." in text(response)
    game.refresh_from_db()
    assert game.visibility == Visibility.PUBLIC


def test_the_visibility_form_shows_the_current_choice(
    client: Client, users: Users, private_game: Game
) -> None:
    client.force_login(users.alice)
    page = text(client.get(f"/games/{private_game.pk}/"))
    assert '<option value="private" selected>' in page
