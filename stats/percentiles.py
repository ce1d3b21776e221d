"""Where a player's figure stands among the players with enough games: its percentile
(docs/stats.md, "Percentiles"), as amae-koromo shows beside each figure.

The field is every ranked player (people, not bots or guests: ``mjlogs.provenance``) whose kept
summary counts at least :data:`~stats.selectors.DEFAULT_MIN_GAMES` complete public games, the
same field as the default leaderboard. A figure's percentile is the share of that field whose
figure is worse, counting ties as half (the mid-rank, so a field of equal figures puts everyone
at 50): 90 means "better than 90% of the field". "Worse" follows the metric's direction
(``Metric.lower_is_better``).

The field's sorted figures are read from the summaries once and kept in the cache until a
summary changes (the key holds the count and the latest ``updated_at``), so a page costs one
small query, not a scan of every summary.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping

from django.core.cache import cache
from django.db.models import Count, Max

from mjlogs.models import PlayerKind
from stats.metrics import METRICS
from stats.models import PlayerSummary
from stats.selectors import DEFAULT_MIN_GAMES, PlayerStats

#: How long a field is kept at most, whatever the key says (seconds).
CACHE_SECONDS = 600


def field_of(min_games: int) -> dict[str, list[float]]:
    """Each metric's figures over the field, ascending (players without a value left out)."""
    summaries = PlayerSummary.objects.filter(games__gte=min_games, player__kind=PlayerKind.PERSON)
    state = summaries.aggregate(count=Count("pk"), latest=Max("updated_at"))
    latest = state["latest"].isoformat() if state["latest"] else "-"
    key = f"stats:percentile-field:{min_games}:{state['count']}:{latest}"
    kept: dict[str, list[float]] | None = cache.get(key)
    if kept is not None:
        return kept
    figures: dict[str, list[float]] = {metric.name: [] for metric in METRICS}
    for metrics in summaries.values_list("metrics", flat=True).iterator(chunk_size=2000):
        for name, values in figures.items():
            value = (metrics or {}).get(name)
            if value is not None:
                values.append(float(value))
    for values in figures.values():
        values.sort()
    cache.set(key, figures, CACHE_SECONDS)
    return figures


def percentile(value: float, field: list[float], lower_is_better: bool) -> float | None:
    """The share (0-100) of ``field`` (ascending) that ``value`` beats, ties counting half;
    ``None`` for an empty field."""
    if not field:
        return None
    below, up_to = bisect_left(field, value), bisect_right(field, value)
    worse = len(field) - up_to if lower_is_better else below
    return 100 * (worse + (up_to - below) / 2) / len(field)


def percentiles_of(metrics: Mapping[str, float | None], min_games: int) -> dict[str, float | None]:
    """Each metric's percentile among the field of players with ``min_games`` games (``None``
    for a metric without a value or an empty field)."""
    field = field_of(min_games)
    return {
        metric.name: None
        if (value := metrics.get(metric.name)) is None
        else percentile(float(value), field[metric.name], metric.lower_is_better)
        for metric in METRICS
    }


def player_percentiles(stats: PlayerStats) -> dict[str, float | None] | None:
    """The percentiles of a player's unfiltered figures, when they have the field's minimum of
    games; ``None`` otherwise (a filtered figure is not comparable with the field's)."""
    if stats.filters or stats.counts["games"] < DEFAULT_MIN_GAMES:
        return None
    return percentiles_of(stats.metrics, DEFAULT_MIN_GAMES)
