"""The viewer's square table and result screens (issue 24) on real games and a self-played Ùzje
game, at 1280x900 and on a 390x844 phone: every tile and figure shown is the engine's, the table
fits the window (no scrolling on the desktop, no sideways scrolling on the phone), the result
panel shows whole, a yakuman reads as a yakuman, draws show every hand, and a riichi game has no
empty "Counts" line. Screenshots go to ``test-artifacts/table-<scene>-<width>x<height>.png``:

- ``hanchan-mid-hand``: a 4-player hanchan in the middle of a hand;
- ``riichi-calls``: a riichi declared (its tile sideways) beside called melds;
- ``double-ron``: the end of a hand won by two players on one discard;
- ``exhaustive-draw``: the end of a hand nobody won, every hand shown;
- ``sanma``: a 3-player game with norths set aside;
- ``uzje-6p``: a self-played 6-player Ùzje game in the middle of its hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mjlogs.models import Game
from tests.browser.conftest import screenshot
from tests.browser.test_variants import READ_TABLE as READ_VARIANT_TABLE
from tests.browser.test_variants import assert_shows as assert_variant_shows
from tests.browser.test_variants import (
    assert_tiles_are_readable,
    self_played,
    store_game,
    wait_for_faces,
)
from tests.browser.test_viewer import (
    HANCHAN_3P,
    HANCHAN_4P,
    assert_shows,
    corpus_bytes,
    engine_frames,
    score_text,
    signed,
    store,
    table,
    wait_step,
)

pytestmark = pytest.mark.django_db(transaction=True)

DOUBLE_RON = "mjlog_xml/mjx-project__mjx/double-ron.mjlog"
SUUKANTSU = "tenhou6_json/Equim-chan__mjai-reviewer/suukantsu_0.json"
SIZES = [(1280, 900), (390, 844)]

#: Boxes of the table, its seats and the result panel, and whether anything scrolls.
READ_BOXES = """() => {
  const box = (node) => { const r = node.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const panel = document.getElementById("result");
  return {
    table: box(document.getElementById("table")),
    centre: box(document.getElementById("center")),
    seats: Array.from(document.querySelectorAll("#table section.seat")).map(box),
    tiles: Array.from(document.querySelectorAll("#table section.seat .tile")).map(box),
    result: panel.hidden ? null : box(panel),
    resultScrolls: !panel.hidden && panel.scrollHeight > panel.clientHeight + 1,
    pageWidth: document.documentElement.scrollWidth,
    pageHeight: document.documentElement.scrollHeight,
    width: window.innerWidth,
    height: window.innerHeight,
  };
}"""


def corpus_game(path: str) -> Game:
    return store(Path(path).name, corpus_bytes(path))


def open_at(
    page: Any, live_server: Any, game: Game, round_index: int, step: int, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/replay/{game.pk}/?round={round_index}&step={step}")
    wait_step(page, round_index, step)
    wait_for_faces(page)


def _inside(inner: dict[str, float], outer: dict[str, float], slack: float = 1) -> bool:
    return (
        inner["left"] >= outer["left"] - slack
        and inner["top"] >= outer["top"] - slack
        and inner["right"] <= outer["right"] + slack
        and inner["bottom"] <= outer["bottom"] + slack
    )


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share, beyond half a pixel along their edges (sub-pixel placing)."""
    width = min(a["right"], b["right"]) - max(a["left"], b["left"]) - 0.5
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) - 0.5
    return max(0.0, width) * max(0.0, height)


def assert_fits(page: Any, size: tuple[int, int]) -> dict[str, Any]:
    """The table lies on the page without sideways scrolling (on the desktop, without any
    scrolling: the whole table is in the window); its seats' blocks and every tile lie on it, the
    blocks apart from each other and from the centre box; the result panel, when shown, is whole
    (nothing scrolls inside it)."""
    boxes = page.evaluate(READ_BOXES)
    assert boxes["pageWidth"] <= boxes["width"], boxes
    if size[0] >= 1000:
        assert boxes["table"]["bottom"] <= boxes["height"], boxes["table"]
        assert boxes["table"]["right"] <= boxes["width"], boxes["table"]
    for tile in boxes["tiles"]:
        assert _inside(tile, boxes["table"]), (tile, boxes["table"])
    for seat in boxes["seats"]:
        assert _inside(seat, boxes["table"]), (seat, boxes["table"])
        assert _overlap(seat, boxes["centre"]) < 1, (seat, boxes["centre"])
    for index, seat in enumerate(boxes["seats"]):
        for other in boxes["seats"][index + 1 :]:
            assert _overlap(seat, other) < 1, (seat, other)
    if boxes["result"] is not None:
        assert not boxes["resultScrolls"], "the result panel is clipped"
        if size[0] >= 1000:
            # Over the table, in the window.
            assert _inside(boxes["result"], boxes["table"]), (boxes["result"], boxes["table"])
            assert boxes["result"]["bottom"] <= boxes["height"], boxes["result"]
        else:
            # Over the table and as long as it needs: the page scrolls down to its end.
            assert boxes["table"]["left"] <= boxes["result"]["left"]
            assert boxes["result"]["right"] <= boxes["table"]["right"]
            bottom = boxes["result"]["bottom"] + page.evaluate("window.scrollY")
            assert bottom <= boxes["pageHeight"] + 1
    return boxes


