"""The :class:`GameState` class: starting and ending hands, checking and applying events.

It puts the parts of the state machine together (one mixin per concept, see :mod:`engine.state`)
and maps each event type to its check and its applier. :meth:`GameState.push`, the replayer's
loop, lives here with the fast paths of the common draw and discard (``_plain_draw``,
``_plain_discard``): plain methods that check and apply in one pass, kept so for the replayer's
speed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
    Wall,
    Win,
)
from engine.game_flow import HandOutcome, RoundPosition, next_position
from engine.rules.ruleset import Ruleset
from engine.state.calls import _Calls
from engine.state.draw_discard import _DrawDiscard
from engine.state.hand_ends import _HandEnds
from engine.state.legal import _LegalActions
from engine.state.results import HandResult, Phase
from engine.state.riichi import _Riichi
from engine.state.seat import _Seat
from engine.state.wins import _Wins
from engine.tiles import EAST, KINDS, Tile


class GameState(_DrawDiscard, _Calls, _Riichi, _Wins, _HandEnds, _LegalActions):
    """One game's state, hand by hand.

    Start each hand with :meth:`start_round`; feed it the hand's events with :meth:`apply`; read
    the outcome in :attr:`result` and close the hand with :meth:`end_round`, which returns the
    next hand's position (``None`` when the game is over).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        first_dealer: int = 0,
        scores: list[int] | None = None,
    ) -> None:
        super().__init__(ruleset, first_dealer=first_dealer, scores=scores)
        self._checks: dict[type, Callable[[Any], str | None]] = {
            Draw: self._check_draw,
            Discard: self._check_discard,
            Chi: self._check_call,
            Pon: self._check_call,
            OpenKan: self._check_call,
            ClosedKan: self._check_closed_kan,
            AddedKan: self._check_added_kan,
            NorthExtraction: self._check_north,
            RiichiDeclared: self._check_riichi,
            RiichiAccepted: self._check_riichi_accepted,
            DoraRevealed: self._check_dora,
            Win: self._check_win,
            ExhaustiveDraw: self._check_exhaustive,
            NagashiMangan: self._check_nagashi,
            AbortiveDraw: self._check_abort,
            ScoreChange: self._check_score_change,
        }
        self._appliers: dict[type, Callable[[Any], None]] = {
            Draw: self._draw,
            Discard: self._discard,
            Chi: self._call,
            Pon: self._call,
            OpenKan: self._call,
            ClosedKan: self._closed_kan,
            AddedKan: self._added_kan,
            NorthExtraction: self._north,
            RiichiDeclared: self._riichi,
            RiichiAccepted: self._riichi_accepted,
            DoraRevealed: self._dora,
            Win: self._win,
            ExhaustiveDraw: self._exhaustive,
            NagashiMangan: self._nagashi,
            AbortiveDraw: self._abort,
            ScoreChange: self._score_change,
        }

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
        self.seats = [_Seat([0] * KINDS, [0, 0, 0]) for _ in range(players)]
        # Tiles seen in this hand (hands, indicators, draws), to refuse a fifth copy.
        self.seen = [0] * KINDS
        self.seen_red = [0, 0, 0]
        for index, hand in enumerate(round_.hands):
            if len(hand) != 13:
                raise IllegalActionError(f"seat {index} is dealt {len(hand)} tiles, not 13")
            for tile in hand:
                problem = self._see(tile)
                if problem:
                    raise IllegalActionError(f"seat {index}'s starting hand: {problem}")
                self.seats[index].add(tile)
        if len(round_.dora_indicators) != 1:
            raise IllegalActionError(
                f"a hand starts with one dora indicator, the record has "
                f"{len(round_.dora_indicators)}"
            )
        for tile in (*round_.dora_indicators, *round_.ura_indicators):
            problem = self._see(tile)
            if problem:
                raise IllegalActionError(f"dora indicators: {problem}")
        self.dora_indicators: list[Tile] = list(round_.dora_indicators)
        self.ura_indicators = round_.ura_indicators
        self.wall: Wall | None = round_.wall
        self.live_index = 0
        self.replacement_index = 0
        self.dora_wall_index = 1
        dealt = 13 * players
        total = 136 if players == 4 else 108
        self.tiles_left = total - dealt - ruleset.dead_wall
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
        return check(event)

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
        """Check an event and apply it if legal, in one step (the replayer's loop).

        Returns ``None`` when the event was applied, else why it is illegal (nothing changed).
        """
        kind = type(event)
        if kind is Draw:
            if self._plain_draw(event):  # type: ignore[arg-type]
                return None
        elif kind is Discard and self._plain_discard(event):  # type: ignore[arg-type]
            return None
        check = self._checks.get(kind)
        if check is None:
            return f"unknown event {event!r}"
        problem = check(event)
        if problem is None:
            self._appliers[kind](event)
        return problem

    def _plain_discard(self, event: Discard) -> bool:
        """The common discard, checked and applied in one pass: after the first go-around, with
        no swap-call limit or kan business pending, by a player not in riichi or discarding
        the drawn tile in riichi. Returns ``False`` (having changed nothing) for any other
        case, which the general check then words."""
        seat = event.seat
        if (
            self.phase is not Phase.ACT
            or seat != self.turn
            or self.first_turn
            or self.dora_due
            or self.dora_after_discard
            or self.four_kans_next
        ):
            return False
        data = self.seats[seat]
        tile = event.tile
        if data.forbidden or not data.holds(tile):
            return False
        if (event.tsumogiri or data.riichi) and tile != self.last_draw:
            return False
        data.remove(tile)
        data.ippatsu = False  # (only a riichi player has it: their next discard ends it)
        data.river.append(tile)
        data.river_called.append(False)
        self.last_discard = tile
        self.last_discarder = seat
        self.last_draw = None
        self.rinshan = False
        self.phase = Phase.CLAIM
        self.discards_made += 1
        return True

    def _plain_draw(self, event: Draw) -> bool:
        """The common draw, checked and applied in one pass: the next seat draws after a discard
        nobody claimed, with nothing else due and no wall to follow. Returns ``False`` (having
        changed nothing) for any other case, which the general check then handles."""
        if (
            self.phase is not Phase.CLAIM
            or self.pending_riichi is not None
            or self.forced_abort is not None
            or self.dora_due
            or self.wall is not None
            or self.tiles_left <= 0
        ):
            return False
        seat = event.seat
        if seat != (self.last_discarder + 1) % self.players:
            return False
        tile = event.tile
        kind = tile.kind
        seen = self.seen
        # Only a tile near a limit (a fourth copy, a five, a sanma gap) can break one.
        if (
            seen[kind] >= 3 or kind < 0 or (kind < EAST and kind % 9 == 4) or self.three_player
        ) and self._tile_problem(tile) is not None:
            return False  # the full check words it
        last = self.last_discard
        assert last is not None
        self._pass_claims(last, self.last_discarder)
        seen[kind] += 1
        if tile.red:
            self.seen_red[kind // 9] += 1
        data = self.seats[seat]
        data.add(tile)
        data.draws += 1
        if not data.riichi:
            data.temporary_furiten = False
        self.tiles_left -= 1
        self.rinshan = False
        self.replacement = False
        self.last_draw = tile
        self.turn = seat
        self.phase = Phase.ACT
        data.forbidden = frozenset()
        return True

    def apply_unchecked(self, event: Event) -> None:
        """Apply an event already known to be legal (from :meth:`legal_actions`)."""
        self._appliers[type(event)](event)
