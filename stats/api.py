"""REST endpoints of the stats app (see docs/stats.md and docs/api.md): a player's statistics,
their game-by-game series and their fact rows as CSV, two players head to head, and the
leaderboard. Thin: each validates its input, calls one selector, and serializes.

A player is found as the player pages find one (``mjlogs.selectors.player_get``): one seen only
in games hidden from you is "not found" (404). Every figure counts only the games you may see.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import Any

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.limits import DB_INT_MAX
from mjlogs import selectors as game_selectors
from mjlogs.api.serializers import PlayerRefSerializer, QueryParameters
from mjlogs.downloads import attachment_header
from mjlogs.models import Player
from mjlogs.pagination import CappedPageNumberPagination
from stats import selectors
from stats.filters import StatsFilter
from stats.forms import PLAYER_TEXT_MAX, find_player
from stats.metrics import DENOMINATOR_LABELS, METRIC_GROUP_OF, METRICS, METRICS_BY_NAME, Metric
from stats.percentiles import player_percentiles

# --- Presenting ----------------------------------------------------------------------------


class MetricSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    # A declared field, which DRF's metaclass takes off the class; the stubs see it replace
    # the serializer's own label (Field.label), as for every field named "label".
    label = serializers.CharField()  # type: ignore[assignment]
    group = serializers.CharField(help_text="Placements, Hands, Wins, Riichi, Calls or Deal-ins.")
    value = serializers.FloatField(
        allow_null=True,
        help_text="A rate as a fraction (0.25 is 25 %) or an average; null when n is 0.",
    )
    percent = serializers.BooleanField(help_text="A rate (shown as a percentage), else an average.")
    lower_is_better = serializers.BooleanField()
    denominator = serializers.CharField(help_text="The count the value is divided by.")
    denominator_label = serializers.CharField(help_text="The denominator in words.")
    n = serializers.IntegerField(help_text="The denominator's value.")


class YakuCountSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    wins = serializers.IntegerField(help_text="Wins with this yaku.")


class HanCountSerializer(serializers.Serializer[dict[str, Any]]):
    han = serializers.IntegerField()
    wins = serializers.IntegerField()


class RatingSerializer(serializers.Serializer[dict[str, Any]]):
    players_count = serializers.IntegerField()
    rating = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated games in this mode.")


class PlayerStatsSerializer(serializers.Serializer[dict[str, Any]]):
    player = PlayerRefSerializer()
    filters = serializers.DictField(help_text="The filters applied, as understood.")
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="Every count the metrics divide."
    )
    metrics = MetricSerializer(many=True)
    yaku = YakuCountSerializer(many=True, help_text="Most frequent first.")
    han = HanCountSerializer(many=True, help_text="Wins by han, fewest han first.")
    longest_dealer_streak = serializers.IntegerField()
    stable_dan = serializers.FloatField(
        allow_null=True,
        help_text="Tenhou's stable dan over the 4-player games; null without a 4th.",
    )
    ratings = RatingSerializer(
        many=True, help_text="Current Tenhou R per mode, over all public games (no filters)."
    )
    percentiles = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        allow_null=True,
        help_text="Each metric's percentile (0-100, higher is better) among the ranked players "
        "with the leaderboard's default minimum of games (docs/stats.md, Percentiles); null "
        "when filtered or when the player has fewer games.",
    )


class PlayerStatsDetailSerializer(PlayerStatsSerializer):
    links = serializers.DictField(child=serializers.URLField())


def metric_rows(metrics: dict[str, float | None], counts: dict[str, int]) -> list[dict[str, Any]]:
    """Every metric with its label, group, value and denominator, in their defined order."""
    return [
        metric_info(metric) | {"value": metrics[metric.name], "n": counts[metric.denominator]}
        for metric in METRICS
    ]


def metric_info(metric: Metric) -> dict[str, Any]:
    return {
        "name": metric.name,
        "label": metric.label,
        "group": METRIC_GROUP_OF[metric.name],
        "percent": metric.percent,
        "lower_is_better": metric.lower_is_better,
        "denominator": metric.denominator,
        "denominator_label": DENOMINATOR_LABELS[metric.denominator],
    }


def stats_data(stats: selectors.PlayerStats) -> dict[str, Any]:
    return {
        "player": stats.player,
        "filters": stats.filters,
        "counts": stats.counts,
        "metrics": metric_rows(stats.metrics, stats.counts),
        "yaku": [{"name": name, "wins": wins} for name, wins in stats.yaku],
        "han": [{"han": han, "wins": wins} for han, wins in stats.han.items()],
        "longest_dealer_streak": stats.longest_dealer_streak,
        "stable_dan": stats.stable_dan,
        "ratings": [
            {"players_count": mode, "rating": change.rating_after, "games": change.games_before + 1}
            for mode, change in sorted(stats.ratings.items())
        ],
        "percentiles": player_percentiles(stats),
    }


class GamePointSerializer(serializers.Serializer[dict[str, Any]]):
    game_id = serializers.IntegerField()
    date = serializers.DateTimeField(help_text="When played (uploaded, for an undated record).")
    ruleset = serializers.CharField()
    players_count = serializers.IntegerField()
    placement = serializers.IntegerField(allow_null=True)
    final_score = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(
        allow_null=True, help_text="Score change over the game: the sum of the hands' deltas."
    )
    hands = serializers.IntegerField()
    wins = serializers.IntegerField()
    deal_ins = serializers.IntegerField()
    riichi_hands = serializers.IntegerField()
    called_hands = serializers.IntegerField()
    rolling = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="win_rate, deal_in_rate, riichi_rate, call_rate and average_placement over "
        "this game and the window - 1 before it.",
    )
    rating = serializers.FloatField(
        allow_null=True, help_text="Tenhou R after the game in its mode; null if not rated."
    )
    final_points = serializers.FloatField(
        allow_null=True,
        help_text="Final points by the rule set (uma and oka), for a game verified whole.",
    )
    recorded_rank = serializers.CharField(
        help_text="The rank the record gives the player (Tenhou dan); empty if none."
    )
    recorded_rating = serializers.FloatField(
        allow_null=True, help_text="The rating the record gives the player (Tenhou R)."
    )


class PlayerSeriesSerializer(serializers.Serializer[dict[str, Any]]):
    player = PlayerRefSerializer()
    filters = serializers.DictField()
    window = serializers.IntegerField()
    games = GamePointSerializer(many=True, help_text="Oldest first.")


class SharedGameSerializer(serializers.Serializer[dict[str, Any]]):
    game_id = serializers.IntegerField()
    date = serializers.DateTimeField()
    ruleset = serializers.CharField()
    a_placement = serializers.IntegerField(allow_null=True)
    b_placement = serializers.IntegerField(allow_null=True)
    a_final_score = serializers.IntegerField(allow_null=True)
    b_final_score = serializers.IntegerField(allow_null=True)


#: Shared games listed in a head-to-head answer (newest first; the counts cover them all).
HEAD_TO_HEAD_GAMES = 50


class HeadToHeadSerializer(serializers.Serializer[dict[str, Any]]):
    a = PlayerRefSerializer()
    b = PlayerRefSerializer()
    filters = serializers.DictField()
    shared_games = serializers.IntegerField(help_text="Games you may see with both at the table.")
    compared = serializers.IntegerField(help_text="Shared games with both placements known.")
    a_above = serializers.IntegerField(help_text="Shared games where a placed above b.")
    b_above = serializers.IntegerField(help_text="Shared games where b placed above a.")
    a_stats = PlayerStatsSerializer(help_text="a's statistics in the shared games.")
    b_stats = PlayerStatsSerializer(help_text="b's statistics in the shared games.")
    recent_games = SharedGameSerializer(
        many=True, help_text=f"The newest {HEAD_TO_HEAD_GAMES} shared games."
    )


class LeaderboardRowSerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField()
    player = PlayerRefSerializer()
    value = serializers.FloatField()
    games = serializers.IntegerField()
    hands = serializers.IntegerField()


class MetricInfoSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # (as in MetricSerializer)
    group = serializers.CharField()
    percent = serializers.BooleanField()
    lower_is_better = serializers.BooleanField()
    denominator = serializers.CharField()
    denominator_label = serializers.CharField()


# --- Query parameters ----------------------------------------------------------------------


def _filter_parameter(name: str, spec: django_filters.Filter) -> OpenApiParameter:
    kind: Any = str
    enum = None
    if isinstance(spec, django_filters.NumberFilter):
        # A raw schema, so that the bounds the filter enforces are in it too.
        kind = {"type": "integer"}
        for bound, keyword in (("min_value", "minimum"), ("max_value", "maximum")):
            if spec.extra.get(bound) is not None:
                kind[keyword] = spec.extra[bound]
    elif isinstance(spec, django_filters.DateFilter):
        kind = OpenApiTypes.DATE
    elif isinstance(spec, django_filters.ChoiceFilter):
        enum = [str(value) for value, _ in spec.extra["choices"]]
    description = str(spec.label or name)
    if spec.extra.get("help_text"):
        description += f": {spec.extra['help_text']}"
    return OpenApiParameter(name, kind, enum=enum, description=description)


def filter_parameters(*leave_out: str) -> list[OpenApiParameter]:
    """The stats filters (:class:`~stats.filters.StatsFilter`) as query parameters."""
    return [
        _filter_parameter(name, spec)
        for name, spec in StatsFilter.base_filters.items()
        if name not in leave_out
    ]


class SeriesQuerySerializer(QueryParameters):
    window = serializers.IntegerField(
        min_value=1,
        max_value=1000,
        default=selectors.DEFAULT_WINDOW,
        help_text="Games each rolling figure covers.",
    )


_PLAYER_HELP = (
    "A player: an id, a name, or name@platform (Ann@tenhou) when the name is on two "
    "platforms. A name is matched exactly, then in any case; anonymous seats only by id."
)


class HeadToHeadQuerySerializer(QueryParameters):
    """``a`` and ``b``, each an id or a name; cleaned, each is a :class:`Player` found by name
    or an id for the view to look up (a 404 when hidden, as for every id)."""

    a = serializers.CharField(max_length=PLAYER_TEXT_MAX, help_text=_PLAYER_HELP)
    b = serializers.CharField(max_length=PLAYER_TEXT_MAX, help_text=f"Another. {_PLAYER_HELP}")

    def _player(self, text: str) -> int | Player:
        try:
            return find_player(self.context["request"].user, text)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages) from None
        except game_selectors.PlayerLookupError as error:
            raise serializers.ValidationError(error.message) from None

    def validate_a(self, text: str) -> int | Player:
        return self._player(text)

    def validate_b(self, text: str) -> int | Player:
        return self._player(text)


class LeaderboardQuerySerializer(QueryParameters):
    metric = serializers.ChoiceField(
        choices=[(metric.name, metric.label) for metric in METRICS],
        default="average_placement",
        help_text="The metric to rank by (ascending where lower is better).",
    )
    min_games = serializers.IntegerField(
        min_value=0,
        max_value=DB_INT_MAX,
        default=selectors.DEFAULT_MIN_GAMES,
        help_text="Only players with at least this many complete public games.",
    )
    bots = serializers.BooleanField(
        default=False,
        help_text="Rank bots (self-play seats) too; anonymous seats are never ranked.",
    )
    players = serializers.ChoiceField(choices=("3", "4"), required=False)
    length = serializers.ChoiceField(choices=("east", "east_south"), required=False)
    ruleset = serializers.ChoiceField(
        choices=StatsFilter.base_filters["ruleset"].extra["choices"],
        required=False,
        help_text="A rule set preset.",
    )
    room = serializers.ChoiceField(
        choices=StatsFilter.base_filters["room"].extra["choices"],
        required=False,
        help_text="The room the record says (Tenhou's ippan ... houou, custom; Mahjong Soul's "
        "bronze ... throne).",
    )
    since = serializers.DateField(required=False, help_text="Games played on or after.")
    until = serializers.DateField(required=False, help_text="Games played on or before.")


def _player(request: Request, player_id: int) -> Player:
    try:
        return game_selectors.player_get(request.user, player_id)
    except Player.DoesNotExist:
        raise Http404("no such player") from None


def _chosen(request: Request, value: int | Player) -> Player:
    return value if isinstance(value, Player) else _player(request, value)


_NOT_FOUND = OpenApiResponse(
    description="No such player, or one seen only in games hidden from you."
)
_BAD_FILTER = OpenApiResponse(description="A bad filter value; the body names it.")


# --- Endpoints -----------------------------------------------------------------------------


class PlayerStatsView(APIView):
    """A player's statistics over the games you may see, narrowed by the filters."""

    @extend_schema(
        parameters=filter_parameters(),
        responses={200: PlayerStatsDetailSerializer, 400: _BAD_FILTER, 404: _NOT_FOUND},
    )
    def get(self, request: Request, player_id: int) -> Response:
        """Counts, every metric with its label and denominator (n), yaku and han frequencies,
        the longest dealer streak and the stable dan; the filters echoed as understood."""
        player = _player(request, player_id)
        stats = selectors.player_stats(request.user, player, request.query_params)
        query = request.META.get("QUERY_STRING", "")
        suffix = f"?{query}" if query else ""

        def absolute(name: str) -> str:
            return request.build_absolute_uri(reverse(name, args=(player.pk,)) + suffix)

        links = {
            "series": absolute("api:player-stats-series"),
            "facts_csv": absolute("api:player-stats-facts"),
            "page": absolute("stats:player_stats"),
        }
        data = stats_data(stats) | {"links": links}
        return Response(PlayerStatsDetailSerializer(data, context={"request": request}).data)


