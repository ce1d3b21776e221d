"""Read paths of the stats app.

Every query that views, API endpoints or tasks need is a function here (HackSoft Django
Styleguide): a selector takes plain values and returns model instances, querysets or plain
data, and changes nothing. Writes belong in ``services.py``.
"""

from __future__ import annotations

import datetime
from collections import Counter, deque
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Exists, F, FloatField, OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from mjlogs.errors import InvalidRequest
from mjlogs.models import Game, GameSeat, Player, PlayerKind, Visibility
from mjlogs.selectors import User, games_visible_to
from replay.models import AGREEING
from stats.metrics import (
    GAME_COUNTS,
    HAND_COUNTS,
    METRICS,
    METRICS_BY_NAME,
    counts_of,
    counts_of_seats,
    metrics_of,
    not_riichi_han_rulesets,
    stable_dan,
)
from stats.models import PlayerSummary, RatingChange, RoundFact, SummaryBacklog
from stats.ratings import Standing

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from stats.filters import StatsFilter


def _stats_filter(params: Mapping[str, Any], games: QuerySet[Game]) -> StatsFilter:
    """The statistics' filter (:class:`~stats.filters.StatsFilter`) over ``games``. Imported
    when first used: its choices list every rule set and format, which imports every game
    family and format reader, and an import of games (``import_logs``) reads no statistics."""
    from stats.filters import StatsFilter

    # A filter set binds any mapping (its form's data); django-filter's stubs ask for a
    # QueryDict or a dict.
    return StatsFilter(params, queryset=games)  # type: ignore[arg-type]


class StatsFilterError(InvalidRequest):
    """A filter parameter with a bad value; ``errors`` maps each to its messages."""

    def __init__(self, errors: Mapping[str, Any]) -> None:
        super().__init__(fields=errors)

    @property
    def errors(self) -> dict[str, list[str]]:
        return self.fields


@dataclass(frozen=True)
class PlayerStats:
    player: Player
    counts: dict[str, int]
    metrics: dict[str, float | None]
    #: The games and fact rows counted (for the tables and series built on the same choice).
    games: QuerySet[Game]
    facts: QuerySet[RoundFact]
    #: The filters applied, as given and cleaned (``{"ruleset": "tenhou-4p", "last": 50}``).
    filters: dict[str, Any] = field(default_factory=dict)
    #: The player's up-to-date summary when these are its figures (no filter, public games
    #: only): the figures below are read from it rather than computed from the rows.
    summary: PlayerSummary | None = None

    @property
    def stable_dan(self) -> float | None:
        """Tenhou's stable dan over the 4-player games of the selection."""
        if self.summary is not None:
            return self.summary.stable_dan
        seats = GameSeat.objects.filter(player=self.player, game__in=self.games)
        return stable_dan(counts_of_seats(seats.filter(game__players_count=4)))

    @property
    def ratings(self) -> dict[int, RatingChange]:
        """The player's current Tenhou R by mode (3 or 4 players): their last rating change.
        Ratings are one timeline over all public verified games; filters do not apply."""
        return player_ratings(self.player)

    @property
    def yaku(self) -> list[tuple[str, int]]:
        if self.summary is not None:
            return [(name, wins) for name, wins in self.summary.yaku]
        return yaku_frequencies(self.facts)

    @property
    def han(self) -> dict[int, int]:
        if self.summary is not None:
            return dict(self.summary.han)
        return han_distribution(self.facts)

    @property
    def longest_dealer_streak(self) -> int:
        if self.summary is not None:
            return self.summary.longest_dealer_streak
        return longest_dealer_streak(self.facts)


def player_ratings(player: Player) -> dict[int, RatingChange]:
    """The player's last rating change in each mode (3 or 4 players) they were rated in."""
    ratings = {}
    for mode in (3, 4):
        changes = RatingChange.objects.filter(player=player, players_count=mode)
        last = changes.order_by("-played_at", "-game_id").first()
        if last is not None:
            ratings[mode] = last
    return ratings


