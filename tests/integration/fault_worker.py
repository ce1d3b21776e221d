"""The project's Celery app with a test-only pause, so a fault test can kill a worker while it
is in the middle of a task: ``celery -A tests.integration.fault_worker worker``.

``MJ_TEST_PAUSE`` lists ``phase:task`` pairs, such as
``before:replay.tasks.verify_games after:stats.tasks.catch_up_player_stats``. The first run of
each named task pauses for ``MJ_TEST_PAUSE_SECONDS`` (default 120): ``before`` its body runs
(nothing done yet), or ``after`` it returned (its work committed, but its message not yet
acknowledged: with late acknowledgement the worker acknowledges only once the task is over).
While it pauses, the file ``<MJ_TEST_PAUSE_DIR>/<phase>-<task>`` holds the id of the process
running it, for the test to kill. Later runs of the task find the file there and do not pause.

Nothing of this is in the production code: without ``MJ_TEST_PAUSE`` this app is the
project's.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from celery.signals import task_postrun, task_prerun

from config.celery import app

__all__ = ("app",)

PAUSES = frozenset(os.environ.get("MJ_TEST_PAUSE", "").split())
PAUSE_SECONDS = float(os.environ.get("MJ_TEST_PAUSE_SECONDS", "120"))
PAUSE_DIR = Path(os.environ.get("MJ_TEST_PAUSE_DIR", "."))


def marker(phase: str, task_name: str, folder: Path = PAUSE_DIR) -> Path:
    """The file that says the first run of ``task_name`` is pausing ``phase`` its body."""
    return folder / f"{phase}-{task_name}"


def _pause_once(phase: str, task_name: str) -> None:
    if f"{phase}:{task_name}" not in PAUSES:
        return
    try:
        # O_EXCL: only the first run creates the file, so only it pauses.
        handle = os.open(marker(phase, task_name), os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return
    with os.fdopen(handle, "w") as out:
        out.write(str(os.getpid()))
    time.sleep(PAUSE_SECONDS)


@task_prerun.connect
def _pause_before(sender: Any = None, **kwargs: Any) -> None:
    _pause_once("before", sender.name)


@task_postrun.connect
def _pause_after(sender: Any = None, **kwargs: Any) -> None:
    _pause_once("after", sender.name)
