"""The site and the replay viewer in Japanese in a real browser (issue 24), and the game list on a
phone. A browser whose language is Japanese (``locale="ja-JP"``: Accept-Language and
``navigator.language``) gets Japanese pages, and the viewer reads the page's ``<html lang>``:
hand names, result, yaku, tiles, buttons and the action line in Japanese. The header's switch
works without script. At 390x844 every game of the list shows its scores, verdict and replay
link with nothing scrolling sideways.

The scripts of the statistics, compare and upload pages write their words in the page's
language too (their own ``WORDS`` tables, picked by ``<html lang>``).

Screenshots: ``viewer-ja-1280x900.png``, ``game-list-ja.png``, ``game-list-390x844.png``,
``game-list-ja-390x844.png``, ``stats-ja.png`` and ``upload-ja.png`` in ``test-artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from engine.formats import canonical
from engine.rules.yaku import YAKU
from mjlogs.models import Game
from stats.services import ratings_recompute
from tests.browser.conftest import screenshot
from tests.browser.test_compare_page import suggestions
from tests.browser.test_upload_page import game_json, logged_in
from tests.browser.test_viewer import (
    HANCHAN_3P,
    HANCHAN_4P,
    corpus_bytes,
    engine_frames,
    store,
    wait_step,
)
from tests.mjlogs.pages import engine_game
from tests.stats.names_data import build_names_world
from tests.stats.stats_data import build_world

pytestmark = pytest.mark.django_db(transaction=True)

MODULES = "/static/replay/viewer/"
#: The players of the self-played games: names as long as real ones get, to test the phone.
LONG_NAMES = ("Ann the very patient", "Ben", "ChoWithAnExtremelyLongNameIndeed", "Dai")


def new_page(browser: Any, **options: Any) -> Any:
    context = browser.new_context(bypass_csp=True, **options)
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


@pytest.fixture
def ja_page(browser: Any) -> Iterator[Any]:
    """A browser whose language is Japanese, 1280x900."""
    page = new_page(browser, locale="ja-JP", viewport={"width": 1280, "height": 900})
    try:
        yield page
    finally:
        page.context.close()


def games_listed() -> list[Game]:
    """Four games: two real hanchan (4 and 3 players) and two self-played ones with long names."""
    games = [store(Path(path).name, corpus_bytes(path)) for path in (HANCHAN_4P, HANCHAN_3P)]
    for number in (0, 1):
        played = engine_game(names=LONG_NAMES, number=number)
        games.append(store(f"long-{number}.json", canonical.dumps(played).encode()))
    return games


# -- The viewer's strings -----------------------------------------------------------------------


def test_every_english_string_of_the_viewer_has_its_japanese(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/")
    missing = page.evaluate(
        "async (url) => { const m = await import(url);"
        " return [m.missingKeys('ja'), m.missingKeys('xx').length]; }",
        f"{live_server.url}{MODULES}strings.js",
    )
    assert missing[0] == []
    assert missing[1] > 50  # the check sees a language that has nothing


def test_a_swap_has_its_japanese_action_line(page: Any, live_server: Any) -> None:
    """The ``swap`` rule modifier's action (engine/frames.py): its tile and the indicator in
    Japanese; the engine's sentence in English."""
    page.goto(f"{live_server.url}/")
    lines = page.evaluate(
        "async (url) => { const m = await import(url);"
        " const action = {type: 'swap', seat: 0, tile: '5s', indicator: '3s',"
        " text: 'Ann swaps 5s with the dora indicator 3s'};"
        " const notation = {label: (code) => '<' + code + '>'};"
        " m.setLanguage('ja', {}); const ja = m.actionText(action, () => 'Ann', notation);"
        " m.setLanguage('en', {}); const en = m.actionText(action, () => 'Ann', notation);"
        " return [ja, en]; }",
        f"{live_server.url}{MODULES}strings.js",
    )
    assert lines == ["Ann <5s>とドラ表示牌<3s>を交換", "Ann swaps 5s with the dora indicator 3s"]


