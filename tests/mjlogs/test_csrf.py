"""Every POST form of the site refuses a request without its CSRF token (403, nothing changes)
and works with the token a browser got from the page: upload, delete, visibility, log in, sign
up, log out. The clients check CSRF as a browser's requests are checked
(``Client(enforce_csrf_checks=True)``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from engine.formats import canonical
from mjlogs.models import Game, Visibility
from tests.mjlogs.conftest import Store, Users
from tests.mjlogs.pages import engine_game

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Form:
    """One form: the page that shows it, where it posts, what it sends, who sends it, and how
    to tell whether it did its work."""

    page: str
    action: str
    data: Callable[[], dict[str, Any]]
    user: str | None
    done: Callable[[Client, Game], bool]


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def _game_file() -> SimpleUploadedFile:
    return SimpleUploadedFile("new.json", canonical.write([engine_game(seed=2)]))


FORMS = {
    "upload": Form(
        "/upload/",
        "/upload/",
        lambda: {"files": [_game_file()], "visibility": "public"},
        "alice",
        lambda client, game: Game.objects.count() == 2,
    ),
    "delete": Form(
        "/games/{game}/",
        "/games/{game}/delete/",
        dict,
        "alice",
        lambda client, game: not Game.objects.filter(pk=game.pk).exists(),
    ),
    "visibility": Form(
        "/games/{game}/",
        "/games/{game}/visibility/",
        lambda: {"visibility": "private"},
        "alice",
        lambda client, game: Game.objects.get(pk=game.pk).visibility == Visibility.PRIVATE,
    ),
    "login": Form(
        "/accounts/login/",
        "/accounts/login/",
        lambda: {"username": "bob", "password": "bob-secret-1"},
        None,
        lambda client, game: _logged_in(client),
    ),
    "signup": Form(
        "/accounts/signup/",
        "/accounts/signup/",
        lambda: {"username": "carol", "password1": "a-long-pass-9", "password2": "a-long-pass-9"},
        None,
        lambda client, game: get_user_model().objects.filter(username="carol").exists(),
    ),
    "logout": Form(
        "/games/",
        "/accounts/logout/",
        dict,
        "alice",
        lambda client, game: not _logged_in(client),
    ),
}


@pytest.fixture
def game(users: Users, store: Store) -> Game:
    return store(engine_game(seed=1), uploader=users.alice)


def _browser(users: Users, who: str | None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if who is not None:
        client.force_login(getattr(users, who))
    return client


@pytest.mark.parametrize("name", FORMS)
def test_a_form_without_its_csrf_token_is_refused_and_changes_nothing(
    name: str, users: Users, game: Game
) -> None:
    form = FORMS[name]
    client = _browser(users, form.user)
    was_logged_in = _logged_in(client)
    response = client.post(form.action.format(game=game.pk), form.data())
    assert response.status_code == 403
    assert b"CSRF" in response.content
    assert not form.done(client, game)
    assert Game.objects.count() == 1 and get_user_model().objects.count() == 3
    assert _logged_in(client) == was_logged_in


@pytest.mark.parametrize("name", FORMS)
def test_a_form_with_a_wrong_csrf_token_is_refused(name: str, users: Users, game: Game) -> None:
    form = FORMS[name]
    client = _browser(users, form.user)
    client.get(form.page.format(game=game.pk))  # a real cookie ...
    data = {**form.data(), "csrfmiddlewaretoken": "x" * 64}  # ... but not its token
    response = client.post(form.action.format(game=game.pk), data)
    assert response.status_code == 403
    assert not form.done(client, game)


@pytest.mark.parametrize("name", FORMS)
def test_a_form_with_the_token_of_its_page_works(name: str, users: Users, game: Game) -> None:
    form = FORMS[name]
    client = _browser(users, form.user)
    page = client.get(form.page.format(game=game.pk))
    assert page.status_code == 200
    assert f'action="{form.action.format(game=game.pk)}"'.encode() in page.content or (
        form.page == form.action  # the form posts to its own page
    )
    token = client.cookies["csrftoken"].value
    data = {**form.data(), "csrfmiddlewaretoken": token}
    response = client.post(form.action.format(game=game.pk), data)
    assert response.status_code in (200, 302), response.content[:300]
    assert form.done(client, game)
