"""A worker killed (SIGKILL) in the middle of a task loses nothing and counts nothing twice.

Tasks are acknowledged late (``CELERY_TASK_ACKS_LATE``), so a message stays with the broker
until its task is over; a pool child that dies is reported by its worker, which puts the
message back at once (``CELERY_TASK_REJECT_ON_WORKER_LOST``); a whole worker that dies cannot
report anything, and Redis gives its message to another worker once
``CELERY_VISIBILITY_TIMEOUT`` has passed. The task then runs again, maybe a second time after
its work was committed, and the services are idempotent, so the game's verdict is stored once
and its players' statistics count it once.

The worker is ``tests/integration/fault_worker.py``: the project's app plus a pause, in the
test only, that holds the first run of a named task before or after its body for the kill.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from replay.models import Verdict, Verification
from stats.models import PlayerSummary
from tests.integration.counting import (
    assert_counted_once,
    import_by_command,
    named_game,
    wait_until_done,
)
from tests.integration.fault_worker import marker
from tests.integration.processes import ROOT, CeleryWorker, Processes, broker_idle, wait_until

FAULT_APP = "tests.integration.fault_worker"
VERIFY = "replay.tasks.verify_games"
PLAYER_STATS = "stats.tasks.catch_up_player_stats"
RATINGS = "stats.tasks.update_ratings"
#: Short, so the test need not wait an hour for a killed worker's message.
VISIBILITY_TIMEOUT = 2


def paused_pid(pauses: Path, phase: str, task: str, *logs: CeleryWorker) -> int:
    """Wait until the first run of ``task`` pauses ``phase`` its body; its process id."""
    path = marker(phase, task, pauses)
    wait_until(
        lambda: path.exists() and path.read_text(),
        60,
        f"{task} to pause {phase} its body",
        *logs,
    )
    return int(path.read_text())


@pytest.mark.django_db(transaction=True)
def test_pool_children_killed_in_a_verification_and_a_statistics_update(
    service_env: dict[str, str], processes: Processes, tmp_path: Path
) -> None:
    pauses = tmp_path / "pauses"
    pauses.mkdir()
    worker = processes.worker(
        service_env,
        app=FAULT_APP,
        extra={
            "MJ_TEST_PAUSE": f"before:{VERIFY} after:{PLAYER_STATS}",
            "MJ_TEST_PAUSE_DIR": str(pauses),
        },
    )
    (game_id,) = import_by_command(
        service_env, tmp_path / "logs", [named_game(41, ["Ayu", "Bo", "Chie", "Dai"])]
    )

    # Killed before the verification wrote anything: it must run again, not be dropped.
    child = paused_pid(pauses, "before", VERIFY, worker)
    assert child != worker.pid
    os.kill(child, signal.SIGKILL)
    # Killed after the summaries were written, before the message was acknowledged: the
    # update runs again, and must not count the game a second time.
    child = paused_pid(pauses, "after", PLAYER_STATS, worker)
    assert PlayerSummary.objects.filter(player__seats__game=game_id).count() == 4
    os.kill(child, signal.SIGKILL)

    wait_until_done(service_env["CELERY_BROKER_URL"], [game_id], worker)
    assert worker.log().count("exited with 'signal 9 (SIGKILL)'") == 2
    assert Verification.objects.get(game_id=game_id).verdict == Verdict.VERIFIED
    assert_counted_once([game_id])
    assert set(PlayerSummary.objects.values_list("games", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
def test_whole_workers_killed_in_a_verification_and_a_ratings_update(
    service_env: dict[str, str], processes: Processes, tmp_path: Path
) -> None:
    pauses = tmp_path / "pauses"
    pauses.mkdir()
    broker = service_env["CELERY_BROKER_URL"]
    env = {
        **service_env,
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "MJ_TEST_PAUSE": f"after:{VERIFY} before:{RATINGS}",
        "MJ_TEST_PAUSE_DIR": str(pauses),
    }
    first = processes.worker(env, name="first", app=FAULT_APP)
    (game_id,) = import_by_command(
        service_env, tmp_path / "logs", [named_game(42, ["Eri", "Fumi", "Gen", "Hana"])]
    )

    # The verdict is committed, the message not yet acknowledged, when the whole worker (its
    # main process and its pool) dies: no process is left to put the message back.
    paused_pid(pauses, "after", VERIFY, first)
    assert Verification.objects.filter(game_id=game_id).exists()
    first.kill()
    assert not broker_idle(broker), "the killed worker's message must stay with the broker"
    # Another worker gets the message once the visibility timeout has passed.
    time.sleep(VISIBILITY_TIMEOUT + 0.5)
    second = processes.worker(env, name="second", app=FAULT_APP)
    paused_pid(pauses, "before", RATINGS, second)
    second.kill()

    time.sleep(VISIBILITY_TIMEOUT + 0.5)
    third = processes.worker(env, name="third", app=FAULT_APP)
    wait_until_done(broker, [game_id], first, second, third)
    assert f"Task {VERIFY}[" in second.log()  # the killed worker's verification, run again
    assert_counted_once([game_id])
    assert set(PlayerSummary.objects.values_list("games", flat=True)) == {1}


def test_the_visibility_timeout_is_read_from_the_environment() -> None:
    def transport_options(value: str) -> subprocess.CompletedProcess[str]:
        code = "from config.celery import app; print(app.conf.broker_transport_options)"
        env = {**os.environ, "CELERY_VISIBILITY_TIMEOUT": value}
        return subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )

    assert transport_options("30").stdout.strip() == "{'visibility_timeout': 30}"
    refused = transport_options("soon")
    assert refused.returncode != 0
    assert "CELERY_VISIBILITY_TIMEOUT='soon' is not a whole number" in refused.stderr
