"""The frame types: the table of one round after each of its events, as the viewer reads it.

A *frame* is the state of one round after some of its events have been applied: step 0 is the
deal, step ``k`` the table after event ``k - 1``. These types are the contract between the frames
API and the viewer page (``docs/replay.md``, "Frames"). Every game family's framer builds them
(riichi's in :mod:`engine.frames`, each family's own, found through :mod:`engine.families`);
a family adds members by subclassing them. They live here, below every framer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

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
