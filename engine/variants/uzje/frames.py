"""Frames of an Ùzje round: the table after each event, for the step-by-step viewer.

The frames have the shape of :mod:`engine.frame_types` (the contract between the frames API and the
viewer, ``docs/replay.md`` "Frames") and reuse its types; what Ùzje adds is carried by small
subclasses whose JSON is the standard JSON plus a few members:

- every frame and the round carry ``"notation": "uzje"``: tiles are written in UJMJ notation
  (``5t``, ``xs``, ``fm``, ``Z``, ``E``, ``H``, ``C``, ``h``), which shares codes with MPSZ
  (``5s``, ``5m``), so the viewer must know which one it reads;
- each seat has its exposed ``flowers`` (in the order set aside) and its seat ``wind`` (``E S W
  N``, ``null`` for the fifth and sixth seats, which have none);
- ``dora_indicators`` are the dead-wall tiles shown so far (the first bonus tile, then one per
  quad) and ``bonus_tiles`` the tiles they make count (the same tiles, unless the option
  ``bonus_is_next`` makes the next tile count, as riichi dora);
- a meld has its ``shape`` (``trip``, ``quad``, ``arith``, ``gem``, ``power``); a claimed arith
  is of type ``chow`` (the record's event name);
- a win's ``han`` is its fan in *tenths* (as the record and the replay report count them),
  ``fu`` is 0, ``yaku`` are ``[pattern, tenths]`` pairs, or ``[pattern, limits]`` when
  ``limit_patterns`` is true (a limit hand: its value is the limits, not fan);
- scores, score changes and payments are points, and under ``self_draw_rounding`` ``exact`` a
  half is written as one (``2.5``; see :mod:`engine.variants.uzje.scoring`).

Riichi members keep their place with Ùzje values: ``north`` is 0, ``riichi`` false,
``riichi_sticks`` 0, ``ura_indicators`` empty, ``honba`` the hands the dealer has dealt in a row.

**Analysis.** Only what is exact is shown: ``shanten`` is ``-1`` for a complete hand (14 tiles,
:func:`~engine.variants.uzje.shapes.is_complete`), ``0`` for a 13-tile hand one tile from
complete, whose ``waits`` are :func:`~engine.variants.uzje.shapes.waits` (winning *shapes*:
a wait may still be worth less than the minimum fan) with the copies the seat cannot see, and
``None`` otherwise. Ùzje has no exact shanten count in the engine (the bots' ``distance`` may
overstate by one), so none is shown rather than a wrong one.

The frames drive :class:`~engine.variants.uzje.state.UzjeState` through the round's events as
:func:`engine.variants.uzje.replay.replay` does, in the framer loop every family shares
(:class:`engine.frame_types.FrameDriver`; an Ùzje round's events are Ùzje events, cast from the
shared ``Event``), and track what the state does not keep in the form the viewer needs: rivers
with their called tiles (the state drops a claimed discard), who each meld was claimed from, and
the tile just drawn. An event the rules refuse stops the frames
(:attr:`~engine.frame_types.RoundFrames.stopped`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from engine.errors import EngineError, NotationError
from engine.events import (
    AddedKan,
    ClosedKan,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    Game,
    OpenKan,
    Pon,
    Win,
)
from engine.frame_types import (
    Action,
    Frame,
    FrameDriver,
    MeldView,
    Result,
    RiverTile,
    RoundFrames,
    RoundInfo,
    SeatFrame,
    WaitView,
    WinView,
    round_outcomes,
)
from engine.tiles import Tile
from engine.variants.uzje.events import BonusRevealed, Chow, FlowerExposed, UzjeEvent
from engine.variants.uzje.flow import seat_wind
from engine.variants.uzje.replay import rules_of
from engine.variants.uzje.rules import UzjeRules
from engine.variants.uzje.scoring import Points, as_recorded, as_recorded_all, bonus_kind, normal
from engine.variants.uzje.shapes import Meld, is_complete, waits
from engine.variants.uzje.state import UzjeHandResult, UzjePhase, UzjeState, UzjeWin
from engine.variants.uzje.tiles import (
    FIRST_FLOWER,
    FLOWER_LETTERS,
    KINDS,
    copies,
    format_kind,
    format_tiles,
    kind_of,
)

#: The value of the ``notation`` member of Ùzje frames.
NOTATION: Final = "uzje"

#: The flowers in words, by letter: the seasons, then the numbered flowers (each set in seat
#: order East, South, West, North).
FLOWER_NAMES: Final = dict(
    zip(
        FLOWER_LETTERS,
        ("spring", "summer", "autumn", "winter", "one", "two", "three", "four"),
        strict=True,
    )
)
_WIND_LETTERS: Final = "ESWN"


# -- the Ùzje parts of a frame --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UzjeMeldView(MeldView):
    """A meld with its Ùzje shape."""

    #: ``trip``, ``quad``, ``arith``, ``gem`` or ``power``.
    shape: str = ""

    def to_json(self) -> dict[str, Any]:
        return {**MeldView.to_json(self), "shape": self.shape}


@dataclass(frozen=True, slots=True)
class UzjeSeatFrame(SeatFrame):
    """A seat with its exposed flowers and its seat wind."""

    #: Flowers set aside, in the order exposed.
    flowers: tuple[str, ...] = ()
    #: ``E S W N``; ``None`` for the fifth and sixth seats (no seat wind).
    wind: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {**SeatFrame.to_json(self), "flowers": list(self.flowers), "wind": self.wind}


@dataclass(frozen=True, slots=True)
class UzjeWinView(WinView):
    """A win: ``han`` is fan in tenths; with ``limit_patterns`` the patterns count limits."""

    limit_patterns: bool = False

    def to_json(self) -> dict[str, Any]:
        return {**WinView.to_json(self), "limit_patterns": self.limit_patterns}


@dataclass(frozen=True, slots=True)
class UzjeFrame(Frame):
    """A frame with the tiles the shown bonus tiles make count, and the notation mark."""

    bonus_tiles: tuple[str, ...] = ()
    notation: str = NOTATION

    def to_json(self) -> dict[str, Any]:
        return {
            **Frame.to_json(self),
            "bonus_tiles": list(self.bonus_tiles),
            "notation": self.notation,
        }


@dataclass(frozen=True, slots=True)
class UzjeRoundFrames(RoundFrames):
    """An Ùzje round's frames; the JSON says the notation."""

    notation: str = NOTATION

    def to_json(self) -> dict[str, Any]:
        return {**RoundFrames.to_json(self), "notation": self.notation}


