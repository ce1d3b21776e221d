"""Pages of the stats app: a player's statistics, two players compared, the leaderboard.

A view stays thin: validate the input, call the selectors, render. A bad filter value is shown
on the form (status 400), never silently dropped: a page that ignored it would look filtered.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext, ngettext, pgettext
from django.views.decorators.http import require_safe
from django_filters.fields import ChoiceField

from mjlogs import selectors as game_selectors
from mjlogs.models import Game, Player
from mjlogs.provenance import RANK_LADDERS, rank_index
from mjlogs.selectors import User
from mjlogs.terms import platform_name
from mjlogs.views.common import paginate
from stats import selectors
from stats.filters import StatsFilter
from stats.forms import CompareForm, LeaderboardForm, find_player
from stats.metrics import DENOMINATOR_LABELS, METRIC_GROUPS, METRICS_BY_NAME
from stats.percentiles import player_percentiles

#: The filters the player page's form offers (the API takes every StatsFilter parameter).
PAGE_FILTERS = ("players", "length", "ruleset", "room", "since", "until", "last", "opponent")

#: Recent games listed on the player page, and opponents offered for a comparison.
RECENT_GAMES = 20
OPPONENTS = 10


def _player(user: User, player_id: int) -> Player:
    try:
        return game_selectors.player_get(user, player_id)
    except Player.DoesNotExist:
        raise Http404("no such player") from None


def _filter_form(user: User, player: Player, params: Any) -> StatsFilter:
    """The stats filters bound to the query string, for the form: dates as date inputs, the
    opponent as a choice among the players met."""
    bound = StatsFilter(params, queryset=Game.objects.none())
    fields = bound.form.fields
    for name in ("since", "until"):
        fields[name].widget.input_type = "date"
    for name in ("players", "length", "ruleset"):
        choice = fields[name]
        assert isinstance(choice, ChoiceField)  # (the fields of ChoiceFilters)
        choice.empty_label = pgettext("any value", "Any")
        # Re-wrapped with "Any" first. (The getter gives the choices as set, an iterator of
        # pairs here; django-stubs types it as whatever the setter takes, callables too.)
        choice.choices = list(choice.choices)[1:]  # type: ignore[arg-type]
    choices = [("", gettext("Anyone"))] + [
        (
            str(o.player.pk),
            ngettext("%(name)s (%(count)s game)", "%(name)s (%(count)s games)", o.games)
            % {"name": o.player.name, "count": o.games},
        )
        for o in selectors.player_opponents(user, player)
    ]
    fields["opponent"].widget = forms.Select(choices=choices)
    fields["opponent"].help_text = gettext("Only games with this player at the table.")
    bound.is_valid()  # fills the form's errors
    return bound


def metric_groups(stats: selectors.PlayerStats) -> list[tuple[str, list[dict[str, Any]]]]:
    """The page's tables: each group with its metrics' labels, values, denominators and
    percentiles (when the player has them: ``stats.percentiles``)."""
    percentiles = player_percentiles(stats) or {}
    return [
        (
            group,
            [
                {
                    "name": name,
                    "label": METRICS_BY_NAME[name].label,
                    "value": stats.metrics[name],
                    "n": stats.counts[METRICS_BY_NAME[name].denominator],
                    "of": DENOMINATOR_LABELS[METRICS_BY_NAME[name].denominator],
                    "percentile": percentiles.get(name),
                }
                for name in names
            ],
        )
        for group, names in METRIC_GROUPS
    ]


def chart_data(series: selectors.PlayerSeries) -> dict[str, Any]:
    """What the charts draw (``json_script``): one entry a game, oldest first."""
    platform = series.player.platform
    total = 0
    cumulative = []
    final_total = 0.0
    final_points: list[float | None] = []
    for point in series.games:
        total += point.points or 0
        cumulative.append(total)
        if point.final_points is not None:
            final_total = round(final_total + point.final_points, 1)
        final_points.append(final_total if point.final_points is not None else None)
    return {
        "window": series.window,
        "games": [point.game_id for point in series.games],
        "dates": [point.date.date().isoformat() for point in series.games],
        "placement": [point.placement for point in series.games],
        "players": max((point.players_count for point in series.games), default=4),
        "rolling": {
            name: [point.rolling[name] for point in series.games]
            for name in selectors.SERIES_METRICS
        },
        "points": cumulative,
        "final_points": final_points,
        "rating": [point.rating for point in series.games],
        # The records' R beside ours on Tenhou only: Mahjong Soul's rank points are no R.
        "recorded_rating": [
            point.recorded_rating if platform == "tenhou" else None for point in series.games
        ],
        "recorded_rank": [rank_index(platform, point.recorded_rank) for point in series.games],
        "rank_labels": list(RANK_LADDERS.get(platform, ())),
        "rank_name": (
            gettext("Tenhou dan")
            if platform == "tenhou"
            else gettext("%(platform)s rank") % {"platform": platform_name(platform)}
        ),
    }


@require_safe
def player_stats(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's statistics over the games this visitor may see, filtered by the query
    string: the grouped metrics with each denominator, yaku, han, charts, recent games."""
    player = _player(request.user, player_id)
    filters = _filter_form(request.user, player, request.GET)
    context: dict[str, Any] = {
        "player": player,
        "filter": filters,
        "filter_fields": [filters.form[name] for name in PAGE_FILTERS],
    }
    try:
        stats = selectors.player_stats(request.user, player, request.GET)
        series = selectors.player_series(request.user, player, request.GET)
    except selectors.StatsFilterError:
        return render(request, "stats/player_stats.html", context, status=400)
    wins = stats.counts["wins"]
    context |= {
        "stats": stats,
        "groups": metric_groups(stats),
        "percentiles_shown": player_percentiles(stats) is not None,
        "min_games": selectors.DEFAULT_MIN_GAMES,
        "yaku": stats.yaku,
        "han": sorted(stats.han.items()),
        "wins": wins,
        "stable_dan": stats.stable_dan,
        "ratings": sorted(stats.ratings.items()),
        "dealer_streak": stats.longest_dealer_streak,
        "series": series,
        "charts": chart_data(series),
        "recent": list(reversed(series.games[-RECENT_GAMES:])),
        "opponents": selectors.player_opponents(request.user, player, limit=OPPONENTS),
        "query": request.GET.urlencode(),
    }
    return render(request, "stats/player_stats.html", context)


