"""The project's Celery app, counting each task's CPU time: the benchmark's workers run
``celery -A benchmarks.loadbench.task_cpu worker`` so that the summary can say what each step
of the production path costs a game (the verification with its study aids, each catch-up).

Each pool process adds up, by task name, the CPU seconds (``time.process_time``: this process
only, whatever else the machine runs) and the runs of its tasks, and rewrites
``<LOADBENCH_CPU_DIR>/cpu-<pid>.json`` at most once a second and when it stops; a task's CPU is
its own, since a pool process runs one task at a time. :func:`read_task_cpu` sums the files.
Nothing of this is in the production code.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from celery.signals import task_postrun, task_prerun, worker_process_shutdown

from config.celery import app

__all__ = ("app", "read_task_cpu")

CPU_DIR_VARIABLE = "LOADBENCH_CPU_DIR"

_started: dict[str, float] = {}
_seconds: defaultdict[str, float] = defaultdict(float)
_runs: defaultdict[str, int] = defaultdict(int)
_written = 0.0


@task_prerun.connect
def _before(task_id: str | None = None, **_: Any) -> None:
    if task_id is not None:
        _started[task_id] = time.process_time()


@task_postrun.connect
def _after(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    started = _started.pop(task_id or "", None)
    if started is None or task is None:
        return
    _seconds[task.name] += time.process_time() - started
    _runs[task.name] += 1
    if time.monotonic() - _written >= 1.0:
        _write()


@worker_process_shutdown.connect
def _on_shutdown(**_: Any) -> None:
    _write()


def _write() -> None:
    global _written
    folder = os.environ.get(CPU_DIR_VARIABLE)
    if not folder:
        return
    path = Path(folder) / f"cpu-{os.getpid()}.json"
    figures = {name: {"seconds": _seconds[name], "runs": _runs[name]} for name in _seconds}
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(figures), encoding="utf-8")
    temporary.replace(path)  # (a reader never sees half a file)
    _written = time.monotonic()


def read_task_cpu(folder: Path) -> dict[str, dict[str, float]]:
    """Every pool process's figures in ``folder``, summed by task name."""
    total: dict[str, dict[str, float]] = {}
    for path in sorted(folder.glob("cpu-*.json")):
        for name, figures in json.loads(path.read_text(encoding="utf-8")).items():
            entry = total.setdefault(name, {"seconds": 0.0, "runs": 0})
            entry["seconds"] += figures["seconds"]
            entry["runs"] += figures["runs"]
    return total
