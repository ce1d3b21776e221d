"""The filters of every statistics query: the game list's (rule set, players, date range, ...)
plus the game length, an opponent, and the player's last N games."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from engine.rules import PRESETS
from mjlogs.filters import GameFilter, IntegerFilter
from mjlogs.models import Game


def _presets_of_length(length: str) -> list[str]:
    return [name for name, rules in PRESETS.items() if rules.length == length]


class StatsFilter(GameFilter):
    length = django_filters.ChoiceFilter(
        choices=(("east", _("East only")), ("east_south", _("East and south"))),
        method="filter_length",
        label=_("Length"),
        help_text=_("By the rule set's preset length."),
    )
    opponent = IntegerFilter(
        method="filter_opponent",
        label=_("Opponent"),
        help_text=_("Only games with this player id."),
    )
    last = IntegerFilter(
        method="filter_last", min_value=1, label=_("Last games"), help_text=_("The last N games.")
    )

    class Meta(GameFilter.Meta):
        pass

    def filter_length(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        return queryset.filter(ruleset__in=_presets_of_length(value))

    def filter_opponent(self, queryset: QuerySet[Game], name: str, value: int) -> QuerySet[Game]:
        return queryset.filter(pk__in=Game.objects.filter(seats__player=value).values("pk"))

    def filter_last(self, queryset: QuerySet[Game], name: str, value: int) -> QuerySet[Game]:
        # Applied after the other filters by the selector (it needs the filtered set).
        return queryset

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        filtered = super().filter_queryset(queryset)
        last = self.form.cleaned_data.get("last")
        if last:
            newest = filtered.order_by("-started_at", "-uploaded_at", "-pk")
            filtered = Game.objects.filter(pk__in=list(newest.values_list("pk", flat=True)[:last]))
        return filtered