def counted_games(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games statistics count: those the rules engine verified, whole or as far as the
    record goes (a record it disagrees with could count anything; placements count only
    complete games), each game once: by the copy of it that counts (``mjlogs.copies``: the
    same game from two formats, or copied and altered, is not counted again)."""
    return games.filter(verification__verdict__in=AGREEING, copy_of__isnull=True)


def player_stats(
    user: User,
    player: Player,
    params: Mapping[str, Any] | None = None,
    *,
    from_summary: bool = True,
) -> PlayerStats:
    """A player's statistics over the games this user may see, filtered by ``params`` (see
    :class:`~stats.filters.StatsFilter`).

    Without filters, over public games only (what an anonymous visitor sees), they are read
    from the player's :class:`~stats.models.PlayerSummary` when it is up to date (their
    player is not marked behind, ``stats.catch_up``): the same figures, one row read
    instead of every fact row of the player. ``from_summary=False`` always computes them
    (which is how the summary itself is computed).

    :raises StatsFilterError: a bad filter value.
    """
    chosen, filters = _chosen_games(user, player, params)
    facts = RoundFact.objects.filter(player=player, game__in=chosen)
    if from_summary and not filters and not _sees_hidden_games_of(user, player):
        summary = current_summary(player)
        # A summary stored before a count was added lacks it: computed from the rows instead.
        if summary is not None and summary.counts.keys() >= set(COUNT_NAMES):
            counts = {name: summary.counts[name] for name in COUNT_NAMES}
            return PlayerStats(player, counts, metrics_of(counts), chosen, facts, {}, summary)
    counts = counts_of(facts, GameSeat.objects.filter(player=player, game__in=chosen))
    return PlayerStats(player, counts, metrics_of(counts), chosen, facts, filters)


#: Every count a summary holds, in the order the statistics list them.
COUNT_NAMES: tuple[str, ...] = (*HAND_COUNTS, *GAME_COUNTS)


def current_summary(player: Player) -> PlayerSummary | None:
    """The player's summary if it is up to date (no change to their games is waiting for it)."""
    behind = SummaryBacklog.objects.filter(player_id=player.pk)
    return PlayerSummary.objects.filter(player=player).exclude(Exists(behind)).first()


def _sees_hidden_games_of(user: User, player: Player) -> bool:
    """Whether this user may see a game of the player's that is not public (their own
    upload, or any game for staff): then their figures are not the summary's."""
    if not user.is_authenticated:
        return False
    hidden = games_visible_to(user).exclude(visibility=Visibility.PUBLIC)
    return hidden.filter(seats__player=player).exists()


def _chosen_games(
    user: User, player: Player, params: Mapping[str, Any] | None
) -> tuple[QuerySet[Game], dict[str, Any]]:
    """The player's counted games this user may see, narrowed by the filters (the choice of
    every statistic, series and export), and the filters given, cleaned (numbers as numbers,
    dates as ISO strings).

    :raises StatsFilterError: a bad filter value.
    """
    visible = counted_games(games_visible_to(user)).filter(seats__player=player)
    games = _stats_filter(params or {}, visible)
    if not games.is_valid():
        raise StatsFilterError(games.errors)
    chosen = Game.objects.filter(pk__in=games.qs.values("pk"))
    given = {
        name: _plain(value)
        for name, value in games.form.cleaned_data.items()
        if value is not None and value != ""
    }
    return chosen, given


def _plain(value: Any) -> Any:
    """A cleaned filter value as JSON has it (django-filter's numbers are Decimals)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def newest_game_has_verdict() -> bool:
    """Whether the game stored last has its verdict: then no upload is waiting for its
    verifications (as good as certain: games are verified in the order they were stored, in
    batches), and their changes to the statistics have all come (``stats.catch_up``). One
    look-up by the primary key's index, however many games there are."""
    newest = Game.objects.order_by("-pk").values_list("verification__verdict", flat=True)
    return newest.first() is not None


def player_ids_with_facts_or_summary() -> list[int]:
    """Every player a rebuild must visit: those seated in a game (their summary may need
    creating) and those with a summary (it may need removing)."""
    seated = set(GameSeat.objects.values_list("player_id", flat=True).distinct())
    summarised = set(PlayerSummary.objects.values_list("player_id", flat=True))
    return sorted(seated | summarised)


def yaku_frequencies(facts: QuerySet[RoundFact]) -> list[tuple[str, int]]:
    """How many of these hands' wins had each yaku (dora counted once per win), most frequent
    first, then by name."""
    return _yaku_counted(facts.filter(won=True).values_list("yaku", flat=True))


def _yaku_counted(wins: Iterable[list[str]]) -> list[tuple[str, int]]:
    counted: Counter[str] = Counter()
    for yaku in wins:
        counted.update(set(yaku))
    return sorted(counted.items(), key=lambda item: (-item[1], item[0]))


