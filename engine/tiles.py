"""Tiles and MPSZ notation.

A :class:`Tile` is a suit, a rank and a red flag. The standard riichi set has three number suits
(``m`` characters, ``p`` circles, ``s`` bamboo, ranks 1-9) and honours (``z``, ranks 1-7: East,
South, West, North, White, Green, Red). Red fives are fives with ``red=True``.

The model leaves room for the variants to come: ranks are plain integers (Ùzje mahjong goes to
16 and has a zero tile), and the suit is a one-letter code, so a flower suit or another notation
can be added without changing the type. Code on the hot path does not use :class:`Tile` objects:
it works on *kinds*, dense integers from a layout. The standard layout numbers the 34 kinds as the
``mahjong`` package and Tenhou do: 0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s, 27-33 = E S W N
White Green Red. A hand is then a list of 34 counts.

MPSZ notation: digits followed by their suit letter, ``123m406p789s1122z``; ``0`` is a red five.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.errors import NotationError

#: Suit letters of the standard set, in their conventional order.
NUMBER_SUITS: Final = ("m", "p", "s")
HONOR_SUIT: Final = "z"
SUITS: Final = ("m", "p", "s", "z")

#: Kinds in the standard 34 layout.
MAN: Final = 0
PIN: Final = 9
SOU: Final = 18
EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
HAKU: Final = 31  # white dragon
HATSU: Final = 32  # green dragon
CHUN: Final = 33  # red dragon
KINDS: Final = 34

WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (HAKU, HATSU, CHUN)
TERMINALS: Final = (0, 8, 9, 17, 18, 26)
#: The 13 kinds of thirteen orphans: terminals and honours.
YAOCHUU: Final = (*TERMINALS, EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN)
_YAOCHUU_SET: Final = frozenset(YAOCHUU)
#: The kinds that count for all green (ryuuiisou): 2s 3s 4s 6s 8s and the green dragon.
GREENS: Final = frozenset((19, 20, 21, 23, 25, HATSU))
#: Kinds that do not exist in 3-player mahjong: 2m-8m.
SANMA_MISSING: Final = frozenset(range(1, 8))

#: Packed counts: a multiset of tiles as one integer, a byte per kind (kind ``k`` is byte ``k``,
#: counting from the least significant), then a byte per number suit counting its red fives.
#: Adding packed counts adds the multisets, so counting a hand's tiles is one addition per tile,
#: bit masks test whole sets of kinds at once, and ``to_bytes(PACKED_BYTES, "little")`` reads
#: the counts like a list. Tiles outside the standard layout set the byte above them (FOREIGN).
PACKED_BYTES: Final = KINDS + 3
#: Byte of the red fives of the first suit (characters); circles and bamboo follow.
RED_BYTE: Final = KINDS
FOREIGN_SHIFT: Final = 8 * PACKED_BYTES


def kinds_mask(kinds: Iterable[int]) -> int:
    """Bit mask of the count bytes of ``kinds`` in packed counts: ``packed & mask`` holds
    those kinds' counts, and is 0 when the tiles have none of them."""
    return sum(0xFF << 8 * kind for kind in set(kinds))


