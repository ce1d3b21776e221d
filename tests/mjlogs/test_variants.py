"""Every variant the engine plays goes through the whole service: one self-played game of each
(space mahjong, small mahjong in all its presets, riichi with the lucky-sevens modifier, Ùzje
mahjong for 3 to 6 players) is uploaded through the import service, verified, shown, listed,
downloaded, refused by the riichi-only exports, and counted by the statistics (issue 7)."""

from __future__ import annotations

import functools
import json
import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from config import compression
from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.rules.presets import get_ruleset
from engine.sim.bots import GreedyBot
from engine.sim.selfplay import play_game, simulate
from engine.variants.uzje.selfplay import simulate as uzje_simulate
from engine.variants.uzje.tiles import format_tiles, parse_tile
from mjlogs.archives import UploadedFile
from mjlogs.importing import Status, import_files
from mjlogs.models import Game, GameSeat
from mjlogs.templatetags.mjlogs_pages import MINUS
from replay.models import Verdict, Verification
from replay.services import game_verify
from stats.models import RatingChange, RoundFact
from stats.selectors import player_stats
from stats.services import ratings_recompute

pytestmark = pytest.mark.django_db

RIICHI_VARIANTS = ("space-4p", "small-4p", "small-4p-10", "small-4p-7", "small-4p-4")
RIICHI_VARIANTS += ("small-3p", "small-2p")
LUCKY_SEVENS = "tenhou-4p+lucky_sevens"
UZJE = ("uzje-3p", "uzje-4p", "uzje-5p", "uzje-6p")
VARIANTS = (*RIICHI_VARIANTS, LUCKY_SEVENS, *UZJE)

#: How the riichi-only writers name each variant (engine/formats/riichi_only.py).
VARIANT_WORDS = {"space": "space", "small": "small", "tenhou": "lucky_sevens", "uzje": "Ùzje"}


@functools.cache
def variant_game(variant: str) -> EngineGame:
    """One self-played game of the variant (cached: self-play is the slow part)."""
    if variant == LUCKY_SEVENS:
        ruleset = get_ruleset("tenhou-4p").replace(modifiers=("lucky_sevens",))
        rng = random.Random("lucky-sevens-0")
        return play_game(ruleset, [GreedyBot() for _ in range(4)], rng, game_id="lucky-7-0")
    if variant.startswith("uzje"):
        return uzje_simulate(1, 7, variant)[0]
    return next(simulate(variant, 1, 7))


def _players(variant: str) -> int:
    return len(variant_game(variant).header.players)


