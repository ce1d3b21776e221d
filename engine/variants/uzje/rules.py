"""The options of an Ùzje table, as one frozen value, and its presets.

Every switch the document gives (players, tongs, winds, flowers, the winning minimum, the limit,
closed-quad visibility, match length) is an option, and so is every choice made where the
document is silent (``docs/variants/uzje.md`` lists them with the reason). Fan values are in
*tenths* of a fan wherever the engine computes (the document's values move in 0.2 steps); the
options hold them as the document writes them (``2.5``), and :meth:`UzjeRules.tenths` converts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from engine.errors import UnknownRulesetError
from engine.rules.options import read_options
from engine.variants.uzje.tiles import kinds_in_play, tile_set, wall_width


class Rounding(StrEnum):
    """How half of an odd self-draw amount is paid (a 5-point hand: 2.5 each)."""

    #: 3 from each payer: whole points (the engine's only way before ``exact``).
    UP = "up"
    #: 2 from each payer: whole points.
    DOWN = "down"
    #: 2.5 from each payer, as the document says ("exactly half", line 134): scores then hold
    #: halves (docs/variants/uzje.md, "Payments").
    EXACT = "exact"


@dataclass(frozen=True)
class UzjeRules:
    """All options of one Ùzje table. Build variants with :meth:`replace`."""

    name: str

    # -- table (seeds/002 "Materials", "Tiles") -------------------------------------------------
    #: 3 to 6 players (line 5).
    players: int = 4
    #: All tongs 1-16 in play; otherwise tongs are only 1 and 16 (line 15).
    all_tongs: bool = False
    #: Winds E S W N; otherwise the compressed H (East/West) and V (South/North) (line 16).
    full_winds: bool = True
    #: The eight flowers are used (line 17).
    flowers: bool = True
    #: Size of the dead wall, which only gives bonus tiles (line 61: 16 tiles, 8 stacks).
    dead_wall: int = 16
    #: Closed quads are shown to everyone (the second way of line 86); hidden (face down,
    #: line 85) otherwise. It changes what a viewer shows, never play: the engine always knows.
    closed_quads_shown: bool = False

    # -- value (seeds/002 "Scoring") ----------------------------------------------------------
    #: The minimum to win, in fan; always a half-integer (line 172).
    min_fan: float = 2.5
    #: Fan at which a hand is worth one limit (line 114: "typically ... 13 f").
    limit_fan: int = 13
    #: Half of an odd self-draw amount (a 5-point self-draw) is paid exactly (2.5 from each
    #: payer, line 134), or rounded up or down to whole points. A record that does not state
    #: the option means ``up`` (:data:`RECORD_DEFAULTS`).
    self_draw_rounding: Rounding = Rounding.EXACT
    #: The shown dead-wall tile is itself the bonus tile (line 62, "matches the tile in the
    #: bonus box"); with ``bonus_is_next`` the tile after it is, as riichi dora indicators.
    bonus_is_next: bool = False

    # Values the document leaves open (fan, as the document writes them; limits in limits).
    seat_flower_fan: float = 1.0
    clean_fan: float = 3.0
    clean_tongs_fan: float = 4.0
    purity_fan: float = 6.0
    all_powers_fan: float = 5.0
    all_gems_fan: float = 5.0
    rock_field_fan: float = 3.0
    stutter_fan: float = 1.0
    archery_fan: float = 5.0
    seven_pairs_fan: float = 2.0
    # Every limit hand of the list (lines 287-298) is "a fixed amount" (line 114): one limit.
    # Fourteen orphans is "a better hand" (line 165) to aim for, not a bigger limit.
    thirteen_orphans_limits: int = 1
    fourteen_orphans_limits: int = 1
    globetrotter_limits: int = 1
    journeyman_limits: int = 1
    honourable_limits: int = 1
    ultra_long_limits: int = 1

    # -- play (seeds/002 "Main game") ---------------------------------------------------------
    #: Gems and powers may be claimed from the player on the left, like ariths. The document
    #: lists only trips, quads and ariths as claims (lines 74-77).
    claim_gems_powers: bool = False
    #: Thirteen and fourteen orphans may rob any quad, closed ones included (line 217).
    orphans_rob_any_quad: bool = True
    #: The dealer keeps the deal after an exhaustive draw (the document does not say).
    draw_keeps_dealer: bool = True

    # -- match (seeds/002 "End of game and game structure") -----------------------------------
    #: Sets in a match: 4 (a match), 2 (a half-match), 1 (a single set) (line 105).
    sets: int = 4
    #: A fixed number of hands (the document's "games", line 108) instead of sets; 0 plays sets.
    fixed_games: int = 0
    #: Everyone starts with 0 points (line 110).
    starting_points: int = 0

    def __post_init__(self) -> None:
        if not 3 <= self.players <= 6:
            raise UnknownRulesetError(f"Ùzje is played by 3 to 6 players, not {self.players}")
        if not float(self.min_fan * 2).is_integer() or float(self.min_fan).is_integer():
            raise UnknownRulesetError(
                f"min_fan must be a half-integer (2.5, 3.5, ...), got {self.min_fan}"
            )
        if self.limit_fan <= self.min_fan:
            raise UnknownRulesetError("limit_fan must be above min_fan")
        if not 1 <= self.sets <= 4 or self.fixed_games < 0:
            raise UnknownRulesetError("sets is 1-4 and fixed_games at least 0")
        if not 1 <= self.dead_wall <= 16:
            raise UnknownRulesetError("dead_wall is 1-16 tiles")

    # -- derived ----------------------------------------------------------------------------

    @staticmethod
    def tenths(fan: float) -> int:
        """A fan value in tenths (``2.5`` -> 25)."""
        return round(fan * 10)

    @property
    def min_tenths(self) -> int:
        return self.tenths(self.min_fan)

    @property
    def kinds(self) -> tuple[int, ...]:
        """Every kind in play at this table."""
        return kinds_in_play(
            full_winds=self.full_winds, flowers=self.flowers, all_tongs=self.all_tongs
        )

    def tiles(self) -> list[int]:
        """Every physical tile, as kinds."""
        return tile_set(full_winds=self.full_winds, flowers=self.flowers, all_tongs=self.all_tongs)

    @property
    def wall_width(self) -> int:
        return wall_width(
            full_winds=self.full_winds, flowers=self.flowers, all_tongs=self.all_tongs
        )

    @property
    def live_wall(self) -> int:
        """Tiles left to draw after the deal (dealer 14, others 13) and the dead wall."""
        return len(self.tiles()) - 13 * self.players - 1 - self.dead_wall

    def replace(self, **changes: Any) -> UzjeRules:
        """A copy with some options changed, each value read into its option's type (a string
        names a :class:`Rounding`, ``"true"`` is a bool, ``"3.5"`` a float), as a riichi
        :class:`~engine.rules.ruleset.Ruleset` reads them (:mod:`engine.rules.options`).

        :raises UnknownRulesetError: an unknown option, or a value its option cannot take,
            naming the option, the value and what it takes.
        """
        read = read_options(UzjeRules, changes, what="Ùzje rule option", rules=self.name)
        return dataclasses.replace(self, **read)

    def options(self) -> dict[str, Any]:
        """Every option as a plain JSON value (enumerations as strings)."""
        out: dict[str, Any] = {}
        for spec in dataclasses.fields(self):
            value = getattr(self, spec.name)
            out[spec.name] = value.value if isinstance(value, StrEnum) else value
        return out


# -- presets ----------------------------------------------------------------------------------

#: The default table: four players, tongs 1 and 16 only, full winds, flowers (line 5, 15, 52).
UZJE_4P: Final = UzjeRules(name="uzje-4p")
#: Three players with the four-player tile set (the document names no change for three).
UZJE_3P: Final = UZJE_4P.replace(name="uzje-3p", players=3)
#: Five and six players play with all tongs: the document limits tongs "for a four-player game"
#: (line 15) only, and more players draw more tiles.
UZJE_5P: Final = UZJE_4P.replace(name="uzje-5p", players=5, all_tongs=True)
UZJE_6P: Final = UZJE_4P.replace(name="uzje-6p", players=6, all_tongs=True)

PRESETS: Final[dict[str, UzjeRules]] = {
    rules.name: rules for rules in (UZJE_4P, UZJE_3P, UZJE_5P, UZJE_6P)
}


def is_uzje_preset(name: str) -> bool:
    """Whether a record's ``ruleset`` names an Ùzje preset (how the canonical reader dispatches)."""
    return name in PRESETS


