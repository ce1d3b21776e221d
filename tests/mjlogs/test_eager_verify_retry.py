"""Where verifications run in the importing process (Celery eager, the default setup), a
verification the database refuses (a deadlock between two uploads of copies of one game, a
lost connection) is tried again, and never fails an upload whose games are stored: the last
failure leaves them pending, for ``manage.py reverify --pending``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import OperationalError

from mjlogs import importing, verification_queue
from mjlogs.models import Game
from replay import services as replay_services
from tests.api.conftest import self_played_document

pytestmark = pytest.mark.django_db(transaction=True)


def refusing(times: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the first ``times`` verifications fail as a deadlock does; returns the calls."""
    calls: list[int] = []
    verify = replay_services.games_verify

    def games_verify(game_ids: Any) -> Any:
        calls.append(len(calls))
        if len(calls) <= times:
            raise OperationalError("deadlock detected")
        return verify(game_ids)

    monkeypatch.setattr(replay_services, "games_verify", games_verify)
    return calls


def upload_one() -> Game:
    data = json.dumps(self_played_document(1)).encode()
    (outcome,) = importing.import_file("game.json", data)
    assert outcome.status is importing.Status.IMPORTED, outcome
    return Game.objects.get(pk=outcome.game_id)


def test_a_refused_verification_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = refusing(verification_queue.EAGER_VERIFY_TRIES - 1, monkeypatch)
    game = upload_one()
    assert len(calls) == verification_queue.EAGER_VERIFY_TRIES
    assert game.verification.verdict == "verified"


def test_one_refused_every_time_leaves_the_game_pending(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls = refusing(100, monkeypatch)
    game = upload_one()
    assert len(calls) == verification_queue.EAGER_VERIFY_TRIES
    assert not hasattr(game, "verification") or game.verification is None
    assert "stay pending" in caplog.text
