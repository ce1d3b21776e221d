"""Log-in, token, sign-up and password pages are throttled per client address and per account,
a refused attempt costs no password hash, the lock-out ends by itself, one address cannot lock
an account's owner out, and no answer tells an existing account from a missing one.

Issue 20, finding 8 (see docs/security.md). The limits are settings, set here explicitly so
each test shows the rule, not the defaults (one test checks the defaults' proportions).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

import mjlogs.throttling

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.7"
OWNER = "198.51.100.20"
ATTEMPTS = 25
WINDOW = 900


@pytest.fixture
def limits(settings: Settings) -> None:
    settings.MJLOGS_LOGIN_FAILURES_PER_IP = 5
    settings.MJLOGS_LOGIN_FAILURES_PER_ACCOUNT = 8
    settings.MJLOGS_LOGIN_WINDOW = WINDOW


def token(password: str, *, username: str = "alice", ip: str = ATTACKER, **extra: Any) -> Any:
    return APIClient().post(
        "/api/auth/token/",
        {"username": username, "password": password},
        REMOTE_ADDR=ip,
        **extra,
    )


def page_login(password: str, *, username: str = "alice", ip: str = ATTACKER) -> Any:
    return Client().post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_the_token_endpoint_refuses_from_the_sixth_failure_before_hashing(
    alice: User, hashes: list[str], limits: None
) -> None:
    statuses = [token(f"wrong-{n}").status_code for n in range(ATTEMPTS)]
    assert statuses == [400] * 5 + [429] * (ATTEMPTS - 5)
    # Only the five processed attempts hashed a password: the refused twenty cost no CPU.
    assert hashes == ["verify"] * 5
    refused = token("alice-secret-1")  # the right password too, from that address, for now
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= WINDOW
    assert "throttled" in refused.json()["detail"]
    assert len(hashes) == 5


def test_the_login_page_refuses_from_the_sixth_failure_before_hashing(
    alice: User, hashes: list[str], limits: None
) -> None:
    answers = [page_login(f"wrong-{n}") for n in range(ATTEMPTS)]
    assert [answer.status_code for answer in answers] == [200] * 5 + [429] * (ATTEMPTS - 5)
    assert hashes == ["verify"] * 5
    refused = answers[-1]
    page = refused.content.decode()
    assert "Too many failed log-in attempts" in page and 'name="password"' in page
    assert 0 < int(refused["Retry-After"]) <= WINDOW
    assert "_auth_user_id" not in refused.client.session


def test_the_admin_login_costs_no_hash_once_refused(
    alice: User, hashes: list[str], limits: None
) -> None:
    for n in range(ATTEMPTS):
        Client().post(
            "/admin/login/?next=/admin/",
            {"username": "alice", "password": f"wrong-{n}"},
            REMOTE_ADDR=ATTACKER,
        )
    assert len(hashes) == 5


def test_an_unknown_account_is_answered_like_a_real_one(hashes: list[str], alice: User) -> None:
    real = [token(f"wrong-{n}", username="alice", ip="192.0.2.1") for n in range(12)]
    unknown = [token(f"wrong-{n}", username="nobody-here", ip="192.0.2.2") for n in range(12)]
    assert [a.status_code for a in real] == [b.status_code for b in unknown]
    assert 429 in {a.status_code for a in real}
    assert real[0].json() == unknown[0].json()
    assert real[-1].json().keys() == unknown[-1].json().keys()
    # The dummy hash Django computes for an unknown name is computed (and refused) alike.
    assert hashes.count("verify") == hashes.count("encode")


def test_successful_logins_do_not_count(alice: User, limits: None) -> None:
    assert {token("alice-secret-1").status_code for _ in range(30)} == {200}
    assert {page_login("alice-secret-1").status_code for _ in range(30)} == {302}


def test_one_address_cannot_lock_the_owner_out(
    alice: User, hashes: list[str], settings: Settings
) -> None:
    # The defaults: an account takes more failures (from all addresses together) than one
    # address may make, so a single attacker is stopped before the account is locked.
    assert settings.MJLOGS_LOGIN_FAILURES_PER_ACCOUNT > settings.MJLOGS_LOGIN_FAILURES_PER_IP
    statuses = [token(f"wrong-{n}").status_code for n in range(ATTEMPTS)]
    allowed = settings.MJLOGS_LOGIN_FAILURES_PER_IP
    assert statuses == [400] * allowed + [429] * (ATTEMPTS - allowed)
    assert token("alice-secret-1", ip=OWNER).status_code == 200
    assert page_login("alice-secret-1", ip=OWNER).status_code == 302


def test_many_addresses_lock_the_account_for_the_window_only(
    alice: User, bob: User, hashes: list[str], limits: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = 1_800_000_000 // WINDOW * WINDOW  # a window's first second
    monkeypatch.setattr(mjlogs.throttling, "clock", lambda: float(start))
    for address in range(4):  # 4 addresses x 2 failures = the account's 8
        for n in range(2):
            assert token(f"wrong-{n}", ip=f"192.0.2.{address}").status_code == 400
    assert len(hashes) == 8
    locked = token("alice-secret-1", ip=OWNER)
    assert locked.status_code == 429 and int(locked["Retry-After"]) == WINDOW
    assert page_login("alice-secret-1", ip=OWNER).status_code == 429
    assert len(hashes) == 8
    # Other accounts are not locked, and the owner's address was not charged for the refusal.
    assert token("bob-secret-1", username="bob", ip=OWNER).status_code == 200

    monkeypatch.setattr(mjlogs.throttling, "clock", lambda: float(start + WINDOW - 1))
    assert int(token("alice-secret-1", ip=OWNER)["Retry-After"]) == 1
    monkeypatch.setattr(mjlogs.throttling, "clock", lambda: float(start + WINDOW))
    assert token("alice-secret-1", ip=OWNER).status_code == 200


def test_a_forged_forwarded_for_does_not_escape_the_address_limit(
    alice: User, limits: None
) -> None:
    statuses = [
        token(f"wrong-{n}", HTTP_X_FORWARDED_FOR=f"10.9.8.{n}").status_code for n in range(ATTEMPTS)
    ]
    assert statuses.count(400) == 5


def test_behind_a_proxy_each_client_has_its_own_limit(
    alice: User, limits: None, settings: Settings
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = "10.0.0.2"

    def through_proxy(client: str) -> int:
        status: int = token(
            "wrong", ip=proxy, HTTP_X_FORWARDED_FOR=f"1.2.3.4, {client}"
        ).status_code
        return status

    assert [through_proxy("203.0.113.1") for _ in range(6)] == [400] * 5 + [429]
    assert through_proxy("203.0.113.2") == 400


def test_signups_are_throttled_per_address_before_the_name_is_checked(
    alice: User, settings: Settings
) -> None:
    settings.MJLOGS_SIGNUP_RATE = "3/hour"
    client = Client(REMOTE_ADDR=ATTACKER)

    def signup(name: str) -> Any:
        form = {"username": name, "password1": "mahjong-tiles-9", "password2": "mahjong-tiles-9"}
        return client.post("/accounts/signup/", form)

    first = [signup(name) for name in ("alice", "alicia", "albert")]
    assert [answer.status_code for answer in first] == [200, 302, 302]
    client.logout()
    refused = signup("alice")  # would say the name is taken: it says nothing about it
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many sign-ups" in refused.content.decode()
    assert "already exists" not in refused.content.decode()
    assert signup("carol").status_code == 429
    assert not User.objects.filter(username="carol").exists()
    assert client.get("/accounts/signup/").status_code == 200  # reading the form is free
    other = Client(REMOTE_ADDR=OWNER).post(
        "/accounts/signup/",
        {"username": "carol", "password1": "mahjong-tiles-9", "password2": "mahjong-tiles-9"},
    )
    assert other.status_code == 302


def test_password_changes_with_a_wrong_password_are_throttled(
    alice: User, hashes: list[str], limits: None
) -> None:
    client = Client(REMOTE_ADDR=ATTACKER)
    client.force_login(alice)
    statuses = [
        client.post(
            "/accounts/password/change/",
            {
                "old_password": f"wrong-{n}",
                "new_password1": "new-mahjong-9",
                "new_password2": "new-mahjong-9",
            },
        ).status_code
        for n in range(ATTEMPTS)
    ]
    assert statuses == [200] * 5 + [429] * (ATTEMPTS - 5)
    assert hashes.count("verify") == 5


def test_password_reset_requests_are_throttled(alice: User, settings: Settings) -> None:
    settings.MJLOGS_PASSWORD_RESET_RATE = "2/hour"
    client = Client(REMOTE_ADDR=ATTACKER)
    statuses = [
        client.post("/accounts/password/reset/", {"email": "alice@example.org"}).status_code
        for _ in range(4)
    ]
    assert statuses == [302, 302, 429, 429]
    assert len(mail.outbox) == 2


def test_a_password_reset_lifts_the_account_lock(alice: User, limits: None) -> None:
    for address in range(4):
        for n in range(2):
            token(f"wrong-{n}", ip=f"192.0.2.{address}")
    assert token("alice-secret-1", ip=OWNER).status_code == 429
    client = Client(REMOTE_ADDR=OWNER)
    client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    (message,) = mail.outbox
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", message.body)
    assert link is not None
    form_url = client.get(link.group(1))["Location"]
    client.post(form_url, {"new_password1": "reset-mahjong-9", "new_password2": "reset-mahjong-9"})
    # The owner proved who they are through their mail: the guesses no longer lock them out.
    assert token("reset-mahjong-9", ip=OWNER).status_code == 200
