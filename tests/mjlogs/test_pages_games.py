"""The game list and the game page: who sees what, filters, pagination, and what a game page
shows (players, scores, the verdict with its first discrepancy, the hands as the engine values
them)."""

from __future__ import annotations

import dataclasses

import pytest
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils.html import escape

from engine.formats import canonical
from engine.replay import replay
from mjlogs import game_summary, selectors
from mjlogs.models import Game, Visibility
from mjlogs.templatetags.mjlogs_pages import MINUS, rows_digest
from mjlogs.views.common import paginate_games
from replay.models import Verdict
from replay.services import game_verify
from tests.mjlogs.conftest import Store, Users
from tests.mjlogs.pages import (
    EAST_3P,
    engine_game,
    listed_game_ids,
    plain,
    rows,
    text,
    with_wrong_points,
)

pytestmark = pytest.mark.django_db


# -- Who sees which games -----------------------------------------------------------------------


@pytest.fixture
def public_and_private(users: Users, store: Store) -> tuple[Game, Game]:
    public = store(engine_game(seed=1, number=0), uploader=users.alice)
    private = store(
        engine_game(seed=1, number=1), uploader=users.alice, visibility=Visibility.PRIVATE
    )
    return public, private


def test_the_list_shows_public_games_and_hides_private_ones_from_others(
    client: Client, users: Users, public_and_private: tuple[Game, Game]
) -> None:
    public, _ = public_and_private
    response = client.get("/games/")
    assert response.status_code == 200
    assert listed_game_ids(response) == {public.pk}
    client.force_login(users.bob)
    assert listed_game_ids(client.get("/games/")) == {public.pk}


@pytest.mark.parametrize("who", ["alice", "staff"])
def test_the_uploader_and_staff_see_a_private_game(
    client: Client, users: Users, public_and_private: tuple[Game, Game], who: str
) -> None:
    public, private = public_and_private
    client.force_login(getattr(users, who))
    assert listed_game_ids(client.get("/games/")) == {public.pk, private.pk}
    assert client.get(f"/games/{private.pk}/").status_code == 200


def test_a_private_game_is_not_found_for_others(
    client: Client, users: Users, public_and_private: tuple[Game, Game]
) -> None:
    public, private = public_and_private
    assert client.get(f"/games/{private.pk}/").status_code == 404
    client.force_login(users.bob)
    assert client.get(f"/games/{private.pk}/").status_code == 404
    assert client.get(f"/games/{public.pk}/").status_code == 200
    assert client.get("/games/999999/").status_code == 404


def test_the_list_row_shows_players_scores_places_verdict_and_format(
    client: Client, store: Store
) -> None:
    game = store(engine_game(names=("Ann", "Ben", "Cho", "Dai"), started_at="2024-01-10T09:30"))
    (row,) = rows(text(client.get("/games/")), "games")
    words = plain(row)
    assert "2024-01-10 09:30" in words
    assert "tenhou-4p-east" in words and "canonical" in words and "Verified" in words
    for seat in game.seats.all():
        assert f"{seat.player.name} {seat.final_score:,}" in words
        assert f'href="/players/{seat.player_id}/"' in row
    first = game.seats.get(placement=1)
    assert f"{first.player.name} {first.final_score:,} 1st" in words
    assert '<span class="badge badge-verified">Verified</span>' in row
    # The links to the game page and the viewer name the game for screen readers.
    title = f'<span class="visually-hidden"> {game.source_id}</span>'
    assert f'<a href="/games/{game.pk}/">View{title}</a>' in row
    assert f'<a href="{reverse("replay:viewer", args=(game.pk,))}">Replay{title}</a>' in row


def test_a_game_not_yet_verified_is_listed_as_such(client: Client, store: Store) -> None:
    game = store(engine_game(names=("Ann", "Ben", "Cho", "Dai")), verify=False)
    (row,) = rows(text(client.get("/games/")), "games")
    assert '<span class="badge badge-pending">Not verified yet</span>' in row
    assert f'href="/games/{game.pk}/"' in row


