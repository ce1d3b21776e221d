"""The stats pages: a player's statistics (filters, the grouped figures with their
denominators, yaku, han, charts' data, recent games), two players compared, the leaderboard;
on the hand-computed world of ``tests/stats/stats_data.py``."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from mjlogs.models import Player
from stats.catch_up import player_summaries_update
from stats.selectors import player_stats
from stats.templatetags.stats_pages import metric_display
from tests.stats.stats_data import World, build_world, store

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return build_world()


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content[:2000]
    return response.content.decode()


def cell(html: str, metric: str) -> tuple[str, str]:
    """The value cell of a metric: its ``data-value`` and its text."""
    found = re.search(rf'data-metric="{metric}" data-value="([^"]*)">([^<]*)<', html)
    assert found, metric
    return found.group(1), found.group(2)


def count(html: str, name: str) -> int:
    found = re.search(rf'data-count="{name}">(\d+)<', html)
    assert found, name
    return int(found.group(1))


def test_the_player_page_shows_every_figure_with_its_denominator(world: World) -> None:
    ann = world.players["Ann"]
    html = page(Client(), f"/stats/players/{ann.pk}/")
    stats = player_stats(AnonymousUser(), ann)
    for name, value in stats.metrics.items():
        raw, text = cell(html, name)
        assert text == metric_display(value, name)
        assert (float(raw) if raw else None) == (None if value is None else pytest.approx(value))
    # Hands of g1-g4: 2 + 2 + 1 + 3; wins in g1 and g3; four complete games.
    assert (count(html, "hands"), count(html, "games")) == (8, 4)
    assert cell(html, "win_rate")[1] == "25.0%"
    assert cell(html, "average_placement")[1] == "2.50"  # (1 + 3 + 2 + 4) / 4
    assert 'data-n="win_rate">8 <span class="muted">hands' in html
    assert 'data-n="tsumo_rate">2 <span class="muted">wins' in html
    assert 'data-n="riichi_win_rate">2 <span class="muted">riichi hands' in html
    for group in ("Placements", "Hands", "Wins", "Riichi", "Calls", "Deal-ins"):
        assert f"<caption>{group}</caption>" in html
    # Yaku of the two wins (g1: tanyao, pinfu, dora; g3: riichi, menzen tsumo, tanyao).
    assert 'data-yaku="tanyao">2<' in html and 'data-yaku="pinfu">1<' in html
    assert 'data-han="3">2<' in html
    assert 'data-figure="longest_dealer_streak">1 hand<' in html
    assert f'data-figure="yakuman_wins">{stats.counts["yakuman_wins"]}<' in html


def test_the_charts_data_and_recent_games(world: World) -> None:
    ann = world.players["Ann"]
    html = page(Client(), f"/stats/players/{ann.pk}/")
    data = json.loads(re.search(r'id="stats-series"[^>]*>(.*?)</script>', html, re.S).group(1))
    ids = [world.games[key].pk for key in ("g1", "g2", "g3", "g4")]
    assert data["games"] == ids
    assert data["placement"] == [1, 3, 2, 4]
    assert data["points"] == [7000, 7000 - 4900, 7000 - 4900 + 5200, 7000 - 4900 + 5200 - 2000]
    assert data["rolling"]["average_placement"][-1] == pytest.approx(2.5)
    assert data["dates"][0] == "2024-01-01"
    for name in ("chart-placement", "chart-rates", "chart-points"):
        assert f'id="{name}"' in html
    assert "stats/vendor/chart.umd.min.js" in html and "stats/charts.js" in html
    assert "cdn" not in html.lower()
    for game_id in ids:  # newest first, each with its game page and its replay
        assert f'href="/games/{game_id}/"' in html and f'href="/replay/{game_id}/"' in html
    assert html.index(f'data-game="{ids[-1]}"') < html.index(f'data-game="{ids[0]}"')


@pytest.mark.parametrize(
    ("query", "hands", "games"),
    [
        ("opponent={Eve}", 1 + 3, 2),
        ("since=2024-02-15", 1 + 3, 2),
        ("until=2024-02-15&players=4", 2 + 2, 2),
        ("last=1", 3, 1),
        ("length=east_south", 0, 0),
    ],
)
def test_the_filters_narrow_the_page(world: World, query: str, hands: int, games: int) -> None:
    query = query.format(Eve=world.id("Eve"))
    html = page(Client(), f"/stats/players/{world.id('Ann')}/?{query}")
    assert (count(html, "hands"), count(html, "games")) == (hands, games)


def test_the_opponent_is_chosen_among_the_players_met(world: World) -> None:
    html = page(Client(), f"/stats/players/{world.id('Ann')}/")
    assert f'<option value="{world.id("Dan")}">Dan (4 games)</option>' in html
    assert f'<option value="{world.id("Eve")}">Eve (2 games)</option>' in html


@pytest.mark.parametrize("query", ["last=0", "ruleset=chess", "since=yesterday"])
def test_a_bad_filter_is_shown_not_ignored(world: World, query: str) -> None:
    html = page(Client(), f"/stats/players/{world.id('Ann')}/?{query}", status=400)
    assert "A filter value above is not valid" in html
    assert 'class="field has-error"' in html
    assert "data-metric=" not in html


def test_a_private_game_counts_only_for_who_may_see_it(world: World) -> None:
    url = f"/stats/players/{world.id('Ann')}/"
    assert count(page(Client(), url), "hands") == 8
    alice = Client()
    alice.force_login(world.alice)
    assert count(page(alice, url), "hands") == 9  # g5's one hand


def test_unknown_and_hidden_players_are_not_found(world: World) -> None:
    hidden = {
        "date": "2024-07-01T10:00:00",
        "seats": (("Zed", 1, 40000), ("Yul", 2, 30000), ("Xia", 3, 20000), ("Wes", 4, 10000)),
        "private": True,
    }
    store(200, hidden, world.alice)
    zed = Player.objects.get(name="Zed")
    page(Client(), f"/stats/players/{zed.pk}/", status=404)
    page(Client(), "/stats/players/99999/", status=404)
    alice = Client()
    alice.force_login(world.alice)
    page(alice, f"/stats/players/{zed.pk}/")
    page(Client(), f"/stats/compare/?a={zed.pk}&b={world.id('Ann')}", status=404)


def test_the_compare_page_shows_the_head_to_head_record(world: World) -> None:
    ann, ben = world.id("Ann"), world.id("Ben")
    html = page(Client(), f"/stats/compare/?a={ann}&b={ben}")
    # g1: Ann 1st, Ben 2nd; g2: Ben 1st, Ann 3rd; g3: Ann 2nd, Ben 4th.
    assert 'data-h2h="shared">3<' in html
    assert 'data-h2h="a_above">2 <span class="muted">(66.7%)' in html
    assert 'data-h2h="b_above">1 <span class="muted">(33.3%)' in html
    # Ann's average placement over all her games, Ben's, then both in their shared games.
    places = re.findall(r'data-metric="average_placement"[^>]*>([^<]*) <span', html)
    assert places == ["2.50", f"{7 / 3:.2f}", "2.00", f"{7 / 3:.2f}"]
    for key in ("g1", "g2", "g3"):
        assert f'data-game="{world.games[key].pk}"' in html
    assert f'data-game="{world.games["g4"].pk}"' not in html


def test_the_compare_page_asks_for_two_different_players(world: World) -> None:
    ann = world.id("Ann")
    html = page(Client(), "/stats/compare/")
    assert 'name="a"' in html and 'name="b"' in html
    html = page(Client(), f"/stats/compare/?a={ann}")  # the second among those she met
    assert '<option value="Ben">Ben · ' in html and " · 3 together</option>" in html
    html = page(Client(), f"/stats/compare/?a={ann}&b={ann}", status=400)
    assert "Choose two different players." in html
    page(Client(), f"/stats/compare/?a={ann}&b=x", status=400)


def leaderboard_rows(html: str) -> list[int]:
    return [int(found) for found in re.findall(r'<tr data-player="(\d+)">', html)]


def test_the_leaderboard_ranks_by_the_chosen_metric(world: World) -> None:
    player_summaries_update(player.pk for player in world.players.values())
    ids = {name: world.id(name) for name in world.players}
    html = page(Client(), "/stats/leaderboard/?metric=average_placement&min_games=1")
    # Cat 2.0 (3 games) before Eve 2.0 (2 games), Ben 7/3, Ann 2.5, Dan 3.25.
    assert leaderboard_rows(html) == [ids[n] for n in ("Cat", "Eve", "Ben", "Ann", "Dan")]
    assert "lowest first" in html
    html = page(Client(), "/stats/leaderboard/?metric=average_placement&min_games=3")
    assert leaderboard_rows(html) == [ids[n] for n in ("Cat", "Ben", "Ann", "Dan")]
    html = page(Client(), "/stats/leaderboard/?metric=win_rate&min_games=1")
    assert leaderboard_rows(html) == [ids["Ann"]] and "25.0%" in html
    assert leaderboard_rows(page(Client(), "/stats/leaderboard/")) == []  # 10 games by default
    page(Client(), "/stats/leaderboard/?metric=luck", status=400)
    page(Client(), "/stats/leaderboard/?min_games=-1", status=400)


def test_the_stats_pages_are_linked(world: World) -> None:
    html = page(Client(), f"/players/{world.id('Ann')}/")
    assert f'href="/stats/players/{world.id("Ann")}/"' in html
    assert 'href="/stats/leaderboard/"' in html  # the header's navigation


def test_a_selection_without_games_has_an_empty_page(world: World) -> None:
    eve = world.id("Eve")  # no fact rows, two games
    html = page(Client(), f"/stats/players/{eve}/?players=3")
    assert "No game to chart." in html and count(html, "games") == 0
    assert cell(html, "win_rate")[1] == "—"