def han_distribution(facts: QuerySet[RoundFact]) -> dict[int, int]:
    """How many of these hands' wins had each han count, over riichi-scored games only (small
    mahjong's ``han`` is points and Ùzje's fan tenths: not han)."""
    rows = _riichi_wins(facts).values("han").annotate(wins=Count("id")).order_by("han")
    return {row["han"]: row["wins"] for row in rows}


def _riichi_wins(facts: QuerySet[RoundFact]) -> QuerySet[RoundFact]:
    return facts.filter(won=True).exclude(game__ruleset__in=not_riichi_han_rulesets())


def longest_dealer_streak(facts: QuerySet[RoundFact]) -> int:
    """The most hands in a row the player was dealer in one game (a dealer keeping the deal
    through wins, tenpai draws and aborts; 1 when they never kept it)."""
    rows = facts.filter(dealer=True).order_by("game_id", "round_index")
    return _longest_run(rows.values_list("game_id", "round_index"))


def _longest_run(dealt: Iterable[tuple[int, int]]) -> int:
    """The longest run of consecutive rounds of one game among these (game, round) pairs, in
    order."""
    longest = run = 0
    previous: tuple[int, int] | None = None
    for game_id, round_index in dealt:
        follows = previous is not None and previous == (game_id, round_index - 1)
        run = run + 1 if follows else 1
        longest = max(longest, run)
        previous = (game_id, round_index)
    return longest


@dataclass(frozen=True)
class SummaryFigures:
    """What a :class:`~stats.models.PlayerSummary` holds, as computed from the rows."""

    counts: dict[str, int]
    metrics: dict[str, float | None]
    yaku: list[tuple[str, int]]
    han: dict[int, int]
    longest_dealer_streak: int
    stable_dan: float | None


def public_summaries_of(player_ids: Collection[int]) -> dict[int, SummaryFigures]:
    """The summary figures of each of these players: the same as :func:`player_stats` gives an
    anonymous visitor without filters (their counted public games), computed for all of them
    at once in six grouped queries rather than six queries each (a catch-up after a bulk import
    recomputes hundreds of players). A player with no such hand or game is left out."""
    games = counted_games(games_visible_to(AnonymousUser()))
    facts = RoundFact.objects.filter(player_id__in=player_ids, game__in=games)
    seats = GameSeat.objects.filter(player_id__in=player_ids, game__in=games)
    hand_counts = _grouped(facts, HAND_COUNTS)
    game_counts = _grouped(seats.filter(placement__isnull=False), GAME_COUNTS)
    four_player = _grouped(
        seats.filter(placement__isnull=False, game__players_count=4), GAME_COUNTS
    )
    yaku: dict[int, list[list[str]]] = {}
    for player_id, names in facts.filter(won=True).values_list("player_id", "yaku"):
        yaku.setdefault(player_id, []).append(names)
    han: dict[int, dict[int, int]] = {}
    han_rows = _riichi_wins(facts).values("player_id", "han").annotate(wins=Count("id"))
    for row in han_rows.order_by("player_id", "han"):
        han.setdefault(row["player_id"], {})[row["han"]] = row["wins"]
    dealt: dict[int, list[tuple[int, int]]] = {}
    dealer_rows = facts.filter(dealer=True).order_by("player_id", "game_id", "round_index")
    for player_id, game_id, round_index in dealer_rows.values_list(
        "player_id", "game_id", "round_index"
    ):
        dealt.setdefault(player_id, []).append((game_id, round_index))
    figures = {}
    for player_id in sorted(hand_counts.keys() | game_counts.keys()):
        counts = _zeros(HAND_COUNTS) | hand_counts.get(player_id, {})
        counts |= game_counts.get(player_id, _zeros(GAME_COUNTS))
        if not counts["hands"] and not counts["games"]:
            continue
        figures[player_id] = SummaryFigures(
            counts=counts,
            metrics=metrics_of(counts),
            yaku=_yaku_counted(yaku.get(player_id, [])),
            han=han.get(player_id, {}),
            longest_dealer_streak=_longest_run(dealt.get(player_id, [])),
            stable_dan=stable_dan(four_player.get(player_id, _zeros(GAME_COUNTS))),
        )
    return figures


def _grouped(rows: QuerySet[Any], aggregates: Mapping[str, Any]) -> dict[int, dict[str, int]]:
    """These aggregates over the rows of each player (``GROUP BY player_id``), as
    :func:`~stats.metrics.counts_of` gives them for one (0 for none)."""
    grouped = rows.values("player_id").order_by().annotate(**aggregates)
    return {row["player_id"]: {name: int(row[name] or 0) for name in aggregates} for row in grouped}


