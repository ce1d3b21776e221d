"""The frames API: every frame of a round, or one frame (docs/replay.md, "Frames"); private
games, rounds and steps out of range are 404; a verification's discrepancy comes with the frame
to show it at."""

from __future__ import annotations

import copy
import gzip
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User

from engine.formats import canonical
from engine.frames import round_frames
from mjlogs.models import Game
from tests.api.conftest import StoreGame, client_for, self_played_document

pytestmark = pytest.mark.django_db

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def frames_url(game: Game, round_index: int, step: int | None = None) -> str:
    url = f"/api/games/{game.pk}/rounds/{round_index}/frames/"
    return url if step is None else f"{url}{step}/"


def first_win(document: dict[str, Any]) -> tuple[int, int]:
    return next(
        (r, e)
        for r, round_ in enumerate(document["rounds"])
        for e, event in enumerate(round_["events"])
        if event["type"] == "win" and r > 0
    )


@pytest.fixture
def public_game(store_game: StoreGame) -> Game:
    return store_game(self_played_document(11, PLAYERS))


def test_round_frames_shape(public_game: Game) -> None:
    document = public_game.document
    response = client_for(None).get(frames_url(public_game, 1))
    assert response.status_code == 200
    body = response.json()
    assert list(body) == [
        "game", "players", "players_count", "ruleset", "rounds", "round", "discrepancy", "frames",
    ]  # fmt: skip
    assert body["game"] == public_game.pk
    assert body["players"] == list(PLAYERS) and body["players_count"] == 4
    assert body["ruleset"] == "tenhou-4p-east"
    assert body["round"] == 1
    assert body["discrepancy"] is None
    assert [r["index"] for r in body["rounds"]] == list(range(len(document["rounds"])))
    assert all(r["result"] != "unfinished" for r in body["rounds"])
    report_rounds = public_game.verification.report["rounds"]
    assert [r["result"] for r in body["rounds"]] == [r["result"] for r in report_rounds]
    assert [r["name"] for r in body["rounds"]] == [r["name"] for r in report_rounds]
    frames = body["frames"]
    assert len(frames) == len(document["rounds"][1]["events"]) + 1
    assert [f["step"] for f in frames] == list(range(len(frames)))
    assert frames[0]["action"] is None
    assert frames[1]["action"]["type"] == "draw" and frames[1]["action"]["text"].startswith(
        PLAYERS[document["rounds"][1]["dealer"]]
    )
    seat = frames[0]["seats"][0]
    assert set(seat) == {
        "hand", "drawn", "discards", "melds", "north", "score", "delta", "riichi", "shanten",
        "waits",
    }  # fmt: skip
    assert len(seat["hand"]) == 13
    last = frames[-1]
    assert last["result"]["type"] == report_rounds[1]["result"]
    assert [s["score"] for s in last["seats"]] == report_rounds[1]["scores_after"]
    # The same frames as the engine's.
    engine_frames = round_frames(canonical.game_from_json(document), 1).to_json()["frames"]
    assert frames == engine_frames


def test_one_frame_is_the_same_as_in_the_list(public_game: Game) -> None:
    client = client_for(None)
    frames = client.get(frames_url(public_game, 0)).json()["frames"]
    for step in (0, 7, len(frames) - 1):
        response = client.get(frames_url(public_game, 0, step))
        assert response.status_code == 200
        body = response.json()
        assert body["game"] == public_game.pk
        assert body["players"] == list(PLAYERS)
        assert body["round"] == 0
        assert {k: v for k, v in body.items() if k not in ("game", "players", "round")} == (
            frames[step]
        )


def test_private_game_frames_are_404_to_others(
    store_game: StoreGame, alice: User, bob: User, staff: User
) -> None:
    game = store_game(self_played_document(12, PLAYERS), uploader=alice, visibility="private")
    for who in (None, bob):
        assert client_for(who).get(frames_url(game, 0)).status_code == 404
        assert client_for(who).get(frames_url(game, 0, 0)).status_code == 404
    for who in (alice, staff):
        assert client_for(who).get(frames_url(game, 0)).status_code == 200
        assert client_for(who).get(frames_url(game, 0, 0)).status_code == 200


