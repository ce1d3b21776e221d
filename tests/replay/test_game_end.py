"""A game's end tells one story everywhere (issue 39): whether the record reaches the game's end,
the verdict, each seat's final score, place and points agree on the game page, in the viewer's
data and in the API, because one function decides them (``mjlogs.game_end``) and the import and
each verification store what it decides.

The case that told two stories: a tenhou.net/6 record split into one hand per JSON object (as
some tools export, one object a line) states no final scores (no ``sc``), yet its last hand ends
the game. The page said "the record stops before the end" beside "verified to the end of the
game"; the API said ``complete: false``, ``verdict: verified``, points and no final score.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from engine.formats import canonical, get_format
from mjlogs.game_end import GameEnd, RecordEnd, game_end, record_end
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, GameSeat
from replay.services import game_verify
from tests.mjlogs.pages import engine_game, plain, text, with_wrong_points

pytestmark = pytest.mark.django_db

Store = Callable[..., Game]
CORPUS_SPLIT = Path(__file__).resolve().parents[2].parent / (
    "shared/corpus/tenhou6_json/mjx-project__mjx/2020081220gm-00a9-0000-9ee6ab3b.json"
)


@pytest.fixture
def store(django_capture_on_commit_callbacks: Any) -> Store:
    """Import a file as an upload would, its verification run as after the commit."""

    def run(data: bytes, name: str = "game.json") -> Game:
        with django_capture_on_commit_callbacks(execute=True):
            (outcome,) = import_file(name, data)
        assert outcome.status is Status.IMPORTED, outcome
        return Game.objects.get(pk=outcome.game_id)

    return run


def split_tenhou6(game: Any) -> bytes:
    """The game written as tenhou.net/6, one JSON object a hand (a line each), none with the
    final ``sc``: a record that states no end of the game."""
    whole = json.loads(get_format("tenhou6").write([game]))
    lines = [
        json.dumps({**{k: v for k, v in whole.items() if k not in ("log", "sc")}, "log": [hand]})
        for hand in whole["log"]
    ]
    return "\n".join(lines).encode()


def seats_of(game: Game) -> list[tuple[int | None, int | None, float | None]]:
    seats = GameSeat.objects.filter(game=game).order_by("seat")
    return [(s.final_score, s.placement, s.points) for s in seats]


# -- The one place that decides --------------------------------------------------------------------


RECORD = RecordEnd(scores=(16400.0, 23400.0, 26600.0, 33600.0), points=None, first_dealer=0)
NO_END = RecordEnd(scores=None, points=None)
REPORT = {
    "complete": True,
    "final_scores": [16400, 23400, 26600, 33600],
    "placements": [4, 3, 2, 1],
    "points": [-33.6, -16.6, 6.6, 43.6],
}
ENGINE_END = GameEnd(True, (16400, 23400, 26600, 33600), (4, 3, 2, 1), (-33.6, -16.6, 6.6, 43.6))


def test_what_the_record_states_before_any_verification() -> None:
    assert game_end(RECORD) == GameEnd(True, (16400, 23400, 26600, 33600), (4, 3, 2, 1), None)
    assert game_end(NO_END) == GameEnd(False, None, None, None)


def test_a_game_verified_whole_is_complete_with_every_figure() -> None:
    assert game_end(RECORD, "verified", REPORT) == ENGINE_END
    # The record states no end, but the engine played its hands to the end of the game.
    assert game_end(NO_END, "verified", REPORT) == ENGINE_END


def test_points_only_for_a_game_verified_whole() -> None:
    for verdict in ("score_mismatch", "illegal_action", "verified_fragment", "unsupported"):
        end = game_end(RECORD, verdict, REPORT)
        assert end.points is None, verdict
        assert end.final_scores == (16400, 23400, 26600, 33600)  # the record's, as it states
        # Without final scores stated, none: the engine's figures are vouched for only when
        # they agree with the whole record.
        assert game_end(NO_END, verdict, REPORT).final_scores is None


def test_a_record_that_stops_before_the_end() -> None:
    fragment = {"complete": False, "final_scores": None, "placements": None, "points": None}
    assert game_end(NO_END, "verified_fragment", fragment) == GameEnd(False, None, None, None)


def test_places_of_equal_scores_follow_the_first_dealer() -> None:
    tied = RecordEnd(scores=(20000.0, 30000.0, 30000.0, 20000.0), points=None, first_dealer=2)
    assert game_end(tied).placements == (4, 2, 1, 3)
    assert game_end(dataclasses.replace(tied, first_dealer=0)).placements == (3, 1, 2, 4)


def test_figures_beyond_what_the_import_stores_leave_the_end_unknown() -> None:
    # A game stored before the import checked its values may state scores near 2^31: storing
    # them as a seat's final score fails in the database and leaves the game pending for ever.
    huge = RecordEnd(scores=(2_147_475_900.0, 2_147_490_000.0, 2.0, 3.0), points=None)
    assert game_end(huge, "unsupported") == GameEnd(True, None, None, None)
    beyond = {**REPORT, "final_scores": [10_000_001, 0, 0, 0], "points": [1e8, 0, 0, 0]}
    assert game_end(NO_END, "verified", beyond) == GameEnd(True, None, None, None)


def test_what_a_document_states_of_its_end() -> None:
    game = engine_game()
    document = canonical.game_to_json(game)
    assert record_end(document) == RecordEnd(
        scores=tuple(float(s) for s in game.recorded_final.scores), points=None, first_dealer=0
    )
    document["final"] = {"scores": [1, 2, 3, 4], "results": [-30.0, -10.0, 10.5, 29.5]}
    assert record_end(document).points == (-30.0, -10.0, 10.5, 29.5)
    assert record_end({**document, "final": None}) == RecordEnd(None, None, 0)


# -- Stored, and read alike everywhere ------------------------------------------------------------


def test_a_record_split_into_one_hand_per_object_is_one_complete_game(
    client: Client, store: Store
) -> None:
    played = engine_game(names=("Ann", "Ben", "Cho", "Dai"))
    game = store(split_tenhou6(played), "split.json")
    assert game.source_format == "tenhou6" and game.verification.verdict == "verified"
    final = list(played.recorded_final.scores)
    assert game.complete is True
    assert [final_score for final_score, _, _ in seats_of(game)] == final
    assert all(place is not None and points is not None for _, place, points in seats_of(game))

    page = plain(text(client.get(f"/games/{game.pk}/")))
    assert "stops before the end" not in page
    assert "to the end of the game" in page

    detail = client.get(f"/api/games/{game.pk}/").json()
    listed = client.get("/api/games/").json()["results"][0]
    for answer in (detail, listed):
        assert answer["complete"] is True and answer["verdict"] == "verified"
        assert [s["final_score"] for s in answer["seats"]] == final
        assert [s["points"] for s in answer["seats"]] == [p for _, _, p in seats_of(game)]
    verification = client.get(f"/api/verifications/{game.pk}/").json()
    assert verification["complete"] is True and verification["report"]["final_scores"] == final


def test_a_record_cut_before_the_end_tells_so_everywhere(client: Client, store: Store) -> None:
    played = engine_game()
    cut = dataclasses.replace(played, rounds=played.rounds[:-1], recorded_final=None)
    game = store(canonical.write([cut]))
    assert game.verification.verdict == "verified_fragment"
    assert game.complete is False
    assert seats_of(game) == [(None, None, None)] * 4
    page = plain(text(client.get(f"/games/{game.pk}/")))
    assert "stops before the end" in page
    detail = client.get(f"/api/games/{game.pk}/").json()
    assert detail["complete"] is False
    assert [(s["final_score"], s["points"]) for s in detail["seats"]] == [(None, None)] * 4


def test_a_verdict_that_changes_changes_the_stored_end(store: Store) -> None:
    """The stored end is the latest verification's: a game that no longer verifies loses its
    points (the record's final scores stay), and gets them back when it verifies again."""
    game = store(split_tenhou6(engine_game()))
    verified = seats_of(game)
    verification = game.verification
    mismatch = with_wrong_points(engine_game())
    Game.objects.filter(pk=game.pk).update(document=json.loads(mismatch))
    game_verify(game.pk)
    verification.refresh_from_db()
    game.refresh_from_db()
    assert verification.verdict == "score_mismatch"
    # This document states its end: its final scores stay, without points.
    assert [(f, p) for f, _, p in seats_of(game)] == [(f, None) for f, _, _ in verified]
    assert game.complete is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_the_verifications_stored_before_get_their_end() -> None:
    """replay.0004: a game verified whole before, stored as not complete with no final scores
    (a split record), gets its end from its verification's report; others are left alone."""
    before = [("mjlogs", "0007_link_import"), ("replay", "0003_verification_frames_index")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    player = apps.get_model("mjlogs", "Player").objects.create(name="P")
    report = {**REPORT, "points": [-33.6, -16.6, 6.6, 43.6]}
    games = {}
    for source_id, verdict, complete in (
        ("split", "verified", True),
        ("cut", "verified_fragment", False),
    ):
        game = apps.get_model("mjlogs", "Game").objects.create(
            ruleset="tenhou-4p", players_count=4, rounds_count=1, complete=False,
            source_format="tenhou6", source_id=source_id, content_hash=source_id,
            document={}, raw=b"", raw_size=0,
        )  # fmt: skip
        for seat in range(4):
            apps.get_model("mjlogs", "GameSeat").objects.create(
                game=game, seat=seat, player=player, start_score=25000
            )
        apps.get_model("replay", "Verification").objects.create(
            game=game, verdict=verdict, complete=complete,
            report={**report, "complete": complete},
        )  # fmt: skip
        games[source_id] = game.pk
    after = [("replay", "0004_game_end_from_reports")]
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    # Read with the models of that state: later migrations add columns.
    apps = executor.loader.project_state(after).apps
    games_then, seats_then = apps.get_model("mjlogs", "Game"), apps.get_model("mjlogs", "GameSeat")

    def seats(pk: int) -> list[tuple[int | None, int | None]]:
        rows = seats_then.objects.filter(game_id=pk).order_by("seat")
        return list(rows.values_list("final_score", "placement"))

    assert games_then.objects.get(pk=games["split"]).complete is True
    assert games_then.objects.get(pk=games["cut"]).complete is False
    assert seats(games["split"]) == list(
        zip(REPORT["final_scores"], REPORT["placements"], strict=True)
    )
    assert seats(games["cut"]) == [(None, None)] * 4


@pytest.mark.corpus
def test_the_real_split_record_of_the_corpus(client: Client, store: Store) -> None:
    """The corpus's tenhou.net/6 export of 2020081220gm-00a9-0000-9ee6ab3b, one hand a line."""
    if not CORPUS_SPLIT.exists():
        pytest.skip(f"{CORPUS_SPLIT} is absent (../shared/corpus)")
    game = store(CORPUS_SPLIT.read_bytes(), CORPUS_SPLIT.name)
    assert game.verification.verdict == "verified" and game.complete is True
    detail = client.get(f"/api/games/{game.pk}/").json()
    assert [s["final_score"] for s in detail["seats"]] == [60000, -1700, 32700, 9000]
    assert [s["placement"] for s in detail["seats"]] == [1, 4, 2, 3]
    assert [s["points"] for s in detail["seats"]] == [70.0, -51.7, 12.7, -31.0]
    assert "stops before the end" not in plain(text(client.get(f"/games/{game.pk}/")))


# -- The record's own points, marked as the record's ----------------------------------------------

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "mjlog_xml"
#: A real game of Tenhou's custom lobby L10011: verified, but the lobby's uma and rounding are
#: its own (PointsRounding.UNCHECKED), so only the record's owari says the final points.
CUSTOM_LOBBY = REAL / "mjx-project__mjx" / "2019020120gm-0009-10011-215330df.mjlog"
OWARI = [-10.6, -100.7, 87.4, 23.9]


def test_a_custom_lobby_shows_the_records_points_marked_as_the_records(
    client: Client, store: Store
) -> None:
    game = store(CUSTOM_LOBBY.read_bytes(), CUSTOM_LOBBY.name)
    assert game.verification.verdict == "verified" and game.complete is True
    # Never stored as points: the statistics count the rules' points only.
    assert [points for _, _, points in seats_of(game)] == [None] * 4

    page = text(client.get(f"/games/{game.pk}/"))
    cells = re.findall(r'data-points-by="(\w*)">([^<]*)<', page)
    assert cells == [("record", f"{points:+.1f}") for points in OWARI]
    assert page.count('<span class="record-mark" aria-hidden="true">*</span>') == 4
    note = plain(page.split('id="record-points-note">', 1)[1].split("</p>", 1)[0])
    assert note.startswith("* Points as the record states them")
    assert "does not know how this game counts final points" in note

    japanese = text(client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ja"))
    note = plain(japanese.split('id="record-points-note">', 1)[1].split("</p>", 1)[0])
    assert "牌譜" in note and "Points as the record" not in note
    # The replay's note on the lobby's 30,000 start is in Japanese too (mjlogs.engine_words).
    assert "配給原点" in japanese and "untranslated" not in japanese

    detail = client.get(f"/api/games/{game.pk}/").json()
    listed = client.get("/api/games/").json()["results"][0]
    for answer in (detail, listed):
        assert [s["points"] for s in answer["seats"]] == [None] * 4
    assert detail["recorded_points"] == OWARI
    end = viewer_end(client, game)
    assert end["complete"] is True
    assert [(s["points"], s["points_by"]) for s in end["seats"]] == [(p, "record") for p in OWARI]


def test_points_by_the_rules_are_shown_as_they_are(client: Client, store: Store) -> None:
    """A game verified whole shows its points by the rules, unmarked; a game the rules disagree
    with shows none (the self-played record states no owari of its own)."""
    game = store(canonical.write([engine_game()]))
    page = text(client.get(f"/games/{game.pk}/"))
    assert re.findall(r'data-points-by="(\w*)"', page) == ["rules"] * 4
    assert "record-mark" not in page and "record-points-note" not in page
    assert [s["points_by"] for s in viewer_end(client, game)["seats"]] == ["rules"] * 4
    assert client.get(f"/api/games/{game.pk}/").json()["recorded_points"] is None

    wrong = store(with_wrong_points(engine_game(number=1)))
    page = text(client.get(f"/games/{wrong.pk}/"))
    assert re.findall(r'data-points-by="(\w*)"', page) == [""] * 4


def test_a_game_the_rules_disagree_with_shows_the_records_points_marked(
    client: Client, store: Store
) -> None:
    document = canonical.game_to_json(engine_game(number=1))
    document["final"]["results"] = [-30.0, -10.0, 10.0, 30.0]
    for round_ in document["rounds"]:  # a wrong figure: the verdict is a mismatch
        for event in round_["events"]:
            if event["type"] == "win" and "points" in event.get("recorded", {}):
                event["recorded"]["points"] += 100
                break
    game = store(json.dumps(document).encode())
    assert game.verification.verdict == "score_mismatch"
    page = text(client.get(f"/games/{game.pk}/"))
    assert re.findall(r'data-points-by="(\w*)"', page) == ["record"] * 4
    note = plain(page.split('id="record-points-note">', 1)[1].split("</p>", 1)[0])
    assert "has not verified this game whole" in note


def viewer_end(client: Client, game: Game) -> dict[str, Any]:
    page = text(client.get(f"/replay/{game.pk}/"))
    script = page.split('<script id="viewer-data" type="application/json">', 1)[1]
    return json.loads(script.split("</script>", 1)[0])["end"]  # type: ignore[no-any-return]
