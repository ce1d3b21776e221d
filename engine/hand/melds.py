"""Called melds: chi, pon, open kan, closed kan and added kan."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import InitVar, dataclass, field
from enum import StrEnum
from typing import Final

from engine.errors import InvalidHandError
from engine.hand.shapes import STANDARD, HandShapes
from engine.tiles import EAST, HONOR_SUIT, KINDS, Tile, format_tiles, parse_tiles


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
    """A meld set aside from the hand, with its tiles (red fives included).

    A chi must be a run of ``shapes`` (an init-only argument, the standard shapes unless given:
    space mahjong's chis may wrap around or be honour runs, see :mod:`engine.hand.shapes`).
    """

    type: MeldType
    tiles: tuple[Tile, ...]
    #: The run's start code for a chi (its lowest kind, but for a wrapped run: 891m starts at
    #: 8m, 412z at 4z), the kind of a pon or kan. Stored: scoring reads it per hand.
    kind: int = field(init=False, compare=False, repr=False)
    #: The meld's tiles as packed counts (:data:`engine.tiles.PACKED_BYTES`), red fives
    #: included: the sum of its tiles' ``packed``, stored like ``kind``.
    packed: int = field(init=False, compare=False, repr=False)
    shapes: InitVar[HandShapes] = STANDARD

    def __post_init__(self, shapes: HandShapes) -> None:
        kinds = sorted(tile.kind for tile in self.tiles)
        object.__setattr__(self, "kind", kinds[0] if kinds else -1)
        object.__setattr__(self, "packed", sum(tile.packed for tile in self.tiles))
        if self.type is CHI:
            suit = self.tiles[0].suit if self.tiles else ""
            if (
                len(kinds) == 3
                and suit != HONOR_SUIT
                and all(tile.suit == suit for tile in self.tiles)
                and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
            ):
                return  # a standard run (every shapes have them), started by its lowest kind
            start = shapes.run_start(kinds) if len(kinds) == 3 and min(kinds) >= 0 else None
            if start is None:
                raise InvalidHandError(
                    f"{self._described()}: a chi is three consecutive tiles of one suit"
                    + ("" if shapes.standard else f" or another run of {shapes.name} mahjong")
                )
            object.__setattr__(self, "kind", start)
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
    def parse(cls, meld_type: str, tiles: str, shapes: HandShapes = STANDARD) -> Meld:
        """A meld from its type name and MPSZ tiles: ``Meld.parse("pon", "555z")``; a chi must
        be a run of ``shapes``."""
        try:
            kind = MeldType(meld_type)
        except ValueError:
            names = ", ".join(m.value for m in MeldType)
            raise InvalidHandError(f"unknown meld type {meld_type!r}; one of {names}") from None
        return cls(kind, tuple(parse_tiles(tiles)), shapes)

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


def called_honour_runs(melds: Iterable[Meld]) -> list[int] | None:
    """The 34 counts of the called tiles when every meld is a chi of honours (space mahjong's
    honour runs, which an open thirteen orphans may hold), else ``None`` (no melds either)."""
    counts = [0] * KINDS
    found = False
    for meld in melds:
        if meld.type is not CHI or meld.kind < EAST:
            return None
        for tile in meld.tiles:
            counts[tile.kind] += 1
        found = True
    return counts if found else None
