"""Between hands: who deals next, the counters, when the game ends, and the placements.

Pure functions of the scores and the last hand's outcome, so the state machine, the replayer and
the self-play loop agree on them. The rules are Tenhou's unless the :class:`Ruleset` says
otherwise (see ``docs/rules.md``): a dealer who wins or is tenpai keeps the deal; any draw adds a
counter (without ``renchan``, as in small mahjong, the deal always passes and there are no
counters); the game ends on a negative score, after the last scheduled hand when someone has the
target score, or, in the extra rounds, as soon as someone has it after a hand that passes the
deal (after a dealer's repeat too with ``sudden_death_on_repeat``); an all-last dealer in first
place with the target stops after a win (``agari_yame``) or tenpai (``tenpai_yame``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules.ruleset import PointsRounding, Ruleset


@dataclass(frozen=True, slots=True)
class RoundPosition:
    """Where a hand sits in the game: the counters a round starts with."""

    #: 0 East, 1 South, 2 West, 3 North.
    wind: int
    #: 1 .. number of players.
    number: int
    dealer: int
    honba: int
    sticks: int

    @property
    def name(self) -> str:
        """``E1``, ``S4`` ..."""
        return f"{'ESWN'[self.wind]}{self.number}"


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What the game flow needs to know about a finished hand."""

    #: The dealer keeps the deal (won, tenpai at the draw, or an abortive draw).
    dealer_keeps: bool
    #: Somebody won (the counters reset unless the dealer won).
    won: bool
    #: The outcome was an abortive draw (no all-last stop on it).
    aborted: bool = False


def first_position(first_dealer: int = 0) -> RoundPosition:
    """East 1 with no counters."""
    return RoundPosition(wind=0, number=1, dealer=first_dealer, honba=0, sticks=0)


def placements(scores: Sequence[float], first_dealer: int = 0) -> tuple[int, ...]:
    """Each seat's place (1 = first). Equal scores are ranked by seat order from the first
    dealer (Tenhou's rule: the seat nearer the first East ranks higher). Any numbers: a record's
    final scores may be read as floats (Ùzje's halves)."""
    players = len(scores)
    order = sorted(
        range(players), key=lambda seat: (-scores[seat], (seat - first_dealer) % players)
    )
    places = [0] * players
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return tuple(places)


def _last_scheduled_wind(ruleset: Ruleset) -> int:
    return 0 if ruleset.length == "east" else 1


def next_position(
    position: RoundPosition,
    outcome: HandOutcome,
    scores: list[int],
    sticks_after: int,
    ruleset: Ruleset,
    first_dealer: int = 0,
) -> RoundPosition | None:
    """The next hand's position, or ``None`` when the game is over.

    ``scores`` are the scores after the hand; ``sticks_after`` the riichi sticks left on the
    table (zero after a win).
    """
    players = ruleset.players
    if ruleset.tobi and any(score < 0 for score in scores):
        return None
    last_wind = _last_scheduled_wind(ruleset)
    all_last = position.wind > last_wind or (
        position.wind == last_wind and position.number == players
    )
    target = ruleset.target_points
    # Without renchan (small mahjong) the deal passes after every hand.
    dealer_keeps = outcome.dealer_keeps and ruleset.renchan
    if all_last:
        dealer = position.dealer
        leader = placements(scores, first_dealer).index(1)
        if dealer_keeps:
            stops = ruleset.agari_yame if outcome.won else ruleset.tenpai_yame
            if stops and not outcome.aborted and leader == dealer and scores[dealer] >= target:
                return None
            # In the extra rounds first place reaching the target ends the game after any hand,
            # a dealer's repeat included, where the rules say "as soon as" (the mini-game's).
            extra = position.wind > last_wind
            if extra and ruleset.sudden_death_on_repeat and scores[leader] >= target:
                return None
        else:
            reached = any(score >= target for score in scores)
            # The extra rounds stop at the end of the wind after the last scheduled one.
            last_extra = position.wind == last_wind + 1 and position.number == players
            if reached or not ruleset.sudden_death or last_extra:
                return None
    honba = position.honba + 1 if dealer_keeps or not outcome.won else 0
    if not ruleset.renchan:
        honba = 0  # the counters count repeats and draws; without renchan there are none
    if dealer_keeps:
        return RoundPosition(position.wind, position.number, position.dealer, honba, sticks_after)
    number = position.number + 1
    wind = position.wind
    if number > players:
        number = 1
        wind += 1
    if wind > 3:
        return None
    dealer = (position.dealer + 1) % players
    return RoundPosition(wind, number, dealer, honba, sticks_after)


def final_scores(
    scores: list[int], sticks: int, ruleset: Ruleset, first_dealer: int = 0
) -> list[int]:
    """The scores at the end of the game: sticks left on the table go to first place where the
    rules say so."""
    final = list(scores)
    if sticks and ruleset.leftover_sticks_to_first:
        final[placements(final, first_dealer).index(1)] += 1000 * sticks
    return final


def final_points(
    scores: list[int] | tuple[int, ...], ruleset: Ruleset, first_dealer: int = 0
) -> tuple[tuple[int, ...], ...]:
    """Each seat's final points in tenths (``238`` is +23.8): the final score less the rule
    set's ``points_base``, in thousands, plus the placement's uma, and for first place the oka
    (what the players started with below the base). Integers, so that no float rounding gets in
    the way of a comparison.

    One tuple per way of rounding the rules allow (two for :attr:`PointsRounding.EITHER`, none
    for :attr:`PointsRounding.UNCHECKED`).
    Rounded to thousands, each seat but the first rounds its score (500 away from zero) before
    the return is taken, and first place takes what makes the points add up to zero, as Tenhou
    did (its records: 5,500 gives -24 before uma, -500 gives -31).
    """
    rounding = ruleset.points_rounding
    if rounding is PointsRounding.UNCHECKED:
        return ()
    players = len(scores)
    places = placements(scores, first_dealer)
    base = ruleset.points_base
    oka_tenths = (base - ruleset.starting_points) * players // 100
    uma = [10 * ruleset.uma[place - 1] for place in places]
    top = places.index(1)
    # Scores and the base are whole hundreds: tenths of a thousand are exact.
    exact = tuple(
        (score - base) // 100 + uma[seat] + (oka_tenths if seat == top else 0)
        for seat, score in enumerate(scores)
    )
    if rounding is PointsRounding.EXACT:
        return (exact,)
    rounded = [0] * players
    for seat, score in enumerate(scores):
        if seat != top:
            thousands = (abs(score) + 500) // 1000 * (1 if score >= 0 else -1)
            rounded[seat] = 10 * thousands - base // 100 + uma[seat]
    rounded[top] = -sum(rounded)
    if rounding is PointsRounding.THOUSANDS:
        return (tuple(rounded),)
    return exact, tuple(rounded)


def whole_points(amount: float) -> int:
    """An amount in whole points, a half rounded away from zero (``2.5`` is 3, ``-2.5`` is -3):
    for what counts whole points (the statistics' rows, the seats' scores) where a game pays
    halves (Ùzje's exact self-draws). Whole amounts are unchanged."""
    return int(math.copysign(math.floor(abs(amount) + 0.5), amount))
