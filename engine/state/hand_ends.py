"""Hands that end without a win, and score changes outside the hands' play.

The exhaustive draw (with noten payments), nagashi mangan, the abortive draws (nine terminals,
triple ron, and those forced by four winds, four riichi or four kans) and a record's score
changes: their checks, appliers and the seats they concern (tenpai, nagashi).
"""

from __future__ import annotations

from engine.events import AbortiveDraw, AbortKind, ExhaustiveDraw, NagashiMangan, ScoreChange
from engine.scoring.payments import tsumo_payments
from engine.state.base import YAOCHUU_SET
from engine.state.legal import LegalActionRules
from engine.state.results import HandResult, Phase

_MANGAN_BASE = 2000


class HandEndRules(LegalActionRules):
    """Hand ends without a win (a part of :class:`~engine.state.GameState`)."""

    # -- hand ends without a win -----------------------------------------------------------------

    def _wall_end_problem(self) -> str | None:
        if self.phase is not Phase.CLAIM:
            return f"the hand cannot end in a draw now ({self._phase_words()})"
        if self.tiles_left > 0:
            return f"{self.tiles_left} tiles are left in the wall"
        if self.pending_riichi is not None:
            return f"seat {self.pending_riichi}'s riichi is accepted first"
        return None

    def tenpai_seats(self) -> tuple[int, ...]:
        """Seats whose hand is tenpai now."""
        return tuple(seat for seat in range(self.players) if self.waits(seat))

    def nagashi_seats(self) -> tuple[int, ...]:
        """Seats whose discards are all terminals and honours with none called away."""
        if not self.ruleset.nagashi_mangan:
            return ()
        return tuple(
            seat
            for seat, data in enumerate(self.seats)
            if data.river
            and not any(data.river_called)
            and all(tile.kind in YAOCHUU_SET for tile in data.river)
        )

    def _check_exhaustive(self, event: ExhaustiveDraw) -> str | None:
        problem = self._wall_end_problem()
        if problem:
            return problem
        nagashi = self.nagashi_seats()
        if nagashi:
            return f"nagashi mangan for seat(s) {', '.join(map(str, nagashi))}"
        return None

    def _noten_deltas(self, tenpai: tuple[int, ...]) -> list[int]:
        players = self.players
        deltas = [0] * players
        if 0 < len(tenpai) < players:
            total = self.ruleset.noten_payment_total
            gain = total // len(tenpai)
            loss = total // (players - len(tenpai))
            for seat in range(players):
                deltas[seat] = gain if seat in tenpai else -loss
        return deltas

    def _exhaustive(self, event: ExhaustiveDraw) -> None:
        tenpai = self.tenpai_seats()
        self.result = HandResult(
            "exhaustive_draw", deltas=self._noten_deltas(tenpai), tenpai=tenpai
        )
        self.phase = Phase.OVER

    def _check_nagashi(self, event: NagashiMangan) -> str | None:
        problem = self._wall_end_problem()
        if problem:
            return problem
        nagashi = self.nagashi_seats()
        if tuple(sorted(event.seats)) != nagashi:
            have = ", ".join(map(str, nagashi)) or "nobody"
            return f"nagashi mangan is for {have}, not seat(s) {', '.join(map(str, event.seats))}"
        return None

    def _nagashi(self, event: NagashiMangan) -> None:
        deltas = [0] * self.players
        for seat in self.nagashi_seats():
            dealer = seat == self.dealer
            from_dealer, from_other = tsumo_payments(_MANGAN_BASE, dealer, self.ruleset)
            for payer in range(self.players):
                if payer == seat:
                    continue
                amount = from_dealer if payer == self.dealer else from_other
                deltas[payer] -= amount
                deltas[seat] += amount
        self.result = HandResult(
            "nagashi_mangan", deltas=deltas, tenpai=self.tenpai_seats(), nagashi=event.seats
        )
        self.phase = Phase.OVER

    def _check_abort(self, event: AbortiveDraw) -> str | None:
        kind = event.kind
        ruleset = self.ruleset
        if kind is AbortKind.NINE_TERMINALS:
            if not ruleset.kyuushu_kyuuhai:
                return f"nine terminals is not an abortive draw in {ruleset.name}"
            seat = self.turn if event.seat is None else event.seat
            problem = self._own_turn(seat)
            if problem:
                return problem
            data = self.seats[seat]
            if not (self.first_turn and data.draws == 1):
                return "nine terminals can only be declared on an uninterrupted first draw"
            distinct = sum(1 for kind_ in YAOCHUU_SET if data.counts[kind_])
            if distinct < 9:
                return f"seat {seat} holds {distinct} kinds of terminals and honours, not 9"
            return None
        if kind is AbortKind.TRIPLE_RON:
            if not ruleset.sanchahou:
                return f"a triple ron is not an abortive draw in {ruleset.name}"
            if self.phase is not Phase.CLAIM and self.phase is not Phase.ROB:
                return f"no triple ron now ({self._phase_words()})"
            tile = self.last_discard if self.phase is Phase.CLAIM else self.rob_tile
            discarder = self.last_discarder if self.phase is Phase.CLAIM else self.turn
            assert tile is not None
            can_ron = [
                seat
                for seat in range(self.players)
                if seat != discarder and tile.kind in self.waits(seat) and not self.furiten(seat)
            ]
            if len(can_ron) < 3:
                return f"only {len(can_ron)} player(s) can ron {tile}; a triple ron needs 3"
            return None
        if self.forced_abort is not kind:
            return f"no {kind.value.replace('_', ' ')} abortive draw now"
        if self.phase is not Phase.CLAIM:
            return f"not now ({self._phase_words()})"
        if kind is not AbortKind.FOUR_RIICHI and self.pending_riichi is not None:
            return f"seat {self.pending_riichi}'s riichi is accepted first"
        return None

    def _abort(self, event: AbortiveDraw) -> None:
        if event.kind is AbortKind.TRIPLE_RON and self.pending_riichi is not None:
            self.pending_riichi = None
        self.result = HandResult("abortive_draw", deltas=[0] * self.players, abort=event.kind)
        self.phase = Phase.OVER

    def _check_score_change(self, event: ScoreChange) -> str | None:
        if len(event.deltas) != self.players:
            return (
                f"a score change has one delta per seat ({self.players}), not {len(event.deltas)}"
            )
        return None

    def _score_change(self, event: ScoreChange) -> None:
        for seat, delta in enumerate(event.deltas):
            self.scores[seat] += delta
