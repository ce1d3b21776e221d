"""The engine's and the import's messages on the pages, in the page's language (issue 39): the
first discrepancy of a game as a sentence (who, what, which rule) on the game page, an upload's
failures (the page and its script's JSON), a link fetch's errors (its status page and its form).
The REST API keeps the engine's English; a message with no translation is shown in English,
marked."""

# Japanese sentences have their own punctuation, English ones a typographic apostrophe.
# ruff: noqa: RUF001

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from engine.formats import canonical
from engine.frames import round_frames
from mjlogs.models import Game, LinkImport, LinkImportStatus
from tests.mjlogs.conftest import Store, Users
from tests.mjlogs.pages import engine_game, plain, text, with_wrong_points

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cho", "Dai")
JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
JSON = {"HTTP_ACCEPT": "application/json"}


def with_illegal_discard(names: tuple[str, ...] = NAMES) -> tuple[bytes, dict[str, Any]]:
    """A self-played game whose first discard after the deal is of a tile its player does not
    hold: the record has an illegal action. Also the changed event."""
    document = canonical.game_to_json(engine_game(names=names))
    events = document["rounds"][0]["events"]
    index = next(i for i, event in enumerate(events) if event["type"] == "discard")
    event = events[index]
    frame = round_frames(canonical.game_from_json(document), 0).frames[index]
    held = set(frame.seats[event["seat"]].hand) | {frame.seats[event["seat"]].drawn}
    event["tile"] = next(
        tile for tile in ("1z", "2z", "3z", "4z", "5z", "6z", "7z") if tile not in held
    )
    event["tsumogiri"] = False
    return json.dumps(document).encode(), event


def banner(page: str) -> str:
    return plain(page.split('<div class="discrepancy" id="discrepancy">', 1)[1].split("</div>")[0])


TILES = {
    "1z": ("East wind", "東"),
    "2z": ("South wind", "南"),
    "3z": ("West wind", "西"),
    "4z": ("North wind", "北"),
    "5z": ("White dragon", "白"),
    "6z": ("Green dragon", "發"),
    "7z": ("Red dragon", "中"),
}


def test_an_illegal_action_says_who_did_what_and_which_rule(client: Client, store: Store) -> None:
    data, event = with_illegal_discard()
    game = store(data)
    assert game.verification.verdict == "illegal_action"
    who = NAMES[event["seat"]]
    english, japanese = TILES[event["tile"]]
    page = banner(text(client.get(f"/games/{game.pk}/")))
    assert page == (
        f"In hand 1 (E1) the record has an action the rules do not allow: {who} discards "
        f"{english}. The rules do not allow it: {who} discards {english}, which they do not "
        "hold. See hand 1 (E1) below"
    )
    page = banner(text(client.get(f"/games/{game.pk}/", **JA)))
    assert page == (
        f"第1局（東1局）の牌譜に、ルール上できない操作があります：{who}が{japanese}を打牌。 "
        f"ルール上できません：{who}が{japanese}を打牌していますが、その牌を持っていません。 "
        "下の第1局（東1局）を見る"
    )
    # No Python repr, no seat counted from 0, no English left on the Japanese page.
    for shown in (page, text(client.get(f"/games/{game.pk}/"))):
        assert "Discard(" not in shown and f"seat {event['seat']}" not in shown
    assert "untranslated" not in text(client.get(f"/games/{game.pk}/", **JA))
    # The API keeps the engine's own words.
    answer = client.get(f"/api/games/{game.pk}/").json()["verification"]
    assert answer["discrepancy"]["found"].startswith("Discard(")


def test_a_score_mismatch_says_whose_figure_differs(client: Client, store: Store) -> None:
    game = store(with_wrong_points(engine_game(names=NAMES, number=1)))
    found = game.verification.discrepancy
    assert game.verification.verdict == "score_mismatch" and found["what"].endswith("points")
    who = NAMES[int(found["what"].split()[1].rstrip("'s"))]
    expected, recorded = int(found["expected"]), int(found["found"])
    hand = found["round"] + 1
    name = found["round_name"]
    assert banner(text(client.get(f"/games/{game.pk}/", **JA))).startswith(
        f"第{hand}局（東{name[1:]}局）の{who}の和了の点数が食い違っています。"
        f"ルール上は{expected:,}点、牌譜では{recorded:,}点です。"
    )
    assert banner(text(client.get(f"/games/{game.pk}/"))).startswith(
        f"In hand {hand} ({name}), {who}’s win, points: the rules give {expected:,} points; "
        f"the record says {recorded:,} points."
    )