def test_the_uzje_tiles_and_actions_have_their_japanese(page: Any, live_server: Any) -> None:
    """Ùzje's notation (notation/uzje.js) names its tiles in the page's language, and its own
    actions (a flower set aside, a bonus tile shown, a chow) have Japanese action lines."""
    page.goto(f"{live_server.url}/")
    found = page.evaluate(
        "async ([strings, notation]) => { const m = await import(strings);"
        " const uzje = (await import(notation)).default;"
        " const names = () => 'Ann';"
        " const read = () => [['5s', 'xt', 'fm', 'Z', 'E', 'H', 'C', 'h', 'q']"
        "   .map((code) => uzje.label(code)), uzje.doraLabel, uzje.readyWord,"
        "   m.actionText({type: 'flower', seat: 0, tile: 'h',"
        "     text: 'Ann sets the flower Spring aside'}, names, uzje),"
        "   m.actionText({type: 'bonus', seat: null, tile: '3m',"
        "     text: 'A new bonus tile is shown: 3m'}, names, uzje),"
        "   m.actionText({type: 'chow', seat: 0, from: 1, tile: 'xt',"
        "     text: 'Ann claims the run with xt from Ann'}, names, uzje)];"
        " m.setLanguage('ja', {}); const ja = read();"
        " m.setLanguage('en', {}); const en = read(); return [ja, en]; }",
        [f"{live_server.url}{MODULES}strings.js", f"{live_server.url}{MODULES}notation/uzje.js"],
    )
    ja, en = found
    assert ja == [
        [
            "5索",
            "10筒",
            "16萬",
            "ゼロ",
            "東",
            "横の風（東西）",  # noqa: RUF001
            "赤の矢（中）",  # noqa: RUF001
            "春の花（東）",  # noqa: RUF001
            "三の花（菊、西）",  # noqa: RUF001
        ],
        "ボーナス",
        "聴牌",
        "Ann 花牌 春の花（東） を抜く",  # noqa: RUF001
        "新ボーナス牌 3萬",
        "Ann チー 10筒（Annから）",  # noqa: RUF001
    ]
    assert en == [
        [
            "5 socks",
            "10 tongs",
            "16 mans",
            "Zero",
            "East wind",
            "Horizontal wind (East and West)",
            "Red arrow",
            "Spring flower (East)",
            "Three flower (chrysanthemum, West)",
        ],
        "Bonus",
        "Ready",
        "Ann sets the flower Spring aside",
        "A new bonus tile is shown: 3m",
        "Ann claims the run with xt from Ann",
    ]