def assert_result_figures(page: Any, frame: dict[str, Any]) -> None:
    """The result panel's figures are the engine's: each win's han, fu, points and payments,
    every player's change and score."""
    result = frame["result"]
    panel = page.locator("#result")
    assert panel.is_visible()
    assert panel.get_attribute("data-type") == result["type"]
    rows = panel.locator("table.scores-after tbody tr")
    assert rows.count() == len(result["scores_after"])
    for seat, after in enumerate(result["scores_after"]):
        cells = rows.nth(seat).locator("td")
        assert cells.nth(1).inner_text() == signed(result["deltas"][seat])
        assert cells.nth(2).inner_text() == score_text(after)
    for number, win in enumerate(result.get("wins", [])):
        box = panel.locator("article.win").nth(number)
        value = box.locator(".value")
        assert value.get_attribute("data-han") == str(win["han"])
        assert value.get_attribute("data-fu") == str(win["fu"])
        assert box.locator(".points").get_attribute("data-points") == str(win["points"])
        text = value.inner_text()
        assert f"{win['points']:,} points" in text
        if win["limit"] and win["limit"].endswith("yakuman") and win["limit"] != "kazoe_yakuman":
            assert "han" not in text and "fu" not in text, text
        else:
            assert f"{win['han']} han" in text
        paid = box.locator(".payments li").all_inner_texts()
        assert len(paid) == sum(1 for delta in win["deltas"] if delta)


