"""Calls on a discard (chi, pon, open kan), and kans and kita on one's own turn.

They belong together: each takes tiles from the concealed hand into a meld (or the kita pile),
and they share the meld bookkeeping, the swap-call (kuikae) limit, liability (pao) and what a kan
sets off (the replacement draw, kan dora, four kans) and what it allows (robbing).
"""

from __future__ import annotations

from engine.events import AddedKan, Chi, ClosedKan, NorthExtraction, OpenKan, Pon
from engine.hand.melds import Meld, MeldType
from engine.rules.ruleset import KanDoraTiming
from engine.state.base import DRAGON_SET, WIND_SET
from engine.state.results import Phase
from engine.state.riichi import RiichiRules
from engine.state.seat import can_hold
from engine.tiles import NORTH, Tile


class CallRules(RiichiRules):
    """Calls, kans and kita (a part of :class:`~engine.state.GameState`)."""

    # -- calls -----------------------------------------------------------------------------------

    def _check_call(self, event: Chi | Pon | OpenKan) -> str | None:
        if self.phase is not Phase.CLAIM:
            return f"no call now ({self._phase_words()})"
        problem = self._claim_passes()
        if problem:
            return problem
        seat, tile = event.seat, event.tile
        discarder = self.last_discarder
        if seat == discarder:
            return "a player cannot call their own discard"
        if event.from_seat != discarder:
            return f"the last discard is seat {discarder}'s, not seat {event.from_seat}'s"
        last = self.last_discard
        if tile is not last and tile != last:  # (``is``: a shortcut, tiles are shared)
            return f"the last discard is {self.last_discard}, not {tile}"
        if self.tiles_left <= 0:
            return "the last discard of the hand cannot be called, only ronned"
        data = self.seats[seat]
        consumed = event.consumed
        kind = tile.kind
        # A rule modifier may allow a call the rule set does not, or forbid one (state.powers).
        power = self._call_power(seat, discarder, event.type) if self.call_powers else None
        if power is not None and not power[1]:
            return f"rule modifier {power[0]} does not allow seat {seat} this {event.type} now"
        if isinstance(event, Chi) and power is None:
            if not self.ruleset.chi:
                return f"chi is not allowed in {self.ruleset.name}"
            if seat != (discarder + 1) % self.players:
                return "chi is only allowed on the discard of the player to the left"
        if data.riichi:
            return f"seat {seat} is in riichi and cannot call"
        if not can_hold(data, consumed):
            return f"seat {seat} does not hold {' '.join(map(str, consumed))}"
        if isinstance(event, Chi):
            # A run of the rule set's shapes (space mahjong: wrap-around and honour runs too).
            if (
                len(consumed) != 2
                or self.shapes.run_start((kind, *(t.kind for t in consumed))) is None
            ):
                return f"{tile} with {' '.join(map(str, consumed))} is not a run"
        elif isinstance(event, Pon):
            if len(consumed) != 2 or any(t.kind != kind for t in consumed):
                return f"a pon of {tile} needs two more {tile.name}"
        else:
            if len(consumed) != 3 or any(t.kind != kind for t in consumed):
                return f"an open kan of {tile} needs three more {tile.name}"
            problem = self._kan_allowed(seat)
            if problem:
                return problem
        if not isinstance(event, OpenKan) and not self.ruleset.kuikae:
            forbidden = self._swap_kinds(event)
            remaining = list(data.counts)
            for t in consumed:
                remaining[t.kind] -= 1
            # No count is negative (the seat holds what the call takes), so no kind outside
            # ``forbidden`` has a tile left exactly when the forbidden kinds hold them all.
            if sum(remaining) == sum(remaining[k] for k in forbidden):
                return "after this call every tile left would be a swap call (kuikae)"
        return None

    def _call_by_rules(self, event: Chi | Pon | OpenKan) -> bool:
        """Whether the rule set alone allows who makes this call (a chi: the rule set has chi,
        from the player to the left; a pon or open kan: always)."""
        if not isinstance(event, Chi):
            return True
        return self.ruleset.chi and event.seat == (event.from_seat + 1) % self.players

    def _swap_kinds(self, event: Chi | Pon) -> frozenset[int]:
        """Kinds the caller may not discard right after the call (kuikae): the called kind,
        and after a chi on an end of the run the kind beyond its other end."""
        kind = event.tile.kind
        if isinstance(event, Pon) or self.ruleset.kuikae_suji:
            return frozenset((kind,))
        start = self.shapes.run_start((kind, *(t.kind for t in event.consumed)))
        assert start is not None  # (checked: the chi is a run)
        return self.shapes.swap_kinds(start, kind)

    def _call(self, event: Chi | Pon | OpenKan) -> None:
        seat = event.seat
        discarder = event.from_seat
        assert self.last_discard is not None
        if self.call_powers:
            power = self._call_power(seat, discarder, event.type)
            if power is not None and not self._call_by_rules(event):
                self._use_power(seat, power[0])  # a call only the power allows
        self._pass_claims(self.last_discard, discarder)
        data = self.seats[seat]
        for tile in event.consumed:
            data.remove(tile)
        river = self.seats[discarder]
        river.river_called[-1] = True
        meld_type = (
            MeldType.CHI
            if isinstance(event, Chi)
            else MeldType.PON
            if isinstance(event, Pon)
            else MeldType.MINKAN
        )
        meld = Meld(meld_type, (event.tile, *event.consumed), self.shapes)
        data.melds.append(meld)
        data.note_meld(meld)
        data.meld_sources.append(discarder)
        self._break_first_turn()
        self._check_liability(seat, discarder, event.tile.kind)
        self.turn = seat
        self.last_draw = None
        if isinstance(event, OpenKan):
            self._after_kan(seat, open_kan=True)
            self.phase = Phase.DRAW
        else:
            self.phase = Phase.ACT
            data.forbidden = self._swap_kinds(event)

    def _check_liability(self, seat: int, discarder: int, kind: int) -> None:
        """A call that completes the third dragon set or the fourth wind set makes the
        discarder liable (pao) for the yakuman, where the rules have it."""
        data = self.seats[seat]
        pao = self.ruleset.pao
        sets = {meld.kind for meld in data.melds if meld.type is not MeldType.CHI}
        if (
            (kind in DRAGON_SET and "daisangen" in pao and sets >= DRAGON_SET)
            or (kind in WIND_SET and "daisuushii" in pao and sets >= WIND_SET)
            or ("suukantsu" in pao and sum(meld.is_kan for meld in data.melds) == 4)
        ):
            data.liable = discarder

    def _after_kan(self, seat: int, *, open_kan: bool) -> None:
        self.kans += 1
        self.kan_seats.add(seat)
        ruleset = self.ruleset
        # An earlier kan's indicator still waiting for its player's discard (Mahjong Soul) is
        # turned when another kan is declared instead of that discard, before this kan's own:
        # as a North extraction does (_north below; docs/rules.md, "open_kan_dora_timing").
        if self.dora_after_discard:
            self.dora_due += self.dora_after_discard
            self.dora_after_discard = 0
        if ruleset.kan_dora:
            timing = ruleset.open_kan_dora_timing if open_kan else ruleset.closed_kan_dora_timing
            if timing is KanDoraTiming.IMMEDIATE:
                self.dora_due += 1
            elif timing is KanDoraTiming.AFTER_REPLACEMENT:
                self.dora_after_draw += 1
            else:
                self.dora_after_discard += 1
        self.replacement = True
        if self.kans == 4 and len(self.kan_seats) > 1 and ruleset.suukaikan:
            self.four_kans_next = True

    # -- kans and kita on one's own turn ---------------------------------------------------------

    def _own_turn(self, seat: int) -> str | None:
        if self.phase is not Phase.ACT:
            return f"not now ({self._phase_words()})"
        if seat != self.turn:
            return f"seat {self.turn} is to play, not seat {seat}"
        if self.last_draw is None:
            return "only after a draw, not right after a call"
        # A kan dora still due from an earlier open kan does not block another kan: Tenhou turns
        # it over right after the next kan is declared.
        return None

    def _riichi_waits_kept(self, seat: int, removed: list[Tile], kan: bool = False) -> bool:
        """In riichi, a closed kan (or kita) must use the drawn tile and keep the waits.

        A closed kan takes the last copies of its kind out of play: a kind the hand waited on
        is no wait after it (the hand can never win on it), so a kan of a waited kind changes
        the waits (Tenhou: Mortal's libriichi, ``check_ankan_after_riichi``, "Cannot kan a
        waited tile"; Mahjong Soul allows the kan only where the waits stay the same)."""
        data = self.seats[seat]
        drawn = self.last_draw
        if drawn is None or all(tile.kind != drawn.kind for tile in removed):
            return False
        data.remove(drawn)
        before = self.waits(seat)
        data.add(drawn)
        for tile in removed:
            data.remove(tile)
        after = self.waits(seat) if sum(data.counts) % 3 == 1 else frozenset()
        for tile in removed:
            data.add(tile)
        if kan:
            after = after - {drawn.kind}
        return bool(before) and before == after

    def _check_closed_kan(self, event: ClosedKan) -> str | None:
        problem = self._own_turn(event.seat) or self._kan_allowed(event.seat)
        if problem:
            return problem
        tiles = event.tiles
        if len(tiles) != 4 or any(tile.kind != tiles[0].kind for tile in tiles):
            return f"a closed kan is four tiles of one kind, not {' '.join(map(str, tiles))}"
        data = self.seats[event.seat]
        if not can_hold(data, tiles):
            return f"seat {event.seat} does not hold {' '.join(map(str, tiles))}"
        if data.riichi and not self._riichi_waits_kept(event.seat, list(tiles), kan=True):
            return "in riichi a closed kan must use the drawn tile and keep the waits"
        return None

    def _closed_kan(self, event: ClosedKan) -> None:
        seat = event.seat
        data = self.seats[seat]
        for tile in event.tiles:
            data.remove(tile)
        meld = Meld(MeldType.ANKAN, event.tiles)
        data.melds.append(meld)
        data.note_meld(meld)
        data.meld_sources.append(None)
        self._break_first_turn()
        self._after_kan(seat, open_kan=False)
        self.rob_tile = event.tiles[0]
        self.rob_kind = "closed_kan"
        self.last_draw = None
        self.phase = Phase.ROB

    def _check_added_kan(self, event: AddedKan) -> str | None:
        problem = self._own_turn(event.seat) or self._kan_allowed(event.seat)
        if problem:
            return problem
        data = self.seats[event.seat]
        if not data.holds(event.tile):
            return f"seat {event.seat} does not hold {event.tile}"
        kind = event.tile.kind
        if not any(m.type is MeldType.PON and m.kind == kind for m in data.melds):
            return f"seat {event.seat} has no pon of {event.tile.name} to add to"
        return None

    def _added_kan(self, event: AddedKan) -> None:
        seat = event.seat
        data = self.seats[seat]
        data.remove(event.tile)
        for index, meld in enumerate(data.melds):
            if meld.type is MeldType.PON and meld.kind == event.tile.kind:
                data.melds[index] = Meld(MeldType.KAKAN, (*meld.tiles, event.tile))
                break
        self._after_kan(seat, open_kan=True)
        self.rob_tile = event.tile
        self.rob_kind = "added_kan"
        self.last_draw = None
        self.phase = Phase.ROB

    def _check_north(self, event: NorthExtraction) -> str | None:
        if not self.ruleset.kita:
            return f"north extraction is not part of {self.ruleset.name}"
        problem = self._own_turn(event.seat)
        if problem:
            return problem
        if event.tile.kind != NORTH:
            return f"only a North can be extracted, not {event.tile}"
        data = self.seats[event.seat]
        if not data.holds(event.tile):
            return f"seat {event.seat} holds no North"
        if self.tiles_left <= 0:
            return "no north extraction after the last tile of the wall"
        if data.riichi and not self._riichi_waits_kept(event.seat, [event.tile]):
            return "in riichi a North can be extracted only if the waits stay the same"
        return None

    def _north(self, event: NorthExtraction) -> None:
        seat = event.seat
        data = self.seats[seat]
        data.remove(event.tile)
        data.kita += 1
        # Where an extraction breaks the first go-around and ippatsu, it does so as an added
        # kan does: once nobody robs it (at the replacement draw), so a ron on the North itself
        # keeps the ronner's ippatsu.
        self.replacement = True
        self.last_draw = None
        self.rob_tile = event.tile
        self.rob_kind = "north"
        self.phase = Phase.ROB
        # An open kan's indicator due after the kanner's discard (Mahjong Soul) is turned by an
        # extraction made instead of that discard, before anyone may ron the North or the
        # replacement is drawn: the extraction takes a discard's place (jansou's game flow and
        # RiichiEnv's Mahjong Soul sanma both do so; docs/rules.md, "Mahjong Soul").
        if self.dora_after_discard:
            self.dora_due += self.dora_after_discard
            self.dora_after_discard = 0
