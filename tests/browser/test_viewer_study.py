"""The viewer's study aids (issue 24) on a real game: the keys , and . jump to the viewed seat's
previous and next discard decision (< and > to those that did not keep the most acceptance),
across hands; the panel lists the engine's discards best first with their accepted tiles and
unseen copies, marks the discard played with its verdict, and sums the hand's and the game's
decisions. Screenshots: ``test-artifacts/study-aids-1280x900.png`` and ``-390x844.png`` (the
whole page), ``study-aids-panel-<size>.png`` (the analysis panel alone)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.formats import canonical
from engine.study import riichi_study
from mjlogs.models import Game
from tests.browser.conftest import screenshot
from tests.browser.test_viewer import HANCHAN_4P, corpus_bytes, engine_frames, store, wait_step
from tests.browser.test_viewer_table import assert_fits

pytestmark = pytest.mark.django_db(transaction=True)

#: The study part of the panel as shown.
READ_STUDY = """() => {
  const panel = document.getElementById("analysis");
  const items = Array.from(panel.querySelectorAll('[data-part="discards"] li'));
  const line = (selector) => {
    const node = panel.querySelector(selector);
    return node ? {kept: Number(node.dataset.kept), decisions: Number(node.dataset.decisions),
                   hands: Number(node.dataset.hands || 0), text: node.textContent} : null;
  };
  const verdict = panel.querySelector(".study-verdict");
  return {
    options: items.map((item) => ({
      tile: item.dataset.tile,
      shanten: Number(item.dataset.shanten),
      count: Number(item.dataset.count),
      chosen: item.classList.contains("chosen"),
      tiles: Array.from(item.querySelectorAll(".accept")).map((a) => [a.dataset.tile,
        Number(a.dataset.unseen)]),
    })),
    verdict: verdict ? verdict.dataset.verdict : null,
    hand: line(".hand-summary"),
    game: line(".game-summary"),
    panelRight: panel.getBoundingClientRect().right,
  };
}"""


@pytest.fixture
def hanchan(transactional_db: None) -> Game:
    return store(Path(HANCHAN_4P).name, corpus_bytes(HANCHAN_4P))


def decisions(game: Game, seat: int, missed: bool = False) -> list[tuple[int, int]]:
    """(round, step) of every decision of ``seat``, from the engine's frames."""
    out = []
    for index in range(len(game.document["rounds"])):
        for frame in engine_frames(game, index)["frames"]:
            study = frame["study"]
            if study and study["seat"] == seat and (not missed or not study["kept"]):
                out.append((index, frame["step"]))
    return out


def assert_panel_shows(page: Any, game: Game, round_index: int, step: int) -> dict[str, Any]:
    study = engine_frames(game, round_index)["frames"][step]["study"]
    shown = page.evaluate(READ_STUDY)
    assert [option["tile"] for option in shown["options"]] == [
        option["tile"] for option in study["options"]
    ]
    for seen, option in zip(shown["options"], study["options"], strict=True):
        assert seen["count"] == option["count"]
        assert seen["shanten"] == option["shanten"]
        assert seen["tiles"] == [[tile, study["unseen"][tile]] for tile in option["tiles"]]
        assert seen["chosen"] == (option["tile"] == study["discard"])
    expected = "kept" if study["kept"] else ("raised" if study["loss"] is None else "lost")
    assert shown["verdict"] == expected
    return shown


def press(page: Any, key: str, game: Game, moment: tuple[int, int]) -> None:
    page.keyboard.press(key)
    wait_step(page, *moment)


