"""Tenhou R ratings: the formula on games worked out by hand, and the stored ratings kept equal
to a recomputation from scratch when games arrive out of order, are deleted or hidden."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.game_changes import game_delete, game_visibility_set
from mjlogs.importing import import_file
from mjlogs.models import Game
from stats.models import RatingChange
from stats.ratings import RatedGame, Standing, rate
from stats.services import ratings_recompute
from tests.people import played_by


def test_the_formula_on_two_games_worked_by_hand() -> None:
    a, b, c, d, e = 1, 2, 3, 4, 5
    first = RatedGame(10, ((a, 1), (b, 2), (c, 3), (d, 4)))
    second = RatedGame(11, ((e, 1), (a, 2), (b, 3), (c, 4)))
    changes = {(x.game_id, x.player_id): x.after for x in rate([first, second], {})}
    # Game 10: everyone at R1500 with no game: +30, +10, -10, -30.
    assert changes[10, a] == Standing(1530, 1) and changes[10, d] == Standing(1470, 1)
    # Game 11: table average (1530 + 1510 + 1490 + 1500) / 4 = 1507.5; correction 0.998 for
    # one game played, 1 for none.
    assert changes[11, e].rating == pytest.approx(1500 + 30 + 7.5 / 40)
    assert changes[11, a].rating == pytest.approx(1530 + 0.998 * (10 - 22.5 / 40))
    assert changes[11, b].rating == pytest.approx(1510 + 0.998 * (-10 - 2.5 / 40))
    assert changes[11, c].rating == pytest.approx(1490 + 0.998 * (-30 + 17.5 / 40))
    assert changes[11, c].games == 2


def test_sanma_bases_and_the_correction_after_400_games() -> None:
    veteran = Standing(1800, 400)
    (top, mid, low) = rate([RatedGame(1, ((1, 1), (2, 2), (3, 3)))], {1: veteran})
    average = (1800 + 1500 + 1500) / 3
    assert top.after.rating == pytest.approx(1800 + 0.2 * (30 + (average - 1800) / 40))
    assert mid.after.rating == pytest.approx(1500 + (0 + (average - 1500) / 40))
    assert low.after.rating == pytest.approx(1500 + (-30 + (average - 1500) / 40))


NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


def stored(committed: Any, seed: int, day: int, uploader: User | None = None) -> Game:
    (played,) = simulate("tenhou-4p-east", 1, seed)
    document = canonical.game_to_json(played)
    played_by(document, (NAMES[(seed + seat) % 5] for seat in range(4)))
    document["started_at"] = f"2024-01-{day:02d}T12:00:00+00:00"
    document["source"]["id"] = f"rating-{seed}"
    with committed(execute=True):
        (outcome,) = import_file("g.json", json.dumps(document).encode(), uploader=uploader)
    return Game.objects.get(pk=outcome.game_id)


def stored_ratings() -> list[tuple[int, int, int, float, float]]:
    rows = RatingChange.objects.order_by("played_at", "game_id", "player_id")
    return list(
        rows.values_list("game_id", "player_id", "games_before", "rating_before", "rating_after")
    )


@pytest.mark.django_db
def test_ratings_stay_equal_to_a_full_recomputation(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice = User.objects.create_user("alice")
    committed = django_capture_on_commit_callbacks
    later = [stored(committed, seed, day, alice) for seed, day in ((1, 10), (2, 12), (3, 14))]
    assert RatingChange.objects.count() == 12
    stored(committed, 4, 5, alice)  # an older game arrives: everything after it moves
    incremental = stored_ratings()
    assert len(incremental) == 16
    ratings_recompute()
    assert stored_ratings() == incremental
    first = RatingChange.objects.order_by("played_at").first()
    assert first is not None and first.rating_before == 1500 and first.games_before == 0

    with committed(execute=True):
        game_delete(user=alice, game=later[0])
    with committed(execute=True):
        game_visibility_set(user=alice, game=later[1], visibility="private")
    incremental = stored_ratings()
    assert len(incremental) == 8  # two games left
    ratings_recompute()
    assert stored_ratings() == incremental


@pytest.mark.django_db
def test_a_game_with_one_name_in_two_seats_is_not_rated(
    django_capture_on_commit_callbacks: Any,
) -> None:
    (played,) = simulate("tenhou-4p-east", 1, 9)
    document = canonical.game_to_json(played)
    played_by(document, ("Cat", "Cat", "Eve", "Dan"))
    with django_capture_on_commit_callbacks(execute=True):
        (outcome,) = import_file("g.json", json.dumps(document).encode())
    assert Game.objects.filter(pk=outcome.game_id, verification__verdict="verified").exists()
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_guests_are_seats_of_their_own_and_keep_no_rating(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Two NoName guests are two players, so the game is rated for the others; the guests
    sit at the starting rating and get no rating of their own."""
    from mjlogs.models import Player

    (played,) = simulate("tenhou-4p-east", 1, 9)
    document = canonical.game_to_json(played)
    played_by(document, ("NoName", "NoName", "Cat", "Dan"))
    with django_capture_on_commit_callbacks(execute=True):
        (outcome,) = import_file("g.json", json.dumps(document).encode())
    assert Game.objects.filter(pk=outcome.game_id, verification__verdict="verified").exists()
    rated = set(RatingChange.objects.values_list("player__name", flat=True))
    assert rated == {"Cat", "Dan"}
    assert Player.objects.filter(name="NoName", kind="anonymous").count() == 2


@pytest.mark.django_db
def test_the_stats_show_the_current_rating(django_capture_on_commit_callbacks: Any) -> None:
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.test import APIClient

    from mjlogs.models import GameSeat, Player
    from stats.selectors import player_series, player_stats

    games = [
        stored(django_capture_on_commit_callbacks, seed, day) for seed, day in ((1, 3), (6, 4))
    ]
    ben = Player.objects.get(name="Ben")
    # The same two games rated by the formula alone, in time order.
    tables = [
        RatedGame(g.pk, tuple(GameSeat.objects.filter(game=g).order_by("seat").values_list(
            "player_id", "placement")))
        for g in games
    ]  # fmt: skip
    expected = [c.after for c in rate(tables, {}) if c.player_id == ben.pk][-1]
    current = player_stats(AnonymousUser(), ben).ratings[4]
    assert (current.rating_after, current.games_before + 1) == (
        pytest.approx(expected.rating),
        expected.games,
    )
    series = player_series(AnonymousUser(), ben)
    assert [point.rating for point in series.games][-1] == pytest.approx(expected.rating)
    body = APIClient().get(f"/api/players/{ben.pk}/stats/").json()
    assert body["ratings"] == [
        {"players_count": 4, "rating": pytest.approx(expected.rating), "games": expected.games}
    ]
