"""One round's 17 elements, decoded and checked, before the turns are interleaved."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from engine.errors import MalformedLogError
from engine.events import RecordedWin
from engine.formats.base import ReaderWarnings
from engine.formats.tenhou6.calls import (
    DUMMY,
    TAKE_KINDS,
    TILE_OF_CODE,
    TSUMOGIRI,
    CallString,
    cached_call,
)
from engine.formats.tenhou6.strings import (
    ABORTS,
    DRAWN,
    NAGASHI,
    WON,
    parse_score,
    parse_yaku,
    result_label,
)
from engine.formats.tenhou6.values import (
    as_array,
    as_ints,
    as_seat,
    as_str,
    as_tiles,
    kind_name,
    per_seat,
)
from engine.rules.yaku import YAKU
from engine.scoring.limits import yakuman_limit
from engine.tiles import Tile

# -- one round ------------------------------------------------------------------------------------

#: A take (a drawn tile, or a chi/pon/open-kan string) or a discard slot (a tile, a riichi,
#: closed-kan, added-kan or north string, 60 or 0), decoded.
Slot: TypeAlias = Tile | CallString | int
_DISCARD_CODES: Final[dict[int, Slot]] = {**TILE_OF_CODE, TSUMOGIRI: TSUMOGIRI, DUMMY: DUMMY}


@dataclass(frozen=True, slots=True)
class WinRecord:
    seat: int
    from_seat: int
    recorded: RecordedWin


class RoundData:
    """One round's 17 elements, decoded and checked, before the turns are interleaved."""

    def __init__(
        self,
        raw: list[Any],
        players: int,
        place: str,
        warnings: ReaderWarnings | None = None,
        *,
        kan_dora_elsewhere: bool = False,
    ) -> None:
        self.players, self.place = players, place
        #: Whether another round of the game lists a kan's indicator (the game has kan dora).
        self.kan_dora_elsewhere = kan_dora_elsewhere
        #: Where the round's odd but readable spellings are noted (a converter's quirks).
        self.warnings = ReaderWarnings() if warnings is None else warnings
        head = as_ints(raw[0], self.at(0))
        if len(head) != 3 or not 0 <= head[0] < 16 or min(head) < 0:
            raise MalformedLogError(f"{head} is not [kyoku 0-15, honba, sticks]", self.at(0))
        kyoku, self.honba, self.sticks = head
        self.wind, self.number, self.dealer = kyoku // 4, kyoku % 4 + 1, kyoku % 4
        if self.dealer >= players:
            raise MalformedLogError(f"kyoku {kyoku}: sanma has no seat {self.dealer}", self.at(0))
        self.scores = per_seat(raw[1], players, self.at(1))
        self.indicators = as_tiles(raw[2], self.at(2))
        if not self.indicators:
            raise MalformedLogError("no dora indicator", self.at(2))
        self.ura = as_tiles(raw[3], self.at(3))
        self.hands: list[tuple[Tile, ...]] = []
        self.takes: list[list[Slot]] = []
        self.discards: list[list[Slot]] = []
        for seat in range(players):
            hand = as_tiles(raw[4 + 3 * seat], self.at(4 + 3 * seat))
            if len(hand) != 13:
                raise MalformedLogError(
                    f"a starting hand of {len(hand)} tiles", self.at(4 + 3 * seat)
                )
            self.hands.append(hand)
            self.takes.append(self.items(raw, 5 + 3 * seat, TILE_OF_CODE, True))
            self.discards.append(self.items(raw, 6 + 3 * seat, _DISCARD_CODES, False))
        self.wins: tuple[WinRecord, ...] = ()
        self.label, self.deltas = self.result(raw[16], self.at(16))

    def at(self, index: int) -> str:
        return f"{self.place}[{index}]"

    def items(
        self, raw: list[Any], index: int, codes: Mapping[int, Slot], takes: bool
    ) -> list[Slot]:
        """A takes or discards array: codes through ``codes``, strings as call strings."""
        out: list[Slot] = []
        for i, item in enumerate(as_array(raw[index], self.at(index))):
            if item.__class__ is str:
                call = cached_call(item)
                if isinstance(call, str):
                    raise MalformedLogError(call, f"{self.at(index)}[{i}]")
                if (call.kind in TAKE_KINDS) != takes:
                    other = "takes" if call.kind in TAKE_KINDS else "discards"
                    raise MalformedLogError(
                        f"a {call.kind} belongs in the {other}", f"{self.at(index)}[{i}]"
                    )
                out.append(call)
            elif item.__class__ in (int, float) and item in codes:
                out.append(codes[int(item)])
            else:
                raise MalformedLogError(
                    f"{kind_name(item)} is not a tile code", f"{self.at(index)}[{i}]"
                )
        return out

    def result(self, value: Any, where: str) -> tuple[str, tuple[int, ...] | None]:
        """The result's label and payments; a win's (deltas, detail) pairs go to ``wins``."""
        items = as_array(value, where)
        label = result_label(as_str(items[0], f"{where}[0]")) if items else ""
        if label == WON:
            if len(items) < 3 or len(items) % 2 == 0:
                raise MalformedLogError("'和了' is followed by (deltas, detail) pairs", where)
            self.wins = tuple(self.win(items, i, where) for i in range(1, len(items), 2))
            return label, None
        if label not in DRAWN and label != NAGASHI and label not in ABORTS:
            raise MalformedLogError(f"unknown result {label!r}", f"{where}[0]")
        deltas = None
        if len(items) > 1 and items[1] != []:
            deltas = per_seat(items[1], self.players, f"{where}[1]")
        if label == NAGASHI and deltas is None:
            raise MalformedLogError("流し満貫 without its payments", where)
        return label, deltas

    def win(self, items: list[Any], index: int, where: str) -> WinRecord:
        """One winner: ``deltas`` then ``[who, fromWho, paoWho, score, yaku...]`` (a converter
        may stop after paoWho)."""
        players = self.players
        deltas = per_seat(items[index], players, f"{where}[{index}]")
        at = f"{where}[{index + 1}]"
        detail = as_array(items[index + 1], at)
        if len(detail) < 3:
            raise MalformedLogError("a win's detail starts [who, fromWho, paoWho]", at)
        seat, from_seat, liable = (as_seat(detail[i], players, f"{at}[{i}]") for i in range(3))
        recorded = RecordedWin(deltas=deltas, liable=None if liable == seat else liable)
        if len(detail) == 3:
            return WinRecord(seat, from_seat, recorded)
        winds = {"seat_wind": (seat - self.dealer) % players, "round_wind": self.wind}
        pairs = (
            parse_yaku(as_str(text, f"{at}[{i}]"), **winds, where=f"{at}[{i}]")
            for i, text in enumerate(detail[4:], 4)
        )
        yaku = tuple(pair for pair in pairs if pair[1])  # "裏ドラ(0飜)": none found, no yaku
        text = as_str(detail[3], f"{at}[3]")
        if not text.strip():
            # jansou's writer cannot rebuild the score string and leaves it empty: the win's
            # worth is not recorded, but its score changes (and any yaku strings) are.
            self.warnings.add(
                "an empty score string (as jansou's tenhou.net/6 writer leaves it): the win's "
                "points, fu and limit are not recorded; its score changes"
                + (" and yaku are" if yaku else " are")
                + " checked",
                f"{at}[3]",
            )
            if not yaku:
                return WinRecord(seat, from_seat, recorded)
            han = sum(h for _, h in yaku) or None
            return WinRecord(seat, from_seat, dataclasses.replace(recorded, han=han, yaku=yaku))
        score = parse_score(text, f"{at}[3]")
        if score.tsumo != (seat == from_seat):
            raise MalformedLogError(
                f"{detail[3]!r} is not a {'tsumo' if seat == from_seat else 'ron'}'s score",
                f"{at}[3]",
            )
        points = score.points(players)
        limit = score.limit
        if limit == "yakuman" and any(YAKU[name].yakuman for name, _ in yaku):
            limit = self.yakuman_limit(seat, from_seat, points)
        han = score.han if score.han is not None else sum(h for _, h in yaku) or None
        return WinRecord(
            seat,
            from_seat,
            RecordedWin(
                han=han,
                fu=score.fu,
                yaku=yaku,
                points=points,
                limit=limit,
                deltas=deltas,
                liable=recorded.liable,
            ),
        )

    def yakuman_limit(self, seat: int, from_seat: int, points: int) -> str:
        """``yakuman``, or ``double_yakuman``... when the points are a multiple of one yakuman
        (base 8000; 6 bases to a dealer, 4 to others; a sanma tsumo loses the North seat's
        share: 4 and 3), named as the mjlog reader names them."""
        dealer = seat == self.dealer
        factor = (
            (6 if dealer else 4) if seat != from_seat or self.players == 4 else (4 if dealer else 3)
        )
        single = 8000 * factor
        if points > single and points % single == 0:
            return yakuman_limit(points // single)[1]
        return "yakuman"
