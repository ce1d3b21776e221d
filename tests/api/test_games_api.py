"""The games endpoints: list with filters and pagination, one game, its document, exports, the
original file; deleting and changing visibility (uploader or staff only); private games are
invisible to everyone else, in lists and by id."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from config import compression
from engine.formats import canonical, read_games
from engine.formats import tenhou6 as tenhou6_format
from engine.sim.selfplay import simulate
from mjlogs.models import Game, GameSeat, Player
from replay.models import Verdict, Verification
from tests.api.conftest import StoreGame, client_for, self_played_document

pytestmark = pytest.mark.django_db


def listed_ids(response: object) -> set[int]:
    body = response.json()  # type: ignore[attr-defined]
    return {game["id"] for game in body["results"]}


@pytest.fixture
def three_games(store_game: StoreGame, alice: User, bob: User) -> dict[str, Game]:
    return {
        "public": store_game(self_played_document(1, ("Ann", "Ben", "Cat", "Dan")), uploader=alice),
        "alices_private": store_game(
            self_played_document(2, ("Ann", "Eve", "Fay", "Gus")),
            uploader=alice,
            visibility="private",
        ),
        "bobs": store_game(self_played_document(3, ("Hal", "Ian", "Jon", "Kim")), uploader=bob),
    }


def test_anonymous_list_shows_public_games_only(three_games: dict[str, Game]) -> None:
    response = client_for(None).get("/api/games/")
    assert response.status_code == 200
    assert listed_ids(response) == {three_games["public"].pk, three_games["bobs"].pk}
    assert response.json()["count"] == 2


def test_the_uploader_and_staff_see_a_private_game(
    three_games: dict[str, Game], alice: User, bob: User, staff: User
) -> None:
    private = three_games["alices_private"].pk
    assert private in listed_ids(client_for(alice).get("/api/games/"))
    assert private in listed_ids(client_for(staff).get("/api/games/"))
    assert private not in listed_ids(client_for(bob).get("/api/games/"))


@pytest.mark.parametrize("who", ["anonymous", "bob"])
@pytest.mark.parametrize("suffix", ["", "document/", "export/canonical/", "raw/"])
def test_a_private_game_is_not_found_by_anyone_else(
    three_games: dict[str, Game], bob: User, who: str, suffix: str
) -> None:
    client = client_for(bob if who == "bob" else None)
    response = client.get(f"/api/games/{three_games['alices_private'].pk}/{suffix}")
    assert response.status_code == 404
    assert response.status_code == 404
    assert client.get(f"/api/verifications/{three_games['alices_private'].pk}/").status_code == 404


def test_a_game_in_the_list_has_seats_players_and_verdict(three_games: dict[str, Game]) -> None:
    game = three_games["public"]
    body = client_for(None).get("/api/games/", {"player": "ben"}).json()
    (listed,) = body["results"]
    assert listed["id"] == game.pk and listed["verdict"] == Verdict.VERIFIED
    assert [seat["player"]["name"] for seat in listed["seats"]] == ["Ann", "Ben", "Cat", "Dan"]
    seats = GameSeat.objects.filter(game=game).order_by("seat")
    assert [seat["final_score"] for seat in listed["seats"]] == [s.final_score for s in seats]
    assert sorted(seat["placement"] for seat in listed["seats"]) == [1, 2, 3, 4]
    assert listed["uploader"] == "alice"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"player": "ann"}, {"public"}),  # alice's private game has Ann too, but is hidden
        ({"player": "HAL"}, {"bobs"}),
        ({"ruleset": "tenhou-4p-east"}, {"public", "bobs"}),
        ({"ruleset": "tenhou-4p"}, set()),
        ({"players": "3"}, set()),
        ({"verdict": "verified"}, {"public", "bobs"}),
        ({"verdict": "score_mismatch"}, set()),
        ({"source": "canonical"}, {"public", "bobs"}),
        ({"source": "mjlog"}, set()),
    ],
)
def test_filters_narrow_the_list(
    three_games: dict[str, Game], query: dict[str, str], expected: set[str]
) -> None:
    ids = listed_ids(client_for(None).get("/api/games/", query))
    assert ids == {three_games[key].pk for key in expected}


def test_player_id_filter_and_date_range(three_games: dict[str, Game]) -> None:
    ann = Player.objects.get(name="Ann")
    assert listed_ids(client_for(None).get("/api/games/", {"player_id": ann.pk})) == {
        three_games["public"].pk
    }
    Game.objects.filter(pk=three_games["bobs"].pk).update(started_at="2024-05-01T10:00:00Z")
    Game.objects.filter(pk=three_games["public"].pk).update(started_at="2023-01-01T10:00:00Z")
    window = {"since": "2024-04-30", "until": "2024-05-01"}
    assert listed_ids(client_for(None).get("/api/games/", window)) == {three_games["bobs"].pk}


@pytest.mark.parametrize(
    "query", [{"ruleset": "no-such-rules"}, {"since": "yesterday"}, {"verdict": "fine"}]
)
def test_a_bad_filter_value_is_a_400_naming_the_filter(
    three_games: dict[str, Game], query: dict[str, str]
) -> None:
    response = client_for(None).get("/api/games/", query)
    assert response.status_code == 400
    assert set(response.json()) == set(query)


def test_a_pending_game_is_found_by_the_pending_verdict(
    three_games: dict[str, Game],
) -> None:
    Verification.objects.filter(game=three_games["bobs"]).delete()
    assert listed_ids(client_for(None).get("/api/games/", {"verdict": "pending"})) == {
        three_games["bobs"].pk
    }
    detail = client_for(None).get(f"/api/games/{three_games['bobs'].pk}/").json()
    assert detail["verdict"] == "pending" and detail["verification"] is None


def test_the_list_is_paginated(
    three_games: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rest_framework.pagination import PageNumberPagination

    monkeypatch.setattr(PageNumberPagination, "page_size", 1)
    first = client_for(None).get("/api/games/").json()
    second = client_for(None).get(first["next"]).json()
    assert first["count"] == 2 and len(first["results"]) == 1 and second["next"] is None
    ids = {first["results"][0]["id"], second["results"][0]["id"]}
    assert ids == {three_games["public"].pk, three_games["bobs"].pk}


def test_the_list_writes_each_game_as_the_game_serializer_does(
    three_games: dict[str, Game], store_game: StoreGame, alice: User
) -> None:
    """The list builds its rows from plain values (selectors.game_rows); the schema and the
    detail describe games with GameSerializer: the two must agree, field for field."""
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from mjlogs import selectors
    from mjlogs.api.serializers import GameSerializer

    (played,) = simulate("tenhou-3p-east", 1, 4)
    sanma = canonical.game_to_json(played)
    sanma.pop("started_at", None)  # an undated record
    store_game(sanma, uploader=None)
    Verification.objects.filter(game=three_games["bobs"]).delete()  # pending
    body = client_for(alice).get("/api/games/").json()
    assert body["count"] == 4
    request = Request(APIRequestFactory().get("/api/games/"))
    for listed in body["results"]:
        game = selectors.game_get(alice, listed["id"])
        expected = json.loads(json.dumps(GameSerializer(game, context={"request": request}).data))
        assert listed == expected
        assert list(listed) == list(expected)
    by_id = {listed["id"]: listed for listed in body["results"]}
    assert by_id[three_games["bobs"].pk]["verdict"] == "pending"
    assert {len(listed["seats"]) for listed in body["results"]} == {3, 4}
    assert None in {listed["started_at"] for listed in body["results"]}
    assert None in {listed["uploader"] for listed in body["results"]}


def test_the_list_reads_neither_documents_nor_replay_reports(three_games: dict[str, Game]) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client_for(None).get("/api/games/").status_code == 200
    selected = " ".join(query["sql"] for query in queries.captured_queries)
    assert '"replay_verification"."verdict"' in selected
    for column in (
        '"mjlogs_game"."document"',
        '"mjlogs_game"."raw"',
        '"replay_verification"."report"',
    ):
        assert column not in selected, column


def test_game_detail_has_the_verification_and_links(three_games: dict[str, Game]) -> None:
    game = three_games["public"]
    body = client_for(None).get(f"/api/games/{game.pk}/").json()
    assert body["verification"]["verdict"] == "verified"
    assert body["verification"]["engine_version"]
    assert body["raw_size"] == game.raw_size
    assert body["links"]["export_mjai"].endswith(f"/api/games/{game.pk}/export/mjai/")
    assert client_for(None).get(body["links"]["document"]).status_code == 200


def test_an_unknown_game_is_404() -> None:
    assert client_for(None).get("/api/games/999999/").status_code == 404


def test_the_document_is_the_stored_canonical_record(three_games: dict[str, Game]) -> None:
    game = three_games["public"]
    document = client_for(None).get(f"/api/games/{game.pk}/document/").json()
    assert document == game.document
    (read,) = canonical.loads(json.dumps(document))
    assert [p.name for p in read.header.players] == ["Ann", "Ben", "Cat", "Dan"]


@pytest.mark.parametrize("fmt", ["canonical", "tenhou6", "mjai"])
def test_each_export_reads_back_as_the_same_game(three_games: dict[str, Game], fmt: str) -> None:
    game = three_games["public"]
    response = client_for(None).get(f"/api/games/{game.pk}/export/{fmt}/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment; filename=")
    (read,), read_format = read_games(response.content)
    assert read_format.name == fmt
    stored = canonical.game_from_json(game.document)
    assert [p.name for p in read.header.players] == [p.name for p in stored.header.players]
    assert read.recorded_final is not None and stored.recorded_final is not None
    assert read.recorded_final.scores == stored.recorded_final.scores
    assert len(read.rounds) == len(stored.rounds)


def test_an_unknown_export_format_is_a_400(three_games: dict[str, Game]) -> None:
    response = client_for(None).get(f"/api/games/{three_games['public'].pk}/export/mjlog/")
    assert response.status_code == 400
    assert response.json() == {"format": ['"mjlog" is not a valid choice.']}


def test_the_raw_original_is_returned_byte_for_byte(
    three_games: dict[str, Game],
) -> None:
    game = three_games["public"]
    response = client_for(None).get(f"/api/games/{game.pk}/raw/")
    assert response.status_code == 200
    assert response.content == compression.decompress(Game.objects.get(pk=game.pk).raw)
    assert 'filename="game.json"' in response["Content-Disposition"]


# --- Deleting and visibility -----------------------------------------------------------------


def test_anonymous_cannot_delete_or_change_visibility(three_games: dict[str, Game]) -> None:
    game = three_games["public"]
    client = client_for(None)
    assert client.delete(f"/api/games/{game.pk}/").status_code == 401
    response = client.patch(f"/api/games/{game.pk}/", {"visibility": "private"}, format="json")
    assert response.status_code == 401
    assert Game.objects.filter(pk=game.pk, visibility="public").exists()


def test_another_user_cannot_delete_or_change_visibility(
    three_games: dict[str, Game], bob: User
) -> None:
    game = three_games["public"]
    client = client_for(bob)
    assert client.delete(f"/api/games/{game.pk}/").status_code == 403
    response = client.patch(f"/api/games/{game.pk}/", {"visibility": "private"}, format="json")
    assert response.status_code == 403
    assert "uploader" in response.json()["detail"]
    assert Game.objects.filter(pk=game.pk, visibility="public").exists()


def test_the_uploader_deletes_their_game_with_its_seats_and_verdict(
    three_games: dict[str, Game], alice: User
) -> None:
    game = three_games["public"]
    assert client_for(alice).delete(f"/api/games/{game.pk}/").status_code == 204
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not GameSeat.objects.filter(game_id=game.pk).exists()
    assert not Verification.objects.filter(game_id=game.pk).exists()
    assert Player.objects.filter(name="Ann").exists()  # still seated in alice's private game


def test_staff_may_delete_anyones_game(three_games: dict[str, Game], staff: User) -> None:
    assert client_for(staff).delete(f"/api/games/{three_games['bobs'].pk}/").status_code == 204
    assert not Game.objects.filter(pk=three_games["bobs"].pk).exists()


def test_the_uploader_makes_a_game_private_and_others_lose_it(
    three_games: dict[str, Game], alice: User, bob: User
) -> None:
    game = three_games["public"]
    response = client_for(alice).patch(
        f"/api/games/{game.pk}/", {"visibility": "private"}, format="json"
    )
    assert response.status_code == 200 and response.json()["visibility"] == "private"
    assert client_for(bob).get(f"/api/games/{game.pk}/").status_code == 404
    assert client_for(alice).get(f"/api/games/{game.pk}/").status_code == 200


def test_a_bad_visibility_is_a_400(three_games: dict[str, Game], alice: User) -> None:
    game = three_games["public"]
    response = client_for(alice).patch(
        f"/api/games/{game.pk}/", {"visibility": "secret"}, format="json"
    )
    assert response.status_code == 400 and "visibility" in response.json()


def test_deleting_a_private_game_of_someone_else_is_404(
    three_games: dict[str, Game], bob: User
) -> None:
    game = three_games["alices_private"]
    assert client_for(bob).delete(f"/api/games/{game.pk}/").status_code == 404
    assert Game.objects.filter(pk=game.pk).exists()


def test_session_login_works_and_needs_csrf_for_writes(
    three_games: dict[str, Game], alice: User
) -> None:
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="alice", password="alice-secret-1")
    game = three_games["public"]
    assert client.get(f"/api/games/{three_games['alices_private'].pk}/").status_code == 200
    assert client.delete(f"/api/games/{game.pk}/").status_code == 403  # no CSRF token
    assert Game.objects.filter(pk=game.pk).exists()


def test_exports_of_writers_that_refuse_a_game_say_why(
    three_games: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.errors import UnsupportedLogError

    def refuse(games: object) -> bytes:
        raise UnsupportedLogError("tenhou.net/6 cannot carry this rule set")

    # The registry builds each Format from the module's write function at look-up time.
    monkeypatch.setattr(
        tenhou6_format,
        "FORMAT",
        tenhou6_format.FORMAT.__class__(**{**tenhou6_format.FORMAT.__dict__, "write": refuse}),
    )
    response = client_for(None).get(f"/api/games/{three_games['public'].pk}/export/tenhou6/")
    assert response.status_code == 400
    assert "cannot carry this rule set" in response.json()["format"][0]


# -- final points ------------------------------------------------------------------------------


def seat_figures(game: Game) -> list[dict[str, Any]]:
    body = client_for(None).get(f"/api/games/{game.pk}/").json()
    listed = client_for(None).get("/api/games/").json()["results"]
    (row,) = [row for row in listed if row["id"] == game.pk]
    assert row["seats"] == body["seats"]  # the list and the game say the same
    return list(body["seats"])


def test_a_game_verified_whole_gives_each_seat_its_final_points(store_game: StoreGame) -> None:
    game = store_game(self_played_document(91))
    assert game.verification.verdict == Verdict.VERIFIED
    seats = seat_figures(game)
    points = [seat["points"] for seat in seats]
    assert points == game.verification.report["points"]
    # Tenhou's rules: 25,000 to start, 30,000 returned, uma 10-20, oka to the first: the points
    # add up to nothing, and they rank as the placements do.
    assert abs(sum(points)) < 1e-9
    by_place = [seat["points"] for seat in sorted(seats, key=lambda seat: seat["placement"])]
    assert by_place == sorted(points, reverse=True)
    page = client_for(None).get(f"/games/{game.pk}/").content.decode()
    assert f"{max(points):+.1f}" in page


def test_a_record_the_rules_disagree_with_gives_no_points(store_game: StoreGame) -> None:
    document = self_played_document(92)
    document["rounds"][0]["scores"][0] += 1000  # the first hand starts from wrong scores
    game = store_game(document)
    assert game.verification.verdict != Verdict.VERIFIED
    assert [seat["points"] for seat in seat_figures(game)] == [None] * 4


@pytest.mark.corpus
def test_the_points_of_every_real_tenhou_game_are_its_owari() -> None:
    """Every corpus mjlog that reaches its end: the API's points per seat are the record's
    ``owari`` figures, as the verification computed them by the rules of its lobby and date."""
    from mjlogs.importing import import_file
    from replay.services import game_verify
    from tests.engine.corpus import corpus_dir

    checked = 0
    for path in sorted((corpus_dir() / "mjlog_xml").rglob("*.mjlog")):
        (record,), _ = read_games(path.read_bytes())
        if record.recorded_final is None or record.recorded_final.results is None:
            continue
        (outcome,) = import_file(path.name, path.read_bytes())
        game = Game.objects.get(pk=outcome.game_id)
        # Verified in-process at the commit (eager tasks): run it here, the test's
        # transaction never commits.
        game_verify(game.pk)
        figures = [seat["points"] for seat in seat_figures(game)]
        assert figures == list(record.recorded_final.results), path.name
        checked += 1
    assert checked >= 30, f"only {checked} corpus games reach their end"


def test_a_players_average_points_are_the_mean_of_their_seats_points(
    store_game: StoreGame,
) -> None:
    games = [
        store_game(self_played_document(seed, ("Ann", "Ben", "Cat", "Dan"))) for seed in (93, 94)
    ]
    ann = Player.objects.get(name="Ann")
    seats = GameSeat.objects.filter(player=ann, game__in=games)
    points = [seat.points for seat in seats]
    assert len(points) == 2 and None not in points
    body = client_for(None).get(f"/api/players/{ann.pk}/stats/").json()
    assert body["counts"]["points_games"] == 2
    (average,) = [metric for metric in body["metrics"] if metric["name"] == "average_points"]
    assert average["value"] == pytest.approx(sum(points) / 2) and average["n"] == 2
    board = client_for(None).get("/api/stats/leaderboard/?metric=average_points&min_games=1")
    assert board.status_code == 200
    values = [row["value"] for row in board.json()["results"]]
    assert values == sorted(values, reverse=True) and len(values) == 4
