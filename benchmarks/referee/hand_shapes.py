"""Hand shapes the referee's classes look at, worked out with the ``mahjong`` package's agari
check rather than our engine: a hand's waits, thirteen orphans, and the seats' tiles at a given
moment of a record."""

from __future__ import annotations

import dataclasses

from mahjong.agari import Agari

from benchmarks.referee.situation import Meld, hands_at_end
from engine.events import Discard, Round, Win
from engine.tiles import Tile

_AGARI = Agari()
#: The kinds of thirteen orphans: the terminals and the honours.
ORPHANS = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))


def counts_of(tiles: list[Tile]) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile.kind] += 1
    return counts


def waits(tiles: list[Tile]) -> set[int]:
    """The kinds that complete a hand of concealed ``tiles`` (3n + 1 of them), its melds aside;
    a kind the tiles hold all four of is never a wait (there is no fifth copy)."""
    counts = counts_of(tiles)
    found = set()
    for kind in range(34):
        if counts[kind] >= 4:
            continue
        counts[kind] += 1
        if _AGARI.is_agari(counts):
            found.add(kind)
        counts[kind] -= 1
    return found


def is_thirteen_orphans(tiles: list[Tile]) -> bool:
    """Whether 14 concealed tiles are thirteen orphans: every terminal and honour, one twice."""
    counts = counts_of(tiles)
    return (
        len(tiles) == 14
        and all(counts[k] >= 1 for k in ORPHANS)
        and sum(counts[k] for k in ORPHANS) == 14
    )


def hands_before(round_: Round, index: int) -> list[tuple[list[Tile], list[Meld]]]:
    """Every seat's concealed tiles and melds once the round's events before ``index`` are
    played."""
    return hands_at_end(dataclasses.replace(round_, events=round_.events[:index]))


def in_temporary_furiten(round_: Round, index: int, seat: int) -> bool:
    """Whether ``seat`` is in temporary furiten at the decision after event ``index``: a tile of
    one of its waits was discarded by another seat, and not won on, since its own last discard
    (the discard at ``index`` itself aside). The waits are the hand's shape, whether or not a
    win on them would have a yaku (riichi.wiki, "Furiten": a player who "declines to ron a
    'winning tile' (even if said tile can't win due to lack of yaku)" is temporarily furiten
    until their next discard)."""
    events = round_.events
    tiles, _melds = hands_before(round_, index + 1)[seat]
    kinds = waits(tiles)
    if not kinds:
        return False
    for position in range(index - 1, -1, -1):
        event = events[position]
        if isinstance(event, Discard):
            if event.seat == seat:
                return False
            if event.tile.kind in kinds and not _won_on(events, position):
                return True
    return False


def _won_on(events: tuple[object, ...] | list[object], position: int) -> bool:
    following = events[position + 1] if position + 1 < len(events) else None
    return isinstance(following, Win)


def kan_karaten(tiles: list[Tile], melds: list[Meld]) -> bool:
    """Whether a hand is tenpai only on kinds of which its own kans hold all four copies (waits
    found by ``mahjong``'s agari check, not by our engine)."""
    if len(tiles) % 3 != 1:
        return False
    counts = counts_of(tiles)
    own = [0] * 34
    for meld in melds:
        for tile in meld.tiles:
            own[tile.kind] += 1
    found = waits(tiles)
    return bool(found) and all(counts[k] + own[k] >= 4 for k in found)


def dora_kind(indicator: int, players: int) -> int:
    """The kind an indicator (a kind, 0-33) makes dora: the next of its suit, 9 wrapping to 1;
    the winds in turn, East after North; the dragons in turn; in sanma, where only 1m and 9m
    of the characters are played, each makes the other dora."""
    if indicator < 27:
        suit, rank = divmod(indicator, 9)
        if players == 3 and suit == 0:
            return 8 if rank == 0 else 0
        return suit * 9 + (rank + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3
