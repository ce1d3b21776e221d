"""The Ùzje state machine: one hand (a deal, the document's *game*) from the deal to its end,
event by event (seeds/002 "Game start" and "Main game", lines 48-97), and the scores across the
match.

:meth:`UzjeState.apply` checks an event against the rules and applies it, raising
:class:`~engine.errors.IllegalActionError` with a message that names what is wrong;
:meth:`UzjeState.legal_actions` lists what may happen next (for bots). Between hands
:meth:`UzjeState.end_round` settles the scores and says who deals next. The messages keep the
document's words: a hand is a *game* there, as in the replay's (:mod:`~.replay`).

**A turn** (line 66): the player to play holds 14 tiles (a declared meld counts as three). They
must first expose every flower, one at a time, each followed by a replacement draw from the back
of the wall (line 67); then they may win, declare a closed quad or add a tile to a claimed trip
(each quad followed by a replacement draw from the back and a new bonus tile, line 79-82), and
finally discard. A win or a quad on one's own turn needs the 14th tile to come from the wall (or
the deal): after claiming a trip or an arith the player discards (the win should have been claimed
instead; a quad is declared only "otherwise", line 70, when the tile did not come from someone
else).

**A discard** (lines 92-96) may be won on by any other player (several may win; the wins are
recorded in turn order from the discarder), claimed for a trip or a quad by any other player, or
for an arith by the next player only; wins come before trips and quads, which come before
ariths. Otherwise the next player draws from the front. The last discard (the wall is empty) may
only be won on; if nobody does, the hand is an exhaustive draw. A flower exposed on an empty wall
has no replacement: the hand is an exhaustive draw too.

**Choices** (docs/variants/uzje.md): no furiten (it is riichi's); gems and powers are not claimed
unless ``claim_gems_powers``; standard quad robbing takes only a tile added to a claimed trip,
and thirteen and fourteen orphans may also rob a closed quad (``orphans_rob_any_quad``); a claimed
quad is not robbed (its tile was a discard anyone could win on). Six flowers is won right after
exposing the sixth flower, crossing the sea after the eighth, ivies on the wall on another
player's eighth.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, cast

from engine.errors import EngineError, IllegalActionError, NotationError
from engine.events import (
    AddedKan,
    ClosedKan,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    OpenKan,
    Pon,
    Round,
    ScoreChange,
    Win,
)
from engine.game_flow import RoundPosition
from engine.tiles import Tile
from engine.variants.uzje.events import BonusRevealed, Chow, FlowerExposed, UzjeEvent
from engine.variants.uzje.flow import next_position, seat_wind
from engine.variants.uzje.rules import UzjeRules
from engine.variants.uzje.scoring import (
    HandValue,
    Points,
    SpecialWin,
    WinConditions,
    best_value,
    bonus_kind,
    normal,
    payments,
)
from engine.variants.uzje.shapes import (
    Form,
    Meld,
    Shape,
    classify,
    is_complete,
    melds_completed_by,
    special_form,
)
from engine.variants.uzje.tiles import (
    FIRST_FLOWER,
    KINDS,
    check_counts,
    copies,
    format_kind,
    format_kinds,
    kind_of,
    tile,
)


class UzjePhase(StrEnum):
    """Where an Ùzje hand is between two events (riichi's are
    :class:`engine.state.Phase`)."""

    #: ``turn`` holds 14 tiles: expose a flower, win, declare a quad, or discard.
    ACT = "act"
    #: After a discard: wins, a trip or quad, an arith by the next player, or the next draw.
    CLAIM = "claim"
    #: After a flower: flower wins, then the replacement draw.
    FLOWER = "flower"
    #: After a quad: robbing wins, then the replacement draw.
    QUAD = "quad"
    #: After a quad's replacement draw: the next bonus tile is shown.
    BONUS = "bonus"
    #: Somebody won; only more wins on the same tile may follow.
    WON = "won"
    #: Exhaustive draw.
    OVER = "over"


class DrawSource(StrEnum):
    """Where the tile that made a player's 14 came from (what a self-drawn win is worth)."""

    DEAL = "deal"
    WALL = "wall"
    FLOWER = "flower"  # replacement for a flower
    QUAD = "quad"  # replacement for a quad (or for a flower drawn as a quad's replacement)


@dataclass(slots=True)
class SeatState:
    """One player's tiles."""

    #: Concealed tiles by kind, flowers not included.
    counts: list[int]
    #: Flowers in the hand, not yet exposed.
    held_flowers: list[int] = field(default_factory=list)
    #: Exposed flowers, in order.
    flowers: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    #: Draws from the wall (the turns the player had).
    draws: int = 0
    #: Melds claimed from a discard.
    claims: int = 0

    @property
    def size(self) -> int:
        """Tiles held, a declared meld counting as three."""
        return sum(self.counts) + len(self.held_flowers) + 3 * len(self.melds)

    @property
    def open(self) -> bool:
        return any(meld.open for meld in self.melds)

    def concealed(self) -> list[int]:
        """Concealed kinds, sorted, held flowers included."""
        return [k for k, c in enumerate(self.counts) for _ in range(c)] + self.held_flowers


