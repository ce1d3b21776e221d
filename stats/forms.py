"""Forms of the stats pages: they read the query string (the pages only read)."""

from __future__ import annotations

from typing import Any

from django import forms

from config.limits import DB_INT_MAX
from stats.filters import StatsFilter
from stats.metrics import METRIC_GROUPS, METRICS_BY_NAME
from stats.selectors import DEFAULT_MIN_GAMES, LEADERBOARD_FILTERS


class CompareForm(forms.Form):
    a = forms.IntegerField(
        min_value=1, max_value=DB_INT_MAX, label="Player", help_text="A player id."
    )
    b = forms.IntegerField(
        min_value=1, max_value=DB_INT_MAX, label="Against", help_text="Another player id."
    )

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if cleaned.get("a") is not None and cleaned.get("a") == cleaned.get("b"):
            self.add_error("b", "Choose two different players.")
        return cleaned


def _metric_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    return [
        (group, [(name, METRICS_BY_NAME[name].label) for name in names])
        for group, names in METRIC_GROUPS
    ]


class LeaderboardForm(forms.Form):
    metric = forms.ChoiceField(choices=_metric_choices, label="Ranked by", required=False)
    min_games = forms.IntegerField(
        min_value=0, max_value=DB_INT_MAX, label="At least this many games", required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The game filters a leaderboard takes, as the statistics filter defines them (the
        # selector validates them again with it).
        for name in LEADERBOARD_FILTERS:
            self.fields[name] = StatsFilter().form.fields[name]

    def clean_metric(self) -> str:
        return self.cleaned_data.get("metric") or "average_placement"

    def clean_min_games(self) -> int:
        value = self.cleaned_data.get("min_games")
        return DEFAULT_MIN_GAMES if value is None else int(value)
