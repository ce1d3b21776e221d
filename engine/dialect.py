"""Record dialects: how a game family writes its tiles and which events its rounds hold.

Every game has the same canonical document shape (:mod:`engine.formats.canonical`); a family
with its own tiles (Ùzje mahjong's 16 ranks, zero and flowers) writes them in its own notation
and adds events of its own. Each family names its dialect (:attr:`engine.families.GameFamily.
dialect`), and the canonical reader and writer take the dialect of the header's ``ruleset``.
The type lives here, below the canonical format and every family, so that neither imports the
other, and so does :data:`PointsOrHalf`, the points of a dialect whose points may be halves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, NewType

from engine.events import EVENT_TYPES
from engine.tiles import Tile, parse_tile

#: An amount of points (a score, a score change, a win's points) held where the shared record,
#: report and frame types say ``int``, in a dialect whose points may be halves
#: (:attr:`Dialect.half_points`, Ùzje's exact self-draw payments): a whole amount is the ``int``
#: it says, and a half is the ``float`` it is (``2.5``), never a count of halves. Those types say
#: ``int`` because every riichi figure is whole, rather than be widened for one family; this
#: type names the one kind of value in them that may not be, where it is made: by the canonical
#: reader, reading a half, and by Ùzje's ``scoring.as_recorded``. Compiled code refuses such a
#: float where it declares ``int``, so what handles one stays interpreted (``engine.compile``).
PointsOrHalf = NewType("PointsOrHalf", int)


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Dialect:
    """How a game family writes its tiles and which events its rounds hold.

    Dialects compare by identity: each is one module constant, and the reader caches what it
    learns per dialect.
    """

    name: str
    format_tile: Callable[[Tile], str]
    parse_tile: Callable[[str], Tile]
    event_types: Mapping[str, type[Any]]
    #: Scores, score changes and points may be halves (``2.5``; Ùzje's exact self-draw
    #: payments): the reader takes a number with a fraction of one half where these are
    #: written (a :data:`PointsOrHalf`), which every other dialect refuses (whole points are
    #: integers everywhere).
    half_points: bool = False


#: Riichi mahjong in all its rule sets (space and small mahjong included): MPSZ tiles.
RIICHI = Dialect("riichi", str, parse_tile, EVENT_TYPES)
