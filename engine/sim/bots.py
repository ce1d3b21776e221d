"""Riichi's bots for self-play: a random player and a shanten-greedy player.

A bot is asked only when it has a choice (the protocol every family's bots follow,
:class:`engine.bots.Bot`: here over a :class:`~engine.state.GameState` and riichi's events). On its
own turn (``ACT`` and ``RIICHI`` phases) it gets every legal event of that turn (discards, tsumo,
riichi, kans, kita, nine terminals) and must pick one. On a claim (someone's discard, added kan or
north) it gets its legal rons, or, once nobody has ronned, its legal calls; it may pass with
``None``. The self-play loop (:mod:`engine.sim.selfplay`) resolves competing claims. Bots may read
the whole :class:`~engine.state.GameState` but play fair: they look only at their own tiles and at
what is public (melds, rivers, indicators).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeAlias

from engine.bots import Bot
from engine.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiDeclared,
    Swap,
    Win,
)
from engine.hand.melds import MeldType
from engine.hand.shanten import shanten_kokushi
from engine.hand.shapes import STANDARD, HandShapes
from engine.state import GameState
from engine.tiles import DRAGONS, EAST, YAOCHUU, dora_from_indicator

_YAOCHUU = frozenset(YAOCHUU)


#: Riichi's bots: the engine's bot protocol over riichi's table and events.
RiichiBot: TypeAlias = Bot[GameState, Event]


def is_claim(options: Sequence[Event]) -> bool:
    """Whether the options are a claim (rons or calls, which may be passed): a turn always
    offers a discard, a claim never does."""
    return not any(isinstance(option, Discard) for option in options)


class RandomBot:
    """Picks uniformly among the options; passes a claim with probability ``pass_rate``.

    Plays badly on purpose: its riichi declarations, kans, kita and nine-terminal aborts at
    random moments reach corners of the rules that a sensible player rarely does.
    """

    def __init__(self, rng: random.Random, pass_rate: float = 0.5) -> None:
        self.rng = rng
        self.pass_rate = pass_rate

    def choose(self, state: GameState, seat: int, options: list[Event]) -> Event | None:
        if not options:
            return None
        if is_claim(options) and self.rng.random() < self.pass_rate:
            return None
        return self.rng.choice(options)


class GreedyBot:
    """Plays for the lowest shanten.

    * Always wins (tsumo and ron), always extracts North (sanma), declares riichi whenever it
      may, takes a closed or added kan when it does not raise the shanten.
    * Discards the tile that leaves the lowest shanten; ties go to the least useful tile
      (:meth:`tile_value_function`: isolated honours and terminals first, dora and red fives
      last, tiles off an open hand's yaku before all).
    * Calls pon, chi or an open kan when the call lowers the shanten (keeps it, for a kan) and
      the hand keeps a way to a yaku: a yakuhai set, all simples (with open tanyao), or a
      half/full flush.
    * Declares nine terminals unless the hand is within two tiles of thirteen orphans.

    With rule modifiers' powers (:mod:`engine.rules.modifiers`):

    * draws again after its own unclaimed discard (``second_chance``) when its hand is tenpai or
      one tile from it;
    * swaps a tile with a dora indicator (``swap``) when that lowers the shanten of a hand not
      yet tenpai, giving the least useful tile;
    * never discards a tile that a hand it may see (``peek``) waits on, while it has another
      discard.
    """

    def choose(self, state: GameState, seat: int, options: list[Event]) -> Event | None:
        if not options:
            return None
        for option in options:
            if isinstance(option, Win):
                return option
        if all(isinstance(option, Draw) for option in options):  # a redraw offered
            return options[0] if state.shapes.shanten(state.seats[seat].counts) <= 1 else None
        if is_claim(options):
            return self.claim(state, seat, options)
        return self.turn(state, seat, options)

    # -- own turn ---------------------------------------------------------------------------

    def turn(self, state: GameState, seat: int, options: list[Event]) -> Event:
        """The turn's action: kita, nine terminals, kan, riichi, else the best discard."""
        counts = list(state.seats[seat].counts)
        current: int | None = None
        discards: list[Discard] = []
        riichi: RiichiDeclared | None = None
        swaps: list[Swap] = []
        for option in options:
            if type(option) is Discard:  # most options: checked first
                discards.append(option)
            elif isinstance(option, Swap):
                swaps.append(option)
            elif isinstance(option, NorthExtraction):
                return option
            elif isinstance(option, AbortiveDraw):
                if shanten_kokushi(counts) > 2:
                    return option
            elif isinstance(option, ClosedKan | AddedKan):
                tiles = option.tiles if isinstance(option, ClosedKan) else (option.tile,)
                if current is None:
                    current = state.shapes.shanten(counts)
                for tile in tiles:
                    counts[tile.kind] -= 1
                after = state.shapes.shanten(counts)
                for tile in tiles:
                    counts[tile.kind] += 1
                if after <= current:
                    return option
            elif isinstance(option, RiichiDeclared):
                riichi = option
        if swaps:
            swap = self.best_swap(state, seat, swaps)
            if swap is not None:
                return swap
        if riichi is not None:
            return riichi
        if not discards:
            raise ValueError(f"seat {seat} has no discard among {options}")
        if len(discards) == 1:  # in riichi, after the riichi discard
            return discards[0]
        danger = visible_waits(state, seat)
        if danger:
            safe = [option for option in discards if option.tile.kind not in danger]
            discards = safe or discards
            if len(discards) == 1:
                return discards[0]
        return self.best_discard(state, seat, discards)

    def best_swap(self, state: GameState, seat: int, swaps: list[Swap]) -> Swap | None:
        """The swap that lowers the shanten of the seat's hand most (a hand not yet tenpai),
        giving the least useful tile among equals; ``None`` when none lowers it."""
        counts = list(state.seats[seat].counts)
        current = state.shapes.shanten(counts)
        if current <= 0:
            return None
        value = self.tile_value_function(state, seat)
        best: tuple[int, int, bool] | None = None
        chosen: Swap | None = None
        for option in swaps:
            counts[option.tile.kind] -= 1
            counts[option.indicator.kind] += 1
            after = state.shapes.shanten(counts)
            counts[option.indicator.kind] -= 1
            counts[option.tile.kind] += 1
            key = (after, value(option.tile.kind), option.tile.red)
            if after < current and (best is None or key < best):
                best, chosen = key, option
        return chosen

    def best_discard(self, state: GameState, seat: int, discards: list[Discard]) -> Discard:
        """The discard leaving the lowest shanten (the riichi discard: the widest wait), ties
        broken by :meth:`tile_value_function` (then a plain five before a red one)."""
        data = state.seats[seat]
        counts = list(data.counts)
        riichi_discard = data.riichi
        shapes = state.shapes  # (the rule set's runs: space mahjong's wrap around)
        scores: dict[int, int] = {}
        for option in discards:
            kind = option.tile.kind
            if kind in scores:
                continue
            counts[kind] -= 1
            if riichi_discard:
                # Every listed riichi discard leaves the hand tenpai: keep the widest wait.
                scores[kind] = -len(shapes.winning_kinds(counts))
            else:
                scores[kind] = shapes.shanten(counts)
            counts[kind] += 1
        lowest = min(scores.values())
        tied = [option for option in discards if scores[option.tile.kind] == lowest]
        if len(tied) == 1:
            return tied[0]
        value = self.tile_value_function(state, seat)
        return min(tied, key=lambda option: (value(option.tile.kind), option.tile.red))

    # -- tile values ------------------------------------------------------------------------

    def tile_value_function(self, state: GameState, seat: int) -> Callable[[int], int]:
        """How much the seat wants to keep one tile of a kind (higher: keep): its
        :meth:`keep_value`, more for a dora, much less when it does not fit the yaku an open
        hand plays for."""
        counts = state.seats[seat].counts
        yakuhai = _yakuhai(state, seat)
        three_player = state.players == 3
        dora = {
            dora_from_indicator(tile.kind, three_player=three_player)
            for tile in state.dora_indicators
        }
        plan = _open_plan(state, seat)

        def value(kind: int) -> int:
            worth = self.keep_value(counts, kind, kind in yakuhai, state.shapes)
            worth += 6 * (kind in dora)
            if plan is not None and not plan(kind):
                worth -= 20
            return worth

        return value

    @staticmethod
    def keep_value(
        counts: Sequence[int], kind: int, yakuhai: bool, shapes: HandShapes = STANDARD
    ) -> int:
        """Connectivity of one tile: copies, neighbours within two ranks, central ranks.

        An isolated non-value honour scores 0, an isolated yakuhai or terminal 1, an honour pair
        3 (7 for yakuhai: a pon of it is a yaku). With other shapes (space mahjong) a tile's
        neighbours are the tiles it shares runs with, counted once per shared run (in a suit
        that is the same two-then-one weighting, without ends), and no rank is an edge.
        """
        same = 3 * (counts[kind] - 1)
        if not shapes.standard and shapes.runs_with[kind]:
            near = 0
            for start in shapes.runs_with[kind]:
                run = shapes.run_kinds[start]
                assert run is not None
                near += sum(counts[other] for other in run if other != kind)
            return 3 + same + near + (1 + same if yakuhai else 0)
        if kind >= EAST:
            return same + (1 + same if yakuhai else 0)
        rank = kind % 9
        near = 0
        for step, weight in ((1, 2), (2, 1)):
            if rank - step >= 0:
                near += weight * counts[kind - step]
            if rank + step <= 8:
                near += weight * counts[kind + step]
        central = min(rank, 8 - rank, 2)
        return 1 + same + near + central

    # -- claims -----------------------------------------------------------------------------

    def claim(self, state: GameState, seat: int, options: list[Event]) -> Event | None:
        """The call that lowers the shanten most while keeping a yaku in reach, or a pass."""
        counts = list(state.seats[seat].counts)
        current = state.shapes.shanten(counts)
        best: Event | None = None
        best_after = current
        for option in options:
            if not isinstance(option, Chi | Pon | OpenKan):
                continue
            for tile in option.consumed:
                counts[tile.kind] -= 1
            after = state.shapes.shanten(counts)
            keeps_yaku = _yaku_in_reach(state, seat, option, counts)
            for tile in option.consumed:
                counts[tile.kind] += 1
            if not keeps_yaku:
                continue
            if isinstance(option, OpenKan):
                # A kan does not lower the shanten by itself; take it when it costs nothing.
                if after <= current and best is None:
                    best = option
            elif after < best_after:
                best, best_after = option, after
        return best


def visible_waits(state: GameState, seat: int) -> frozenset[int]:
    """The kinds that the hands the seat may see (a rule modifier's ``visible`` hook: empty
    without one) are waiting on."""
    kinds: frozenset[int] = frozenset()
    for other in state.visible_hands(seat):
        kinds |= state.waits(other)
    return kinds


def _yakuhai(state: GameState, seat: int) -> frozenset[int]:
    """Honour kinds whose set is a yaku for the seat: dragons, seat and round wind."""
    return frozenset((*DRAGONS, state.seat_wind(seat), state.round_wind))


def _meld_kinds(state: GameState, seat: int) -> list[int]:
    """Every kind in the seat's melds (with repeats)."""
    return [tile.kind for meld in state.seats[seat].melds for tile in meld.tiles]


def _open_plan(state: GameState, seat: int) -> Callable[[int], bool] | None:
    """For an open hand without a yakuhai set: which kinds fit the yaku it plays for."""
    data = state.seats[seat]
    if not data.open:
        return None
    yakuhai = _yakuhai(state, seat)
    if any(meld.type is not MeldType.CHI and meld.kind in yakuhai for meld in data.melds):
        return None
    kinds = _meld_kinds(state, seat)
    if state.ruleset.kuitan and all(kind not in _YAOCHUU for kind in kinds):
        return _is_simple
    suits = {kind // 9 for kind in kinds if kind < EAST}
    if len(suits) == 1:
        suit = suits.pop()
        return lambda kind: kind >= EAST or kind // 9 == suit
    return None


def _is_simple(kind: int) -> bool:
    return kind not in _YAOCHUU


def _yaku_in_reach(
    state: GameState, seat: int, call: Chi | Pon | OpenKan, after: Sequence[int]
) -> bool:
    """Whether the hand still has a plain way to a yaku after the call (``after``: the
    concealed counts once the call's tiles are gone)."""
    yakuhai = _yakuhai(state, seat)
    kind = call.tile.kind
    data = state.seats[seat]
    if not isinstance(call, Chi) and kind in yakuhai:
        return True
    if any(meld.type is not MeldType.CHI and meld.kind in yakuhai for meld in data.melds):
        return True
    if any(after[honour] >= 3 for honour in yakuhai):
        return True
    meld_kinds = [*_meld_kinds(state, seat), kind, *(tile.kind for tile in call.consumed)]
    if state.ruleset.kuitan and all(k not in _YAOCHUU for k in meld_kinds):
        strays = sum(after[k] for k in _YAOCHUU)
        if strays <= 1:
            return True
    # A half flush: the melds in one suit (and honours), at most two tiles of other suits.
    suits = {k // 9 for k in meld_kinds if k < EAST}
    if len(suits) == 1:
        suit = suits.pop()
        strays = sum(count for k, count in enumerate(after) if k < EAST and k // 9 != suit)
        if strays <= 2:
            return True
    return False