def test_the_table_is_rendered_once_for_the_same_rows_and_again_when_they_change(
    client: Client, store: Store, rf: RequestFactory
) -> None:
    from django.contrib.auth.models import AnonymousUser

    game = store(engine_game(names=("Ann", "Ben", "Cho", "Dai")), verify=False)
    assert "Not verified yet" in text(client.get("/games/"))
    # The table's HTML is cached under its rows' digest: replace it, and the page shows that.
    request = rf.get("/games/")
    request.user = AnonymousUser()
    table_rows = paginate_games(request, selectors.game_list(request.user)).object_list
    key = make_template_fragment_key(
        "games_table", [rows_digest(table_rows), "", "en"]
    )  # no highlight, in English
    assert cache.get(key) is not None
    cache.set(key, "<p>the cached table</p>")
    assert "<p>the cached table</p>" in text(client.get("/games/"))
    # A verdict makes other rows, so another key: never the stale table.
    game_verify(game.pk)
    page = text(client.get("/games/"))
    assert "<p>the cached table</p>" not in page
    (row,) = rows(page, "games")
    assert '<span class="badge badge-verified">Verified</span>' in row


# -- Filters and pages --------------------------------------------------------------------------


@pytest.fixture
def catalog(store: Store) -> dict[str, Game]:
    """Games that differ in one way each from the first."""
    return {
        "base": store(
            engine_game(seed=1, names=("Ann", "Ben", "Cho", "Dai"), started_at="2024-01-10")
        ),
        "tenhou6": store(
            engine_game(seed=1, number=1, names=("Eve", "Fay", "Gus", "Hal")),
            file_format="tenhou6",
            name="game.json",
        ),
        "sanma": store(
            engine_game(EAST_3P, seed=2, names=("Ivy", "Jon", "Kim"), started_at="2024-02-01")
        ),
        "mismatch": store(
            with_wrong_points(
                engine_game(seed=3, names=("Lea", "Max", "Ned", "Oto"), started_at="2024-04-01")
            )
        ),
        "pending": store(
            engine_game(seed=4, names=("Pia", "Quy", "Rui", "Sam"), started_at="2024-05-01"),
            verify=False,
        ),
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", {"base", "tenhou6", "sanma", "mismatch", "pending"}),
        ("player=ann", {"base"}),
        ("player=QU", {"pending"}),  # Quy: in part, any case
        ("ruleset=tenhou-3p-east", {"sanma"}),
        ("players=3", {"sanma"}),
        ("players=4", {"base", "tenhou6", "mismatch", "pending"}),
        ("since=2024-02-01", {"sanma", "mismatch", "pending"}),
        ("until=2024-02-01", {"base", "sanma"}),
        ("since=2024-02-02&until=2024-04-30", {"mismatch"}),
        ("verdict=verified", {"base", "tenhou6", "sanma"}),
        ("verdict=score_mismatch", {"mismatch"}),
        ("verdict=pending", {"pending"}),
        ("source=tenhou6", {"tenhou6"}),
        ("source=canonical&players=4&verdict=verified", {"base"}),
    ],
)
def test_every_filter_narrows_the_list(
    client: Client, catalog: dict[str, Game], query: str, expected: set[str]
) -> None:
    response = client.get(f"/games/?{query}")
    assert response.status_code == 200
    assert listed_game_ids(response) == {catalog[name].pk for name in expected}
    assert f"{len(expected)} game" in text(response)


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("since=yesterday", "Enter a valid date."),
        ("ruleset=no-such-rules", "Select a valid choice."),
        ("players=7", "Select a valid choice."),
        ("verdict=perfect", "Select a valid choice."),
    ],
)
def test_a_bad_filter_value_shows_an_error_and_no_unfiltered_list(
    client: Client, catalog: dict[str, Game], query: str, error: str
) -> None:
    response = client.get(f"/games/?{query}")
    assert response.status_code == 200
    page = text(response)
    assert error in page
    assert "is not valid: correct it" in page
    assert listed_game_ids(response) == set()


def test_the_filter_form_keeps_the_values_it_was_given(
    client: Client, catalog: dict[str, Game]
) -> None:
    page = text(client.get("/games/?player=Ann&since=2024-01-01&players=4"))
    assert 'name="player" value="Ann"' in page
    assert 'type="date" name="since" value="2024-01-01"' in page
    assert '<option value="4" selected>' in page


