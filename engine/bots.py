"""The bot protocol: a player of self-play games, whatever the game family.

A family's self-play loop asks a bot only when it has a choice, and always the same question:
:meth:`Bot.choose` one of the legal ``options`` for ``seat`` now. On the seat's own turn the
options are every legal event of the turn (they always hold a discard) and the bot must pick one;
when someone else's action lets the seat claim (a win on a discard, a call), the options are what
it may claim and the bot may pass with ``None``. The loop resolves competing claims and applies
the choice; it raises :class:`~engine.errors.SimulationError` when a bot chooses something it was
not offered. Bots may read the whole table but play fair: they look only at their own tiles and
at what is public.

A family's bots name their table and event types (riichi's in :mod:`engine.sim.bots`:
``Bot[GameState, Event]``; Ùzje's in :mod:`engine.variants.uzje.bots`:
``Bot[UzjeState, UzjeEvent]``) and conform by their shape (a :class:`typing.Protocol`).
"""

from __future__ import annotations

from typing import Protocol, TypeVar

__all__ = ["Bot"]

#: The family's table (its state machine), which a bot only reads.
TableT_contra = TypeVar("TableT_contra", contravariant=True)
#: The family's events, offered and chosen.
EventT = TypeVar("EventT")


class Bot(Protocol[TableT_contra, EventT]):
    """A player of self-play games (see the module docstring)."""

    def choose(self, state: TableT_contra, seat: int, options: list[EventT]) -> EventT | None:
        """One of ``options`` (the legal events for ``seat`` now), or ``None`` to pass a claim.

        On the seat's own turn the options always include a discard and ``None`` is not allowed.
        """
        ...
