"""``benchmarks/task_vs_verify.py``'s attribution of py-spy's samples to the parts of the
worker's import task (the script itself runs in ``test_load_smoke.py``, with the services)."""

from __future__ import annotations

import pytest

from benchmarks.task_vs_verify import STAGES, _stage

TASK = "queued_batch_import (mjlogs/queued_imports.py:186)"


def frames(*names: str) -> list[str]:
    return ["<module> (celery)", TASK, *(f"{name} (somewhere.py:1)" for name in names)]


@pytest.mark.parametrize(
    ("stack", "label"),
    [
        # The engine's reader, inside the service's reading of the file.
        (frames("FileReader.submit", "read_file", "read_games", "loads"), STAGES[0][0]),
        (frames("FileReader.submit", "read_file", "identities", "play_hash"), STAGES[2][0]),
        # A verification runs inside the commit of the games' storing: counted as its own.
        (
            frames("games_store", "Atomic.__exit__", "games_verify", "_outcome", "replayed",
                   "RiichiFamily.replay_and_study", "ReplayDriver.run"),
            STAGES[1][0],
        ),
        (frames("games_store", "Atomic.__exit__", "games_verify", "_save"), STAGES[3][0]),
        (frames("games_store", "_store", "bulk_create"), STAGES[4][0]),
        (frames("QuerySet.delete"), STAGES[5][0]),
    ],
)  # fmt: skip
def test_a_sample_counts_in_its_innermost_part(stack: list[str], label: str) -> None:
    assert _stage(stack) == label


def test_a_sample_outside_every_part_counts_as_the_rest() -> None:
    assert _stage(["<module> (celery)", "other (x.py:1)"]) == "the rest"
