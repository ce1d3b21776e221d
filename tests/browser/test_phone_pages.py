"""The site's pages on a phone (issue 39), 390x844, in English and in Japanese:

- the game page shows each player's place and final points without any sideways scroll (each
  player a card, place and points first, every figure under its label); the hands' table, which
  keeps a column per player, says that it scrolls sideways;
- the filter forms of the game list and of the statistics pages (the leaderboard, a player's
  statistics) no longer fill the first screen: each is folded into its summary (a ``<details>``)
  while no filter is set, opens from the keyboard, and is open with the count of the filters set
  once one is; the player list's search stays one short form.

Screenshots (``MJ_ARTIFACTS``, default ``test-artifacts/``): ``game-page-<language>-390x844.png``
and ``filters-<page>-<language>-390x844.png`` (folded).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from mjlogs.models import GameSeat
from stats.services import ratings_recompute
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_viewer import HANCHAN_4P, corpus_bytes, store
from tests.replay.test_game_end import CUSTOM_LOBBY, OWARI
from tests.stats.stats_data import build_world

pytestmark = pytest.mark.django_db(transaction=True)


ORDINALS = {
    "en": {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"},
    "ja": {1: "1位", 2: "2位", 3: "3位", 4: "4位"},
}
LABELS = {
    "en": {"place": "Place", "points": "Points", "final": "Final", "hint": "scrolls sideways"},
    "ja": {"place": "順位", "points": "ポイント", "final": "最終持ち点", "hint": "横にスクロール"},
}


# -- The game page -------------------------------------------------------------------------------

#: Each player's row: the boxes and words of its place and points (and their labels), and
#: whether the players' table scrolls sideways.
READ_PLAYERS = """() => {
  const box = (node) => { const r = node.getBoundingClientRect();
    return {left: r.left, right: r.right, width: r.width, height: r.height}; };
  const label = (node) => getComputedStyle(node, "::before").content.replace(/^"|"$/g, "");
  const cell = (row, name) => { const node = row.querySelector("td." + name);
    return {box: box(node), text: node.innerText.replace(label(node), "").trim(),
            label: label(node)}; };
  const scroller = document.querySelector("table.players").closest(".table-scroll");
  return {
    pageWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    scrolls: scroller.scrollWidth > scroller.clientWidth + 1,
    rows: Array.from(document.querySelectorAll("table.players tbody tr")).map((row) => ({
      name: row.querySelector("td.player a").textContent,
      place: cell(row, "final-place"),
      points: cell(row, "final-points"),
      final: cell(row, "final-score"),
    })),
    hint: (() => { const hint = document.getElementById("rounds-scroll-hint");
      return hint && hint.offsetHeight > 0 ? hint.textContent : ""; })(),
  };
}"""


def _inside(box: dict[str, float], width: float) -> bool:
    return box["width"] > 0 and box["height"] > 0 and box["left"] >= 0 and box["right"] <= width


def test_the_game_page_on_a_phone_shows_place_and_points_without_sideways_scroll(
    phone: tuple[str, Any], live_server: Any
) -> None:
    language, page = phone
    game = store(Path(HANCHAN_4P).name, corpus_bytes(HANCHAN_4P))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # A Tenhou record gives its players' ranks: the widest players' table there is.
    assert page.locator("td[data-recorded-rank]").count() == 4
    found = page.evaluate(READ_PLAYERS)
    assert found["pageWidth"] <= found["width"]
    assert not found["scrolls"]
    seats = {s.player.name: s for s in GameSeat.objects.filter(game=game).select_related("player")}
    labels = LABELS[language]
    assert len(found["rows"]) == 4
    for row in found["rows"]:
        seat = seats[row["name"]]
        for part in ("place", "points", "final"):
            assert _inside(row[part]["box"], found["width"]), (part, row)
            assert row[part]["label"] == labels[part]
        assert row["place"]["text"] == ORDINALS[language][seat.placement]
        assert row["points"]["text"] == f"{seat.points:+.1f}"
        assert row["final"]["text"] == f"{seat.final_score:,}"
    assert labels["hint"] in found["hint"]
    screenshot(page, f"game-page-{language}-390x844")


def test_the_records_points_keep_their_mark_on_a_phone(
    phone: tuple[str, Any], live_server: Any
) -> None:
    _, page = phone
    game = store(CUSTOM_LOBBY.name, CUSTOM_LOBBY.read_bytes())
    page.goto(f"{live_server.url}/games/{game.pk}/")
    found = page.evaluate(READ_PLAYERS)
    assert not found["scrolls"]
    for row, points in zip(found["rows"], OWARI, strict=True):
        assert _inside(row["points"]["box"], found["width"])
        assert row["points"]["text"].startswith(f"{points:+.1f}*")


def test_the_game_page_on_the_desktop_keeps_its_tables(page: Any, live_server: Any) -> None:
    game = store(Path(HANCHAN_4P).name, corpus_bytes(HANCHAN_4P))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("table.players thead").is_visible()
    assert (
        page.evaluate("getComputedStyle(document.querySelector('table.players tbody tr')).display")
        == "table-row"
    )
    assert not page.locator("#rounds-scroll-hint").is_visible()


# -- The filter forms ------------------------------------------------------------------------------

#: The filter form's box and its fold.
READ_FORM = """(selector) => {
  const form = document.querySelector(selector);
  const fold = form.querySelector("details.filters-fold");
  const r = form.getBoundingClientRect();
  const fields = Array.from(form.querySelectorAll("input:not([type=hidden]), select"));
  return {
    top: r.top, bottom: r.bottom, height: r.height,
    folded: fold !== null && !fold.open,
    open: fold !== null && fold.open,
    summary: fold ? fold.querySelector("summary").innerText : "",
    fieldsShown: fields.filter((node) => node.checkVisibility()).length,
    next: form.nextElementSibling.getBoundingClientRect().top,
  };
}"""

TITLES = {
    "en": {
        "games": "Filter the games",
        "leaderboard": "Choose the ranking",
        "stats": "Choose the games counted",
    },
    "ja": {
        "games": "対局の絞り込み",
        "leaderboard": "ランキングの選択",
        "stats": "集計する対局の選択",
    },
}
ONE_SET = {"en": "(1 set)", "ja": "（1件指定）"}  # noqa: RUF001


@pytest.mark.parametrize("name", ["games", "leaderboard", "stats"])
def test_a_filter_form_is_folded_on_a_phone_until_a_filter_is_set(
    phone: tuple[str, Any], live_server: Any, name: str
) -> None:
    language, page = phone
    world = build_world()
    ratings_recompute()
    ann = world.players["Ann"]
    address, chosen = {
        "games": ("/games/", "?ruleset=tenhou-4p"),
        "leaderboard": ("/stats/leaderboard/", "?metric=win_rate"),
        "stats": (f"/stats/players/{ann.pk}/", f"?opponent={world.id('Eve')}"),
    }[name]
    page.goto(f"{live_server.url}{address}")
    form = page.evaluate(READ_FORM, "form.filters")
    assert form["folded"] and form["fieldsShown"] == 0, form
    # Its summary line only (it was taller than the screen): what follows it, the count or the
    # results, starts in the first screen's top half, under the site's header.
    assert form["height"] < 100 and form["next"] < PHONE["height"] / 2, form
    assert form["summary"] == TITLES[language][name]
    screenshot(page, f"filters-{name}-{language}-390x844")

    # The keyboard opens it: Tab to the summary, Enter.
    summary = page.locator("form.filters summary")
    summary.focus()
    page.keyboard.press("Enter")
    form = page.evaluate(READ_FORM, "form.filters")
    assert form["open"] and form["fieldsShown"] >= 2, form

    # A filter set: the form opens with it, and its summary counts it.
    page.goto(f"{live_server.url}{address}{chosen}")
    form = page.evaluate(READ_FORM, "form.filters")
    assert form["open"] and form["fieldsShown"] >= 2, form
    assert form["summary"] == f"{TITLES[language][name]} {ONE_SET[language]}"


def test_the_player_lists_search_stays_short_on_a_phone(
    phone: tuple[str, Any], live_server: Any
) -> None:
    _, page = phone
    build_world()
    page.goto(f"{live_server.url}/players/")
    form = page.evaluate(
        "() => { const r = document.querySelector('form.search').getBoundingClientRect();"
        " return {bottom: r.bottom, height: r.height}; }"
    )
    assert form["height"] < 100 and form["bottom"] < PHONE["height"] / 2, form
    assert page.locator("table.player-list").is_visible()
    assert re.search(r"Ann|Ben", page.locator("table.player-list").inner_text())