def _zeros(aggregates: Mapping[str, Any]) -> dict[str, int]:
    return dict.fromkeys(aggregates, 0)


# --- Time series ---------------------------------------------------------------------------

#: The games a rolling figure of the series is taken over (the game itself and those before).
DEFAULT_WINDOW = 20

#: The metrics the series follows game by game, over the rolling window.
SERIES_METRICS: tuple[str, ...] = (
    "win_rate",
    "deal_in_rate",
    "riichi_rate",
    "call_rate",
    "average_placement",
)

#: The per-game counts of the series (a subset of :data:`stats.metrics.HAND_COUNTS`).
_SERIES_HAND_COUNTS = ("hands", "wins", "deal_ins", "riichi_hands", "called_hands", "points")


@dataclass(frozen=True)
class GamePoint:
    """One game of a player's series: the game, how it went for them, and the rolling figures
    over it and the ``window - 1`` games before it."""

    game_id: int
    #: When the game was played (when it was uploaded, for a record without a date).
    date: datetime.datetime
    ruleset: str
    players_count: int
    placement: int | None
    final_score: int | None
    #: The player's score change over the game: the sum of their hands' deltas when the game
    #: has fact rows (it verified), else final minus start score; ``None`` when neither is known.
    points: int | None
    hands: int
    wins: int
    deal_ins: int
    riichi_hands: int
    called_hands: int
    #: :data:`SERIES_METRICS` over the window (``None`` without a denominator).
    rolling: dict[str, float | None]
    #: The player's Tenhou R after this game in its mode (``None``: the game is not rated,
    #: being private, unfinished or unverified).
    rating: float | None = None
    #: Final points by the rule set (uma and oka; ``GameSeat.points``), for a game verified whole.
    final_points: float | None = None
    #: The rank and rating the record gives the player at this game (Tenhou's dan and R).
    recorded_rank: str = ""
    recorded_rating: float | None = None


@dataclass(frozen=True)
class PlayerSeries:
    player: Player
    window: int
    #: Oldest first.
    games: list[GamePoint]
    filters: dict[str, Any]


def player_series(
    user: User,
    player: Player,
    params: Mapping[str, Any] | None = None,
    window: int = DEFAULT_WINDOW,
) -> PlayerSeries:
    """The player's games this user may see, filtered as :func:`player_stats` filters them, in
    the order they were played, each with its result and the rolling :data:`SERIES_METRICS`
    over the last ``window`` games (the rates per hand, as :data:`stats.metrics.METRICS`
    defines them, so the last point of a series no longer than the window is the overall
    figure).

    :raises StatsFilterError: a bad filter value.
    :raises ValueError: a window below 1.
    """
    if window < 1:
        raise ValueError("the window must be at least 1 game")
    chosen, filters = _chosen_games(user, player, params)
    # (Cast: the type checker's Django plugin knows the values() names of a row, not the
    # counts annotated after them by name.)
    per_game = {
        row.pop("game_id"): row
        for row in cast(
            "Iterable[dict[str, Any]]",
            RoundFact.objects.filter(player=player, game__in=chosen)
            .order_by()
            .values("game_id")
            .annotate(**{name: HAND_COUNTS[name] for name in _SERIES_HAND_COUNTS}),
        )
    }
    seats = (
        GameSeat.objects.filter(player=player, game__in=chosen)
        .order_by()
        .values(
            "game_id",
            "game__started_at",
            "game__uploaded_at",
            "game__ruleset",
            "game__players_count",
            "placement",
            "final_score",
            "start_score",
            "points",
            "recorded_rank",
            "recorded_rating",
        )
    )
    by_game = {seat["game_id"]: seat for seat in seats}  # one seat a game
    ratings = dict(
        RatingChange.objects.filter(player=player, game__in=chosen).values_list(
            "game_id", "rating_after"
        )
    )
    ordered = sorted(by_game.values(), key=lambda seat: (_played(seat), seat["game_id"]))
    recent: deque[dict[str, int]] = deque(maxlen=window)
    points = []
    for seat in ordered:
        counts = per_game.get(seat["game_id"]) or dict.fromkeys(_SERIES_HAND_COUNTS, 0)
        counts = {name: int(value or 0) for name, value in counts.items()}
        placement, final = seat["placement"], seat["final_score"]
        recent.append(
            counts | {"games": int(placement is not None), "placement_total": placement or 0}
        )
        window_counts = {name: sum(game[name] for game in recent) for name in recent[0]}
        if counts["hands"]:
            result: int | None = counts["points"]
        else:
            result = None if final is None else final - seat["start_score"]
        points.append(
            GamePoint(
                game_id=seat["game_id"],
                date=_played(seat),
                ruleset=seat["game__ruleset"],
                players_count=seat["game__players_count"],
                placement=placement,
                final_score=final,
                points=result,
                hands=counts["hands"],
                wins=counts["wins"],
                deal_ins=counts["deal_ins"],
                riichi_hands=counts["riichi_hands"],
                called_hands=counts["called_hands"],
                rolling={
                    name: METRICS_BY_NAME[name].value(window_counts) for name in SERIES_METRICS
                },
                rating=ratings.get(seat["game_id"]),
                final_points=seat["points"],
                recorded_rank=seat["recorded_rank"],
                recorded_rating=seat["recorded_rating"],
            )
        )
    return PlayerSeries(player, window, points, filters)


