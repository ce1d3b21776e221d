"""The base class of the state machine's parts: the attributes, shared helpers and words.

:class:`~engine.state.GameState` is put together from parts, one per concept (see
:mod:`engine.state`), all over :class:`StateBase`. Its ``__init__`` declares every attribute,
so mypy knows them in each part. It also holds the helpers several parts use (seat winds, tiles
coming into view, waits and furiten, passing on a discard, kan and dora limits, the wall's next
tile) and the phase in words for the reasons of refusals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.events import AbortKind, Event, Wall, Win
from engine.game_flow import RoundPosition
from engine.hand.shapes import shapes_for
from engine.rules.modifiers import RuleModifier, get_modifiers
from engine.rules.ruleset import Ruleset
from engine.state.results import HandResult, Phase, WinResult
from engine.state.seat import SeatState
from engine.tiles import DRAGONS, EAST, SANMA_MISSING, WIND_LETTERS, WINDS, YAOCHUU, Tile

YAOCHUU_SET = frozenset(YAOCHUU)
DRAGON_SET = frozenset(DRAGONS)
WIND_SET = frozenset(WINDS)


class StateBase:
    """What every part of :class:`~engine.state.GameState` shares.

    ``__init__`` declares every attribute of the state, so that each part (a subclass in the
    chain over this class) is type-checked against them; most are set per hand by ``start_round``.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        first_dealer: int = 0,
        scores: list[int] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.players = ruleset.players
        self.first_dealer = first_dealer
        self.scores: list[int] = (
            list(scores) if scores is not None else [ruleset.starting_points] * self.players
        )
        self.three_player = ruleset.players == 3
        #: Which tiles form runs (each seat gets them: its waits depend on them).
        self.shapes = shapes_for(ruleset)
        #: The rule modifiers in force for each seat: the table's, then the power the seat
        #: chose (``Ruleset.powers_of``).
        self.seat_modifiers: tuple[tuple[RuleModifier, ...], ...] = tuple(
            get_modifiers(ruleset.powers_of(seat)) for seat in range(self.players)
        )
        #: Each play hook's powers, by seat: those of the seat's modifiers that override it.
        #: Empty (not a tuple of empty tuples) when no seat has one, so that ``if
        #: self.redraw_powers`` is the cheap test of a game without them (engine.state.powers).
        self.redraw_powers = _overriding(self.seat_modifiers, "redraw")
        self.call_powers = _overriding(self.seat_modifiers, "may_call")
        self.visible_powers = _overriding(self.seat_modifiers, "visible")
        self.swap_powers = _overriding(self.seat_modifiers, "swap")
        #: The rule set each seat's win is valued under: its own powers are the scorer's
        #: modifiers (``Ruleset.for_seat``; the same object for every seat when none chose one).
        self.scoring_rules: tuple[Ruleset, ...] = tuple(
            ruleset.for_seat(seat) for seat in range(self.players)
        )
        # Event type to check and to applier; GameState fills them with every part's methods.
        self._checks: dict[type, Callable[[Any, Any], str | None]]
        self._appliers: dict[type, Callable[[Any, Any], None]]
        self.phase = Phase.OVER
        self.position: RoundPosition | None = None
        # The hand's state: declared here (no value) for the type checker, set by start_round.
        self.dealer: int
        self.round_wind: int
        self.sticks: int
        self.seats: list[SeatState]
        self.seen: list[int]
        self.seen_red: list[int]
        self.dora_indicators: list[Tile]
        self.ura_indicators: tuple[Tile, ...]
        self.wall: Wall | None
        self.live_index: int
        self.replacement_index: int
        self.dora_wall_index: int
        self.tiles_left: int
        self.turn: int
        self.replacement: bool
        self.rinshan: bool
        self.last_draw: Tile | None
        self.last_discard: Tile | None
        self.last_discarder: int
        self.rob_tile: Tile | None
        self.rob_kind: str
        self.rob_won: bool
        self.first_turn: bool
        self.discards_made: int
        self.first_discards: list[Tile]
        self.kans: int
        self.kan_seats: set[int]
        self.dora_due: int
        self.dora_after_draw: int
        self.dora_after_discard: int
        self.pending_riichi: int | None
        self.riichi_count: int
        self.forced_abort: AbortKind | None
        self.four_kans_next: bool
        self.result: HandResult | None
        self.win_events: list[Win]
        #: Each seat's uses of each power (a modifier's name) in this hand.
        self.powers_used: list[dict[str, int]]
        # The win valued by the last check of a Win event, for its applier (engine.state.wins).
        self._pending: WinResult

    # Methods a part defines and a part below it in the chain calls (GameState has them all; the
    # parts are one chain over this class: engine/state/game.py). Plain methods, not declarations
    # under ``if TYPE_CHECKING``, because mypyc compiles no such block in a class body.

    def why_illegal(self, event: Event) -> str | None:  # engine.state.game
        raise NotImplementedError

    def _claim_passes(self) -> str | None:  # engine.state.draw_discard
        raise NotImplementedError

    def _tenpai_without(self, seat: int, tile: Tile) -> bool:  # engine.state.draw_discard
        raise NotImplementedError

    def _own_turn(self, seat: int) -> str | None:  # engine.state.calls
        raise NotImplementedError

    def nagashi_seats(self) -> tuple[int, ...]:  # engine.state.hand_ends
        raise NotImplementedError

    # -- what a rule modifier's play hook may read (engine.rules.modifiers.PlayView) ------------

    def in_riichi(self, seat: int) -> bool:
        """Whether the seat has declared riichi this hand."""
        return self.seats[seat].riichi

    def concealed(self, seat: int) -> list[Tile]:
        """The seat's concealed tiles, sorted."""
        return self.seats[seat].tiles()

    def power_uses(self, seat: int, power: str) -> int:
        """How many times the seat has used the power of this name in this hand."""
        return self.powers_used[seat].get(power, 0)

    # -- helpers ---------------------------------------------------------------------------------

    def seat_wind(self, seat: int) -> int:
        """A seat's wind kind this hand."""
        return EAST + (seat - self.dealer) % self.players

    def _seat_of_letter(self, letter: str) -> int:
        return (self.dealer + WIND_LETTERS.index(letter)) % self.players

    def _tile_problem(self, tile: Tile) -> str | None:
        """What is wrong with a tile coming into view (a fifth copy, a tile absent from the rule
        set), or ``None``. Changes nothing: :meth:`_count` records it."""
        kind = tile.kind
        if kind < 0:
            return f"{tile} is not a tile of this rule set"
        if self.three_player and kind in SANMA_MISSING:
            return f"{tile} is not used in 3-player mahjong"
        if self.seen[kind] >= 4:
            return f"a fifth {tile.name}"
        if kind < EAST and kind % 9 == 4:
            suit = kind // 9
            reds = self.ruleset.red_fives[suit]
            if tile.red:
                if self.seen_red[suit] >= reds:
                    return f"more red {tile.name.split(' (')[0]} than the {reds} of this rule set"
            elif self.seen[kind] - self.seen_red[suit] >= 4 - reds:
                return f"more plain {tile.name} than the {4 - reds} of this rule set"
        return None

    def _count(self, tile: Tile) -> None:
        """Record a tile coming into view (checked by :meth:`_tile_problem`)."""
        self.seen[tile.kind] += 1
        if tile.red:
            self.seen_red[tile.kind // 9] += 1

    def _see(self, tile: Tile) -> str | None:
        """Check and record a tile coming into view."""
        problem = self._tile_problem(tile)
        if problem is None:
            self._count(tile)
        return problem

    def _hand(self, seat: int) -> tuple[bool, frozenset[int]]:
        return self.seats[seat].hand()

    def _near(self, seat: int) -> bool:
        """Whether the seat's 3n+1-tile hand is one tile from complete (shanten 0)."""
        return self._hand(seat)[0]

    def completes(self, seat: int, kind: int) -> bool:
        """Whether a tile of ``kind`` completes the seat's 3n+1-tile hand."""
        return kind in self._hand(seat)[1]

    def waits(self, seat: int) -> frozenset[int]:
        """The kinds that complete the seat's 3n+1-tile hand (empty when not tenpai)."""
        return self._hand(seat)[1]

    def furiten(self, seat: int) -> bool:
        """Whether the seat may not ron now (permanent, temporary or riichi furiten)."""
        data = self.seats[seat]
        data.settle_furiten()
        if data.temporary_furiten or data.riichi_furiten:
            return True
        waits = self.waits(seat)
        return any(tile.kind in waits for tile in data.river)

    def _tenpai_after_discard(self, seat: int) -> bool:
        """Whether some discard from the seat's 3n+2 tiles leaves a tenpai hand."""
        return self.seats[seat].shanten() <= 0

    def _pass_claims(self, tile: Tile, skip: int) -> None:
        """Nobody (else) ronned ``tile``: whoever waited on it is furiten for now (for the rest
        of the hand when in riichi)."""
        bit = 1 << tile.kind
        seats = self.seats
        skipped = seats[skip] if 0 <= skip < len(seats) else None  # (by identity: no enumerate)
        # Runs after every discard: noted, and settled only when furiten is asked or the hand
        # changes (SeatState.settle_furiten), since most hands wait on nothing.
        for data in seats:
            if data is not skipped:
                data.passed |= bit

    def _break_first_turn(self) -> None:
        self.first_turn = False
        for data in self.seats:
            data.ippatsu = False

    def _kan_allowed(self, seat: int) -> str | None:
        if self.tiles_left <= 0:
            return "no kan after the last tile of the wall"
        if self.kans >= 4:
            return "a fifth kan is not allowed"
        return None

    def _dora_blocks(self) -> str | None:
        if self.dora_due:
            return "a new kan dora indicator is due first"
        return None

    def _expected_draw(self) -> Tile | None:
        wall = self.wall
        if wall is None:
            return None
        if self.replacement:
            if self.replacement_index < len(wall.replacements):
                return wall.replacements[self.replacement_index]
            return None
        if self.live_index < len(wall.live):
            return wall.live[self.live_index]
        return None

    # -- words -----------------------------------------------------------------------------------

    def _phase_words(self) -> str:
        phase = self.phase
        if phase is Phase.DRAW:
            return f"seat {self.turn} is to draw"
        if phase is Phase.ACT:
            return f"seat {self.turn} is to play"
        if phase is Phase.RIICHI:
            return f"seat {self.turn} is to make the riichi discard"
        if phase is Phase.CLAIM:
            return f"seat {self.last_discarder}'s discard {self.last_discard} may be claimed"
        if phase is Phase.ROB:
            return f"seat {self.turn}'s {self.rob_tile} may be robbed"
        if phase is Phase.WON:
            return "the hand was won"
        return "the hand is over"


def _overriding(
    seat_modifiers: tuple[tuple[RuleModifier, ...], ...], hook: str
) -> tuple[tuple[RuleModifier, ...], ...]:
    """Each seat's modifiers that override the hook; empty when no seat has any."""
    by_seat = tuple(
        tuple(modifier for modifier in modifiers if hook in modifier.hooks())
        for modifiers in seat_modifiers
    )
    return by_seat if any(by_seat) else ()