class PlayerSeriesView(APIView):
    """A player's games one by one, in the order played, with rolling figures."""

    @extend_schema(
        parameters=[*filter_parameters(), SeriesQuerySerializer],
        responses={200: PlayerSeriesSerializer, 400: _BAD_FILTER, 404: _NOT_FOUND},
    )
    def get(self, request: Request, player_id: int) -> Response:
        """Each game's date, placement, final score and points, and the win, deal-in, riichi
        and call rates and the average placement over the last ``window`` games."""
        query = SeriesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        player = _player(request, player_id)
        window = query.validated_data["window"]
        series = selectors.player_series(request.user, player, request.query_params, window)
        data = {
            "player": series.player,
            "filters": series.filters,
            "window": series.window,
            "games": [vars(point) for point in series.games],
        }
        return Response(PlayerSeriesSerializer(data).data)


class CSVRenderer(BaseRenderer):
    """CSV for a client that asks for it (``Accept: text/csv``); an error's body as text."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> Any:
        if isinstance(data, dict):
            return "".join(f"{name}: {value}\n" for name, value in data.items())
        return "" if data is None else str(data)


class _Line:
    """A file-like object that hands back what is written (for ``csv.writer``)."""

    def write(self, value: str) -> str:
        return value


def csv_lines(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> Iterator[str]:
    writer = csv.writer(_Line())
    yield writer.writerow(header)
    for row in rows:
        yield writer.writerow(row)


class PlayerFactsCSVView(APIView):
    """A player's fact rows (one a hand) as CSV, for spreadsheets and notebooks."""

    renderer_classes = (JSONRenderer, CSVRenderer)

    @extend_schema(
        # The answer is CSV whatever ``?format=`` says: not a parameter of this endpoint.
        parameters=[*filter_parameters(), OpenApiParameter("format", exclude=True)],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            400: _BAD_FILTER,
            404: _NOT_FOUND,
        },
    )
    def get(self, request: Request, player_id: int) -> StreamingHttpResponse:
        """One row a hand of the chosen games, game by game in the order played: the game's
        id, date and rule set, then the hand's facts (see docs/stats.md), as a download."""
        player = _player(request, player_id)
        rows = selectors.player_fact_rows(request.user, player, request.query_params)
        response = StreamingHttpResponse(
            csv_lines(selectors.FACT_COLUMNS, rows), content_type="text/csv; charset=utf-8"
        )
        name = f"player-{player.pk}-facts.csv"
        response["Content-Disposition"] = attachment_header(name, fallback=name)
        return response


