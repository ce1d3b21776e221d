"""The statistics: what is counted over a player's hands and games, and each metric as a ratio
of those counts, with the denominators of the best stats sites (amae-koromo, Tenhou tools; see
docs/stats.md): rates per hand use hands, win values per win, riichi outcomes per riichi,
placements per game.

Counting happens in the database (one aggregate query over the fact rows, one over the seats),
so a figure for any filtered set of games is exactly the figure of those games' rows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce, Round

# `_` only marks a label for the translation catalogue (makemessages); the pages translate it
# where they show it (gettext), while the API keeps the English words.
from django.utils.translation import gettext_noop as _

from engine.families import Unit, families
from mjlogs.models import GameSeat
from stats.models import RoundFact


@functools.cache
def not_riichi_han_rulesets() -> frozenset[str]:
    """Rule sets whose wins' ``han`` is not riichi han: small mahjong (``han`` is the win's
    points) and Ùzje mahjong (fan in tenths). Statistics that read ``han`` as han leave their
    wins out. Listed when first asked: it imports every game family, which a process that
    reads no statistics (an import's) need not."""
    return frozenset(
        name
        for family in families()
        for name in family.preset_names()
        if family.value_unit(name) != Unit.HAN
    )


def _count(**conditions: Any) -> Count:
    return Count("id", filter=Q(**conditions)) if conditions else Count("id")


def _sum(field: str, **conditions: Any) -> Coalesce:
    return Coalesce(Sum(field, filter=Q(**conditions) if conditions else None), 0)


OPENED = {"calls__gt": 0}

#: Counts over the fact rows (one row: one player in one hand).
HAND_COUNTS: dict[str, Any] = {
    "hands": _count(),
    "dealer_hands": _count(dealer=True),
    "wins": _count(won=True),
    "tsumo_wins": _count(won=True, tsumo=True),
    "dama_wins": _count(won=True, riichi=False, open_hand=False),
    "deal_ins": _count(dealt_in=True),
    "called_hands": _count(**OPENED),
    "riichi_hands": _count(riichi=True),
    "win_points": _sum("win_points", won=True),
    "deal_in_points": _sum("deal_in_points", dealt_in=True),
    "win_turns": _sum("win_turn", won=True),
    "exhaustive_draws": _count(outcome="exhaustive_draw"),
    "tenpai_at_draws": _count(outcome="exhaustive_draw", tenpai_at_draw=True),
    "riichi_wins": _count(riichi=True, won=True),
    "riichi_deal_ins": _count(riichi=True, dealt_in=True),
    "riichi_draws": _count(riichi=True, outcome="exhaustive_draw"),
    "riichi_turns": _sum("riichi_turn", riichi=True),
    "first_riichi": _count(riichi=True, riichi_chasing=False),
    "chasing_riichi": _count(riichi=True, riichi_chasing=True),
    "good_wait_riichi": _count(riichi=True, riichi_wait_kinds__gte=2),
    "ippatsu_wins": _count(riichi=True, won=True, ippatsu=True),
    "ura_wins": _count(riichi=True, won=True, ura__gt=0),
    "called_wins": _count(won=True, **OPENED),
    "called_deal_ins": _count(dealt_in=True, **OPENED),
    "called_draws": _count(outcome="exhaustive_draw", **OPENED),
    "deal_ins_to_riichi": _count(dealt_in=True, dealt_in_to="riichi"),
    "deal_ins_to_open": _count(dealt_in=True, dealt_in_to="open"),
    "deal_ins_to_dama": _count(dealt_in=True, dealt_in_to="dama"),
    "yakuman_wins": _count(won=True, limit_hand=True),
    "points": _sum("delta"),
    # The study aids (docs/stats.md "Tile acceptance"): rows not yet counted (null) add nothing.
    "decisions": _sum("decisions"),
    "best_discards": _sum("best_discards"),
    # Their defence (docs/stats.md "Value and defence"), counted with them.
    "decisions_facing_riichi": _sum("riichi_decisions"),
    "genbutsu_discards": _sum("genbutsu_discards"),
    "riichi_faced_hands": _count(riichi_decisions__gt=0),
    "push_deal_ins": _sum("push_deal_ins"),
}

#: Counts over the player's seats in complete games (placements known).
GAME_COUNTS: dict[str, Any] = {
    "games": _count(),
    "first": _count(placement=1),
    "second": _count(placement=2),
    "third": _count(placement=3),
    "fourth": _count(placement=4),
    "placement_total": _sum("placement"),
    "final_score_total": _sum("final_score"),
    "busts": _count(final_score__lt=0),
    # Final points by the rule set (uma, oka), kept for games verified whole; in tenths, so
    # that every count stays a whole number (points have one decimal).
    "points_games": _count(points__isnull=False),
    "points_tenths": Coalesce(Sum(Round(F("points") * 10), filter=Q(points__isnull=False)), 0.0),
}


@dataclass(frozen=True)
class Metric:
    """One statistic: ``numerator / denominator`` of the counts; ``percent`` for a rate shown
    as a percentage, else an average. ``lower_is_better`` for a metric where a smaller value
    is the better result (average placement, deal-in rate): leaderboards rank it ascending.
    A ``total`` is the numerator itself, with a value only when the denominator is not 0."""

    name: str
    label: str
    numerator: str | Callable[[dict[str, int]], float]
    denominator: str
    percent: bool = True
    lower_is_better: bool = False
    total: bool = False

    def value(self, counts: dict[str, int]) -> float | None:
        denominator = counts[self.denominator]
        if not denominator:
            return None
        top = self.numerator(counts) if callable(self.numerator) else counts[self.numerator]
        return top if self.total else top / denominator


def _top_two(counts: dict[str, int]) -> int:
    return counts["first"] + counts["second"]


def _points(counts: dict[str, int]) -> float:
    return counts["points_tenths"] / 10


METRICS: tuple[Metric, ...] = (
    Metric(
        "average_placement",
        _("Average placement"),
        "placement_total",
        "games",
        False,
        lower_is_better=True,
    ),
    Metric("first_rate", _("1st place"), "first", "games"),
    Metric("second_rate", _("2nd place"), "second", "games"),
    Metric("third_rate", _("3rd place"), "third", "games"),
    Metric("fourth_rate", _("4th place"), "fourth", "games", lower_is_better=True),
    Metric("top_two_rate", _("Top two"), _top_two, "games"),
    Metric("bust_rate", _("Bust"), "busts", "games", lower_is_better=True),
    Metric("average_final_score", _("Average final score"), "final_score_total", "games", False),
    Metric("average_points", _("Average points"), _points, "points_games", False),
    Metric("total_points", _("Total points"), _points, "points_games", False, total=True),
    Metric("win_rate", _("Win"), "wins", "hands"),
    Metric("deal_in_rate", _("Deal-in"), "deal_ins", "hands", lower_is_better=True),
    Metric("riichi_rate", _("Riichi"), "riichi_hands", "hands"),
    Metric("call_rate", _("Call"), "called_hands", "hands"),
    Metric("exhaustive_draw_rate", _("Exhaustive draw"), "exhaustive_draws", "hands"),
    Metric("tsumo_rate", _("Tsumo (of wins)"), "tsumo_wins", "wins"),
    Metric("dama_rate", _("Dama (of wins)"), "dama_wins", "wins"),
    Metric("average_win", _("Average win"), "win_points", "wins", False),
    Metric(
        "average_deal_in",
        _("Average deal-in"),
        "deal_in_points",
        "deal_ins",
        False,
        lower_is_better=True,
    ),
    Metric(
        "average_win_turn",
        _("Average winning turn"),
        "win_turns",
        "wins",
        False,
        lower_is_better=True,
    ),
    Metric("tenpai_at_draw_rate", _("Tenpai at draw"), "tenpai_at_draws", "exhaustive_draws"),
    Metric("ippatsu_rate", _("Ippatsu (of riichi wins)"), "ippatsu_wins", "riichi_wins"),
    Metric("ura_rate", _("Ura dora (of riichi wins)"), "ura_wins", "riichi_wins"),
    Metric("riichi_win_rate", _("Win after riichi"), "riichi_wins", "riichi_hands"),
    Metric(
        "riichi_deal_in_rate",
        _("Deal-in after riichi"),
        "riichi_deal_ins",
        "riichi_hands",
        lower_is_better=True,
    ),
    Metric("riichi_draw_rate", _("Draw after riichi"), "riichi_draws", "riichi_hands"),
    Metric("first_riichi_rate", _("First riichi"), "first_riichi", "riichi_hands"),
    Metric("chasing_riichi_rate", _("Chasing riichi"), "chasing_riichi", "riichi_hands"),
    Metric("good_wait_riichi_rate", _("Multi-sided riichi"), "good_wait_riichi", "riichi_hands"),
    Metric(
        "average_riichi_turn",
        _("Average riichi turn"),
        "riichi_turns",
        "riichi_hands",
        False,
        lower_is_better=True,
    ),
    Metric("called_win_rate", _("Win after calling"), "called_wins", "called_hands"),
    Metric(
        "called_deal_in_rate",
        _("Deal-in after calling"),
        "called_deal_ins",
        "called_hands",
        lower_is_better=True,
    ),
    Metric("called_draw_rate", _("Draw after calling"), "called_draws", "called_hands"),
    Metric("deal_in_to_riichi", _("Deal-ins to riichi"), "deal_ins_to_riichi", "deal_ins"),
    Metric("deal_in_to_open", _("Deal-ins to open hands"), "deal_ins_to_open", "deal_ins"),
    Metric("deal_in_to_dama", _("Deal-ins to dama"), "deal_ins_to_dama", "deal_ins"),
    Metric("points_per_hand", _("Points per hand"), "points", "hands", False),
    Metric("best_acceptance_rate", _("Kept the most acceptance"), "best_discards", "decisions"),
    Metric(
        "genbutsu_rate",
        _("Genbutsu against riichi"),
        "genbutsu_discards",
        "decisions_facing_riichi",
    ),
    Metric(
        "push_deal_in_rate",
        _("Deal-in pushing at 2+ shanten"),
        "push_deal_ins",
        "riichi_faced_hands",
        lower_is_better=True,
    ),
)


#: Every metric by name.
METRICS_BY_NAME: dict[str, Metric] = {metric.name: metric for metric in METRICS}

#: The denominators in words, for "n = 120 hands".
DENOMINATOR_LABELS: dict[str, str] = {
    "games": _("games"),
    "points_games": _("games with points"),
    "hands": _("hands"),
    "wins": _("wins"),
    "deal_ins": _("deal-ins"),
    "exhaustive_draws": _("exhaustive draws"),
    "riichi_hands": _("riichi hands"),
    "riichi_wins": _("riichi wins"),
    "called_hands": _("hands with calls"),
    "decisions": _("discard decisions"),
    "decisions_facing_riichi": _("discard decisions facing a riichi"),
    "riichi_faced_hands": _("hands facing a riichi"),
}

#: The metrics as the stats pages group them (every metric in exactly one group).
METRIC_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (_("Placements"), (
        "average_placement", "first_rate", "second_rate", "third_rate", "fourth_rate",
        "top_two_rate", "bust_rate", "average_final_score", "average_points", "total_points",
    )),
    (_("Hands"), ("points_per_hand", "exhaustive_draw_rate", "tenpai_at_draw_rate")),
    (_("Wins"), ("win_rate", "tsumo_rate", "dama_rate", "average_win", "average_win_turn")),
    (_("Riichi"), (
        "riichi_rate", "riichi_win_rate", "riichi_deal_in_rate", "riichi_draw_rate",
        "first_riichi_rate", "chasing_riichi_rate", "good_wait_riichi_rate",
        "average_riichi_turn", "ippatsu_rate", "ura_rate",
    )),
    (_("Calls"), ("call_rate", "called_win_rate", "called_deal_in_rate", "called_draw_rate")),
    (_("Deal-ins"), (
        "deal_in_rate", "average_deal_in", "deal_in_to_riichi", "deal_in_to_open",
        "deal_in_to_dama", "push_deal_in_rate",
    )),
    (_("Discards"), ("best_acceptance_rate", "genbutsu_rate")),
)  # fmt: skip

