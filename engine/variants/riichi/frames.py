"""Riichi's framer: the table of one round after each of its events, for the step-by-step viewer.

A *frame* is the state of one round after some of its events have been applied: step 0 is the
deal, step ``k`` the table after event ``k - 1`` (0-based, of ``Round.events``). The format is
the contract between the frames API and the viewer page; ``docs/replay.md`` ("Frames")
describes it field by field.

:func:`round_frames` drives a :class:`~engine.state.GameState` through one round's events as the
replayer does (a hand starts with ``start_round`` from what the record deals, each event goes
through ``push``, a finished hand is settled by ``end_round``) and takes a snapshot after every
event: the loop is the one every family shares (:class:`engine.frame_types.FrameDriver`), and
this module gives it riichi's frames and words. What the state does not keep in a form the
viewer needs is tracked here: which discards were the tile just drawn (tsumogiri), which river
tile was the riichi discard, and each seat's score change from the last action. Hands, melds,
rivers, scores, dora and the wall count are read from the state. An illegal event stops the
frames: the last frame is the state the event was tried on, and
:attr:`~engine.frame_types.RoundFrames.stopped` says why.

Every seat's hand is shown (records of finished games are complete anyway); the analysis of each
seat (shanten, waits with the copies of each wait the seat cannot see) is the engine's own
(:func:`engine.hand.shanten.shanten`, :func:`engine.state.hand_waits`).

The riichi family (:mod:`engine.variants.riichi.family`) hands it riichi games; everyone else
asks :mod:`engine.frames`, which finds a game's family.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from engine.errors import EngineError, MalformedLogError
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
    Game,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    ScoreChange,
    Swap,
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
    Study,
    TenpaiHand,
    WaitView,
    WinView,
    round_outcomes,
)
from engine.hand.melds import Meld, MeldType, called_honour_runs
from engine.hand.shanten import shanten
from engine.hand.shapes import STANDARD, HandShapes, shapes_for
from engine.report import ReplayReport
from engine.rules.presets import ruleset_of
from engine.rules.ruleset import Ruleset
from engine.state import GameState, HandResult, Phase, WinResult, hand_waits
from engine.study import (
    RiichiPasses,
    StudyContext,
    chosen_discard,
    seen_on_table,
    study_of,
    tile_copies,
)
from engine.tiles import KINDS, Tile, format_kind

__all__ = [
    "ABORT_TEXTS",
    "MELD_TYPES",
    "round_frames",
    "round_list",
    "round_list_after_replay",
]

#: Meld type names of the frames (the canonical event names).
MELD_TYPES: Final = {
    MeldType.CHI: "chi",
    MeldType.PON: "pon",
    MeldType.MINKAN: "open_kan",
    MeldType.ANKAN: "closed_kan",
    MeldType.KAKAN: "added_kan",
}

#: The abortive draws in words.
ABORT_TEXTS: Final = {
    AbortKind.NINE_TERMINALS: "Nine terminals (kyuushu kyuuhai)",
    AbortKind.FOUR_WINDS: "Four winds (suufon renda)",
    AbortKind.FOUR_RIICHI: "Four riichi (suucha riichi)",
    AbortKind.FOUR_KANS: "Four kans (suukaikan)",
    AbortKind.TRIPLE_RON: "Triple ron (sanchahou)",
}


# -- the frames of a round and the round list ------------------------------------------------


def round_frames(game: Game, round_index: int, *, first_dealer: int | None = None) -> RoundFrames:
    """Every frame of one round of a riichi game (:func:`engine.frames.round_frames`, which finds a
    game's family, says what ``first_dealer`` is).

    :raises IndexError: no such round.
    :raises EngineError: the game's rule set is unknown, or its seats do not match it.
    """
    if not 0 <= round_index < len(game.rounds):
        raise IndexError(f"round {round_index} out of range (the game has {len(game.rounds)})")
    ruleset = _ruleset(game)
    dealer = game.rounds[0].dealer if first_dealer is None else first_dealer
    return _Framer(game, ruleset, round_index, dealer).run()


def round_list(game: Game) -> list[RoundInfo]:
    """Every round of a riichi game with how it ends by the rules, each replayed on its own from
    what the record deals (:func:`engine.frames.round_list`).

    :raises EngineError: as :func:`round_frames`.
    """
    ruleset = _ruleset(game)
    first_dealer = game.rounds[0].dealer if game.rounds else 0
    return round_outcomes(game, lambda: GameState(ruleset, first_dealer=first_dealer))


def round_list_after_replay(game: Game, report: ReplayReport) -> list[RoundInfo]:
    """:func:`round_list`, read from a replay of the whole game where it is the same:
    when the replay agreed with every round of the record, each round ended as the rules end
    it, which is what :func:`round_list` finds replaying the round on its own. A
    verification lists the rounds right after replaying the game; this spares it a second
    replay. Otherwise (a discrepancy, a record that stops inside a hand) the rounds are
    replayed."""
    if report.agrees and len(report.rounds) == len(game.rounds):
        return [
            RoundInfo(index, summary.name, summary.honba, summary.result)
            for index, summary in enumerate(report.rounds)
        ]
    return round_list(game)


def _ruleset(game: Game) -> Ruleset:
    ruleset = ruleset_of(game)
    if game.players != ruleset.players:
        raise MalformedLogError(
            f"{game.players} players, but {ruleset.name} is for {ruleset.players}"
        )
    return ruleset


# -- building the frames --------------------------------------------------------------------------


def _tile_words(tile: Tile) -> str:
    return str(tile)


def _without(tiles: list[Tile], tile: Tile) -> list[Tile]:
    """The tiles with one copy of ``tile`` (the same red flag) taken out."""
    out = list(tiles)
    for index in range(len(out) - 1, -1, -1):
        if out[index] == tile:
            del out[index]
            break
    return out


def _sort_key(tile: Tile) -> tuple[int, int, int]:
    return tile.sort_key


class _Framer(FrameDriver[GameState, HandResult]):
    """Builds one round's frames: the shared loop (:class:`~engine.frame_types.FrameDriver`)
    over a :class:`~engine.state.GameState`, and the bookkeeping the state does not keep."""

    def __init__(self, game: Game, ruleset: Ruleset, round_index: int, first_dealer: int) -> None:
        super().__init__(game, round_index, first_dealer)
        self.ruleset = ruleset
        self.players = ruleset.players
        #: Whether 2m-8m are out of the set (a 3-player small mahjong table keeps them).
        self.three_player = ruleset.sanma
        #: Which tiles form runs (space mahjong's wrap-around and honour runs change shanten).
        self.shapes = shapes_for(ruleset)
        #: Copies of each kind in the rule set's tiles (none of 2m-8m in sanma, no honours in
        #: small mahjong).
        self.copies = tile_copies(ruleset)
        #: The study aids' view of the rule set (each discard decision's tile acceptance).
        self.study = StudyContext(ruleset)
        players = self.players
        #: The tiles each seat in riichi let pass, for the study aid's safety of each discard.
        self.passes = RiichiPasses(players)
        #: Each seat's river as shown (tsumogiri and riichi flags are the frames' own record).
        self.rivers: list[list[RiverTile]] = [[] for _ in range(players)]
        #: Seats whose next discard is the riichi discard.
        self.declared = [False] * players
        #: Where the last event left a seat to choose a discard: (seat, kind it discards next),
        #: for the study aid of its frame.
        self.decision: tuple[int, int] | None = None
        self.scores: list[int] = [
            self.round.scores[seat] if seat < len(self.round.scores) else 0
            for seat in range(players)
        ]
        #: Hand analysis by (packed counts, red fives, drawn tile): sorted tiles, shanten, waits.
        self.hand_memo: dict[
            tuple[int, tuple[int, ...], Tile | None],
            tuple[tuple[str, ...], int | None, tuple[int, ...]],
        ] = {}
        #: Each seat's melds as last shown: the state's meld objects and their views.
        self.meld_views: list[tuple[tuple[Meld, ...], tuple[MeldView, ...]]] = [
            ((), ()) for _ in range(players)
        ]

    # -- the loop's steps (engine.frame_types.FrameDriver) ------------------------------------

    def new_table(self) -> GameState:
        return GameState(self.ruleset, first_dealer=self.first_dealer)

    def before(self, state: GameState, event: Event) -> str:
        """What the action's words need from the state before the event: ``replacement`` for a
        draw from the dead wall, ``rob`` for a ron on a kan or north."""
        if isinstance(event, Draw) and state.phase is not Phase.CLAIM and state.replacement:
            return "replacement"
        if isinstance(event, Win) and state.phase is Phase.ROB:
            return "rob_north" if state.rob_kind == "north" else "rob_kan"
        return ""

    def note(self, state: GameState, number: int, event: Event) -> None:
        """The frames' own bookkeeping of an applied event, and the discard decision it leaves
        (:mod:`engine.study`)."""
        self.passes.note(event)
        self.decision = None
        seat = self.study.decision_seat(state, event)
        if seat is not None:
            discarded = chosen_discard(self.round.events, number, seat)
            if discarded is not None:
                self.decision = (seat, discarded)
        if isinstance(event, Discard):
            seat = event.seat
            riichi = self.declared[seat]
            self.declared[seat] = False
            self.rivers[seat].append(
                RiverTile(_tile_words(event.tile), event.tsumogiri, riichi, False)
            )
        elif isinstance(event, Chi | Pon | OpenKan):
            river = self.rivers[event.from_seat]
            taken = river[-1]
            river[-1] = RiverTile(taken.tile, taken.tsumogiri, taken.riichi, True)
        elif isinstance(event, RiichiDeclared):
            self.declared[event.seat] = True
        actor: object = getattr(event, "seat", None)
        if isinstance(event, AbortiveDraw):
            if event.kind is AbortKind.NINE_TERMINALS and event.seat is not None:
                self.turn = event.seat
        elif isinstance(actor, int):
            self.turn = actor

    # -- one frame --------------------------------------------------------------------------

    def frame(self, state: GameState, step: int, action: Action | None, *, final: bool) -> Frame:
        """The frame of the state, with the study aid where the last event left a seat to
        choose a discard (:attr:`decision`)."""
        decision = self.decision
        result = state.result
        scores = list(state.scores)
        if result is not None and not final:
            # The hand ended but is not settled yet (``end_round`` adds its deltas at the end).
            for seat, delta in enumerate(_pending_deltas(result, self.players)):
                scores[seat] += delta
        deltas = [now - before for now, before in zip(scores, self.scores, strict=True)]
        self.scores = scores
        seen = seen_on_table(state)
        drawn = state.last_draw
        seats = tuple(
            self._seat(
                state,
                seat,
                drawn if seat == state.turn else None,
                scores[seat],
                deltas[seat],
                seen,
            )
            for seat in range(self.players)
        )
        round_ = self.round
        return Frame(
            step=step,
            action=action,
            round_name=round_.name,
            honba=round_.honba,
            riichi_sticks=state.sticks,
            dealer=round_.dealer,
            wall_left=state.tiles_left,
            dora_indicators=tuple(map(_tile_words, state.dora_indicators)),
            ura_indicators=self._ura(state),
            turn=self.turn,
            seats=seats,
            result=None if result is None else self._result(state, result, scores, final),
            study=self._study(state, decision, seen),
        )

    def _study(
        self, state: GameState, decision: tuple[int, int] | None, seen: list[int]
    ) -> Study | None:
        """The study aid of a decision (``engine.study``: the acceptance, and the other side
        of the decision), ``None`` elsewhere."""
        if decision is None:
            return None
        seat, discarded = decision
        found = self.study.acceptance(state, seat, seen)
        if found is None:
            return None
        sides = self.study.sides(state, seat, found, seen, self.passes)
        return study_of(found, seat, discarded, sides)

    def _seat(
        self,
        state: GameState,
        seat: int,
        drawn: Tile | None,
        score: int,
        delta: int,
        seen: list[int],
    ) -> SeatFrame:
        data = state.seats[seat]
        hand, shanten_number, wait_kinds = self._analysis(
            data.key, data.counts, data.reds, data.tiles, drawn, data.melds
        )
        counts = data.counts
        copies = self.copies
        waits = tuple(
            WaitView(format_kind(kind), max(0, copies[kind] - seen[kind] - counts[kind]))
            for kind in wait_kinds
        )
        return SeatFrame(
            hand=hand,
            drawn=None if drawn is None else _tile_words(drawn),
            discards=tuple(self.rivers[seat]),
            melds=self._melds(seat, data.melds, data.meld_sources),
            north=data.kita,
            score=score,
            delta=delta,
            riichi=data.riichi_accepted,
            shanten=shanten_number,
            waits=waits,
        )

    def _analysis(
        self,
        key: int,
        counts: list[int],
        reds: list[int],
        tiles: Callable[[], list[Tile]],
        drawn: Tile | None,
        melds: Sequence[Meld] = (),
    ) -> tuple[tuple[str, ...], int | None, tuple[int, ...]]:
        """A concealed hand's sorted tiles (the drawn one apart), shanten and waits, memoized:
        most hands stay the same from one frame to the next (the seat's ``key`` holds what the
        melds change: see engine.state.seat)."""
        memo_key = (key, tuple(reds), drawn)
        found = self.hand_memo.get(memo_key)
        if found is None:
            held = tiles()
            if drawn is not None:
                held = _without(held, drawn)
            found = (
                tuple(map(_tile_words, held)),
                *_shanten_and_waits(counts, self.three_player, self.shapes, melds),
            )
            self.hand_memo[memo_key] = found
        return found

    def _melds(
        self, seat: int, melds: Sequence[Meld], sources: Sequence[int | None]
    ) -> tuple[MeldView, ...]:
        shown, views = self.meld_views[seat]
        if len(shown) == len(melds) and all(a is b for a, b in zip(shown, melds, strict=True)):
            return views
        views = tuple(_meld_view(meld, source) for meld, source in zip(melds, sources, strict=True))
        self.meld_views[seat] = (tuple(melds), views)
        return views

    def _ura(self, state: GameState) -> tuple[str, ...]:
        """The ura indicators, once a riichi hand has won (as the state values the win)."""
        result = state.result
        if result is None or not result.wins:
            return ()
        if not any(state.seats[win.seat].riichi for win in result.wins):
            return ()
        ruleset = self.ruleset
        if not ruleset.ura_dora:
            return ()
        count = len(state.dora_indicators) if ruleset.kan_ura else 1
        stack = state.wall.ura_indicators if state.wall is not None else state.ura_indicators
        return tuple(map(_tile_words, stack[:count]))

    # -- the end of the round -----------------------------------------------------------------

    def _result(
        self, state: GameState, result: HandResult, scores: list[int], final: bool
    ) -> Result:
        deltas = tuple(_pending_deltas(result, self.players))
        after = tuple(scores)
        kind = result.kind
        if kind == "win":
            wins = tuple(
                self._win(state, win, event)
                for win, event in zip(result.wins, state.win_events, strict=True)
            )
            return Result("win", deltas, after, wins=wins)
        if kind == "abortive_draw":
            abort = result.abort
            return Result(
                "abortive_draw",
                deltas,
                after,
                kind=None if abort is None else abort.value,
                text=None if abort is None else ABORT_TEXTS[abort],
            )
        tenpai = tuple(self._shown_hand(state, seat) for seat in result.tenpai)
        if kind == "nagashi_mangan":
            return Result(kind, deltas, after, tenpai=tenpai, seats=tuple(sorted(result.nagashi)))
        return Result(kind, deltas, after, tenpai=tenpai)

    def _shown_hand(self, state: GameState, seat: int) -> TenpaiHand:
        data = state.seats[seat]
        return TenpaiHand(
            seat,
            tuple(map(_tile_words, data.tiles())),
            self._melds(seat, data.melds, data.meld_sources),
        )

    def _win(self, state: GameState, win: WinResult, event: Win) -> WinView:
        data = state.seats[win.seat]
        hand = data.tiles()
        tsumo = event.tsumo
        if tsumo:
            hand = _without(hand, event.tile)
        score = win.score
        return WinView(
            seat=win.seat,
            from_seat=None if tsumo else win.from_seat,
            hand=tuple(map(_tile_words, hand)),
            melds=self._melds(win.seat, data.melds, data.meld_sources),
            tile=_tile_words(event.tile),
            yaku=tuple((yaku.name, yaku.han) for yaku in score.yaku),
            han=score.han,
            fu=score.fu,
            limit=score.limit,
            points=win.points,
            deltas=tuple(win.deltas),
        )

    # -- actions in words ---------------------------------------------------------------------

    def action(self, state: GameState, event: Event, context: str) -> Action:
        name = self.name
        if isinstance(event, Draw):
            tile = _tile_words(event.tile)
            replacement = context == "replacement"
            where = " from the dead wall" if replacement else ""
            return Action(
                "draw",
                event.seat,
                f"{name(event.seat)} draws {tile}{where}",
                {"tile": tile, "replacement": replacement},
            )
        if isinstance(event, Discard):
            tile = _tile_words(event.tile)
            riichi = self.rivers[event.seat][-1].riichi
            notes = [
                note
                for note, wanted in (("the tile just drawn", event.tsumogiri), ("riichi", riichi))
                if wanted
            ]
            extra = f" ({', '.join(notes)})" if notes else ""
            return Action(
                "discard",
                event.seat,
                f"{name(event.seat)} discards {tile}{extra}",
                {"tile": tile, "tsumogiri": event.tsumogiri, "riichi": riichi},
            )
        if isinstance(event, Chi | Pon | OpenKan):
            tile = _tile_words(event.tile)
            call = {"chi": "chi", "pon": "pon", "open_kan": "an open kan"}[event.type]
            return Action(
                event.type,
                event.seat,
                f"{name(event.seat)} calls {call} on {tile} from {name(event.from_seat)}",
                {
                    "tile": tile,
                    "from": event.from_seat,
                    "tiles": [_tile_words(t) for t in event.consumed],
                },
            )
        if isinstance(event, ClosedKan):
            tile = _tile_words(event.tiles[0])
            return Action(
                "closed_kan",
                event.seat,
                f"{name(event.seat)} declares a closed kan of {tile}",
                {"tile": tile, "tiles": [_tile_words(t) for t in event.tiles]},
            )
        if isinstance(event, AddedKan):
            tile = _tile_words(event.tile)
            return Action(
                "added_kan",
                event.seat,
                f"{name(event.seat)} adds {tile} to their pon (added kan)",
                {"tile": tile},
            )
        if isinstance(event, NorthExtraction):
            tile = _tile_words(event.tile)
            return Action(
                "north",
                event.seat,
                f"{name(event.seat)} sets a North aside (kita)",
                {"tile": tile},
            )
        if isinstance(event, RiichiDeclared):
            return Action("riichi", event.seat, f"{name(event.seat)} declares riichi")
        if isinstance(event, RiichiAccepted):
            stick = ": 1000 points go on the table" if self.ruleset.riichi_deposit else ""
            return Action(
                "riichi_accepted", event.seat, f"{name(event.seat)}'s riichi is accepted{stick}"
            )
        if isinstance(event, DoraRevealed):
            tile = _tile_words(event.indicator)
            return Action("dora", None, f"A new dora indicator is turned: {tile}", {"tile": tile})
        if isinstance(event, Swap):
            tile, indicator = _tile_words(event.tile), _tile_words(event.indicator)
            return Action(
                "swap",
                event.seat,
                f"{name(event.seat)} swaps {tile} with the dora indicator {indicator}",
                {"tile": tile, "indicator": indicator},
            )
        if isinstance(event, Win):
            return self._win_action(event, context)
        return self._end_action(state, event)

    def _win_action(self, event: Win, context: str) -> Action:
        name = self.name
        tile = _tile_words(event.tile)
        if event.tsumo:
            text = f"{name(event.seat)} wins by tsumo on {tile}"
        else:
            text = f"{name(event.seat)} wins by ron on {tile} from {name(event.from_seat)}"
            if context == "rob_kan":
                text += " (robbing a kan)"
            elif context == "rob_north":
                text += " (on an extracted North)"
        return Action(
            "win",
            event.seat,
            text,
            {"tile": tile, "from": None if event.tsumo else event.from_seat, "tsumo": event.tsumo},
        )

    def _end_action(self, state: GameState, event: Event) -> Action:
        name = self.name
        if isinstance(event, ExhaustiveDraw):
            tenpai = list(state.result.tenpai) if state.result is not None else []
            who = ", ".join(name(seat) for seat in tenpai) or "nobody"
            return Action(
                "exhaustive_draw",
                None,
                f"Exhaustive draw: the wall is empty (tenpai: {who})",
                {"tenpai": tenpai},
            )
        if isinstance(event, NagashiMangan):
            seats = sorted(event.seats)
            who = ", ".join(name(seat) for seat in seats)
            return Action("nagashi_mangan", None, f"Nagashi mangan for {who}", {"seats": seats})
        if isinstance(event, AbortiveDraw):
            text = f"Abortive draw: {ABORT_TEXTS[event.kind]}"
            if event.kind is AbortKind.NINE_TERMINALS and event.seat is not None:
                text = f"{name(event.seat)} declares nine terminals: abortive draw"
            return Action("abortive_draw", event.seat, text, {"kind": event.kind.value})
        if isinstance(event, ScoreChange):
            changes = ", ".join(
                f"{name(seat)} {delta:+d}" for seat, delta in enumerate(event.deltas) if delta
            )
            return Action(
                "score_change",
                None,
                f"Score change ({event.reason}): {changes or 'none'}",
                {"deltas": list(event.deltas), "reason": event.reason},
            )
        raise EngineError(f"no words for event {event!r}")  # every event type is covered above

    # -- a deal the rules refuse ----------------------------------------------------------------

    def deal_frame(self) -> Frame:
        """Step 0 straight from the record, for a deal the state refuses (impossible tiles)."""
        round_ = self.round
        ruleset = self.ruleset
        seats = []
        for seat in range(self.players):
            tiles = sorted(round_.hands[seat] if seat < len(round_.hands) else (), key=_sort_key)
            counts = [0] * KINDS
            for tile in tiles:
                if 0 <= tile.kind < KINDS:
                    counts[tile.kind] += 1
            shanten_number, _ = _shanten_and_waits(counts, self.three_player, self.shapes)
            seats.append(
                SeatFrame(
                    hand=tuple(map(_tile_words, tiles)),
                    drawn=None,
                    discards=(),
                    melds=(),
                    north=0,
                    score=self.scores[seat],
                    delta=0,
                    riichi=False,
                    shanten=shanten_number,
                    waits=(),
                )
            )
        return Frame(
            step=0,
            action=None,
            round_name=round_.name,
            honba=round_.honba,
            riichi_sticks=round_.sticks,
            dealer=round_.dealer,
            wall_left=ruleset.live_wall,
            dora_indicators=tuple(map(_tile_words, round_.dora_indicators)),
            ura_indicators=(),
            turn=round_.dealer,
            seats=tuple(seats),
            result=None,
        )


def _shanten_and_waits(
    counts: list[int],
    three_player: bool,
    shapes: HandShapes = STANDARD,
    melds: Sequence[Meld] = (),
) -> tuple[int | None, tuple[int, ...]]:
    """Shanten of concealed counts (``None`` when they are no possible hand) and, for a 3n+1
    hand, its waits in kind order, with the rule set's shapes (``melds`` matter only to space
    mahjong's open thirteen orphans)."""
    try:
        if shapes.standard:
            number = shanten(counts, three_player=three_player)
        else:
            number = shapes.shanten(counts, called_honour_runs(melds))
    except (EngineError, ValueError):
        return None, ()
    waits: tuple[int, ...] = ()
    if number == 0 and sum(counts) % 3 == 1:
        waits = tuple(sorted(hand_waits(list(counts), shapes, melds)[1]))
    return number, waits


def _pending_deltas(result: HandResult, players: int) -> list[int]:
    """The hand's score changes: settled (``result.deltas``) or, before ``end_round``, the
    wins' deltas so far."""
    if result.deltas:
        return list(result.deltas)
    deltas = [0] * players
    for win in result.wins:
        for seat, delta in enumerate(win.deltas):
            deltas[seat] += delta
    return deltas


def _meld_view(meld: Meld, source: int | None) -> MeldView:
    tiles = tuple(map(_tile_words, sorted(meld.tiles, key=_sort_key)))
    closed = meld.type is MeldType.ANKAN or source is None
    return MeldView(
        type=MELD_TYPES[meld.type],
        tiles=tiles,
        called=None if closed else _tile_words(meld.tiles[0]),
        from_seat=None if closed else source,
    )
