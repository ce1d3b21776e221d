"""The replay viewer in a real browser, on real corpus games: stepping with the keyboard shows the
engine's table (tiles in every hand and river, melds, scores, the result panel), a deep link opens
its moment, the browser's back and forward walk the moves, a record with a discrepancy opens at
it, and screenshots of a 4-player and a sanma game at desktop and phone widths are saved."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.formats import canonical, read_games
from engine.frames import round_frames
from mjlogs.importing import Status, import_file
from mjlogs.models import Game
from replay.models import Verdict, Verification
from tests.browser.conftest import screenshot
from tests.engine.corpus import corpus_dir

pytestmark = pytest.mark.django_db(transaction=True)

HANCHAN_4P = "mjlog_xml/mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.mjlog"
HANCHAN_3P = "mjlog_xml/MitsuhiroTaniguchi__MahjongLM/2014091101gm-00b9-0000-5ca6b487.txt"
MINUS = "\N{MINUS SIGN}"

#: What the page shows, read in one go: the step, and per seat its hand (tile codes, "back"
#: for a hidden tile), river, melds (tile codes), score and position.
READ_TABLE = """() => {
  const codes = (nodes) => Array.from(nodes).map(
    (tile) => tile.classList.contains("back") ? "back" : tile.dataset.tile);
  const seats = Array.from(document.querySelectorAll("#table section.seat")).map((seat) => ({
    seat: Number(seat.dataset.seat),
    pos: seat.dataset.pos,
    hand: codes(seat.querySelectorAll('[data-part="hand"] .tile')),
    drawn: codes(seat.querySelectorAll('[data-part="hand"] .tile.drawn')),
    river: codes(seat.querySelectorAll('[data-part="river"] .tile')),
    riichi: codes(seat.querySelectorAll('[data-part="river"] .tile.riichi-tile')),
    called: codes(seat.querySelectorAll('[data-part="river"] .tile.called')),
    melds: Array.from(seat.querySelectorAll('[data-part="melds"] .meld')).map(
      (meld) => codes(meld.querySelectorAll(".tile"))),
    score: seat.querySelector('[data-part="score"]').textContent,
    delta: seat.querySelector('[data-part="delta"]').textContent,
  }));
  const step = document.getElementById("step");
  return {
    step: Number(step.dataset.step),
    last: Number(step.dataset.last),
    round: Number(document.getElementById("viewer").dataset.round),
    wall: document.getElementById("wall").textContent,
    dora: codes(document.querySelectorAll('#center [data-part="dora"] .tile')),
    resultShown: !document.getElementById("result").hidden,
    seats: seats,
  };
}"""


# -- Games and what the engine says about them ------------------------------------------------


def corpus_bytes(path: str) -> bytes:
    return (corpus_dir() / path).read_bytes()


def store(name: str, data: bytes) -> Game:
    """Import a file as an upload; its verification runs at once (no transaction to wait for)."""
    (outcome,) = import_file(name, data)
    assert outcome.status is Status.IMPORTED, outcome
    return Game.objects.get(pk=outcome.game_id)


@pytest.fixture
def hanchan(transactional_db: None) -> Game:
    game = store(Path(HANCHAN_4P).name, corpus_bytes(HANCHAN_4P))
    assert game.players_count == 4
    assert Verification.objects.get(game=game).verdict == Verdict.VERIFIED
    return game


@pytest.fixture
def sanma(transactional_db: None) -> Game:
    game = store(Path(HANCHAN_3P).name, corpus_bytes(HANCHAN_3P))
    assert game.players_count == 3
    return game


@cache
def _frames(document: str, round_index: int) -> dict[str, Any]:
    game = canonical.game_from_json(json.loads(document))
    return round_frames(game, round_index).to_json()


def engine_frames(game: Game, round_index: int) -> dict[str, Any]:
    """The engine's frames of one round of a stored game (``engine.frames``)."""
    return _frames(json.dumps(game.document, sort_keys=True), round_index)


# -- The page -----------------------------------------------------------------------------------