def test_out_of_range_is_404(public_game: Game) -> None:
    client = client_for(None)
    rounds = len(public_game.document["rounds"])
    assert client.get(frames_url(public_game, rounds - 1)).status_code == 200
    response = client.get(frames_url(public_game, rounds))
    assert response.status_code == 404
    assert "no round" in response.json()["detail"]
    assert client.get(frames_url(public_game, rounds, 0)).status_code == 404
    steps = len(public_game.document["rounds"][0]["events"]) + 1
    assert client.get(frames_url(public_game, 0, steps - 1)).status_code == 200
    response = client.get(frames_url(public_game, 0, steps))
    assert response.status_code == 404
    assert "no step" in response.json()["detail"]
    assert client.get(f"/api/games/{public_game.pk}/rounds/-1/frames/").status_code == 404
    assert client.get(f"/api/games/{public_game.pk + 999}/rounds/0/frames/").status_code == 404


def test_score_mismatch_is_reported_in_its_round_with_its_step(store_game: StoreGame) -> None:
    document = self_played_document(13, PLAYERS)
    round_index, event_index = first_win(document)
    mutated = copy.deepcopy(document)
    mutated["rounds"][round_index]["events"][event_index]["recorded"]["points"] += 100
    game = store_game(mutated)
    assert game.verification.verdict == "score_mismatch"
    client = client_for(None)
    body = client.get(frames_url(game, round_index)).json()
    discrepancy = body["discrepancy"]
    assert discrepancy["round"] == round_index
    assert discrepancy["event"] == event_index
    assert discrepancy["step"] == event_index + 1
    assert "points" in discrepancy["what"]
    assert discrepancy["expected"] and discrepancy["found"] and discrepancy["message"]
    assert body["frames"][discrepancy["step"]]["action"]["type"] == "win"
    # Only in its own round.
    assert client.get(frames_url(game, 0)).json()["discrepancy"] is None


def test_illegal_action_frames_stop_at_the_state_it_was_tried_on(store_game: StoreGame) -> None:
    document = self_played_document(14, PLAYERS)
    events = document["rounds"][1]["events"]
    event_index = next(i for i, e in enumerate(events) if e["type"] == "draw" and i > 4)
    mutated = copy.deepcopy(document)
    drawn = mutated["rounds"][1]["events"][event_index]
    drawn["tile"] = "1z" if drawn["tile"] != "1z" else "2z"  # not the wall's next tile
    game = store_game(mutated)
    assert game.verification.verdict == "illegal_action"
    client = client_for(None)
    body = client.get(frames_url(game, 1)).json()
    assert len(body["frames"]) == event_index + 1
    assert body["discrepancy"]["step"] == event_index == len(body["frames"]) - 1
    assert body["discrepancy"]["verdict"] == "illegal_action"
    assert body["rounds"][1]["result"] == "unfinished"
    assert body["frames"][-1]["result"] is None
    assert client.get(frames_url(game, 1, event_index + 1)).status_code == 404


def test_the_schema_lists_the_frames_endpoints() -> None:
    schema = yaml.safe_load(client_for(None).get("/api/schema/").content)
    assert {
        "/api/games/{game_id}/rounds/{round_index}/frames/",
        "/api/games/{game_id}/rounds/{round_index}/frames/{step}/",
    } <= set(schema["paths"])


def test_a_round_of_frames_goes_compressed_to_a_browser_that_accepts_gzip(
    public_game: Game,
) -> None:
    """A round's frames repeat the whole table at every step: hundreds of KB of JSON, a few on
    the wire once compressed (issue 21: under 60 KB a round)."""
    client = client_for(None)
    longest = max(
        range(len(public_game.document["rounds"])),
        key=lambda index: len(public_game.document["rounds"][index]["events"]),
    )
    plain = client.get(frames_url(public_game, longest))
    packed = client.get(frames_url(public_game, longest), HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert plain.status_code == packed.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < min(60_000, len(plain.content) / 5)
