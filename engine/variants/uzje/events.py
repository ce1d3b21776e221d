"""The Ùzje events that riichi has no class for, and the event vocabulary of an Ùzje round.

An Ùzje round is an :class:`engine.events.Round` whose events reuse the shared classes where they
mean the same thing: :class:`~engine.events.Draw` (from the front of the wall, or from the back
as the replacement for a flower or a quad), :class:`~engine.events.Discard`,
:class:`~engine.events.Pon` (a trip claimed), :class:`~engine.events.OpenKan` (a quad claimed),
:class:`~engine.events.ClosedKan`, :class:`~engine.events.AddedKan` (a trip made a quad),
:class:`~engine.events.Win`, :class:`~engine.events.ExhaustiveDraw` and
:class:`~engine.events.ScoreChange`. Three are Ùzje's own: a flower exposed, an arith (or gem or
power) claimed from the player on the left, and a bonus tile shown from the dead wall.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from engine.events import (
    AddedKan,
    ClosedKan,
    Discard,
    Draw,
    ExhaustiveDraw,
    OpenKan,
    Pon,
    ScoreChange,
    Win,
)
from engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class FlowerExposed:
    """``seat`` sets a flower ``tile`` aside (mandatory, line 67); a replacement ``Draw`` from
    the back of the wall follows, unless a flower win comes first."""

    type: ClassVar[str] = "flower"
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Chow:
    """``seat`` claims ``tile``, discarded by ``from_seat`` (the player on their left), to
    complete an arith with ``consumed`` (two tiles) (line 93). With the option
    ``claim_gems_powers`` the meld may be a gem or a power too. The meld's shape follows from
    its three tiles (no three tiles are two shapes at once)."""

    type: ClassVar[str] = "chow"
    seat: int
    from_seat: int
    tile: Tile
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class BonusRevealed:
    """The next dead-wall ``tile`` is turned up as a bonus tile, after a quad's replacement
    draw (line 80). The round's first bonus tile is in ``Round.dora_indicators``."""

    type: ClassVar[str] = "bonus"
    tile: Tile


UzjeEvent: TypeAlias = (
    Draw
    | Discard
    | Pon
    | OpenKan
    | ClosedKan
    | AddedKan
    | Chow
    | FlowerExposed
    | BonusRevealed
    | Win
    | ExhaustiveDraw
    | ScoreChange
)

#: Every event class of an Ùzje round by its ``type`` name (the JSON ``type`` member).
UZJE_EVENT_TYPES: dict[str, type[UzjeEvent]] = {
    cls.type: cls
    for cls in (
        Draw,
        Discard,
        Pon,
        OpenKan,
        ClosedKan,
        AddedKan,
        Chow,
        FlowerExposed,
        BonusRevealed,
        Win,
        ExhaustiveDraw,
        ScoreChange,
    )
}
