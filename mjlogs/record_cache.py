"""The engine records of the games this process has just stored, for the verification that
follows in the same process (Celery eager, the default setup, and a Celery worker's import of
a queued batch: :mod:`mjlogs.queued_imports`).

An import reads each file into engine records and encodes each one as the canonical document it
stores; the verification then read the document back from the database and decoded it into the
same record again (``canonical.game_from_json(game_to_json(g)) == g`` for every game: tested on
the corpus). Where the verification runs in the importing process, it takes the record from
here instead: a sixth of an import's time on the default setup (issue 21). A game read in a
worker process (``import_logs``, :mod:`mjlogs.reading`) comes without its record but with its
replay, made there: the verification only stores it.

Only games whose transaction committed are kept (the import remembers a game once it is
committed), keyed by id and checked against the stored content hash when taken, so a record is
never used for another game. Where another process verifies (an import that queues its
verifications for the workers), nothing is remembered. The cache is small and each record is
taken once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engine.events import Game as EngineGame
from mjlogs.replayed import Replayed

#: Records kept at most: an import verifies in batches much smaller than this.
CAPACITY = 256


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """A stored game as the import had it in memory."""

    content_hash: str
    #: The engine record; ``None`` for a game read in another process (its replay was made
    #: there: ``replayed``).
    record: EngineGame | None
    document: dict[str, Any]
    #: The verification's replay, made ahead where the game was read, or ``None`` to replay
    #: ``record`` (or ``document``) when verifying.
    replayed: Replayed | None = None


_records: OrderedDict[int, StoredRecord] = OrderedDict()
#: The web server's threads may import at the same time.
_lock = threading.Lock()


def remember(game_id: int, stored: StoredRecord) -> None:
    """Keep a committed game's record for its verification in this process."""
    with _lock:
        _records[game_id] = stored
        _records.move_to_end(game_id)
        while len(_records) > CAPACITY:
            _records.popitem(last=False)


def take(game_id: int, content_hash: str) -> StoredRecord | None:
    """The record remembered for this game if its stored content is still the same (removed
    from the cache); ``None`` otherwise."""
    with _lock:
        stored = _records.pop(game_id, None)
    if stored is None or stored.content_hash != content_hash:
        return None
    return stored


def clear() -> None:
    """Forget every record (tests)."""
    with _lock:
        _records.clear()
