"""What scoring derives from a rule set, computed once per :class:`Ruleset` object.

Every hand scored under a rule set needs the same few derived values (the dora each indicator
points at, the yakuman entries the rule set counts double, the tsumo shares, ...). They are built
on the first hand and kept with the rule set object, instead of being worked out again per hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.hand.shapes import HandShapes, shapes_for
from engine.rules.modifiers import RuleModifier, get_modifiers
from engine.rules.ruleset import Ruleset
from engine.scoring.payments import tsumo_halves
from engine.scoring.values import YakuHan, yakuman_entries
from engine.tiles import EAST, KINDS, PACKED_BYTES, RED_BYTE, dora_from_indicator

#: The count bytes of the fives (5m, 5p, 5s) in packed counts.
FIVES: Final = (4, 13, 22)


@dataclass(frozen=True, slots=True)
class RuleTables:
    """Values derived from one rule set (see :func:`rule_tables`)."""

    ruleset: Ruleset
    #: The seat winds at the table.
    seats: frozenset[int]
    #: Which tiles form runs (``shapes``, ``open_kokushi_han``).
    shapes: HandShapes
    #: The dora kind each indicator kind points at.
    dora_of: tuple[int, ...]
    #: Yakuman entries by name: 26 han for a form the rule set counts double, else 13.
    yakuman: dict[str, YakuHan]
    #: :func:`~engine.scoring.payments.tsumo_halves`, by whether the winner is the dealer.
    tsumo_halves: tuple[tuple[int, int], tuple[int, int]]
    #: Payers of a tsumo besides the first (the dealer, or any one payer for a dealer's tsumo).
    other_payers: int
    #: Added to packed counts, sets the top bit of a count byte when the hand holds five or more
    #: of the kind; of a five's byte when that suit's plain fives may exceed what the rule set
    #: leaves (4 minus its red fives); and of a red byte when the suit has more red fives than
    #: the rule set. Those hands are checked in detail.
    count_check_add: int
    #: The rule modifiers in force (``engine/rules/modifiers.py``).
    modifiers: tuple[RuleModifier, ...]


#: The tables by ``id`` of the rule set; each entry keeps its rule set alive, so an id is not
#: reused while it is here. Bounded: programs that make many rule sets start afresh now and then.
_TABLES: dict[int, RuleTables] = {}
_MAX_TABLES: Final = 64


def rule_tables(ruleset: Ruleset) -> RuleTables:
    """The tables of a rule set, built on its first use (rule sets are immutable)."""
    tables = _TABLES.get(id(ruleset))
    if tables is None or tables.ruleset is not ruleset:
        if len(_TABLES) >= _MAX_TABLES:
            _TABLES.clear()
        tables = _TABLES[id(ruleset)] = _build(ruleset)
    return tables


def _build(ruleset: Ruleset) -> RuleTables:
    three_player = ruleset.players == 3
    dora_of = tuple(dora_from_indicator(kind, three_player=three_player) for kind in range(KINDS))
    # Adding 0x80 - n to a count byte sets its top bit when the count is n or more.
    limits = [5] * KINDS + [0x80] * (PACKED_BYTES - KINDS)
    for suit, allowed in enumerate(ruleset.red_fives):
        # Plain fives exceed 4 - allowed only if the suit holds 5 - allowed fives or more.
        limits[FIVES[suit]] = max(0, 5 - allowed)
        limits[RED_BYTE + suit] = min(0x80, allowed + 1)
    count_check_add = sum((0x80 - limit) << 8 * byte for byte, limit in enumerate(limits))
    return RuleTables(
        ruleset=ruleset,
        seats=frozenset(range(EAST, EAST + ruleset.players)),
        shapes=shapes_for(ruleset),
        dora_of=dora_of,
        yakuman=yakuman_entries(ruleset.double_yakuman),
        tsumo_halves=(tsumo_halves(False, ruleset), tsumo_halves(True, ruleset)),
        other_payers=ruleset.players - 2,
        count_check_add=count_check_add,
        modifiers=get_modifiers(ruleset.modifiers),
    )