# -- the public functions -----------------------------------------------------------------------


def round_frames(
    game: Game, round_index: int, *, first_dealer: int | None = None
) -> UzjeRoundFrames:
    """Every frame of one round of an Ùzje game (``first_dealer`` as in
    :func:`engine.frames.round_frames`).

    :raises IndexError: no such round.
    :raises EngineError: the game's rules are unknown, or its seats do not match them.
    """
    if not 0 <= round_index < len(game.rounds):
        raise IndexError(f"round {round_index} out of range (the game has {len(game.rounds)})")
    dealer = game.rounds[0].dealer if first_dealer is None else first_dealer
    return cast(UzjeRoundFrames, _Framer(game, _rules(game), round_index, dealer).run())


def round_list(game: Game) -> list[RoundInfo]:
    """Every round with how it ends by the rules (``win``, ``exhaustive_draw``, or
    ``unfinished`` when the record stops early or the rules refuse an event), each replayed on
    its own from what the record deals, as the frames are.

    :raises EngineError: as :func:`round_frames`.
    """
    rules = _rules(game)
    first_dealer = game.rounds[0].dealer if game.rounds else 0
    return round_outcomes(game, lambda: UzjeState(rules, first_dealer))


def _rules(game: Game) -> UzjeRules:
    rules = rules_of(game)
    if game.players != rules.players:
        raise EngineError(f"{game.players} players, but {rules.name} is for {rules.players}")
    return rules


# -- tiles in words -------------------------------------------------------------------------------