@pytest.mark.corpus
def test_the_decision_keys_and_the_panel(page: Any, live_server: Any, hanchan: Game) -> None:
    ours = decisions(hanchan, 0)
    missed = decisions(hanchan, 0, missed=True)
    assert len(ours) > 40 and missed
    page.goto(f"{live_server.url}/replay/{hanchan.pk}/?round=0&step=0&seat=0")
    wait_step(page, 0, 0)
    assert page.locator('#analysis [data-part="discards"]').count() == 0
    press(page, ".", hanchan, ours[0])
    assert_panel_shows(page, hanchan, *ours[0])
    press(page, ".", hanchan, ours[1])
    assert_panel_shows(page, hanchan, *ours[1])
    press(page, ",", hanchan, ours[0])
    # The first decision that did not keep the most acceptance, then back to the one before.
    press(page, ">", hanchan, missed[0])
    shown = assert_panel_shows(page, hanchan, *missed[0])
    assert shown["verdict"] in ("lost", "raised")
    if len(missed) > 1:
        press(page, ">", hanchan, missed[1])
        press(page, "<", hanchan, missed[0])
    # Across hands: from the last decision of the first hand, "." goes to the next hand's first.
    last_of_first = max(moment for moment in ours if moment[0] == 0)
    page.goto(f"{live_server.url}/replay/{hanchan.pk}/?round=0&step={last_of_first[1]}&seat=0")
    wait_step(page, *last_of_first)
    following = ours[ours.index(last_of_first) + 1]
    assert following[0] == 1
    press(page, ".", hanchan, following)
    # The hand's summary is the engine's count for seat 0 in that hand; the game's, once every
    # hand has loaded, the whole game's.
    tallies = riichi_study(canonical.game_from_json(hanchan.document))
    (hand,) = [tally for tally in tallies if (tally.round, tally.seat) == (1, 0)]
    shown = page.evaluate(READ_STUDY)
    assert (shown["hand"]["kept"], shown["hand"]["decisions"]) == (hand.kept, hand.decisions)
    rounds = len(hanchan.document["rounds"])
    page.wait_for_function(
        "(n) => { const g = document.querySelector('#analysis .game-summary');"
        " return g && Number(g.dataset.hands) === n; }",
        arg=rounds,
    )
    shown = page.evaluate(READ_STUDY)
    seat_tallies = [tally for tally in tallies if tally.seat == 0]
    assert shown["game"]["decisions"] == sum(tally.decisions for tally in seat_tallies)
    assert shown["game"]["kept"] == sum(tally.kept for tally in seat_tallies)
    assert shown["game"]["decisions"] == len(ours)


@pytest.mark.corpus
@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["1280x900", "390x844"])
def test_study_aids_screenshots(
    page: Any, live_server: Any, hanchan: Game, size: tuple[int, int]
) -> None:
    # A decision that gave up acceptance, so that the picture shows the discard played marked
    # beside a better one.
    round_index, step = decisions(hanchan, 0, missed=True)[0]
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/replay/{hanchan.pk}/?round={round_index}&step={step}&seat=0")
    wait_step(page, round_index, step)
    assert_panel_shows(page, hanchan, round_index, step)
    boxes = assert_fits(page, size)
    shown = page.evaluate(READ_STUDY)
    assert shown["panelRight"] <= boxes["width"] + 0.5  # nothing of the panel cut off
    # Every accepted tile lies inside the panel (the rows wrap rather than overflow).
    overflow = page.evaluate(
        """() => {
          const panel = document.getElementById("analysis").getBoundingClientRect();
          const parts = document.querySelectorAll("#analysis .discard-choice *");
          return Array.from(parts).filter((node) => {
            const r = node.getBoundingClientRect();
            return r.width && (r.right > panel.right + 0.5 || r.left < panel.left - 0.5);
          }).length;
        }"""
    )
    assert overflow == 0
    # Every hand loaded first: as each loads, the game's summary grows and moves the buttons
    # below it, and a tap Playwright aimed before such a move can land beside its button.
    page.wait_for_function(
        "(n) => { const g = document.querySelector('#analysis .game-summary');"
        " return g && Number(g.dataset.hands) === n; }",
        arg=len(hanchan.document["rounds"]),
    )
    if size[0] < 600:
        # On a phone the buttons do what the keys do.
        ours = decisions(hanchan, 0)
        following = ours[ours.index((round_index, step)) + 1]
        page.locator('#analysis [data-study="next"]').click()
        wait_step(page, *following)
        page.locator('#analysis [data-study="previous"]').click()
        wait_step(page, round_index, step)
    assert_fits(page, size)
    path = screenshot(page, f"study-aids-{size[0]}x{size[1]}")
    # The panel alone, as large as it is drawn (the page's picture is long).
    page.locator("#analysis").screenshot(
        path=str(path.with_name(f"study-aids-panel-{size[0]}x{size[1]}.png"))
    )


# -- the other side of a decision (issue 39) --------------------------------------------------

