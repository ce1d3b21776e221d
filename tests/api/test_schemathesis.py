"""Schemathesis against our OpenAPI schema (drf-spectacular, ``/api/schema/``), through the
WSGI application: every operation gets generated requests, valid and invalid, anonymous and
with a user's token, on a database holding public and private games.

Every default check runs: no server error; status codes, content types, headers and bodies as
the schema says; invalid input refused and valid input accepted. About two minutes in all;
``MJ_SLOW=1`` runs ten times more examples.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from pytest_django.fixtures import Settings
from rest_framework.authtoken.models import Token
from schemathesis import checks

from config.limits import DB_INT_MAX, parse_int
from mjlogs.models import Visibility
from tests.api.conftest import StoreGame, self_played_document

EXAMPLES = 10 * (10 if os.environ.get("MJ_SLOW") == "1" else 1)


# Loaded when the module is collected (Django is set up by then; the schema view reads the
# code only, no database). Not ``schemathesis.pytest.from_fixture``: with pytest 9 it fails
# on a node attribute pytest no longer has.
schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())


@pytest.fixture
def connection_kept(db: None) -> Iterator[None]:
    """Keep the test's database connection across requests, as Django's test client does:
    the WSGI handler closes it when a request finishes, and the test's transaction with it."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def stored_games(
    connection_kept: None, store_game: StoreGame, alice: User, bob: User, settings: Settings
) -> None:
    """Games whose ids, rounds and players the generated requests can hit (ids are small)."""
    # Generated uploads come fast: the rate limit's 429 is not what this test looks at.
    settings.MJLOGS_UPLOAD_RATE = "100000/hour"
    store_game(self_played_document(1, ("Ann", "Ben", "Cat", "Dan")), uploader=alice)
    store_game(
        self_played_document(2, ("Ann", "Eve", "Fay", "Gus")),
        uploader=alice,
        visibility=Visibility.PRIVATE,
    )
    store_game(self_played_document(3, ("Hal", "Ian", "Ben", "Kim")), uploader=bob)


CASE_SETTINGS = hypothesis_settings(
    max_examples=EXAMPLES,
    # The same cases on every CI run, so a red run is a change of ours, not a new draw;
    # MJ_SLOW=1 draws new ones (and more of them).
    derandomize=os.environ.get("MJ_SLOW") != "1",
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


#: Operations whose input must mean something beyond its schema: a token needs an account's
#: name and password, an upload (queued or not) needs game records and modifiers that exist,
#: a link import a Tenhou link (and a valid one would be fetched from tenhou.net).
#: Schema-valid input is rightly refused there (400), so the check that schema-valid input is
#: accepted does not apply.
MEANINGFUL_INPUT = {
    ("POST", "/api/auth/token/"),
    ("POST", "/api/uploads/"),
    ("POST", "/api/imports/queued/"),
    ("POST", "/api/imports/links/"),
}


#: The WSGI transport hands the checks the body as sent: asked for gzip (as an HTTP library
#: does by default), they would read compressed bytes (GZipMiddleware; tested on its own).
UNCOMPRESSED = {"Accept-Encoding": "identity"}

#: Operations taking two players that must differ, which a schema cannot say.
TWO_PLAYERS = {("GET", "/api/stats/head-to-head/"): ("a", "b")}


def _an_id(value: Any) -> bool:
    """Whether a player parameter is an id the database can hold (else it reads as a name)."""
    return parse_int(str(value), 1, DB_INT_MAX) is not None


def _excluded(case: Any) -> list[Any]:
    excluded = []
    if (case.method.upper(), case.path) in MEANINGFUL_INPUT:
        excluded.append(checks.positive_data_acceptance)
    pair = TWO_PLAYERS.get((case.method.upper(), case.path))
    query = case.query or {}
    if pair is not None and str(query.get(pair[0])) == str(query.get(pair[1])):
        # One player twice is rightly refused (400 "Choose two different players").
        excluded.append(checks.positive_data_acceptance)
    if pair is not None and not all(_an_id(query.get(name)) for name in pair):
        # A player may be a name: one that is no player (or several) is rightly refused
        # (400, listing the close matches or the players), which a schema cannot say.
        excluded.append(checks.positive_data_acceptance)
    if any(isinstance(value, list) for value in (case.query or {}).values()):
        # A query parameter sent several times: Django reads the last value (no parameter of
        # ours is a list), which the schema cannot say; a bad last value is still refused.
        excluded.append(checks.negative_data_rejection)
    return excluded


@schema.parametrize()
@CASE_SETTINGS
def test_anonymous_requests(case: Any, stored_games: None) -> None:
    case.call_and_validate(headers=dict(UNCOMPRESSED), excluded_checks=_excluded(case))


@schema.parametrize()
@CASE_SETTINGS
def test_requests_with_a_token(case: Any, stored_games: None, alice: User) -> None:
    token, _ = Token.objects.get_or_create(user=alice)
    headers = {"Authorization": f"Token {token.key}", **UNCOMPRESSED}
    case.call_and_validate(headers=headers, excluded_checks=_excluded(case))