def open_viewer(page: Any, live_server: Any, game: Game, query: str = "") -> None:
    page.goto(f"{live_server.url}/replay/{game.pk}/{query}")
    page.wait_for_selector("#step[data-step]")


def table(page: Any) -> dict[str, Any]:
    return page.evaluate(READ_TABLE)


def wait_step(page: Any, round_index: int, step: int) -> None:
    page.wait_for_function(
        "([round, step]) => { const v = document.getElementById('viewer');"
        " return v.dataset.round === String(round) && v.dataset.step === String(step)"
        " && !v.classList.contains('loading'); }",
        arg=[round_index, step],
    )


def score_text(score: int) -> str:
    return f"{score:,}" if score >= 0 else f"{MINUS}{-score:,}"


def signed(delta: int) -> str:
    if delta > 0:
        return f"+{delta:,}"
    return f"{MINUS}{-delta:,}" if delta < 0 else "0"


def assert_shows(
    shown: dict[str, Any], frame: dict[str, Any], *, hidden_except: int | None = None
) -> None:
    """The page shows this engine frame: every hand tile by tile (or face down), the rivers
    with their riichi and called tiles, the melds, the scores and the wall."""
    assert shown["step"] == frame["step"]
    assert shown["wall"] == str(frame["wall_left"])
    assert shown["dora"] == frame["dora_indicators"]
    for seat in shown["seats"]:
        view = frame["seats"][seat["seat"]]
        expected_hand = list(view["hand"]) + ([view["drawn"]] if view["drawn"] else [])
        if hidden_except is not None and seat["seat"] != hidden_except:
            assert seat["hand"] == ["back"] * len(expected_hand)
        else:
            assert seat["hand"] == expected_hand
            assert seat["drawn"] == ([view["drawn"]] if view["drawn"] else [])
        assert seat["river"] == [discard["tile"] for discard in view["discards"]]
        assert seat["riichi"] == [d["tile"] for d in view["discards"] if d["riichi"]]
        assert seat["called"] == [d["tile"] for d in view["discards"] if d["called"]]
        assert len(seat["melds"]) == len(view["melds"])
        for shown_meld, meld in zip(seat["melds"], view["melds"], strict=True):
            if meld["type"] == "closed_kan":
                assert shown_meld.count("back") == 2
                assert sorted(t for t in shown_meld if t != "back") == sorted(meld["tiles"][1:3])
            else:
                assert sorted(shown_meld) == sorted(meld["tiles"])
        assert seat["score"] == score_text(view["score"])


# -- Stepping, jumping, linking -----------------------------------------------------------------


def test_stepping_with_the_keyboard_shows_the_engines_table(
    page: Any, live_server: Any, hanchan: Game
) -> None:
    open_viewer(page, live_server, hanchan)
    frames = engine_frames(hanchan, 0)["frames"]
    shown = table(page)
    assert len(shown["seats"]) == 4
    assert [seat["pos"] for seat in shown["seats"]] == ["bottom", "right", "top", "left"]
    assert shown["last"] == len(frames) - 1
    assert_shows(shown, frames[0])
    assert [len(seat["hand"]) for seat in shown["seats"]] == [13, 13, 13, 13]
    for step in range(1, 41):
        page.keyboard.press("ArrowRight")
        wait_step(page, 0, step)
        assert_shows(table(page), frames[step])
        assert page.locator("#action").inner_text().startswith(frames[step]["action"]["text"])
    for step in range(39, 34, -1):
        page.keyboard.press("ArrowLeft")
        wait_step(page, 0, step)
        assert_shows(table(page), frames[step])
    assert re.search(r"[?&]round=0&step=35&seat=0", page.url)


