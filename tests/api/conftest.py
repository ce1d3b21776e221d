"""Fixtures of the REST API tests: users, clients logged in with a token, and stored games
(self-played, imported through the import service and verified as after a real commit)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, Visibility
from tests.people import played_by


@pytest.fixture(autouse=True)
def _fresh_throttle_counts() -> None:
    # Throttle counts live in the cache, which outlives a test: start each test at zero.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="alice-secret-1")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="bob-secret-1")


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("root", password="root-secret-1", is_staff=True)


def client_for(user: User | None) -> APIClient:
    """A client that sends the user's API token, as a script would (anonymous for ``None``)."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def self_played_document(seed: int, players: tuple[str, ...] | None = None) -> dict[str, Any]:
    """One short self-played game as a canonical document, its players renamed if asked."""
    (game,) = simulate("tenhou-4p-east", 1, seed)
    document = canonical.game_to_json(game)
    if players is not None:
        played_by(document, players)
    return document


StoreGame = Callable[..., Game]


@pytest.fixture
def store_game(django_capture_on_commit_callbacks: Any) -> StoreGame:
    """Import a canonical document as a user's upload; its verification runs as after commit."""

    def store(
        document: dict[str, Any],
        *,
        uploader: User | None = None,
        visibility: str = Visibility.PUBLIC,
        name: str = "game.json",
    ) -> Game:
        data = json.dumps(document).encode()
        with django_capture_on_commit_callbacks(execute=True):
            (outcome,) = import_file(name, data, uploader=uploader, visibility=visibility)
        assert outcome.status is Status.IMPORTED, outcome.error
        return Game.objects.get(pk=outcome.game_id)

    return store
