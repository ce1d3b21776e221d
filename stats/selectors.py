"""Read paths of the stats app.

Every query that views, API endpoints or tasks need is a function here (HackSoft Django
Styleguide): a selector takes plain values and returns model instances, querysets or plain
data, and changes nothing. Writes belong in ``services.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mjlogs.models import GameSeat, Player
from mjlogs.selectors import User, games_visible_to
from stats.filters import StatsFilter
from stats.metrics import counts_of, metrics_of
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


def player_stats(
    user: User, player: Player, params: Mapping[str, Any] | None = None
) -> PlayerStats:
    """A player's statistics over the games this user may see, filtered by ``params`` (see
    :class:`~stats.filters.StatsFilter`).

    :raises StatsFilterError: a bad filter value.
    """
    visible = games_visible_to(user).filter(seats__player=player)
    games = StatsFilter(params or {}, queryset=visible)
    if not games.is_valid():
        raise StatsFilterError(games.errors)
    chosen = games.qs.values("pk")
    counts = counts_of(
        RoundFact.objects.filter(player=player, game__in=chosen),
        GameSeat.objects.filter(player=player, game__in=chosen),
    )
    return PlayerStats(player, counts, metrics_of(counts))


def player_ids_with_facts_or_summary() -> list[int]:
    """Every player a rebuild must visit: those seated in a game (their summary may need
    creating) and those with a summary (it may need removing)."""
    seated = set(GameSeat.objects.values_list("player_id", flat=True).distinct())
    summarised = set(PlayerSummary.objects.values_list("player_id", flat=True))
    return sorted(seated | summarised)