class HeadToHeadView(APIView):
    """Two players' shared games: who placed above whom, and each one's stats in them."""

    @extend_schema(
        parameters=[HeadToHeadQuerySerializer, *filter_parameters("opponent")],
        responses={
            200: HeadToHeadSerializer,
            400: OpenApiResponse(
                description="A bad filter value, the same player twice, or a name that is no "
                "player you may see (the close matches listed) or several (each listed with "
                "its platform and id); the body names the parameter."
            ),
            404: _NOT_FOUND,
        },
    )
    def get(self, request: Request) -> Response:
        """``a`` and ``b`` are two different players, each an id, a name or
        ``name@platform``; a name that is no player you may see, or several, is a 400 listing
        the close matches or the players (each with its id). The stats filters narrow the
        shared games (``opponent`` is the other player, always)."""
        query = HeadToHeadQuerySerializer(data=request.query_params, context={"request": request})
        query.is_valid(raise_exception=True)
        a = _chosen(request, query.validated_data["a"])
        b = _chosen(request, query.validated_data["b"])
        record = selectors.head_to_head(request.user, a, b, request.query_params)
        data = {
            "a": a,
            "b": b,
            "filters": record.filters,
            "shared_games": len(record.games),
            "compared": record.compared,
            "a_above": record.a_above,
            "b_above": record.b_above,
            "a_stats": stats_data(record.a_stats),
            "b_stats": stats_data(record.b_stats),
            "recent_games": [vars(game) for game in record.games[:HEAD_TO_HEAD_GAMES]],
        }
        return Response(HeadToHeadSerializer(data).data)


