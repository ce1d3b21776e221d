"""Each imported game's verification, queued once the game is committed (one queue an import).

The games of a bulk import are verified in batches: with a broker, a task for each batch of
committed games, which a worker verifies in one transaction; where tasks run in this process
(Celery eager, the default setup: ``mjlogs.pipeline.tasks_run_here``) or when the import
itself runs on a worker (``mjlogs.queued_imports``), now, from the records the import read.
Who verifies is the replay app's business (``mjlogs.pipeline``): this app
only says when.
"""

from __future__ import annotations

import logging

from django.db import transaction

from mjlogs import pipeline, record_cache
from mjlogs.record_cache import StoredRecord
from mjlogs.replayed import ReplayAhead

logger = logging.getLogger(__name__)


#: Games verified together (:class:`VerificationQueue`): large enough that a batch's writes
#: and a task's handling cost little per game, small enough that an import's progress moves
#: and that a batch's verdicts come soon after its games (at the import's tens of games a
#: second, about a second).
VERIFY_BATCH = 50
#: Tries of a batch's verification in this process (Celery eager) when the database refuses
#: its transaction, before its games are left pending.
EAGER_VERIFY_TRIES = 3


class VerificationQueue:
    """Queues each new game's verification once the game is committed, for one import.

    A queue opened for a bulk import (``batch=True``) holds its committed games and sends them
    :data:`VERIFY_BATCH` at a time, and the rest when the import ends (:meth:`close`): with a
    broker, as one task a batch (a worker's transaction a batch, not a game: per game, the
    task's handling and the writes cost more than the replay); where tasks run in-process
    (Celery eager, the default setup) or when the queue is opened ``here`` (an import that a
    worker runs), verified now. In process, each game is replayed from the record the import
    read (:mod:`mjlogs.record_cache`) instead of its stored document, or not at all when a
    worker that read it replayed it ahead (:meth:`replay_ahead`). A game
    committed after :meth:`close` (an outer transaction the import ran in) is verified, or
    queued, at once.

    When the broker cannot be reached, the game stays stored with its verdict pending (logged,
    with the command that queues it later) and the rest of this import does not wait on the
    broker again: a broker that does not answer costs each attempt seconds of retries, and an
    upload of many games must not wait that long for each of them.
    """

    def __init__(self, *, batch: bool = False, here: bool = False) -> None:
        #: Games committed whose verification could not be queued.
        self.left_pending: list[int] = []
        self._broker_error: str | None = None
        self._batch = batch
        self._here = here
        self._held: list[int] = []

    def after_commit(self, game_id: int, stored: StoredRecord | None = None) -> None:
        """Verify this game once the current transaction commits; ``stored`` is the record
        the import has in memory, used if the verification runs in this process."""
        transaction.on_commit(lambda: self._committed(game_id, stored))

    def _verified_here(self) -> bool:
        """Whether verifications run in this process: tasks run here (Celery eager), or the
        queue was opened ``here`` (an import a worker runs: :mod:`mjlogs.queued_imports`)."""
        return self._here or pipeline.tasks_run_here()

    def replay_ahead(self) -> ReplayAhead | None:
        """The replay an import's reader may make ahead of storing, for the verifications this
        queue runs in this process (Celery eager); ``None`` where a worker verifies."""
        return pipeline.verification().replay_ahead() if self._verified_here() else None

    def close(self) -> None:
        """Verify the games held back for a batch; later ones are verified one by one."""
        self._batch = False
        self._verify_held()

    def close_after_error(self) -> None:
        """:meth:`close` for an import that failed: the games it committed are still verified
        if the database lets us; if not, they stay pending (logged), for ``reverify --pending``."""
        try:
            self.close()
        except Exception:
            logger.exception(
                "Games committed before the import failed could not be verified; "
                "`manage.py reverify --pending` verifies them."
            )

    def _committed(self, game_id: int, stored: StoredRecord | None) -> None:
        if stored is not None and self._verified_here():
            record_cache.remember(game_id, stored)
        self._held.append(game_id)
        if not self._batch or len(self._held) >= VERIFY_BATCH:
            self._verify_held()

    def _verify_held(self) -> None:
        held, self._held = self._held, []
        if not held:
            return
        if not self._verified_here():
            self._queue(held)
            return
        for attempt in range(1, EAGER_VERIFY_TRIES + 1):
            try:
                pipeline.verification().verify_now(held)
                return
            except pipeline.TryAgain:
                # The database refused the verdicts' transaction (a deadlock, a lost
                # connection), which a worker would try again later: the games are stored,
                # so the upload must not fail for it. Tried again here; the last failure
                # leaves them pending, for `manage.py reverify --pending`.
                if attempt == EAGER_VERIFY_TRIES:
                    logger.exception(
                        "Verifying games %s failed %d times; they stay pending "
                        "(`manage.py reverify --pending` verifies them)",
                        held,
                        attempt,
                    )

    def _queue(self, game_ids: list[int]) -> None:
        if self._broker_error is None:
            try:
                pipeline.verification().verify_later(game_ids)
                return
            except pipeline.BrokerUnreachable as error:
                self._broker_error = str(error)
                logger.warning(
                    "The task broker cannot be reached (%s): game %d and the games after it in "
                    "this import are stored with their verification pending; once the broker "
                    "is back, `manage.py reverify --pending` queues them.",
                    error,
                    game_ids[0],
                )
        self.left_pending.extend(game_ids)

    def log_left_pending(self) -> None:
        """Log how many games of the import were left pending, if any."""
        if self.left_pending:
            logger.warning(
                "%d games stored with their verification pending (broker unreachable: %s); "
                "run `manage.py reverify --pending` once the broker is back.",
                len(self.left_pending),
                self._broker_error,
            )
