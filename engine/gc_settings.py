"""The garbage collector's settings for a process that reads and replays many games.

Python's collector (thresholds 700, 10, 10) scans every tracked object at each full
collection. A command that imports Django and the engine and builds the engine's tables holds
100,000-140,000 of them, nearly all alive for the whole run, and a run over the corpus made five
full collections (35-50 ms each), which found almost nothing to free (0-346 objects each), plus
one more as the interpreter exits: about an eighth of an ``import_logs`` of the corpus and a
twentieth of an ``engine verify`` (measured with ``gc.callbacks``; docs/performance.md). The
engine's records (events, tiles, hands) are acyclic and freed by reference counting, so
collecting far less often costs no memory worth the name.

Only the processes' entry points call :func:`settle_for_batch_work` (``python -m engine``,
``manage.py``, a Celery worker as it starts), not the library: a program that imports the engine
keeps its own settings. Skipping the collection at exit also skips the finalisers of objects
caught in reference cycles then (an unclosed file in a cycle would lose its buffer), so only
commands that close what they write ask for it: ``python -m engine`` and the batch commands of
``manage.py``, not a shell, a server or a worker.

A worker's batch of games is another case (:func:`collector_paused`): it holds every game of
the batch at once (its records, documents and rows), so the young collections, even this rare,
scan tens of thousands of live objects again and again and find nothing to free.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
from collections.abc import Iterator

#: Allocations of tracked objects between young collections (Python's default: 700), and the
#: young and middle collections between older ones (10 and 10).
BATCH_THRESHOLDS = (10_000, 50, 100)
#: A web server's (:func:`settle_for_serving`): young collections as rarely as a batch
#: process's, the older ones as often as Python's: a full collection every 1,000,000
#: allocations (Python's: every 70,000), which still finds the cycles requests leave behind.
SERVING_THRESHOLDS = (10_000, 10, 10)


def settle_for_batch_work(*, skip_exit_collection: bool = True) -> None:
    """Collect rarely (forked workers inherit the thresholds) and, with
    ``skip_exit_collection``, skip the full collection the interpreter makes as it exits: the
    objects are about to go, and the memory with them."""
    gc.set_threshold(*BATCH_THRESHOLDS)
    if skip_exit_collection:
        atexit.register(gc.freeze)


def settle_for_serving() -> None:
    """For a web server's process once its application is loaded: take every object alive now
    (Django, the apps, the modules and the engine's tables, which live as long as the process)
    out of the collector's sight with :func:`gc.freeze`, and collect with
    :data:`SERVING_THRESHOLDS`. A request that replays a hand (the viewer's frames) allocates
    enough to set off a full collection every few requests, each of which scanned every one of
    those objects: those were the frames' slowest answers (``benchmarks/frames_collections.py``
    measures both ways on the same requests)."""
    gc.collect()  # (what the start left behind is not frozen with the rest)
    gc.freeze()
    gc.set_threshold(*SERVING_THRESHOLDS)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Keep the cycle collector off for the block: for one bounded batch of work, whose objects
    reference counting frees as the batch ends.

    A worker's import task holds its batch's games (at most 50 files or 16 MB of them) from
    reading to storing and verifying: some 1,600 live tracked objects a game, so the young
    collections ran every few games, each scanning 10,000 objects that were all alive, and
    their survivors were scanned again by the older ones. The batch made three objects of
    cyclic garbage (``gc.DEBUG_SAVEALL`` over six batches of the load bench's games), which the
    next collection after the block frees. ``benchmarks/task_vs_verify.py`` measures the
    task's CPU (docs/performance.md, "The collector in a worker's batch").

    Nested blocks, or a collector already off, leave it as they found it."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
