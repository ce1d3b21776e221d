"""Players (searchable; a player seen only in private games stays hidden) and verifications
(filterable by verdict; the report in the single view; private games' verdicts hidden)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from mjlogs.models import Game, Player
from replay.models import Verification
from tests.api.conftest import StoreGame, client_for, self_played_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(store_game: StoreGame, alice: User) -> dict[str, Game]:
    mismatched = self_played_document(2, ("Ann", "Ben", "Cat", "Dan"))
    mismatched["final"]["scores"][0] += 1000  # a recorded final score the rules do not give
    return {
        "public": store_game(self_played_document(1, ("Ann", "Ben", "Cat", "Dan"))),
        "mismatch": store_game(mismatched),
        "private": store_game(
            self_played_document(3, ("Ann", "Zed", "Yul", "Xia")),
            uploader=alice,
            visibility="private",
        ),
    }


def test_players_list_hides_players_seen_only_in_private_games(
    games: dict[str, Game], alice: User
) -> None:
    names = {p["name"] for p in client_for(None).get("/api/players/").json()["results"]}
    assert names == {"Ann", "Ben", "Cat", "Dan"}
    names = {p["name"] for p in client_for(alice).get("/api/players/").json()["results"]}
    assert {"Zed", "Yul", "Xia"} <= names
    zed = Player.objects.get(name="Zed")
    assert client_for(None).get(f"/api/players/{zed.pk}/").status_code == 404
    assert client_for(alice).get(f"/api/players/{zed.pk}/").status_code == 200


def test_player_search_and_detail_link_to_their_games(games: dict[str, Game]) -> None:
    body = client_for(None).get("/api/players/", {"search": "an"}).json()
    assert [p["name"] for p in body["results"]] == ["Ann", "Dan"]
    ann = Player.objects.get(name="Ann")
    detail = client_for(None).get(f"/api/players/{ann.pk}/").json()
    assert detail["names"] == [{"platform": "canonical", "name": "Ann"}]
    listed = client_for(None).get(detail["games"]).json()
    assert {g["id"] for g in listed["results"]} == {games["public"].pk, games["mismatch"].pk}


def test_verifications_filter_by_verdict_and_name_the_discrepancy(games: dict[str, Game]) -> None:
    body = client_for(None).get("/api/verifications/", {"verdict": "score_mismatch"}).json()
    (only,) = body["results"]
    assert only["game_id"] == games["mismatch"].pk
    assert "final" in only["message"].lower() or "score" in only["message"].lower()
    assert "report" not in only
    verified = client_for(None).get("/api/verifications/", {"verdict": "verified"}).json()
    assert [v["game_id"] for v in verified["results"]] == [games["public"].pk]


def test_a_verification_has_the_engines_report(games: dict[str, Game]) -> None:
    game = games["public"]
    body = client_for(None).get(f"/api/verifications/{game.pk}/").json()
    stored = Verification.objects.get(game=game)
    assert body["verdict"] == "verified" and body["engine_version"] == stored.engine_version
    assert len(body["report"]["rounds"]) == game.rounds_count


def test_private_verdicts_are_hidden_from_others(games: dict[str, Game], alice: User) -> None:
    private = games["private"].pk
    anonymous = client_for(None).get("/api/verifications/").json()
    assert private not in {v["game_id"] for v in anonymous["results"]}
    mine = client_for(alice).get("/api/verifications/").json()
    assert private in {v["game_id"] for v in mine["results"]}
