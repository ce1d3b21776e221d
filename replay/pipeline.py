"""The replay app's part of what becomes of a stored game (``mjlogs.pipeline``): its
verification, registered when Django starts (``replay.apps``).

The tasks are imported when first used, not with this module: Django starts without Celery
(config/__init__.py), and an import's reader processes, forked before it is imported, never
queue a task.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import OperationalError

from mjlogs.pipeline import BrokerUnreachable, TryAgain
from mjlogs.replayed import ReplayAhead
from replay import selectors, services


class ReplayVerification:
    """:class:`mjlogs.pipeline.Verification` by the replay app's tasks."""

    def replay_ahead(self) -> ReplayAhead:
        return services.replayed  # (read when asked: a test may replace it)

    def verify_now(self, game_ids: Sequence[int]) -> None:
        # The service itself, not the task: on a worker (an import it runs) a task would be
        # queued, not run here; the caller tries again (mjlogs.verification_queue).
        try:
            services.games_verify(list(game_ids))
        except OperationalError as error:  # the database refused the verdicts' transaction
            raise TryAgain(str(error)) from error

    def verify_later(self, game_ids: Sequence[int]) -> None:
        from kombu.exceptions import OperationalError

        from replay.tasks import verify_games

        try:
            verify_games.delay(list(game_ids))
        except OperationalError as error:
            raise BrokerUnreachable(str(error)) from error

    def verdict_counts(self, game_ids: Iterable[int]) -> dict[str, int]:
        return selectors.verdict_counts(game_ids)

    def load(self) -> None:
        import replay.tasks  # noqa: F401