def test_the_end_of_a_hand_shows_the_engines_result(
    page: Any, live_server: Any, hanchan: Game
) -> None:
    open_viewer(page, live_server, hanchan)
    rounds = hanchan.document["rounds"]
    # The replayer's report (engine.replay, stored with the verdict) is a second witness.
    report = Verification.objects.get(game=hanchan).report["rounds"]
    seen = set()
    for index in range(len(rounds)):
        body = engine_frames(hanchan, index)
        last = body["frames"][-1]
        if index:
            page.keyboard.press("]")
        wait_step(page, index, 0)
        assert not table(page)["resultShown"]
        page.keyboard.press("End")
        wait_step(page, index, len(body["frames"]) - 1)
        shown = table(page)
        assert_shows(shown, last)
        result = last["result"]
        assert shown["resultShown"] is (result is not None)
        if result is None:
            continue
        seen.add(result["type"])
        panel = page.locator("#result")
        assert panel.get_attribute("data-type") == result["type"]
        names = hanchan.document["players"]
        rows = panel.locator("table.scores-after tbody tr")
        assert rows.count() == 4
        assert result["scores_after"] == report[index]["scores_after"]
        assert result["deltas"] == report[index]["deltas"]
        for seat, after in enumerate(result["scores_after"]):
            cells = rows.nth(seat).locator("td")
            assert cells.nth(0).inner_text() == names[seat]["name"]
            assert cells.nth(1).inner_text() == signed(result["deltas"][seat])
            assert cells.nth(2).inner_text() == score_text(after)
        if result["type"] == "win":
            wins = panel.locator("article.win")
            assert wins.count() == len(result["wins"])
            witness = report[index]["wins"]
            assert [(w["seat"], w["han"], w["fu"], w["points"]) for w in result["wins"]] == [
                (w["seat"], w["han"], w["fu"], w["points"]) for w in witness
            ]
            for number, win in enumerate(result["wins"]):
                box = wins.nth(number)
                assert box.get_attribute("data-seat") == str(win["seat"])
                assert box.locator(".points").get_attribute("data-points") == str(win["points"])
                value = box.locator(".value").inner_text()
                assert f"{win['han']} han" in value
                if win["limit"]:
                    assert win["limit"].replace("_", " ").lower() in value.lower()
                yaku = box.locator(".yaku li")
                assert yaku.count() == len(win["yaku"])
                for line, (name, han) in zip(yaku.all_inner_texts(), win["yaku"], strict=True):
                    assert name.replace("_", " ").lower() in line.lower()
                    assert f"{han} han" in line
                shown_hand = box.locator('[data-part="hand"] .tile')
                codes = [
                    shown_hand.nth(i).get_attribute("data-tile") for i in range(shown_hand.count())
                ]
                assert codes[-1] == win["tile"]
                assert sorted(codes[:-1]) == sorted(
                    win["hand"] if len(win["hand"]) % 3 == 1 else win["hand"][:-1]
                )
                header = box.locator("h3").inner_text()
                assert names[win["seat"]]["name"] in header
                assert ("tsumo" in header) is (win["from"] is None)
        else:
            assert result["type"] == "exhaustive_draw"
            assert panel.locator("article.tenpai").count() == len(result["tenpai"])
    assert seen == {"win", "exhaustive_draw"}


def test_a_deep_link_opens_its_moment_and_back_and_forward_walk_the_moves(
    page: Any, live_server: Any, hanchan: Game
) -> None:
    open_viewer(page, live_server, hanchan, "?round=2&step=10")
    wait_step(page, 2, 10)
    frames = engine_frames(hanchan, 2)["frames"]
    assert_shows(table(page), frames[10])
    assert page.locator("#step").inner_text() == f"Step 10 / {len(frames) - 1}"
    assert page.locator("#round-select").input_value() == "2"
    assert page.locator("#round-name").inner_text() == "East " + frames[10]["round_name"][1:]

    for step in (11, 12, 13):
        page.keyboard.press("ArrowRight")
        wait_step(page, 2, step)
    assert page.url.endswith("?round=2&step=13&seat=0")
    page.go_back()
    wait_step(page, 2, 12)
    assert_shows(table(page), frames[12])
    page.go_back()
    wait_step(page, 2, 11)
    page.go_forward()
    wait_step(page, 2, 12)
    assert page.url.endswith("?round=2&step=12&seat=0")

    # A new hand through the selector, then back to where we were.
    page.select_option("#round-select", "4")
    wait_step(page, 4, 0)
    assert_shows(table(page), engine_frames(hanchan, 4)["frames"][0])
    page.go_back()
    wait_step(page, 2, 12)

    # Stepping back from a hand's deal goes to the end of the hand before.
    page.keyboard.press("Home")
    wait_step(page, 2, 0)
    page.keyboard.press("ArrowLeft")
    before = engine_frames(hanchan, 1)["frames"]
    wait_step(page, 1, len(before) - 1)
    page.keyboard.press("PageDown")
    wait_step(page, 2, 0)
    page.keyboard.press("PageUp")
    wait_step(page, 1, 0)

    # Reloading the address opens the same moment.
    page.keyboard.press("ArrowRight")
    wait_step(page, 1, 1)
    page.reload()
    wait_step(page, 1, 1)


