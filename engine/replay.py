"""Replay a recorded game through the rules and compare what the record claims with what the rules
give: any game, by its family's replayer.

:func:`replay` asks the game's family (:func:`engine.families.family_of`, by the rule set its
header names) to replay it: riichi games in :mod:`engine.variants.riichi.replay`, Ùzje games in
:mod:`engine.variants.uzje.replay`, each in the loop every family shares
(:class:`engine.report.ReplayDriver`) and with the same report (:mod:`engine.report`), whose types
this module gives too. An event the rules do not allow stops the replay with the verdict
``illegal_action``; a recorded value that differs from the engine's gives ``score_mismatch``,
and the replay goes on so that every difference is listed. The report also carries each hand's
result and one row of facts per player per hand, the raw material of the statistics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import Game
from engine.families import family_of
from engine.report import (
    Discrepancy,
    ReplayReport,
    RoundFact,
    RoundSummary,
    Verdict,
    WinSummary,
    is_limit_hand,
)

if TYPE_CHECKING:  # (the study's types: a verification without it never needs them)
    from engine.frame_types import StudyTally

__all__ = [
    "Discrepancy",
    "ReplayReport",
    "RoundFact",
    "RoundSummary",
    "Verdict",
    "WinSummary",
    "is_limit_hand",
    "replay",
    "replay_and_study",
]


def replay(game: Game, *, stop_at_first: bool = False) -> ReplayReport:
    """Replay a game and compare the record with the rules.

    Stops at the first illegal action; with ``stop_at_first`` also at the first score mismatch.
    Never raises for a bad record: an unknown rule set gives ``unsupported``, an impossible deal or
    action ``illegal_action``. The game's family (:func:`engine.families.family_of`) replays it:
    riichi games in :func:`engine.variants.riichi.replay.replay`, Ùzje games in
    :func:`engine.variants.uzje.replay.replay`, every family in the same terms
    (:mod:`engine.report`).
    """
    return family_of(game.header.ruleset).replay(game, stop_at_first=stop_at_first)


def replay_and_study(game: Game) -> tuple[ReplayReport, list[StudyTally] | None]:
    """:func:`replay`, and the study aids' tallies of a game the rules agree with (``None``
    otherwise, or for a family without study aids), counted in the same pass of the rules
    where the family can (:meth:`engine.families.GameFamily.replay_and_study`): what a worker's
    verification asks."""
    return family_of(game.header.ruleset).replay_and_study(game)
