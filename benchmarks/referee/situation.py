"""How each win of a canonical record came about, worked out from the events alone.

The ``mahjong`` package scores a hand, but it must be told how the hand was won: riichi, ippatsu,
haitei, rinshan, chankan and the rest. Taking those flags from our engine would let a wrong flag
pass on both sides, so this module derives them again from the record's events with its own
small tracker (it shares no code with ``engine/state``). Where it and our engine disagree, the
``mahjong`` judge reports a disagreement, and the referee's reader decides which side is right.

The rules it follows are Tenhou's and Mahjong Soul's (both agree on all of them):

* riichi: the winner declared riichi and made the riichi discard; double riichi when that discard
  was the winner's first and no call (chi, pon, any kan) had been made in the hand before it;
* ippatsu: a win before the riichi player's next discard, with no call (any kan included) made
  since the riichi discard;
* tenhou / chiihou: a tsumo on the winner's first draw of the hand, with no call (any kan) made
  before it;
* sanma's North extraction counts as a call for all of these on both platforms, once nobody
  robs it (Mahjong Soul: riichi.wiki's Majsoul page, "North replacing is similar to a calling
  action, thus this can nullify Ippatsu, Blessing of Earth, Nine Different Terminals and Honors
  and Double Riichi"; Tenhou: real 2025 sanma games, see docs/rules.md), as an added kan does
  once nobody robs it;
* rinshan: a tsumo on a replacement draw (after a kan or a North extraction);
* haitei: a tsumo on the last tile of the live wall (a replacement draw is never haitei);
  houtei: a ron on the discard that follows the last draw of the hand;
* chankan: a ron on an added kan's tile (or, for thirteen orphans, a closed kan's); a ron on an
  extracted North is not chankan;
* the live wall: every draw, replacements included, uses one tile of it (a kan or a North moves
  the last live tile into the dead wall), so the hand's last draw is draw number ``live_wall``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiDeclared,
    Round,
    Win,
)
from engine.tiles import Tile

WIND_LETTERS = "ESWN"


@dataclass
class Meld:
    """A called or declared meld: ``kind`` is ``chi``, ``pon``, ``minkan``, ``ankan`` or
    ``kakan`` (the scoring request's names)."""

    kind: str
    tiles: list[Tile]


@dataclass
class WinSituation:
    """Everything a scorer needs about one win, from the record."""

    index: int  # the Win event's index in the round
    seat: int
    from_seat: int
    tile: Tile
    #: Concealed tiles, the winning tile included.
    hand: list[Tile]
    melds: list[Meld]
    dora: list[Tile]
    ura: list[Tile]
    seat_wind: str
    round_wind: str
    kita: int
    flags: dict[str, bool] = field(default_factory=dict)

    @property
    def tsumo(self) -> bool:
        return self.seat == self.from_seat


@dataclass
class _Seat:
    hand: list[Tile]
    melds: list[Meld] = field(default_factory=list)
    draws: int = 0
    discards: int = 0
    riichi: bool = False
    double_riichi: bool = False
    declaring: bool = False
    ippatsu: bool = False
    kita: int = 0


def _take(tiles: list[Tile], tile: Tile) -> None:
    """Remove ``tile`` (exactly that tile, red or not) from ``tiles``; a record that does not
    hold it is the replayer's business, so fall back on any tile of the kind."""
    if tile in tiles:
        tiles.remove(tile)
        return
    for held in tiles:
        if held.kind == tile.kind:
            tiles.remove(held)
            return


def win_situations(round_: Round, players: int, live_wall: int) -> Iterator[WinSituation]:
    """Every win of a round, with how it came about (see the module docstring)."""
    # An added kan or a North breaks the first go-around and ippatsu once it is not robbed:
    # when its replacement tile is drawn.
    seats = [_Seat(hand=list(hand)) for hand in round_.hands]
    dora = list(round_.dora_indicators)
    draws = 0  # every draw, replacements included
    called = False  # a call or a kan has been made in the hand
    replacement_due = False  # the next draw comes from the dead wall
    last_draw_replacement = False
    last_kind = ""  # what the last tile offered to the others was: discard, added_kan, ...
    discard_after_last_draw = False
    kan_breaks_ippatsu = False
    for index, event in enumerate(round_.events):
        if isinstance(event, Draw):
            seat = seats[event.seat]
            draws += 1
            seat.draws += 1
            seat.hand.append(event.tile)
            last_draw_replacement = replacement_due
            replacement_due = False
        elif isinstance(event, Discard):
            seat = seats[event.seat]
            _take(seat.hand, event.tile)
            if seat.declaring:
                seat.declaring = False
                seat.riichi = True
                seat.double_riichi = seat.discards == 0 and not called
                seat.ippatsu = True
            else:
                seat.ippatsu = False
            seat.discards += 1
            last_kind = "discard"
            discard_after_last_draw = draws >= live_wall
        elif isinstance(event, RiichiDeclared):
            seats[event.seat].declaring = True
        elif isinstance(event, Chi | Pon | OpenKan):
            seat = seats[event.seat]
            for tile in event.consumed:
                _take(seat.hand, tile)
            kind = {Chi: "chi", Pon: "pon", OpenKan: "minkan"}[type(event)]
            seat.melds.append(Meld(kind, sorted([event.tile, *event.consumed])))
            called = True
            for other in seats:
                other.ippatsu = False
            replacement_due = isinstance(event, OpenKan)
        elif isinstance(event, ClosedKan):
            seat = seats[event.seat]
            for tile in event.tiles:
                _take(seat.hand, tile)
            seat.melds.append(Meld("ankan", sorted(event.tiles)))
            called = True
            for other in seats:
                other.ippatsu = False
            replacement_due = True
            last_kind = "closed_kan"
        elif isinstance(event, AddedKan):
            seat = seats[event.seat]
            _take(seat.hand, event.tile)
            for meld in seat.melds:
                if meld.kind == "pon" and meld.tiles[0].kind == event.tile.kind:
                    meld.kind = "kakan"
                    meld.tiles = sorted([*meld.tiles, event.tile])
                    break
            called = True
            replacement_due = True
            last_kind = "added_kan"
            # Ippatsu ends with the kan, but a chankan ron on it still counts (the kan never
            # happened): the flags are cleared when the replacement tile is drawn.
            kan_breaks_ippatsu = True
        elif isinstance(event, NorthExtraction):
            seat = seats[event.seat]
            _take(seat.hand, event.tile)
            seat.kita += 1
            replacement_due = True
            last_kind = "north"
            kan_breaks_ippatsu = True
        elif isinstance(event, DoraRevealed):
            dora.append(event.indicator)
        elif isinstance(event, Win):
            seat = seats[event.seat]
            tsumo = event.seat == event.from_seat
            hand = list(seat.hand)
            if not tsumo:
                hand.append(event.tile)
            rel = (event.seat - round_.dealer) % players
            first_draw = seat.draws == 1 and seat.discards == 0 and not called
            flags = {
                "tsumo": tsumo,
                "riichi": seat.riichi and not seat.double_riichi,
                "double_riichi": seat.double_riichi,
                "ippatsu": seat.riichi and seat.ippatsu,
                "rinshan": tsumo and last_draw_replacement,
                "haitei": tsumo and draws >= live_wall and not last_draw_replacement,
                "houtei": not tsumo and last_kind == "discard" and discard_after_last_draw,
                "chankan": not tsumo and last_kind in ("added_kan", "closed_kan"),
                "tenhou": tsumo and first_draw and rel == 0,
                "chiihou": tsumo and first_draw and rel != 0,
            }
            in_riichi = seat.riichi or seat.double_riichi
            yield WinSituation(
                index=index,
                seat=event.seat,
                from_seat=event.from_seat,
                tile=event.tile,
                hand=hand,
                melds=[Meld(m.kind, list(m.tiles)) for m in seat.melds],
                dora=list(dora),
                ura=list(round_.ura_indicators) if in_riichi else [],
                seat_wind=WIND_LETTERS[rel],
                round_wind=WIND_LETTERS[round_.wind],
                kita=seat.kita,
                flags=flags,
            )
        if isinstance(event, Draw) and kan_breaks_ippatsu:
            # The added kan or North was not robbed: it counts as a call from now on.
            kan_breaks_ippatsu = False
            called = True
            for other in seats:
                other.ippatsu = False


def hands_at_end(round_: Round) -> list[tuple[list[Tile], list[Meld]]]:
    """Every seat's concealed tiles and melds once the round's events are played."""
    seats = [_Seat(hand=list(hand)) for hand in round_.hands]
    for event in round_.events:
        if isinstance(event, Draw):
            seats[event.seat].hand.append(event.tile)
        elif isinstance(event, Discard | NorthExtraction):
            _take(seats[event.seat].hand, event.tile)
        elif isinstance(event, Chi | Pon | OpenKan):
            seat = seats[event.seat]
            for tile in event.consumed:
                _take(seat.hand, tile)
            kind = {Chi: "chi", Pon: "pon", OpenKan: "minkan"}[type(event)]
            seat.melds.append(Meld(kind, sorted([event.tile, *event.consumed])))
        elif isinstance(event, ClosedKan):
            seat = seats[event.seat]
            for tile in event.tiles:
                _take(seat.hand, tile)
            seat.melds.append(Meld("ankan", sorted(event.tiles)))
        elif isinstance(event, AddedKan):
            seat = seats[event.seat]
            _take(seat.hand, event.tile)
            for meld in seat.melds:
                if meld.kind == "pon" and meld.tiles[0].kind == event.tile.kind:
                    meld.kind = "kakan"
                    meld.tiles = sorted([*meld.tiles, event.tile])
                    break
    return [(seat.hand, seat.melds) for seat in seats]