def test_turns_rotation_and_hidden_hands(page: Any, live_server: Any, hanchan: Game) -> None:
    open_viewer(page, live_server, hanchan)
    frames = engine_frames(hanchan, 0)["frames"]

    def turns(seat: int) -> list[int]:
        found, before = [], False
        for frame in frames:
            action = frame["action"]
            now = (
                bool(action)
                and action["seat"] == seat
                and (frame["seats"][seat]["drawn"] is not None or action["type"] in ("chi", "pon"))
            )
            if now and not before:
                found.append(frame["step"])
            before = now
        return found

    # The viewed seat's turns: after its draw (or its chi/pon), with a 14th tile to play.
    for step in turns(0)[:4]:
        page.keyboard.press("ArrowDown")
        wait_step(page, 0, step)
        assert frames[step]["action"]["seat"] == 0
    page.keyboard.press("ArrowUp")
    wait_step(page, 0, turns(0)[2])

    # r rotates: the next seat sits at the bottom, its turns are the ones walked.
    page.keyboard.press("r")
    page.wait_for_selector('section.seat[data-seat="1"][data-pos="bottom"]')
    assert page.locator('section.seat[data-seat="0"]').get_attribute("data-pos") == "left"
    assert page.locator('section.seat[data-seat="2"]').get_attribute("data-pos") == "right"
    assert "seat=1" in page.url
    current = turns(0)[2]
    following = next(step for step in turns(1) if step > current)
    page.keyboard.press("ArrowDown")
    wait_step(page, 0, following)
    assert (
        page.locator("#analysis .seat-name").inner_text() == hanchan.document["players"][1]["name"]
    )
    page.keyboard.press("3")
    page.wait_for_selector('section.seat[data-seat="2"][data-pos="bottom"]')
    page.keyboard.press("R")
    page.wait_for_selector('section.seat[data-seat="1"][data-pos="bottom"]')

    # h hides every hand but the viewed seat's, and says so in the address.
    page.keyboard.press("h")
    page.wait_for_selector('#viewer[data-hands="hidden"]')
    assert "hands=hidden" in page.url
    assert_shows(table(page), frames[following], hidden_except=1)
    page.keyboard.press("h")
    page.wait_for_selector('#viewer[data-hands="shown"]')
    assert_shows(table(page), frames[following])


def test_the_analysis_shows_shanten_and_waits_with_unseen_counts(
    page: Any, live_server: Any, hanchan: Game
) -> None:
    # The first moment of the game where some seat is tenpai with 13 tiles.
    found = None
    for index in range(len(hanchan.document["rounds"])):
        for frame in engine_frames(hanchan, index)["frames"]:
            for seat, view in enumerate(frame["seats"]):
                if view["waits"] and found is None:
                    found = (index, frame, seat)
    assert found is not None
    index, frame, seat = found
    open_viewer(page, live_server, hanchan, f"?round={index}&step={frame['step']}&seat={seat}")
    wait_step(page, index, frame["step"])
    assert page.locator("#analysis .shanten").inner_text() == "Tenpai."
    waits = page.locator('#analysis [data-part="waits"] li')
    assert [
        (waits.nth(i).get_attribute("data-tile"), int(waits.nth(i).get_attribute("data-unseen")))
        for i in range(waits.count())
    ] == [(wait["tile"], wait["unseen"]) for wait in frame["seats"][seat]["waits"]]
    # At the deal, the analysis of seat 0 is its shanten.
    page.keyboard.press("Home")
    wait_step(page, index, 0)
    page.keyboard.press("1")
    page.wait_for_selector('section.seat[data-seat="0"][data-pos="bottom"]')
    deal = engine_frames(hanchan, index)["frames"][0]["seats"][0]["shanten"]
    assert page.locator("#analysis .shanten").get_attribute("data-shanten") == str(deal)