# -- the scenes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_hanchan_in_the_middle_of_a_hand(
    page: Any, live_server: Any, transactional_db: None, size: tuple[int, int]
) -> None:
    game = corpus_game(HANCHAN_4P)
    frames = engine_frames(game, 2)["frames"]
    open_at(page, live_server, game, 2, 40, size)
    assert_shows(table(page), frames[40])
    assert [seat["pos"] for seat in table(page)["seats"]] == ["bottom", "right", "top", "left"]
    assert_fits(page, size)
    # The centre: round, counters, tiles left, dora; every seat's wind and score.
    assert page.locator("#round-name").inner_text() == "East " + frames[40]["round_name"][1:]
    assert page.locator("#honba").inner_text() == str(frames[40]["honba"])
    assert page.locator("#sticks").inner_text() == str(frames[40]["riichi_sticks"])
    for seat, view in enumerate(frames[40]["seats"]):
        info = page.locator(f'section.seat[data-seat="{seat}"] .seat-info')
        assert info.is_visible()
        assert info.locator(".wind").inner_text() == "ESWN"[(seat - frames[40]["dealer"]) % 4]
        assert info.locator('[data-part="score"]').inner_text() == score_text(view["score"])
    # A riichi game has no "Counts" line (that is Ùzje's bonus_is_next).
    assert not page.locator("#center .bonus-line").is_visible()
    screenshot(page, f"table-hanchan-mid-hand-{size[0]}x{size[1]}")
    # The other hands face down.
    page.keyboard.press("h")
    page.wait_for_selector('#viewer[data-hands="hidden"]')
    assert_shows(table(page), frames[40], hidden_except=0)
    assert_fits(page, size)
    screenshot(page, f"table-hanchan-hands-hidden-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_riichi_beside_called_melds(
    page: Any, live_server: Any, transactional_db: None, size: tuple[int, int]
) -> None:
    game = corpus_game(HANCHAN_4P)
    frame = engine_frames(game, 0)["frames"][130]
    assert any(view["riichi"] for view in frame["seats"])
    assert sum(len(view["melds"]) for view in frame["seats"]) >= 3
    open_at(page, live_server, game, 0, 130, size)
    assert_shows(table(page), frame)
    assert_fits(page, size)
    for seat, view in enumerate(frame["seats"]):
        section = page.locator(f'section.seat[data-seat="{seat}"]')
        # The riichi stick lies on the table before a seat in riichi, and only there.
        assert section.locator(".riichi-mark").is_visible() is view["riichi"]
        if view["riichi"]:
            assert section.locator('[data-part="river"] .tile.riichi-tile.side').count() == 1
        # Each called tile lies sideways in its meld.
        for meld in section.locator('[data-part="melds"] .meld').all():
            assert meld.locator(".tile.side.called-tile").count() == 1
    screenshot(page, f"table-riichi-calls-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_double_ron(
    page: Any, live_server: Any, transactional_db: None, size: tuple[int, int]
) -> None:
    game = corpus_game(DOUBLE_RON)
    frames = engine_frames(game, 3)["frames"]
    last = frames[-1]
    assert len(last["result"]["wins"]) == 2
    open_at(page, live_server, game, 3, len(frames) - 1, size)
    assert_shows(table(page), last)
    assert page.locator("#result-heading").inner_text() == "East 4: 2 winners"
    assert page.locator("#result article.win").count() == 2
    assert_result_figures(page, last)
    assert_fits(page, size)
    screenshot(page, f"table-double-ron-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_an_exhaustive_draw_shows_every_hand(
    page: Any, live_server: Any, transactional_db: None, size: tuple[int, int]
) -> None:
    game = corpus_game(HANCHAN_4P)
    frames = engine_frames(game, 1)["frames"]
    last = frames[-1]
    assert last["result"]["type"] == "exhaustive_draw"
    open_at(page, live_server, game, 1, len(frames) - 1, size)
    assert_shows(table(page), last)
    assert_result_figures(page, last)
    panel = page.locator("#result")
    tenpai = {entry["seat"]: entry for entry in last["result"]["tenpai"]}
    hands = panel.locator(".draw-hands article")
    assert hands.count() == 4
    for seat in range(4):
        box = panel.locator(f'.draw-hands article[data-seat="{seat}"]')
        classes = (box.get_attribute("class") or "").split()
        assert ("tenpai" if seat in tenpai else "noten") in classes
        codes = box.locator('[data-part="hand"] .tile').evaluate_all(
            "(tiles) => tiles.map((t) => t.dataset.tile)"
        )
        view = last["seats"][seat]
        expected = (
            tenpai[seat]["hand"]
            if seat in tenpai
            else [*view["hand"], *([view["drawn"]] if view["drawn"] else [])]
        )
        assert sorted(codes) == sorted(expected)
    assert_fits(page, size)
    screenshot(page, f"table-exhaustive-draw-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_sanma_game(
    page: Any, live_server: Any, transactional_db: None, size: tuple[int, int]
) -> None:
    game = corpus_game(HANCHAN_3P)
    found = None
    for index in range(len(game.document["rounds"])):
        for frame in engine_frames(game, index)["frames"]:
            if (
                found is None
                and any(view["north"] for view in frame["seats"])
                and frame["step"] > 20
            ):
                found = (index, frame)
    assert found is not None
    index, frame = found
    open_at(page, live_server, game, index, frame["step"], size)
    shown = table(page)
    assert [seat["pos"] for seat in shown["seats"]] == ["bottom", "right", "left"]
    assert_shows(shown, frame)
    assert_fits(page, size)
    screenshot(page, f"table-sanma-{size[0]}x{size[1]}")
    # The end of that hand: the result panel whole (it was clipped at 1280x900).
    last = len(engine_frames(game, index)["frames"]) - 1
    page.keyboard.press("End")
    wait_step(page, index, last)
    assert_result_figures(page, engine_frames(game, index)["frames"][last])
    assert_fits(page, size)
    screenshot(page, f"table-sanma-result-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_an_uzje_six_player_game(
    page: Any, live_server: Any, transactional_db: None, size: tuple[int, int]
) -> None:
    stored = store_game(self_played("uzje-6p"), "uzje-6p-table")
    frames = engine_frames(stored, 0)["frames"]
    # The moment of the hand's second half with the most melds and flowers on the table.
    half = len(frames) // 2
    step = max(
        range(half, len(frames) - 1),
        key=lambda i: sum(len(v["melds"]) + len(v["flowers"]) for v in frames[i]["seats"]),
    )
    open_at(page, live_server, stored, 0, step, size)
    shown = page.evaluate(READ_VARIANT_TABLE)
    assert_variant_shows(shown, frames[step], 6)
    assert_tiles_are_readable(shown, True)
    assert [seat["pos"] for seat in shown["seats"]] == [
        "bottom", "right", "top-right", "top", "top-left", "left",
    ]  # fmt: skip
    assert_fits(page, size)
    screenshot(page, f"table-uzje-6p-{size[0]}x{size[1]}")


def test_a_yakuman_reads_as_a_yakuman(page: Any, live_server: Any, transactional_db: None) -> None:
    game = corpus_game(SUUKANTSU)
    frames = engine_frames(game, 0)["frames"]
    win = frames[-1]["result"]["wins"][0]
    assert (win["limit"], win["yaku"]) == ("yakuman", [["suukantsu", 13]])
    open_at(page, live_server, game, 0, len(frames) - 1, (1280, 900))
    box = page.locator("#result article.win")
    assert box.locator(".value").inner_text() == f"Yakuman {win['points']:,} points"
    assert box.locator(".yaku li").all_inner_texts() == ["Suukantsu\nYakuman"]
    assert_result_figures(page, frames[-1])
    assert_fits(page, (1280, 900))
    screenshot(page, "table-yakuman-1280x900")