#: Each metric's group name.
METRIC_GROUP_OF: dict[str, str] = {name: group for group, names in METRIC_GROUPS for name in names}


def counts_of(facts: QuerySet[RoundFact], seats: QuerySet[GameSeat]) -> dict[str, int]:
    """Every count, over these fact rows and these seats (two queries)."""
    counts = {name: int(value or 0) for name, value in facts.aggregate(**HAND_COUNTS).items()}
    return counts | counts_of_seats(seats)


def counts_of_seats(seats: QuerySet[GameSeat]) -> dict[str, int]:
    """The game counts (:data:`GAME_COUNTS`) over these seats, complete games only."""
    counts = seats.filter(placement__isnull=False).aggregate(**GAME_COUNTS)
    return {name: int(value or 0) for name, value in counts.items()}


def metrics_of(counts: dict[str, int]) -> dict[str, float | None]:
    """Every metric's value (``None`` when its denominator is 0)."""
    return {metric.name: metric.value(counts) for metric in METRICS}


def stable_dan(counts: dict[str, int]) -> float | None:
    """Tenhou's stable dan (安定段位) in the phoenix room, 4-player east-south:
    ``(6 p1 + 3 p2) / p4 - 2`` with ``p_i`` the rate of i-th places (the dan at which the
    expected points of a game are zero, +90/+45/0 and the 4th place penalty of that dan).
    ``None`` without a 4th place (the expectation is never negative)."""
    if not counts["fourth"]:
        return None
    return (6 * counts["first"] + 3 * counts["second"]) / counts["fourth"] - 2
