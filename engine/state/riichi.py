"""Riichi (the declaration and its acceptance, which pays the stick) and kan dora indicators.

The riichi discard itself is a discard (:mod:`engine.state.draw_discard`); the kans that make a
new dora indicator due are in :mod:`engine.state.calls`.
"""

from __future__ import annotations

from engine.events import AbortKind, DoraRevealed, RiichiAccepted, RiichiDeclared
from engine.state.results import Phase
from engine.state.wins import WinRules


class RiichiRules(WinRules):
    """Riichi and kan dora (a part of :class:`~engine.state.GameState`)."""

    # -- riichi and dora -------------------------------------------------------------------------

    def _check_riichi(self, event: RiichiDeclared) -> str | None:
        problem = self._own_turn(event.seat)
        if problem:
            return problem
        data = self.seats[event.seat]
        ruleset = self.ruleset
        if data.riichi:
            return f"seat {event.seat} is already in riichi"
        if data.open:
            return "riichi needs a closed hand"
        minimum = ruleset.riichi_min_points
        if ruleset.riichi_deposit and minimum is not None and self.scores[event.seat] < minimum:
            return f"riichi needs {minimum} points; seat {event.seat} has {self.scores[event.seat]}"
        if ruleset.riichi_needs_draw and self.tiles_left < self.players:
            return f"riichi needs another draw; {self.tiles_left} tiles are left in the wall"
        if not self._tenpai_after_discard(event.seat):
            return f"seat {event.seat} is not tenpai and cannot declare riichi"
        return None

    def _riichi(self, event: RiichiDeclared) -> None:
        data = self.seats[event.seat]
        data.riichi = True
        data.double_riichi = self.first_turn and data.draws == 1
        data.riichi_turn = data.draws
        data.riichi_order = sum(other.riichi for other in self.seats) - 1
        self.phase = Phase.RIICHI

    def _check_riichi_accepted(self, event: RiichiAccepted) -> str | None:
        if self.pending_riichi is None:
            return "no riichi discard is waiting to be accepted"
        if event.seat != self.pending_riichi:
            return f"the riichi waiting is seat {self.pending_riichi}'s, not seat {event.seat}'s"
        if self.phase is not Phase.CLAIM:
            return f"not now ({self._phase_words()})"
        return None

    def _riichi_accepted(self, event: RiichiAccepted) -> None:
        data = self.seats[event.seat]
        data.riichi_accepted = True
        data.ippatsu = self.ruleset.ippatsu
        if self.ruleset.riichi_deposit:
            self.scores[event.seat] -= 1000
            self.sticks += 1
        self.pending_riichi = None
        self.riichi_count += 1
        if self.riichi_count == 4 and self.players == 4 and self.ruleset.suucha_riichi:
            self.forced_abort = AbortKind.FOUR_RIICHI

    def _check_dora(self, event: DoraRevealed) -> str | None:
        if not self.dora_due:
            return "no kan dora indicator is due now"
        wall = self.wall
        if wall is not None and self.dora_wall_index < len(wall.dora_indicators):
            expected = wall.dora_indicators[self.dora_wall_index]
            if expected != event.indicator:
                return f"the next dora indicator is {expected}, not {event.indicator}"
        problem = self._tile_problem(event.indicator)
        if problem:
            return f"dora indicator: {problem}"
        return None

    def _dora(self, event: DoraRevealed) -> None:
        self._count(event.indicator)
        self.dora_indicators.append(event.indicator)
        self.dora_wall_index += 1
        self.dora_due -= 1
