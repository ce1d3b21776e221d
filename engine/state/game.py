"""The :class:`GameState` class: starting and ending hands, checking and applying events.

It tops the chain of the state machine's parts (one per concept, see :mod:`engine.state`) and
maps each event type to its check and its applier. :meth:`GameState.push` and
:meth:`GameState.push_events` (the replayer's loop) live here with the fast paths of the common
draw and discard (``_plain_draw``, ``_plain_discard``): plain methods that check and apply in one
pass, kept so for the replayer's speed, as is the deal of a hand in one sum per hand
(``_deal_at_once``) when no tile breaks a limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from engine.errors import IllegalActionError
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
    Round,
    ScoreChange,
    Swap,
    Wall,
    Win,
)
from engine.game_flow import HandOutcome, RoundPosition, next_position
from engine.rules.ruleset import Ruleset
from engine.state.draw_discard import DrawDiscardRules
from engine.state.results import PHASE_ACT, PHASE_CLAIM, HandResult, Phase
from engine.state.seat import SeatState
from engine.tiles import (
    EAST,
    FOREIGN_SHIFT,
    KINDS,
    PACKED_BYTES,
    RED_BYTE,
    SANMA_MISSING,
    Tile,
)

#: No kinds: what ``forbidden`` holds when no swap call is pending (``frozenset()`` is equal, and
#: empty sets are all alike, but a constant costs no call).
_NO_KINDS: frozenset[int] = frozenset()
#: The kind bytes of packed counts (the red-five bytes above them left out).
_KIND_BYTES = (1 << 8 * KINDS) - 1


# The parts form one chain of single inheritance (DrawDiscardRules over CallRules over ... over
# PowerRules over StateBase), not a list of mixins, because mypyc compiles no multiple inheritance
# (python -m engine.compile). The method resolution order is the one the list of mixins gave.
class GameState(DrawDiscardRules):
    """One game's state, hand by hand.

    Start each hand with :meth:`start_round`; feed it the hand's events with :meth:`apply`; read
    the outcome in :attr:`result` (:meth:`settle`) and close the hand with :meth:`end_round`,
    which returns the next hand's position (``None`` when the game is over). It is riichi's
    :class:`engine.table.Table`, which the shared replay and framer loops drive.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        first_dealer: int = 0,
        scores: list[int] | None = None,
    ) -> None:
        super().__init__(ruleset, first_dealer=first_dealer, scores=scores)
        # The class's tables of functions of (state, event), shared: a state holding its own
        # bound methods would be a reference cycle, freed only by the cycle collector, which
        # batch processes run rarely (engine.gc_settings): every replayed game stayed in memory
        # until then (issue 42). A rule set without calls or kans gets its own copy.
        self._checks = _CHECKS
        self._appliers = _APPLIERS
        # Rule sets without honours (small mahjong) use every number tile whatever the number of
        # players: "3 players" alone does not remove 2m-8m.
        self.three_player = ruleset.sanma
        # Calls and kans a rule set does not have at all are refused by one check each, put in
        # the dispatch table once, so the checks of the rule sets that have them stay as they are.
        if not ruleset.kans or not ruleset.calls:
            self._checks = dict(_CHECKS)
        if not ruleset.kans:
            for kan in (OpenKan, ClosedKan, AddedKan):
                self._checks[kan] = GameState._no_kans
        if not ruleset.calls:  # (after the kans: an open kan is refused as a call)
            for call in (Chi, Pon, OpenKan):
                self._checks[call] = GameState._no_calls

    def _no_calls(self, event: Chi | Pon | OpenKan) -> str:
        return f"there are no calls in {self.ruleset.name}: no chi, pon or open kan"

    def _no_kans(self, event: OpenKan | ClosedKan | AddedKan) -> str:
        return f"there are no kans in {self.ruleset.name}"

    def _tile_problem(self, tile: Tile) -> str | None:
        # Honours first: without them the deal marks the honour kinds as all seen (see
        # start_round), which the general check would word as a fifth copy.
        if tile.kind >= EAST and not self.ruleset.honors:
            return f"{tile} is an honour tile; {self.ruleset.name} has none"
        return super()._tile_problem(tile)

    # -- starting and ending hands ---------------------------------------------------------------

    def start_round(self, round_: Round) -> None:
        """Begin a hand as the record deals it (hands, indicators, counters, scores).

        :raises IllegalActionError: the deal is impossible (tile counts, hand sizes).
        """
        ruleset = self.ruleset
        players = self.players
        if len(round_.hands) != players:
            raise IllegalActionError(
                f"{players} hands are dealt, the record has {len(round_.hands)}"
            )
        self.position = RoundPosition(
            round_.wind, round_.number, round_.dealer, round_.honba, round_.sticks
        )
        self.dealer = round_.dealer
        self.round_wind = EAST + round_.wind
        self.scores = list(round_.scores)
        self.sticks = round_.sticks
        if not self._deal_at_once(round_):
            self._deal(round_)
        if not ruleset.honors:
            # The honour kinds count as all seen: every check of a tile coming into view (the
            # fast paths' included) then refuses them at no cost per tile; _tile_problem words it.
            self.seen[EAST:] = [4] * (KINDS - EAST)
        self.dora_indicators: list[Tile] = list(round_.dora_indicators)
        self.ura_indicators = round_.ura_indicators
        self.wall: Wall | None = round_.wall
        self.live_index = 0
        self.replacement_index = 0
        self.dora_wall_index = 1
        self.tiles_left = ruleset.live_wall
        self.turn = round_.dealer
        self.phase = Phase.DRAW
        self.replacement = False
        self.rinshan = False
        self.last_draw: Tile | None = None
        self.last_discard: Tile | None = None
        self.last_discarder = -1
        self.rob_tile: Tile | None = None
        self.rob_kind = ""
        #: The first ron robbed an added kan (so later rons on the tile are chankan too).
        self.rob_won = False
        self.first_turn = True
        self.discards_made = 0
        self.first_discards: list[Tile] = []
        self.kans = 0
        self.kan_seats: set[int] = set()
        self.dora_due = 0
        self.dora_after_draw = 0
        self.dora_after_discard = 0
        self.pending_riichi: int | None = None
        self.riichi_count = 0
        self.forced_abort: AbortKind | None = None
        self.four_kans_next = False
        self.result: HandResult | None = None
        self.win_events: list[Win] = []
        self.powers_used = [{} for _ in range(players)]

    def _deal(self, round_: Round) -> None:
        """Deal the hands and show the indicators tile by tile, refusing the first tile that
        breaks a limit (see :meth:`_tile_problem`)."""
        shapes = self.shapes
        self.seats = [SeatState([0] * KINDS, [0, 0, 0], shapes=shapes) for _ in range(self.players)]
        # Tiles seen in this hand (hands, indicators, draws), to refuse a fifth copy.
        self.seen = [0] * KINDS
        self.seen_red = [0, 0, 0]
        dealt = self.ruleset.dealt_tiles
        for index, hand in enumerate(round_.hands):
            if len(hand) != dealt:
                raise IllegalActionError(f"seat {index} is dealt {len(hand)} tiles, not {dealt}")
            for tile in hand:
                problem = self._see(tile)
                if problem:
                    raise IllegalActionError(f"seat {index}'s starting hand: {problem}")
                self.seats[index].add(tile)
        indicators = 1 if self.ruleset.dora else 0
        if len(round_.dora_indicators) != indicators:
            raise IllegalActionError(
                f"a hand starts with {indicators or 'no'} dora indicator(s) in "
                f"{self.ruleset.name}, the record has {len(round_.dora_indicators)}"
            )
        for tile in (*round_.dora_indicators, *round_.ura_indicators):
            problem = self._see(tile)
            if problem:
                raise IllegalActionError(f"dora indicators: {problem}")

    def _deal_at_once(self, round_: Round) -> bool:
        """:meth:`_deal` by sums of packed counts (:data:`engine.tiles.PACKED_BYTES`), when it
        would refuse nothing; ``False``, having changed nothing, when it might.

        The same state comes out: each seat's counts, red fives and key, and the tiles seen.
        The checks of :meth:`_tile_problem` compare counts that only grow (of a kind, of its red
        or plain fives) with a limit, so the tile-by-tile deal refuses nothing exactly when the
        final counts are within the limits, and no tile is foreign to the layout or the rule set.
        """
        ruleset = self.ruleset
        if len(round_.dora_indicators) != (1 if ruleset.dora else 0):
            return False
        dealt = ruleset.dealt_tiles
        packs = []
        total = 0
        for hand in round_.hands:
            if len(hand) != dealt:
                return False
            packed = 0
            for tile in hand:
                packed += tile.packed
            packs.append(packed)
            total += packed
        for tile in (*round_.dora_indicators, *round_.ura_indicators):
            total += tile.packed
        if total >> FOREIGN_SHIFT:  # a tile outside the standard layout
            return False
        seen = total.to_bytes(PACKED_BYTES, "little")
        if max(seen[:KINDS]) > 4:
            return False
        if self.three_player and any(seen[kind] for kind in SANMA_MISSING):
            return False
        if not ruleset.honors and any(seen[EAST:KINDS]):
            return False
        for suit, reds in enumerate(ruleset.red_fives):
            red = seen[RED_BYTE + suit]
            if red > reds or seen[9 * suit + 4] - red > 4 - reds:
                return False
        self.seen = list(seen[:KINDS])
        self.seen_red = list(seen[RED_BYTE:])
        self.seats = []
        for packed in packs:
            counts = packed.to_bytes(PACKED_BYTES, "little")
            key = packed & _KIND_BYTES  # the kind bytes: the seat's key
            self.seats.append(
                SeatState(
                    list(counts[:KINDS]), list(counts[RED_BYTE:]), key=key, shapes=self.shapes
                )
            )
        return True

    @property
    def finished(self) -> bool:
        """The hand has ended (a win, or a draw): :meth:`settle` and :meth:`end_round` may
        follow (a ron leaves the phase ``WON``: another seat may still ron the same tile)."""
        return self.phase is Phase.WON or self.phase is Phase.OVER

    def settle(self) -> HandResult:
        """The finished hand's result (:attr:`result`), before :meth:`end_round` adds it to the
        scores (which may still move the riichi sticks of a multiple ron to another winner).

        :raises IllegalActionError: the hand has not ended.
        """
        result = self.result
        if result is None or not self.finished:
            raise IllegalActionError("the hand has not ended")
        return result

    def end_round(self) -> RoundPosition | None:
        """Settle the finished hand's points and return the next hand's position, or ``None``
        when the game is over.

        :raises IllegalActionError: the hand has not ended.
        """
        if self.phase is not Phase.WON and self.phase is not Phase.OVER:
            raise IllegalActionError("the hand has not ended")
        result = self.result
        assert result is not None and self.position is not None
        self._settle_sticks(result)
        for seat, delta in enumerate(result.deltas):
            self.scores[seat] += delta
        won = result.kind == "win"
        if won:
            dealer_keeps = any(win.seat == self.dealer for win in result.wins)
            self.sticks = 0
        elif result.kind == "abortive_draw":
            dealer_keeps = True
        else:
            dealer_keeps = self.dealer in result.tenpai
        outcome = HandOutcome(
            dealer_keeps=dealer_keeps, won=won, aborted=result.kind == "abortive_draw"
        )
        self.phase = Phase.OVER
        return next_position(
            self.position, outcome, self.scores, self.sticks, self.ruleset, self.first_dealer
        )

    # -- checking and applying -------------------------------------------------------------------

    def why_illegal(self, event: Event) -> str | None:
        """Why the event is illegal now, in words, or ``None`` when it is legal."""
        check = self._checks.get(type(event))
        if check is None:
            return f"unknown event {event!r}"
        return check(self, event)

    def is_legal(self, event: Event) -> bool:
        """Whether the rules allow the event now."""
        return self.why_illegal(event) is None

    def apply(self, event: Event) -> None:
        """Apply an event after checking it.

        :raises IllegalActionError: the event is not legal now; the state is unchanged.
        """
        problem = self.push(event)
        if problem is not None:
            raise IllegalActionError(problem)

    def push(self, event: Event) -> str | None:
        """Check an event and apply it if legal, in one step.

        Returns ``None`` when the event was applied, else why it is illegal (nothing changed).
        """
        kind = type(event)
        if kind is Draw:
            if self._plain_draw(event):  # type: ignore[arg-type]
                return None
        elif kind is Discard and self._plain_discard(event):  # type: ignore[arg-type]
            return None
        return self._push_checked(kind, event)

    def push_steps(
        self,
    ) -> tuple[
        Callable[[Draw], bool], Callable[[Discard], bool], Callable[[type, Event], str | None]
    ]:
        """The three steps of :meth:`push` (and of :meth:`push_events`' loop), for a caller that
        writes the loop out with work of its own between events (``engine.study.StudyPass``):
        the plain draw and the plain discard (``True``: applied; ``False``: nothing changed),
        then, for any event they leave, the general check and applier (``None``: applied, else
        why the event is illegal)."""
        return self._plain_draw, self._plain_discard, self._push_checked

    def push_events(self, events: Iterable[Event]) -> tuple[int, str] | None:
        """:meth:`push` each event in turn (the replayer's loop), stopping at the first illegal
        one: its index and why it is illegal, or ``None`` when every event was applied.

        The loop is :meth:`push` written out, to save a call per event: the fast paths first,
        then the general check and applier for whatever they leave.
        """
        plain_draw = self._plain_draw
        plain_discard = self._plain_discard
        for index, event in enumerate(events):
            kind = type(event)
            if kind is Draw:
                if plain_draw(event):  # type: ignore[arg-type]
                    continue
            elif kind is Discard and plain_discard(event):  # type: ignore[arg-type]
                continue
            problem = self._push_checked(kind, event)
            if problem is not None:
                return index, problem
        return None

    def _push_checked(self, kind: type, event: Event) -> str | None:
        """:meth:`push` by the general check and applier of the event's type."""
        check = self._checks.get(kind)
        if check is None:
            return f"unknown event {event!r}"
        problem = check(self, event)
        if problem is None:
            self._appliers[kind](self, event)
        return problem

    def _plain_discard(self, event: Discard) -> bool:
        """The common discard, checked and applied in one pass: with no swap-call limit or kan
        business pending, by a player not in riichi or discarding the drawn tile in riichi.
        Returns ``False`` (having changed nothing) for any other case, which the general check
        then words."""
        seat = event.seat
        if (
            self.phase is not PHASE_ACT
            or seat != self.turn
            or self.dora_due
            or self.dora_after_discard
            or self.four_kans_next
        ):
            return False
        data = self.seats[seat]
        tile = event.tile
        if data.forbidden:
            return False
        # ``is`` first: tiles are shared objects, and equal when identical, so this is only a
        # shortcut of ``!=`` (a generated dataclass method, slow to call).
        last = self.last_draw
        if (event.tsumogiri or data.riichi) and tile is not last and tile != last:
            return False
        if not data.take(tile):  # (the last check: it removes the tile when held)
            return False
        if data.temporary_furiten:  # (a call's discard: see DrawDiscardRules._discard)
            data.temporary_furiten = False
        data.ippatsu = False  # (only a riichi player has it: their next discard ends it)
        data.river.append(tile)
        data.river_called.append(False)
        self.last_discard = tile
        self.last_discarder = seat
        self.last_draw = None
        self.rinshan = False
        self.phase = PHASE_CLAIM
        self.discards_made += 1
        if self.first_turn:
            self._first_discard(tile)
        return True

    def _plain_draw(self, event: Draw) -> bool:
        """The common draw, checked and applied in one pass: the next seat draws after a discard
        nobody claimed, with nothing else due (the recorded wall's next tile, when the round has
        one). Returns ``False`` (having changed nothing) for any other case, which the general
        check then handles."""
        if (
            self.phase is not PHASE_CLAIM
            or self.pending_riichi is not None
            or self.forced_abort is not None
            or self.dora_due
            or self.tiles_left <= 0
        ):
            return False
        seat = event.seat
        discarder = self.last_discarder
        if seat != (discarder + 1) % self.players:
            return False
        tile = event.tile
        wall = self.wall
        if wall is not None and not self.replacement:
            # What _check_draw compares: the live wall's next tile, if the wall goes that far.
            index = self.live_index
            if index < len(wall.live) and wall.live[index] is not tile and wall.live[index] != tile:
                return False
        kind = tile.kind
        seen = self.seen
        # What _tile_problem checks: for any tile but a five (red fives have limits of their
        # own), a foreign one or a sanma one, that is only whether a fifth copy would be seen.
        if kind < 0 or self.three_player or (kind < EAST and kind % 9 == 4):
            if self._tile_problem(tile) is not None:
                return False  # the full check words it
        elif seen[kind] >= 4:
            return False
        last = self.last_discard
        assert last is not None
        # _pass_claims(last, discarder), written out: nobody ronned the discard.
        bit = 1 << last.kind
        seats = self.seats
        passed = seats[discarder]
        for other in seats:
            if other is not passed:
                other.passed |= bit
        seen[kind] += 1
        if tile.red:
            self.seen_red[kind // 9] += 1
        if wall is not None:
            self.live_index += 1  # (a draw after a discard is from the live wall)
        data = seats[seat]
        if not data.riichi:
            # Its temporary furiten ends with this draw: the passes need no settling.
            data.passed = 0
        data.add(tile)
        data.draws += 1
        if not data.riichi:
            data.temporary_furiten = False
        self.tiles_left -= 1
        self.rinshan = False
        self.replacement = False
        self.last_draw = tile
        self.turn = seat
        self.phase = PHASE_ACT
        data.forbidden = _NO_KINDS
        return True


#: Each event type's check (why it is illegal now, or ``None``) and applier, as functions of the
#: state and the event (``GameState.__init__`` says why not bound methods).
_CHECKS: Final[dict[type, Callable[[GameState, Any], str | None]]] = {
    Draw: GameState._check_draw,
    Discard: GameState._check_discard,
    Chi: GameState._check_call,
    Pon: GameState._check_call,
    OpenKan: GameState._check_call,
    ClosedKan: GameState._check_closed_kan,
    AddedKan: GameState._check_added_kan,
    NorthExtraction: GameState._check_north,
    RiichiDeclared: GameState._check_riichi,
    RiichiAccepted: GameState._check_riichi_accepted,
    DoraRevealed: GameState._check_dora,
    Win: GameState._check_win,
    ExhaustiveDraw: GameState._check_exhaustive,
    NagashiMangan: GameState._check_nagashi,
    AbortiveDraw: GameState._check_abort,
    ScoreChange: GameState._check_score_change,
    Swap: GameState._check_swap,
}
_APPLIERS: Final[dict[type, Callable[[GameState, Any], None]]] = {
    Draw: GameState._draw,
    Discard: GameState._discard,
    Chi: GameState._call,
    Pon: GameState._call,
    OpenKan: GameState._call,
    ClosedKan: GameState._closed_kan,
    AddedKan: GameState._added_kan,
    NorthExtraction: GameState._north,
    RiichiDeclared: GameState._riichi,
    RiichiAccepted: GameState._riichi_accepted,
    DoraRevealed: GameState._dora,
    Win: GameState._win,
    ExhaustiveDraw: GameState._exhaustive,
    NagashiMangan: GameState._nagashi,
    AbortiveDraw: GameState._abort,
    ScoreChange: GameState._score_change,
    Swap: GameState._swap,
}
