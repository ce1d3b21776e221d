"""The rule modifiers' play hooks (:mod:`engine.rules.modifiers`): what each may change, asked
here for the steps the rest of the state machine owns, and the swap, a step of its own.

Each hook is asked from the one place that owns its step: a draw by the discarder after its own
unclaimed discard (``redraw``) in :mod:`engine.state.draw_discard`; who may call (``may_call``) in
:mod:`engine.state.calls`; the legal candidates of both in :mod:`engine.state.legal`. This module
answers them (which power allows it, if any), checks and applies the :class:`~engine.events.Swap`
event, and says whose concealed tiles a seat may see (``visible``, read by the self-play bots).
Every use of a power is counted per seat and hand (:attr:`powers_used`), so a hook can allow a
power once. Each seat has its own powers (the table's modifiers and the power it chose:
``Ruleset.seat_powers``), and a hook is asked only of the seat that would use it: the discarder
who draws again, the seat that calls, the seat that looks, the seat that swaps. Without modifiers
none of this is asked: the tuples of powers are empty.
"""

from __future__ import annotations

from engine.events import Event, Swap
from engine.state.base import StateBase
from engine.state.results import Phase
from engine.tiles import Tile


class PowerRules(StateBase):
    """Rule modifiers' powers in play (a part of :class:`~engine.state.GameState`)."""

    def _use_power(self, seat: int, power: str) -> None:
        """Count one use of a power by the seat in this hand."""
        used = self.powers_used[seat]
        used[power] = used.get(power, 0) + 1

    # -- redraw ----------------------------------------------------------------------------------

    def _redraw_power(self, seat: int) -> str | None:
        """The name of the seat's power that lets it draw again after its own unclaimed discard
        now, or ``None``."""
        for modifier in self.redraw_powers[seat] if self.redraw_powers else ():
            if modifier.redraw(self, seat):
                return modifier.name
        return None

    def _no_redraw(self, seat: int) -> str:
        """Why ``seat``, the discarder, may not draw again now (it has no such power, or none
        left), in words."""
        if not self.redraw_powers[seat]:
            return f"seat {seat} has no power to draw again ({self.powers_words(seat)})"
        return f"no redraw is left to seat {seat} now"

    def _redrawn(self, seat: int) -> None:
        """A seat drew again after its own discard: count the power's use; the turn order is
        broken, which ends the first go-around as a call does."""
        power = self._redraw_power(seat)
        assert power is not None  # (checked before the draw)
        self._use_power(seat, power)
        self._break_first_turn()

    # -- calls -----------------------------------------------------------------------------------

    def _call_power(self, seat: int, discarder: int, call: str) -> tuple[str, bool] | None:
        """The first power that has a say on this call (``chi``, ``pon``, ``open_kan``) and what
        it says (allowed or not), or ``None`` when the rule set alone decides."""
        for modifier in self.call_powers[seat] if self.call_powers else ():
            verdict = modifier.may_call(self, seat, discarder, call)
            if verdict is not None:
                return modifier.name, verdict
        return None

    # -- what a seat may see ---------------------------------------------------------------------

    def visible_hands(self, seat: int) -> dict[int, list[Tile]]:
        """The concealed tiles of the other seats that ``seat`` may see now, by seat (the
        rule modifiers' ``visible`` hook): empty without such a modifier. A bot reads the other
        seats' hands only through this."""
        seen: dict[int, list[Tile]] = {}
        for modifier in self.visible_powers[seat] if self.visible_powers else ():
            for other in sorted(modifier.visible(self, seat)):
                if other != seat and 0 <= other < self.players and other not in seen:
                    seen[other] = self.seats[other].tiles()
        return seen

    # -- swap ------------------------------------------------------------------------------------

    def _swap_power(self, seat: int) -> str | None:
        for modifier in self.swap_powers[seat] if self.swap_powers else ():
            if modifier.swap(self, seat):
                return modifier.name
        return None

    def _check_swap(self, event: Swap) -> str | None:
        seat = event.seat
        if not self.swap_powers:
            return f"there is no swap in {self.ruleset.name}: no rule modifier in force has one"
        problem = self._own_turn(seat)
        if problem:
            return f"no swap now: {problem}"
        problem = self._dora_blocks()
        if problem:
            return problem
        if not self.swap_powers[seat]:
            return f"seat {seat} has no power to swap ({self.powers_words(seat)})"
        if self._swap_power(seat) is None:
            return f"seat {seat} may not swap now (no swap left to it this hand, or in riichi)"
        if not self.seats[seat].holds(event.tile):
            return f"seat {seat} swaps {event.tile}, which they do not hold"
        if event.indicator not in self.dora_indicators:
            shown = " ".join(map(str, self.dora_indicators)) or "none"
            return f"{event.indicator} is not a dora indicator showing (showing: {shown})"
        return None

    def _swap(self, event: Swap) -> None:
        seat = event.seat
        power = self._swap_power(seat)
        assert power is not None  # (checked)
        self._use_power(seat, power)
        data = self.seats[seat]
        data.remove(event.tile)
        data.add(event.indicator)
        self.dora_indicators[self.dora_indicators.index(event.indicator)] = event.tile
        # A swap is no draw: the seat discards next (no tsumo, kan, riichi or kita this turn,
        # and no discard is the tile just drawn).
        self.last_draw = None

    # -- words -----------------------------------------------------------------------------------

    def powers_words(self, seat: int) -> str:
        """What the seat chose and which seats chose a power, for a refusal: ``it chose peek;
        the powers chosen: seat 0 swap, seat 1 peek``."""
        chosen = self.ruleset.seat_powers
        own = chosen[seat] if seat < len(chosen) else None
        mine = f"it chose {own}" if own else "it chose no power"
        table = self.ruleset.modifiers
        others = [f"seat {other} {name}" for other, name in enumerate(chosen) if name]
        words = [mine]
        if table:
            words.append(f"every seat has {', '.join(table)}")
        if others:
            words.append(f"the powers chosen: {', '.join(others)}")
        return "; ".join(words)

    def _swap_candidates(self, seat: int) -> list[Event]:
        """Every swap the seat might make now, unchecked (:meth:`legal_actions` checks them)."""
        if not self.swap_powers or not self.swap_powers[seat] or self.phase is not Phase.ACT:
            return []
        return [
            Swap(seat, tile, indicator)
            for tile in dict.fromkeys(self.seats[seat].tiles())
            for indicator in dict.fromkeys(self.dora_indicators)
        ]
