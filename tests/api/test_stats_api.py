"""The statistics endpoints: a player's stats (filters echoed, 400 naming a bad one), series,
fact rows as CSV, head-to-head and the leaderboard; private games count only for who may see
them, and a player seen only in them is not found. On the hand-computed world of
``tests/stats/stats_data.py``."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from mjlogs.models import Player
from stats.api import LeaderboardPagination
from stats.catch_up import player_summaries_update
from stats.models import PlayerSummary, RoundFact
from stats.selectors import FACT_COLUMNS, player_stats
from tests.api.conftest import client_for
from tests.stats.stats_data import World, build_world, store

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return build_world()


def get(url: str, user: Any = None, status: int = 200, **params: Any) -> Any:
    response = client_for(user).get(url, params)
    assert response.status_code == status, response.content[:2000]
    return response


# --- A player's statistics ------------------------------------------------------------------


def test_the_stats_of_a_player(world: World) -> None:
    ann = world.players["Ann"]
    body = get(f"/api/players/{ann.pk}/stats/").json()
    assert body["player"] == {"id": ann.pk, "name": "Ann"}
    assert body["filters"] == {}
    assert (body["counts"]["hands"], body["counts"]["games"], body["counts"]["wins"]) == (8, 4, 2)
    metrics = {m["name"]: m for m in body["metrics"]}
    assert metrics["win_rate"] == {
        "name": "win_rate", "label": "Win", "group": "Wins", "value": 0.25, "percent": True,
        "lower_is_better": False, "denominator": "hands", "denominator_label": "hands", "n": 8,
    }  # fmt: skip
    assert metrics["average_placement"]["value"] == pytest.approx(2.5)
    assert metrics["average_placement"]["lower_is_better"] is True
    assert metrics["tsumo_rate"]["n"] == 2 and metrics["tsumo_rate"]["value"] == 0.5
    assert metrics["ippatsu_rate"]["value"] == 0.0 and metrics["ippatsu_rate"]["n"] == 1  # g3
    expected = player_stats(AnonymousUser(), ann).metrics
    assert {name: m["value"] for name, m in metrics.items()} == expected
    assert body["yaku"][0] == {"name": "tanyao", "wins": 2}
    assert body["han"] == [{"han": 3, "wins": 2}]
    assert body["longest_dealer_streak"] == 1
    # 4-player places 1, 3, 2, 4: (6 x 1/4 + 3 x 1/4) / (1/4) - 2
    assert body["stable_dan"] == pytest.approx(7.0)
    assert body["links"]["series"].endswith(f"/api/players/{ann.pk}/stats/series/")
    assert body["links"]["page"].endswith(f"/stats/players/{ann.pk}/")


def test_filters_narrow_and_are_echoed(world: World) -> None:
    ann, eve = world.id("Ann"), world.id("Eve")
    body = get(
        f"/api/players/{ann}/stats/", opponent=eve, since="2024-03-15", players="4", last="5"
    ).json()
    assert body["filters"] == {"opponent": eve, "since": "2024-03-15", "players": "4", "last": 5}
    assert (body["counts"]["hands"], body["counts"]["games"]) == (3, 1)  # g4 only
    assert body["links"]["facts_csv"].endswith(
        f"/stats/facts.csv?opponent={eve}&since=2024-03-15&players=4&last=5"
    )
    body = get(f"/api/players/{ann}/stats/", ruleset="tenhou-4p").json()
    assert body["counts"]["hands"] == 0
    assert {m["name"]: m["value"] for m in body["metrics"]}["win_rate"] is None


@pytest.mark.parametrize(
    "params",
    [{"last": "0"}, {"ruleset": "chess"}, {"since": "yesterday"}, {"opponent": "x"},
     {"length": "long", "players": "7"}],
)  # fmt: skip
def test_a_bad_filter_is_a_400_naming_it(world: World, params: dict[str, str]) -> None:
    for endpoint in ("stats/", "stats/series/", "stats/facts.csv"):
        body = get(f"/api/players/{world.id('Ann')}/{endpoint}", status=400, **params).json()
        assert set(body) == set(params), endpoint


def test_a_private_game_counts_only_for_who_may_see_it(world: World, bob: Any) -> None:
    url = f"/api/players/{world.id('Ann')}/stats/"
    assert get(url).json()["counts"]["hands"] == 8
    assert get(url, user=bob).json()["counts"]["hands"] == 8
    assert get(url, user=world.alice).json()["counts"]["hands"] == 9


def test_unknown_and_hidden_players_are_404(world: World) -> None:
    hidden = {
        "date": "2024-07-01T10:00:00",
        "seats": (("Zed", 1, 40000), ("Yul", 2, 30000), ("Xia", 3, 20000), ("Wes", 4, 10000)),
        "private": True,
    }
    store(200, hidden, world.alice)
    zed = Player.objects.get(name="Zed").pk
    for endpoint in ("stats/", "stats/series/", "stats/facts.csv"):
        get(f"/api/players/{zed}/{endpoint}", status=404)
        get(f"/api/players/99999/{endpoint}", status=404)
        get(f"/api/players/{zed}/{endpoint}", user=world.alice)
    get("/api/stats/head-to-head/", status=404, a=zed, b=world.id("Ann"))
    get("/api/stats/head-to-head/", status=404, a=world.id("Ann"), b=99999)


# --- Series ---------------------------------------------------------------------------------


def test_the_series(world: World) -> None:
    ann = world.id("Ann")
    body = get(f"/api/players/{ann}/stats/series/", window=2).json()
    assert body["window"] == 2 and body["filters"] == {}
    games = body["games"]
    assert [g["game_id"] for g in games] == [world.games[k].pk for k in ("g1", "g2", "g3", "g4")]
    assert [g["placement"] for g in games] == [1, 3, 2, 4]
    assert [g["points"] for g in games] == [7000, -4900, 5200, -2000]
    assert games[0]["date"].startswith("2024-01-01T10:00:00")
    # The last two games, g3 and g4: 1 + 3 hands, 1 win, 1 deal-in, 1 riichi, 2 called.
    assert games[-1]["rolling"] == pytest.approx(
        {"win_rate": 0.25, "deal_in_rate": 0.25, "riichi_rate": 0.25, "call_rate": 0.5,
         "average_placement": 3.0}
    )  # fmt: skip
    body = get(f"/api/players/{ann}/stats/series/", opponent=world.id("Eve")).json()
    assert body["window"] == 20
    assert [g["game_id"] for g in body["games"]] == [world.games[k].pk for k in ("g3", "g4")]
    assert len(get(f"/api/players/{ann}/stats/series/", user=world.alice).json()["games"]) == 5
    get(f"/api/players/{ann}/stats/series/", status=400, window=0)


# --- Fact rows as CSV -----------------------------------------------------------------------


def csv_rows(response: Any) -> list[dict[str, str]]:
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_the_csv_rows_are_the_fact_rows(world: World) -> None:
    ann = world.players["Ann"]
    response = get(f"/api/players/{ann.pk}/stats/facts.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == f'attachment; filename="player-{ann.pk}-facts.csv"'
    rows = csv_rows(response)
    facts = list(
        RoundFact.objects.filter(player=ann)
        .exclude(game=world.games["g5"])
        .order_by("game__started_at", "round_index")
    )
    assert len(rows) == len(facts) == 8
    assert list(rows[0]) == list(FACT_COLUMNS)
    for row, fact in zip(rows, facts, strict=True):
        assert int(row["game_id"]) == fact.game_id
        assert row["date"] == fact.game.started_at.isoformat()
        assert row["ruleset"] == "tenhou-4p-east" and row["players_count"] == "4"
        assert (int(row["round_index"]), row["round_name"]) == (fact.round_index, fact.round_name)
        assert row["won"] == str(fact.won) and row["dealt_in"] == str(fact.dealt_in)
        assert int(row["delta"]) == fact.delta and int(row["win_points"]) == fact.win_points
        assert row["yaku"] == " ".join(fact.yaku)
        assert row["tenpai_at_draw"] == (
            "" if fact.tenpai_at_draw is None else str(fact.tenpai_at_draw)
        )


def test_the_csv_takes_the_filters_and_the_viewer(world: World) -> None:
    ann = world.id("Ann")
    rows = csv_rows(get(f"/api/players/{ann}/stats/facts.csv", last="1"))
    assert {row["game_id"] for row in rows} == {str(world.games["g4"].pk)} and len(rows) == 3
    assert len(csv_rows(get(f"/api/players/{ann}/stats/facts.csv", user=world.alice))) == 9
    response = APIClient().get(f"/api/players/{ann}/stats/facts.csv", HTTP_ACCEPT="text/csv")
    assert response.status_code == 200 and len(csv_rows(response)) == 8


# --- Head-to-head ---------------------------------------------------------------------------


def test_head_to_head(world: World) -> None:
    ann, ben = world.id("Ann"), world.id("Ben")
    body = get("/api/stats/head-to-head/", a=ann, b=ben).json()
    # g1: Ann 1st, Ben 2nd; g2: Ben 1st, Ann 3rd; g3: Ann 2nd, Ben 4th.
    assert (body["shared_games"], body["compared"], body["a_above"], body["b_above"]) == (
        3,
        3,
        2,
        1,
    )
    assert body["a"] == {"id": ann, "name": "Ann"} and body["b"]["name"] == "Ben"
    assert body["a_stats"]["counts"]["hands"] == 5 and body["b_stats"]["counts"]["games"] == 3
    assert body["a_stats"]["filters"] == {"opponent": ben}
    assert [g["game_id"] for g in body["recent_games"]] == [
        world.games[k].pk for k in ("g3", "g2", "g1")
    ]
    assert body["recent_games"][0] | {"date": None} == {
        "game_id": world.games["g3"].pk, "date": None, "ruleset": "tenhou-4p-east",
        "a_placement": 2, "b_placement": 4, "a_final_score": 30200, "b_final_score": 10000,
    }  # fmt: skip
    mine = get("/api/stats/head-to-head/", user=world.alice, a=ann, b=ben).json()
    assert (mine["shared_games"], mine["a_above"], mine["b_above"]) == (4, 3, 1)
    narrowed = get("/api/stats/head-to-head/", a=ann, b=ben, since="2024-02-15").json()
    assert (narrowed["shared_games"], narrowed["a_above"]) == (1, 1)
    assert narrowed["filters"] == {"since": "2024-02-15"}


@pytest.mark.parametrize(
    ("params", "names"),
    [({"a": "{Ann}"}, {"b"}), ({"a": "x", "b": "{Ann}"}, {"a"}),
     ({"a": "{Ann}", "b": "{Ann}"}, {"b"}), ({"a": "{Ann}", "b": "{Ben}", "last": "0"}, {"last"})],
)  # fmt: skip
def test_head_to_head_refuses_bad_queries(
    world: World, params: dict[str, str], names: set[str]
) -> None:
    query = {
        key: value.format(Ann=world.id("Ann"), Ben=world.id("Ben")) for key, value in params.items()
    }
    body = get("/api/stats/head-to-head/", status=400, **query).json()
    assert set(body) == names


# --- Leaderboard ----------------------------------------------------------------------------


def test_the_leaderboard(world: World) -> None:
    player_summaries_update(player.pk for player in world.players.values())
    body = get("/api/stats/leaderboard/", metric="average_placement", min_games=1).json()
    assert body["metric"]["name"] == "average_placement" and body["metric"]["lower_is_better"]
    assert body["min_games"] == 1 and body["count"] == 5
    rows = body["results"]
    assert [(r["rank"], r["player"]["name"]) for r in rows] == [
        (1, "Cat"), (2, "Eve"), (3, "Ben"), (4, "Ann"), (5, "Dan"),
    ]  # fmt: skip
    assert rows[3] == {
        "rank": 4, "player": {"id": world.id("Ann"), "name": "Ann"}, "value": 2.5, "games": 4,
        "hands": 8,
    }  # fmt: skip
    body = get("/api/stats/leaderboard/", metric="win_rate", min_games=1).json()
    assert [(r["player"]["name"], r["value"]) for r in body["results"]] == [("Ann", 0.25)]
    body = get("/api/stats/leaderboard/", metric="average_placement", min_games=3).json()
    assert [r["player"]["name"] for r in body["results"]] == ["Cat", "Ben", "Ann", "Dan"]
    assert get("/api/stats/leaderboard/").json()["count"] == 0  # 10 games by default
    assert set(get("/api/stats/leaderboard/", status=400, metric="luck").json()) == {"metric"}
    assert set(get("/api/stats/leaderboard/", status=400, min_games=-1).json()) == {"min_games"}
    # Filters rank over the chosen games only (every game here is 4-player).
    four = get("/api/stats/leaderboard/", metric="average_placement", min_games=1, players=4)
    assert [r["player"]["name"] for r in four.json()["results"]] == [
        "Cat", "Eve", "Ben", "Ann", "Dan",
    ]  # fmt: skip
    three = get("/api/stats/leaderboard/", metric="average_placement", min_games=1, players=3)
    assert three.json()["count"] == 0
    assert set(get("/api/stats/leaderboard/", status=400, length="long").json()) == {"length"}


def test_the_leaderboard_pages_rank_on(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    player_summaries_update(player.pk for player in world.players.values())
    monkeypatch.setattr(LeaderboardPagination, "page_size", 2)
    first = get("/api/stats/leaderboard/", metric="average_placement", min_games=1).json()
    assert [r["rank"] for r in first["results"]] == [1, 2] and first["next"]
    second = client_for(None).get(first["next"]).json()
    assert [(r["rank"], r["player"]["name"]) for r in second["results"]] == [(3, "Ben"), (4, "Ann")]
    assert PlayerSummary.objects.count() == 5


# --- Schema ---------------------------------------------------------------------------------


def test_the_schema_lists_the_stats_endpoints() -> None:
    schema = yaml.safe_load(APIClient().get("/api/schema/").content)
    paths = schema["paths"]
    assert {
        "/api/players/{player_id}/stats/",
        "/api/players/{player_id}/stats/series/",
        "/api/players/{player_id}/stats/facts.csv",
        "/api/stats/head-to-head/",
        "/api/stats/leaderboard/",
    } <= set(paths)
    stats_parameters = {
        p["name"] for p in paths["/api/players/{player_id}/stats/"]["get"]["parameters"]
    }
    assert {
        "ruleset",
        "players",
        "length",
        "since",
        "until",
        "last",
        "opponent",
    } <= stats_parameters
    csv_answer = paths["/api/players/{player_id}/stats/facts.csv"]["get"]["responses"]["200"]
    assert set(csv_answer["content"]) == {"text/csv"}
    board = paths["/api/stats/leaderboard/"]["get"]
    assert {"metric", "min_games", "page"} <= {p["name"] for p in board["parameters"]}
