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

__all__ = [
    "Discrepancy",
    "ReplayReport",
    "RoundFact",
    "RoundSummary",
    "Verdict",
    "WinSummary",
    "is_limit_hand",
    "replay",
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
