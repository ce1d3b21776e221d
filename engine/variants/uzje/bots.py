"""Ùzje bots for self-play: simple players that make games full of the rules' corners.

A bot follows the protocol every family's bots follow (:class:`engine.bots.Bot`: here over an
:class:`~engine.variants.uzje.state.UzjeState` and Ùzje's events), whose one question,
:meth:`~GreedyBot.choose`, comes in three kinds here: what to do on its turn (a flower, a win, a
quad or a discard, from the legal actions), whether to take a win it is offered (the options are
that win), and which claim (if any) to make on a discard. :class:`GreedyBot` plays for the closed
hand (a closed hand always reaches the 2.5 f minimum): it discards the tile that keeps it closest
to a winning shape and claims only trips of valuable honours. :class:`ClaimingBot` claims
whatever brings it closer, ariths of every difference included, so open hands, quads and failed
open hands appear too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeAlias

from engine.bots import Bot
from engine.events import AddedKan, ClosedKan, Discard, OpenKan, Pon, Win
from engine.variants.uzje.events import Chow, FlowerExposed, UzjeEvent
from engine.variants.uzje.shapes import discard_distances, distance, standard_distance
from engine.variants.uzje.state import UzjePhase, UzjeState
from engine.variants.uzje.tiles import ARROWS, FULL_WINDS, ZERO, kind_of

#: Ùzje's bots: the engine's bot protocol over Ùzje's table and events.
UzjeBot: TypeAlias = Bot[UzjeState, UzjeEvent]


def _distance(state: UzjeState, seat: int, counts: list[int]) -> int:
    rules = state.rules
    declared = state.seats[seat].melds
    return distance(
        counts, declared, full_winds=rules.full_winds, limited_tongs=not rules.all_tongs
    )


def _valuable(state: UzjeState, seat: int, kind: int) -> bool:
    """Honours whose trip is worth a fan to this seat: arrows, its seat wind, the round wind."""
    if kind in ARROWS:
        return True
    if not state.rules.full_winds:
        return False
    wind = (seat - state.dealer) % state.players
    return kind in (FULL_WINDS[state.round_wind], FULL_WINDS[wind] if wind < 4 else -1)


class GreedyBot:
    """Plays for the shape with the fewest tiles to go, closed; wins whenever it can."""

    def __init__(self, rng: random.Random | None = None, quads: bool = True) -> None:
        self.rng = rng or random.Random(0)
        self.quads = quads

    def choose(self, state: UzjeState, seat: int, options: list[UzjeEvent]) -> UzjeEvent | None:
        """On the seat's turn one of the turn's actions (:meth:`turn`); offered a win, that win
        or ``None`` (:meth:`take_win`); offered claims on a discard, one of them or ``None``
        (:meth:`claim`)."""
        if state.phase is UzjePhase.ACT:
            return self.turn(state, options)
        offered = options[0]
        if isinstance(offered, Win):
            return offered if self.take_win(state, offered) else None
        return self.claim(state, options)

    def turn(self, state: UzjeState, actions: Sequence[UzjeEvent]) -> UzjeEvent:
        """One of the turn's legal actions."""
        for action in actions:
            if isinstance(action, FlowerExposed | Win):
                return action
        if self.quads:
            for action in actions:
                if isinstance(action, ClosedKan | AddedKan):
                    return action
        discards = [action for action in actions if isinstance(action, Discard)]
        return self._discard(state, discards)

    def _discard(self, state: UzjeState, discards: Sequence[Discard]) -> Discard:
        seat = discards[0].seat
        data = state.seats[seat]
        rules = state.rules
        after = discard_distances(
            data.counts, data.melds, full_winds=rules.full_winds, limited_tongs=not rules.all_tongs
        )
        best: list[Discard] = []
        best_key: tuple[int, int] | None = None
        for action in discards:
            kind = kind_of(action.tile)
            # Fewest tiles to go; then keep the zero and number tiles over lone honours.
            key = (after[kind], 0 if kind > ZERO else 1)
            if best_key is None or key < best_key:
                best, best_key = [action], key
            elif key == best_key:
                best.append(action)
        return self.rng.choice(best)

    def take_win(self, state: UzjeState, win: Win) -> bool:
        """Whether to take a win on a discard, a quad or a flower."""
        return True

    def claim(self, state: UzjeState, options: Sequence[UzjeEvent]) -> UzjeEvent | None:
        """One of the claims offered on a discard, or ``None``."""
        for option in options:
            if isinstance(option, Pon | OpenKan) and state.seats[option.seat].melds == []:
                kind = kind_of(option.tile)
                if _valuable(state, option.seat, kind) and self._closer(state, option):
                    return option
        return None

    def _closer(self, state: UzjeState, option: Pon | OpenKan | Chow) -> bool:
        """Whether the claim leaves the hand closer to winning than passing."""
        seat = option.seat
        counts = list(state.seats[seat].counts)
        before = _distance(state, seat, counts)
        for value in option.consumed:
            counts[kind_of(value)] -= 1
        melds = len(state.seats[seat].melds) + 1
        limited = not state.rules.all_tongs
        if isinstance(option, OpenKan):  # a replacement draw follows, no discard
            return standard_distance(counts, melds, limited) < before
        after = 99
        for kind, count in enumerate(counts):
            if count:
                counts[kind] -= 1
                after = min(after, standard_distance(counts, melds, limited))
                counts[kind] += 1
        return after < before


class ClaimingBot(GreedyBot):
    """A greedy player that claims every trip, quad and arith that brings it closer (with the
    probability ``rate``), and sometimes discards at random."""

    def __init__(self, rng: random.Random, rate: float = 0.7, noise: float = 0.1) -> None:
        super().__init__(rng)
        self.rate = rate
        self.noise = noise

    def turn(self, state: UzjeState, actions: Sequence[UzjeEvent]) -> UzjeEvent:
        discards = [action for action in actions if isinstance(action, Discard)]
        if discards and len(discards) == len(actions) and self.rng.random() < self.noise:
            return self.rng.choice(discards)
        return super().turn(state, actions)

    def claim(self, state: UzjeState, options: Sequence[UzjeEvent]) -> UzjeEvent | None:
        useful = [
            option
            for option in options
            if isinstance(option, Pon | OpenKan | Chow) and self._closer(state, option)
        ]
        if useful and self.rng.random() < self.rate:
            return self.rng.choice(useful)
        return None