def test_the_viewer_in_japanese(ja_page: Any, live_server: Any) -> None:
    game = store(Path(HANCHAN_4P).name, corpus_bytes(HANCHAN_4P))
    # The end of the first hand won with yaku the engine's table names.
    index = next(
        i
        for i in range(len(game.document["rounds"]))
        if (engine_frames(game, i)["frames"][-1]["result"] or {}).get("type") == "win"
    )
    frames = engine_frames(game, index)["frames"]
    last = len(frames) - 1
    result = frames[last]["result"]
    ja_page.goto(f"{live_server.url}/replay/{game.pk}/?round={index}&step={last}")
    wait_step(ja_page, index, last)
    ja_page.wait_for_function("Array.from(document.images).every((image) => image.complete)")
    assert ja_page.evaluate("document.documentElement.lang") == "ja"
    name = frames[last]["round_name"]
    hand = f"{'東南西北'['ESWN'.index(name[0])]}{name[1:]}局"
    assert ja_page.locator("#round-name").inner_text() == hand
    heading = ja_page.locator("#result-heading").inner_text()
    assert heading.startswith(hand) and heading.endswith("和了"), heading
    # Every yaku by its Japanese name, every value in han (翻) and fu (符), points in 点.
    shown = ja_page.locator("#result .yaku-name").all_inner_texts()
    wanted = [YAKU[yaku].japanese for win in result["wins"] for yaku, _ in win["yaku"]]
    assert shown == wanted and shown
    boxes = ja_page.locator("#result article.win").all()
    for box, win in zip(boxes, result["wins"], strict=True):
        value = box.locator(".value").inner_text()
        assert f"{win['points']:,}点" in value, value
        assert "han" not in value and "points" not in value
        assert "和了" in box.locator("h3").inner_text()
    assert ja_page.locator("#result .indicators .label").first.inner_text().strip() == "ドラ表示牌"
    assert ja_page.locator("#result table.scores-after th").all_inner_texts() == [
        "プレイヤー",
        "収支",
        "点数",
    ]
    # The controls, the centre and the action line.
    assert ja_page.locator("#autoplay").inner_text() == "再生"
    assert ja_page.locator("#hands-toggle").inner_text() == "手牌を表示"
    assert ja_page.locator("#step").inner_text() == f"手順 {last} / {last}"
    assert ja_page.locator("#honba-word").inner_text() == "本場"
    action = ja_page.locator("#action").inner_text()
    assert "和了" in action and "wins" not in action, action
    assert ja_page.title().startswith(hand)
    # Tiles are named in Japanese: 東, 五萬, ...
    labels = ja_page.evaluate(
        "Array.from(document.querySelectorAll('#table .tile[aria-label]'))"
        ".map((tile) => tile.getAttribute('aria-label'))"
    )
    # A river's tile adds its marks in brackets: drawn and discarded, called, the riichi tile.
    japanese_tile = re.compile(
        r"(赤?[一二三四五六七八九][萬筒索]|[東南西北白發中]|伏せ牌)"
        r"(（(ツモ切り|鳴かれた牌|立直宣言牌)）)*"  # noqa: RUF001
    )
    assert labels and all(japanese_tile.fullmatch(label) for label in labels), labels
    # The hand selector: 東1局 · 和了 ...
    options = ja_page.locator("#round-select option").all_inner_texts()
    assert options[index] == f"{hand} · 和了" or options[index].startswith(f"{hand} "), options
    screenshot(ja_page, "viewer-ja-1280x900")
    # The same moment in English has none of it.
    english = new_page(
        ja_page.context.browser, locale="en-US", viewport={"width": 1280, "height": 900}
    )
    try:
        english.goto(f"{live_server.url}/replay/{game.pk}/?round={index}&step={last}")
        wait_step(english, index, last)
        wind = ("East", "South", "West", "North")["ESWN".index(name[0])]
        assert english.locator("#round-name").inner_text() == f"{wind} {name[1:]}"
        assert english.locator("#autoplay").inner_text() == "Play"
        assert "和了" not in english.locator("#result").inner_text()
    finally:
        english.context.close()


# -- The pages in Japanese, the switch ----------------------------------------------------------


def test_the_game_list_in_japanese(ja_page: Any, live_server: Any) -> None:
    games_listed()
    ja_page.goto(f"{live_server.url}/games/")
    assert ja_page.locator("h1").inner_text() == "対局"
    assert ja_page.locator("table.games thead th").all_inner_texts()[:4] == [
        "日時",
        "ルール",
        "プレイヤー・最終持ち点・順位",
        "判定",
    ]
    assert ja_page.locator("table.games .badge").first.inner_text() == "検証済み"
    replay_link = ja_page.locator("table.games .game-links a[href^='/replay/']").first
    assert replay_link.inner_text().startswith("再生\n")
    body = ja_page.locator("main").inner_text()
    assert "Verified" not in body and "Replay" not in body and "1st" not in body
    screenshot(ja_page, "game-list-ja")


