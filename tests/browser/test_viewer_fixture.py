"""The replay viewer on hand-written frames (``viewer_frames.json``, the format of docs/replay.md
"Frames"): what real games seldom hold in one place. Melds of every kind laid out as on a table
(the called tile turned on the side it came from, an added kan stacked, a closed kan's ends face
down), a river with its riichi, tsumogiri and called tiles, waits with a dead one, and every
kind of hand end: a double ron with ura dora, an abortive draw, a nagashi mangan, an exhaustive
draw with nobody tenpai. The frames API is answered from the file; the page is the real one."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mjlogs.importing import Status, import_file
from mjlogs.models import Game
from tests.browser.conftest import screenshot
from tests.engine.corpus import corpus_dir

pytestmark = pytest.mark.django_db(transaction=True)

FIXTURE = Path(__file__).with_name("viewer_frames.json")
GAME = "mjlog_xml/mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.mjlog"


@pytest.fixture
def game(transactional_db: None) -> Game:
    (outcome,) = import_file(Path(GAME).name, (corpus_dir() / GAME).read_bytes())
    assert outcome.status is Status.IMPORTED, outcome
    return Game.objects.get(pk=outcome.game_id)


@pytest.fixture
def fixture_api(page: Any) -> dict[str, Any]:
    rounds = json.loads(FIXTURE.read_text(encoding="utf-8"))["rounds"]

    def answer(route: Any) -> None:
        match = re.search(r"/rounds/(\d+)/frames/$", route.request.url)
        body = rounds.get(match.group(1)) if match else None
        if body is None:
            route.fulfill(status=404, content_type="application/json", body='{"detail": "no"}')
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(re.compile(r".*/api/games/\d+/rounds/\d+/frames/$"), answer)
    return rounds


def names(game: Game) -> list[str]:
    return [player["name"] for player in game.document["players"]]


def open_at(page: Any, live_server: Any, game: Game, round_index: int, step: int) -> None:
    page.goto(f"{live_server.url}/replay/{game.pk}/?round={round_index}&step={step}")
    page.wait_for_function(
        "([round, step]) => { const v = document.getElementById('viewer');"
        " return v.dataset.round === String(round) && v.dataset.step === String(step); }",
        arg=[round_index, step],
    )


def meld_layout(page: Any, seat: int) -> list[list[str]]:
    """Each meld of the seat as its tiles in order: the code, ``side:`` for a turned tile,
    ``back`` for a face-down one, ``[a/b]`` for a stack."""
    return page.evaluate(
        """(seat) => Array.from(document.querySelectorAll(
              `section.seat[data-seat="${seat}"] [data-part="melds"] .meld`)).map((meld) =>
          Array.from(meld.children).filter((node) => !node.classList.contains("meld-from"))
            .map(function show(node) {
              if (node.classList.contains("stack")) {
                return "[" + Array.from(node.children).map(show).join("/") + "]";
              }
              if (node.classList.contains("back")) { return "back"; }
              return (node.classList.contains("side") ? "side:" : "") + node.dataset.tile;
            }))""",
        seat,
    )


def test_melds_rivers_and_waits_as_on_a_table(
    page: Any, live_server: Any, game: Game, fixture_api: dict[str, Any]
) -> None:
    open_at(page, live_server, game, 0, 1)
    who = names(game)
    # Seat 0 (at the bottom): a chi from the player before it (left), an added kan on a pon
    # from across, a closed kan, an open kan from the player after it (right).
    assert meld_layout(page, 0) == [
        ["side:3m", "0m", "4m"],
        ["5p", "[side:0p/side:5p]", "5p"],
        ["back", "7z", "7z", "back"],
        ["9s", "9s", "9s", "side:9s"],
    ]
    froms = page.locator('section.seat[data-seat="0"] .meld .meld-from').all_inner_texts()
    assert froms == [f"\u2190 {who[3]}", f"\u2191 {who[2]}", f"\u2192 {who[1]}"]
    # Seat 3's pon from seat 1, across from it: the turned tile in the middle.
    assert meld_layout(page, 3) == [["6z", "side:6z", "6z"]]

    river = page.locator('section.seat[data-seat="1"] [data-part="river"]')
    rows = river.locator(".river-row")
    assert rows.count() == 2  # 7 discards: rows of 6
    assert rows.nth(0).locator(".tile").count() == 6
    assert river.locator(".tile.riichi-tile.side").get_attribute("data-tile") == "4s"
    assert river.locator(".tile.called").get_attribute("data-tile") == "9s"
    assert river.locator(".tile.tsumogiri").get_attribute("data-tile") == "1p"
    seat1 = page.locator('section.seat[data-seat="1"]')
    assert seat1.locator(".riichi-mark").is_visible()
    assert seat1.locator('[data-part="score"]').inner_text() == "24,000"
    assert seat1.locator('[data-part="delta"]').inner_text() == "\N{MINUS SIGN}1,000"
    assert page.locator("#sticks").inner_text() == "1"
    assert page.locator("#wall").inner_text() == "50"

    # The red fives are marked; the tile back has no face.
    assert page.locator('.tile.red[data-tile="0m"]').count() == 1
    page.keyboard.press("2")
    page.wait_for_selector('section.seat[data-seat="1"][data-pos="bottom"]')
    waits = page.locator('#analysis [data-part="waits"] li')
    assert waits.count() == 2
    assert waits.nth(0).get_attribute("data-tile") == "3m"
    assert waits.nth(1).get_attribute("class") == "wait dead"
    assert "3 unseen in all" in page.locator("#analysis").inner_text()
    screenshot(page, "viewer-fixture-melds")


def test_a_double_ron_shows_both_wins_and_the_ura_dora(
    page: Any, live_server: Any, game: Game, fixture_api: dict[str, Any]
) -> None:
    open_at(page, live_server, game, 0, 2)
    who = names(game)
    panel = page.locator("#result")
    assert panel.is_visible()
    assert page.locator("#result-heading").inner_text() == "East 1: 2 winners"
    wins = panel.locator("article.win")
    assert wins.count() == 2
    first, second = wins.nth(0), wins.nth(1)
    assert first.locator("h3").inner_text() == f"{who[0]} wins by ron from {who[1]}"
    assert first.locator(".value").inner_text() == "5 han 40 fu Mangan 8,000 points"
    assert first.locator(".yaku li").all_inner_texts() == ["Toitoi\n2 han", "Dora\n3 han"]
    assert first.locator(".meld").count() == 4
    assert second.locator(".value").inner_text() == "2 han 30 fu 2,000 points"
    # A 13-tile hand is shown whole, the winning tile apart and marked.
    hand = second.locator('[data-part="hand"] .tile')
    assert hand.count() == 14
    assert hand.nth(13).get_attribute("class").split()[-1] == "winning"
    assert second.locator(".payments li").all_inner_texts() == [
        f"{who[1]} \N{MINUS SIGN}3,000",
        f"{who[2]} +3,000",
    ]
    assert panel.locator('[data-part="ura"] .tile').get_attribute("data-tile") == "4s"
    assert page.locator('#center [data-part="ura"] .tile').count() == 1
    rows = panel.locator("table.scores-after tbody tr")
    assert rows.nth(1).locator("td").all_inner_texts() == [who[1], "\N{MINUS SIGN}11,000", "13,000"]
    # Seat 0's four melds and its tile lie in one line on the table (its tiles get smaller).
    table_box = page.locator("#table").bounding_box()
    row = page.locator('section.seat[data-seat="0"] .hand-row .tile:not(.added-tile)').evaluate_all(
        "(tiles) => tiles.map((t) => { const r = t.getBoundingClientRect();"
        " return [r.left, r.right, r.bottom]; })"
    )
    assert len(row) == 15  # one concealed tile, a chi and three kans (the added tile apart)
    assert min(left for left, _, _ in row) >= table_box["x"]
    assert max(right for _, right, _ in row) <= table_box["x"] + table_box["width"]
    assert max(bottom for _, _, bottom in row) - min(bottom for _, _, bottom in row) < 1
    screenshot(page, "viewer-fixture-double-ron")
    # Escape hides the panel; it comes back at the next result.
    page.keyboard.press("Escape")
    assert not panel.is_visible()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#result:not([hidden])")


@pytest.mark.parametrize(
    ("round_index", "kind", "words"),
    [
        (1, "abortive_draw", "Four winds (suufon renda)"),
        (2, "nagashi_mangan", "Nagashi mangan: {2}."),
        (3, "exhaustive_draw", "Nobody is tenpai."),
    ],
)
def test_draws_are_named(
    page: Any,
    live_server: Any,
    game: Game,
    fixture_api: dict[str, Any],
    round_index: int,
    kind: str,
    words: str,
) -> None:
    open_at(page, live_server, game, round_index, 1)
    panel = page.locator("#result")
    assert panel.get_attribute("data-type") == kind
    assert words.format(*names(game)) in panel.inner_text()
    assert panel.locator("table.scores-after tbody tr").count() == 4


def test_a_failed_load_is_said(page: Any, live_server: Any, game: Game, fixture_api: Any) -> None:
    page.goto(f"{live_server.url}/replay/{game.pk}/?round=5&step=0")
    error = page.locator("#load-error")
    error.wait_for()
    assert "could not be loaded (HTTP 404)" in error.inner_text()