def _played(seat: Mapping[str, Any]) -> datetime.datetime:
    played: datetime.datetime = seat["game__started_at"] or seat["game__uploaded_at"]
    return played


# --- Opponents and head-to-head ------------------------------------------------------------


@dataclass(frozen=True)
class Opponent:
    player: Player
    #: Games this user may see with both at the table.
    games: int


def player_opponents(user: User, player: Player, limit: int | None = None) -> list[Opponent]:
    """The players this one shared a table with in the counted games this user may see (the
    games their statistics come from), the most shared games first (then by name)."""
    games = counted_games(games_visible_to(user)).filter(seats__player=player)
    rows = (
        GameSeat.objects.filter(game__in=games)
        .exclude(player=player)
        .values("player")
        .annotate(games=Count("game", distinct=True))
        .order_by("-games", "player__name", "player")
    )
    if limit is not None:
        rows = rows[:limit]
    counted = [(row["player"], row["games"]) for row in rows]
    players = Player.objects.in_bulk([player_id for player_id, _ in counted])
    return [Opponent(players[player_id], games) for player_id, games in counted]


@dataclass(frozen=True)
class SharedGame:
    """A game both players of a head-to-head sat in."""

    game_id: int
    date: datetime.datetime
    ruleset: str
    a_placement: int | None
    b_placement: int | None
    a_final_score: int | None
    b_final_score: int | None


@dataclass(frozen=True)
class HeadToHead:
    a: Player
    b: Player
    #: Each one's statistics over their shared games (``opponent`` = the other).
    a_stats: PlayerStats
    b_stats: PlayerStats
    #: The shared games, newest first.
    games: list[SharedGame]
    filters: dict[str, Any]

    @property
    def compared(self) -> int:
        """Shared games where both placements are known."""
        return sum(1 for g in self.games if g.a_placement and g.b_placement)

    @property
    def a_above(self) -> int:
        """Shared games where ``a`` placed above (better than) ``b``."""
        return sum(1 for g in self.games if _above(g.a_placement, g.b_placement))

    @property
    def b_above(self) -> int:
        return sum(1 for g in self.games if _above(g.b_placement, g.a_placement))


def _above(mine: int | None, theirs: int | None) -> bool:
    return mine is not None and theirs is not None and mine < theirs


def head_to_head(
    user: User, a: Player, b: Player, params: Mapping[str, Any] | None = None
) -> HeadToHead:
    """Two players' shared games that this user may see (narrowed by the stats filters, any
    ``opponent`` among them replaced by the other player), how often each placed above the
    other, and each one's statistics in those games.

    :raises StatsFilterError: a bad filter value, or ``a`` and ``b`` the same player.
    """
    if a.pk == b.pk:
        raise StatsFilterError({"b": ["Choose two different players."]})
    base = {name: value for name, value in (params or {}).items() if name != "opponent"}
    a_stats = player_stats(user, a, base | {"opponent": str(b.pk)})
    b_stats = player_stats(user, b, base | {"opponent": str(a.pk)})
    seats = (
        GameSeat.objects.filter(game__in=a_stats.games, player__in=(a, b))
        .order_by()
        .values(
            "game_id",
            "player_id",
            "placement",
            "final_score",
            "game__started_at",
            "game__uploaded_at",
            "game__ruleset",
        )
    )
    by_game: dict[int, dict[int, Mapping[str, Any]]] = {}
    for seat in seats:
        by_game.setdefault(seat["game_id"], {}).setdefault(seat["player_id"], seat)
    games = []
    for game_id, pair in by_game.items():
        if a.pk not in pair or b.pk not in pair:  # never, but a filter must not make it so
            continue
        mine, theirs = pair[a.pk], pair[b.pk]
        games.append(
            SharedGame(
                game_id=game_id,
                date=_played(mine),
                ruleset=mine["game__ruleset"],
                a_placement=mine["placement"],
                b_placement=theirs["placement"],
                a_final_score=mine["final_score"],
                b_final_score=theirs["final_score"],
            )
        )
    games.sort(key=lambda g: (g.date, g.game_id), reverse=True)
    filters = {name: value for name, value in a_stats.filters.items() if name != "opponent"}
    return HeadToHead(a, b, a_stats, b_stats, games, filters)