def test_pages_of_the_list_keep_the_filter(
    client: Client, catalog: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("mjlogs.views.common.PAGE_SIZE", 2)
    four_players = {catalog[name].pk for name in ("base", "tenhou6", "mismatch", "pending")}
    first = client.get("/games/?players=4")
    assert len(listed_game_ids(first)) == 2
    assert "Page 1 of 2" in text(first)
    assert 'href="?players=4&amp;page=2"' in text(first)
    second = client.get("/games/?players=4&page=2")
    assert "Page 2 of 2" in text(second)
    assert listed_game_ids(first) | listed_game_ids(second) == four_players
    assert 'href="?players=4&amp;page=1"' in text(second)
    # Past the end: the last page; not a number: the first.
    assert listed_game_ids(client.get("/games/?players=4&page=9")) == listed_game_ids(second)
    assert listed_game_ids(client.get("/games/?players=4&page=x")) == listed_game_ids(first)


# -- The game page ------------------------------------------------------------------------------


def test_the_game_page_shows_players_scores_and_the_verdict(client: Client, store: Store) -> None:
    game = store(engine_game(names=("Ann", "Ben", "Cho", "Dai")))
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = text(response)
    assert "<h1>tenhou-4p-east-seed-1-0</h1>" in page
    assert "Verified" in page and "Every action was legal" in page
    players = rows(page, "players")
    for seat, row in zip(game.seats.order_by("seat"), players, strict=True):
        assert f'<a href="/players/{seat.player_id}/">{seat.player.name}</a>' in row
        assert f"{seat.start_score:,}" in row and f"{seat.final_score:,}" in row
    assert plain(players[0]).startswith("East Ann")
    # Downloads point at the REST API, and each of them works.
    links = [f"/api/games/{game.pk}/raw/"]
    links += [f"/api/games/{game.pk}/export/{fmt}/" for fmt in ("canonical", "tenhou6", "mjai")]
    for link in links:
        assert f'href="{link}"' in page
        download = client.get(link)
        assert download.status_code == 200 and download["Content-Disposition"].startswith(
            "attachment"
        )


def test_the_hands_table_matches_the_engines_report(client: Client, store: Store) -> None:
    played = engine_game(names=("Ann", "Ben", "Cho", "Dai"))
    game = store(played)
    report = replay(played)
    names = ["Ann", "Ben", "Cho", "Dai"]
    table = rows(text(client.get(f"/games/{game.pk}/")), "rounds")
    assert len(table) == len(report.rounds) == game.rounds_count
    for row, summary in zip(table, report.rounds, strict=True):
        words = plain(row)
        assert words.startswith(summary.name)
        for win in summary.wins:
            how = "tsumo" if win.from_seat == win.seat else f"ron from {names[win.from_seat]}"
            assert f"{names[win.seat]} {how}: {win.han} han {win.fu} fu" in words
            assert f"{win.points:,}" in words
            for yaku, han in win.yaku:
                assert f"{yaku.replace('_', ' ')} {han}" in words
        for delta, after in zip(summary.deltas, summary.scores_after, strict=True):
            sign = "+" if delta > 0 else MINUS if delta < 0 else ""
            assert f"{sign}{abs(delta):,} {after:,}" in words


def test_a_score_mismatch_shows_the_first_discrepancy_in_words(
    client: Client, store: Store
) -> None:
    game = store(with_wrong_points(engine_game(seed=3)))
    verification = game.verification
    assert verification.verdict == Verdict.SCORE_MISMATCH
    page = text(client.get(f"/games/{game.pk}/"))
    assert "Score mismatch" in page
    discrepancy = verification.discrepancy
    assert "points: the rules give" in verification.message
    hand = discrepancy["round"] + 1
    # The player by name (the engine counts seats from 0), the figures with their unit.
    winner = game.document["players"][int(discrepancy["what"].split()[1].rstrip("'s"))]["name"]
    words = plain(page.split('<div class="discrepancy" id="discrepancy">', 1)[1].split("</div>")[0])
    assert words == (
        f"In hand {hand} ({discrepancy['round_name']}), {winner}\u2019s win, points: the rules "
        f"give {int(discrepancy['expected']):,} points; the record says "
        f"{int(discrepancy['found']):,} points. See hand {hand} ({discrepancy['round_name']}) below"
    )
    assert escape(verification.message) not in page  # the engine's own wording stays in the API
    assert f'<a href="#hand-{hand}">' in page and f'<tr id="hand-{hand}"' in page
    (marked,) = [row for row in rows(page, "rounds") if "The first discrepancy" in row]
    assert plain(marked).startswith(discrepancy["round_name"])


def test_an_unverified_game_shows_the_hands_as_recorded(client: Client, store: Store) -> None:
    played = engine_game(names=("Ann", "Ben", "Cho", "Dai"))
    game = store(played, verify=False)
    page = text(client.get(f"/games/{game.pk}/"))
    assert "Not verified yet" in page and "has not checked this game yet" in page
    assert "As the record states it" in page
    table = rows(page, "rounds")
    assert len(table) == game.rounds_count
    document = canonical.game_to_json(played)
    win = document["rounds"][0]["events"][-1]
    assert win["type"] == "win"
    assert f"{win['recorded']['points']:,}" in plain(table[0])
    assert ["Ann", "Ben", "Cho", "Dai"][win["seat"]] in plain(table[0])


def test_the_game_page_refuses_post(client: Client, store: Store) -> None:
    game = store(engine_game())
    assert client.post(f"/games/{game.pk}/").status_code == 405


# -- The hands' rows (game_summary.game_round_rows) ------------------------------------------------


def test_round_rows_of_draws_and_a_double_ron(store: Store) -> None:
    draws = store(engine_game(seed=4, names=("Ann", "Ben", "Cho", "Dai")))
    rows_ = game_summary.game_round_rows(draws)
    exhaustive = [row for row in rows_ if row.result == "exhaustive_draw"]
    assert [row.tenpai for row in exhaustive] == [
        ["Ann", "Ben", "Cho", "Dai"],
        ["Ben", "Cho", "Dai"],
    ]
    assert all(row.result_label == "Exhaustive draw" and not row.wins for row in exhaustive)

    double = store(engine_game(seed=3, number=1, names=("Eve", "Fay", "Gus", "Hal")))
    (two_wins,) = [row for row in game_summary.game_round_rows(double) if len(row.wins) == 2]
    report = replay(engine_game(seed=3, number=1, names=("Eve", "Fay", "Gus", "Hal")))
    (summary,) = [summary for summary in report.rounds if len(summary.wins) == 2]
    names = ["Eve", "Fay", "Gus", "Hal"]
    assert [(win.winner, win.from_player, win.points) for win in two_wins.wins] == [
        (names[win.seat], names[win.from_seat], win.points) for win in summary.wins
    ]
    assert two_wins.deltas == summary.deltas


def test_round_rows_of_an_abortive_draw_from_the_report_and_from_the_record(
    store: Store,
) -> None:
    verified = store(engine_game(EAST_3P, seed=6, names=("Ivy", "Jon", "Kim")))
    (abort,) = [row for row in game_summary.game_round_rows(verified) if row.abort]
    assert abort.result == "abortive_draw" and abort.abort.startswith("Nine terminals")
    unverified = store(engine_game(EAST_3P, seed=3, number=1), verify=False)
    (recorded,) = [row for row in game_summary.game_round_rows(unverified) if row.abort]
    assert (recorded.name, recorded.abort) == ("E1", abort.abort)


def test_the_game_page_says_plainly_when_only_part_of_a_game_was_checked(
    client: Client, store: Store
) -> None:
    whole = engine_game(seed=4, names=("Ann", "Ben", "Cat", "Dan"))
    cut = dataclasses.replace(whole, rounds=whole.rounds[1:])
    fragment = store(cut)
    assert fragment.verification.verdict == Verdict.VERIFIED_FRAGMENT
    page = text(client.get(f"/games/{fragment.pk}/"))
    assert "Verified (part of a game)" in page
    assert "Only part of a game was checked" in page
    assert "it starts after the game\u2019s first hand" in page
    assert "from the first hand to the end of the game" not in page
    game = store(engine_game(seed=5, names=("Eve", "Fay", "Gus", "Hal")), name="whole.json")
    whole_page = text(client.get(f"/games/{game.pk}/"))
    assert "from the first hand to the end of the game" in whole_page
    assert "Only part of a game was checked" not in whole_page
    api = client.get(f"/api/games/{fragment.pk}/").json()
    assert api["verdict"] == "verified_fragment"
