"""Between Ùzje hands: who deals next, when a set and the match end, and the placements
(seeds/002 "End of game and game structure", lines 98-108).

A *hand* is one deal (the document's *game*, line 101; the engine calls a deal a hand in every
family, and a whole record a game, which in Ùzje is a *match*). The prevailing wind rotates (the
deal passes to the next player) whenever someone other than the dealer goes out; the dealer keeps
the deal on their own win and, by our choice, on an exhaustive draw (the document's "goulashes
... then there will be more games", line 102). A *set* ends when the deal comes back to the first
dealer; the match is four sets (East, South, West, North), or two for a half-match, or a fixed
number of hands (the option ``fixed_games``, in the document's word).

Positions reuse :class:`engine.game_flow.RoundPosition`: ``wind`` is the set (its orientation
is the round wind for scoring), ``number`` the dealer's place from the first dealer (1 ..
players), ``honba`` how many hands in a row this dealer has dealt before, and ``sticks`` is
always 0 (Ùzje has no riichi sticks).
"""

from __future__ import annotations

from engine.game_flow import RoundPosition
from engine.variants.uzje.rules import UzjeRules


def first_position(first_dealer: int = 0) -> RoundPosition:
    return RoundPosition(wind=0, number=1, dealer=first_dealer, honba=0, sticks=0)


def next_position(
    position: RoundPosition,
    rules: UzjeRules,
    *,
    dealer_keeps: bool,
    hands_played: int,
    first_dealer: int,
) -> RoundPosition | None:
    """The next hand's position, or ``None`` when the match is over."""
    if rules.fixed_games and hands_played >= rules.fixed_games:
        return None
    if dealer_keeps:
        return RoundPosition(position.wind, position.number, position.dealer, position.honba + 1, 0)
    players = rules.players
    dealer = (position.dealer + 1) % players
    wind = position.wind
    if dealer == first_dealer:
        if not rules.fixed_games and wind + 1 >= rules.sets:
            return None
        wind = (wind + 1) % 4
    return RoundPosition(wind, (dealer - first_dealer) % players + 1, dealer, 0, 0)


def seat_wind(seat: int, dealer: int, players: int) -> int | None:
    """A seat's wind 0-3 (the dealer is East, then anticlockwise); the fifth and sixth seats
    of a 5- or 6-player table have none."""
    wind = (seat - dealer) % players
    return wind if wind < 4 else None
