"""What becomes of a game once this app has stored it, as the apps above this one say.

The three apps are layers (docs/development.md, "The apps' layers"; ``lint-imports`` holds
it): the records (this app) at the bottom, their verification (``replay``) above, the
statistics (``stats``) at the top. An app never imports one above it, at module level or in a
function. Yet storing a game sets work going above: its verification, then, whenever games
change, their statistics. Each app above says here what that work is when Django starts (its
``AppConfig.ready``), and the apps below call it through here without knowing who does it:

- **verification** (:class:`Verification`, the replay app's): a game's verification, now in
  this process or queued for a worker, and the replay an import's reader may make ahead;
- **statistics** (:class:`Statistics`, the stats app's): what a changed game changes in the
  statistics, the facts a verification found, and one catch-up after a bulk change instead of
  one a game.

Whether tasks run in this process (Celery eager, the default setup) or on workers is decided
in one place, :func:`tasks_run_here`, read from the setting the Celery app reads.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from mjlogs.models import Game
from mjlogs.replayed import ReplayAhead

if TYPE_CHECKING:  # (a name only: Django starts without the engine's replay)
    from engine.events import Game as EngineGame


def tasks_run_here() -> bool:
    """Whether Celery's tasks run in this process (eager: no broker configured), not on a
    worker. Read from the setting, without importing Celery (config/__init__.py)."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER)


class Verification(Protocol):
    """A game's verification, as the replay app does it."""

    def replay_ahead(self) -> ReplayAhead:
        """The replay an import's reader makes ahead of storing, where verifications run in
        this process (picklable: a worker process of the reader calls it)."""

    def verify_now(self, game_ids: Sequence[int]) -> None:
        """Verify these games in this process, now.

        :raises TryAgain: the database refused the verdicts' transaction (a deadlock, a lost
            connection); nothing of it was written.
        """

    def verify_later(self, game_ids: Sequence[int]) -> None:
        """Queue these games' verification for a worker, as one task (one transaction there).

        :raises BrokerUnreachable: the task broker cannot be reached.
        """

    def verdict_counts(self, game_ids: Iterable[int]) -> dict[str, int]:
        """How many of these games have each verdict (``pending``: none yet), a game counted
        as often as it is given."""

    def load(self) -> None:
        """Import what verifying needs (Celery, the tasks) now, ahead of the first game: an
        import does it while its reader processes, forked before, read their first files."""


class Statistics(Protocol):
    """What the stats app does when games change."""

    def games_changed(self, games: Iterable[Game], *, verified: bool = False) -> None:
        """Mark what a change to these games (verified, deleted, made public or private, made
        or unmade the copy that counts) changes, inside the transaction that changes them, and
        bring it up to date after it commits; ``verified``: their verdicts were just written
        (their study aids' counts too)."""

    def facts_replace(
        self,
        facts: Mapping[int, Sequence[Any] | None],
        study: Mapping[int, Sequence[Any]] | None = None,
    ) -> None:
        """Store the facts of each game's hands its verification found (``engine`` round
        facts), replacing those it had, with their study aids' counts where ``study`` has the
        game's (``engine`` study tallies; the others are left to the study catch-up)."""

    def study(self, record: EngineGame, label: str) -> Sequence[Any]:
        """The study aids' counts of a game the rules agree with (``engine`` study tallies),
        for :meth:`facts_replace`; ``label`` names the game in the log should the engine fail
        on it."""

    def once_after(
        self, *, study: bool = True, leave: Collection[str] = ()
    ) -> AbstractContextManager[None]:
        """A block after which the statistics catch up once, instead of after each game;
        without ``study``, the study aids' counts wait for ``manage.py study_games``. Catch-ups
        whose task name is in ``leave`` are not run at its end (their marks stay)."""

    def load(self) -> None:
        """Import what counting needs (Celery, the tasks) now, ahead of the first game."""


class TryAgain(Exception):
    """The database refused a verification's transaction; trying again is safe."""


class BrokerUnreachable(Exception):
    """The task broker cannot be reached: the task was not queued."""


# What each app above registered: the dotted path of its class, imported and made on first use,
# so that Django starts without the modules above (an import's reader processes and a plain
# `manage.py` command never load the replay or the statistics they do not use).
_paths: dict[str, str] = {}
_made: dict[str, Any] = {}


def register(*, verification: str | None = None, statistics: str | None = None) -> None:
    """Say, by its dotted path, which class verifies or counts stored games
    (``AppConfig.ready`` of the app that does it); the class is imported when first needed."""
    for role, path in (("verification", verification), ("statistics", statistics)):
        if path is not None:
            _paths[role] = path
            _made.pop(role, None)


def _made_for(role: str, app: str) -> Any:
    try:
        return _made[role]
    except KeyError:
        pass
    try:
        path = _paths[role]
    except KeyError:
        raise ImproperlyConfigured(
            f"no app does the {role} of stored games: is `{app}` installed?"
        ) from None
    made = _made[role] = import_string(path)()
    return made


def verification() -> Verification:
    made: Verification = _made_for("verification", "replay")
    return made


def statistics() -> Statistics:
    made: Statistics = _made_for("statistics", "stats")
    return made
