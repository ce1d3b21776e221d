"""tenhou.net/6 tile codes and call strings (``"c275226"``, ``"r60"``...): decoding and
writing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from engine.errors import MalformedLogError
from engine.tiles import Tile, tile_of

# -- tiles and call strings -----------------------------------------------------------------------

#: 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N haku hatsu chun, 51-53 red 5m/5p/5s.
TILE_OF_CODE: Final[dict[int, Tile]] = {
    **{
        10 * s + 10 + rank: tile_of(suit, rank)
        for s, suit in enumerate("mps")
        for rank in range(1, 10)
    },
    **{40 + rank: tile_of("z", rank) for rank in range(1, 8)},
    **{51 + s: tile_of(suit, 5, red=True) for s, suit in enumerate("mps")},
}
CODE_OF_TILE: Final = {tile: code for code, tile in TILE_OF_CODE.items()}
#: In a discard array: the tile just drawn was discarded.
TSUMOGIRI: Final = 60
#: In a discard array: the slot of an open kan's caller, who draws instead of discarding.
DUMMY: Final = 0

_KINDS: Final = {
    "c": "chi",
    "p": "pon",
    "m": "open_kan",
    "k": "added_kan",
    "a": "closed_kan",
    "r": "riichi",
    "f": "north",
}
_LETTERS: Final = {kind: letter for letter, kind in _KINDS.items()}
#: Letter -> {its position: the seat offset the called tile came from (3 left, 2 across,
#: 1 right)}. The letter stands right before the called tile; where it stands says who gave it.
_POSITIONS: Final[dict[str, dict[int, int]]] = {
    "c": {0: 3},
    "p": {0: 3, 2: 2, 4: 1},
    "m": {0: 3, 2: 2, 6: 1},
    "k": {0: 3, 2: 2, 4: 1},
    "a": {6: 0},
    "r": {0: 0},
    "f": {0: 0},
}
_SIZES: Final = {"c": 3, "p": 3, "m": 4, "k": 4, "a": 4, "r": 1, "f": 1}
_DIGITS: Final = frozenset("0123456789")
#: Call kinds that are takes (the rest are in the discard arrays).
TAKE_KINDS: Final = frozenset({"chi", "pon", "open_kan"})


@dataclass(frozen=True, slots=True)
class CallString:
    """One decoded call string (``"c275226"``, ``"12p1212"``, ``"k16161616"``, ``"r60"``...).

    ``kind``: ``chi``, ``pon``, ``open_kan``, ``added_kan``, ``closed_kan``, ``riichi``,
    ``north``. ``tile``: the tile after the letter: the called tile, the added tile (added kan),
    the riichi discard (``None`` for ``r60``, a tsumogiri), the North, a closed kan's 4th tile.
    ``others``: the rest in written order: the caller's own tiles (chi, pon, open kan), the pon
    being extended (added kan, its called tile included), all four tiles (closed kan).
    ``offset``: where the called tile came from, counted over four seats from the caller
    (3 left/kamicha, 2 across, 1 right; 0 for the caller's own tiles).
    """

    kind: str
    tile: Tile | None
    others: tuple[Tile, ...]
    offset: int


def parse_call(text: str, where: str | None = None) -> CallString:
    """Decode a call string, checking that its tiles form what its letter says.

    :raises MalformedLogError: anything else (at ``where``).
    """
    found = [i for i, char in enumerate(text) if char not in _DIGITS]
    if len(found) != 1 or text[found[0]] not in _KINDS:
        raise MalformedLogError(
            f"call string {text!r} is not 2-digit tile codes and one letter of {''.join(_KINDS)}",
            where,
        )
    position = found[0]
    letter = text[position]
    kind = _KINDS[letter]
    offset = _POSITIONS[letter].get(position)
    digits = text[:position] + text[position + 1 :]
    if offset is None or len(digits) != 2 * _SIZES[letter]:
        places = " or ".join(map(str, _POSITIONS[letter]))
        raise MalformedLogError(
            f"call string {text!r}: a {kind} is {_SIZES[letter]} tile codes with {letter!r} "
            f"at index {places}",
            where,
        )
    codes = [int(digits[i : i + 2]) for i in range(0, len(digits), 2)]
    if letter == "r" and codes[0] == TSUMOGIRI:
        return CallString(kind, None, (), 0)
    if any(code not in TILE_OF_CODE for code in codes):
        raise MalformedLogError(f"call string {text!r} holds a code that is no tile", where)
    tiles = [TILE_OF_CODE[code] for code in codes]
    if letter == "a":
        call = CallString(kind, tiles[3], tuple(tiles), 0)
    else:
        at = position // 2
        call = CallString(kind, tiles[at], (*tiles[:at], *tiles[at + 1 :]), offset)
    kinds = sorted(tile.kind for tile in (tiles if letter != "r" else ()))
    if kind == "chi":
        ok = kinds[2] < 27 and kinds == list(range(kinds[0], kinds[0] + 3)) and kinds[0] % 9 < 7
    elif kind == "north":
        ok = kinds == [30]
    else:
        ok = not kinds or kinds[0] == kinds[-1]
    if not ok:
        raise MalformedLogError(f"call string {text!r}: its tiles do not form a {kind}", where)
    return call


@lru_cache(maxsize=4096)
def cached_call(text: str) -> CallString | str:
    """:func:`parse_call` remembered (a game repeats its strings), or the error's text."""
    try:
        return parse_call(text)
    except MalformedLogError as error:
        return str(error)


def format_call(call: CallString) -> str:
    """The call string of a :class:`CallString` (the inverse of :func:`parse_call`)."""
    if call.tile is None:
        return f"r{TSUMOGIRI}"
    if call.kind == "closed_kan":
        return "".join(map(tile_text, call.others[:3])) + "a" + tile_text(call.others[3])
    letter = _LETTERS[call.kind]
    where = {offset: at for at, offset in _POSITIONS[letter].items()}.get(call.offset)
    if where is None:
        raise MalformedLogError(f"a {call.kind} from seat offset {call.offset} has no string")
    parts = [tile_text(tile) for tile in call.others]
    parts.insert(where // 2, letter + tile_text(call.tile))
    return "".join(parts)


def tile_code(tile: Tile) -> int:
    try:
        return CODE_OF_TILE[tile]
    except KeyError:
        raise MalformedLogError(f"tile {tile} has no tenhou.net/6 code") from None


def tile_text(tile: Tile) -> str:
    return str(tile_code(tile))


def tenhou_order(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """Tiles as Tenhou lists a hand or a meld's own tiles: by kind, a red five after the plain
    ones (``"151515a51"``, ``"2552p25"``)."""
    return tuple(sorted(tiles, key=lambda tile: (tile.kind, tile.red)))
