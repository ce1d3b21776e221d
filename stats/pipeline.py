"""The stats app's part of what becomes of a stored game (``mjlogs.pipeline``): what a
changed game changes in the statistics, registered when Django starts (``stats.apps``).

The tasks are imported when first used, not with this module: Django starts without Celery
(config/__init__.py).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from engine.events import Game as EngineGame
from mjlogs.models import Game
from stats.catch_up import STUDY_CATCH_UP, catch_up_once_after
from stats.services import game_study, games_facts_replace


class StatsOfGames:
    """:class:`mjlogs.pipeline.Statistics` by the stats app's catch-ups."""

    def games_changed(self, games: Iterable[Game], *, verified: bool = False) -> None:
        from stats.tasks import game_stats_queue_update, games_stats_queue_update

        if verified:
            games_stats_queue_update(list(games))
            return
        for game in games:
            game_stats_queue_update(game)

    def facts_replace(
        self,
        facts: Mapping[int, Sequence[Any] | None],
        study: Mapping[int, Sequence[Any]] | None = None,
    ) -> None:
        games_facts_replace(facts, study)

    def study(self, record: EngineGame, label: str) -> Sequence[Any]:
        return game_study(record, label)

    def once_after(
        self, *, study: bool = True, leave: Collection[str] = ()
    ) -> AbstractContextManager[None]:
        return catch_up_once_after(leave=(*leave, *(() if study else (STUDY_CATCH_UP,))))

    def load(self) -> None:
        import stats.tasks  # noqa: F401