def packed_tile(kind: int, red: bool = False) -> int:
    """Packed counts of one tile of the standard layout."""
    packed = 1 << 8 * kind
    if red:
        packed |= 1 << 8 * (RED_BYTE + kind // 9)
    return packed


WIND_LETTERS: Final = ("E", "S", "W", "N")
_HONOR_NAMES: Final = ("East", "South", "West", "North", "White", "Green", "Red")
_SUIT_NAMES: Final = {"m": "characters", "p": "circles", "s": "bamboo"}


def is_honor(kind: int) -> bool:
    """Whether a kind of the standard layout is an honour (wind or dragon)."""
    return kind >= EAST


def is_terminal(kind: int) -> bool:
    """Whether a kind is a 1 or a 9 of a number suit."""
    return kind < EAST and kind % 9 in (0, 8)


def is_yaochuu(kind: int) -> bool:
    """Whether a kind is a terminal or an honour."""
    return kind in _YAOCHUU_SET


def wind_kind(letter: str) -> int:
    """The kind of a wind from its letter ``E``, ``S``, ``W`` or ``N``."""
    try:
        return EAST + WIND_LETTERS.index(letter.upper())
    except ValueError:
        raise NotationError(f"a wind is one of E, S, W, N; got {letter!r}") from None


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile: suit letter, rank, and whether it is a red five.

    Ordering follows the conventional sort: suits m, p, s, z, then rank, the red five just before
    the plain five.
    """

    suit: str
    rank: int
    red: bool = False
    #: The tile's kind in the standard 34 layout (a red five has the kind of a five). Stored,
    #: not computed, because scoring reads it for every tile.
    kind: int = field(init=False, compare=False, repr=False)
    #: The tile as packed counts (see :data:`PACKED_BYTES`): intrinsic to the tile like its
    #: kind, and stored for the same reason.
    packed: int = field(init=False, compare=False, repr=False)
    #: The tile in MPSZ (``5m``, ``0p`` for the red five): stored, not formatted at every
    #: ``str()``, because the canonical writer spells every tile of every stored game.
    text: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.suit == HONOR_SUIT:
            if not 1 <= self.rank <= 7 or self.red:
                raise NotationError(f"honours are ranks 1-7 and never red, got {self!r}")
            kind = EAST + self.rank - 1
        elif self.suit in NUMBER_SUITS:
            if not 1 <= self.rank <= 9 or (self.red and self.rank != 5):
                raise NotationError(f"number tiles are ranks 1-9, only fives red; got {self!r}")
            kind = NUMBER_SUITS.index(self.suit) * 9 + self.rank - 1
        else:
            # A suit outside the standard 34 layout (a variant's): it has no standard kind, and
            # code working on the standard layout refuses it (see to_counts).
            kind = -1
        object.__setattr__(self, "kind", kind)
        packed = packed_tile(kind, self.red) if kind >= 0 else 1 << FOREIGN_SHIFT
        object.__setattr__(self, "packed", packed)
        object.__setattr__(self, "text", f"{0 if self.red else self.rank}{self.suit}")

    @classmethod
    def from_kind(cls, kind: int, red: bool = False) -> Tile:
        """The tile of a standard-layout kind."""
        if not 0 <= kind < KINDS:
            raise NotationError(f"a tile kind is 0-33, got {kind}")
        if red and (kind >= EAST or kind % 9 != 4):
            raise NotationError(f"only fives can be red, got {format_kind(kind)}")
        if kind >= EAST:
            return tile_of(HONOR_SUIT, kind - EAST + 1)
        return tile_of(SUITS[kind // 9], kind % 9 + 1, red)

    def __str__(self) -> str:
        return self.text

    def __lt__(self, other: Tile) -> bool:
        return self.sort_key < other.sort_key

    def __hash__(self) -> int:
        # The hash @dataclass would generate (of the compared fields). Written out because mypyc
        # makes a class that defines __lt__ unhashable unless it defines __hash__ too.
        return hash((self.suit, self.rank, self.red))

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Key of the conventional sort order."""
        return (SUITS.index(self.suit), self.rank, 0 if self.red else 1)

    @property
    def name(self) -> str:
        """A readable English name: ``5 circles (red)``, ``East``."""
        if self.suit == HONOR_SUIT:
            return _HONOR_NAMES[self.rank - 1]
        return f"{self.rank} {_SUIT_NAMES[self.suit]}{' (red)' if self.red else ''}"


_INTERNED: dict[tuple[str, int, bool], Tile] = {}


def tile_of(suit: str, rank: int, red: bool = False) -> Tile:
    """The shared :class:`Tile` of a suit, rank and red flag.

    Tiles are immutable values, so the parsers hand out one object per distinct tile: a game of
    thousands of tiles then points at a few dozen objects, which stay in the CPU's cache.
    """
    tile = _INTERNED.get((suit, rank, red))
    if tile is None:
        tile = _INTERNED[suit, rank, red] = Tile(suit, rank, red)
    return tile


_DIGITS: Final = frozenset("0123456789")


def _excerpt(text: str, limit: int = 40) -> str:
    """The text for an error message, shortened when long (input may be a whole upload)."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"


def _digit_tables() -> dict[str, dict[str, Tile]]:
    """For each suit letter, the tile each digit names there (``0`` the red five; honours 1-7)."""
    tables: dict[str, dict[str, Tile]] = {}
    for suit in SUITS:
        if suit == HONOR_SUIT:
            tables[suit] = {str(rank): tile_of(suit, rank) for rank in range(1, 8)}
        else:
            tables[suit] = {str(rank): tile_of(suit, rank) for rank in range(1, 10)}
            tables[suit]["0"] = tile_of(suit, 5, red=True)
    return tables


_TILE_OF_DIGIT: Final = _digit_tables()


def parse_tiles(text: str) -> list[Tile]:
    """Parse MPSZ notation (``123m406p789s1122z``) into tiles, in the order written.

    Spaces are ignored. ``0`` is a red five. Raises :class:`NotationError` naming the problem.
    """
    # The usual spelling (runs of digits, each closed by its suit letter) is read by table: a
    # batch of scoring requests or a canonical game reads tens of thousands of tiles. Anything
    # else (spaces, a stray character, an honour beyond 7z) is read by the loop below, which
    # says what is wrong.
    tiles: list[Tile] = []
    run_start = 0
    for position, char in enumerate(text):
        by_digit = _TILE_OF_DIGIT.get(char)
        if by_digit is None:
            continue
        if position == run_start:
            return _parse_tiles_slowly(text)
        for digit in text[run_start:position]:
            tile = by_digit.get(digit)
            if tile is None:
                return _parse_tiles_slowly(text)
            tiles.append(tile)
        run_start = position + 1
    if run_start != len(text):
        return _parse_tiles_slowly(text)
    return tiles


def _parse_tiles_slowly(text: str) -> list[Tile]:
    """:func:`parse_tiles` character by character, naming the first problem."""
    tiles: list[Tile] = []
    pending: list[str] = []
    for position, char in enumerate(text):
        if char in _DIGITS:  # not str.isdigit(): it accepts superscripts and other scripts
            pending.append(char)
        elif char in SUITS:
            if not pending:
                raise NotationError(
                    f"suit letter {char!r} at position {position} of {_excerpt(text)} "
                    "has no digits before it"
                )
            for digit in pending:
                tiles.append(_tile_from_digit(digit, char, text))
            pending.clear()
        elif char.isspace():
            continue
        else:
            raise NotationError(
                f"unexpected character {char!r} at position {position} of {_excerpt(text)}; "
                "MPSZ notation is digits followed by m, p, s or z"
            )
    if pending:
        raise NotationError(
            f"digits {_excerpt(''.join(pending))} at the end of {_excerpt(text)} have no suit "
            "letter"
        )
    return tiles


def _tile_from_digit(digit: str, suit: str, text: str) -> Tile:
    rank = int(digit)
    if suit == HONOR_SUIT:
        if not 1 <= rank <= 7:
            raise NotationError(f"honours are 1z-7z, got {rank}z in {_excerpt(text)}")
        return tile_of(suit, rank)
    if rank == 0:
        return tile_of(suit, 5, red=True)
    return tile_of(suit, rank)


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile (``5m``, ``0p``, ``7z``)."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"expected one tile, got {len(tiles)} in {_excerpt(text)}")
    return tiles[0]


def format_tiles(tiles: Iterable[Tile], *, sort: bool = False) -> str:
    """Format tiles in MPSZ notation, merging runs of the same suit (``123m``)."""
    items = sorted(tiles, key=lambda tile: tile.sort_key) if sort else list(tiles)
    parts: list[str] = []
    run_suit = ""
    for tile in items:
        if tile.suit != run_suit and run_suit:
            parts.append(run_suit)
        run_suit = tile.suit
        parts.append("0" if tile.red else str(tile.rank))
    if run_suit:
        parts.append(run_suit)
    return "".join(parts)


def format_kind(kind: int) -> str:
    """Format one standard-layout kind in MPSZ (``5p``, ``1z``)."""
    return str(Tile.from_kind(kind))


def format_counts(counts: Sequence[int]) -> str:
    """Format a 34-count hand in MPSZ, sorted (``123m55z``)."""
    parts = []
    for suit_index, suit in enumerate(SUITS):
        base = suit_index * 9
        digits = "".join(
            str(rank + 1) * counts[base + rank] for rank in range(7 if suit == "z" else 9)
        )
        if digits:
            parts.append(digits + suit)
    return "".join(parts)


def to_counts(tiles: Iterable[Tile]) -> list[int]:
    """Count tiles by standard-layout kind (34 counts)."""
    counts = [0] * KINDS
    for tile in tiles:
        if tile.kind < 0:
            raise NotationError(f"{tile!r} is not a tile of the standard 34-kind set")
        counts[tile.kind] += 1
    return counts


def parse_counts(text: str) -> list[int]:
    """Parse MPSZ notation straight into 34 counts."""
    return to_counts(parse_tiles(text))


def dora_from_indicator(indicator: int, *, three_player: bool = False) -> int:
    """The dora kind that an indicator kind points at.

    Number suits wrap 9 to 1, winds E-S-W-N-E, dragons White-Green-Red-White. In 3-player
    mahjong 2m-8m do not exist, so a 1m indicator points at 9m and 9m at 1m.
    """
    if indicator >= HAKU:
        return HAKU + (indicator - HAKU + 1) % 3
    if indicator >= EAST:
        return EAST + (indicator - EAST + 1) % 4
    if three_player and indicator in (0, 8):
        return 8 - indicator
    return indicator - indicator % 9 + (indicator % 9 + 1) % 9


def tile_from_tenhou136(tile_id: int, *, red_fives: bool = True) -> Tile:
    """The tile of a Tenhou 136-id (kind = id // 4; ids 16, 52, 88 are the red fives)."""
    if not 0 <= tile_id < 136:
        raise NotationError(f"a Tenhou tile id is 0-135, got {tile_id}")
    return Tile.from_kind(tile_id // 4, red=red_fives and tile_id in (16, 52, 88))
