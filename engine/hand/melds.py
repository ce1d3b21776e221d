"""Called melds: chi, pon, open kan, closed kan and added kan."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from engine.errors import InvalidHandError
from engine.tiles import HONOR_SUIT, Tile, format_tiles, parse_tiles


class MeldType(StrEnum):
    """The kind of a called meld."""

    CHI = "chi"
    PON = "pon"
    #: Open kan called on a discard (daiminkan).
    MINKAN = "minkan"
    #: Closed kan from four tiles in hand (ankan). It does not open the hand.
    ANKAN = "ankan"
    #: Added kan: a fourth tile added to a pon (kakan / shouminkan).
    KAKAN = "kakan"


_KANS = frozenset({MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN})

# The meld types as module constants, for hot paths: in Python 3.11 looking up an enum member
# on its class (``MeldType.CHI``) costs as much as a dozen ordinary operations.
CHI: Final = MeldType.CHI
PON: Final = MeldType.PON
ANKAN: Final = MeldType.ANKAN


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld set aside from the hand, with its tiles (red fives included)."""

    type: MeldType
    tiles: tuple[Tile, ...]
    #: The lowest kind in the meld (the first tile of a chi). Stored: scoring reads it per hand.
    kind: int = field(init=False, compare=False, repr=False)
    #: The meld's tiles as packed counts (:data:`engine.tiles.PACKED_BYTES`), red fives
    #: included: the sum of its tiles' ``packed``, stored like ``kind``.
    packed: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        kinds = sorted(tile.kind for tile in self.tiles)
        object.__setattr__(self, "kind", kinds[0] if kinds else -1)
        object.__setattr__(self, "packed", sum(tile.packed for tile in self.tiles))
        if self.type is CHI:
            suit = self.tiles[0].suit if self.tiles else ""
            if (
                len(kinds) != 3
                or suit == HONOR_SUIT
                or any(tile.suit != suit for tile in self.tiles)
                or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]
            ):
                raise InvalidHandError(
                    f"{self._described()}: a chi is three consecutive tiles of one suit"
                )
        else:
            size = 4 if self.type in _KANS else 3
            if len(kinds) != size or len(set(kinds)) != 1:
                raise InvalidHandError(
                    f"{self._described()}: a {self.type.value} is {size} identical tiles"
                )

    def _described(self) -> str:
        """The meld in words, for a refusal (built only then: a replay makes thousands of
        valid melds)."""
        return f"{self.type.value} {format_tiles(self.tiles)}"

    @classmethod
    def parse(cls, meld_type: str, tiles: str) -> Meld:
        """A meld from its type name and MPSZ tiles: ``Meld.parse("pon", "555z")``."""
        try:
            kind = MeldType(meld_type)
        except ValueError:
            names = ", ".join(m.value for m in MeldType)
            raise InvalidHandError(f"unknown meld type {meld_type!r}; one of {names}") from None
        return cls(kind, tuple(parse_tiles(tiles)))

    @property
    def is_kan(self) -> bool:
        """Whether the meld is a kan of any kind."""
        return self.type in _KANS

    @property
    def is_open(self) -> bool:
        """Whether the meld opens the hand (everything but a closed kan)."""
        return self.type is not MeldType.ANKAN

    @property
    def is_run(self) -> bool:
        """Whether the meld is a sequence (chi)."""
        return self.type is MeldType.CHI

    def __str__(self) -> str:
        return f"{self.type.value}({format_tiles(self.tiles)})"
