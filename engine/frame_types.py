"""The frame types: the table of one round after each of its events, as the viewer reads it.

A *frame* is the state of one round after some of its events have been applied: step 0 is the
deal, step ``k`` the table after event ``k - 1``. These types are the contract between the frames
API and the viewer page (``docs/replay.md``, "Frames"). Every game family's framer builds them
(riichi's in :mod:`engine.variants.riichi.frames`, each family's own, found through
:mod:`engine.families`); a family adds members by subclassing them. They live here, below every
framer.

:class:`FrameDriver` is the framer loop itself, written once against the table protocol
(:class:`engine.table.Table`): a family's framer subclasses it and supplies how its table is
drawn into these types and its actions in words. :func:`round_outcomes` is the round list every
family shares.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, TypeVar

from engine.errors import IllegalActionError
from engine.events import Event, Game
from engine.table import HandEnd, Table

#: What a discrepancy that concerns the end of the game compares (``engine.replay``): shown at
#: the last frame of its round rather than at the deal.
_GAME_END_CHECKS: Final = frozenset({"final scores", "game end"})


# -- the frame's parts ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RiverTile:
    """One discard in a river."""

    tile: str
    #: The tile just drawn was discarded.
    tsumogiri: bool
    #: The riichi discard (shown turned).
    riichi: bool
    #: Called away by another player (it lies in their meld too).
    called: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "tsumogiri": self.tsumogiri,
            "riichi": self.riichi,
            "called": self.called,
        }


@dataclass(frozen=True, slots=True)
class MeldView:
    """One meld: its type, tiles (sorted), the called tile and whom it came from."""

    type: str
    tiles: tuple[str, ...]
    #: The tile taken from another player (``None`` for a closed kan).
    called: str | None
    #: The seat it came from (``None`` for a closed kan).
    from_seat: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "tiles": list(self.tiles),
            "called": self.called,
            "from": self.from_seat,
        }


@dataclass(frozen=True, slots=True)
class WaitView:
    """A tile that completes a tenpai hand, and how many of it the seat cannot see."""

    tile: str
    unseen: int

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "unseen": self.unseen}


@dataclass(frozen=True, slots=True)
class SeatFrame:
    """One seat in a frame."""

    #: Concealed tiles, sorted, without the drawn tile.
    hand: tuple[str, ...]
    #: The tile just drawn, kept apart.
    drawn: str | None
    discards: tuple[RiverTile, ...]
    melds: tuple[MeldView, ...]
    #: North tiles extracted (sanma).
    north: int
    score: int
    #: Score change made by this frame's action.
    delta: int
    #: Riichi declared and accepted.
    riichi: bool
    #: Shanten of the concealed tiles (the drawn one included) with the melds; ``-1`` complete;
    #: ``None`` only for a deal the rules refuse (impossible tile counts).
    shanten: int | None
    #: When the concealed tiles are 3n+1 and tenpai: the winning tiles.
    waits: tuple[WaitView, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": list(self.hand),
            "drawn": self.drawn,
            "discards": [tile.to_json() for tile in self.discards],
            "melds": [meld.to_json() for meld in self.melds],
            "north": self.north,
            "score": self.score,
            "delta": self.delta,
            "riichi": self.riichi,
            "shanten": self.shanten,
            "waits": [wait.to_json() for wait in self.waits],
        }


@dataclass(frozen=True, slots=True)
class Action:
    """The event a frame applied, with a sentence for people.

    ``details`` holds the fields of its type (``tile``, ``tsumogiri``, ``from``, ...; see
    ``docs/replay.md``).
    """

    type: str
    seat: int | None
    text: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, **self.details, "text": self.text}


@dataclass(frozen=True, slots=True)
class WinView:
    """One win as the engine values it, with the winner's hand."""

    seat: int
    #: The discarder (``None`` for a tsumo).
    from_seat: int | None
    #: Concealed tiles without the winning tile.
    hand: tuple[str, ...]
    melds: tuple[MeldView, ...]
    tile: str
    yaku: tuple[tuple[str, int], ...]
    han: int
    fu: int
    limit: str | None
    points: int
    deltas: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "from": self.from_seat,
            "hand": list(self.hand),
            "melds": [meld.to_json() for meld in self.melds],
            "tile": self.tile,
            "yaku": [[name, han] for name, han in self.yaku],
            "han": self.han,
            "fu": self.fu,
            "limit": self.limit,
            "points": self.points,
            "deltas": list(self.deltas),
        }


