"""The viewer's game end, its rivers' tsumogiri marks and its opaque result panel (issue 39), in a
real browser, in English and in Japanese, on the desktop and on a 390x844 phone.

- After the last hand the viewer shows the game's end as Tenhou does: the final standings, each
  player's place, final score and points (uma and oka counted), best first. It is reached with
  the keyboard (→ past the last hand's last step, ``]`` after the last hand, End at the last
  hand's end), from the hand selector and the last result's button, and by its own link
  (``?end=1``). The figures are the game page's (``mjlogs.game_end``): points by the rules as
  they are, the record's own marked as the record's, none with a note that says why, and no
  standings at all for a record that stops before the end.
- A tile drawn and discarded (tsumogiri) looks so in the river (greyed, its corner dark), and its
  name says so; a legend under the table says what each mark means.
- The result panel is opaque: nothing of the table shows through it.

Screenshots (``MJ_ARTIFACTS``, default ``test-artifacts/``): ``viewer-end-<language>-<width>x
<height>.png`` for English and Japanese at 1280x900 and 390x844, ``viewer-end-record-points-
<language>.png`` and ``viewer-tsumogiri-<language>.png``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.formats import canonical
from mjlogs.models import Game, GameSeat
from tests.browser.conftest import screenshot
from tests.browser.test_viewer import (
    HANCHAN_4P,
    MINUS,
    corpus_bytes,
    engine_frames,
    score_text,
    store,
    wait_step,
)
from tests.mjlogs.pages import engine_game, with_wrong_points
from tests.replay.test_game_end import CUSTOM_LOBBY, OWARI

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ("en", "ja")
DESKTOP = (1280, 900)
PHONE = (390, 844)

#: The standings as the page shows them, row by row.
READ_STANDINGS = """() => {
  const panel = document.getElementById("game-end");
  return {
    shown: !panel.hidden,
    kind: panel.dataset.kind,
    pointsBy: panel.dataset.pointsBy,
    heading: document.getElementById("game-end-heading").textContent,
    head: Array.from(panel.querySelectorAll("thead th")).map((th) => th.textContent),
    rows: Array.from(panel.querySelectorAll("tbody tr")).map((row) => ({
      seat: Number(row.dataset.seat),
      place: row.querySelector(".standing-place").textContent,
      name: row.querySelector(".name").textContent,
      score: row.querySelector(".score").textContent,
      points: row.querySelector(".final-points").textContent,
      by: row.querySelector(".final-points").dataset.pointsBy,
    })),
    note: (panel.querySelector(".game-end-note") || {}).textContent || "",
    step: document.getElementById("step").textContent,
    action: document.getElementById("action").textContent,
    selected: document.getElementById("round-select").value,
  };
}"""

ORDINALS = {
    "en": {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"},
    "ja": {1: "1位", 2: "2位", 3: "3位", 4: "4位"},
}
WORDS = {
    "en": {
        "heading": "Game end: the final standings",
        "head": ["Place", "Player", "Final score", "Points"],
        "step": "Game end",
        "rules": "uma and oka",
        "record": "Points as the record states them",
        "none": "No final points",
        "incomplete": "The record stops before the end of the game",
        "mark": " (as the record states)",
        "tsumogiri": " (drawn and discarded)",
        "legend": "drawn and discarded (tsumogiri)",
    },
    "ja": {
        "heading": "終局：最終順位",  # noqa: RUF001
        "head": ["順位", "プレイヤー", "最終持ち点", "ポイント"],
        "step": "終局",
        "rules": "ウマ・オカ",
        "record": "牌譜に記載されたポイント",
        "none": "最終ポイントはありません",
        "incomplete": "牌譜は終局前に途切れています",
        "mark": "（牌譜の記載値）",  # noqa: RUF001
        "tsumogiri": "（ツモ切り）",  # noqa: RUF001
        "legend": "ツモ切り",
    },
}


def new_page(browser: Any, language: str, size: tuple[int, int]) -> Any:
    context = browser.new_context(
        locale="ja-JP" if language == "ja" else "en-GB",
        viewport={"width": size[0], "height": size[1]},
        bypass_csp=True,
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


@pytest.fixture(params=LANGUAGES)
def language_page(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    """A page of a browser whose language is English or Japanese, 1280x900."""
    page = new_page(browser, request.param, DESKTOP)
    try:
        yield request.param, page
    finally:
        page.context.close()


def wait_end(page: Any) -> None:
    page.wait_for_function(
        "() => { const v = document.getElementById('viewer');"
        " return v.hasAttribute('data-end') && !v.classList.contains('loading')"
        " && !document.getElementById('game-end').hidden; }"
    )


def standings(page: Any) -> dict[str, Any]:
    return page.evaluate(READ_STANDINGS)  # type: ignore[no-any-return]


def points_text(points: float) -> str:
    return f"{points:+.1f}".replace("-", MINUS)


def expected_rows(game: Game, language: str) -> list[dict[str, Any]]:
    """The seats as the game page has them (``GameSeat``), best placed first."""
    seats = sorted(GameSeat.objects.filter(game=game), key=lambda s: (s.placement, s.seat))
    return [
        {
            "seat": seat.seat,
            "place": ORDINALS[language][seat.placement],
            "name": seat.player.name,
            "score": score_text(seat.final_score),
            "points": points_text(seat.points),
            "by": "rules",
        }
        for seat in seats
    ]


def last_moment(game: Game) -> tuple[int, int]:
    last_round = len(game.document["rounds"]) - 1
    return last_round, len(engine_frames(game, last_round)["frames"]) - 1


# -- The game's end --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x900", "390x844"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_end_shows_the_final_standings_by_keyboard_and_by_link(
    browser: Any, live_server: Any, language: str, size: tuple[int, int]
) -> None:
    game = store(Path(HANCHAN_4P).name, corpus_bytes(HANCHAN_4P))
    assert game.complete and game.verification.verdict == "verified"
    words = WORDS[language]
    last_round, last = last_moment(game)
    page = new_page(browser, language, size)
    try:
        page.goto(f"{live_server.url}/replay/{game.pk}/?round={last_round}&step={last}")
        wait_step(page, last_round, last)
        assert page.locator("#result").is_visible()
        assert page.locator("#game-end").is_hidden()
        # → past the last hand's last step: the game's end, and the address names it.
        page.keyboard.press("ArrowRight")
        wait_end(page)
        assert re.search(r"[?&]end=1(&|$)", page.url) and "round=" not in page.url
        shown = standings(page)
        assert shown["heading"] == words["heading"]
        assert shown["head"] == words["head"]
        assert shown["rows"] == expected_rows(game, language)
        assert shown["pointsBy"] == "rules"
        assert words["rules"] in shown["note"]
        assert shown["step"] == words["step"] and shown["selected"] == "end"
        assert page.locator("#result").is_hidden()
        # Nothing of it is out of the window's width; on the desktop it is all in the window.
        box = page.locator("#game-end").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 0.5, box
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        if size == DESKTOP:
            assert box["y"] + box["height"] <= size[1], box
        screenshot(page, f"viewer-end-{language}-{size[0]}x{size[1]}")

        # ← goes back to the last hand's end; → stays at the game's end once there.
        page.keyboard.press("ArrowLeft")
        wait_step(page, last_round, last)
        assert page.locator("#game-end").is_hidden() and page.locator("#result").is_visible()
        assert "end=1" not in page.url
        page.keyboard.press("End")  # at the last hand's end: the game's end
        wait_end(page)
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(200)
        assert standings(page)["shown"]

        # The link opens it, with the seat it names; the browser's back returns to the hand.
        page.goto(f"{live_server.url}/replay/{game.pk}/?end=1&seat=2")
        wait_end(page)
        assert standings(page)["rows"] == expected_rows(game, language)
        assert page.locator('section.seat[data-seat="2"][data-pos="bottom"]').count() == 1
        page.keyboard.press("[")  # the previous hand from the end: the last hand's start
        wait_step(page, last_round, 0)
        page.keyboard.press("]")  # after the last hand: the game's end
        wait_end(page)
        page.go_back()
        wait_step(page, last_round, 0)
        page.go_forward()
        wait_end(page)

        # Esc hides it; the hand selector and the last result's button reach it too.
        page.keyboard.press("Escape")
        assert page.locator("#game-end").is_hidden()
        page.select_option("#round-select", "0")
        wait_step(page, 0, 0)
        page.select_option("#round-select", "end")
        wait_end(page)
        page.goto(f"{live_server.url}/replay/{game.pk}/?round={last_round}&step={last}")
        wait_step(page, last_round, last)
        page.locator("#result .to-game-end").click()
        wait_end(page)
    finally:
        page.context.close()


def test_the_game_end_shows_the_records_points_marked(
    language_page: tuple[str, Any], live_server: Any
) -> None:
    """A custom lobby's game: verified, its points the record's own (the rules do not know its
    uma), each marked and said so."""
    language, page = language_page
    words = WORDS[language]
    game = store(CUSTOM_LOBBY.name, CUSTOM_LOBBY.read_bytes())
    page.goto(f"{live_server.url}/replay/{game.pk}/?end=1")
    wait_end(page)
    shown = standings(page)
    assert shown["pointsBy"] == "record"
    by_seat = {row["seat"]: row for row in shown["rows"]}
    for seat, points in enumerate(OWARI):
        assert by_seat[seat]["by"] == "record"
        assert by_seat[seat]["points"] == points_text(points) + "*" + words["mark"]
    assert [row["place"] for row in shown["rows"]] == list(ORDINALS[language].values())
    assert shown["note"].startswith("* " + words["record"])
    screenshot(page, f"viewer-end-record-points-{language}")


def test_the_game_end_of_a_game_the_rules_disagree_with_has_no_points(
    language_page: tuple[str, Any], live_server: Any
) -> None:
    language, page = language_page
    game = store("wrong.json", with_wrong_points(engine_game(number=1)))
    assert game.verification.verdict == "score_mismatch"
    page.goto(f"{live_server.url}/replay/{game.pk}/?end=1")
    wait_end(page)
    shown = standings(page)
    assert shown["pointsBy"] == ""
    assert [row["points"] for row in shown["rows"]] == ["\N{EM DASH}"] * 4
    assert [row["score"] for row in shown["rows"]] == [
        score_text(seat.final_score)
        for seat in sorted(GameSeat.objects.filter(game=game), key=lambda s: s.placement)
    ]
    assert shown["note"].startswith(WORDS[language]["none"])


def test_a_record_that_stops_before_the_end_says_so_at_its_end(
    language_page: tuple[str, Any], live_server: Any
) -> None:
    language, page = language_page
    played = engine_game()
    cut = dataclasses.replace(played, rounds=played.rounds[:-1], recorded_final=None)
    game = store("cut.json", canonical.write([cut]))
    assert game.complete is False
    last_round, last = last_moment(game)
    page.goto(f"{live_server.url}/replay/{game.pk}/?round={last_round}&step={last}")
    wait_step(page, last_round, last)
    page.keyboard.press("ArrowRight")
    wait_end(page)
    shown = standings(page)
    assert shown["kind"] == "incomplete" and shown["rows"] == []
    assert shown["note"].startswith(WORDS[language]["incomplete"])


# -- The rivers' tsumogiri, the result panel ------------------------------------------------------

#: Per river tile of the table: its tile, whether drawn and discarded, its accessible name and
#: how it is painted.
READ_RIVERS = """() => Array.from(document.querySelectorAll('#table [data-part="river"] .tile'))
  .map((tile) => {
    const face = tile.querySelector(".face");
    const style = getComputedStyle(face);
    const corner = getComputedStyle(face, "::after");
    return {
      seat: Number(tile.closest("section.seat").dataset.seat),
      tsumogiri: tile.classList.contains("tsumogiri"),
      called: tile.classList.contains("called"),
      label: tile.getAttribute("aria-label"),
      title: tile.title,
      background: style.backgroundImage,
      corner: corner.content !== "none" && corner.borderRightColor !== "rgba(0, 0, 0, 0)",
    };
  })"""


def test_tsumogiri_discards_are_marked_and_named(
    language_page: tuple[str, Any], live_server: Any
) -> None:
    language, page = language_page
    words = WORDS[language]
    game = store(Path(HANCHAN_4P).name, corpus_bytes(HANCHAN_4P))
    frames = engine_frames(game, 0)["frames"]
    last = len(frames) - 1
    page.goto(f"{live_server.url}/replay/{game.pk}/?round=0&step={last}")
    wait_step(page, 0, last)
    page.keyboard.press("Escape")  # the result panel aside: the rivers in full
    tiles = page.evaluate(READ_RIVERS)
    expected = [
        discard["tsumogiri"]
        for seat in range(4)
        for discard in frames[last]["seats"][seat]["discards"]
    ]
    shown = [tile["tsumogiri"] for tile in sorted(tiles, key=lambda tile: tile["seat"])]
    assert shown == expected and any(shown) and not all(shown)
    marked = [tile for tile in tiles if tile["tsumogiri"]]
    plain = [tile for tile in tiles if not tile["tsumogiri"] and not tile["called"]]
    for tile in marked:
        # Said to a screen reader as well as drawn: the tile's name carries the mark.
        assert words["tsumogiri"] in tile["label"]
        assert tile["label"] == tile["title"]
        assert tile["corner"]
    assert {tile["background"] for tile in marked}.isdisjoint(t["background"] for t in plain)
    assert not any(tile["corner"] for tile in plain)
    legend = page.locator(".river-legend li[data-mark='tsumogiri']")
    assert legend.is_visible() and words["legend"] in legend.inner_text()
    screenshot(page, f"viewer-tsumogiri-{language}")


#: Whether anything behind the panel could show through: its own background's alpha and the
#: opacity of the panel and every element above it; and what the page shows at its centre.
READ_OPACITY = """() => {
  const panel = document.querySelector("#result:not([hidden]), #game-end:not([hidden])");
  const alpha = (colour) => { const m = colour.match(/rgba?\\(([^)]+)\\)/);
    const parts = m ? m[1].split(",").map(Number) : [];
    return parts.length === 4 ? parts[3] : 1; };
  const opacities = [];
  for (let node = panel; node && node.nodeType === 1; node = node.parentElement) {
    opacities.push(Number(getComputedStyle(node).opacity));
  }
  const box = panel.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {alpha: alpha(getComputedStyle(panel).backgroundColor),
          opacities: opacities, centreInPanel: panel.contains(hit)};
}"""


def test_the_result_panel_is_opaque_even_while_a_hand_loads(page: Any, live_server: Any) -> None:
    game = store(Path(HANCHAN_4P).name, corpus_bytes(HANCHAN_4P))
    last = len(engine_frames(game, 0)["frames"]) - 1
    page.goto(f"{live_server.url}/replay/{game.pk}/?round=0&step={last}")
    wait_step(page, 0, last)
    found = page.evaluate(READ_OPACITY)
    assert found["alpha"] == 1 and set(found["opacities"]) == {1}, found
    assert found["centreInPanel"]
    # While the next hand's frames load, the table dims, never the panel over it.
    page.evaluate("document.getElementById('viewer').classList.add('loading')")
    found = page.evaluate(READ_OPACITY)
    assert found["alpha"] == 1 and set(found["opacities"]) == {1}, found
    page.evaluate("document.getElementById('viewer').classList.remove('loading')")
    page.goto(f"{live_server.url}/replay/{game.pk}/?end=1")
    wait_end(page)
    found = page.evaluate(READ_OPACITY)
    assert found["alpha"] == 1 and set(found["opacities"]) == {1}, found
