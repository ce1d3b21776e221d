"""The game-list filters, one definition shared by the web pages and the REST API.

A :class:`GameFilter` reads query parameters (``?player=...&ruleset=...``) and narrows a queryset
of games; django-filter validates each value, so a bad one is reported, not ignored.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from config.limits import DB_INT_MAX, DB_INT_MIN
from engine.families import preset_names
from engine.formats import formats
from engine.rules.majsoul import ROOM_NAMES as MAJSOUL_ROOMS
from engine.rules.tenhou import CUSTOM_LOBBY, ROOMS
from mjlogs.models import Game
from mjlogs.verdicts import Verdict


def _choices(names: Iterable[str]) -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(names)]


#: The player counts a game can have: 2 (small mahjong) to 6 (Ùzje mahjong), 4 first.
PLAYER_COUNTS = tuple(
    (count, format_lazy(pgettext_lazy("player count", "{count} players"), count=count))
    for count in (4, 3, 2, 5, 6)
)


class IntegerFilter(django_filters.NumberFilter):
    """A whole number, such as an id: ``NumberFilter`` reads a decimal, and would take ``0.5``
    (a filter on an id no row has) where a client should hear that it is not an id. Bounded by
    what the database holds unless told otherwise (``config.limits``): a larger number would
    fail the query (``bigint out of range``) instead of being refused as a bad value."""

    # (django-filter's stubs tie NumberFilter to DecimalField; any form field may be chosen.)
    field_class = forms.IntegerField  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", DB_INT_MIN)
        kwargs.setdefault("max_value", DB_INT_MAX)
        super().__init__(*args, **kwargs)


class GameFilter(django_filters.FilterSet):
    player = django_filters.CharFilter(
        method="filter_player",
        label=_("Player"),
        help_text=_("A player's name (any platform), case-insensitive, in part or whole."),
    )
    player_id = IntegerFilter(
        field_name="seats__player", label=_("Player id"), help_text=_("One player, by id.")
    )
    ruleset = django_filters.ChoiceFilter(choices=_choices(preset_names()), label=_("Rule set"))
    players = django_filters.ChoiceFilter(
        field_name="players_count",
        choices=PLAYER_COUNTS,
        label=pgettext_lazy("number of players", "Players"),
    )
    since = django_filters.DateFilter(
        field_name="started_at", lookup_expr="date__gte", label=_("Played on or after")
    )
    until = django_filters.DateFilter(
        field_name="started_at", lookup_expr="date__lte", label=_("Played on or before")
    )
    verdict = django_filters.ChoiceFilter(
        choices=Verdict.choices, method="filter_verdict", label=_("Verdict")
    )
    source = django_filters.ChoiceFilter(
        field_name="source_format", choices=_choices(formats()), label=_("Source format")
    )
    room = django_filters.ChoiceFilter(
        choices=[(room, room) for room in (*ROOMS, CUSTOM_LOBBY, *MAJSOUL_ROOMS)],
        label=_("Room"),
        help_text=_(
            "The room the record says: Tenhou's ippan, joukyuu, tokujou, houou or a custom "
            "lobby; Mahjong Soul's bronze, silver, gold, jade or throne."
        ),
    )

    class Meta:
        model = Game
        # Every filter is declared above; none is generated from the model.
        fields: tuple[str, ...] = ()

    def filter_player(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        value = value.strip()
        if not value:
            return queryset
        named = Q(seats__player__name__icontains=value) | Q(
            seats__player__names__name__icontains=value
        )
        return queryset.filter(pk__in=Game.objects.filter(named).values("pk"))

    def filter_verdict(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        if value == Verdict.PENDING:
            # No row yet means queued and not verified: pending too.
            return queryset.filter(
                Q(verification__isnull=True) | Q(verification__verdict=Verdict.PENDING)
            )
        return queryset.filter(verification__verdict=value)

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        # A player filter joins the seats (one row per seat): keep one row per game.
        filtered = super().filter_queryset(queryset)
        if self.form.cleaned_data.get("player_id") is not None:
            filtered = filtered.distinct()
        return filtered
