"""The replay app's part of what becomes of a stored game (``mjlogs.pipeline``): its
verification, registered when Django starts (``replay.apps``).

The tasks are imported when first used, not with this module: Django starts without Celery
(config/__init__.py), and an import's reader processes, forked before it is imported, never
queue a task.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjlogs.pipeline import BrokerUnreachable, TryAgain
from mjlogs.replayed import ReplayAhead
from replay import services


class ReplayVerification:
    """:class:`mjlogs.pipeline.Verification` by the replay app's tasks."""

    def replay_ahead(self) -> ReplayAhead:
        return services.replayed  # (read when asked: a test may replace it)

    def verify_now(self, game_ids: Sequence[int]) -> None:
        from celery.exceptions import Retry

        from replay.tasks import verify_games

        try:
            verify_games.delay(list(game_ids))  # eager: runs here, now
        except Retry as retry:  # the task's autoretry: the database refused its transaction
            raise TryAgain(str(retry)) from retry

    def verify_later(self, game_ids: Sequence[int]) -> None:
        from kombu.exceptions import OperationalError

        from replay.tasks import verify_games

        try:
            verify_games.delay(list(game_ids))
        except OperationalError as error:
            raise BrokerUnreachable(str(error)) from error

    def load(self) -> None:
        import replay.tasks  # noqa: F401