def test_the_switch_works_without_script_and_wins_over_the_browser(
    browser: Any, live_server: Any
) -> None:
    page = new_page(
        browser, locale="en-US", java_script_enabled=False, viewport={"width": 1280, "height": 900}
    )
    try:
        page.goto(f"{live_server.url}/players/?q=x")
        assert page.locator("h1").inner_text() == "Players"
        page.locator(".language-switch button[value='ja']").click()
        page.wait_for_url(re.compile(r"/players/\?q=x$"))
        assert page.locator("h1").inner_text() == "プレイヤー"
        cookies = {cookie["name"]: cookie["value"] for cookie in page.context.cookies()}
        assert cookies["django_language"] == "ja"
        page.goto(f"{live_server.url}/games/")  # still Japanese: the cookie is remembered
        assert page.locator("h1").inner_text() == "対局"
        page.locator(".language-switch button[value='en']").click()
        page.wait_for_url(re.compile(r"/games/$"))
        assert page.locator("h1").inner_text() == "Games"
    finally:
        page.context.close()


# -- The pages' scripts in Japanese -------------------------------------------------------------

#: Every chart's dataset labels and axis titles, as Chart.js holds them (what it paints on the
#: canvas, in the legends and in the tooltips).
CHART_WORDS = """() => Array.from(document.querySelectorAll("#charts canvas")).flatMap((canvas) => {
  const chart = Chart.getChart(canvas);
  if (!chart) { return []; }
  const titles = Object.values(chart.options.scales).map((scale) => scale.title.text);
  return chart.data.datasets.map((set) => set.label).concat(titles.filter(Boolean),
    chart.data.labels.slice(0, 1));
})"""


def test_the_stats_charts_in_japanese(ja_page: Any, live_server: Any) -> None:
    world = build_world()
    ratings_recompute()
    ann = world.players["Ann"]
    ja_page.goto(f"{live_server.url}/stats/players/{ann.pk}/")
    ja_page.wait_for_selector('#charts[data-drawn="4"]')
    words = ja_page.evaluate(CHART_WORDS)
    for japanese in (
        "順位",
        "R（当サービスの計算）",  # noqa: RUF001
        "和了率 %",
        "放銃率 %",
        "立直率 %",
        "副露率 %",
        "局数に対する %",
        "最終ポイント（ウマ・オカ込み）の累計",  # noqa: RUF001
        "点数の増減の累計",
        "最終ポイント",
        "点数",
    ):
        assert japanese in words, (japanese, words)
    assert any(re.fullmatch(r"平均順位（直近\d+戦）", word) for word in words), words  # noqa: RUF001
    assert any(word.startswith("第1戦 · ") for word in words), words
    english = ("Placement", "Place", "Win %", "Deal-in %", "Riichi %", "Call %", "% of hands")
    assert not [word for word in words if word in english or "added up" in word or "ours" in word]
    screenshot(ja_page, "stats-ja")