#: The other side of the panel's decision as shown: what the figures measure, each discard's
#: yaku and safety signs, and the lines under the verdict.
READ_SIDES = """() => {
  const panel = document.getElementById("analysis");
  const one = (selector) => panel.querySelector(selector);
  const text = (part) => {
    const node = one(`[data-part="${part}"]`);
    return node && node.textContent;
  };
  const items = Array.from(panel.querySelectorAll('[data-part="discards"] li'));
  return {
    measures: text("study-measures"),
    value: one('[data-part="study-value"]').dataset.common,
    options: items.map((item) => ({
      tile: item.dataset.tile,
      yaku: item.dataset.yaku,
      safety: item.dataset.safety,
      badges: Array.from(item.querySelectorAll(".safety-badge")).map((b) => b.textContent),
    })),
    trade: one('[data-part="study-trade"]') && one('[data-part="study-trade"]').dataset.trade,
    tradeText: text("study-trade"),
    safety: Array.from(panel.querySelectorAll('[data-part="study-safety"]')).map(
      (line) => [Number(line.dataset.seat), line.dataset.safety, line.textContent]),
    push: text("study-push"),
    defence: one(".hand-defence") && [Number(one(".hand-defence").dataset.genbutsu),
                                      Number(one(".hand-defence").dataset.facing)],
  };
}"""


def facing_decisions(game: Game, seat: int) -> list[tuple[int, int, dict[str, Any]]]:
    """(round, step, study) of every decision of ``seat`` facing a riichi, from the engine."""
    out = []
    for index in range(len(game.document["rounds"])):
        for frame in engine_frames(game, index)["frames"]:
            study = frame["study"]
            if study and study["seat"] == seat and study["riichi"]:
                out.append((index, frame["step"], study))
    return out


def assert_sides_shown(page: Any, study: dict[str, Any]) -> dict[str, Any]:
    shown = page.evaluate(READ_SIDES)
    by_tile = {option["tile"]: option for option in study["options"]}
    for seen in shown["options"]:
        option = by_tile[seen["tile"]]
        assert seen["yaku"] == " ".join(option["yaku"])
        assert seen["safety"] == ",".join(sign or "" for sign in option["safety"])
    made = by_tile[study["discard"]]
    assert [(seat, sign) for seat, sign, _ in shown["safety"]] == [
        (seat, sign or "") for seat, sign in zip(study["riichi"], made["safety"], strict=True)
    ]
    assert (shown["trade"] or "") == " ".join(study["trade"])
    pushed = made["shanten"] >= 2 and not all(sign == "genbutsu" for sign in made["safety"])
    assert (shown["push"] is not None) == pushed
    return shown


@pytest.mark.corpus
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_panel_says_what_it_measures_and_the_other_side(
    browser: Any, live_server: Any, hanchan: Game, language: str
) -> None:
    from tests.browser.test_translations import new_page

    page = new_page(
        browser, locale="ja-JP" if language == "ja" else "en-US",
        viewport={"width": 1280, "height": 900},
    )  # fmt: skip
    facing = facing_decisions(hanchan, 0)
    traded = next(entry for entry in facing if set(entry[2]["trade"]) == {"value", "defence"})
    pushing = next(
        entry
        for entry in facing
        if any(
            option["tile"] == entry[2]["discard"]
            and option["shanten"] >= 2
            and "genbutsu" not in option["safety"]
            for option in entry[2]["options"]
        )
    )
    words = {
        "en": ("measures speed alone", "a trade for value", "is genbutsu", "pushes a hand at"),
        "ja": ("速さ", "打点との交換", "現物", "リーチに押しています"),
    }[language]
    for round_index, step, study in (traded, pushing):
        page.goto(f"{live_server.url}/replay/{hanchan.pk}/?round={round_index}&step={step}&seat=0")
        wait_step(page, round_index, step)
        shown = assert_sides_shown(page, study)
        assert words[0] in shown["measures"]
        assert shown["defence"] is not None and shown["defence"][1] >= 1
    # The traded decision: the lines say what it kept; the pushing one says it pushes.
    page.goto(f"{live_server.url}/replay/{hanchan.pk}/?round={traded[0]}&step={traded[1]}&seat=0")
    wait_step(page, traded[0], traded[1])
    shown = page.evaluate(READ_SIDES)
    assert words[1] in shown["tradeText"]
    assert any(words[2] in text for _, sign, text in shown["safety"] if sign == "genbutsu")
    page.goto(f"{live_server.url}/replay/{hanchan.pk}/?round={pushing[0]}&step={pushing[1]}&seat=0")
    wait_step(page, pushing[0], pushing[1])
    assert words[3] in page.evaluate(READ_SIDES)["push"]
    screenshot(page, f"study-sides-{language}")
    page.context.close()