def _words(tile: Tile) -> str:
    """One tile in UJMJ notation; a tile of another game as the engine writes it (only in a
    record the rules refuse)."""
    try:
        return format_tiles((tile,))
    except NotationError:
        return str(tile)


def _sorted_words(kinds: Sequence[int]) -> tuple[str, ...]:
    return tuple(format_kind(kind) for kind in sorted(kinds))


def _flower_words(kind: int) -> str:
    letter = format_kind(kind)
    return f"{letter} ({FLOWER_NAMES[letter]})"


# -- building the frames --------------------------------------------------------------------------


@dataclass(slots=True)
class _MeldSource:
    """How a seat's meld was made (the state keeps only its tiles)."""

    type: str
    called: str | None
    from_seat: int | None


class _Framer(FrameDriver[UzjeState, UzjeHandResult]):
    """Builds one round's frames: the shared loop (:class:`~engine.frame_types.FrameDriver`)
    over an :class:`~engine.variants.uzje.state.UzjeState`, and the bookkeeping the state does
    not keep."""

    round_frames_type = UzjeRoundFrames

    def __init__(self, game: Game, rules: UzjeRules, round_index: int, first_dealer: int) -> None:
        super().__init__(game, round_index, first_dealer)
        self.rules = rules
        self.players = rules.players
        players = self.players
        #: Each seat's river as shown: a claimed discard stays, marked called.
        self.rivers: list[list[RiverTile]] = [[] for _ in range(players)]
        #: Each seat's melds as made, in the order of the state's ``melds``.
        self.sources: list[list[_MeldSource]] = [[] for _ in range(players)]
        self.scores: list[Points] = [
            self.round.scores[seat] if seat < len(self.round.scores) else 0
            for seat in range(players)
        ]
        self.winds = tuple(
            None if wind is None else _WIND_LETTERS[wind]
            for wind in (seat_wind(seat, self.round.dealer, players) for seat in range(players))
        )
        #: Hand analysis by (concealed counts, melds): whether complete, and the waits.
        self.memo: dict[tuple[tuple[int, ...], tuple[Meld, ...]], tuple[bool, tuple[int, ...]]] = {}

    # -- the loop's steps (engine.frame_types.FrameDriver) ------------------------------------

    def new_table(self) -> UzjeState:
        return UzjeState(self.rules, self.first_dealer)

    def before(self, state: UzjeState, event: Event) -> str:
        return self._before(state, cast(UzjeEvent, event))

    def note(self, state: UzjeState, number: int, event: Event) -> None:
        self._note(state, cast(UzjeEvent, event))

    def action(self, state: UzjeState, event: Event, context: str) -> Action:
        return self._action(state, cast(UzjeEvent, event), context)

    @staticmethod
    def _before(state: UzjeState, event: UzjeEvent) -> str:
        """What the action's words need from the state before the event: a replacement draw,
        or where a win comes from (a discard, a quad, a flower, or a tile already won on)."""
        phase = state.phase
        if isinstance(event, Draw) and phase in (UzjePhase.FLOWER, UzjePhase.QUAD):
            return "replacement"
        if isinstance(event, Win):
            if phase is UzjePhase.WON and state.win_source is not None:
                phase = state.win_source[2]
            return phase.value
        return ""

    def _note(self, state: UzjeState, event: UzjeEvent) -> None:
        """The frames' own bookkeeping of an applied event."""
        if isinstance(event, Discard):
            self.rivers[event.seat].append(
                RiverTile(_words(event.tile), event.tsumogiri, False, False)
            )
        elif isinstance(event, Pon | OpenKan | Chow):
            river = self.rivers[event.from_seat]
            taken = river[-1]
            river[-1] = RiverTile(taken.tile, taken.tsumogiri, False, True)
            kind = {Pon: "pon", OpenKan: "open_kan", Chow: "chow"}[type(event)]
            self.sources[event.seat].append(_MeldSource(kind, _words(event.tile), event.from_seat))
        elif isinstance(event, ClosedKan):
            self.sources[event.seat].append(_MeldSource("closed_kan", None, None))
        elif isinstance(event, AddedKan):
            # The state turns the trip into a quad in place: the meld keeps where it came from.
            melds = state.seats[event.seat].melds
            added = kind_of(event.tile)
            for position, meld in enumerate(melds):
                if meld.kinds == (added,) * 4 and self.sources[event.seat][position].type == "pon":
                    self.sources[event.seat][position].type = "added_kan"
                    break
        seat = getattr(event, "seat", None)
        if isinstance(seat, int):
            self.turn = seat

    # -- one frame --------------------------------------------------------------------------

    def frame(self, state: UzjeState, step: int, action: Action | None, *, final: bool) -> Frame:
        result = self._current_result(state, final)
        scores = list(state.scores)
        if not final:
            # A finished hand is settled into the scores only at its last event.
            for seat, delta in enumerate(self._pending(state)):
                scores[seat] = normal(scores[seat] + delta)
        deltas = [normal(now - before) for now, before in zip(scores, self.scores, strict=True)]
        self.scores = scores
        seen = self._public_seen(state)
        seats = tuple(
            self._seat(state, seat, scores[seat], deltas[seat], seen)
            for seat in range(self.players)
        )
        round_ = self.round
        return UzjeFrame(
            step=step,
            action=action,
            round_name=round_.name,
            honba=round_.honba,
            riichi_sticks=0,
            dealer=round_.dealer,
            wall_left=state.live_left,
            dora_indicators=tuple(format_kind(kind) for kind in state.bonus_shown),
            ura_indicators=(),
            turn=self.turn,
            seats=seats,
            result=None if result is None else self._result(state, result, scores),
            bonus_tiles=tuple(
                format_kind(bonus_kind(kind, self.rules)) for kind in state.bonus_shown
            ),
        )

    def _pending(self, state: UzjeState) -> list[Points]:
        """Score changes not yet in the scores: the wins so far and recorded score changes."""
        deltas = list(state.score_changes)
        for win in state.wins:
            for seat, delta in enumerate(win.deltas):
                deltas[seat] = normal(deltas[seat] + delta)
        return deltas

    @staticmethod
    def _current_result(state: UzjeState, final: bool) -> UzjeHandResult | None:
        if final:
            return state.result
        if state.phase is UzjePhase.WON:
            deltas: list[Points] = [0] * state.players
            for win in state.wins:
                for seat, delta in enumerate(win.deltas):
                    deltas[seat] = normal(deltas[seat] + delta)
            return UzjeHandResult("win", tuple(state.wins), tuple(deltas))
        if state.phase is UzjePhase.OVER:
            return UzjeHandResult("exhaustive_draw", (), (0,) * state.players)
        return None

    def _public_seen(self, state: UzjeState) -> list[int]:
        """Copies of each kind every seat can see: rivers (a claimed tile once, in its meld),
        melds, exposed flowers and the shown bonus tiles."""
        seen = [0] * KINDS
        for data in state.seats:
            # The state's discards leave out the claimed ones, which lie in the melds.
            for kind in data.discards:
                seen[kind] += 1
            for meld in data.melds:
                for kind in meld.kinds:
                    seen[kind] += 1
            for kind in data.flowers:
                seen[kind] += 1
        for kind in state.bonus_shown:
            seen[kind] += 1
        return seen

    def _drawn(self, state: UzjeState, seat: int) -> int | None:
        """The tile the seat just drew, while it is still in its hand (a drawn flower leaves
        it when exposed)."""
        kind = state.last_draw
        if kind is None or seat != state.turn or state.phase is UzjePhase.CLAIM:
            return None
        data = state.seats[seat]
        held = kind in data.held_flowers if kind >= FIRST_FLOWER else data.counts[kind] > 0
        return kind if held else None

    def _seat(
        self, state: UzjeState, seat: int, score: Points, delta: Points, seen: list[int]
    ) -> UzjeSeatFrame:
        data = state.seats[seat]
        drawn = self._drawn(state, seat)
        concealed = data.concealed()
        if drawn is not None:
            concealed.remove(drawn)
        shanten, wait_kinds = self._analysis(data.counts, data.melds)
        waits_shown = tuple(
            WaitView(format_kind(kind), max(0, copies(kind) - seen[kind] - data.counts[kind]))
            for kind in wait_kinds
        )
        return UzjeSeatFrame(
            hand=_sorted_words(concealed),
            drawn=None if drawn is None else format_kind(drawn),
            discards=tuple(self.rivers[seat]),
            melds=self._melds(seat, data.melds),
            north=0,
            score=as_recorded(score),
            delta=as_recorded(delta),
            riichi=False,
            shanten=shanten,
            waits=waits_shown,
            flowers=tuple(format_kind(kind) for kind in data.flowers),
            wind=self.winds[seat],
        )

    def _analysis(
        self, counts: Sequence[int], melds: Sequence[Meld]
    ) -> tuple[int | None, tuple[int, ...]]:
        """``(-1, ())`` for a complete hand, ``(0, waits)`` for a hand one tile from complete,
        ``(None, ())`` otherwise (memoized: most hands stay the same from frame to frame)."""
        key = (tuple(counts), tuple(melds))
        found = self.memo.get(key)
        if found is None:
            held = sum(counts) + 3 * len(melds)
            full = self.rules.full_winds
            if held == 14:
                found = (is_complete(counts, melds, full_winds=full), ())
            elif held == 13:
                found = (False, tuple(waits(counts, melds, self.rules.kinds, full_winds=full)))
            else:
                found = (False, ())
            self.memo[key] = found
        complete, wait_kinds = found
        if complete:
            return -1, ()
        return (0, wait_kinds) if wait_kinds else (None, ())

    def _melds(self, seat: int, melds: Sequence[Meld]) -> tuple[MeldView, ...]:
        return tuple(
            UzjeMeldView(
                type=source.type,
                tiles=tuple(format_kind(kind) for kind in meld.kinds),
                called=source.called,
                from_seat=source.from_seat,
                shape=meld.shape.value,
            )
            for meld, source in zip(melds, self.sources[seat], strict=True)
        )

    # -- the end of the hand ------------------------------------------------------------------

    def _result(self, state: UzjeState, result: UzjeHandResult, scores: list[Points]) -> Result:
        after = as_recorded_all(scores)
        deltas = as_recorded_all(result.deltas)
        if result.kind == "win":
            wins = tuple(self._win(state, win) for win in result.wins)
            return Result("win", deltas, after, wins=wins)
        return Result(result.kind, deltas, after)

    def _win(self, state: UzjeState, win: UzjeWin) -> WinView:
        data = state.seats[win.seat]
        hand = data.concealed()
        self_draw = win.seat == win.from_seat
        if self_draw and win.special is None:
            hand.remove(win.tile)
        value = win.value
        return UzjeWinView(
            seat=win.seat,
            from_seat=None if self_draw else win.from_seat,
            hand=_sorted_words(hand),
            melds=self._melds(win.seat, data.melds),
            tile=format_kind(win.tile),
            yaku=value.patterns,
            han=value.fan,
            fu=0,
            limit=f"{value.limits}l" if value.limits else None,
            points=value.points,
            deltas=as_recorded_all(win.deltas),
            limit_patterns=value.limit_patterns,
        )

    # -- actions in words ---------------------------------------------------------------------

    def _action(self, state: UzjeState, event: UzjeEvent, context: str) -> Action:
        name = self.name
        if isinstance(event, Draw):
            tile = _words(event.tile)
            replacement = context == "replacement"
            where = " from the back of the wall (replacement)" if replacement else ""
            return Action(
                "draw",
                event.seat,
                f"{name(event.seat)} draws {tile}{where}",
                {"tile": tile, "replacement": replacement},
            )
        if isinstance(event, Discard):
            tile = _words(event.tile)
            extra = " (the tile just drawn)" if event.tsumogiri else ""
            return Action(
                "discard",
                event.seat,
                f"{name(event.seat)} discards {tile}{extra}",
                {"tile": tile, "tsumogiri": event.tsumogiri, "riichi": False},
            )
        if isinstance(event, Pon | OpenKan | Chow):
            tile = _words(event.tile)
            meld = state.seats[event.seat].melds[-1]
            what = {
                Pon: "a trip of",
                OpenKan: "a quad of",
                Chow: f"the {meld.shape.value} {meld} with",
            }[type(event)]
            return Action(
                event.type,
                event.seat,
                f"{name(event.seat)} claims {what} {tile} from {name(event.from_seat)}",
                {
                    "tile": tile,
                    "from": event.from_seat,
                    "tiles": [_words(t) for t in event.consumed],
                },
            )
        if isinstance(event, ClosedKan):
            tile = _words(event.tiles[0])
            return Action(
                "closed_kan",
                event.seat,
                f"{name(event.seat)} declares a closed quad of {tile}",
                {"tile": tile, "tiles": [_words(t) for t in event.tiles]},
            )
        if isinstance(event, AddedKan):
            tile = _words(event.tile)
            return Action(
                "added_kan",
                event.seat,
                f"{name(event.seat)} adds {tile} to their trip (a quad)",
                {"tile": tile},
            )
        if isinstance(event, FlowerExposed):
            tile = _words(event.tile)
            return Action(
                "flower",
                event.seat,
                f"{name(event.seat)} sets the flower {_flower_words(kind_of(event.tile))} aside",
                {"tile": tile},
            )
        if isinstance(event, BonusRevealed):
            tile = _words(event.tile)
            return Action("bonus", None, f"A new bonus tile is shown: {tile}", {"tile": tile})
        if isinstance(event, Win):
            return self._win_action(state, event, context)
        if isinstance(event, ExhaustiveDraw):
            text = "Exhaustive draw: the wall is empty (no payments)"
            return Action("exhaustive_draw", None, text)
        changes = ", ".join(
            f"{name(seat)} {delta:+}" for seat, delta in enumerate(event.deltas) if delta
        )
        return Action(
            "score_change",
            None,
            f"Score change ({event.reason}): {changes or 'none'}",
            {"deltas": list(event.deltas), "reason": event.reason},
        )

    def _win_action(self, state: UzjeState, event: Win, context: str) -> Action:
        name = self.name
        tile = _words(event.tile)
        winner, source = name(event.seat), name(event.from_seat)
        self_draw = event.seat == event.from_seat
        if context == UzjePhase.FLOWER.value:
            special = state.wins[-1].special
            how = "" if special is None else special.value.replace("_", " ")
            text = f"{winner} wins: {how} on the flower {tile}"
            if not self_draw:
                text += f" from {source}"
        elif self_draw:
            text = f"{winner} wins by self-draw on {tile}"
        elif context == UzjePhase.QUAD.value:
            text = f"{winner} wins on {tile}, robbing {source}'s quad"
        else:
            text = f"{winner} wins on {tile} from {source}"
        return Action(
            "win",
            event.seat,
            text,
            {"tile": tile, "from": None if self_draw else event.from_seat, "tsumo": self_draw},
        )

    # -- a deal the rules refuse ----------------------------------------------------------------

    def deal_frame(self) -> Frame:
        """Step 0 straight from the record, for a deal the state refuses."""
        round_ = self.round
        seats = []
        for seat in range(self.players):
            hand = round_.hands[seat] if seat < len(round_.hands) else ()
            seats.append(
                UzjeSeatFrame(
                    hand=tuple(map(_words, hand)),
                    drawn=None,
                    discards=(),
                    melds=(),
                    north=0,
                    score=as_recorded(self.scores[seat]),
                    delta=0,
                    riichi=False,
                    shanten=None,
                    waits=(),
                    wind=self.winds[seat],
                )
            )
        shown = tuple(map(_words, round_.dora_indicators))
        return UzjeFrame(
            step=0,
            action=None,
            round_name=round_.name,
            honba=round_.honba,
            riichi_sticks=0,
            dealer=round_.dealer,
            wall_left=self.rules.live_wall,
            dora_indicators=shown,
            ura_indicators=(),
            turn=round_.dealer,
            seats=tuple(seats),
            result=None,
            bonus_tiles=shown,
        )
