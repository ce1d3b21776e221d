"""Fixtures of the mjlogs tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from pytest_django.fixtures import Settings

from engine.events import Game as EngineGame
from engine.formats import get_format
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, Visibility


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Settings) -> None:
    """Accounts made in the tests need no slow password hash."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Each test starts with an empty cache: the upload throttle counts requests there."""
    cache.clear()
    yield
    cache.clear()


class Users:
    """Three accounts: the uploader of the test games, someone else, and staff."""

    def __init__(self) -> None:
        model = get_user_model()
        self.alice = model.objects.create_user("alice", password="alice-secret-1")
        self.bob = model.objects.create_user("bob", password="bob-secret-1")
        self.staff = model.objects.create_user("root", password="root-secret-1", is_staff=True)


@pytest.fixture
def users(db: None) -> Users:
    return Users()


Store = Callable[..., Game]


@pytest.fixture
def store(django_capture_on_commit_callbacks: Any) -> Store:
    """Import one game as an upload would, and (unless ``verify=False``) run what the import
    queues after commit, the verification: a test's transaction never commits."""

    def run(
        game: EngineGame | bytes,
        *,
        uploader: AbstractBaseUser | None = None,
        visibility: str = Visibility.PUBLIC,
        file_format: str = "canonical",
        name: str = "game.json",
        verify: bool = True,
    ) -> Game:
        data = game if isinstance(game, bytes) else _written(game, file_format)
        if verify:
            with django_capture_on_commit_callbacks(execute=True):
                (outcome,) = import_file(name, data, uploader=uploader, visibility=visibility)
        else:
            (outcome,) = import_file(name, data, uploader=uploader, visibility=visibility)
        assert outcome.status is Status.IMPORTED, outcome
        return Game.objects.get(pk=outcome.game_id)

    return run


def _written(game: EngineGame, file_format: str) -> bytes:
    writer = get_format(file_format).write
    assert writer is not None
    return writer([game])