def test_a_message_with_no_translation_is_marked_on_a_japanese_page(
    client: Client, store: Store
) -> None:
    game = store(canonical.write([engine_game()]))
    game.verification.verdict = "unsupported"
    game.verification.message = "a rule of the moon is not modelled"
    game.verification.discrepancy = {"message": game.verification.message}
    game.verification.save()
    page = text(client.get(f"/games/{game.pk}/", **JA))
    assert (
        '<span lang="en" class="untranslated">a rule of the moon is not modelled</span> '
        '<span class="untranslated-mark">（英語のまま。まだ翻訳がありません）</span>'
    ) in page
    english = text(client.get(f"/games/{game.pk}/"))
    assert "a rule of the moon is not modelled" in english and "untranslated-mark" not in english


@pytest.fixture
def alice(client: Client, users: Users) -> Client:
    client.force_login(users.alice)
    return client


def test_an_uploads_failures_are_in_the_pages_language(alice: Client) -> None:
    garbage = SimpleUploadedFile("garbage.mjlog", b"these are not the games you are looking for")
    broken = SimpleUploadedFile("broken.json", b'{"title": ["", ""], "name": [')
    page = text(alice.post("/upload/", {"files": [garbage, broken], "visibility": "public"}, **JA))
    assert (
        "どの既知の形式（天鳳mjlog XML、tenhou.net/6 JSON、mjai JSON lines、正規JSON）"
        "の牌譜でもありません" in page
    )
    assert "not a game record" not in page
    garbage.seek(0)
    answer = alice.post("/upload/", {"files": [garbage], "visibility": "public"}, **JA, **JSON)
    (outcome,) = answer.json()["outcomes"]
    assert outcome["status"] == "failed"
    assert outcome["error"].startswith("どの既知の形式")
    # The REST API answers in the engine's English.
    garbage.seek(0)
    api = alice.post("/api/uploads/", {"files": [garbage]}, **JA)
    assert api.json()["outcomes"][0]["error"].startswith("not a game record in any known format")


def test_a_link_fetchs_errors_are_in_the_pages_language(alice: Client, users: Users) -> None:
    row = LinkImport.objects.create(
        link="2020081220gm-00a9-0000-9ee6ab3b",
        log_id="2020081220gm-00a9-0000-9ee6ab3b",
        status=LinkImportStatus.FAILED,
        error="Tenhou has no log 2020081220gm-00a9-0000-9ee6ab3b",
        requested_by=users.alice,
    )
    page = text(alice.get(f"/upload/link/{row.pk}/", **JA))
    assert "天鳳に牌譜2020081220gm-00a9-0000-9ee6ab3bはありません" in page
    LinkImport.objects.filter(pk=row.pk).update(
        status=LinkImportStatus.QUEUED,
        error="try 1 of 3: Tenhou's log server did not answer within 10 s (trying again in 5 s)",
    )
    page = text(alice.get(f"/upload/link/{row.pk}/", **JA))
    assert (
        "3回中1回目：天鳳の牌譜サーバーが10秒以内に応答しませんでした（5秒後にもう一度試します）"
        in page
    )
    form = text(
        alice.post("/upload/link/", {"link": "https://example.org/", "visibility": "public"}, **JA)
    )
    assert "リンク先がtenhou.netではなくexample.orgです" in form
    assert Game.objects.count() == 0


def test_a_players_name_in_the_banner_is_text_not_markup(client: Client, store: Store) -> None:
    names = ("<b>Ann</b>", "<i>Ben</i>", "<u>Cho</u>", "<s>Dai</s>")
    data, event = with_illegal_discard(names)
    game = store(data)
    for language in ("en", "ja"):
        page = text(client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language))
        section = page.split('<div class="discrepancy" id="discrepancy">', 1)[1].split("</div>")[0]
        who = names[event["seat"]]
        assert who.replace("<", "&lt;").replace(">", "&gt;") in section
        assert who not in section
