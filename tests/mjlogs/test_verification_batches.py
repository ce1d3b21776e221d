"""With a broker, a bulk import queues its games' verifications in batches (one task, one
transaction on the worker, for each :data:`~mjlogs.verification_queue.VERIFY_BATCH` games),
not one task a game: per game, a task's handling and its transaction cost the worker more than
the replay (issue 42). A single upload still queues its game at once."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from mjlogs import importing, pipeline, verification_queue
from mjlogs.archives import UploadedFile
from tests.api.conftest import self_played_document

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch, settings: object) -> list[list[int]]:
    """Tasks go to a broker (none runs here); each queued task's games, in order."""
    settings.CELERY_TASK_ALWAYS_EAGER = False  # type: ignore[attr-defined]
    tasks: list[list[int]] = []

    def verify_later(game_ids: Sequence[int]) -> None:
        tasks.append(list(game_ids))

    monkeypatch.setattr(pipeline.verification(), "verify_later", verify_later)
    return tasks


def files(count: int) -> list[UploadedFile]:
    return [
        UploadedFile(f"{seed}.json", json.dumps(self_played_document(seed)).encode())
        for seed in range(1, count + 1)
    ]


def test_a_bulk_import_queues_its_games_in_batches(
    queued: list[list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verification_queue, "VERIFY_BATCH", 3)
    summary = importing.import_files(files(7))
    stored = [outcome.game_id for outcome in summary.outcomes]
    assert all(stored)
    assert queued == [stored[0:3], stored[3:6], stored[6:7]]  # the last when the import ends


def test_a_single_upload_queues_its_game_at_once(queued: list[list[int]]) -> None:
    (outcome,) = importing.import_file("game.json", json.dumps(self_played_document(1)).encode())
    assert queued == [[outcome.game_id]]


def test_an_unreachable_broker_leaves_every_held_game_pending(
    monkeypatch: pytest.MonkeyPatch, settings: object, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # type: ignore[attr-defined]
    monkeypatch.setattr(verification_queue, "VERIFY_BATCH", 2)
    attempts: list[list[int]] = []

    def unreachable(game_ids: Sequence[int]) -> None:
        attempts.append(list(game_ids))
        raise pipeline.BrokerUnreachable("connection refused")

    monkeypatch.setattr(pipeline.verification(), "verify_later", unreachable)
    summary = importing.import_files(files(5))
    assert len(attempts) == 1  # the broker is asked once an import
    assert "5 games stored with their verification pending" in caplog.text
    assert all(outcome.game_id for outcome in summary.outcomes)
