"""Display helpers of the stats pages: a metric's value as people read it."""

from __future__ import annotations

from typing import Any

from django import template

from stats.metrics import METRICS_BY_NAME

register = template.Library()

#: Decimals of the averages that are not points (points are whole numbers).
_DECIMALS = {
    "average_placement": 2,
    "average_win_turn": 1,
    "average_riichi_turn": 1,
    # Final points have one decimal (Tenhou's 63.8): thousands of the score, with uma and oka.
    "average_points": 1,
    "total_points": 1,
}
MINUS = "\N{MINUS SIGN}"


def metric_display(value: float | None, name: str) -> str:
    """A metric's value for a page: a rate as a percentage with one decimal (``37.5%``), an
    average placement with two (``2.45``), a turn with one, points whole (``7,333``); a dash
    without a value."""
    if value is None:
        return "—"
    metric = METRICS_BY_NAME[name]
    if metric.percent:
        text = f"{value * 100:.1f}%"
    elif name in _DECIMALS:
        text = f"{value:.{_DECIMALS[name]}f}"
    else:
        text = f"{value:,.0f}"
    return text.replace("-", MINUS)


@register.filter
def metric_value(value: Any, name: str) -> str:
    """``{{ value|metric_value:"win_rate" }}``: see :func:`metric_display`."""
    return metric_display(None if value is None or value == "" else float(value), name)


@register.filter
def share(part: Any, whole: Any) -> str:
    """``part`` of ``whole`` as a percentage with one decimal; a dash for an empty whole."""
    if not whole:
        return "—"
    return f"{100 * int(part) / int(whole):.1f}%"


@register.filter
def dan(value: Any) -> str:
    """A stable dan with two decimals; a dash when there is none."""
    if value is None or value == "":
        return "—"
    return f"{float(value):.2f}".replace("-", MINUS)