# --- Leaderboard ---------------------------------------------------------------------------

#: A leaderboard's default minimum of games (fewer games say little about a player).
DEFAULT_MIN_GAMES = 10


#: The filters a leaderboard takes (the others choose among one player's games).
LEADERBOARD_FILTERS = ("players", "length", "ruleset", "room", "since", "until")

if TYPE_CHECKING:

    class _Valued(TypedDict):
        value: float

    #: A kept summary annotated with the value of the metric it is ranked by (:func:`_leaderboard`).
    RankedSummary = WithAnnotations[PlayerSummary, _Valued]


@dataclass(frozen=True)
class LeaderRow:
    """A leaderboard row computed from the rows of the filtered games (what a
    :class:`~stats.models.PlayerSummary` holds for all games)."""

    player: Player
    value: float
    games: int
    hands: int

    @property
    def player_id(self) -> int:
        """As a summary's (the leaderboard page links by it)."""
        return int(self.player.pk)


def leaderboard(
    metric: str,
    min_games: int = DEFAULT_MIN_GAMES,
    params: Mapping[str, Any] | None = None,
    *,
    bots: bool = False,
) -> QuerySet[RankedSummary] | list[LeaderRow]:
    """Players ranked by a metric over their public verified games, as :func:`_leaderboard`
    orders them: from the kept summaries without filters, else computed from the rows of
    the games the filters (:data:`LEADERBOARD_FILTERS`) choose, one grouped query each for
    hands and seats. Both give the same rows for the same games. A player whose summary is
    marked behind (``stats.catch_up``) is computed from the rows in either case.
    Anonymous seats are never ranked; bots only with ``bots`` (``mjlogs.provenance``).

    :raises StatsFilterError: an unknown metric, a negative ``min_games``, a bad filter.
    """
    chosen_filters = {
        name: value for name, value in (params or {}).items()
        if name in LEADERBOARD_FILTERS and value not in ("", None)
    }  # fmt: skip
    kinds = ranked_kinds(bots=bots)
    summaries = _leaderboard(metric, min_games).filter(player__kind__in=kinds)
    behind = set(
        SummaryBacklog.objects.filter(player__kind__in=kinds).values_list("player_id", flat=True)
    )
    if not chosen_filters and not behind:
        return summaries
    public = counted_games(Game.objects.filter(visibility=Visibility.PUBLIC))
    if not chosen_filters:
        # Some summaries are marked behind their games (a catch-up is on its way): those
        # players' rows are computed from the rows, as their own statistics page does, and
        # the rest read from the summaries. The board never shows a figure marked out of date.
        current = [
            LeaderRow(summary.player, summary.value, summary.games, summary.hands)
            for summary in summaries.exclude(player_id__in=behind)
        ]
        fresh = _rows_from_facts(metric, min_games, public, players=behind, kinds=kinds)
        return _ranked(metric, [*current, *fresh])
    games = _stats_filter(chosen_filters, public)
    if not games.is_valid():
        raise StatsFilterError(games.errors)
    return _ranked(metric, _rows_from_facts(metric, min_games, games.qs, kinds=kinds))


def ranked_kinds(*, bots: bool = False) -> tuple[str, ...]:
    """The kinds of player a leaderboard ranks: people, and bots when asked for; never an
    anonymous seat (a guest is no one in particular)."""
    return (PlayerKind.PERSON, PlayerKind.BOT) if bots else (PlayerKind.PERSON,)


