"""The engine's small error vocabulary.

Every error the engine raises on bad input is an :class:`EngineError` (a ``ValueError``), so a
caller can catch one type; the subclasses say what kind of problem it was. Messages name the
offending value and what was expected, so they can be shown to a user as they are. The one error
that is never the input's fault, :class:`SimulationError`, is a bug of self-play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class LazyMessage:
    """An error message formatted only when it is read.

    Scoring raises errors on its hot path (a hand without yaku is an ordinary outcome in a
    batch); most callers only look at the error's type or code, so the words are built on demand.
    """

    __slots__ = ("_args", "_format")

    def __init__(self, format_message: Callable[..., str], *args: Any) -> None:
        self._format = format_message
        self._args = args

    def __str__(self) -> str:
        return self._format(*self._args)


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""

    #: A short machine-readable code (used by the command line and the REST API).
    code = "engine_error"


class NotationError(EngineError):
    """A tile string, tile or meld could not be parsed or does not exist in the rule set."""

    code = "bad_notation"


class InvalidHandError(EngineError):
    """A hand is impossible: wrong tile count, a fifth copy, a meld that is not a meld, ..."""

    code = "invalid_hand"


class UnknownRulesetError(EngineError):
    """A rule-set preset name that does not exist, or an option that does not exist."""

    code = "unknown_ruleset"


class NotAgariError(EngineError):
    """The tiles do not form a complete hand."""

    code = "not_agari"


class NoYakuError(EngineError):
    """The hand is complete but has no yaku (dora do not count)."""

    code = "no_yaku"


class InvalidConditionsError(EngineError):
    """The win conditions contradict each other or the hand (e.g. ippatsu without riichi)."""

    code = "invalid_conditions"


class MalformedLogError(EngineError):
    """A game record cannot be read: bad bytes, bad structure, or values out of range.

    ``where`` names the place in the input (``line 3``, ``rounds[2].events[14]``, ``<AGARI>``
    of round E3) when it is known.
    """

    code = "malformed"

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where


class UnsupportedLogError(EngineError):
    """A well-formed record that uses something the engine does not support (yet)."""

    code = "unsupported"


class IllegalActionError(EngineError):
    """An event the rules do not allow in the current state of the game."""

    code = "illegal_action"


class SimulationError(RuntimeError):
    """A self-play loop cannot go on (any family's: riichi's :mod:`engine.sim.selfplay`, Ùzje's
    :mod:`engine.variants.uzje.selfplay`): the state offers nothing legal, a bot chose something
    it was not offered, or a cap was reached. Always a bug, never a property of the game, so not
    an :class:`EngineError`."""