@dataclass(frozen=True, slots=True)
class UzjeWin:
    """One win as the engine values it (riichi's is :class:`engine.state.WinResult`)."""

    seat: int
    from_seat: int
    tile: int
    value: HandValue
    #: Score change of every seat (a half under ``exact``: see ``scoring.Points``).
    deltas: tuple[Points, ...]
    special: SpecialWin | None = None


@dataclass(frozen=True, slots=True)
class UzjeHandResult:
    """How a hand ended: ``win`` or ``exhaustive_draw``, the wins, the score changes (riichi's
    is :class:`engine.state.HandResult`)."""

    kind: str
    wins: tuple[UzjeWin, ...]
    deltas: tuple[Points, ...]


class UzjeState:
    """The table during one hand, and the scores across the match: Ùzje's
    :class:`engine.table.Table`, which the shared replay and framer loops drive."""

    def __init__(self, rules: UzjeRules, first_dealer: int = 0) -> None:
        self.rules = rules
        self.players = rules.players
        self.first_dealer = first_dealer
        #: Every seat's score (halves under ``exact``: see ``scoring.Points``).
        self.scores: list[Points] = [rules.starting_points] * rules.players
        #: Hands played to their end so far (for ``fixed_games``).
        self.hands_played = 0
        self._in_play = frozenset(rules.kinds)
        self.phase = UzjePhase.OVER
        self.position = RoundPosition(0, 1, first_dealer, 0, 0)
        self.seats: list[SeatState] = []
        self.result: UzjeHandResult | None = None

    # -- the deal ---------------------------------------------------------------------------

    def start_round(self, round_: Round) -> None:
        """Deal a hand as the record gives it: the scores, the dealer 14 tiles, the others 13,
        and the first bonus tile. A known wall (``round_.wall``: ``live`` the live wall from
        front to back, ``dora_indicators`` the dead wall in reveal order) is checked draw by
        draw."""
        rules = self.rules
        players = self.players
        if len(round_.hands) != players:
            raise IllegalActionError(
                f"{players} hands are dealt, the record has {len(round_.hands)}"
            )
        if not 0 <= round_.dealer < players:
            raise IllegalActionError(f"the dealer must be a seat 0-{players - 1}")
        self.position = RoundPosition(
            round_.wind, round_.number, round_.dealer, round_.honba, round_.sticks
        )
        # One score a seat (a record that says otherwise is a start-scores mismatch already).
        self.scores = [
            round_.scores[seat] if seat < len(round_.scores) else 0 for seat in range(players)
        ]
        self.dealer = round_.dealer
        self.round_wind = round_.wind % 4
        self.seen = [0] * KINDS
        self.seats = []
        for seat, hand in enumerate(round_.hands):
            want = 14 if seat == round_.dealer else 13
            if len(hand) != want:
                raise IllegalActionError(f"seat {seat} is dealt {len(hand)} tiles, not {want}")
            kinds = self._kinds(hand, f"seat {seat}'s hand")
            counts = [0] * KINDS
            held_flowers = []
            for kind in kinds:
                if kind >= FIRST_FLOWER:
                    held_flowers.append(kind)
                else:
                    counts[kind] += 1
            self.seats.append(SeatState(counts, held_flowers))
            for kind in kinds:
                self.seen[kind] += 1
        if len(round_.dora_indicators) != 1:
            raise IllegalActionError("a game starts with exactly one bonus tile shown")
        first_bonus = self._kinds(round_.dora_indicators, "the first bonus tile")[0]
        self.seen[first_bonus] += 1
        self._check_seen("the deal")
        self.bonus_shown = [first_bonus]
        self.live_left = rules.live_wall
        self.front = 0
        self.back = 0
        self.wall: tuple[int, ...] | None = None
        self.dead: tuple[int, ...] | None = None
        if round_.wall is not None:
            if round_.wall.replacements or round_.wall.ura_indicators:
                raise IllegalActionError(
                    "an Ùzje wall has no replacement or ura tiles: replacements come from the "
                    "back of the live wall"
                )
            self.wall = tuple(self._kinds(round_.wall.live, "the wall"))
            self.dead = tuple(self._kinds(round_.wall.dora_indicators, "the dead wall"))
            if len(self.wall) != rules.live_wall or len(self.dead) != rules.dead_wall:
                raise IllegalActionError(
                    f"the wall has {len(self.wall)} live and {len(self.dead)} dead tiles; "
                    f"this table has {rules.live_wall} and {rules.dead_wall}"
                )
            if self.dead[0] != first_bonus:
                raise IllegalActionError("the first bonus tile is not the dead wall's first tile")
            everything = [*self.wall, *self.dead]
            for hand in round_.hands:
                everything.extend(self._kinds(hand, "a hand"))
            if sorted(everything) != sorted(rules.tiles()):
                raise IllegalActionError("the hands and the wall are not exactly the tile set")
        self.turn = round_.dealer
        self.phase = UzjePhase.ACT
        self.last_draw: int | None = None
        self.source: DrawSource | None = DrawSource.DEAL
        self.quad_chain = 0
        self.discard: tuple[int, int] | None = None
        self.last_discard_final = False
        self.quad: tuple[int, int, str] | None = None
        self.flower: tuple[int, int] | None = None
        self.win_source: tuple[int, int, UzjePhase] | None = None
        self.wins: list[UzjeWin] = []
        self.result = None
        self.score_changes: list[Points] = [0] * self.players

    def _kinds(self, tiles: Sequence[Tile], what: str) -> list[int]:
        try:
            kinds = [kind_of(value) for value in tiles]
            check_counts(kinds, self._in_play, what)
        except NotationError as error:
            raise IllegalActionError(str(error)) from None
        return kinds

    def _check_seen(self, what: str, kind: int | None = None) -> None:
        """Refuse more copies of a tile than exist among the tiles seen so far (of ``kind``
        only, when one tile was just added)."""
        for index in range(KINDS) if kind is None else (kind,):
            count = self.seen[index]
            if count > copies(index):
                raise IllegalActionError(
                    f"{what} makes {count} copies of {format_kind(index)}; there are "
                    f"{copies(index)}"
                )

    # -- applying events ----------------------------------------------------------------------

    def apply(self, event: UzjeEvent) -> None:
        """Check an event and apply it; :class:`IllegalActionError` says why it is refused."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise IllegalActionError(f"{type(event).__name__} is not an Ùzje event")
        ended = self.phase is UzjePhase.OVER or (
            self.phase is UzjePhase.WON and type(event) is not Win
        )
        if ended and type(event) is not ScoreChange:
            raise IllegalActionError(f"the game is over; no {event.type} after its end")
        handler(self, event)

    def push(self, event: Event | UzjeEvent) -> str | None:
        """Check an event and apply it: ``None`` when applied, else why it is refused (an
        illegal action, or a tile of another game)."""
        try:
            self.apply(cast(UzjeEvent, event))
        except EngineError as error:
            return str(error)
        return None

    def push_events(self, events: Sequence[Event | UzjeEvent]) -> tuple[int, str] | None:
        """:meth:`push` each event in turn, stopping at the first refused: its index and why,
        or ``None`` when every event was applied."""
        apply = self.apply
        for number, event in enumerate(events):
            try:
                apply(cast(UzjeEvent, event))
            except EngineError as error:
                return number, str(error)
        return None

    def why_illegal(self, event: UzjeEvent) -> str | None:
        """Why an event would be refused, without applying it (``None``: legal)."""
        snapshot = self._snapshot()
        try:
            self.apply(event)
        except IllegalActionError as error:
            return str(error)
        finally:
            self._restore(snapshot)
        return None

    def _snapshot(self) -> dict[str, object]:
        copied: dict[str, object] = {}
        for name, value in vars(self).items():
            if name == "seats":
                copied[name] = [
                    SeatState(
                        list(s.counts),
                        list(s.held_flowers),
                        list(s.flowers),
                        list(s.melds),
                        list(s.discards),
                        s.draws,
                        s.claims,
                    )
                    for s in self.seats
                ]
            elif isinstance(value, list):
                copied[name] = list(value)
            else:
                copied[name] = value
        return copied

    def _restore(self, snapshot: dict[str, object]) -> None:
        for name, value in snapshot.items():
            setattr(self, name, value)

    def _seat(self, seat: int) -> SeatState:
        if not 0 <= seat < self.players:
            raise IllegalActionError(f"seat {seat} does not exist at a {self.players}-player table")
        return self.seats[seat]

    def _kind(self, value: Tile) -> int:
        try:
            kind = kind_of(value)
        except NotationError as error:
            raise IllegalActionError(str(error)) from None
        if kind not in self._in_play:
            raise IllegalActionError(f"{format_kind(kind)} is not in play at this table")
        return kind

    def _take(self, seat: int, kinds: Sequence[int], what: str) -> None:
        """Remove concealed tiles from a hand, refusing tiles not held."""
        data = self.seats[seat]
        needed = [0] * KINDS
        for kind in kinds:
            needed[kind] += 1
        for kind, count in enumerate(needed):
            if count and data.counts[kind] < count:
                raise IllegalActionError(
                    f"seat {seat} {what} with {count} x {format_kind(kind)} but holds "
                    f"{data.counts[kind]} (hand {format_kinds(data.concealed())})"
                )
        for kind in kinds:
            data.counts[kind] -= 1

    def _expect_act(self, seat: int, what: str) -> SeatState:
        if self.phase is not UzjePhase.ACT:
            raise IllegalActionError(f"seat {seat} cannot {what} now ({self._phase_words()})")
        if seat != self.turn:
            raise IllegalActionError(f"seat {seat} cannot {what}: it is seat {self.turn}'s turn")
        data = self._seat(seat)
        if data.held_flowers:
            raise IllegalActionError(
                f"seat {seat} must expose its flower(s) {format_kinds(data.held_flowers)} first"
            )
        return data

    def _phase_words(self) -> str:
        if self.phase is UzjePhase.ACT:
            return f"seat {self.turn} is to play"
        if self.phase is UzjePhase.CLAIM:
            return "a discard waits for claims"
        if self.phase is UzjePhase.FLOWER:
            return f"seat {self.turn} is to draw a flower's replacement"
        if self.phase is UzjePhase.QUAD:
            return f"seat {self.turn} is to draw a quad's replacement"
        if self.phase is UzjePhase.BONUS:
            return "a bonus tile is to be shown"
        return f"the game is {self.phase.value}"

    # -- draws ----------------------------------------------------------------------------------

    def _draw(self, event: Draw) -> None:
        seat = event.seat
        data = self._seat(seat)
        kind = self._kind(event.tile)
        if self.phase is UzjePhase.CLAIM:
            if self.discard is None:
                raise IllegalActionError("no discard to pass")
            nxt = (self.discard[0] + 1) % self.players
            if seat != nxt:
                raise IllegalActionError(f"seat {seat} cannot draw: seat {nxt} draws next")
            from_back = False
            source = DrawSource.WALL
        elif self.phase in (UzjePhase.FLOWER, UzjePhase.QUAD):
            if seat != self.turn:
                raise IllegalActionError(
                    f"seat {seat} cannot draw: seat {self.turn} draws the replacement"
                )
            from_back = True
            if self.phase is UzjePhase.QUAD or self.source is DrawSource.QUAD:
                source = DrawSource.QUAD
            else:
                source = DrawSource.FLOWER
        else:
            raise IllegalActionError(f"seat {seat} cannot draw now ({self._phase_words()})")
        if self.live_left == 0:
            raise IllegalActionError("the wall is empty: no tile to draw")
        if self.wall is not None:
            expected = self.wall[-1 - self.back] if from_back else self.wall[self.front]
            if kind != expected:
                end = "back" if from_back else "front"
                raise IllegalActionError(
                    f"seat {seat} draws {format_kind(kind)}, but the {end} of the wall is "
                    f"{format_kind(expected)}"
                )
        self.seen[kind] += 1
        self._check_seen(f"seat {seat}'s draw", kind)
        if from_back:
            self.back += 1
        else:
            self.front += 1
        self.live_left -= 1
        if kind >= FIRST_FLOWER:
            data.held_flowers.append(kind)
        else:
            data.counts[kind] += 1
        data.draws += 1
        was_quad = self.phase is UzjePhase.QUAD
        self.turn = seat
        self.last_draw = kind
        self.source = source
        self.discard = None
        if source is not DrawSource.QUAD:
            self.quad_chain = 0
        if was_quad and len(self.bonus_shown) < self.rules.dead_wall:
            self.phase = UzjePhase.BONUS
        else:
            self.phase = UzjePhase.ACT

    def _bonus(self, event: BonusRevealed) -> None:
        if self.phase is not UzjePhase.BONUS:
            raise IllegalActionError(f"no bonus tile is due ({self._phase_words()})")
        kind = self._kind(event.tile)
        if self.dead is not None and kind != self.dead[len(self.bonus_shown)]:
            raise IllegalActionError(
                f"the next bonus tile is {format_kind(self.dead[len(self.bonus_shown)])}, "
                f"not {format_kind(kind)}"
            )
        self.seen[kind] += 1
        self._check_seen("the bonus tile", kind)
        self.bonus_shown.append(kind)
        self.phase = UzjePhase.ACT

    # -- the turn -------------------------------------------------------------------------------

    def _flower(self, event: FlowerExposed) -> None:
        seat = event.seat
        kind = self._kind(event.tile)
        if self.phase is not UzjePhase.ACT or seat != self.turn:
            raise IllegalActionError(
                f"seat {seat} cannot expose a flower now ({self._phase_words()})"
            )
        data = self._seat(seat)
        if kind not in data.held_flowers:
            raise IllegalActionError(
                f"seat {seat} does not hold the flower {format_kind(kind)} "
                f"(hand {format_kinds(data.concealed())})"
            )
        data.held_flowers.remove(kind)
        data.flowers.append(kind)
        self.flower = (seat, kind)
        self.phase = UzjePhase.FLOWER

    def _discard(self, event: Discard) -> None:
        seat = event.seat
        data = self._expect_act(seat, "discard")
        kind = self._kind(event.tile)
        if kind >= FIRST_FLOWER:
            raise IllegalActionError("flowers cannot be discarded (line 91)")
        if event.tsumogiri and kind != self.last_draw:
            raise IllegalActionError(
                f"seat {seat} discards {format_kind(kind)} as the tile just drawn, but drew "
                f"{'nothing' if self.last_draw is None else format_kind(self.last_draw)}"
            )
        if not event.tsumogiri and kind == self.last_draw and data.counts[kind] == 1:
            raise IllegalActionError(
                f"seat {seat}'s only {format_kind(kind)} is the tile just drawn: tsumogiri"
            )
        self._take(seat, [kind], "discards")
        data.discards.append(kind)
        self.discard = (seat, kind)
        self.last_discard_final = self.live_left == 0
        self.phase = UzjePhase.CLAIM
        self.last_draw = None
        self.quad_chain = 0

    def _closed_quad(self, event: ClosedKan) -> None:
        seat = event.seat
        data = self._expect_act(seat, "declare a closed quad")
        kinds = [self._kind(value) for value in event.tiles]
        meld = classify(kinds)
        if meld is None or meld.shape is not Shape.QUAD:
            raise IllegalActionError(
                f"a closed quad is four identical tiles, not {format_kinds(kinds)}"
            )
        self._quad_allowed(seat)
        self._take(seat, kinds, "declares a closed quad")
        data.melds.append(meld)
        self._after_quad(seat, kinds[0], "closed")

    def _added_quad(self, event: AddedKan) -> None:
        seat = event.seat
        data = self._expect_act(seat, "add to a trip")
        kind = self._kind(event.tile)
        index = next(
            (
                position
                for position, meld in enumerate(data.melds)
                if meld.shape is Shape.TRIP and meld.open and meld.kinds[0] == kind
            ),
            -1,
        )
        if index < 0:
            raise IllegalActionError(f"seat {seat} has no claimed trip of {format_kind(kind)}")
        self._quad_allowed(seat)
        self._take(seat, [kind], "adds to a trip")
        data.melds[index] = Meld(Shape.QUAD, (kind,) * 4, None, True)
        self._after_quad(seat, kind, "added")

    def _quad_allowed(self, seat: int) -> None:
        if self.live_left == 0:
            raise IllegalActionError(f"seat {seat} cannot declare a quad: the wall is empty")
        if self.source is None:
            # The turn (lines 66-71): a tile got from someone else completes the claimed meld
            # ("see 'claiming a tile'"); "Otherwise", a quad may be declared. After a claimed
            # trip or arith the player discards.
            raise IllegalActionError(
                f"seat {seat} claimed its 14th tile and must discard; a quad is declared on a "
                "turn whose tile came from the wall"
            )

    def _after_quad(self, seat: int, kind: int, how: str) -> None:
        # A multi-quad draw: a closed quad declared right after a quad's replacement draw.
        if how == "closed" and self.source is DrawSource.QUAD and self.last_draw is not None:
            self.quad_chain += 1
        else:
            self.quad_chain = 1
        self.quad = (seat, kind, how)
        self.turn = seat
        self.phase = UzjePhase.QUAD
        self.last_draw = None

    # -- claims ---------------------------------------------------------------------------------

    def _claim_check(self, seat: int, from_seat: int, tile_value: Tile) -> int:
        """The claimed kind, once the claim is checked against the waiting discard."""
        if self.phase is not UzjePhase.CLAIM or self.discard is None:
            raise IllegalActionError(
                f"seat {seat} cannot claim: no discard waits ({self._phase_words()})"
            )
        self._seat(seat)
        kind = self._kind(tile_value)
        discarder, discarded = self.discard
        if from_seat != discarder or kind != discarded:
            raise IllegalActionError(
                f"the discard is {format_kind(discarded)} from seat {discarder}, not "
                f"{format_kind(kind)} from seat {from_seat}"
            )
        if seat == discarder:
            raise IllegalActionError(f"seat {seat} cannot claim its own discard")
        if self.live_left == 0:
            raise IllegalActionError("the last discard may only be won on, not claimed for a meld")
        return kind

    def _claimed(self, seat: int, meld: Meld) -> None:
        data = self.seats[seat]
        data.melds.append(meld)
        data.claims += 1
        assert self.discard is not None
        self.seats[self.discard[0]].discards.pop()
        self.turn = seat
        self.discard = None
        self.last_draw = None
        self.source = None
        self.quad_chain = 0

    def _trip(self, event: Pon) -> None:
        kind = self._claim_check(event.seat, event.from_seat, event.tile)
        consumed = [self._kind(value) for value in event.consumed]
        if consumed != [kind, kind]:
            raise IllegalActionError(
                f"a trip of {format_kind(kind)} is claimed with two more of it, not "
                f"{format_kinds(consumed)}"
            )
        self._take(event.seat, consumed, "claims a trip")
        self._claimed(event.seat, Meld(Shape.TRIP, (kind,) * 3, None, True))
        self.phase = UzjePhase.ACT

    def _open_quad(self, event: OpenKan) -> None:
        kind = self._claim_check(event.seat, event.from_seat, event.tile)
        consumed = [self._kind(value) for value in event.consumed]
        if consumed != [kind] * 3:
            raise IllegalActionError(
                f"a quad of {format_kind(kind)} is claimed with three more of it, not "
                f"{format_kinds(consumed)}"
            )
        self._take(event.seat, consumed, "claims a quad")
        self._claimed(event.seat, Meld(Shape.QUAD, (kind,) * 4, None, True))
        self._after_quad(event.seat, kind, "open")

    def _chow(self, event: Chow) -> None:
        kind = self._claim_check(event.seat, event.from_seat, event.tile)
        if event.seat != (event.from_seat + 1) % self.players:
            raise IllegalActionError(
                f"seat {event.seat} cannot claim an arith from seat {event.from_seat}: only the "
                f"next player (seat {(event.from_seat + 1) % self.players}) can"
            )
        consumed = [self._kind(value) for value in event.consumed]
        meld = classify([*consumed, kind], open=True)
        allowed = (
            (Shape.ARITH, Shape.GEM, Shape.POWER)
            if self.rules.claim_gems_powers
            else (Shape.ARITH,)
        )
        if len(consumed) != 2 or meld is None or meld.shape not in allowed:
            what = "an arith, gem or power" if self.rules.claim_gems_powers else "an arith"
            raise IllegalActionError(f"{format_kinds([*consumed, kind])} is not {what} to claim")
        self._take(event.seat, consumed, "claims an arith")
        self._claimed(event.seat, meld)
        self.phase = UzjePhase.ACT

    # -- wins -----------------------------------------------------------------------------------

    def _conditions(self, seat: int, self_draw: bool, **extra: object) -> WinConditions:
        return WinConditions(
            seat_wind=seat_wind(seat, self.dealer, self.players),
            round_wind=self.round_wind,
            self_draw=self_draw,
            bonus=tuple(bonus_kind(kind, self.rules) for kind in self.bonus_shown),
            flowers=tuple(self.seats[seat].flowers),
            **extra,  # type: ignore[arg-type]
        )

    def _win(self, event: Win) -> None:
        seat, from_seat = event.seat, event.from_seat
        data = self._seat(seat)
        self._seat(from_seat)
        kind = self._kind(event.tile)
        if self.phase is UzjePhase.WON:
            self._more_wins(event, kind)
            return
        if self.phase is UzjePhase.ACT:
            value = self._self_draw_value(seat, from_seat, kind, data)
            special = None
            source_phase = UzjePhase.ACT
        elif self.phase is UzjePhase.CLAIM:
            value = self._claim_value(seat, from_seat, kind, data)
            special = None
            source_phase = UzjePhase.CLAIM
        elif self.phase is UzjePhase.FLOWER:
            value, special = self._flower_value(seat, from_seat, kind)
            source_phase = UzjePhase.FLOWER
        elif self.phase is UzjePhase.QUAD:
            value = self._rob_value(seat, from_seat, kind, data)
            special = None
            source_phase = UzjePhase.QUAD
        else:
            raise IllegalActionError(f"seat {seat} cannot win now ({self._phase_words()})")
        self._record_win(seat, from_seat, kind, value, special)
        self.win_source = (from_seat, kind, source_phase)
        self.phase = UzjePhase.WON

    def _record_win(
        self, seat: int, from_seat: int, kind: int, value: HandValue, special: SpecialWin | None
    ) -> None:
        payer = None if seat == from_seat else from_seat
        deltas = payments(value.points, seat, payer, self.players, self.rules)
        self.wins.append(UzjeWin(seat, from_seat, kind, value, tuple(deltas), special))

    def _more_wins(self, event: Win, kind: int) -> None:
        assert self.win_source is not None
        from_seat, won_kind, phase = self.win_source
        seat = event.seat
        if phase is UzjePhase.ACT or event.from_seat != from_seat or kind != won_kind:
            raise IllegalActionError(
                f"after the win, only other wins on the same tile ({format_kind(won_kind)} from "
                f"seat {from_seat}) may follow"
            )
        last = self.wins[-1].seat
        if (seat - from_seat) % self.players <= (last - from_seat) % self.players:
            raise IllegalActionError(
                f"wins on one tile are recorded in turn order from seat {from_seat}: seat "
                f"{seat} comes before seat {last}"
            )
        data = self._seat(seat)
        self.phase = phase
        try:
            if phase is UzjePhase.CLAIM:
                value = self._claim_value(seat, from_seat, kind, data)
                special = None
            elif phase is UzjePhase.QUAD:
                value = self._rob_value(seat, from_seat, kind, data)
                special = None
            else:
                value, special = self._flower_value(seat, from_seat, kind)
        finally:
            self.phase = UzjePhase.WON
        self._record_win(seat, from_seat, kind, value, special)

    def _valued(
        self, seat: int, counts: list[int], kind: int, conditions: WinConditions
    ) -> HandValue:
        data = self.seats[seat]
        value = best_value(counts, data.melds, kind, conditions, self.rules)
        hand = format_kinds(k for k, c in enumerate(counts) for _ in range(c))
        if value is None:
            raise IllegalActionError(
                f"seat {seat}'s hand {hand} with its melds is not a winning hand"
            )
        if not value.wins:
            fan = value.fan / 10
            raise IllegalActionError(
                f"seat {seat}'s hand {hand} is worth {fan:g} f, below the {self.rules.min_fan:g} f "
                "needed to win"
            )
        return value

    def _self_draw_value(self, seat: int, from_seat: int, kind: int, data: SeatState) -> HandValue:
        if seat != self.turn or from_seat != seat:
            raise IllegalActionError(
                f"seat {seat} cannot win by self-draw: it is seat {self.turn}'s turn"
                if seat != self.turn
                else f"on its own turn seat {seat} can only win by self-draw"
            )
        if data.held_flowers:
            raise IllegalActionError(f"seat {seat} must expose its flowers before going out")
        if self.source is None:
            raise IllegalActionError(
                f"seat {seat} claimed its 14th tile and must discard; a win on a discard is "
                "claimed as a win"
            )
        if self.last_draw is not None and kind != self.last_draw:
            raise IllegalActionError(
                f"seat {seat} wins on {format_kind(kind)}, but drew {format_kind(self.last_draw)}"
            )
        if data.counts[kind] == 0:
            raise IllegalActionError(f"seat {seat} does not hold {format_kind(kind)}")
        chain = self.quad_chain if self.source is DrawSource.QUAD else 0
        conditions = self._conditions(
            seat,
            True,
            sea_scoop=self.live_left == 0 and self.source is not DrawSource.DEAL,
            quad_chain=chain,
        )
        return self._valued(seat, list(data.counts), kind, conditions)

    def _claim_value(self, seat: int, from_seat: int, kind: int, data: SeatState) -> HandValue:
        assert self.discard is not None
        discarder, discarded = self.discard
        if from_seat != discarder or kind != discarded or seat == discarder:
            raise IllegalActionError(
                f"seat {seat} can only win on the discard {format_kind(discarded)} from seat "
                f"{discarder}"
            )
        counts = list(data.counts)
        counts[kind] += 1
        conditions = self._conditions(seat, False, pond_scoop=self.last_discard_final)
        return self._valued(seat, counts, kind, conditions)

    def _rob_value(self, seat: int, from_seat: int, kind: int, data: SeatState) -> HandValue:
        assert self.quad is not None
        declarer, quad_kind, how = self.quad
        if from_seat != declarer or kind != quad_kind or seat == declarer:
            raise IllegalActionError(
                f"seat {seat} can only rob the quad of {format_kind(quad_kind)} from seat "
                f"{declarer}"
            )
        counts = list(data.counts)
        counts[kind] += 1
        if how != "added":
            orphans = special_form(counts, data.melds, self.rules.full_winds)
            if how == "open":
                raise IllegalActionError(
                    "a claimed quad is not robbed: its tile was a discard anyone could win on"
                )
            if not self.rules.orphans_rob_any_quad:
                raise IllegalActionError("a closed quad cannot be robbed")
            if orphans not in (Form.THIRTEEN_ORPHANS, Form.FOURTEEN_ORPHANS):
                raise IllegalActionError(
                    "a closed quad can only be robbed for thirteen or fourteen orphans"
                )
        conditions = self._conditions(seat, False, quad_rob=True)
        return self._valued(seat, counts, kind, conditions)

    def _flower_value(self, seat: int, from_seat: int, kind: int) -> tuple[HandValue, SpecialWin]:
        assert self.flower is not None
        exposer, flower = self.flower
        if from_seat != exposer or kind != flower:
            raise IllegalActionError(
                f"a flower win is on the flower {format_kind(flower)} just exposed by seat "
                f"{exposer}"
            )
        own = self.seats[seat].flowers
        if seat == exposer:
            if len(own) == 8:
                special = SpecialWin.CROSSING_THE_SEA
            elif len(own) == 6:
                special = SpecialWin.SIX_FLOWERS
            else:
                raise IllegalActionError(
                    f"seat {seat} has {len(own)} flowers: six flowers is won on the sixth, "
                    "crossing the sea on the eighth"
                )
        elif len(own) == 7:
            special = SpecialWin.IVIES_ON_THE_WALL
        else:
            raise IllegalActionError(
                f"seat {seat} has {len(own)} flowers: ivies on the wall needs seven"
            )
        value = best_value(
            [], (), kind, self._conditions(seat, seat == exposer, special=special), self.rules
        )
        assert value is not None
        return value, special

    # -- the end ----------------------------------------------------------------------------------

    def _exhaustive(self, event: ExhaustiveDraw) -> None:
        if self.live_left != 0 or self.phase not in (UzjePhase.CLAIM, UzjePhase.FLOWER):
            raise IllegalActionError(
                f"no exhaustive draw: {self.live_left} tile(s) left to draw ({self._phase_words()})"
            )
        self.phase = UzjePhase.OVER

    def _score_change(self, event: ScoreChange) -> None:
        if len(event.deltas) != self.players:
            raise IllegalActionError(f"a score change has one delta per seat ({self.players})")
        for seat, delta in enumerate(event.deltas):
            self.score_changes[seat] = normal(self.score_changes[seat] + delta)

    @property
    def finished(self) -> bool:
        """The hand has ended (a win or an exhaustive draw)."""
        return self.phase in (UzjePhase.WON, UzjePhase.OVER)

    def settle(self) -> UzjeHandResult:
        """The hand's result (once it is finished)."""
        if not self.finished:
            raise IllegalActionError(f"the game has not ended ({self._phase_words()})")
        deltas: list[Points] = [0] * self.players
        for win in self.wins:
            for seat, delta in enumerate(win.deltas):
                deltas[seat] = normal(deltas[seat] + delta)
        kind = "win" if self.wins else "exhaustive_draw"
        self.result = UzjeHandResult(kind, tuple(self.wins), tuple(deltas))
        return self.result

    def end_round(self) -> RoundPosition | None:
        """Settle the finished hand into the scores and return the next hand's position
        (``None``: the match is over)."""
        result = self.result if self.result is not None else self.settle()
        for seat in range(self.players):
            change = result.deltas[seat] + self.score_changes[seat]
            self.scores[seat] = normal(self.scores[seat] + change)
        self.hands_played += 1
        dealer_won = any(win.seat == self.dealer for win in result.wins)
        keeps = dealer_won or (not result.wins and self.rules.draw_keeps_dealer)
        self.phase = UzjePhase.OVER
        return next_position(
            self.position,
            self.rules,
            dealer_keeps=keeps,
            hands_played=self.hands_played,
            first_dealer=self.first_dealer,
        )

    # -- what may happen next ---------------------------------------------------------------------

    def legal_actions(self) -> list[UzjeEvent]:
        """Every event legal now (draws and bonus tiles only when the wall is known)."""
        out: list[UzjeEvent] = []
        if self.phase is UzjePhase.ACT:
            out.extend(self._turn_actions())
        elif self.phase is UzjePhase.CLAIM:
            out.extend(self._claim_actions())
        elif self.phase in (UzjePhase.FLOWER, UzjePhase.QUAD):
            out.extend(self._window_wins())
            if self.live_left:
                if self.wall is not None:
                    out.append(Draw(self.turn, tile(self.wall[-1 - self.back])))
            else:
                out.append(ExhaustiveDraw(recorded_deltas=(0,) * self.players))
        elif self.phase is UzjePhase.BONUS and self.dead is not None:
            out.append(BonusRevealed(tile(self.dead[len(self.bonus_shown)])))
        elif self.phase is UzjePhase.WON:
            assert self.win_source is not None
            from_seat, kind, phase = self.win_source
            if phase is not UzjePhase.ACT:
                last = self.wins[-1].seat
                for seat in self._order_from(from_seat):
                    if (seat - from_seat) % self.players > (last - from_seat) % self.players:
                        event = Win(seat, from_seat, tile(kind))
                        if self.why_illegal(event) is None:
                            out.append(event)
        return out

    def _order_from(self, seat: int) -> list[int]:
        return [(seat + step) % self.players for step in range(1, self.players)]

    def _turn_actions(self) -> list[UzjeEvent]:
        seat = self.turn
        data = self.seats[seat]
        if data.held_flowers:
            return [FlowerExposed(seat, tile(kind)) for kind in sorted(set(data.held_flowers))]
        out: list[UzjeEvent] = []
        if self.source is not None and is_complete(
            data.counts, data.melds, full_winds=self.rules.full_winds
        ):
            # The winning tile is the one drawn (any tile of the dealer's first 14).
            kind = self.last_draw
            if kind is None:
                kind = next(k for k in range(FIRST_FLOWER) if data.counts[k])
            event = Win(seat, seat, tile(kind))
            if self.why_illegal(event) is None:
                out.append(event)
        if self.live_left and self.source is not None:
            for kind in range(FIRST_FLOWER):
                if data.counts[kind] == 4:
                    out.append(ClosedKan(seat, (tile(kind),) * 4))
            for meld in data.melds:
                if meld.shape is Shape.TRIP and meld.open and data.counts[meld.kinds[0]]:
                    out.append(AddedKan(seat, tile(meld.kinds[0])))
        for kind in range(FIRST_FLOWER):
            count = data.counts[kind]
            if not count:
                continue
            if kind == self.last_draw:
                out.append(Discard(seat, tile(kind), tsumogiri=True))
                if count > 1:
                    out.append(Discard(seat, tile(kind)))
            else:
                out.append(Discard(seat, tile(kind)))
        return out

    def _claim_actions(self) -> list[UzjeEvent]:
        assert self.discard is not None
        discarder, kind = self.discard
        value = tile(kind)
        out: list[UzjeEvent] = []
        for seat in self._order_from(discarder):
            data = self.seats[seat]
            counts = list(data.counts)
            counts[kind] += 1
            if is_complete(counts, data.melds, full_winds=self.rules.full_winds):
                event = Win(seat, discarder, value)
                if self.why_illegal(event) is None:
                    out.append(event)
        if self.live_left:
            for seat in self._order_from(discarder):
                count = self.seats[seat].counts[kind]
                if count >= 2:
                    out.append(Pon(seat, discarder, value, (value, value)))
                if count >= 3:
                    out.append(OpenKan(seat, discarder, value, (value,) * 3))
            nxt = (discarder + 1) % self.players
            out.extend(self._chows(nxt, discarder, kind))
            if self.wall is not None:
                out.append(Draw(nxt, tile(self.wall[self.front])))
        else:
            out.append(ExhaustiveDraw(recorded_deltas=(0,) * self.players))
        return out

    def _chows(self, seat: int, discarder: int, kind: int) -> list[UzjeEvent]:
        allowed = (
            (Shape.ARITH, Shape.GEM, Shape.POWER)
            if self.rules.claim_gems_powers
            else (Shape.ARITH,)
        )
        out: list[UzjeEvent] = []
        for meld in melds_completed_by(self.seats[seat].counts, kind):
            if meld.shape in allowed:
                consumed = list(meld.kinds)
                consumed.remove(kind)
                out.append(Chow(seat, discarder, tile(kind), tuple(map(tile, consumed))))
        return out

    def _window_wins(self) -> list[UzjeEvent]:
        out: list[UzjeEvent] = []
        if self.phase is UzjePhase.FLOWER:
            assert self.flower is not None
            exposer, kind = self.flower
            for seat in [exposer, *self._order_from(exposer)]:
                if len(self.seats[seat].flowers) in ((6, 8) if seat == exposer else (7,)):
                    event = Win(seat, exposer, tile(kind))
                    if self.why_illegal(event) is None:
                        out.append(event)
        elif self.quad is not None:
            declarer, kind, how = self.quad
            if how != "open":
                for seat in self._order_from(declarer):
                    data = self.seats[seat]
                    counts = list(data.counts)
                    counts[kind] += 1
                    if is_complete(counts, data.melds, full_winds=self.rules.full_winds):
                        event = Win(seat, declarer, tile(kind))
                        if self.why_illegal(event) is None:
                            out.append(event)
        return out


_HANDLERS: dict[type, Callable[[UzjeState, Any], None]] = {
    Draw: UzjeState._draw,
    Discard: UzjeState._discard,
    Pon: UzjeState._trip,
    OpenKan: UzjeState._open_quad,
    ClosedKan: UzjeState._closed_quad,
    AddedKan: UzjeState._added_quad,
    Chow: UzjeState._chow,
    FlowerExposed: UzjeState._flower,
    BonusRevealed: UzjeState._bonus,
    Win: UzjeState._win,
    ExhaustiveDraw: UzjeState._exhaustive,
    ScoreChange: UzjeState._score_change,
}
