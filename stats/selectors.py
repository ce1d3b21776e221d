"""Read paths of the stats app.

Every query that views, API endpoints or tasks need is a function here (HackSoft Django
Styleguide): a selector takes plain values and returns model instances, querysets or plain
data, and changes nothing. Writes belong in ``services.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet

from mjlogs.models import Game, GameSeat, Player
from mjlogs.selectors import User, games_visible_to
from replay.models import Verdict
from stats.filters import StatsFilter
from stats.metrics import counts_of, counts_of_seats, metrics_of, stable_dan
from stats.models import PlayerSummary, RoundFact


class StatsFilterError(ValueError):
    """A filter parameter with a bad value; ``errors`` maps each to its messages."""

    def __init__(self, errors: Mapping[str, Any]) -> None:
        super().__init__("; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in errors.items()))
        self.errors = dict(errors)


@dataclass(frozen=True)
class PlayerStats:
    player: Player
    counts: dict[str, int]
    metrics: dict[str, float | None]
    #: The games and fact rows counted (for the tables and series built on the same choice).
    games: QuerySet[Game]
    facts: QuerySet[RoundFact]

    @property
    def stable_dan(self) -> float | None:
        """Tenhou's stable dan over the 4-player games of the selection."""
        seats = GameSeat.objects.filter(player=self.player, game__in=self.games)
        return stable_dan(counts_of_seats(seats.filter(game__players_count=4)))

    @property
    def yaku(self) -> list[tuple[str, int]]:
        return yaku_frequencies(self.facts)

    @property
    def han(self) -> dict[int, int]:
        return han_distribution(self.facts)

    @property
    def longest_dealer_streak(self) -> int:
        return longest_dealer_streak(self.facts)


def counted_games(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games statistics count: those the rules engine verified (a record it disagrees
    with could count anything)."""
    return games.filter(verification__verdict=Verdict.VERIFIED)


def player_stats(
    user: User, player: Player, params: Mapping[str, Any] | None = None
) -> PlayerStats:
    """A player's statistics over the games this user may see, filtered by ``params`` (see
    :class:`~stats.filters.StatsFilter`).

    :raises StatsFilterError: a bad filter value.
    """
    visible = counted_games(games_visible_to(user)).filter(seats__player=player)
    games = StatsFilter(params or {}, queryset=visible)
    if not games.is_valid():
        raise StatsFilterError(games.errors)
    chosen = Game.objects.filter(pk__in=games.qs.values("pk"))
    facts = RoundFact.objects.filter(player=player, game__in=chosen)
    counts = counts_of(facts, GameSeat.objects.filter(player=player, game__in=chosen))
    return PlayerStats(player, counts, metrics_of(counts), chosen, facts)


def player_ids_with_facts_or_summary() -> list[int]:
    """Every player a rebuild must visit: those seated in a game (their summary may need
    creating) and those with a summary (it may need removing)."""
    seated = set(GameSeat.objects.values_list("player_id", flat=True).distinct())
    summarised = set(PlayerSummary.objects.values_list("player_id", flat=True))
    return sorted(seated | summarised)


def yaku_frequencies(facts: QuerySet[RoundFact]) -> list[tuple[str, int]]:
    """How many of these hands' wins had each yaku (dora counted once per win), most frequent
    first, then by name."""
    counted: Counter[str] = Counter()
    for yaku in facts.filter(won=True).values_list("yaku", flat=True):
        counted.update(set(yaku))
    return sorted(counted.items(), key=lambda item: (-item[1], item[0]))


def han_distribution(facts: QuerySet[RoundFact]) -> dict[int, int]:
    """How many of these hands' wins had each han count."""
    rows = facts.filter(won=True).values("han").annotate(wins=Count("id")).order_by("han")
    return {row["han"]: row["wins"] for row in rows}


def longest_dealer_streak(facts: QuerySet[RoundFact]) -> int:
    """The most hands in a row the player was dealer in one game (a dealer keeping the deal
    through wins, tenpai draws and aborts; 1 when they never kept it)."""
    longest = run = 0
    previous: tuple[int, int] | None = None
    rows = facts.filter(dealer=True).order_by("game_id", "round_index")
    for game_id, round_index in rows.values_list("game_id", "round_index"):
        follows = previous is not None and previous == (game_id, round_index - 1)
        run = run + 1 if follows else 1
        longest = max(longest, run)
        previous = (game_id, round_index)
    return longest
