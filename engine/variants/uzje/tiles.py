"""Ùzje tiles, their UJMJ notation, and the tile set of a table (seeds/002, "Tiles", "Notation").

**Tiles.** Three number suits with ranks 1-16: tongs ``t``, socks ``s``, mans ``m``. One *zero*
tile (four copies) that is an honour or a rank-0 number tile of any suit, whichever is
convenient. Honours: winds ``E S W N`` (or the compressed ``H`` = East/West, ``V`` =
South/North) and arrows ``C F P`` (red, green, white). Eight flowers ``h i j k`` (the seasons)
and ``o p q r`` (one to four).

**Value type.** A tile is an :class:`engine.tiles.Tile` so that the shared record classes
(:mod:`engine.events`) hold Ùzje tiles unchanged. Its suit letters are *uppercase* (``T S M`` for
the number suits, ``H`` for the zero and the honours, ``F`` for flowers) so that they never mean
a standard ``m p s z`` tile: the standard code sees them as foreign tiles (``kind == -1``). Do
not use ``str(tile)`` or ``tile.sort_key`` on them (those speak MPSZ); use :func:`format_tiles`
and :func:`sort_key` here.

**Kinds.** Hot code works on dense integers (:data:`KINDS` of them): ``0-15`` tongs 1-16,
``16-31`` socks, ``32-47`` mans, :data:`ZERO` = 48, then the honours ``E S W N H V C F P``
(49-57) and the flowers ``h i j k o p q r`` (58-65). The order is the conventional sort order of
the document: tongs, socks, mans, zero, winds, arrows; flowers apart.

**Notation** (UJMJ): a number tile is a rank character (``1``-``9``, ``x`` = 10, ``a``-``f`` =
11-16) and its suit letter, and a run of one suit shares the last suit letter (``9xas`` = 9, 10,
11 socks). ``Z`` is the zero as an honour, ``0t``/``0s``/``0m`` the zero used as a number (the
same physical tile). Honours are their capital letter, flowers their lower-case letter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from engine.errors import NotationError
from engine.tiles import Tile, tile_of

# -- suits, kinds ---------------------------------------------------------------------------------

#: Suit letters of the :class:`Tile` values (uppercase: never a standard MPSZ suit).
TONG: Final = "T"
SOCK: Final = "S"
MAN: Final = "M"
HONOUR: Final = "H"
FLOWER: Final = "F"
NUMBER_SUIT_CODES: Final = (TONG, SOCK, MAN)
#: The notation's suit letters, in the order of the number suits (index = suit number).
SUIT_LETTERS: Final = "tsm"

#: Number ranks 1-16; the zero is rank 0 of every suit.
MAX_RANK: Final = 16
RANK_CHARS: Final = "0123456789xabcdef"

#: First kind of each number suit (suit index 0 tongs, 1 socks, 2 mans).
SUIT_BASE: Final = (0, 16, 32)
ZERO: Final = 48
EAST: Final = 49
SOUTH: Final = 50
WEST: Final = 51
NORTH: Final = 52
HORIZONTAL: Final = 53  # compressed wind: East and West
VERTICAL: Final = 54  # compressed wind: South and North
RED: Final = 55
GREEN: Final = 56
WHITE: Final = 57
FIRST_FLOWER: Final = 58
KINDS: Final = 66

FULL_WINDS: Final = (EAST, SOUTH, WEST, NORTH)
COMPRESSED_WINDS: Final = (HORIZONTAL, VERTICAL)
ARROWS: Final = (RED, GREEN, WHITE)
#: Honour letters by kind, from the zero on.
HONOUR_LETTERS: Final = "ZESWNHVCFP"
#: Flower letters by kind, from the first flower on: the seasons, then one to four.
FLOWER_LETTERS: Final = "hijkopqr"
FLOWERS: Final = tuple(range(FIRST_FLOWER, FIRST_FLOWER + 8))
#: Flower *sets* (seasons, numbers): each set's four flowers in seat order E, S, W, N.
FLOWER_SETS: Final = (FLOWERS[:4], FLOWERS[4:])


def number_kind(suit: int, rank: int) -> int:
    """The kind of rank ``rank`` (0-16) of number suit ``suit`` (0-2): rank 0 is the zero."""
    return ZERO if rank == 0 else SUIT_BASE[suit] + rank - 1


def is_flower(kind: int) -> bool:
    return kind >= FIRST_FLOWER


def suit_of(kind: int) -> int:
    """Suit index 0-2 of a number kind."""
    return kind // 16


def rank_of(kind: int) -> int:
    """Rank 1-16 of a number kind, 0 for the zero."""
    return 0 if kind == ZERO else kind % 16 + 1


# -- kinds and tile values ---------------------------------------------------------------------


def _tile_of_kind(kind: int) -> Tile:
    if kind < ZERO:
        return tile_of(NUMBER_SUIT_CODES[kind // 16], kind % 16 + 1)
    if kind < FIRST_FLOWER:
        return tile_of(HONOUR, kind - ZERO)
    return tile_of(FLOWER, kind - FIRST_FLOWER + 1)


#: The tile of each kind.
TILES: Final[tuple[Tile, ...]] = tuple(_tile_of_kind(kind) for kind in range(KINDS))
_KIND_OF: Final[dict[Tile, int]] = {tile: kind for kind, tile in enumerate(TILES)}


def tile(kind: int) -> Tile:
    """The tile of a kind."""
    return TILES[kind]


def kind_of(value: Tile) -> int:
    """The kind of an Ùzje tile; :class:`NotationError` for any other tile (a standard one)."""
    try:
        return _KIND_OF[value]
    except KeyError:
        raise NotationError(f"{value!r} is not an Ùzje tile") from None


def sort_key(value: Tile) -> int:
    """The conventional order: tongs, socks, mans, zero, winds, arrows, then the flowers."""
    return kind_of(value)


# -- notation -----------------------------------------------------------------------------------

_RANK_OF_CHAR: Final = {char: rank for rank, char in enumerate(RANK_CHARS)}
_HONOUR_OF_CHAR: Final = {char: ZERO + index for index, char in enumerate(HONOUR_LETTERS)}
_FLOWER_OF_CHAR: Final = {char: FIRST_FLOWER + index for index, char in enumerate(FLOWER_LETTERS)}


def _excerpt(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"


def parse_kinds(text: str) -> list[int]:
    """Parse UJMJ notation into kinds, in the order written (``0s`` and ``Z`` are both the zero).

    Spaces are ignored. :class:`NotationError` names the bad character and its position.
    """
    kinds: list[int] = []
    pending: list[int] = []  # ranks waiting for their suit letter
    for position, char in enumerate(text):
        rank = _RANK_OF_CHAR.get(char)
        if rank is not None:
            pending.append(rank)
            continue
        suit = SUIT_LETTERS.find(char)
        if suit >= 0:
            if not pending:
                raise NotationError(
                    f"suit letter {char!r} at position {position} of {_excerpt(text)} has no "
                    "rank before it"
                )
            kinds.extend(number_kind(suit, rank) for rank in pending)
            pending.clear()
            continue
        kind = _HONOUR_OF_CHAR.get(char, _FLOWER_OF_CHAR.get(char))
        if kind is None and not char.isspace():
            raise NotationError(
                f"unexpected character {char!r} at position {position} of {_excerpt(text)}; "
                "UJMJ notation is ranks 0-9 x a-f followed by t, s or m, honours ZESWNHVCFP "
                "and flowers hijkopqr"
            )
        if pending:
            raise NotationError(
                f"ranks {''.join(RANK_CHARS[r] for r in pending)!r} before position {position} "
                f"of {_excerpt(text)} have no suit letter (t, s or m)"
            )
        if kind is not None:
            kinds.append(kind)
    if pending:
        raise NotationError(f"ranks at the end of {_excerpt(text)} have no suit letter (t, s or m)")
    return kinds


def parse_tiles(text: str) -> list[Tile]:
    """Parse UJMJ notation into tiles, in the order written."""
    return [TILES[kind] for kind in parse_kinds(text)]


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile (``xs``, ``0m``, ``Z``, ``E``, ``h``)."""
    kinds = parse_kinds(text)
    if len(kinds) != 1:
        raise NotationError(f"expected one Ùzje tile, got {len(kinds)} in {_excerpt(text)}")
    return TILES[kinds[0]]