@dataclass(frozen=True, slots=True)
class TenpaiHand:
    """A hand shown at an exhaustive draw."""

    seat: int
    hand: tuple[str, ...]
    melds: tuple[MeldView, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": list(self.hand),
            "melds": [meld.to_json() for meld in self.melds],
        }


@dataclass(frozen=True, slots=True)
class Result:
    """How the round ended (``type``: win, exhaustive_draw, nagashi_mangan, abortive_draw)."""

    type: str
    #: Every seat's score change from the end (riichi deposits not included).
    deltas: tuple[int, ...]
    scores_after: tuple[int, ...]
    wins: tuple[WinView, ...] = ()
    tenpai: tuple[TenpaiHand, ...] = ()
    #: Nagashi mangan: who.
    seats: tuple[int, ...] = ()
    #: Abortive draw: which (``AbortKind`` value) and in words.
    kind: str | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.type == "win":
            out["wins"] = [win.to_json() for win in self.wins]
        elif self.type == "exhaustive_draw":
            out["tenpai"] = [hand.to_json() for hand in self.tenpai]
        elif self.type == "nagashi_mangan":
            out["seats"] = list(self.seats)
            out["tenpai"] = [hand.to_json() for hand in self.tenpai]
        elif self.type == "abortive_draw":
            out["kind"] = self.kind
            out["text"] = self.text
        out["deltas"] = list(self.deltas)
        out["scores_after"] = list(self.scores_after)
        return out


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One discard the seat to move could make, and the tile acceptance of what it leaves
    (:mod:`engine.hand.acceptance`)."""

    #: The kind discarded (a red five as ``5m``).
    tile: str
    #: Shanten of the tiles left.
    shanten: int
    #: Copies of the accepted kinds the seat cannot see.
    count: int
    #: The kinds whose draw lowers that shanten, in kind order.
    tiles: tuple[str, ...]
    #: The yaku the tiles left can still reach without a step more than their shanten, by the
    #: engine's names (``engine.study.yaku_in_reach``); ``None`` where the engine does not judge
    #: a hand's value (rule sets not scored in han, space mahjong's shapes).
    yaku: tuple[str, ...] | None = None
    #: Against each seat of :attr:`Study.riichi`, in that order, how safe the discard is:
    #: ``genbutsu``, ``suji``, ``kabe``, ``one_chance`` or ``None`` (no sign); empty when no
    #: opponent is in riichi (``engine.study.discard_safety``).
    safety: tuple[str | None, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "shanten": self.shanten,
            "count": self.count,
            "tiles": list(self.tiles),
            "yaku": None if self.yaku is None else list(self.yaku),
            "safety": list(self.safety),
        }


@dataclass(frozen=True, slots=True)
class Study:
    """The study aid of a frame where a seat chose a discard: every discard it could make with
    its tile acceptance, best first, and the discard it made (``docs/replay.md``, "Frames")."""

    seat: int
    #: The lowest shanten a discard leaves.
    shanten: int
    #: The most copies accepted by a discard that leaves it.
    best: int
    options: tuple[DiscardOption, ...]
    #: Copies the seat cannot see of each kind some option accepts, in kind order.
    unseen: tuple[tuple[str, int], ...]
    #: The kind the seat discarded next.
    discard: str
    #: ``best`` less the discard's count; ``None`` when the discard raised the shanten.
    loss: int | None
    #: The other seats in riichi (their riichi discard made), in seat order: what each option's
    #: ``safety`` is judged against.
    riichi: tuple[int, ...] = ()
    #: What the discard made kept that every discard keeping the most acceptance gives up, when
    #: it did not keep the most: ``value`` (a yaku in reach) and ``defence`` (a safer tile against
    #: the riichi); empty otherwise (``engine.study.trade_of``).
    trade: tuple[str, ...] = ()

    @property
    def kept(self) -> bool:
        """The discard kept the most acceptance (the lowest shanten, the best count)."""
        return self.loss == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "shanten": self.shanten,
            "best": self.best,
            "discard": self.discard,
            "kept": self.kept,
            "loss": self.loss,
            "unseen": dict(self.unseen),
            "options": [option.to_json() for option in self.options],
            "riichi": list(self.riichi),
            "trade": list(self.trade),
        }


@dataclass(frozen=True, slots=True)
class StudyTally:
    """One seat's discard decisions in one round (:meth:`engine.families.GameFamily.study`):
    how many, and how many kept the most acceptance (:class:`Study`); of them, those made
    facing an opponent's riichi and those whose discard was genbutsu against every riichi; and
    whether the seat dealt in on a discard that pushed a hand of two or more shanten against a
    riichi (``docs/stats.md``, "Defence")."""

    round: int
    seat: int
    decisions: int
    kept: int
    riichi_decisions: int = 0
    genbutsu: int = 0
    push_deal_in: bool = False


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after ``step`` events of the round."""

    step: int
    #: The event applied last (``None`` at step 0).
    action: Action | None
    round_name: str
    honba: int
    riichi_sticks: int
    dealer: int
    #: Live-wall tiles still to draw.
    wall_left: int
    dora_indicators: tuple[str, ...]
    #: Shown once a riichi hand has won.
    ura_indicators: tuple[str, ...]
    #: The seat that acted last (the dealer at step 0).
    turn: int
    seats: tuple[SeatFrame, ...]
    result: Result | None
    #: Where the seat to move chose a discard (after its draw or call): the study aid;
    #: ``None`` elsewhere, and in the families whose shanten the engine does not count.
    study: Study | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "action": None if self.action is None else self.action.to_json(),
            "round_name": self.round_name,
            "honba": self.honba,
            "riichi_sticks": self.riichi_sticks,
            "dealer": self.dealer,
            "wall_left": self.wall_left,
            "dora_indicators": list(self.dora_indicators),
            "ura_indicators": list(self.ura_indicators),
            "turn": self.turn,
            "seats": [seat.to_json() for seat in self.seats],
            "result": None if self.result is None else self.result.to_json(),
            "study": None if self.study is None else self.study.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Stop:
    """Why the frames of a round end before its last event: the event the rules refused
    (``None``: the deal itself) and the reason in words."""

    event: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class RoundFrames:
    """Every frame of one round."""

    index: int
    name: str
    honba: int
    players: tuple[str, ...]
    ruleset: str
    frames: tuple[Frame, ...]
    #: ``win``, ``exhaustive_draw``, ``nagashi_mangan``, ``abortive_draw`` or ``unfinished``.
    result: str
    #: Set when an illegal event (or deal) ended the frames early.
    stopped: Stop | None = None

    @property
    def last_step(self) -> int:
        return len(self.frames) - 1

    def to_json(self) -> dict[str, Any]:
        """The round's part of the frames API answer (``players``, ``players_count``,
        ``ruleset``, ``round``, ``frames``)."""
        return {
            "players": list(self.players),
            "players_count": len(self.players),
            "ruleset": self.ruleset,
            "round": self.index,
            "frames": [frame.to_json() for frame in self.frames],
        }


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """A round for the viewer's round selector."""

    index: int
    name: str
    honba: int
    #: As :attr:`RoundFrames.result`.
    result: str

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "name": self.name, "honba": self.honba, "result": self.result}