def test_help_autoplay_and_the_buttons(page: Any, live_server: Any, hanchan: Game) -> None:
    open_viewer(page, live_server, hanchan)
    page.keyboard.press("?")
    help_dialog = page.locator("#help")
    assert help_dialog.is_visible()
    assert "Next / previous turn of the viewed seat" in help_dialog.inner_text()
    page.keyboard.press("Escape")
    assert not help_dialog.is_visible()

    page.select_option("#speed", "4")
    page.keyboard.press(" ")
    assert page.locator("#autoplay").get_attribute("aria-pressed") == "true"
    page.wait_for_function("Number(document.getElementById('step').dataset.step) >= 3")
    page.keyboard.press(" ")
    assert page.locator("#autoplay").get_attribute("aria-pressed") == "false"
    stopped = table(page)["step"]
    page.wait_for_timeout(600)
    assert table(page)["step"] == stopped
    assert f"step={stopped}" in page.url

    page.click('[data-nav="start"]')
    wait_step(page, 0, 0)
    page.click('[data-nav="forward"]')
    wait_step(page, 0, 1)
    # Space on a focused button toggles autoplay without pressing the button.
    page.select_option("#speed", "0.5")
    page.focus('[data-nav="forward"]')
    page.keyboard.press(" ")
    assert page.locator("#autoplay").get_attribute("aria-pressed") == "true"
    page.keyboard.press(" ")
    assert page.locator("#autoplay").get_attribute("aria-pressed") == "false"
    page.wait_for_timeout(300)
    assert table(page)["step"] == 1
    page.click('[data-nav="next-round"]')
    wait_step(page, 1, 0)
    page.click('[data-nav="end"]')
    last = len(engine_frames(hanchan, 1)["frames"]) - 1
    wait_step(page, 1, last)
    assert page.locator("#result").is_visible()
    page.click("#result .close-result")
    assert not page.locator("#result").is_visible()
    page.click("#rotate")
    page.wait_for_selector('section.seat[data-seat="1"][data-pos="bottom"]')
    page.click("#hands-toggle")
    page.wait_for_selector('#viewer[data-hands="hidden"]')

    # The slider moves through the hand; other keys still work while it has the focus.
    page.keyboard.press("Home")
    wait_step(page, 1, 0)
    page.focus("#scrub")
    page.keyboard.press("ArrowRight")
    wait_step(page, 1, 1)
    page.keyboard.press("End")
    wait_step(page, 1, last)
    page.keyboard.press("h")
    page.wait_for_selector('#viewer[data-hands="shown"]')


# -- A discrepancy ------------------------------------------------------------------------------


def with_wrong_points(data: bytes, name: str) -> bytes:
    """The game as a canonical file with its first recorded win's points changed."""
    ((game,), _) = read_games(data, file_name=name)
    document = canonical.game_to_json(game)
    for round_ in document["rounds"]:
        for event in round_["events"]:
            if event["type"] == "win" and "points" in event.get("recorded", {}):
                event["recorded"]["points"] += 100
                return json.dumps(document).encode()
    raise AssertionError("the game has no recorded win")


