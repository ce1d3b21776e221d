"""The selectors behind the stats pages and API, on the hand-computed world of
``tests/stats/stats_data.py``: the game-by-game series with rolling rates, head-to-head records,
opponents, the leaderboard and the fact export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from mjlogs.models import GameSeat, Player
from stats.catch_up import player_summaries_update
from stats.metrics import DENOMINATOR_LABELS, METRIC_GROUPS, METRICS
from stats.models import PlayerSummary, RoundFact
from stats.selectors import (
    FACT_COLUMNS,
    StatsFilterError,
    head_to_head,
    leaderboard,
    player_fact_rows,
    player_opponents,
    player_series,
    player_stats,
)
from tests.stats.stats_data import World, build_world

pytestmark = pytest.mark.django_db

ANYONE = AnonymousUser()


@pytest.fixture
def world() -> World:
    return build_world()


def test_every_metric_is_in_one_group_and_every_denominator_has_words() -> None:
    grouped = [name for _, names in METRIC_GROUPS for name in names]
    assert sorted(grouped) == sorted(metric.name for metric in METRICS)
    assert {metric.denominator for metric in METRICS} <= set(DENOMINATOR_LABELS)


def test_docs_stats_md_defines_every_metric() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "stats.md").read_text()
    for metric in METRICS:
        assert f"| `{metric.name}`" in docs, metric.name
        assert metric.label in docs, metric.label


# --- Series ---------------------------------------------------------------------------------


def test_the_series_follows_the_games_in_order_with_rolling_rates(world: World) -> None:
    series = player_series(ANYONE, world.players["Ann"], window=2)
    games = [world.games[key].pk for key in ("g1", "g2", "g3", "g4")]  # g5 private, g6 unverified
    assert [point.game_id for point in series.games] == games
    assert [point.placement for point in series.games] == [1, 3, 2, 4]
    assert [point.final_score for point in series.games] == [41000, 19000, 30200, 23000]
    assert [point.points for point in series.games] == [8000 - 1000, -3900 - 1000, 5200, -2000]
    assert [point.hands for point in series.games] == [2, 2, 1, 3]
    # Over the last two games (hands: 2; 2 + 2; 2 + 1; 1 + 3):
    expected = [
        {"win_rate": 1 / 2, "deal_in_rate": 0 / 2, "riichi_rate": 0 / 2, "call_rate": 0 / 2,
         "average_placement": 1 / 1},
        {"win_rate": 1 / 4, "deal_in_rate": 1 / 4, "riichi_rate": 1 / 4, "call_rate": 0 / 4,
         "average_placement": (1 + 3) / 2},
        {"win_rate": 1 / 3, "deal_in_rate": 1 / 3, "riichi_rate": 2 / 3, "call_rate": 0 / 3,
         "average_placement": (3 + 2) / 2},
        {"win_rate": 1 / 4, "deal_in_rate": 1 / 4, "riichi_rate": 1 / 4, "call_rate": 2 / 4,
         "average_placement": (2 + 4) / 2},
    ]  # fmt: skip
    for point, rates in zip(series.games, expected, strict=True):
        assert point.rolling == pytest.approx(rates)


def test_the_last_point_of_a_short_series_is_the_overall_figure(world: World) -> None:
    ann = world.players["Ann"]
    last = player_series(ANYONE, ann).games[-1]  # 4 games, window 20
    metrics = player_stats(ANYONE, ann).metrics
    for name, value in last.rolling.items():
        assert value == pytest.approx(metrics[name]), name


@pytest.mark.parametrize(
    ("params", "games"),
    [
        ({"opponent": "Ben"}, ["g1", "g2", "g3"]),
        ({"opponent": "Eve"}, ["g3", "g4"]),
        ({"last": "2"}, ["g3", "g4"]),
        ({"since": "2024-02-15", "until": "2024-03-15"}, ["g3"]),
        ({"players": "3"}, []),
    ],
)
def test_the_series_takes_the_stats_filters(
    world: World, params: dict[str, str], games: list[str]
) -> None:
    if "opponent" in params:
        params = params | {"opponent": str(world.id(params["opponent"]))}
    series = player_series(ANYONE, world.players["Ann"], params)
    assert [point.game_id for point in series.games] == [world.games[key].pk for key in games]


def test_the_uploader_sees_her_private_game_in_the_series(world: World) -> None:
    series = player_series(world.alice, world.players["Ann"])
    assert series.games[-1].game_id == world.games["g5"].pk
    assert len(series.games) == 5  # never the unverified g6


def test_without_fact_rows_the_points_are_final_minus_start(world: World) -> None:
    ben = world.players["Ben"]  # no fact rows written for Ben
    for point in player_series(ANYONE, ben).games:
        seat = GameSeat.objects.get(game_id=point.game_id, player=ben)
        assert point.hands == 0
        assert point.points == seat.final_score - seat.start_score


def test_a_bad_window_or_filter_is_refused(world: World) -> None:
    with pytest.raises(ValueError, match="window"):
        player_series(ANYONE, world.players["Ann"], window=0)
    with pytest.raises(StatsFilterError) as error:
        player_series(ANYONE, world.players["Ann"], {"length": "long"})
    assert set(error.value.errors) == {"length"}


# --- Opponents and head-to-head -------------------------------------------------------------


def test_opponents_most_shared_games_first(world: World) -> None:
    opponents = player_opponents(ANYONE, world.players["Ann"])
    # Counted games g1-g4: Dan in all four, Ben in g1-g3, Cat in g1, g2, g4, Eve in g3, g4.
    assert [(o.player.name, o.games) for o in opponents] == [
        ("Dan", 4), ("Ben", 3), ("Cat", 3), ("Eve", 2),
    ]  # fmt: skip
    assert len(player_opponents(ANYONE, world.players["Ann"], limit=2)) == 2
    assert ("Ben", 4) in [
        (o.player.name, o.games) for o in player_opponents(world.alice, world.players["Ann"])
    ]


def test_head_to_head_counts_who_placed_above(world: World) -> None:
    record = head_to_head(ANYONE, world.players["Ann"], world.players["Ben"])
    # g1: Ann 1st, Ben 2nd; g2: Ben 1st, Ann 3rd; g3: Ann 2nd, Ben 4th.
    assert [g.game_id for g in record.games] == [world.games[k].pk for k in ("g3", "g2", "g1")]
    assert (record.compared, record.a_above, record.b_above) == (3, 2, 1)
    assert record.a_stats.counts["hands"] == 2 + 2 + 1
    assert record.a_stats.counts["games"] == record.b_stats.counts["games"] == 3
    assert record.b_stats.metrics["average_placement"] == pytest.approx((2 + 1 + 4) / 3)
    assert (record.games[0].a_placement, record.games[0].b_placement) == (2, 4)


def test_head_to_head_either_way_round(world: World) -> None:
    record = head_to_head(ANYONE, world.players["Eve"], world.players["Ann"])
    # g3: Eve 1st, Ann 2nd; g4: Eve 3rd, Ann 4th.
    assert (record.compared, record.a_above, record.b_above) == (2, 2, 0)
    assert record.b_stats.counts["hands"] == 1 + 3


def test_head_to_head_counts_a_private_game_only_for_who_may_see_it(world: World) -> None:
    ann, ben = world.players["Ann"], world.players["Ben"]
    record = head_to_head(world.alice, ann, ben)
    assert (len(record.games), record.a_above, record.b_above) == (4, 3, 1)  # g5: Ann 1st


def test_head_to_head_takes_filters_and_refuses_one_player_twice(world: World) -> None:
    ann, ben = world.players["Ann"], world.players["Ben"]
    record = head_to_head(ANYONE, ann, ben, {"since": "2024-02-15", "opponent": "999"})
    assert [g.game_id for g in record.games] == [world.games["g3"].pk]
    assert (record.a_above, record.b_above) == (1, 0)
    assert record.filters == {"since": "2024-02-15"}
    with pytest.raises(StatsFilterError) as error:
        head_to_head(ANYONE, ann, ann)
    assert set(error.value.errors) == {"b"}


# --- Leaderboard ----------------------------------------------------------------------------


def summary(name: str, games: int, **metrics: float | None) -> PlayerSummary:
    player = Player.objects.create(name=name)
    return PlayerSummary.objects.create(
        player=player, games=games, hands=games * 8, counts={}, metrics=metrics
    )


@pytest.fixture
def summaries() -> None:
    summary("P1", 12, win_rate=0.25, average_placement=2.4, deal_in_rate=0.12)
    summary("P2", 30, win_rate=0.22, average_placement=2.3, deal_in_rate=0.10)
    summary("P3", 9, win_rate=0.30, average_placement=2.0, deal_in_rate=0.08)
    summary("P4", 15, win_rate=None, average_placement=2.6, deal_in_rate=None)
    summary("P5", 20, win_rate=0.25, average_placement=2.4, deal_in_rate=0.15)


def ranked(metric: str, min_games: int = 10) -> list[tuple[str, float]]:
    return [(row.player.name, row.value) for row in leaderboard(metric, min_games)]


def test_the_leaderboard_ranks_higher_first_ties_by_games(summaries: None) -> None:
    # P3 has too few games, P4 no value; P5 and P1 tie, P5 has more games.
    assert ranked("win_rate") == [("P5", 0.25), ("P1", 0.25), ("P2", 0.22)]


def test_a_lower_is_better_metric_ranks_ascending(summaries: None) -> None:
    assert [name for name, _ in ranked("average_placement")] == ["P2", "P5", "P1", "P4"]
    assert [name for name, _ in ranked("deal_in_rate")] == ["P2", "P1", "P5"]
    assert next(name for name, _ in ranked("average_placement", min_games=0)) == "P3"
    assert [name for name, _ in ranked("average_placement", min_games=20)] == ["P2", "P5"]


def test_the_leaderboard_refuses_an_unknown_metric(summaries: None) -> None:
    with pytest.raises(StatsFilterError) as error:
        leaderboard("luck")
    assert set(error.value.errors) == {"metric"}
    with pytest.raises(StatsFilterError):
        leaderboard("win_rate", -1)


def test_the_leaderboard_of_real_summaries(world: World) -> None:
    player_summaries_update(world.id(name) for name in world.players)
    # Counted public games g1-g4 (places above): Cat 3, 2, 1; Eve 1, 3; Ben 2, 1, 4;
    # Ann 1, 3, 2, 4; Dan 4, 4, 3, 2.
    assert ranked("average_placement", 1) == [
        ("Cat", 2.0), ("Eve", 2.0), ("Ben", pytest.approx(7 / 3)), ("Ann", 2.5), ("Dan", 3.25),
    ]  # fmt: skip
    assert ranked("win_rate", 1) == [("Ann", 2 / 8)]  # only Ann has fact rows
    assert [name for name, _ in ranked("average_placement", 3)] == ["Cat", "Ben", "Ann", "Dan"]


# --- Fact export ----------------------------------------------------------------------------


def as_rows(
    user: Any, player: Player, params: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    return [
        dict(zip(FACT_COLUMNS, row, strict=True)) for row in player_fact_rows(user, player, params)
    ]


def test_the_export_is_the_fact_rows_game_by_game(world: World) -> None:
    ann = world.players["Ann"]
    rows = as_rows(ANYONE, ann)
    facts = RoundFact.objects.filter(player=ann).exclude(game=world.games["g5"])
    facts = facts.order_by("game__started_at", "round_index")
    assert len(rows) == facts.count() == 2 + 2 + 1 + 3
    for row, fact in zip(rows, facts, strict=True):
        assert row["game_id"] == fact.game_id and row["round_index"] == fact.round_index
        assert row["date"] == fact.game.started_at.isoformat()
        assert row["ruleset"] == "tenhou-4p-east"
        assert row["yaku"] == " ".join(fact.yaku)
        for name in ("won", "dealt_in", "riichi", "calls", "delta", "win_points", "han"):
            assert row[name] == getattr(fact, name), name
    assert len(as_rows(world.alice, ann)) == 9  # and g5's hand
    assert [r["game_id"] for r in as_rows(ANYONE, ann, {"last": "1"})] == [world.games["g4"].pk] * 3
    with pytest.raises(StatsFilterError):
        player_fact_rows(ANYONE, ann, {"since": "yesterday"})
