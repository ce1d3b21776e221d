"""Frames: the table of one round after each of its events, for the step-by-step viewer, of any
game, by its family's framer.

A *frame* is the state of one round after some of its events have been applied: step 0 is the
deal, step ``k`` the table after event ``k - 1`` (0-based, of ``Round.events``). The format is
the contract between the frames API and the viewer page; ``docs/replay.md`` ("Frames")
describes it field by field, and :mod:`engine.frame_types` holds its types, which this module
gives too.

:func:`round_frames`, :func:`round_list` and :func:`round_list_after_replay` ask the game's family
(:func:`engine.families.family_of`, by the rule set its header names): riichi games are framed in
:mod:`engine.variants.riichi.frames`, Ùzje games in :mod:`engine.variants.uzje.frames`, each in the
framer loop every family shares (:class:`engine.frame_types.FrameDriver`).
"""

from __future__ import annotations

from engine.events import Game
from engine.families import family_of
from engine.frame_types import (
    Action,
    Frame,
    MeldView,
    Result,
    RiverTile,
    RoundFrames,
    RoundInfo,
    SeatFrame,
    Stop,
    TenpaiHand,
    WaitView,
    WinView,
    discrepancy_step,
)
from engine.report import ReplayReport

__all__ = [
    "Action",
    "Frame",
    "MeldView",
    "Result",
    "RiverTile",
    "RoundFrames",
    "RoundInfo",
    "SeatFrame",
    "Stop",
    "TenpaiHand",
    "WaitView",
    "WinView",
    "discrepancy_step",
    "round_frames",
    "round_list",
    "round_list_after_replay",
]


def round_frames(game: Game, round_index: int, *, first_dealer: int | None = None) -> RoundFrames:
    """Every frame of one round of a game, from the framer of the game's family
    (:func:`engine.families.family_of`).

    A round's frames depend on its own deal and events, and on the game's first dealer (the
    seats' winds). ``first_dealer`` lets ``game`` hold some of its rounds only (a service that
    reads one round of a long record); by default it is the dealer of ``game.rounds[0]``.

    :raises IndexError: no such round.
    :raises EngineError: the game's rule set is unknown, or its seats do not match it.
    """
    return family_of(game.header.ruleset).round_frames(game, round_index, first_dealer)


def round_list(game: Game) -> list[RoundInfo]:
    """Every round of the game with how it ends by the rules (``unfinished`` when the record
    stops before its end or the rules refuse one of its events). Each round is replayed on its
    own from what the record deals, as the frames are.

    :raises EngineError: as :func:`round_frames`.
    """
    return family_of(game.header.ruleset).round_list(game)


def round_list_after_replay(game: Game, report: ReplayReport) -> list[RoundInfo]:
    """:func:`round_list`, read from a replay of the whole game where the family can (riichi:
    :func:`engine.variants.riichi.frames.round_list_after_replay`); otherwise the rounds are
    replayed."""
    return family_of(game.header.ruleset).round_list_after_replay(game, report)
