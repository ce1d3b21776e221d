"""An account's owner can change a password, reset a forgotten one by email, and revoke an API
token (``DELETE /api/auth/token/``); the OpenAPI schema says so.

Issue 20, finding 10 (see docs/security.md).
"""

from __future__ import annotations

import re

import pytest
import yaml
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_a_token_is_revoked_with_delete(alice: User) -> None:
    obtained = APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": "alice-secret-1"}
    )
    assert obtained.status_code == 200
    key = obtained.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    revoked = client.delete("/api/auth/token/")
    assert revoked.status_code == 204 and revoked.content == b""
    assert not Token.objects.filter(key=key).exists()
    assert client.get("/api/games/").status_code == 401  # the old token is refused
    assert client.delete("/api/auth/token/").status_code == 401
    again = APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": "alice-secret-1"}
    )
    assert again.status_code == 200 and again.json()["token"] != key


def test_revoking_needs_the_token(alice: User) -> None:
    assert APIClient().delete("/api/auth/token/").status_code == 401
    session = APIClient()
    session.force_login(alice)  # a browser's session does not revoke the script's token
    Token.objects.create(user=alice)
    assert session.delete("/api/auth/token/").status_code == 401
    assert Token.objects.filter(user=alice).exists()


def test_the_schema_documents_revocation_and_throttling() -> None:
    schema = yaml.safe_load(APIClient().get("/api/schema/").content)
    operations = schema["paths"]["/api/auth/token/"]
    assert set(operations) >= {"post", "delete"}
    assert "204" in operations["delete"]["responses"]
    assert "401" in operations["delete"]["responses"]
    assert "requestBody" not in operations["delete"]
    assert {"tokenAuth"} == {name for entry in operations["delete"]["security"] for name in entry}
    assert "429" in operations["post"]["responses"]


def test_a_password_is_changed_on_its_page(alice: User) -> None:
    client = Client()
    assert client.get("/accounts/password/change/")["Location"].startswith("/accounts/login/")
    client.force_login(alice)
    page = client.get("/accounts/password/change/").content.decode()
    assert 'name="old_password"' in page and 'class="account-form"' in page
    assert "site-header" in page  # the site's own layout, not the admin's
    response = client.post(
        "/accounts/password/change/",
        {
            "old_password": "alice-secret-1",
            "new_password1": "new-mahjong-9",
            "new_password2": "new-mahjong-9",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/change/done/"
    assert "changed" in client.get(response["Location"]).content.decode()
    alice.refresh_from_db()
    assert alice.check_password("new-mahjong-9")
    # Still logged in on this browser (Django keeps the session valid after the change).
    assert client.get("/upload/").status_code == 200


def test_a_forgotten_password_is_reset_by_email(alice: User) -> None:
    client = Client()
    login_page = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password/reset/"' in login_page
    form = client.get("/accounts/password/reset/").content.decode()
    assert 'name="email"' in form and "site-header" in form
    response = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert response["Location"] == "/accounts/password/reset/done/"
    (message,) = mail.outbox
    assert message.to == ["alice@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", message.body)
    assert link is not None, message.body
    # Django's reset link redirects once to a URL that hides the token from the Referer.
    form_url = client.get(link.group(1))["Location"]
    page = client.get(form_url).content.decode()
    assert 'name="new_password1"' in page
    done = client.post(
        form_url, {"new_password1": "reset-mahjong-9", "new_password2": "reset-mahjong-9"}
    )
    assert done["Location"] == "/accounts/password/reset/complete/"
    assert "log in" in client.get(done["Location"]).content.decode().lower()
    assert Client().login(username="alice", password="reset-mahjong-9")


def test_a_reset_for_an_unknown_address_looks_the_same(alice: User) -> None:
    known = Client().post("/accounts/password/reset/", {"email": "alice@example.org"})
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert len(mail.outbox) == 1


def test_signup_takes_an_optional_email_for_resets(db: None) -> None:
    client = Client()
    page = client.get("/accounts/signup/").content.decode()
    assert 'name="email"' in page
    form = {"username": "carol", "password1": "mahjong-tiles-9", "password2": "mahjong-tiles-9"}
    assert client.post("/accounts/signup/", form).status_code == 302
    assert User.objects.get(username="carol").email == ""
    with_email = {**form, "username": "dave", "email": "dave@example.org"}
    assert Client().post("/accounts/signup/", with_email).status_code == 302
    assert User.objects.get(username="dave").email == "dave@example.org"


def test_the_header_links_to_the_password_page(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    assert 'href="/accounts/password/change/"' in client.get("/").content.decode()