def test_a_mismatch_opens_at_the_discrepancy_and_shows_what_was_expected(
    page: Any, live_server: Any, transactional_db: None
) -> None:
    game = store("mutated.json", with_wrong_points(corpus_bytes(HANCHAN_4P), HANCHAN_4P))
    verification = Verification.objects.get(game=game)
    assert verification.verdict == Verdict.SCORE_MISMATCH
    found = verification.discrepancy
    step = found["event"] + 1
    open_viewer(page, live_server, game)
    wait_step(page, found["round"], step)
    frames = engine_frames(game, found["round"])["frames"]
    assert_shows(table(page), frames[step])
    banner = page.locator("#discrepancy")
    assert banner.is_visible()
    assert "here" in (banner.get_attribute("class") or "")
    # In words (mjlogs.discrepancy_words): whose figure, what the rules give, what the record
    # says; no rule line for a figure.
    sentence = banner.locator(".discrepancy-sentence").inner_text()
    assert f"the rules give {int(found['expected']):,} points" in sentence
    assert f"the record says {int(found['found']):,} points" in sentence
    assert not banner.locator(".discrepancy-rule").is_visible()
    assert page.locator("#action.discrepancy-here").is_visible()
    # Leave, and come back with d.
    page.keyboard.press("Home")
    wait_step(page, found["round"], 0)
    assert "here" not in (banner.get_attribute("class") or "")
    page.keyboard.press("d")
    wait_step(page, found["round"], step)


def with_illegal_discard(data: bytes, name: str, round_index: int, event_index: int) -> bytes:
    """The game as a canonical file with one discard changed to a tile its player lacks."""
    ((game,), _) = read_games(data, file_name=name)
    document = canonical.game_to_json(game)
    event = document["rounds"][round_index]["events"][event_index]
    assert event["type"] == "discard"
    seat = canonical.game_from_json(document)
    frame = round_frames(seat, round_index).frames[event_index]
    held = set(frame.seats[event["seat"]].hand) | {frame.seats[event["seat"]].drawn}
    event["tile"] = next(
        tile for tile in ("1z", "2z", "3z", "4z", "5z", "6z", "7z", "1m", "9m") if tile not in held
    )
    event["tsumogiri"] = False
    return json.dumps(document).encode()


def test_an_illegal_action_opens_on_the_state_it_was_tried_on(
    page: Any, live_server: Any, transactional_db: None
) -> None:
    data = with_illegal_discard(corpus_bytes(HANCHAN_4P), HANCHAN_4P, 1, 11)
    game = store("illegal.json", data)
    verification = Verification.objects.get(game=game)
    assert verification.verdict == Verdict.ILLEGAL_ACTION
    found = verification.discrepancy
    assert (found["round"], found["event"]) == (1, 11)
    open_viewer(page, live_server, game)
    # The frames stop before the refused event: the last frame is the state it was tried on.
    frames = engine_frames(game, 1)["frames"]
    assert len(frames) == 12
    wait_step(page, 1, 11)
    assert_shows(table(page), frames[11])
    assert table(page)["last"] == 11
    banner = page.locator("#discrepancy")
    assert banner.locator(".verdict-label").inner_text() == "Illegal action:"
    # Who did what and which rule, in sentences; never the engine's repr of the event.
    assert (
        banner.locator(".discrepancy-sentence")
        .inner_text()
        .startswith("In hand 2 (E2) the record has an action the rules do not allow: ")
    )
    assert (
        banner.locator(".discrepancy-rule").inner_text().startswith("The rules do not allow it: ")
    )
    assert "Discard(" not in banner.inner_text()
    assert "the record has an action the rules do not allow" in page.locator("#action").inner_text()
    screenshot(page, "viewer-illegal-action")


# -- Sanma, widths and screenshots --------------------------------------------------------------


def test_a_sanma_game_has_three_seats_and_its_north_tiles(
    page: Any, live_server: Any, sanma: Game
) -> None:
    # The first frame where someone has set a North aside.
    found = None
    for index in range(len(sanma.document["rounds"])):
        for frame in engine_frames(sanma, index)["frames"]:
            if found is None and any(view["north"] for view in frame["seats"]):
                found = (index, frame)
    assert found is not None
    index, frame = found
    open_viewer(page, live_server, sanma, f"?round={index}&step={frame['step']}")
    wait_step(page, index, frame["step"])
    shown = table(page)
    assert [seat["pos"] for seat in shown["seats"]] == ["bottom", "right", "left"]
    assert_shows(shown, frame)
    for seat, view in enumerate(frame["seats"]):
        norths = page.locator(f'section.seat[data-seat="{seat}"] .north-tile')
        assert norths.count() == view["north"]
    page.keyboard.press("End")
    wait_step(page, index, len(engine_frames(sanma, index)["frames"]) - 1)
    assert page.locator("#result table.scores-after tbody tr").count() == 3