def get_rules(name: str) -> UzjeRules:
    """The preset of this name; :class:`UnknownRulesetError` lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown Ùzje rule set {name!r}; known presets: {', '.join(sorted(PRESETS))}"
        ) from None


#: What an option means in a record that does not state it, where that differs from the preset:
#: the presets' value changed after such records were written, and they must replay as they
#: always did. Records written before ``exact`` existed paid a 5-point self-draw 3 each, so a
#: record without ``self_draw_rounding`` is ``up``; a record of the presets' ``exact`` states it.
RECORD_DEFAULTS: Final[Mapping[str, object]] = {"self_draw_rounding": Rounding.UP}

#: The riichi options that give powers (rule modifiers, table-wide or by seat): a record of
#: Ùzje mahjong may not name any.
_RIICHI_POWERS: Final = frozenset({"modifiers", "seat_powers"})


def as_preset(rules: UzjeRules) -> tuple[str, dict[str, object]]:
    """How a record names rules: the preset's name and the options that differ from what the
    record would mean without them (the preset, with :data:`RECORD_DEFAULTS`). Rules whose name
    is not a preset are described against the preset of their player count."""
    base = PRESETS.get(rules.name)
    if base is None:
        base = next(p for p in PRESETS.values() if p.players == rules.players)
    base_options = base.replace(**RECORD_DEFAULTS).options()
    changed = {
        option: value
        for option, value in rules.options().items()
        if option != "name" and value != base_options[option]
    }
    return base.name, changed


def with_overrides(name: str, overrides: Mapping[str, object]) -> UzjeRules:
    """The rules of a record: the preset, with :data:`RECORD_DEFAULTS` for the options the
    record does not state, and the options it states, given as JSON values (read as
    :meth:`UzjeRules.replace` reads every value).

    :raises UnknownRulesetError: an unknown preset or option, or a value it cannot take.
    """
    rules = get_rules(name).replace(**RECORD_DEFAULTS)
    changes: dict[str, object] = {}
    for option, value in overrides.items():
        if option in _RIICHI_POWERS:
            # Riichi's rule modifiers (engine/rules/modifiers.py) have no hook in Ùzje's engine:
            # refused by name, never ignored (an empty list, or seats that chose none, name
            # none).
            named = [item for item in value if item] if isinstance(value, list) else [value]
            if not named:
                continue
            raise UnknownRulesetError(
                f"Ùzje mahjong applies no rule modifiers: {', '.join(map(str, named))} cannot "
                f"be used with rule set {name}"
            )
        if option == "name":
            raise UnknownRulesetError(f"unknown Ùzje rule option {option!r}")
        changes[option] = value
    return rules.replace(**changes) if changes else rules
