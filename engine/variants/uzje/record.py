"""Ùzje games in the canonical JSON form (``docs/format.md``): the Ùzje dialect.

An Ùzje document is a canonical document member for member, read and written by
:mod:`engine.formats.canonical`, which picks this dialect when the header's ``ruleset`` names an
Ùzje preset (the Ùzje family's :attr:`~engine.families.GameFamily.dialect`, see
:mod:`engine.variants.uzje.family`). What the dialect changes:

- tiles are UJMJ strings (``"1t"``, ``"fs"``, ``"Z"``, ``"E"``, ``"h"``), one per array entry;
- the events are :data:`~engine.variants.uzje.events.UZJE_EVENT_TYPES`: the shared ``draw``,
  ``discard``, ``pon`` (a trip), ``open_kan``, ``closed_kan``, ``added_kan``, ``win``,
  ``exhaustive_draw``, ``score_change``, and Ùzje's ``flower``, ``chow`` and ``bonus``.

What the members mean in an Ùzje game:

- ``rule_overrides`` holds :class:`~engine.variants.uzje.rules.UzjeRules` options;
- a round's ``hands`` give the dealer 14 tiles; ``dora_indicators`` holds the first bonus tile;
  a ``wall`` has the whole live wall in ``live`` (front to back: replacements are drawn from its
  end), an empty ``replacements``, and the dead wall in reveal order in ``dora_indicators``;
- a win's ``recorded`` gives ``han`` as the fan in tenths (``36`` is 3.6 f; left out for a
  limit-hand pattern), ``yaku`` as ``[pattern, tenths]`` (``[pattern, limits]`` for limit-hand
  patterns), ``limit`` as ``"<n>l"`` when the hand is worth limits, ``points``, ``deltas`` and
  ``hand``;
- scores, score changes and points are points, and may be halves (``2.5``, written with its
  fraction; whole points stay integers): a game under ``self_draw_rounding`` ``exact`` pays half
  of an odd self-draw amount exactly (:mod:`engine.variants.uzje.scoring`).
"""

from __future__ import annotations

from engine.dialect import Dialect
from engine.tiles import Tile
from engine.variants.uzje.events import UZJE_EVENT_TYPES
from engine.variants.uzje.tiles import format_tiles, parse_tile


def format_tile(tile: Tile) -> str:
    """One Ùzje tile in UJMJ notation."""
    return format_tiles((tile,))


DIALECT = Dialect("uzje", format_tile, parse_tile, UZJE_EVENT_TYPES, half_points=True)