def _opponent_choices(user: User, first: int | Player | None) -> list[tuple[str, str, int]]:
    """What the second player's list offers once the first is known: the players the first
    has played with (what to type for each, how it is shown, their shared games)."""
    if first is None:
        return []
    opponents = selectors.player_opponents(user, _chosen(user, first))
    refs = game_selectors.player_refs(user, [o.player for o in opponents])
    return [(refs[o.player.pk], game_selectors.player_label(o.player), o.games) for o in opponents]


def _typed(user: User, text: str) -> int | Player | None:
    """The first player as typed, when it is one (else nothing is offered for the second)."""
    if not text:
        return None
    try:
        return find_player(user, text)
    except (forms.ValidationError, game_selectors.PlayerLookupError):
        return None


def _chosen(user: User, value: int | Player) -> Player:
    """A player the compare form gave: found by name already, or an id to look up (a 404
    when hidden or missing, as for every id)."""
    return value if isinstance(value, Player) else _player(user, value)


@require_safe
def compare(request: HttpRequest) -> HttpResponse:
    """Two players side by side (all their games, then their shared games) and their
    head-to-head record; ``?a=&b=``, each a name, ``name@platform`` or an id. The second
    player's list starts with the players the first has played with."""
    user = request.user
    a_text, b_text = request.GET.get("a", "").strip(), request.GET.get("b", "").strip()
    if not (a_text and b_text):
        form = CompareForm(user=user, initial={"a": a_text, "b": b_text})
        context: dict[str, Any] = {
            "form": form,
            "opponents": _opponent_choices(user, _typed(user, a_text)),
        }
        return render(request, "stats/compare.html", context)
    form = CompareForm(request.GET, user=user)
    if not form.is_valid():
        context = {
            "form": form,
            "opponents": _opponent_choices(user, form.cleaned_data.get("a")),
            "choices": form.choice_links(request.GET),
        }
        return render(request, "stats/compare.html", context, status=400)
    a = _chosen(user, form.cleaned_data["a"])
    b = _chosen(user, form.cleaned_data["b"])
    context = {"form": form, "opponents": _opponent_choices(user, a)}
    if a.pk == b.pk:  # an id and a name of the same player
        form.add_error("b", "Choose two different players.")
        return render(request, "stats/compare.html", context, status=400)
    record = selectors.head_to_head(request.user, a, b)
    a_all = selectors.player_stats(request.user, a)
    b_all = selectors.player_stats(request.user, b)
    rows = [
        (
            group,
            [
                {
                    "name": name,
                    "label": METRICS_BY_NAME[name].label,
                    "values": [
                        (stats.metrics[name], stats.counts[METRICS_BY_NAME[name].denominator])
                        for stats in (a_all, b_all, record.a_stats, record.b_stats)
                    ],
                    "of": DENOMINATOR_LABELS[METRICS_BY_NAME[name].denominator],
                }
                for name in names
            ],
        )
        for group, names in METRIC_GROUPS
    ]
    context |= {
        "a": a,
        "b": b,
        "a_label": game_selectors.player_label(a),
        "b_label": game_selectors.player_label(b),
        "record": record,
        "dans": [s.stable_dan for s in (a_all, b_all, record.a_stats, record.b_stats)],
        "groups": rows,
        "recent": record.games[:RECENT_GAMES],
    }
    return render(request, "stats/compare.html", context)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Players ranked by a metric over their public games; ``?metric=&min_games=``."""
    form = LeaderboardForm(request.GET)
    if not form.is_valid():
        return render(request, "stats/leaderboard.html", {"form": form}, status=400)
    metric = METRICS_BY_NAME[form.cleaned_data["metric"]]
    try:
        rows = selectors.leaderboard(
            metric.name,
            form.cleaned_data["min_games"],
            request.GET,
            bots=form.cleaned_data["bots"],
        )
    except selectors.StatsFilterError as error:
        for name, messages in error.errors.items():
            form.add_error(name if name in form.fields else None, messages)
        return render(request, "stats/leaderboard.html", {"form": form}, status=400)
    context = {
        "form": form,
        "metric": metric,
        "min_games": form.cleaned_data["min_games"],
        "per": DENOMINATOR_LABELS[metric.denominator],
        "page": paginate(request, rows),
        "bots": form.cleaned_data["bots"],
        "query": _without_page(request.GET),
    }
    return render(request, "stats/leaderboard.html", context)


def _without_page(params: QueryDict) -> str:
    """The query string without ``page``: the same ranking as JSON, from its first page."""
    kept = params.copy()
    kept.pop("page", None)
    return kept.urlencode()
