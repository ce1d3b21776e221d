"""A game's verification made ahead of storing it: what the replay app's replay of a game gives
(``replay.services.replayed``), as plain data this app carries without knowing how it is made.

An import whose verifications run in its own process (Celery eager) replays its games in the
worker processes that read them (:mod:`mjlogs.reading`), and the importing process hands each
replay to the verification with the game's record (:mod:`mjlogs.record_cache`). Defined here,
below the replay app, so that both apps name the one type (docs/development.md, "The apps'
layers").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (names only: Django starts without the engine's replay)
    from engine.events import Game as EngineGame
    from engine.frame_types import StudyTally
    from engine.replay import RoundFact as EngineFact


@dataclass(frozen=True, slots=True)
class Replayed:
    """What a game's verification stores, made by the engine alone (no database)."""

    #: The verification's values but its time (``verified_at``, set when it is stored).
    values: dict[str, Any]
    #: The per-player facts of a game the rules agree with; ``None`` otherwise.
    facts: Sequence[EngineFact] | None
    #: The study aids' counts of those facts, where the verification counted them (on a
    #: worker: one pass, no second decoding and replay of the game; empty: the family counts
    #: none); ``None``: left to the study catch-up.
    study: Sequence[StudyTally] | None = None


#: A game's replay for its verification, made where the game is read: a picklable function of
#: the game's canonical document, its engine record and a label naming it in the log.
ReplayAhead = Callable[[dict[str, Any], "EngineGame", str], Replayed]
