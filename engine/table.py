"""The table protocol: what the shared drivers need from a game family's state machine.

A family's state machine (riichi's :class:`engine.state.GameState`, Ùzje's
:class:`engine.variants.uzje.state.UzjeState`, the next family's) follows one game hand by hand.
The loops that drive it through a record are written once, against this protocol, not once per
family: the replay loop (:class:`engine.report.ReplayDriver`: hand after hand, checking where
each starts and comparing what the record claims) and the framer loop (the viewer's table after
each event). A family's state machine conforms by its shape (a :class:`typing.Protocol`: it
need not import this module); mypy checks it where a family's driver names its table type.

One hand, in the drivers' order:

1. :meth:`Table.start_round` deals the hand the record gives (its hands, indicators, counters
   and scores), or raises :class:`~engine.errors.IllegalActionError` for an impossible deal;
2. :meth:`Table.push_events` (the replayer, in bulk: the hot loop stays in the family's code)
   or :meth:`Table.push` (the framer, one event at a time) applies events, each checked first;
   a refused event is reported with the reason in words, and the hand is not played on;
3. :attr:`Table.finished` says whether the hand reached its end;
4. :meth:`Table.settle` gives the finished hand's result, a family's own type (riichi's
   :class:`engine.state.HandResult`, Ùzje's ``UzjeHandResult``): the shared loops read only its
   :attr:`HandEnd.kind`, the family reads the rest;
5. :meth:`Table.end_round` settles the result into the :attr:`Table.scores` and gives the next
   hand's position, ``None`` at the game's end.

This module sits below the shared types that use it (:mod:`engine.report`,
:mod:`engine.frame_types`) and imports only the events and the game flow's position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from engine.events import Event, Round
from engine.game_flow import RoundPosition

__all__ = ["HandEnd", "Table"]


class HandEnd(Protocol):
    """What the shared loops read of a family's result of a finished hand."""

    @property
    def kind(self) -> str:
        """How the hand ended, in the report's words (``win``, ``exhaustive_draw``, ...): a
        :class:`~engine.report.RoundSummary`'s and a :class:`~engine.frame_types.RoundInfo`'s
        ``result``."""


#: The family's own result of a finished hand.
ResultT_co = TypeVar("ResultT_co", bound=HandEnd, covariant=True)


class Table(Protocol[ResultT_co]):
    """One game's table, hand by hand, as the shared drivers use it (see the module
    docstring)."""

    @property
    def players(self) -> int:
        """Seats at the table."""

    @property
    def scores(self) -> Sequence[float]:
        """Every seat's score: at the hand's start as dealt, after :meth:`end_round` settled.
        (Riichi counts whole points; Ùzje may hold a half, see its scoring.)"""

    @property
    def finished(self) -> bool:
        """The hand has reached its end (a win, or a draw): :meth:`settle` may be called."""

    def start_round(self, round_: Round) -> None:
        """Deal a hand as the record gives it: hands, indicators, counters and scores.

        :raises IllegalActionError: the deal is impossible (hand sizes, tile counts), in words.
        """

    def push(self, event: Event) -> str | None:
        """Check an event and apply it: ``None`` when applied, else why it is refused (the
        driver then stops the hand)."""

    def push_events(self, events: Sequence[Event]) -> tuple[int, str] | None:
        """:meth:`push` each event in turn, stopping at the first refused: its index and why,
        or ``None`` when every event was applied."""

    def settle(self) -> ResultT_co:
        """The finished hand's result (the family's own type).

        :raises IllegalActionError: the hand has not ended.
        """

    def end_round(self) -> RoundPosition | None:
        """Settle the finished hand into the scores; the next hand's position, or ``None``
        when the game is over."""