def discrepancy_step(discrepancy: Mapping[str, Any], frames: RoundFrames) -> int:
    """The frame to show a replay discrepancy at (``Discrepancy.to_json`` of the round of
    ``frames``): after the event it names (a score mismatch), the last frame (an illegal event:
    the state the event was tried on; a check of the game's end), or the deal (a check of the
    hand's start)."""
    event = discrepancy.get("event")
    last = frames.last_step
    if not isinstance(event, int):
        return last if discrepancy.get("what") in _GAME_END_CHECKS else 0
    if discrepancy.get("verdict") == "illegal_action":
        return last if frames.stopped is not None else min(event, last)
    return min(event + 1, last)


# -- the framer loop ------------------------------------------------------------------------------

#: A family's table (its state machine) and the result of one of its finished hands.
TableT = TypeVar("TableT", bound=Table[Any])
ResultT = TypeVar("ResultT", bound=HandEnd)


class FrameDriver(ABC, Generic[TableT, ResultT]):
    """The framer loop every family's framer shares: one round's frames, from a
    :class:`~engine.table.Table` driven through the round's events as the replayer drives it.

    :meth:`run` deals the round (a deal the table refuses gives the deal's frame only, read from
    the record by :meth:`deal_frame`, and stops), takes the frame of the deal, then for each
    event: asks what the action's words need from the table before it (:meth:`before`), pushes
    it (a refused event stops the frames: the last frame is the table it was tried on, and
    :attr:`RoundFrames.stopped` says why), lets the framer note what the table does not keep
    (:meth:`note`), settles and ends the hand at its last event if the hand is over, and takes
    the frame with the action in words (:meth:`action`, :meth:`frame`).

    A family supplies :meth:`new_table`, :meth:`deal_frame`, :meth:`frame`, :meth:`note` and
    :meth:`action`; :attr:`round_frames_type` names its :class:`RoundFrames` type.
    """

    #: The type of the round's frames (a family's subclass adds members).
    round_frames_type: ClassVar[type[RoundFrames]] = RoundFrames

    def __init__(self, game: Game, round_index: int, first_dealer: int) -> None:
        self.game = game
        self.index = round_index
        self.first_dealer = first_dealer
        self.round = game.rounds[round_index]
        self.names = tuple(
            player.name or f"Seat {seat}" for seat, player in enumerate(game.header.players)
        )
        #: The seat that acted last (the viewer marks it); the family's :meth:`note` moves it.
        self.turn = self.round.dealer

    def run(self) -> RoundFrames:
        """Every frame of the round."""
        round_ = self.round
        table = self.new_table()
        try:
            table.start_round(round_)
        except IllegalActionError as error:
            return self.finish((self.deal_frame(),), "unfinished", Stop(None, str(error)))
        frames = [self.frame(table, 0, None, final=False)]
        events = round_.events
        last = len(events) - 1
        outcome = "unfinished"
        stopped: Stop | None = None
        for number, event in enumerate(events):
            context = self.before(table, event)
            problem = table.push(event)
            if problem is not None:
                stopped = Stop(number, problem)
                break
            self.note(table, number, event)
            final = number == last and table.finished
            if final:
                result: ResultT = table.settle()
                outcome = result.kind
                table.end_round()
            action = self.action(table, event, context)
            frames.append(self.frame(table, number + 1, action, final=final))
        return self.finish(tuple(frames), outcome, stopped)

    def finish(self, frames: tuple[Frame, ...], outcome: str, stopped: Stop | None) -> RoundFrames:
        """The round's frames, of :attr:`round_frames_type`."""
        round_ = self.round
        return self.round_frames_type(
            index=self.index,
            name=round_.name,
            honba=round_.honba,
            players=self.names,
            ruleset=self.game.header.ruleset,
            frames=frames,
            result=outcome,
            stopped=stopped,
        )

    def name(self, seat: int) -> str:
        """A seat's player name (``Seat 4`` for a seat the header does not name)."""
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    # -- what each family supplies -----------------------------------------------------------

    @abstractmethod
    def new_table(self) -> TableT:
        """The family's table for this round (it starts from the record's deal)."""

    @abstractmethod
    def deal_frame(self) -> Frame:
        """Step 0 straight from the record, for a deal the table refuses."""

    @abstractmethod
    def frame(self, table: TableT, step: int, action: Action | None, *, final: bool) -> Frame:
        """The frame of the table after ``step`` events (``final``: the hand was settled into
        the scores at this step)."""

    def before(self, table: TableT, event: Event) -> str:
        """What the action's words need from the table before the event (a replacement draw,
        where a win comes from), in a word the family's :meth:`action` reads. None by default."""
        return ""

    @abstractmethod
    def note(self, table: TableT, number: int, event: Event) -> None:
        """The framer's own bookkeeping of an applied event (``number``: its index): what the
        table does not keep in the form the frames need (rivers, who acted, ...)."""

    @abstractmethod
    def action(self, table: TableT, event: Event, context: str) -> Action:
        """The applied event in words (``context``: what :meth:`before` found)."""


def round_outcomes(game: Game, new_table: Callable[[], Table[HandEnd]]) -> list[RoundInfo]:
    """Every round of a game with how it ends by the rules (``unfinished`` when the record stops
    before the hand's end or the rules refuse its deal or one of its events), each round played
    on its own ``new_table()`` from what the record deals, as the frames are."""
    rounds = []
    for index, round_ in enumerate(game.rounds):
        table = new_table()
        outcome = "unfinished"
        try:
            table.start_round(round_)
        except IllegalActionError:
            pass
        else:
            if table.push_events(round_.events) is None and table.finished:
                outcome = table.settle().kind
        rounds.append(RoundInfo(index, round_.name, round_.honba, outcome))
    return rounds