def _rows_from_facts(
    metric: str,
    min_games: int,
    games: QuerySet[Game],
    players: set[int] | None = None,
    kinds: tuple[str, ...] = (PlayerKind.PERSON,),
) -> list[LeaderRow]:
    """Leaderboard rows computed from the fact and seat rows of these games (of these
    players only, when given; of these kinds of player): one grouped query each."""
    chosen = Game.objects.filter(pk__in=games.values("pk"))
    facts = RoundFact.objects.filter(game__in=chosen, player__kind__in=kinds)
    seats = GameSeat.objects.filter(
        game__in=chosen, placement__isnull=False, player__kind__in=kinds
    )
    if players is not None:
        facts, seats = facts.filter(player__in=players), seats.filter(player__in=players)
    counts: dict[int, dict[str, int]] = {}
    empty = _zeros(HAND_COUNTS) | _zeros(GAME_COUNTS)
    for grouped in (_grouped(facts, HAND_COUNTS), _grouped(seats, GAME_COUNTS)):
        for player, tally in grouped.items():
            counts.setdefault(player, dict(empty)).update(tally)
    definition = METRICS_BY_NAME[metric]
    found = Player.objects.in_bulk(counts)
    return [
        LeaderRow(found[pk], value, tally["games"], tally["hands"])
        for pk, tally in counts.items()
        if tally["games"] >= min_games and (value := definition.value(tally)) is not None
    ]


def _ranked(metric: str, rows: list[LeaderRow]) -> list[LeaderRow]:
    """The rows in :func:`_leaderboard`'s order."""
    sign = 1 if METRICS_BY_NAME[metric].lower_is_better else -1
    return sorted(rows, key=lambda r: (sign * r.value, -r.games, r.player.name, r.player.pk))


def _leaderboard(metric: str, min_games: int = DEFAULT_MIN_GAMES) -> QuerySet[RankedSummary]:
    """The player summaries (public games only, so the same for everyone) with at least
    ``min_games`` complete games and a value of the metric, best first: ascending for a
    metric where lower is better (:attr:`~stats.metrics.Metric.lower_is_better`), else
    descending; ties by more games, then by name. Each row is annotated with ``value``.

    :raises StatsFilterError: an unknown metric or a negative ``min_games``.
    """
    chosen = METRICS_BY_NAME.get(metric)
    errors: dict[str, list[str]] = {}
    if chosen is None:
        names = ", ".join(m.name for m in METRICS)
        errors["metric"] = [f"Unknown metric {metric!r}: choose one of {names}."]
    if min_games < 0:
        errors["min_games"] = ["Ensure this value is greater than or equal to 0."]
    if errors or chosen is None:
        raise StatsFilterError(errors)
    key = f"metrics__{chosen.name}"
    order = F("value").asc() if chosen.lower_is_better else F("value").desc()
    return (
        PlayerSummary.objects.filter(games__gte=min_games, **{f"{key}__isnull": False})
        .exclude(**{key: None})  # a JSON null: no denominator, no value
        .annotate(value=Cast(KT(key), FloatField()))
        .select_related("player")
        .order_by(order, "-games", "player__name", "player_id")
    )


# --- CSV export ----------------------------------------------------------------------------

#: The columns of a player's fact export: the game's, then the fact row's own.
FACT_COLUMNS: tuple[str, ...] = (
    "game_id",
    "date",
    "ruleset",
    "players_count",
    "round_index",
    "round_name",
    "seat",
    "dealer",
    "turns",
    "outcome",
    "won",
    "tsumo",
    "dealt_in",
    "win_points",
    "deal_in_points",
    "han",
    "fu",
    "yaku",
    "ura",
    "ippatsu",
    "win_turn",
    "riichi",
    "riichi_turn",
    "riichi_chasing",
    "riichi_wait_kinds",
    "calls",
    "open_hand",
    "tenpai_at_draw",
    "dealt_in_to",
    "delta",
    "score_after",
)

_GAME_COLUMNS = {
    "date": "game__started_at",
    "ruleset": "game__ruleset",
    "players_count": "game__players_count",
}