@pytest.fixture(params=VARIANTS)
def variant(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def stored(variant: str, django_capture_on_commit_callbacks: Any) -> Game:
    """The variant's game uploaded as a canonical file, verified as after the commit."""
    data = canonical.write([variant_game(variant)])
    with django_capture_on_commit_callbacks(execute=True):
        summary = import_files([UploadedFile(f"{variant}.json", data)])
    (outcome,) = summary.outcomes
    assert outcome.status is Status.IMPORTED, outcome
    return Game.objects.get(pk=outcome.game_id)


def test_the_game_is_stored_once_with_its_rule_set_and_players(variant: str, stored: Game) -> None:
    game = variant_game(variant)
    assert stored.ruleset == game.header.ruleset
    assert stored.players_count == _players(variant)
    assert GameSeat.objects.filter(game=stored).count() == _players(variant)
    if variant == LUCKY_SEVENS:
        assert stored.rule_overrides == {"modifiers": ["lucky_sevens"]}
    again = import_files([UploadedFile("again.json", canonical.write([game]))])
    (outcome,) = again.outcomes
    assert (outcome.status, outcome.game_id) == (Status.DUPLICATE, stored.pk)
    assert Game.objects.count() == 1


def test_the_game_verifies_and_verifying_again_changes_nothing(stored: Game) -> None:
    verification = Verification.objects.get(game=stored)
    assert verification.verdict == Verdict.VERIFIED, verification.message
    assert verification.complete
    facts = RoundFact.objects.filter(game=stored).count()
    assert facts == stored.rounds_count * stored.players_count
    again = game_verify(stored.pk)
    assert again is not None and again.verdict == Verdict.VERIFIED
    assert RoundFact.objects.filter(game=stored).count() == facts


def test_the_game_page_and_the_viewer_answer(client: Client, stored: Game) -> None:
    page = client.get(f"/games/{stored.pk}/")
    assert page.status_code == 200
    assert stored.ruleset in page.content.decode()
    assert client.get(f"/replay/{stored.pk}/").status_code == 200


def test_the_frames_api_says_the_tile_notation_of_the_round(
    client: Client, variant: str, stored: Game
) -> None:
    body = client.get(f"/api/games/{stored.pk}/rounds/0/frames/").json()
    assert body["players_count"] == _players(variant)
    # Ùzje tiles are UJMJ codes: the round says so, not only each frame.
    assert body.get("notation", "mpsz") == ("uzje" if variant in UZJE else "mpsz")
    assert {frame.get("notation", "mpsz") for frame in body["frames"]} == {
        body.get("notation", "mpsz")
    }


def test_the_game_list_filters_by_its_player_count_and_rule_set(
    client: Client, variant: str, stored: Game
) -> None:
    players = _players(variant)
    listed = client.get("/games/", {"players": players, "ruleset": stored.ruleset})
    assert listed.status_code == 200
    assert f"/games/{stored.pk}/" in listed.content.decode()
    other = 4 if players != 4 else 3
    elsewhere = client.get("/games/", {"players": other})
    assert elsewhere.status_code == 200
    assert f"/games/{stored.pk}/" not in elsewhere.content.decode()
    api = client.get("/api/games/", {"players": players, "ruleset": stored.ruleset})
    assert api.status_code == 200
    assert [game["id"] for game in api.json()["results"]] == [stored.pk]


def test_the_canonical_and_original_downloads_work(
    client: Client, variant: str, stored: Game
) -> None:
    exported = client.get(f"/api/games/{stored.pk}/export/canonical/")
    assert exported.status_code == 200
    assert canonical.loads(exported.content) == [variant_game(variant)]
    raw = client.get(f"/api/games/{stored.pk}/raw/")
    assert raw.status_code == 200
    assert raw.content == compression.decompress(stored.raw)
    assert json.loads(raw.content)["ruleset"] == stored.ruleset


@pytest.mark.parametrize("fmt", ["tenhou6", "mjai"])
def test_riichi_only_exports_refuse_the_variant_by_name(
    client: Client, variant: str, stored: Game, fmt: str
) -> None:
    response = client.get(f"/api/games/{stored.pk}/export/{fmt}/")
    assert response.status_code == 400
    (message,) = response.json()["format"]
    assert "holds riichi mahjong games" in message
    assert VARIANT_WORDS[variant.split("-")[0]].lower() in message.lower()


def test_the_players_statistics_count_the_game(variant: str, stored: Game) -> None:
    seat = GameSeat.objects.filter(game=stored, seat=0).select_related("player").get()
    stats = player_stats(AnonymousUser(), seat.player)
    assert stats.counts["hands"] == stored.rounds_count
    assert stats.counts["games"] == 1
    wins = RoundFact.objects.filter(game=stored, seat=0, won=True).count()
    assert stats.counts["wins"] == wins


def test_ratings_skip_games_of_player_counts_tenhou_r_does_not_rate(
    variant: str, stored: Game
) -> None:
    ratings_recompute()
    rated = RatingChange.objects.filter(game=stored).count()
    # Tenhou R is defined for 3 and 4 players; a 2, 5 or 6 player game is left out.
    assert rated == (_players(variant) if _players(variant) in (3, 4) else 0)


# -- Limit hands are counted from the engine's limits, not from han ----------------------------


def test_a_limit_hand_is_a_yakuman_or_an_uzje_limit_never_a_count_of_small_points(
    variant: str, stored: Game
) -> None:
    """``han`` means points in small mahjong and fan tenths in Ùzje: 13 of them is no limit."""
    report = Verification.objects.get(game=stored).report
    limits = {
        (summary["index"], win["seat"])
        for summary in report["rounds"]
        for win in summary["wins"]
        if win["limit"] and re.fullmatch(r".*yakuman|\d+l", win["limit"])
    }
    flagged = set(
        RoundFact.objects.filter(game=stored, limit_hand=True).values_list("round_index", "seat")
    )
    assert flagged == limits
    seat = GameSeat.objects.filter(game=stored, seat=0).select_related("player").get()
    counts = player_stats(AnonymousUser(), seat.player).counts
    assert counts["yakuman_wins"] == len({(r, s) for r, s in limits if s == 0})


def test_the_han_distribution_counts_riichi_han_only(variant: str, stored: Game) -> None:
    seat = GameSeat.objects.filter(game=stored, seat=0).select_related("player").get()
    stats = player_stats(AnonymousUser(), seat.player)
    if variant.startswith(("small", "uzje")):
        assert stats.han == {}
    else:
        assert sum(stats.han.values()) == stats.counts["wins"]


# -- The game page's hand table speaks each variant's units ------------------------------------


def test_an_uzje_win_shows_fan_and_the_winning_hand_in_ujmj_notation(client: Client) -> None:
    game = variant_game("uzje-4p")
    document = canonical.game_to_json(game)
    (outcome,) = import_files([UploadedFile("u.json", canonical.write([game]))]).outcomes
    game_verify(outcome.game_id)
    html = client.get(f"/games/{outcome.game_id}/").content.decode()
    win = next(
        event
        for round_ in document["rounds"]
        for event in round_["events"]
        if event["type"] == "win"
    )
    # seeds/002: fan is stored in tenths; 26 tenths is shown as 2.6 fan, never "26 han"
    fan = win["recorded"]["han"]
    assert f"{fan / 10:g} fan" in html
    assert f"{fan} han" not in html
    # The hand is written in UJMJ notation (engine.variants.uzje.tiles.format_tiles).
    tiles = [parse_tile(text) for text in win["recorded"]["hand"]]
    assert f'<span class="tiles" title="winning hand, UJMJ notation">{format_tiles(tiles)}' in html


def test_an_uzje_self_draw_paid_exactly_half_shows_its_halves(client: Client) -> None:
    # seeds/002 line 134: a 5-point self-draw is paid 2.5 by each other player (the presets'
    # self_draw_rounding "exact"); the hand table shows the halves, not whole points.
    game = variant_game("uzje-4p")
    (outcome,) = import_files([UploadedFile("h.json", canonical.write([game]))]).outcomes
    game_verify(outcome.game_id)
    report = Verification.objects.get(game_id=outcome.game_id).report
    assert any(7.5 in summary["deltas"] for summary in report["rounds"]), "no 5-point self-draw"
    html = client.get(f"/games/{outcome.game_id}/").content.decode()
    assert "+7.5" in html and f"{MINUS}2.5" in html


def test_a_small_mahjong_win_shows_points_not_han(client: Client) -> None:
    game = variant_game("small-4p")
    (outcome,) = import_files([UploadedFile("s.json", canonical.write([game]))]).outcomes
    game_verify(outcome.game_id)
    html = client.get(f"/games/{outcome.game_id}/").content.decode()
    report = Verification.objects.get(game_id=outcome.game_id).report
    wins = [win for summary in report["rounds"] for win in summary["wins"]]
    assert wins, "the self-played game has a win"
    for win in wins:
        unit = "point" if win["han"] == 1 else "points"
        assert f"{win['han']} {unit}" in html
    assert " han" not in html.split('id="rounds-heading"')[1]


def test_the_seats_keep_halves_rounded_away_from_zero() -> None:
    from engine.game_flow import whole_points

    assert [whole_points(x) for x in (7.5, -2.5, 2.4, -2.6, 0.5, -0.5, 25_000)] == [
        8, -3, 2, -3, 1, -1, 25_000
    ]  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_an_uzje_match_with_halves_is_stored_with_its_seats_in_whole_points() -> None:
    (match,) = uzje_simulate(1, 3, "uzje-4p")  # it ends with halves: -43.5, -2.5, 32.5, 13.5
    final = match.recorded_final
    assert final is not None and any(score != int(score) for score in final.scores)
    (outcome,) = import_files([UploadedFile("m.json", canonical.write([match]))]).outcomes
    seats = GameSeat.objects.filter(game_id=outcome.game_id).order_by("seat")
    expected = [int(score + 0.5) if score >= 0 else -int(-score + 0.5) for score in final.scores]
    assert [seat.final_score for seat in seats] == expected
    assert Verification.objects.get(game_id=outcome.game_id).verdict == Verdict.VERIFIED