class LeaderboardPagination(CappedPageNumberPagination):
    """Pages of 50 with the metric and the minimum of games beside the rows."""

    #: What the answer says beside the rows (set by the view for each request).
    extra: dict[str, Any] = {}  # noqa: RUF012

    def get_paginated_response(self, data: Any) -> Response:
        response = super().get_paginated_response(data)
        response.data = self.extra | response.data
        return response

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        metric = {
            "type": "object",
            "description": "The metric ranked by.",
            "properties": {
                "name": {"type": "string"},
                "label": {"type": "string"},
                "group": {"type": "string"},
                "percent": {"type": "boolean"},
                "lower_is_better": {"type": "boolean"},
                "denominator": {"type": "string"},
                "denominator_label": {"type": "string"},
            },
        }
        paginated["properties"] = {
            "metric": metric,
            "min_games": {"type": "integer"},
            "bots": {"type": "boolean"},
            **paginated["properties"],
        }
        paginated["required"] = ["metric", "min_games", "bots", *paginated.get("required", [])]
        return paginated


class LeaderboardView(GenericAPIView[Any]):  # (no queryset: rows of summaries or facts)
    """Players ranked by a metric over their public games (the stored summaries), best first."""

    pagination_class = LeaderboardPagination
    serializer_class = LeaderboardRowSerializer
    filter_backends = ()

    @extend_schema(
        parameters=[LeaderboardQuerySerializer],
        responses={200: LeaderboardRowSerializer(many=True), 400: _BAD_FILTER},
    )
    def get(self, request: Request) -> Response:
        """Only players with at least ``min_games`` complete public games and a value of the
        metric; ascending for a metric where lower is better (average placement, deal-in
        rate), else descending; ties by more games, then name. ``rank`` counts from 1."""
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        metric, min_games = query.validated_data["metric"], query.validated_data["min_games"]
        rows = selectors.leaderboard(
            metric, min_games, request.query_params, bots=query.validated_data["bots"]
        )
        paginator = self.paginator
        assert isinstance(paginator, LeaderboardPagination)
        page: list[selectors.RankedSummary | selectors.LeaderRow] = (
            paginator.paginate_queryset(rows, request, view=self) or []
        )
        first = paginator.page.start_index() if page and paginator.page is not None else 1
        data = [
            {
                "rank": first + index,
                "player": summary.player,
                "value": summary.value,
                "games": summary.games,
                "hands": summary.hands,
            }
            for index, summary in enumerate(page)
        ]
        paginator.extra = {
            "metric": MetricInfoSerializer(metric_info(METRICS_BY_NAME[metric])).data,
            "min_games": min_games,
            "bots": query.validated_data["bots"],
        }
        # (DRF's stubs type a Serializer's instance as one item, even with many=True.)
        rows_out = LeaderboardRowSerializer(data, many=True)  # type: ignore[arg-type]
        return paginator.get_paginated_response(rows_out.data)
