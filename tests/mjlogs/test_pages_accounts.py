"""Signing up, logging in and out, and the header that shows who is logged in."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client

from mjlogs.accounts import user_create
from tests.mjlogs.conftest import Users
from tests.mjlogs.pages import text

pytestmark = pytest.mark.django_db


def test_signup_creates_an_account_and_logs_in(client: Client) -> None:
    page = text(client.get("/accounts/signup/"))
    assert 'name="username"' in page and 'name="password2"' in page
    response = client.post(
        "/accounts/signup/",
        {"username": "carol", "password1": "mahjong-tiles-9", "password2": "mahjong-tiles-9"},
    )
    assert response.status_code == 302 and response["Location"] == "/upload/"
    user = get_user_model().objects.get(username="carol")
    assert user.check_password("mahjong-tiles-9") and not user.is_staff
    page = text(client.get("/upload/"))
    assert '<span class="user-name">carol</span>' in page and "Log out" in page


@pytest.mark.parametrize(
    ("form", "error"),
    [
        (
            {"username": "carol", "password1": "mahjong-tiles-9", "password2": "other-tiles-9"},
            "The two password fields didn",
        ),
        ({"username": "carol", "password1": "123", "password2": "123"}, "too short"),
        (
            {"username": "ALICE", "password1": "mahjong-tiles-9", "password2": "mahjong-tiles-9"},
            "A user with that username already exists.",
        ),
    ],
)
def test_a_refused_signup_says_why_and_creates_nothing(
    client: Client, users: Users, form: dict[str, str], error: str
) -> None:
    response = client.post("/accounts/signup/", form)
    assert response.status_code == 200
    assert error in text(response)
    assert get_user_model().objects.count() == 3
    assert "_auth_user_id" not in client.session


def test_log_in_and_out(client: Client, users: Users) -> None:
    page = text(client.get("/games/"))
    assert 'href="/accounts/login/?next=/games/"' in page and 'href="/accounts/signup/"' in page
    response = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "alice-secret-1", "next": "/games/"},
    )
    assert response.status_code == 302 and response["Location"] == "/games/"
    page = text(client.get("/games/"))
    assert '<span class="user-name">alice</span>' in page
    assert '<form method="post" action="/accounts/logout/"' in page
    assert client.get("/accounts/logout/").status_code == 405  # log out is a POST
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Log in" in text(client.get("/games/"))


def test_a_wrong_password_is_refused(client: Client, users: Users) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password." in text(response)


def test_login_then_goes_to_the_game_list(client: Client, users: Users) -> None:
    response = client.post("/accounts/login/", {"username": "bob", "password": "bob-secret-1"})
    assert response["Location"] == "/games/"


def test_the_header_links_every_page(client: Client) -> None:
    page = text(client.get("/"))
    for href in ("/games/", "/players/", "/upload/", "/accounts/login/", "/accounts/signup/"):
        assert f'href="{href}' in page


def test_the_account_pages_link_log_in_without_coming_back_to_themselves(client: Client) -> None:
    for path in ("/accounts/login/", "/accounts/signup/"):
        page = text(client.get(path))
        assert 'href="/accounts/login/"' in page and "?next=/accounts/" not in page


def test_user_create_checks_the_name_and_the_password(users: Users) -> None:
    with pytest.raises(ValidationError, match="already exists"):
        user_create(username="Alice", password="mahjong-tiles-9")
    with pytest.raises(ValidationError, match="too common"):
        user_create(username="carol", password="password123")
    with pytest.raises(ValidationError, match="required"):
        user_create(username="  ", password="mahjong-tiles-9")
    carol = user_create(username=" carol ", password="mahjong-tiles-9")
    assert carol.get_username() == "carol" and carol.check_password("mahjong-tiles-9")