def player_fact_rows(
    user: User, player: Player, params: Mapping[str, Any] | None = None
) -> Iterator[tuple[Any, ...]]:
    """The fact rows of the player's games this user may see, filtered as :func:`player_stats`
    filters them, one tuple a hand in :data:`FACT_COLUMNS` order (the date in ISO 8601, the
    yaku space-separated, booleans as ``True``/``False``, an unknown as ``None``), game by game
    in the order they were played. The filters are checked at once; the rows are read lazily.

    :raises StatsFilterError: a bad filter value.
    """
    chosen, _ = _chosen_games(user, player, params)
    facts = (
        RoundFact.objects.filter(player=player, game__in=chosen)
        .order_by("game__started_at", "game__uploaded_at", "game_id", "round_index", "seat")
        .values_list(*(_GAME_COLUMNS.get(name, name) for name in FACT_COLUMNS))
    )
    return _fact_rows(facts)


def _fact_rows(facts: QuerySet[RoundFact, tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    date, yaku = FACT_COLUMNS.index("date"), FACT_COLUMNS.index("yaku")
    for row in facts.iterator(chunk_size=2000):
        values = list(row)
        values[date] = values[date].isoformat() if values[date] else None
        values[yaku] = " ".join(values[yaku])
        yield tuple(values)


# What the write paths (``stats.services``, ``stats.catch_up``) read --------------------------


def players_of_games(game_ids: Sequence[int]) -> list[int]:
    """The ids of the players seated in these games, each once."""
    seats = GameSeat.objects.filter(game_id__in=game_ids).values_list("player_id", flat=True)
    return sorted(set(seats))


if TYPE_CHECKING:

    class _Played(TypedDict):
        played_at: datetime.datetime

    #: A game annotated with when it was played (:func:`rated_games`).
    DatedGame = WithAnnotations[Game, _Played]


def rated_games() -> QuerySet[DatedGame]:
    """The games ratings count: verified, public and complete, with their place in time."""
    public = Game.objects.filter(visibility=Visibility.PUBLIC, complete=True)
    return counted_games(public).annotate(played_at=Coalesce("started_at", "uploaded_at"))


def rating_placements(
    game_ids: list[int],
) -> tuple[dict[int, tuple[tuple[int, int], ...]], set[int]]:
    """Each game's (player, placement) by seat, and the players who are anonymous seats: a
    guest sits at the table at the starting rating, as Tenhou counts one, and keeps none."""
    seats: dict[int, list[tuple[int, int]]] = {}
    guests: set[int] = set()
    rows = GameSeat.objects.filter(game_id__in=game_ids, placement__isnull=False)
    for game_id, player_id, placement, kind in rows.order_by("game_id", "seat").values_list(
        "game_id", "player_id", "placement", "player__kind"
    ):
        assert placement is not None  # (placement__isnull=False)
        seats.setdefault(game_id, []).append((player_id, placement))
        if kind == PlayerKind.ANONYMOUS:
            guests.add(player_id)
    return {game_id: tuple(rows) for game_id, rows in seats.items()}, guests


def rating_standings_before(
    since: datetime.datetime | None, mode: int, players: set[int]
) -> dict[int, Standing]:
    """Each player's rating after their last game before ``since`` in this mode."""
    if since is None or not players:
        return {}
    earlier = RatingChange.objects.filter(players_count=mode, played_at__lt=since)
    last = earlier.filter(player_id=OuterRef("pk")).order_by("-played_at", "-game_id")
    # One row per player, their last before ``since``: not every earlier row of theirs.
    last_ids = Player.objects.filter(pk__in=players).annotate(last=Subquery(last.values("pk")[:1]))
    rows = RatingChange.objects.filter(pk__in=last_ids.values("last"))
    return {
        player_id: Standing(rating, games + 1)
        for player_id, rating, games in rows.values_list(
            "player_id", "rating_after", "games_before"
        )
    }


def study_pending_games(limit: int) -> list[int]:
    """Games whose fact rows wait for their study aids (``decisions`` null: verified since the
    last study catch-up), lowest id first, at most ``limit``."""
    pending = RoundFact.objects.filter(decisions__isnull=True).values_list("game_id", flat=True)
    return list(pending.distinct().order_by("game_id")[:limit])


def study_pending_count() -> int:
    """How many games wait for their study aids."""
    pending = RoundFact.objects.filter(decisions__isnull=True)
    return pending.values("game_id").distinct().count()


def study_documents(game_ids: Sequence[int]) -> dict[int, Any]:
    """The stored canonical documents of these games (those still stored), by id."""
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "document"))


def study_document(game_id: int) -> Any | None:
    """The stored canonical document of a game whose study aids are to be counted (``None``
    when the game is gone)."""
    return Game.objects.filter(pk=game_id).values_list("document", flat=True).first()
