"""Total points (a total, not a ratio), ranking by points, the points and recorded-rank series,
and percentiles among the players with enough games (stats.percentiles)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from mjlogs.models import GameSeat, Player, PlayerKind
from stats.metrics import METRICS_BY_NAME
from stats.models import PlayerSummary
from stats.percentiles import percentile, percentiles_of
from stats.selectors import leaderboard

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def test_total_points_is_the_sum_and_needs_a_game_with_points() -> None:
    total = METRICS_BY_NAME["total_points"]
    assert total.value({"points_tenths": 455, "points_games": 3}) == 45.5
    assert total.value({"points_tenths": 0, "points_games": 0}) is None
    average = METRICS_BY_NAME["average_points"]
    assert average.value({"points_tenths": 455, "points_games": 2}) == pytest.approx(22.75)


@pytest.mark.parametrize(
    ("value", "field", "lower_is_better", "expected"),
    [
        (5, [1, 2, 3, 4], False, 100.0),  # beats everyone
        (0, [1, 2, 3, 4], False, 0.0),
        (3, [1, 2, 3, 4], False, 62.5),  # beats 1 and 2, ties 3 (half)
        (3, [1, 2, 3, 4], True, 37.5),  # lower is better: beats 4 only, ties 3
        (2, [2, 2, 2, 2], False, 50.0),  # all equal: the middle
        (1, [], False, None),
    ],
)
def test_a_percentile_is_the_share_beaten_ties_half(
    value: float, field: list[float], lower_is_better: bool, expected: float | None
) -> None:
    assert percentile(value, field, lower_is_better) == expected


def _summary(name: str, games: int, kind: str = PlayerKind.PERSON, **metrics: float) -> Player:
    player = Player.objects.create(name=name, kind=kind, platform="tenhou")
    PlayerSummary.objects.create(
        player=player, games=games, hands=games * 8, counts={}, metrics=metrics
    )
    return player


def test_the_field_is_ranked_people_with_enough_games() -> None:
    for index, rate in enumerate((0.20, 0.22, 0.24, 0.26)):
        _summary(f"P{index}", 20, win_rate=rate, deal_in_rate=rate / 2)
    # Left out of the field: too few games, a bot, a guest (each would change the answer).
    _summary("Few", 3, win_rate=0.10)
    _summary("Bot", 50, PlayerKind.BOT, win_rate=0.10)
    _summary("Guest", 50, PlayerKind.ANONYMOUS, win_rate=0.10)
    found = percentiles_of({"win_rate": 0.25, "deal_in_rate": 0.11, "first_rate": None}, 10)
    assert found["win_rate"] == 75.0  # beats 0.20, 0.22 and 0.24 of four
    assert found["deal_in_rate"] == 62.5  # lower is better: beats 0.12, 0.13; ties 0.11
    assert found["first_rate"] is None


def test_the_player_page_and_api_give_percentiles_only_unfiltered_with_enough_games(
    client: Client, store_world_with_points: dict[str, Player]
) -> None:
    ann = store_world_with_points["Ann"]
    body = client.get(f"/api/players/{ann.pk}/stats/").json()
    assert body["percentiles"] is not None
    assert set(body["percentiles"]) == set(METRICS_BY_NAME)
    filtered = client.get(f"/api/players/{ann.pk}/stats/", {"players": "4"}).json()
    assert filtered["percentiles"] is None
    page = client.get(f"/stats/players/{ann.pk}/").content.decode()
    assert 'data-percentile="average_placement"' in page


@pytest.fixture
def store_world_with_points(monkeypatch: pytest.MonkeyPatch) -> dict[str, Player]:
    """Players whose summaries count enough games (the minimum lowered to 1 for the test)."""
    from tests.stats.stats_data import build_world

    monkeypatch.setattr("stats.percentiles.DEFAULT_MIN_GAMES", 1)
    world = build_world()
    from stats.catch_up import player_summaries_update

    player_summaries_update(player.pk for player in world.players.values())
    return world.players


def test_the_leaderboard_ranks_by_total_points(client: Client) -> None:
    _summary("Low", 20, total_points=-35.5)
    _summary("High", 12, total_points=80.0)
    _summary("Mid", 30, total_points=10.0)
    assert [row.player.name for row in leaderboard("total_points")] == ["High", "Mid", "Low"]
    page = client.get("/stats/leaderboard/", {"metric": "total_points"}).content.decode()
    assert page.index("High") < page.index("Mid") < page.index("Low")
    assert "80.0" in page


def test_the_series_gives_final_points_and_what_the_records_say(
    client: Client, store_world_with_points: dict[str, Player]
) -> None:
    ann = store_world_with_points["Ann"]
    seats = list(GameSeat.objects.filter(player=ann, placement__isnull=False))
    for number, seat in enumerate(seats):
        seat.points, seat.recorded_rank, seat.recorded_rating = 10.5 * number, "四段", 1600.0
        seat.save()
    games = client.get(f"/api/players/{ann.pk}/stats/series/").json()["games"]
    by_game = {game["game_id"]: game for game in games}
    shown_seats = [(n, seat) for n, seat in enumerate(seats) if seat.game_id in by_game]
    assert len(shown_seats) >= 3  # the public games of the world
    for number, seat in shown_seats:
        shown = by_game[seat.game_id]
        assert shown["final_points"] == 10.5 * number
        assert (shown["recorded_rank"], shown["recorded_rating"]) == ("四段", 1600.0)
    page = client.get(f"/stats/players/{ann.pk}/").content.decode()
    assert '"recorded_rank"' in page and "chart-dan" in page
