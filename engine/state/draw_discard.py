"""Draws and discards: the general check and applier of the two events most of a hand is made of.

:meth:`~engine.state.GameState.push` takes the common draw and discard by its fast paths first;
the methods here word every refusal and handle what the fast paths leave out: replacement draws,
draws after a kan or a robbing chance, riichi discards, swap calls and the first go-around
(including the four-winds abortive draw).
"""

from __future__ import annotations

from engine.events import AbortKind, Discard, Draw
from engine.state.base import WIND_SET
from engine.state.calls import CallRules
from engine.state.results import Phase
from engine.tiles import Tile


class DrawDiscardRules(CallRules):
    """Draws and discards (a part of :class:`~engine.state.GameState`)."""

    # -- draw ------------------------------------------------------------------------------------

    def _check_draw(self, event: Draw) -> str | None:
        if self.phase is Phase.CLAIM:
            problem = self._claim_passes()
            if problem:
                return problem
            expected = (self.last_discarder + 1) % self.players
            if event.seat != expected and not (
                # A rule modifier's redraw: the discarder draws again (engine.state.powers).
                event.seat == self.last_discarder
                and self.redraw_powers
                and self._redraw_power(event.seat) is not None
            ):
                if event.seat == self.last_discarder and self.redraw_powers:
                    why = self._no_redraw(event.seat)
                    return f"seat {expected} draws next, not seat {event.seat}: {why}"
                return f"seat {expected} draws next, not seat {event.seat}"
        elif self.phase is Phase.ROB:
            if self.dora_due and self.rob_kind == "closed_kan":
                return "the closed kan's dora indicator is revealed before the replacement draw"
            if self.dora_due and self.rob_kind == "north":
                return "the kan dora indicator is revealed before the replacement draw"
            if event.seat != self.turn:
                return f"seat {self.turn} takes the replacement draw, not seat {event.seat}"
        elif self.phase is Phase.DRAW:
            if self.dora_due:
                return "the kan dora indicator is revealed before the replacement draw"
            if event.seat != self.turn:
                return f"seat {self.turn} draws next, not seat {event.seat}"
        else:
            return f"no draw now ({self._phase_words()})"
        if self.tiles_left <= 0:
            return "the wall is exhausted"
        replacement = self.phase is not Phase.CLAIM and self.replacement
        expected_tile = self._expected_draw() if replacement == self.replacement else None
        if expected_tile is not None and expected_tile != event.tile:
            return f"the wall gives {expected_tile}, the record draws {event.tile}"
        problem = self._tile_problem(event.tile)
        if problem:
            return f"seat {event.seat} draws {problem}"
        return None

    def _claim_passes(self) -> str | None:
        """Why the claim on the last discard cannot simply pass now."""
        if self.pending_riichi is not None:
            return f"seat {self.pending_riichi}'s riichi is accepted first"
        if self.forced_abort is not None:
            return f"the hand ends in an abortive draw ({self.forced_abort.value})"
        if self.dora_due:
            return "a new kan dora indicator is due first"
        return None

    def _draw(self, event: Draw) -> None:
        seat = event.seat
        if self.phase is Phase.CLAIM:
            assert self.last_discard is not None
            self._pass_claims(self.last_discard, self.last_discarder)
            self.replacement = False
            if seat == self.last_discarder:
                self._redrawn(seat)
        elif self.phase is Phase.ROB:
            assert self.rob_tile is not None
            # A closed kan makes nobody furiten: only thirteen orphans may rob it, and a
            # thirteen orphans waiting on its kind has no copy left to ron later anyway. Every
            # other hand waiting on it keeps its other waits (a real Tenhou riichi on 1m-4m rons
            # 1m after another player's closed kan of 4m). An extracted North let pass makes
            # furiten only where the rules say (``kita_pass_furiten``; not in the mini-game).
            if self.rob_kind != "closed_kan" and (
                self.rob_kind != "north" or self.ruleset.kita_pass_furiten
            ):
                self._pass_claims(self.rob_tile, self.turn)
            if self.rob_kind == "added_kan" or (
                self.rob_kind == "north" and self.ruleset.kita_breaks_first_turn
            ):
                self._break_first_turn()
            self.rob_kind = ""
        data = self.seats[seat]
        tile = event.tile
        self.seen[tile.kind] += 1
        if tile.red:
            self.seen_red[tile.kind // 9] += 1
        if self.wall is not None:
            if self.replacement:
                self.replacement_index += 1
            else:
                self.live_index += 1
        if not data.riichi:
            # Its temporary furiten ends with this draw: the passes need no settling.
            data.passed = 0
        data.add(event.tile)
        data.draws += 1
        if not data.riichi:
            data.temporary_furiten = False
        self.tiles_left -= 1
        self.rinshan = self.replacement
        self.replacement = False
        self.last_draw = event.tile
        self.turn = seat
        self.phase = Phase.ACT
        data.forbidden = frozenset()
        if self.dora_after_draw:
            self.dora_due += self.dora_after_draw
            self.dora_after_draw = 0

    # -- discard ---------------------------------------------------------------------------------

    def _check_discard(self, event: Discard) -> str | None:
        if self.phase is not Phase.ACT and self.phase is not Phase.RIICHI:
            return f"no discard now ({self._phase_words()})"
        if event.seat != self.turn:
            return f"seat {self.turn} is to play, not seat {event.seat}"
        problem = self._dora_blocks()
        if problem:
            return problem
        data = self.seats[event.seat]
        tile = event.tile
        if not data.holds(tile):
            return f"seat {event.seat} discards {tile}, which they do not hold"
        if event.tsumogiri and (self.last_draw is None or self.last_draw != tile):
            return f"{tile} is marked as the tile just drawn, but it is not"
        if data.riichi and self.phase is Phase.ACT and tile != self.last_draw:
            return (
                f"seat {event.seat} is in riichi and must discard the drawn tile "
                f"{self.last_draw}, not {tile}"
            )
        if tile.kind in data.forbidden and not self.ruleset.kuikae:
            return f"discarding {tile} right after that call is a swap call (kuikae)"
        if self.phase is Phase.RIICHI and not self._tenpai_without(event.seat, tile):
            return f"the riichi discard {tile} does not leave seat {event.seat} tenpai"
        return None

    def _first_discard(self, tile: Tile) -> None:
        """A discard of the first go-around (``discards_made`` counts it): four of the same
        wind abort the hand, and the last seat's discard ends the go-around."""
        if self.discards_made > self.players:
            return
        self.first_discards.append(tile)
        if (
            self.discards_made == 4
            and self.players == 4
            and self.ruleset.suufon_renda
            and tile.kind in WIND_SET
            and all(first.kind == tile.kind for first in self.first_discards)
        ):
            self.forced_abort = AbortKind.FOUR_WINDS
        if self.discards_made == self.players:  # every seat has had its first turn
            self.first_turn = False

    def _tenpai_without(self, seat: int, tile: Tile) -> bool:
        """Whether the seat's hand is tenpai once ``tile`` leaves it (a riichi discard)."""
        data = self.seats[seat]
        data.remove(tile)
        tenpai = self._near(seat)
        data.add(tile)
        return tenpai

    def _discard(self, event: Discard) -> None:
        seat = event.seat
        data = self.seats[seat]
        tile = event.tile
        if not data.riichi:
            # Temporary furiten lasts until the seat's own next discard (riichi.wiki "Furiten";
            # Mortal's libriichi clears it there, "Clearing same-cycle furiten"): a draw ends
            # it before, but a call's discard has no draw before it.
            data.passed = 0
            data.temporary_furiten = False
        data.remove(tile)
        data.river.append(tile)
        data.river_called.append(False)
        data.forbidden = frozenset()
        if self.phase is Phase.RIICHI:
            data.riichi_discard = len(data.river) - 1
            data.riichi_waits = len(self.waits(seat))
            self.pending_riichi = seat
        elif data.ippatsu:
            data.ippatsu = False
        self.last_discard = tile
        self.last_discarder = seat
        self.last_draw = None
        self.rinshan = False
        self.phase = Phase.CLAIM
        self.discards_made += 1
        if self.first_turn:
            self._first_discard(tile)
        if self.four_kans_next:
            self.four_kans_next = False
            self.forced_abort = AbortKind.FOUR_KANS
        if self.dora_after_discard:
            self.dora_due += self.dora_after_discard
            self.dora_after_discard = 0
