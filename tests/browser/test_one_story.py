"""One story on every page (issue 39), in a real browser, in English and in Japanese: the
rule-violation banner of the game page and of the viewer says who did what and which rule it
breaks, in the page's language; a custom lobby's game shows its record's own points, marked as
the record's; a record split into one hand per JSON object is a whole game with its final scores.

Screenshots: ``banner-game-en.png``, ``banner-game-ja.png``, ``banner-viewer-en.png``,
``banner-viewer-ja.png`` (the banners alone), ``record-points-en.png`` and
``record-points-ja.png`` (the players' table) in ``test-artifacts/`` (``MJ_ARTIFACTS``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mjlogs.importing import Status, import_file
from mjlogs.models import Game
from tests.browser.conftest import ARTIFACTS
from tests.mjlogs.pages import engine_game
from tests.mjlogs.test_messages_on_pages import NAMES, TILES, with_illegal_discard
from tests.replay.test_game_end import CUSTOM_LOBBY, OWARI, split_tenhou6

pytestmark = pytest.mark.django_db(transaction=True)


def store(name: str, data: bytes) -> Game:
    (outcome,) = import_file(name, data)
    assert outcome.status is Status.IMPORTED, outcome
    return Game.objects.get(pk=outcome.game_id)


def shot(locator: Any, name: str) -> Path:
    """A screenshot of one part of the page, as a test artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    locator.screenshot(path=str(path))
    return path


def expected_banner(language: str, event: dict[str, Any]) -> tuple[str, str]:
    who = NAMES[event["seat"]]
    english, japanese = TILES[event["tile"]]
    if language == "ja":
        return (
            f"第1局（東1局）の牌譜に、ルール上できない操作があります：{who}が{japanese}を打牌。",  # noqa: RUF001
            f"ルール上できません：{who}が{japanese}を打牌していますが、その牌を持っていません。",  # noqa: RUF001
        )
    return (
        "In hand 1 (E1) the record has an action the rules do not allow: "
        f"{who} discards {english}.",
        f"The rules do not allow it: {who} discards {english}, which they do not hold.",
    )


def test_the_game_pages_banner_says_who_did_what_and_which_rule(
    language_page: tuple[str, Any], live_server: Any
) -> None:
    language, page = language_page
    data, event = with_illegal_discard()
    game = store("illegal.json", data)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("html").get_attribute("lang") == language
    section = page.locator("section.verdict")
    sentence, rule = expected_banner(language, event)
    assert section.locator(".discrepancy-sentence").inner_text() == sentence
    assert section.locator(".discrepancy-rule").inner_text() == rule
    shown = section.inner_text()
    assert "Discard(" not in shown and "The rules allow" not in shown
    assert section.locator(".untranslated").count() == 0
    # The link goes to the hand in the table below.
    section.locator(".discrepancy-where a").click()
    assert page.url.endswith("#hand-1")
    shot(section, f"banner-game-{language}")


def test_the_viewers_banner_says_it_the_same_way(
    language_page: tuple[str, Any], live_server: Any
) -> None:
    language, page = language_page
    data, event = with_illegal_discard()
    game = store("illegal.json", data)
    page.goto(f"{live_server.url}/replay/{game.pk}/")
    page.wait_for_selector("#step[data-step]")
    banner = page.locator("#discrepancy")
    assert banner.is_visible()
    sentence, rule = expected_banner(language, event)
    assert banner.locator(".discrepancy-sentence").inner_text() == sentence
    assert banner.locator(".discrepancy-rule").inner_text() == rule
    label = "不正な打牌・操作：" if language == "ja" else "Illegal action:"  # noqa: RUF001
    assert banner.locator(".verdict-label").inner_text() == label
    assert "Discard(" not in banner.inner_text()
    # The action line at the discrepancy names the action in the same words.
    who = NAMES[event["seat"]]
    action = page.locator("#action").inner_text()
    assert (f"{who}が" if language == "ja" else f"{who} discards") in action
    shot(banner, f"banner-viewer-{language}")


def test_a_custom_lobbys_game_shows_the_records_points_marked(
    language_page: tuple[str, Any], live_server: Any
) -> None:
    language, page = language_page
    game = store(CUSTOM_LOBBY.name, CUSTOM_LOBBY.read_bytes())
    page.goto(f"{live_server.url}/games/{game.pk}/")
    table = page.locator("table.players")
    cells = table.locator("td[data-points-by]")
    assert cells.count() == 4
    for index, points in enumerate(OWARI):
        cell = cells.nth(index)
        assert cell.get_attribute("data-points-by") == "record"
        # The figure, and the mark that says whose it is (the words for screen readers).
        assert cell.inner_text().startswith(f"{points:+.1f}*")
    note = page.locator("#record-points-note")
    assert note.is_visible()
    words = "牌譜に記載されたポイント" if language == "ja" else "Points as the record states them"
    assert words in note.inner_text()
    shot(page.locator("section[aria-labelledby=players-heading]"), f"record-points-{language}")


def test_a_split_record_is_a_whole_game_on_its_page(
    language_page: tuple[str, Any], live_server: Any
) -> None:
    _, page = language_page
    played = engine_game(names=NAMES)
    game = store("split.json", split_tenhou6(played))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    lead = page.locator("p.lead").inner_text()
    assert "stops before the end" not in lead and "終局前" not in lead
    finals = page.locator("table.players tbody tr td:nth-child(4)").all_inner_texts()
    assert finals == [f"{score:,}" for score in played.recorded_final.scores]
    points = page.locator("table.players td[data-points-by]")
    assert {points.nth(i).get_attribute("data-points-by") for i in range(4)} == {"rules"}
