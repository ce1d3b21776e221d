"""``legal_actions``: every event legal now, for the self-play bots, and its candidate generators.

Candidates are generated from the seats' tiles and the wall, then checked (the discards are
generated legal, being most of a turn's options).
"""

from __future__ import annotations

from engine.events import (
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Win,
)
from engine.hand.melds import MeldType
from engine.state.powers import PowerRules
from engine.state.results import Phase
from engine.state.seat import PLAIN_TILES, tile_copies
from engine.tiles import NORTH, Tile


class LegalActionRules(PowerRules):
    """The legal events now (a part of :class:`~engine.state.GameState`)."""

    def legal_actions(self) -> list[Event]:
        """Every event legal now, for every seat that may act (bots choose among them).

        After a discard this lists each seat's rons and calls and the one event that follows
        when nobody claims (the next draw, the riichi acceptance, a forced abortive draw or the
        end of the wall); the caller resolves competing claims (ron over pon and kan over chi).
        Draws and new dora indicators need the round's wall.
        """
        candidates: list[Event] = []
        phase = self.phase
        wall_tile = self._expected_draw()
        if self.dora_due and self.wall is not None:
            index = self.dora_wall_index
            if index < len(self.wall.dora_indicators):
                candidates.append(DoraRevealed(self.wall.dora_indicators[index]))
        if phase is Phase.DRAW or phase is Phase.ROB:
            if wall_tile is not None:
                candidates.append(Draw(self.turn, wall_tile))
            if phase is Phase.ROB:
                candidates.extend(self._ron_candidates(self.rob_tile, self.turn))
        elif phase is Phase.ACT or phase is Phase.RIICHI:
            # The discards are generated legal (most of a turn's options; checking each one
            # again would double self-play's cost); the rest are checked below.
            legal = [event for event in candidates if self.why_illegal(event) is None]
            return (
                legal
                + self._legal_discards()
                + [event for event in self._turn_options() if self.why_illegal(event) is None]
            )
        elif phase is Phase.CLAIM:
            tile, discarder = self.last_discard, self.last_discarder
            candidates.extend(self._ron_candidates(tile, discarder))
            candidates.extend(self._call_candidates())
            nxt = (discarder + 1) % self.players
            if self.pending_riichi is not None:
                candidates.append(RiichiAccepted(self.pending_riichi))
            if self.forced_abort is not None:
                candidates.append(AbortiveDraw(self.forced_abort))
            if self.tiles_left <= 0:
                candidates.append(ExhaustiveDraw())
                nagashi = self.nagashi_seats()
                if nagashi:
                    candidates.append(NagashiMangan(nagashi))
            elif self.wall is not None and self.live_index < len(self.wall.live):
                candidates.append(Draw(nxt, self.wall.live[self.live_index]))
                # A rule modifier's redraw: the discarder draws again, where its powers have one.
                if self.redraw_powers and self.redraw_powers[discarder]:
                    candidates.append(Draw(discarder, self.wall.live[self.live_index]))
            if self.ruleset.sanchahou:
                candidates.append(AbortiveDraw(AbortKind.TRIPLE_RON, discarder))
        elif phase is Phase.WON:
            first = self.win_events[0]
            candidates.extend(self._ron_candidates(first.tile, first.from_seat))
        return [event for event in candidates if self.why_illegal(event) is None]

    def _ron_candidates(self, tile: Tile | None, source: int) -> list[Event]:
        if tile is None:
            return []
        needs_riichi = self.ruleset.ron_needs_riichi
        return [
            Win(seat, source, tile)
            for seat in range(self.players)
            if seat != source
            and tile.kind in self.waits(seat)
            and (self.seats[seat].riichi or not needs_riichi)
        ]

    def _call_candidates(self) -> list[Event]:
        tile = self.last_discard
        discarder = self.last_discarder
        if tile is None or self.tiles_left <= 0 or not self.ruleset.calls:
            return []
        out: list[Event] = []
        kind = tile.kind
        for seat in range(self.players):
            if seat == discarder:
                continue
            data = self.seats[seat]
            if data.riichi or data.counts[kind] < 2:
                pass
            else:
                same = tile_copies(data, kind)
                out.append(Pon(seat, discarder, tile, tuple(same[:2])))
                if len(same) >= 3:
                    out.append(OpenKan(seat, discarder, tile, tuple(same[:3])))
            # (Where a seat's rule modifier may allow more chi, its are all candidates: checked.)
            call_power = bool(self.call_powers and self.call_powers[seat])
            chi_seat = call_power or seat == (discarder + 1) % self.players
            if (self.ruleset.chi or call_power) and chi_seat and not data.riichi:
                # Each run of the rule set's shapes holding the tile (space mahjong: wrap-around
                # and honour runs too), lowest start first.
                for start in self.shapes.runs_with[kind]:
                    run = self.shapes.run_kinds[start]
                    assert run is not None
                    others = [k for k in run if k != kind]
                    if all(data.counts[k] for k in others):
                        consumed = tuple(tile_copies(data, k)[0] for k in others)
                        out.append(Chi(seat, discarder, tile, consumed))
        return out

    def _legal_discards(self) -> list[Event]:
        """Every discard :meth:`_check_discard` allows now, generated rather than filtered."""
        seat = self.turn
        data = self.seats[seat]
        drawn = self.last_draw
        if self.dora_due:
            return []
        if data.riichi and self.phase is Phase.ACT:
            return [] if drawn is None else [Discard(seat, drawn, tsumogiri=True)]
        forbidden = frozenset() if self.ruleset.kuikae else data.forbidden
        declaring = self.phase is Phase.RIICHI
        return [
            Discard(seat, tile, tsumogiri=tile == drawn)
            for tile in dict.fromkeys(data.tiles())
            if tile.kind not in forbidden and (not declaring or self._tenpai_without(seat, tile))
        ]

    def _turn_options(self) -> list[Event]:
        """The candidate actions of the player to move other than a discard (to be checked)."""
        seat = self.turn
        data = self.seats[seat]
        out: list[Event] = []
        drawn = self.last_draw
        if self.phase is Phase.RIICHI:
            return out
        if drawn is not None:
            if data.shanten() == -1:  # complete: worth asking the scorer about a yaku
                out.append(Win(seat, seat, drawn))
            out.append(RiichiDeclared(seat))
            out.append(AbortiveDraw(AbortKind.NINE_TERMINALS, seat))
            counts = data.counts
            if self.ruleset.kans:
                for kind in range(len(counts)):
                    if counts[kind] == 4:
                        out.append(ClosedKan(seat, tuple(tile_copies(data, kind))))
                for meld in data.melds:
                    if meld.type is MeldType.PON and counts[meld.kind]:
                        out.append(AddedKan(seat, tile_copies(data, meld.kind)[0]))
            if self.ruleset.kita and data.counts[NORTH]:
                out.append(NorthExtraction(seat, PLAIN_TILES[NORTH]))
            out.extend(self._swap_candidates(seat))
        return out