def test_the_compare_completion_in_japanese(
    ja_page: Any, live_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    build_names_world(django_capture_on_commit_callbacks)
    ja_page.goto(f"{live_server.url}/stats/compare/")
    ja_page.wait_for_load_state("networkidle")
    ja_page.locator("#id_b").press_sequentially("e", delay=30)
    ja_page.wait_for_function(
        "() => document.querySelector('#id_b_players option[value^=\"Lee\"]') !== null"
    )
    texts = set(suggestions(ja_page, "b"))
    assert {"Lee · 天鳳（ボット）", "Lee · 雀魂（ボット）"} <= texts, texts  # noqa: RUF001
    assert not any("(bot)" in text or "Tenhou" in text or "Mahjong Soul" in text for text in texts)


def test_the_upload_results_in_japanese(ja_page: Any, live_server: Any) -> None:
    alice = User.objects.create_user("alice", password="alice-secret-1")
    logged_in(ja_page, live_server, alice)
    ja_page.goto(f"{live_server.url}/upload/")
    ja_page.set_input_files(
        'input[type="file"]',
        files=[
            {"name": "one.json", "mimeType": "application/json", "buffer": game_json(1)},
            {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"no game here"},
        ],
    )
    ja_page.wait_for_function("document.querySelectorAll('#upload-list .outcome').length >= 2")
    items = ja_page.locator("#upload-list > li")
    good, bad = items.nth(0), items.nth(1)
    assert good.locator(".upload-state").inner_text() == "取り込み1件、重複0件、失敗0件"
    assert good.locator(".outcome-imported").inner_text() == "取り込み済み：対局を見る"  # noqa: RUF001
    assert good.locator("progress").get_attribute("aria-label") == "one.json のアップロード"
    assert bad.locator(".upload-state").inner_text() == "取り込み0件、重複0件、失敗1件"
    assert bad.locator(".outcome-failed").inner_text().startswith("失敗：")  # noqa: RUF001
    shown = ja_page.locator("#upload-list").inner_text()
    for english in ("imported", "duplicate", "failed:", "view the game"):
        assert english not in shown, shown
    screenshot(ja_page, "upload-ja")


# -- The game list on a phone --------------------------------------------------------------------

READ_ROWS = """() => {
  const box = (node) => { if (!node) { return null; } const r = node.getBoundingClientRect();
    return {left: r.left, right: r.right, width: r.width, height: r.height}; };
  return {
    pageWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    rows: Array.from(document.querySelectorAll("table.games tbody tr")).map((row) => ({
      row: box(row),
      scores: Array.from(row.querySelectorAll(".seats .score")).map(box),
      scoreTexts: Array.from(row.querySelectorAll(".seats .score")).map((n) => n.textContent),
      places: Array.from(row.querySelectorAll(".seats .place")).map(box),
      verdict: box(row.querySelector(".badge")),
      replay: box(row.querySelector(".game-links a[href^='/replay/']")),
      view: box(row.querySelector(".game-links a")),
    })),
  };
}"""


def _inside_width(box: dict[str, float] | None, width: float) -> bool:
    if box is None:
        return False
    return box["width"] > 0 and box["left"] >= 0 and box["right"] <= width + 0.5


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_game_list_on_a_phone_shows_scores_verdict_and_replay_without_sideways_scroll(
    browser: Any, live_server: Any, locale: str
) -> None:
    games = games_listed()
    page = new_page(browser, locale=locale, viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{live_server.url}/games/")
        found = page.evaluate(READ_ROWS)
        assert found["pageWidth"] <= found["width"], found["pageWidth"]
        assert len(found["rows"]) == len(games)
        for row in found["rows"]:
            assert _inside_width(row["row"], found["width"]), row["row"]
            assert len(row["scores"]) in (3, 4)
            for score in row["scores"] + row["places"]:
                assert _inside_width(score, found["width"]), score
            assert all(re.fullmatch(r"[\d,\N{MINUS SIGN}-]+", text) for text in row["scoreTexts"])
            assert _inside_width(row["verdict"], found["width"]), row["verdict"]
            assert _inside_width(row["replay"], found["width"]), row["replay"]
            assert _inside_width(row["view"], found["width"]), row["view"]
        name = "game-list-390x844" if locale == "en-US" else "game-list-ja-390x844"
        screenshot(page, name)
    finally:
        page.context.close()


def test_the_long_names_are_cut_short_not_the_scores(browser: Any, live_server: Any) -> None:
    """A name wider than the card is cut (…) beside its score, which stays whole."""
    store("long.json", canonical.dumps(engine_game(names=LONG_NAMES)).encode())
    page = new_page(browser, viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{live_server.url}/games/")
        widths = page.evaluate(
            "Array.from(document.querySelectorAll('table.games .seats li')).map((li) =>"
            " [li.querySelector('a').scrollWidth > li.querySelector('a').clientWidth,"
            "  li.getBoundingClientRect().right <= window.innerWidth])"
        )
        assert any(cut for cut, _ in widths)  # the longest name does not fit and is cut
        assert all(inside for _, inside in widths)
    finally:
        page.context.close()