def format_kind(kind: int) -> str:
    """One kind in UJMJ notation (the zero as ``Z``)."""
    if kind < ZERO:
        return RANK_CHARS[kind % 16 + 1] + SUIT_LETTERS[kind // 16]
    if kind < FIRST_FLOWER:
        return HONOUR_LETTERS[kind - ZERO]
    return FLOWER_LETTERS[kind - FIRST_FLOWER]


def format_kinds(kinds: Iterable[int], *, sort: bool = True) -> str:
    """Kinds in UJMJ notation, a run of one suit sharing its last suit letter (``19xas``).

    Sorted in the conventional order unless ``sort`` is false. The zero is written ``Z``; use
    :func:`format_ranks` for a meld that uses it as a number.
    """
    items = sorted(kinds) if sort else list(kinds)
    out: list[str] = []
    for index, kind in enumerate(items):
        if kind < ZERO:
            out.append(RANK_CHARS[kind % 16 + 1])
            following = items[index + 1] if index + 1 < len(items) else None
            if following is None or following >= ZERO or following // 16 != kind // 16:
                out.append(SUIT_LETTERS[kind // 16])
        else:
            out.append(format_kind(kind))
    return "".join(out)


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Tiles in UJMJ notation (see :func:`format_kinds`)."""
    return format_kinds((kind_of(value) for value in tiles), sort=sort)


def format_ranks(suit: int, ranks: Sequence[int]) -> str:
    """Ranks of one suit, the zero as ``0`` (``048s``): how a number meld is written."""
    return "".join(RANK_CHARS[rank] for rank in ranks) + SUIT_LETTERS[suit]


# -- the tile set of a table ----------------------------------------------------------------------

#: Wall width (tiles per wall row) before the options (seeds/002 line 51).
BASE_WALL_WIDTH: Final = 20


def wall_width(*, full_winds: bool, flowers: bool, all_tongs: bool) -> int:
    """The width of each of the four walls (two tall): base 20, +1 for the full set of winds,
    +1 with flowers, +7 with all tongs (seeds/002 line 51)."""
    return BASE_WALL_WIDTH + full_winds + flowers + 7 * all_tongs


def kinds_in_play(*, full_winds: bool, flowers: bool, all_tongs: bool) -> tuple[int, ...]:
    """Every kind on the table: tongs 1 and 16 only unless all tongs are used, socks and mans
    1-16, the zero, four or two winds, the arrows, and the flowers if used."""
    tongs = range(16) if all_tongs else (0, 15)
    winds = FULL_WINDS if full_winds else COMPRESSED_WINDS
    kinds = [*tongs, *range(16, 48), ZERO, *winds, *ARROWS]
    if flowers:
        kinds.extend(FLOWERS)
    return tuple(kinds)


def tile_set(*, full_winds: bool, flowers: bool, all_tongs: bool) -> list[int]:
    """Every physical tile as a kind: four of each kind in play, one of each flower."""
    return [
        kind
        for kind in kinds_in_play(full_winds=full_winds, flowers=flowers, all_tongs=all_tongs)
        for _ in range(1 if is_flower(kind) else 4)
    ]


def copies(kind: int) -> int:
    """Physical copies of a kind: one of each flower, four of every other tile."""
    return 1 if is_flower(kind) else 4


def check_counts(kinds: Iterable[int], in_play: Iterable[int], what: str) -> None:
    """Refuse a tile not in play or more copies than exist (:class:`NotationError`)."""
    allowed = set(in_play)
    for kind, count in Counter(kinds).items():
        if kind not in allowed:
            raise NotationError(f"{format_kind(kind)} is not in play at this table ({what})")
        if count > copies(kind):
            raise NotationError(
                f"{count} copies of {format_kind(kind)} in {what}; there are {copies(kind)}"
            )
