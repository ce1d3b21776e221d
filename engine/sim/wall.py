"""Shuffled walls for self-play: the tile set of a rule set, dealt as the state machine draws it.

How the tiles are laid out
==========================
Of the ``total`` tiles (136 for four players, 108 for sanma: 2m-8m removed), ``13 * players`` are
dealt and ``ruleset.dead_wall`` (14) form the dead wall; the rest is the live wall. The state
machine (:class:`engine.state.GameState`) starts a hand with ``tiles_left = total - dealt -
dead_wall`` and takes one off for *every* draw, replacement draws included: each kan or north
extraction moves the last live tile into the dead wall, so the hand ends one live draw earlier.
Live draws and replacement draws together therefore never exceed ``tiles_left``.

* Four players: the dead wall holds the ``rinshan_tiles`` (4) replacements and 5 dora and 5 ura
  indicators: ``14 = 4 + 5 + 5``. The live tuple has ``tiles_left`` (70) tiles, enough for a
  hand without kans; each replacement draw leaves its last tile undrawn.
* Sanma: ``rinshan_tiles`` is 8 (four kans and four north extractions), but the 14-tile dead
  wall holds only 4 replacements beside the 10 indicators. The 5th to 8th replacement draws
  come from the *end of the live wall*, as in real play where the dead wall is replenished from
  it. The live tuple still has ``tiles_left`` (55) tiles, because a hand with no replacement
  draw makes that many live draws; its last four tiles are *also* listed, last one first, as
  ``replacements[4:8]``. No tile is drawn twice: the ``k``-th replacement draw (``k`` counted
  from 1) lowers the live draws still possible to ``tiles_left - k``, so when replacement
  ``4 + m`` (``m`` = 0..3, the ``5 + m``-th replacement draw) takes ``live[tiles_left - 1 - m]``,
  at most ``tiles_left - 5 - m`` live tiles can ever be drawn, all with a smaller index.
* Small mahjong (``seeds/004``): the 108 number tiles, ``dealt_tiles`` (4 to 13) to each seat,
  and a live wall of ``stock_per_player`` (14) draws per seat (``Ruleset.live_wall``); no dead
  wall, no replacements, no indicators. The tiles left over (none with 13 tiles and four
  players) are never drawn and are left out of the record.

So every tile of the set is in exactly one of: the hands, ``live``, ``replacements[:k]`` (``k`` =
the replacements the dead wall holds, :func:`dead_wall_replacements`), the dora and the ura
indicators; ``replacements[k:]`` repeat the end of ``live``.
"""

from __future__ import annotations

import random

from engine.events import Wall
from engine.rules.ruleset import Ruleset
from engine.tiles import EAST, KINDS, SANMA_MISSING, Tile

#: Indicator stacks in the dead wall: five dora and five ura (the opening one and four kan dora).
INDICATORS = 5

_PLAIN = tuple(Tile.from_kind(kind) for kind in range(KINDS))
_RED = tuple(Tile.from_kind(9 * suit + 4, red=True) for suit in range(3))


def tile_set(ruleset: Ruleset) -> list[Tile]:
    """Every tile of the rule set once (four of each kind, ``red_fives[suit]`` of each suit's
    five red; sanma without 2m-8m; no honours where the rule set has none), in kind order."""
    tiles: list[Tile] = []
    for kind in range(KINDS if ruleset.honors else EAST):
        if ruleset.sanma and kind in SANMA_MISSING:
            continue
        if kind < EAST and kind % 9 == 4:
            reds = ruleset.red_fives[kind // 9]
            tiles.extend([_RED[kind // 9]] * reds)
            tiles.extend([_PLAIN[kind]] * (4 - reds))
        else:
            tiles.extend([_PLAIN[kind]] * 4)
    return tiles


def live_tiles(ruleset: Ruleset) -> int:
    """Tiles of the live wall at the start of a hand (the state machine's ``tiles_left``)."""
    return ruleset.live_wall


def indicator_stacks(ruleset: Ruleset) -> int:
    """Indicators in each of the dora and ura stacks: :data:`INDICATORS`, none without dora."""
    return INDICATORS if ruleset.dora else 0


def dead_wall_replacements(ruleset: Ruleset) -> int:
    """Replacement tiles the dead wall itself holds; the rest come from the live wall's end."""
    return min(ruleset.rinshan_tiles, ruleset.dead_wall - 2 * indicator_stacks(ruleset))


def deal(
    ruleset: Ruleset, rng: random.Random
) -> tuple[tuple[tuple[Tile, ...], ...], Tile | None, Wall]:
    """Shuffle the rule set's tiles and deal one hand.

    Returns every seat's tiles (``dealt_tiles``, 13 in riichi, sorted), the opening dora
    indicator (``None`` for a rule set without dora) and the whole
    :class:`~engine.events.Wall` (its ``dora_indicators[0]`` is that indicator). The layout is
    described in the module docstring.

    :raises ValueError: the rule set's dead wall cannot hold the indicators, or there are fewer
        live tiles than the replacements to take from them.
    """
    tiles = tile_set(ruleset)
    rng.shuffle(tiles)
    players = ruleset.players
    live_count = live_tiles(ruleset)
    in_dead_wall = dead_wall_replacements(ruleset)
    from_live = ruleset.rinshan_tiles - in_dead_wall
    indicators = indicator_stacks(ruleset)
    if in_dead_wall < 0 or from_live > live_count:
        raise ValueError(
            f"{ruleset.name}: a {ruleset.dead_wall}-tile dead wall cannot hold "
            f"{2 * indicators} indicators and {ruleset.rinshan_tiles} replacements"
        )
    size = ruleset.dealt_tiles
    position = size * players
    if position + live_count + ruleset.dead_wall > len(tiles):
        raise ValueError(
            f"{ruleset.name}: {len(tiles)} tiles cannot deal {size} to each of {players} players "
            f"with a {live_count}-tile live wall and a {ruleset.dead_wall}-tile dead wall"
        )
    hands = tuple(tuple(sorted(tiles[size * seat : size * seat + size])) for seat in range(players))
    live = tuple(tiles[position : position + live_count])
    position += live_count
    dead = tiles[position:]
    # Whatever the dead wall holds beyond the indicators and its replacements (none in the
    # riichi presets; in small mahjong every tile beyond the hands and the stock) is never
    # drawn; it is simply left out of the record.
    replacements = (*dead[:in_dead_wall], *live[::-1][:from_live])
    dora = tuple(dead[in_dead_wall : in_dead_wall + indicators])
    ura = tuple(dead[in_dead_wall + indicators : in_dead_wall + 2 * indicators])
    wall = Wall(live=live, replacements=replacements, dora_indicators=dora, ura_indicators=ura)
    return hands, dora[0] if dora else None, wall
