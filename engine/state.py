"""The game state machine: what the rules allow next, and what an action does.

:class:`GameState` follows one game hand by hand. For each canonical event
(:mod:`engine.events`) it can say whether the event is legal now (:meth:`GameState.is_legal`,
:meth:`GameState.why_illegal` with the reason in words), list what is legal
(:meth:`GameState.legal_actions`, for bots), and apply it (:meth:`GameState.apply`, which refuses
an illegal event). Checking and applying are separate, as in python-chess (``Board.is_legal`` /
``Board.push``).

The rules are those of the :class:`~engine.rules.ruleset.Ruleset`; ``replay-checklist.md`` in the
shared reference lists them with their sources. The state knows every player's tiles (records of
finished games show them all), so it checks furiten, tenpai and the value of every win itself.

Phases of a hand:

* ``DRAW``: ``turn`` draws next (the dealer's first draw, or a replacement draw after a kan or a
  north extraction).
* ``ACT``: ``turn`` holds a drawn or called hand: discard, tsumo, kan, kita, riichi, nine terminals.
* ``RIICHI``: ``turn`` declared riichi; the riichi discard comes next.
* ``CLAIM``: the last discard may be called or ronned; if nobody does, the next seat draws (or the
  hand ends on an exhausted wall or a forced abortive draw).
* ``ROB``: an added kan (or a closed kan, for thirteen orphans where allowed, or a north
  extraction) may be robbed by ron before the replacement draw.
* ``WON``: somebody ronned; others may ron the same tile too.
* ``OVER``: the hand has ended.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from engine.errors import EngineError, IllegalActionError, InvalidConditionsError, NoYakuError
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
from engine.hand.melds import Meld, MeldType
from engine.hand.shanten import shanten
from engine.rules.ruleset import KanDoraTiming, Renhou, Ruleset, StickWinner
from engine.scoring.payments import tsumo_payments
from engine.scoring.score import HandScore, WinConditions, WinningHand, score_hand
from engine.tiles import (
    DRAGONS,
    EAST,
    KINDS,
    NORTH,
    SANMA_MISSING,
    WIND_LETTERS,
    WINDS,
    YAOCHUU,
    Tile,
)

_YAOCHUU = frozenset(YAOCHUU)
_DRAGONS = frozenset(DRAGONS)
_WINDS = frozenset(WINDS)
_MANGAN_BASE = 2000
_PLAIN_TILES = tuple(Tile.from_kind(kind) for kind in range(KINDS))
_RED_TILES = tuple(Tile.from_kind(9 * suit + 4, red=True) for suit in range(3))


class Phase(IntEnum):
    """Where a hand is between two events (see the module docstring)."""

    DRAW = 0
    ACT = 1
    RIICHI = 2
    CLAIM = 3
    ROB = 4
    WON = 5
    OVER = 6


@dataclass(frozen=True, slots=True)
class WinResult:
    """A win as the engine values it."""

    seat: int
    from_seat: int
    score: HandScore
    #: Every seat's score change from this win (honba and sticks included).
    deltas: tuple[int, ...]
    #: The seat that paid under liability (pao), if any.
    liable: int | None
    conditions: WinConditions
    #: The hand's value before counters and sticks (what Tenhou records as a win's points).
    points: int


@dataclass(slots=True)
class HandResult:
    """How a hand ended, as the engine computes it."""

    #: ``win``, ``exhaustive_draw``, ``nagashi_mangan``, ``abortive_draw``.
    kind: str
    wins: list[WinResult] = field(default_factory=list)
    #: Every seat's score change from the hand's end (wins, noten or nagashi payments), riichi
    #: deposits not included.
    deltas: list[int] = field(default_factory=list)
    #: Seats tenpai at an exhaustive draw (or nagashi mangan).
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    abort: AbortKind | None = None


@dataclass(slots=True)
class _Seat:
    """One player's part of a hand."""

    #: Concealed tiles by kind (red fives included in their kind) and red fives by suit.
    counts: list[int]
    reds: list[int]
    melds: list[Meld] = field(default_factory=list)
    #: Where each called meld came from (``None`` for a closed kan), parallel to ``melds``.
    meld_sources: list[int | None] = field(default_factory=list)
    river: list[Tile] = field(default_factory=list)
    #: Whether each river tile was called away, parallel to ``river``.
    river_called: list[bool] = field(default_factory=list)
    draws: int = 0
    kita: int = 0
    riichi: bool = False
    riichi_accepted: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    #: Index into ``river`` of the riichi discard.
    riichi_discard: int = -1
    #: The seat's draws when riichi was declared, and how many riichi came before it this hand.
    riichi_turn: int = 0
    riichi_order: int = 0
    #: Number of kinds the hand waited on at the riichi discard.
    riichi_waits: int = 0
    temporary_furiten: bool = False
    riichi_furiten: bool = False
    #: Kinds whose discard right now is a swap call (kuikae), after a chi or pon.
    forbidden: frozenset[int] = frozenset()
    #: Seat liable (pao) for a yakuman completed by a call on their discard.
    liable: int | None = None
    #: Shanten-0 flag and waits of the concealed hand (see :func:`hand_waits`), computed when
    #: needed (``None``: the hand changed since).
    hand_cache: tuple[bool, frozenset[int]] | None = None

    @property
    def open(self) -> bool:
        return any(meld.type is not MeldType.ANKAN for meld in self.melds)

    def holds(self, tile: Tile) -> bool:
        kind = tile.kind
        if tile.red:
            return self.reds[kind // 9] > 0
        plain = self.counts[kind]
        if kind < EAST and kind % 9 == 4:
            plain -= self.reds[kind // 9]
        return plain > 0

    def add(self, tile: Tile) -> None:
        self.counts[tile.kind] += 1
        if tile.red:
            self.reds[tile.kind // 9] += 1
        self.hand_cache = None

    def remove(self, tile: Tile) -> None:
        self.counts[tile.kind] -= 1
        if tile.red:
            self.reds[tile.kind // 9] -= 1
        self.hand_cache = None

    def tiles(self) -> list[Tile]:
        """The concealed tiles, sorted, red fives as red tiles."""
        out: list[Tile] = []
        for kind, count in enumerate(self.counts):
            if not count:
                continue
            red = self.reds[kind // 9] if kind < EAST and kind % 9 == 4 else 0
            if red:
                out.extend([_RED_TILES[kind // 9]] * red)
            out.extend([_PLAIN_TILES[kind]] * (count - red))
        return out


def _can_hold(seat: _Seat, tiles: Iterable[Tile]) -> bool:
    """Whether the seat holds all these tiles at once."""
    needed: dict[Tile, int] = {}
    for tile in tiles:
        needed[tile] = needed.get(tile, 0) + 1
    for tile, count in needed.items():
        kind = tile.kind
        if tile.red:
            if seat.reds[kind // 9] < count:
                return False
        else:
            plain = seat.counts[kind]
            if kind < EAST and kind % 9 == 4:
                plain -= seat.reds[kind // 9]
            if plain < count:
                return False
    return True


class GameState:
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
        self.ruleset = ruleset
        self.players = ruleset.players
        self.first_dealer = first_dealer
        self.scores: list[int] = (
            list(scores) if scores is not None else [ruleset.starting_points] * self.players
        )
        self.three_player = ruleset.players == 3
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
        self.phase = Phase.OVER
        self.position: RoundPosition | None = None

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

    def _settle_sticks(self, result: HandResult) -> None:
        """Fold the wins' deltas into the hand's deltas (once).

        Each win was valued as it came, the first one with the sticks and counters. Where the
        rules give them to the ronning winner nearest the dealer instead, they move here.
        """
        if result.deltas:
            return
        wins = result.wins
        if len(wins) > 1 and self.ruleset.multi_ron_sticks is StickWinner.NEAREST_DEALER:
            nearest = min(wins, key=lambda win: (win.seat - self.dealer) % self.players)
            first = wins[0]
            if nearest is not first:
                assert self.position is not None
                honba = self.ruleset.honba_ron * self.position.honba
                bonus = 1000 * self.sticks + honba
                moved_first = list(first.deltas)
                moved_first[first.seat] -= bonus
                moved_first[first.from_seat] += honba
                moved_nearest = list(nearest.deltas)
                moved_nearest[nearest.seat] += bonus
                moved_nearest[nearest.from_seat] -= honba
                index = wins.index(nearest)
                wins[0] = _with_deltas(first, moved_first)
                wins[index] = _with_deltas(nearest, moved_nearest)
        deltas = [0] * self.players
        for win in wins:
            for seat, delta in enumerate(win.deltas):
                deltas[seat] += delta
        result.deltas = deltas

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
            if self.ruleset.sanchahou:
                candidates.append(AbortiveDraw(AbortKind.TRIPLE_RON, discarder))
        elif phase is Phase.WON:
            first = self.win_events[0]
            candidates.extend(self._ron_candidates(first.tile, first.from_seat))
        return [event for event in candidates if self.why_illegal(event) is None]

    def _ron_candidates(self, tile: Tile | None, source: int) -> list[Event]:
        if tile is None:
            return []
        return [
            Win(seat, source, tile)
            for seat in range(self.players)
            if seat != source and tile.kind in self.waits(seat)
        ]

    def _call_candidates(self) -> list[Event]:
        tile = self.last_discard
        discarder = self.last_discarder
        if tile is None or self.tiles_left <= 0:
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
                same = _copies(data, kind)
                out.append(Pon(seat, discarder, tile, tuple(same[:2])))
                if len(same) >= 3:
                    out.append(OpenKan(seat, discarder, tile, tuple(same[:3])))
            if (
                self.ruleset.chi
                and seat == (discarder + 1) % self.players
                and kind < EAST
                and not data.riichi
            ):
                rank = kind % 9
                for low in (rank - 2, rank - 1, rank):
                    if low < 0 or low + 2 > 8:
                        continue
                    others = [kind - rank + r for r in range(low, low + 3) if r != rank]
                    if all(data.counts[k] for k in others):
                        consumed = tuple(_copies(data, k)[0] for k in others)
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
            if shanten(data.counts) == -1:  # complete: worth asking the scorer about a yaku
                out.append(Win(seat, seat, drawn))
            out.append(RiichiDeclared(seat))
            out.append(AbortiveDraw(AbortKind.NINE_TERMINALS, seat))
            counts = data.counts
            for kind in range(len(counts)):
                if counts[kind] == 4:
                    out.append(ClosedKan(seat, tuple(_copies(data, kind))))
            for meld in data.melds:
                if meld.type is MeldType.PON and counts[meld.kind]:
                    out.append(AddedKan(seat, _copies(data, meld.kind)[0]))
            if self.ruleset.kita and data.counts[NORTH]:
                out.append(NorthExtraction(seat, _PLAIN_TILES[NORTH]))
        return out

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
        data = self.seats[seat]
        cached = data.hand_cache
        if cached is None:
            cached = data.hand_cache = hand_waits(data.counts)
        return cached

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
        if data.temporary_furiten or data.riichi_furiten:
            return True
        waits = self.waits(seat)
        return any(tile.kind in waits for tile in data.river)

    def _tenpai_after_discard(self, seat: int) -> bool:
        """Whether some discard from the seat's 3n+2 tiles leaves a tenpai hand."""
        counts = self.seats[seat].counts
        return shanten(counts) <= 0

    def _pass_claims(self, tile: Tile, skip: int) -> None:
        """Nobody (else) ronned ``tile``: whoever waited on it is furiten for now (for the rest
        of the hand when in riichi)."""
        kind = tile.kind
        # Runs after every discard: the seats' cached waits are read directly.
        for seat, data in enumerate(self.seats):
            if seat == skip:
                continue
            cached = data.hand_cache
            if cached is None:
                cached = data.hand_cache = hand_waits(data.counts)
            if kind in cached[1]:
                if data.riichi:
                    data.riichi_furiten = True
                else:
                    data.temporary_furiten = True

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

    # -- draw ------------------------------------------------------------------------------------

    def _check_draw(self, event: Draw) -> str | None:
        if self.phase is Phase.CLAIM:
            problem = self._claim_passes()
            if problem:
                return problem
            expected = (self.last_discarder + 1) % self.players
            if event.seat != expected:
                return f"seat {expected} draws next, not seat {event.seat}"
        elif self.phase is Phase.ROB:
            if self.dora_due and self.rob_kind == "closed_kan":
                return "the closed kan's dora indicator is revealed before the replacement draw"
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
        elif self.phase is Phase.ROB:
            assert self.rob_tile is not None
            self._pass_claims(self.rob_tile, self.turn)
            if self.rob_kind == "added_kan":
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
        if self.first_turn and self.discards_made <= self.players:
            self.first_discards.append(tile)
            if (
                self.discards_made == 4
                and self.players == 4
                and self.ruleset.suufon_renda
                and tile.kind in _WINDS
                and all(first.kind == tile.kind for first in self.first_discards)
            ):
                self.forced_abort = AbortKind.FOUR_WINDS
            if self.discards_made == self.players:  # every seat has had its first turn
                self.first_turn = False
        if self.four_kans_next:
            self.four_kans_next = False
            self.forced_abort = AbortKind.FOUR_KANS
        if self.dora_after_discard:
            self.dora_due += self.dora_after_discard
            self.dora_after_discard = 0

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
        if tile != self.last_discard:
            return f"the last discard is {self.last_discard}, not {tile}"
        if self.tiles_left <= 0:
            return "the last discard of the hand cannot be called, only ronned"
        data = self.seats[seat]
        consumed = event.consumed
        kind = tile.kind
        if isinstance(event, Chi):
            if not self.ruleset.chi:
                return f"chi is not allowed in {self.ruleset.name}"
            if seat != (discarder + 1) % self.players:
                return "chi is only allowed on the discard of the player to the left"
        if data.riichi:
            return f"seat {seat} is in riichi and cannot call"
        if not _can_hold(data, consumed):
            return f"seat {seat} does not hold {' '.join(map(str, consumed))}"
        if isinstance(event, Chi):
            kinds = sorted([kind, *(t.kind for t in consumed)])
            if (
                len(consumed) != 2
                or kind >= EAST
                or any(k // 9 != kind // 9 or k >= EAST for k in kinds)
                or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]
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
            if not any(c and k not in forbidden for k, c in enumerate(remaining)):
                return "after this call every tile left would be a swap call (kuikae)"
        return None

    @staticmethod
    def _swap_kinds(event: Chi | Pon) -> frozenset[int]:
        """Kinds the caller may not discard right after the call (kuikae)."""
        kind = event.tile.kind
        if isinstance(event, Pon):
            return frozenset((kind,))
        others = sorted(t.kind for t in event.consumed)
        forbidden = {kind}
        rank = kind % 9
        if kind < others[0] and rank + 3 <= 8:
            forbidden.add(kind + 3)
        elif kind > others[1] and rank - 3 >= 0:
            forbidden.add(kind - 3)
        return frozenset(forbidden)

    def _call(self, event: Chi | Pon | OpenKan) -> None:
        seat = event.seat
        discarder = event.from_seat
        assert self.last_discard is not None
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
        data.melds.append(Meld(meld_type, (event.tile, *event.consumed)))
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
            (kind in _DRAGONS and "daisangen" in pao and sets >= _DRAGONS)
            or (kind in _WINDS and "daisuushii" in pao and sets >= _WINDS)
            or ("suukantsu" in pao and sum(meld.is_kan for meld in data.melds) == 4)
        ):
            data.liable = discarder

    def _after_kan(self, seat: int, *, open_kan: bool) -> None:
        self.kans += 1
        self.kan_seats.add(seat)
        ruleset = self.ruleset
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

    def _riichi_waits_kept(self, seat: int, removed: list[Tile]) -> bool:
        """In riichi, a closed kan (or kita) must use the drawn tile and keep the waits."""
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
        return bool(before) and before == after

    def _check_closed_kan(self, event: ClosedKan) -> str | None:
        problem = self._own_turn(event.seat) or self._kan_allowed(event.seat)
        if problem:
            return problem
        tiles = event.tiles
        if len(tiles) != 4 or any(tile.kind != tiles[0].kind for tile in tiles):
            return f"a closed kan is four tiles of one kind, not {' '.join(map(str, tiles))}"
        data = self.seats[event.seat]
        if not _can_hold(data, tiles):
            return f"seat {event.seat} does not hold {' '.join(map(str, tiles))}"
        if data.riichi and not self._riichi_waits_kept(event.seat, list(tiles)):
            return "in riichi a closed kan must use the drawn tile and keep the waits"
        return None

    def _closed_kan(self, event: ClosedKan) -> None:
        seat = event.seat
        data = self.seats[seat]
        for tile in event.tiles:
            data.remove(tile)
        data.melds.append(Meld(MeldType.ANKAN, event.tiles))
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
        if self.ruleset.kita_breaks_first_turn:
            self._break_first_turn()
        self.replacement = True
        self.last_draw = None
        self.rob_tile = event.tile
        self.rob_kind = "north"
        self.phase = Phase.ROB

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
        if self.scores[event.seat] < ruleset.riichi_min_points:
            return (
                f"riichi needs {ruleset.riichi_min_points} points; seat {event.seat} has "
                f"{self.scores[event.seat]}"
            )
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

    # -- wins ------------------------------------------------------------------------------------

    def _check_win(self, event: Win) -> str | None:
        try:
            self._pending = self._value_win(event)
        except _Refused as refusal:
            return str(refusal)
        return None

    def _value_win(self, event: Win) -> WinResult:
        seat, tile = event.seat, event.tile
        data = self.seats[seat]
        ruleset = self.ruleset
        rob = False
        if event.tsumo:
            if self.phase is not Phase.ACT or seat != self.turn or self.last_draw is None:
                raise _Refused(f"seat {seat} cannot win by tsumo now ({self._phase_words()})")
            if tile != self.last_draw:
                raise _Refused(f"the tile just drawn is {self.last_draw}, not {tile}")
            concealed = data.tiles()
        else:
            discarder = event.from_seat
            if self.phase is Phase.WON:
                # Another winner on the same tile as the first.
                first = self.win_events[0]
                rob = self.rob_won
                if discarder != first.from_seat or tile != first.tile:
                    raise _Refused(
                        f"the tile won is seat {first.from_seat}'s {first.tile}, "
                        f"not seat {discarder}'s {tile}"
                    )
            elif self.phase is Phase.CLAIM:
                if discarder != self.last_discarder or tile != self.last_discard:
                    raise _Refused(
                        f"the last discard is seat {self.last_discarder}'s {self.last_discard}, "
                        f"not seat {discarder}'s {tile}"
                    )
                if self.forced_abort is AbortKind.FOUR_RIICHI:
                    raise _Refused("the fourth riichi already ended the hand")
                # An open kan's indicator due after the discard (Mahjong Soul) is turned with
                # the discard, before anyone claims it: a ron on that discard counts it.
                blocked = self._dora_blocks()
                if blocked:
                    raise _Refused(blocked)
            elif self.phase is Phase.ROB:
                if discarder != self.turn or tile != self.rob_tile:
                    raise _Refused(f"only seat {self.turn}'s {self.rob_tile} can be robbed now")
                if self.rob_kind == "north" and not ruleset.ron_on_kita:
                    raise _Refused("an extracted North cannot be ronned in these rules")
                rob = self.rob_kind == "added_kan"
            else:
                raise _Refused(f"no ron now ({self._phase_words()})")
            if seat == discarder:
                raise _Refused("a player cannot ron their own tile")
            if self.phase is Phase.WON:
                if len(self.win_events) >= ruleset.max_ron_winners:
                    raise _Refused(
                        f"at most {ruleset.max_ron_winners} player(s) may ron one discard here"
                    )
                if any(win.seat == seat for win in self.win_events):
                    raise _Refused(f"seat {seat} has already won")
                previous = self.win_events[-1].seat
                if (seat - discarder) % self.players < (previous - discarder) % self.players:
                    raise _Refused("several rons are listed in turn order from the discarder")
            if not self.completes(seat, tile.kind):
                raise _Refused(f"{tile} does not complete seat {seat}'s hand")
            if self.furiten(seat):
                raise _Refused(f"seat {seat} is furiten and cannot ron")
            concealed = [*data.tiles(), tile]
            if (
                self.rob_kind == "closed_kan"
                and self.phase is Phase.ROB
                and not ruleset.kokushi_robs_ankan
            ):
                raise _Refused("a closed kan cannot be robbed in these rules")
        conditions = self._conditions(event, rob)
        hand = WinningHand(
            tiles=tuple(concealed),
            win_tile=tile,
            melds=tuple(data.melds),
            dora_indicators=tuple(self.dora_indicators),
            ura_indicators=self._ura() if data.riichi else (),
            conditions=conditions,
            discarder=None if event.tsumo else self.seat_wind(event.from_seat),
            liable=None if data.liable is None else self.seat_wind(data.liable),
        )
        try:
            try:
                score = score_hand(hand, ruleset)
            except InvalidConditionsError:
                if hand.liable is None:
                    raise
                hand = _replace_liable(hand)
                score = score_hand(hand, ruleset)
        except NoYakuError:
            raise _Refused(f"seat {seat}'s hand has no yaku") from None
        except EngineError as error:
            raise _Refused(f"seat {seat}'s win is impossible: {error}") from None
        if (
            self.phase is Phase.ROB
            and self.rob_kind == "closed_kan"
            and not any(name.startswith("kokushi") for name, _ in score.yaku)
        ):
            raise _Refused("only thirteen orphans may rob a closed kan")
        deltas = [0] * self.players
        for payer, amount in score.payments:
            payer_seat = self._seat_of_letter(payer) if payer != "discarder" else event.from_seat
            deltas[payer_seat] -= amount
        deltas[seat] += score.total
        liable = None if hand.liable is None else data.liable
        paid = sum(amount for _, amount in score.payments)
        if event.tsumo:
            points = paid - ruleset.honba_tsumo_each * conditions.honba * len(score.payments)
        else:
            points = paid - ruleset.honba_ron * conditions.honba
        return WinResult(seat, event.from_seat, score, tuple(deltas), liable, conditions, points)

    def _ura(self) -> tuple[Tile, ...]:
        ruleset = self.ruleset
        if not ruleset.ura_dora:
            return ()
        count = len(self.dora_indicators) if ruleset.kan_ura else 1
        if self.wall is not None:
            return self.wall.ura_indicators[:count]
        return self.ura_indicators[:count]

    def _conditions(self, event: Win, rob: bool) -> WinConditions:
        seat = event.seat
        data = self.seats[seat]
        first = self.first_turn
        tsumo = event.tsumo
        dealer = seat == self.dealer
        # The sticks and counters go to one winner of a multiple ron: the first listed (the
        # first in turn order); _settle_sticks moves them where the rules say otherwise.
        takes_sticks = not self.win_events
        last_tile = self.tiles_left <= 0
        return WinConditions(
            tsumo=tsumo,
            riichi=data.riichi and not data.double_riichi,
            double_riichi=data.double_riichi,
            ippatsu=data.ippatsu,
            rinshan=tsumo and self.rinshan,
            chankan=rob,
            haitei=tsumo and last_tile and not self.rinshan,
            houtei=not tsumo and last_tile and not rob and self.rob_kind != "north",
            tenhou=tsumo and first and dealer and data.draws == 1,
            chiihou=tsumo and first and not dealer and data.draws == 1,
            renhou=(
                not tsumo
                and first
                and not dealer
                and data.draws == 0
                and self.ruleset.renhou is not Renhou.NONE
            ),
            seat_wind=self.seat_wind(seat),
            round_wind=self.round_wind,
            honba=self.position.honba if takes_sticks and self.position else 0,
            sticks=self.sticks if takes_sticks else 0,
            kita=data.kita,
        )

    def _win(self, event: Win) -> None:
        result = self._pending
        if self.result is None:
            self.result = HandResult("win")
        self.result.wins.append(result)
        self.win_events.append(event)
        if event.tsumo:
            self.phase = Phase.OVER
        else:
            if self.phase is Phase.ROB:
                self.rob_won = self.rob_kind == "added_kan"
            if self.pending_riichi is not None and event.from_seat == self.pending_riichi:
                # The riichi discard was ronned: the declaration stands, no stick is paid.
                self.pending_riichi = None
            self.phase = Phase.WON

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
            and all(tile.kind in _YAOCHUU for tile in data.river)
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
            distinct = sum(1 for kind_ in _YAOCHUU if data.counts[kind_])
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


class _Refused(Exception):
    """Why a win is not allowed (internal: turned into a reason string)."""


#: Waits by hand (34 counts as bytes). Hands repeat a lot (a tsumogiri leaves the hand as it
#: was), so a game asks each distinct hand once. Cleared when it grows past the bound.
_WAITS_MEMO: dict[bytes, tuple[bool, frozenset[int]]] = {}
_WAITS_MEMO_BOUND = 200_000


def hand_waits(counts: list[int]) -> tuple[bool, frozenset[int]]:
    """Whether a 3n+1-tile hand (34 counts) is one tile from complete, and the kinds that
    complete it. A kind the hand holds four times is never a wait (there is no fifth copy), so a
    hand can be one tile from complete yet wait on nothing."""
    key = bytes(counts)
    found = _WAITS_MEMO.get(key)
    if found is not None:
        return found
    near = sum(counts) % 3 == 1 and shanten(counts) == 0
    waits: frozenset[int] = frozenset()
    if near:
        work = list(counts)
        found_kinds = []
        for kind in _candidate_kinds(work):
            if work[kind] >= 4:
                continue
            work[kind] += 1
            if shanten(work) == -1:
                found_kinds.append(kind)
            work[kind] -= 1
        waits = frozenset(found_kinds)
    if len(_WAITS_MEMO) >= _WAITS_MEMO_BOUND:
        _WAITS_MEMO.clear()
    found = _WAITS_MEMO[key] = (near, waits)
    return found


def _candidate_kinds(counts: list[int]) -> list[int]:
    """Kinds that might complete a hand: those held and their neighbours within two ranks, and
    every terminal and honour (thirteen orphans)."""
    candidates = set(YAOCHUU)
    for kind, count in enumerate(counts):
        if count:
            candidates.add(kind)
            if kind < EAST:
                rank = kind % 9
                for step in (-2, -1, 1, 2):
                    if 0 <= rank + step <= 8:
                        candidates.add(kind + step)
    return sorted(candidates)


def _copies(data: _Seat, kind: int) -> list[Tile]:
    """The seat's tiles of one kind, plain ones first (calls keep red fives when they can)."""
    count = data.counts[kind]
    red = data.reds[kind // 9] if kind < EAST and kind % 9 == 4 else 0
    plain = [_PLAIN_TILES[kind]] * (count - red)
    return plain + [_RED_TILES[kind // 9]] * red if red else plain


def _with_deltas(win: WinResult, deltas: list[int]) -> WinResult:
    return dataclasses.replace(win, deltas=tuple(deltas))


def _replace_liable(hand: WinningHand) -> WinningHand:
    return WinningHand(
        tiles=hand.tiles,
        win_tile=hand.win_tile,
        melds=hand.melds,
        dora_indicators=hand.dora_indicators,
        ura_indicators=hand.ura_indicators,
        conditions=hand.conditions,
        discarder=hand.discarder,
        liable=None,
    )