def no_sideways_scroll(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize(
    ("which", "width", "height"),
    [("4p", 1280, 900), ("4p", 390, 844), ("sanma", 1280, 900), ("sanma", 390, 844)],
)
def test_screenshots_at_desktop_and_phone_widths(
    page: Any, live_server: Any, transactional_db: None, which: str, width: int, height: int
) -> None:
    path = HANCHAN_4P if which == "4p" else HANCHAN_3P
    game = store(Path(path).name, corpus_bytes(path))
    # A moment with melds, riichi and full rivers: the end of the first hand with a win.
    index = next(
        i
        for i in range(len(game.document["rounds"]))
        if (engine_frames(game, i)["frames"][-1]["result"] or {}).get("type") == "win"
    )
    last = len(engine_frames(game, index)["frames"]) - 1
    page.set_viewport_size({"width": width, "height": height})
    open_viewer(page, live_server, game, f"?round={index}&step={last - 1}")
    wait_step(page, index, last - 1)
    assert no_sideways_scroll(page)
    # Tiles stay legible on a phone: no narrower than 20 CSS pixels in any hand.
    widths = page.evaluate(
        "Array.from(document.querySelectorAll('[data-part=\"hand\"] .tile'))"
        ".map((tile) => tile.getBoundingClientRect().width)"
    )
    assert widths and min(widths) >= 20
    # A 14-tile hand fits on one line at the bottom seat.
    tops = page.evaluate(
        'Array.from(document.querySelectorAll(\'section.seat[data-pos="bottom"]'
        ' [data-part="hand"] .tile\')).map((tile) => Math.round(tile.getBoundingClientRect().top))'
    )
    assert len(set(tops)) == 1
    screenshot(page, f"viewer-{which}-{width}x{height}")
    page.keyboard.press("ArrowRight")
    wait_step(page, index, last)
    assert page.locator("#result").is_visible()
    assert no_sideways_scroll(page)
    screenshot(page, f"viewer-{which}-{width}x{height}-result")


def test_a_375_pixel_phone_shows_a_whole_hand_on_one_line(
    page: Any, live_server: Any, hanchan: Game
) -> None:
    page.set_viewport_size({"width": 375, "height": 812})
    open_viewer(page, live_server, hanchan, "?round=0&step=1")
    wait_step(page, 0, 1)
    assert no_sideways_scroll(page)
    boxes = page.evaluate(
        'Array.from(document.querySelectorAll(\'section.seat[data-pos="bottom"]'
        ' [data-part="hand"] .tile\')).map((tile) => {'
        " const box = tile.getBoundingClientRect();"
        " return [Math.round(box.top), box.width, box.right]; })"
    )
    assert len(boxes) == 14
    assert len({top for top, _, _ in boxes}) == 1
    assert min(width for _, width, _ in boxes) >= 20
    assert max(right for _, _, right in boxes) <= 375
    # Each tile's face (its picture: rank and suit) is drawn at least 24 CSS pixels high, as a
    # 12-pixel rank over its suit mark was, and has loaded.
    page.wait_for_function(
        "Array.from(document.querySelectorAll('#table img.pic')).every((img) => img.complete)"
    )
    faces = page.evaluate(
        "Array.from(document.querySelectorAll("
        '\'section.seat[data-pos="bottom"] [data-part="hand"] .tile .pic\')).map((img) =>'
        " [img.getBoundingClientRect().height, img.complete && img.naturalWidth > 0])"
    )
    assert len(faces) == 14
    assert all(height >= 24 and loaded for height, loaded in faces), faces
