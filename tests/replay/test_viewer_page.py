"""The replay viewer's page (``/replay/<id>/``): who may open it, the data it embeds for its
script (players, hands, where to open), and opening at the verdict's first discrepancy."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine.formats import canonical
from engine.replay import replay
from mjlogs import game_summary
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, Visibility
from replay.models import Verdict, Verification
from tests.mjlogs.pages import EAST_3P, engine_game, with_wrong_points

pytestmark = pytest.mark.django_db

Store = Callable[..., Game]


@pytest.fixture
def store(django_capture_on_commit_callbacks: Any) -> Store:
    """Import a game file as an upload would, its verification run as after the commit."""

    def run(
        data: bytes, *, uploader: User | None = None, visibility: str = Visibility.PUBLIC
    ) -> Game:
        with django_capture_on_commit_callbacks(execute=True):
            (outcome,) = import_file("game.json", data, uploader=uploader, visibility=visibility)
        assert outcome.status is Status.IMPORTED, outcome
        return Game.objects.get(pk=outcome.game_id)

    return run


def canonical_bytes(ruleset: str = "tenhou-4p-east", seed: int = 1, number: int = 0) -> bytes:
    return canonical.write([engine_game(ruleset, seed, number)])


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="alice-secret-1")


def viewer_data(client: Client, game: Game, query: str = "") -> dict[str, Any]:
    response = client.get(f"/replay/{game.pk}/{query}")
    assert response.status_code == 200
    page = response.content.decode()
    script = page.split('<script id="viewer-data" type="application/json">', 1)[1]
    return json.loads(script.split("</script>", 1)[0])


def test_the_url_is_named_and_the_page_embeds_the_game(client: Client, store: Store) -> None:
    game = store(canonical_bytes())
    assert reverse("replay:viewer", args=[game.pk]) == f"/replay/{game.pk}/"
    response = client.get(f"/replay/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "replay/viewer.js" in page
    assert "replay/viewer.css" in page
    # An ES module (no inline script: the site's CSP forbids it), told where the tile faces are.
    assert '<script type="module" src="/static/replay/viewer.js"></script>' in page
    assert 'data-tiles="/static/replay/tiles/"' in page
    assert 'id="table"' in page
    assert 'id="help"' in page

    data = viewer_data(client, game)
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    assert data["game"] == game.pk
    assert data["players"] == [seat.player.name for seat in seats]
    assert data["players_count"] == 4
    assert data["ruleset"] == game.ruleset
    rows = game_summary.game_round_rows(game)
    assert data["rounds"] == [
        {"index": row.index, "name": row.name, "honba": row.honba, "result": row.result}
        for row in rows
    ]
    assert data["rounds"][0]["name"] == "E1"
    assert data["verdict"] == Verdict.VERIFIED
    assert data["discrepancy"] is None
    assert data["start"] == {
        "round": 0,
        "step": 0,
        "seat": 0,
        "hands": "shown",
        "at_discrepancy": False,
        "end": False,
    }
    assert data["frames_url"] == f"/api/games/{game.pk}/rounds/"
    assert data["game_url"] == f"/games/{game.pk}/"


def test_a_sanma_game_has_three_seats(client: Client, store: Store) -> None:
    game = store(canonical_bytes(EAST_3P, seed=2))
    data = viewer_data(client, game)
    assert data["players_count"] == 3
    assert len(data["players"]) == 3
    page = client.get(f"/replay/{game.pk}/").content.decode()
    assert 'data-players="3"' in page


def test_the_query_string_chooses_the_moment(client: Client, store: Store) -> None:
    game = store(canonical_bytes())
    last_round = len(game.document["rounds"]) - 1
    data = viewer_data(client, game, f"?round={last_round}&step=10&seat=2&hands=hidden")
    assert data["start"] == {
        "round": last_round,
        "step": 10,
        "seat": 2,
        "hands": "hidden",
        "at_discrepancy": False,
        "end": False,
    }
    # Nonsense falls back to the defaults instead of failing.
    data = viewer_data(client, game, "?round=99&step=-4&seat=7&hands=maybe")
    assert data["start"] == {
        "round": 0,
        "step": 0,
        "seat": 0,
        "hands": "shown",
        "at_discrepancy": False,
        "end": False,
    }
    data = viewer_data(client, game, "?round=x&step=y&seat=z")
    assert data["start"]["round"] == 0
    assert data["start"]["step"] == 0


def test_the_query_string_opens_the_games_end(client: Client, store: Store) -> None:
    """``end=1`` opens the game's end (the final standings) over the last hand's last step."""
    game = store(canonical_bytes())
    last_round = len(game.document["rounds"]) - 1
    data = viewer_data(client, game, "?end=1&seat=3&hands=hidden")
    assert data["start"] == {
        "round": last_round,
        "step": -1,
        "seat": 3,
        "hands": "hidden",
        "at_discrepancy": False,
        "end": True,
    }
    # The end wins over the hand and step a link may still carry.
    assert viewer_data(client, game, "?round=0&step=3&end=1")["start"]["end"] is True
    assert viewer_data(client, game, "?end=yes")["start"]["end"] is False


def test_a_private_game_is_not_found_for_others(client: Client, store: Store, alice: User) -> None:
    game = store(canonical_bytes(), uploader=alice, visibility=Visibility.PRIVATE)
    assert client.get(f"/replay/{game.pk}/").status_code == 404
    bob = User.objects.create_user("bob", password="bob-secret-1")
    client.force_login(bob)
    assert client.get(f"/replay/{game.pk}/").status_code == 404
    client.force_login(alice)
    assert client.get(f"/replay/{game.pk}/").status_code == 200
    assert client.get("/replay/999999/").status_code == 404


def test_only_reading_methods_are_allowed(client: Client, store: Store) -> None:
    game = store(canonical_bytes())
    assert client.post(f"/replay/{game.pk}/").status_code == 405


def test_a_score_mismatch_opens_at_its_event(client: Client, store: Store) -> None:
    game = store(with_wrong_points(engine_game(seed=3)))
    verification = Verification.objects.get(game=game)
    assert verification.verdict == Verdict.SCORE_MISMATCH
    found = verification.discrepancy
    # The engine's own account of where the record goes wrong.
    report = replay(canonical.game_from_json(game.document))
    assert report.discrepancy is not None
    assert found["round"] == report.discrepancy.round
    data = viewer_data(client, game)
    discrepancy = data["discrepancy"]
    assert discrepancy["verdict"] == Verdict.SCORE_MISMATCH
    assert discrepancy["round"] == found["round"]
    assert discrepancy["event"] == found["event"]
    assert discrepancy["step"] == found["event"] + 1
    assert discrepancy["what"] == found["what"]
    # In words, as the game page says it (mjlogs.discrepancy_words): the player by name, the
    # figures with their units.
    winner = game.document["players"][int(found["what"].split()[1].rstrip("'s"))]["name"]
    points = (int(found["expected"]), int(found["found"]))
    assert discrepancy["subject"] == f"{winner}\u2019s win, points"
    assert discrepancy["sentence"] == (
        f"In hand {found['round'] + 1} ({found['round_name']}), {winner}\u2019s win, points: the "
        f"rules give {points[0]:,} points; the record says {points[1]:,} points."
    )
    assert discrepancy["rule"] == ""
    assert "expected" not in discrepancy and "message" not in discrepancy
    assert data["start"]["round"] == found["round"]
    assert data["start"]["step"] == found["event"] + 1
    assert data["start"]["at_discrepancy"] is True
    # An explicit moment wins over the discrepancy, which stays known for the banner.
    data = viewer_data(client, game, "?round=0&step=3")
    assert (data["start"]["round"], data["start"]["step"]) == (0, 3)
    assert data["start"]["at_discrepancy"] is False
    assert data["discrepancy"]["round"] == found["round"]


def test_an_illegal_action_opens_on_the_state_it_was_tried_on(client: Client, store: Store) -> None:
    game = store(canonical_bytes())
    Verification.objects.filter(game=game).update(
        verdict=Verdict.ILLEGAL_ACTION,
        discrepancy={
            "verdict": "illegal_action",
            "round": 1,
            "round_name": "E2",
            "event": 17,
            "what": "action",
            "expected": "seat 1 discards 7z, which they do not hold",
            "found": "Discard(seat=1, tile=7z, tsumogiri=False)",
            "message": "round 2 (E2), event 17: illegal action: ...",
        },
        message="round 2 (E2), event 17: illegal action: ...",
    )
    data = viewer_data(client, game)
    assert data["verdict"] == Verdict.ILLEGAL_ACTION
    assert data["discrepancy"]["step"] == 17
    # Who did what, read from the record's event, and the rule, with the players' names.
    event = game.document["rounds"][1]["events"][17]
    who = game.document["players"][event["seat"]]["name"]
    ben = game.document["players"][1]["name"]
    assert data["discrepancy"]["rule"] == (
        f"The rules do not allow it: {ben} discards Red dragon, which they do not hold."
    )
    assert data["discrepancy"]["sentence"].startswith(
        "In hand 2 (E2) the record has an action the rules do not allow: " + who
    )
    assert "Discard(" not in json.dumps(data["discrepancy"])
    assert data["start"] == {
        "round": 1,
        "step": 17,
        "seat": 0,
        "hands": "shown",
        "at_discrepancy": True,
        "end": False,
    }


def test_the_hands_list_covers_the_record_past_a_short_report(client: Client, store: Store) -> None:
    # A replay report stops at an illegal action: the hands after it come from the record.
    game = store(canonical_bytes())
    verification = Verification.objects.get(game=game)
    full = viewer_data(client, game)["rounds"]
    assert len(full) == len(game.document["rounds"]) >= 2
    report = dict(verification.report)
    report["rounds"] = report["rounds"][:1]
    Verification.objects.filter(game=game).update(report=report)
    assert viewer_data(client, game)["rounds"] == full
    ends = {"win", "exhaustive_draw", "nagashi_mangan", "abortive_draw"}
    for row, round_ in zip(full, game.document["rounds"], strict=True):
        recorded = [event["type"] for event in round_["events"] if event["type"] in ends]
        assert row["result"] == recorded[0]


def test_other_verdicts_open_at_the_first_deal(client: Client, store: Store) -> None:
    game = store(canonical_bytes())
    Verification.objects.filter(game=game).update(
        verdict=Verdict.UNSUPPORTED,
        discrepancy={"round": None, "event": None, "what": "rule set", "message": "unknown"},
    )
    data = viewer_data(client, game)
    assert data["discrepancy"] is None
    assert data["start"]["round"] == 0
    assert data["start"]["step"] == 0


def test_a_game_not_verified_yet_still_opens(client: Client, store: Store) -> None:
    game = store(canonical_bytes())
    Verification.objects.filter(game=game).delete()
    data = viewer_data(client, game)
    assert data["verdict"] == Verdict.PENDING
    assert data["discrepancy"] is None
    assert data["rounds"]


def test_the_game_page_and_the_games_table_link_to_the_viewer(client: Client, store: Store) -> None:
    game = store(canonical_bytes())
    link = f'href="/replay/{game.pk}/"'
    assert link in client.get(f"/games/{game.pk}/").content.decode()
    assert link in client.get("/games/").content.decode()
