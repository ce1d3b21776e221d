"""Rebuilding a round's event order from the per-seat takes and discards (with
backtracking)."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from engine.errors import MalformedLogError, UnsupportedLogError
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
    Win,
)
from engine.formats.tenhou6.calls import DUMMY, TSUMOGIRI, CallString
from engine.formats.tenhou6.round_data import RoundData, WinRecord
from engine.formats.tenhou6.strings import ABORTS, NAGASHI
from engine.tiles import Tile, is_yaochuu


class _Mismatch(Exception):
    """This interleaving of the takes and discards does not work out (the reader backtracks)."""

    def __init__(self, message: str, where: str, progress: int, unsupported: bool = False) -> None:
        super().__init__(message)
        self.message, self.where, self.progress = message, where, progress
        #: What went wrong is a rule the reader does not read, not a fault of the record.
        self.unsupported = unsupported


#: Phases of the turn loop.
_DRAW, _ACT, _CALLS, _RETRY, _END = range(5)
#: Options the search may try before giving up on a round (real logs need a handful).
_MAX_RETRIES: Final = 2000


class Interleaver:
    """Plays a round's turns to put every seat's takes and discards in one event sequence.

    The state is a few counters and the event list. A discard that some seat's next take can
    call is a choice point (the calls, pon and kan before chi, then the next seat's draw): it
    saves a snapshot, and a :class:`_Mismatch` further on restores the latest one and tries its
    next option (depth first). The error finally raised is the one that got furthest.
    """

    def __init__(self, data: RoundData) -> None:
        self.data = data
        self.n = data.players
        self.takes, self.discards = data.takes, data.discards
        self.ti = [0] * self.n
        self.di = [0] * self.n
        self.events: list[Event] = []
        self.last_draw: list[Tile | None] = [None] * self.n
        self.last_discard: Tile | None = None
        self.dora_used = 1
        #: The seat whose riichi discard waits to be accepted (before what comes next) or ronned.
        self.accept: int | None = None
        #: An open or added kan's dora waits for the kanner's discard or next kan.
        self.kan_dora = False

    def snapshot(self) -> tuple[Any, ...]:
        return (
            self.ti[:],
            self.di[:],
            len(self.events),
            self.last_draw[:],
            self.last_discard,
            self.dora_used,
            self.accept,
            self.kan_dora,
        )

    def restore(self, state: tuple[Any, ...]) -> None:
        ti, di, length, last_draw, self.last_discard, self.dora_used, self.accept, self.kan_dora = (
            state
        )
        self.ti, self.di, self.last_draw = ti[:], di[:], last_draw[:]
        del self.events[length:]

    def run(self) -> list[Event]:
        phase, seat = _DRAW, self.data.dealer
        choices: list[list[Any]] = []  # [snapshot, discarder, options, index of the next]
        best: _Mismatch | None = None
        for _ in range(_MAX_RETRIES):
            try:
                while phase != _END:
                    if phase == _DRAW:
                        phase, seat = self.draw(seat)
                    elif phase == _ACT:
                        phase, seat = self.act(seat)
                    elif phase == _CALLS:
                        options = self.options(seat)
                        if len(options) > 1:
                            choices.append([self.snapshot(), seat, options, 1])
                        phase, seat = self.apply(seat, options[0])
                    else:
                        choice = choices[-1]
                        choice[3] += 1
                        phase, seat = self.apply(choice[1], choice[2][choice[3] - 1])
                self.finish()
                return self.events
            except _Mismatch as mismatch:
                if best is None or mismatch.progress >= best.progress:
                    best = mismatch
                while choices and choices[-1][3] >= len(choices[-1][2]):
                    choices.pop()
                if not choices:
                    break
                self.restore(choices[-1][0])
                phase = _RETRY
        assert best is not None
        if best.unsupported:
            raise UnsupportedLogError(f"{best.where}: {best.message}")
        raise MalformedLogError(best.message, best.where)

    def fail(self, message: str, where: str, *, unsupported: bool = False) -> _Mismatch:
        return _Mismatch(message, where, len(self.events), unsupported)

    def slot_at(self, element: int, seat: int, index: int) -> str:
        """The place of a seat's take (element 5) or discard slot (element 6)."""
        return f"{self.data.at(element + 3 * seat)}[{index}]"

    def draw(self, seat: int) -> tuple[int, int]:
        """``seat`` draws its next take; a round whose next drawer has none left is over."""
        index = self.ti[seat]
        if index >= len(self.takes[seat]):
            return _END, seat
        tile = self.takes[seat][index]
        if tile.__class__ is not Tile:
            raise self.fail(
                f"seat {seat} is to draw, but its next take is a call no discard before it matches",
                self.slot_at(5, seat, index),
            )
        assert isinstance(tile, Tile)
        self.ti[seat] = index + 1
        self.flush_accept()
        self.events.append(Draw(seat, tile))
        self.last_draw[seat] = tile
        return _ACT, seat

    def act(self, seat: int) -> tuple[int, int]:
        """``seat`` plays its next discard slot (a discard, riichi or not, a kan, a kita); a
        seat with no slot left ends the round (tsumo, nine terminals)."""
        index = self.di[seat]
        if index >= len(self.discards[seat]):
            return _END, seat
        slot = self.discards[seat][index]
        self.di[seat] = index + 1
        if isinstance(slot, CallString) and slot.kind != "riichi":
            return self.kan_or_north(seat, slot)
        if slot == DUMMY:
            where = self.slot_at(6, seat, index)
            raise self.fail(f"an open kan's 0 where seat {seat} is to discard", where)
        if self.kan_dora:
            self.reveal()
        riichi = isinstance(slot, CallString)
        if riichi:
            self.events.append(RiichiDeclared(seat))
            self.accept = seat
        tile = slot.tile if isinstance(slot, CallString) else slot
        tsumogiri = tile is None or tile == TSUMOGIRI
        if tsumogiri:
            tile = self.last_draw[seat]
            if tile is None:
                where = self.slot_at(6, seat, index)
                raise self.fail(f"seat {seat} discards the tile it drew (60) but drew none", where)
        assert isinstance(tile, Tile)
        self.events.append(Discard(seat, tile, tsumogiri))
        self.last_draw[seat] = None
        self.last_discard = tile
        return _CALLS, seat

    def kan_or_north(self, seat: int, slot: CallString) -> tuple[int, int]:
        """A closed kan, added kan or kita, then the replacement draw. Without one the round
        ended there (robbed: chankan, or a ron on the North), and no dora is turned."""
        tile = slot.tile
        assert tile is not None
        if slot.kind == "closed_kan":
            self.events.append(ClosedKan(seat, slot.others))
        elif slot.kind == "added_kan":
            self.events.append(AddedKan(seat, tile))
        else:
            self.events.append(NorthExtraction(seat, tile))
        self.last_draw[seat] = self.last_discard = None
        if self.ti[seat] >= len(self.takes[seat]):
            self.kan_dora = False
            return _END, seat
        if self.kan_dora:  # Tenhou turns a pending open kan's dora as the next kan stands
            self.reveal()
        if slot.kind == "closed_kan":
            self.reveal()
        self.kan_dora = slot.kind == "added_kan"
        return _DRAW, seat

    def options(self, discarder: int) -> list[int]:
        """Who may take the last discard: the seats whose next take calls exactly that tile
        from the discarder (pon and kan before chi), then -1, the next seat's draw."""
        calls: list[int] = []
        chi: list[int] = []
        for step in range(1, self.n):
            seat = (discarder + step) % self.n
            index = self.ti[seat]
            if index < len(self.takes[seat]):
                take = self.takes[seat][index]
                if (
                    isinstance(take, CallString)
                    and take.tile == self.last_discard
                    and (seat + take.offset) % 4 == discarder
                ):
                    (chi if take.kind == "chi" else calls).append(seat)
        return [*calls, *chi, -1]

    def apply(self, discarder: int, caller: int) -> tuple[int, int]:
        """Play one option of :meth:`options`."""
        if caller < 0:
            return _DRAW, (discarder + 1) % self.n
        index = self.ti[caller]
        call = self.takes[caller][index]
        assert isinstance(call, CallString) and call.tile is not None
        self.ti[caller] = index + 1
        self.flush_accept()
        if call.kind != "open_kan":
            meld = Chi if call.kind == "chi" else Pon
            self.events.append(meld(caller, discarder, call.tile, call.others))
            return _ACT, caller
        self.events.append(OpenKan(caller, discarder, call.tile, call.others))
        slot = self.di[caller]
        if slot >= len(self.discards[caller]) or self.discards[caller][slot] != DUMMY:
            where = self.slot_at(6, caller, slot)
            raise self.fail(f"seat {caller}'s open kan has no 0 in its discards", where)
        if index + 1 >= len(self.takes[caller]):
            where = self.slot_at(5, caller, index)
            raise self.fail(f"seat {caller}'s open kan has no replacement draw", where)
        self.di[caller] = slot + 1
        self.kan_dora = True
        return _DRAW, caller

    def flush_accept(self) -> None:
        """The pending riichi discard passed: its stick goes down before whatever comes next."""
        if self.accept is not None:
            self.events.append(RiichiAccepted(self.accept))
            self.accept = None

    def reveal(self) -> None:
        indicators = self.data.indicators
        if len(indicators) == 1 and not self.data.kan_dora_elsewhere:
            # Tenhou turns an indicator for every kan that stands. A round whose kan turns none,
            # in a game where none ever does, was played without kan dora: a league's rule (the
            # JPML's A rules: jpml-a), which the record cannot name, nor the league's other
            # rules. Read by Tenhou's rules it would be judged wrongly.
            raise self.fail(
                "a kan turns no dora: the round lists no indicator after the first, and no round "
                "of the game lists one. The game was played without kan dora (a league's rule, "
                "such as the JPML's A rules), which tenhou.net/6 cannot name: not read, as its "
                "other rules are not known either",
                self.data.at(2),
                unsupported=True,
            )
        if self.dora_used >= len(indicators):
            raise self.fail(
                f"a kan turns a dora, but only {len(indicators)} indicator(s) are listed",
                self.data.at(2),
            )
        self.events.append(DoraRevealed(indicators[self.dora_used]))
        self.dora_used += 1
        self.kan_dora = False

    def finish(self) -> None:
        """Check that every take and discard was played and that the end fits the result; add
        the end events."""
        data = self.data
        for player in range(self.n):
            if self.ti[player] < len(self.takes[player]):
                where = self.slot_at(5, player, self.ti[player])
                raise self.fail(f"the round ended with seat {player}'s takes unplayed", where)
            if self.di[player] < len(self.discards[player]):
                where = self.slot_at(6, player, self.di[player])
                raise self.fail(f"the round ended with seat {player}'s discards unplayed", where)
        if self.dora_used < len(data.indicators):
            message = f"{len(data.indicators)} dora indicators, but the kans turn {self.dora_used}"
            raise self.fail(message, data.at(2))
        last = self.events[-1] if self.events else None
        if data.wins:
            wins = self.with_sticks(list(data.wins))
            for win in wins:
                self.events.append(
                    Win(win.seat, win.from_seat, self.won_tile(win, last), win.recorded)
                )
            return
        kind = ABORTS.get(data.label)
        seat: int | None = None
        if kind is AbortKind.NINE_TERMINALS:
            if not isinstance(last, Draw):
                raise self.fail("nine terminals, but the last play is no draw", data.at(16))
            seat = last.seat
        elif kind is AbortKind.TRIPLE_RON:
            offered = self.offered(last)
            if offered is None:
                raise self.fail("a triple ron, but no tile was just offered", data.at(16))
            seat = offered[0]
        else:
            self.flush_accept()
        if kind is not None:
            self.events.append(AbortiveDraw(kind, seat=seat, recorded_deltas=data.deltas))
        elif data.label == NAGASHI:
            assert data.deltas is not None
            self.events.append(NagashiMangan(self.nagashi_seats(data.deltas), data.deltas))
        else:
            self.events.append(self.exhaustive(data.label, data.deltas))

    def with_sticks(self, wins: list[WinRecord]) -> list[WinRecord]:
        """The wins, the riichi sticks added to the first winner's score change where the
        record left them out. Tenhou's score changes of a win add up to the sticks on the table
        (they go to the winner); some Mahjong Soul converters write them adding up to zero, while
        their final scores count the sticks. Changes adding up to anything else are left for
        the replay to judge."""
        sticks = self.data.sticks + sum(isinstance(event, RiichiAccepted) for event in self.events)
        changes = [win.recorded.deltas for win in wins]
        if not sticks or any(deltas is None for deltas in changes):
            return wins
        if sum(sum(deltas) for deltas in changes if deltas is not None) != 0:
            return wins
        first = wins[0]
        assert first.recorded.deltas is not None
        deltas = list(first.recorded.deltas)
        deltas[first.seat] += 1000 * sticks
        self.data.warnings.add(
            "the win's score changes leave out the riichi sticks the winner takes (as some "
            "Mahjong Soul converters write them); read with the sticks added",
            self.data.at(16),
        )
        recorded = dataclasses.replace(first.recorded, deltas=tuple(deltas))
        return [dataclasses.replace(first, recorded=recorded), *wins[1:]]

    def won_tile(self, win: WinRecord, last: Event | None) -> Tile:
        """The winning tile: the winner's own draw (tsumo), or the loser's offered tile."""
        if win.seat == win.from_seat:
            if isinstance(last, Draw) and last.seat == win.seat and len(self.data.wins) == 1:
                return last.tile
            message = f"seat {win.seat}'s tsumo does not follow its own draw"
            raise self.fail(message, self.data.at(16))
        offered = self.offered(last)
        if offered is None or offered[0] != win.from_seat:
            message = f"a ron on seat {win.from_seat}, which offered no tile"
            raise self.fail(message, self.data.at(16))
        return offered[1]

    @staticmethod
    def offered(last: Event | None) -> tuple[int, Tile] | None:
        """The seat and tile a ron can take: a discard, an added kan (chankan), a North, a
        closed kan (kokushi, where the rules allow it)."""
        if isinstance(last, ClosedKan):
            return last.seat, last.tiles[-1]
        if isinstance(last, Discard | AddedKan | NorthExtraction):
            return last.seat, last.tile
        return None

    def exhaustive(self, label: str, deltas: tuple[int, ...] | None) -> ExhaustiveDraw:
        """The wall ran out. Tenhou shows who was tenpai through the payments: the tenpai seats
        gain. 全員聴牌/全員不聴 say it in words, and nobody pays."""
        everyone = tuple(range(self.n))
        if label != "流局":
            return ExhaustiveDraw(everyone if label == "全員聴牌" else (), deltas or (0,) * self.n)
        if deltas is None or not any(deltas):
            return ExhaustiveDraw(None, deltas)  # no payment: everyone or no one, unsaid
        return ExhaustiveDraw(tuple(s for s in everyone if deltas[s] > 0), deltas)

    def nagashi_seats(self, deltas: tuple[int, ...]) -> tuple[int, ...]:
        """The seats paid for nagashi mangan: those that gain and discarded only terminals and
        honours, none of them called (all that gain when that leaves nobody)."""
        gaining = [seat for seat in range(self.n) if deltas[seat] > 0]
        clean = set(gaining)
        for event in self.events:
            if isinstance(event, Discard) and not is_yaochuu(event.tile.kind):
                clean.discard(event.seat)
            elif isinstance(event, Chi | Pon | OpenKan):
                clean.discard(event.from_seat)
        return tuple(seat for seat in gaining if seat in clean) or tuple(gaining)


def read_round(data: RoundData) -> Round:
    """The round of one checked ``log`` entry, its events put in one order."""
    return Round(
        wind=data.wind,
        number=data.number,
        dealer=data.dealer,
        honba=data.honba,
        sticks=data.sticks,
        scores=data.scores,
        hands=tuple(data.hands),
        dora_indicators=data.indicators[:1],
        events=tuple(Interleaver(data).run()),
        ura_indicators=data.ura,
    )
