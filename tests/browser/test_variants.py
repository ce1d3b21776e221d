"""The replay viewer on a self-played game of every variant (issue 7): space mahjong, small
mahjong, Ùzje mahjong at four and at six seats, and the mini-game with lucky sevens. Each game is
stored as an upload would be, the viewer is opened on its first hand that ends in a win, the
keyboard steps to the win while every frame shown is compared with the engine's frames (hands,
drawn tiles, rivers, melds, Ùzje flowers, the dora or bonus tiles, the scores, the wall), the
result panel is checked, and 1280x900 screenshots are saved as ``variant-<name>.png`` (the
win) and ``variant-<name>-table.png`` (the table at the win, the result panel closed)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.rules.presets import PRESETS, get_ruleset
from engine.sim.bots import GreedyBot
from engine.sim.selfplay import play_game
from engine.sim.selfplay import simulate as simulate_riichi
from engine.variants.uzje.rules import is_uzje_preset
from engine.variants.uzje.selfplay import simulate as simulate_uzje
from mjlogs.models import Game
from tests.browser.conftest import screenshot
from tests.browser.test_viewer import engine_frames, score_text, store, wait_step

pytestmark = pytest.mark.django_db(transaction=True)

#: Steps shown one by one before each win (the whole hand when it is shorter).
STEPS_BEFORE_THE_WIN = 25

#: What the page shows, read in one go: per seat its hand, river, melds, flowers, seat wind,
#: score and position, with every tile's code and the words it is drawn with.
READ_TABLE = """() => {
  const codes = (nodes) => Array.from(nodes).map(
    (tile) => tile.classList.contains("back") ? "back" : tile.dataset.tile);
  const seats = Array.from(document.querySelectorAll("#table section.seat")).map((seat) => ({
    seat: Number(seat.dataset.seat),
    pos: seat.dataset.pos,
    visible: seat.getBoundingClientRect().width > 0 && seat.getBoundingClientRect().height > 0,
    wind: seat.querySelector(".wind").textContent,
    hand: codes(seat.querySelectorAll('[data-part="hand"] .tile')),
    drawn: codes(seat.querySelectorAll('[data-part="hand"] .tile.drawn')),
    river: codes(seat.querySelectorAll('[data-part="river"] .tile')),
    called: codes(seat.querySelectorAll('[data-part="river"] .tile.called')),
    melds: Array.from(seat.querySelectorAll('[data-part="melds"] .meld')).map(
      (meld) => codes(meld.querySelectorAll(".tile"))),
    flowers: codes(seat.querySelectorAll('[data-part="flowers"] .tile')),
    score: seat.querySelector('[data-part="score"]').textContent,
  }));
  const step = document.getElementById("step");
  return {
    step: Number(step.dataset.step),
    last: Number(step.dataset.last),
    wall: document.getElementById("wall").textContent,
    doraLabel: document.querySelector("#center .dora-line .label").textContent,
    dora: codes(document.querySelectorAll('#center [data-part="dora"] .tile')),
    labels: Array.from(document.querySelectorAll("#table .tile:not(.back)")).map((tile) => {
      const face = tile.querySelector("img.pic");
      return [tile.dataset.tile, tile.getAttribute("aria-label"), tile.dataset.face,
              !!face && face.complete && face.naturalWidth > 0];
    }),
    resultShown: !document.getElementById("result").hidden,
    seats: seats,
  };
}"""


# -- the games ------------------------------------------------------------------------------------


def self_played(name: str) -> EngineGame:
    """One self-played game of the variant (the mini-game with its lucky-sevens modifier)."""
    if is_uzje_preset(name):
        return simulate_uzje(1, 7, name)[0]
    if name == "minigame-4p":
        ruleset = get_ruleset(name).replace(modifiers=("lucky_sevens",))
        rng = random.Random("variants-minigame")
        return play_game(ruleset, [GreedyBot() for _ in range(4)], rng, game_id="minigame-7s")
    return next(simulate_riichi(name, 1, 7))


def store_game(game: EngineGame, name: str) -> Game:
    """Upload the game as a canonical file, as a person would."""
    return store(f"{name}.json", canonical.dumps(game).encode())


# -- the page -------------------------------------------------------------------------------------


def assert_shows(shown: dict[str, Any], frame: dict[str, Any], players: int) -> None:
    """The page shows this engine frame, tile by tile, every seat visible."""
    uzje = frame.get("notation") == "uzje"
    assert shown["step"] == frame["step"]
    assert shown["wall"] == str(frame["wall_left"])
    assert shown["dora"] == frame["dora_indicators"]
    assert shown["doraLabel"] == ("Bonus" if uzje else "Dora")
    assert len(shown["seats"]) == players
    assert all(seat["visible"] for seat in shown["seats"])
    for seat in shown["seats"]:
        view = frame["seats"][seat["seat"]]
        assert seat["hand"] == [*view["hand"], *([view["drawn"]] if view["drawn"] else [])]
        assert seat["drawn"] == ([view["drawn"]] if view["drawn"] else [])
        assert seat["river"] == [discard["tile"] for discard in view["discards"]]
        assert seat["called"] == [d["tile"] for d in view["discards"] if d["called"]]
        assert len(seat["melds"]) == len(view["melds"])
        for shown_meld, meld in zip(seat["melds"], view["melds"], strict=True):
            if meld["type"] == "closed_kan":
                assert shown_meld.count("back") == 2
            else:
                assert sorted(shown_meld) == sorted(meld["tiles"])
        assert seat["flowers"] == view.get("flowers", [])
        assert seat["score"] == score_text(view["score"])
        if uzje:
            assert seat["wind"] == (view["wind"] or "\N{MIDDLE DOT}")


#: The face (replay/static/replay/tiles/) each tile is drawn with: the vendored riichi set's, and
#: for Ùzje (whose tongs, socks and mans are the set's circles, bamboos and characters) the
#: faces tiles/make_faces.py draws for ranks 10-16, the zero, H, V and the flowers.
MPSZ_SUITS = {"m": "Man", "p": "Pin", "s": "Sou"}
MPSZ_HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")
UZJE_SUITS = {"t": "Pin", "s": "Sou", "m": "Man"}
UZJE_OTHERS = {
    "Z": "Zero", "E": "Ton", "S": "Nan", "W": "Shaa", "N": "Pei", "H": "EastWest",
    "V": "SouthNorth", "C": "Chun", "F": "Hatsu", "P": "Haku", "h": "Spring", "i": "Summer",
    "j": "Autumn", "k": "Winter", "o": "Plum", "p": "Orchid", "q": "Chrysanthemum", "r": "Bamboo",
}  # fmt: skip


def face_of(code: str, uzje: bool) -> str:
    """The file of the face a tile is drawn with."""
    if uzje and len(code) == 2 and code[1] in UZJE_SUITS:
        rank = "0123456789xabcdef".index(code[0])
        return "Zero.svg" if rank == 0 else f"{UZJE_SUITS[code[1]]}{rank}.svg"
    if uzje:
        return f"{UZJE_OTHERS[code]}.svg"
    if code[1] == "z":
        return f"{MPSZ_HONOURS[int(code[0]) - 1]}.svg"
    return MPSZ_SUITS[code[1]] + ("5-Dora" if code[0] == "0" else code[0]) + ".svg"


def wait_for_faces(page: Any) -> None:
    """Until every face on the table has loaded (or failed to: then it has no size)."""
    page.wait_for_function(
        "Array.from(document.querySelectorAll('#table img.pic')).every((img) => img.complete)"
    )


def assert_tiles_are_readable(shown: dict[str, Any], uzje: bool) -> None:
    """Every face-up tile is drawn with words and its face (loaded): Ùzje ranks 1-16 named."""
    assert shown["labels"]
    for code, label, face, loaded in shown["labels"]:
        assert label and not label.startswith("unknown"), (code, label)
        assert face == face_of(code, uzje) and loaded, (code, face, loaded)
        if uzje and len(code) == 2 and code[1] in "tsm":
            rank = "0123456789xabcdef".index(code[0])
            assert label.startswith(f"{rank} "), (code, label)
        elif uzje and code == "Z":
            assert label == "Zero"


def assert_result_panel(page: Any, frame: dict[str, Any], names: list[str]) -> None:
    result = frame["result"]
    uzje = frame.get("notation") == "uzje"
    panel = page.locator("#result")
    assert panel.is_visible()
    assert panel.get_attribute("data-type") == "win"
    wins = panel.locator("article.win")
    assert wins.count() == len(result["wins"])
    for number, win in enumerate(result["wins"]):
        box = wins.nth(number)
        assert box.get_attribute("data-seat") == str(win["seat"])
        assert names[win["seat"]] in box.locator("h3").inner_text()
        assert box.locator(".points").get_attribute("data-points") == str(win["points"])
        value = box.locator(".value").inner_text()
        yaku = box.locator(".yaku li").all_inner_texts()
        assert len(yaku) == len(win["yaku"])
        if uzje:
            # Fan (counted in tenths) instead of han; a limit hand counts limits.
            assert "han" not in value and "fu" not in value
            if not win["limit_patterns"]:
                assert f"{win['han'] / 10:g} f" in value
            for line, (_, amount) in zip(yaku, win["yaku"], strict=True):
                worth = f"{amount} limit" if win["limit_patterns"] else f"{amount / 10:g} f"
                assert worth in line
        else:
            assert f"{win['han']} han" in value
            for line, (_, han) in zip(yaku, win["yaku"], strict=True):
                assert f"{han} han" in line
        hand = box.locator('[data-part="hand"] .tile')
        codes = [hand.nth(i).get_attribute("data-tile") for i in range(hand.count())]
        assert codes[-1] == win["tile"]
    rows = panel.locator("table.scores-after tbody tr")
    assert rows.count() == len(result["scores_after"])
    for seat, after in enumerate(result["scores_after"]):
        assert rows.nth(seat).locator("td.score").inner_text() == score_text(after)


# -- the test -------------------------------------------------------------------------------------

VARIANTS = ("space-4p", "small-4p", "uzje-4p", "uzje-6p", "minigame-4p")


@pytest.mark.parametrize("name", VARIANTS)
def test_a_self_played_game_of_each_variant_steps_to_a_win(
    page: Any, live_server: Any, transactional_db: None, name: str
) -> None:
    if name not in PRESETS and not is_uzje_preset(name):
        pytest.skip(f"the preset {name} does not exist yet")
    stored = store_game(self_played(name), name)
    players = stored.players_count
    names = [player["name"] for player in stored.document["players"]]
    index, body = next(
        (i, body)
        for i in range(len(stored.document["rounds"]))
        if ((body := engine_frames(stored, i))["frames"][-1]["result"] or {}).get("type") == "win"
    )
    frames = body["frames"]
    uzje = body.get("notation") == "uzje"
    assert uzje is is_uzje_preset(name)
    last = len(frames) - 1
    first = max(0, last - STEPS_BEFORE_THE_WIN)

    page.goto(f"{live_server.url}/replay/{stored.pk}/?round={index}&step={first}")
    wait_step(page, index, first)
    wait_for_faces(page)
    shown = page.evaluate(READ_TABLE)
    assert shown["last"] == last
    assert_shows(shown, frames[first], players)
    assert_tiles_are_readable(shown, uzje)
    for step in range(first + 1, last + 1):
        page.keyboard.press("ArrowRight")
        wait_step(page, index, step)
        assert_shows(page.evaluate(READ_TABLE), frames[step], players)
        action = page.locator("#action").inner_text()
        assert action.startswith(frames[step]["action"]["text"])
    assert page.url.endswith(f"?round={index}&step={last}&seat=0")
    assert_result_panel(page, frames[last], names)
    screenshot(page, f"variant-{name}")

    # The table itself at the win, the result panel closed.
    page.keyboard.press("Escape")
    assert not page.locator("#result").is_visible()
    screenshot(page, f"variant-{name}-table")

    # Every seat can be viewed from the keyboard, and a deep link opens that moment.
    page.keyboard.press(str(players))
    page.wait_for_selector(f'section.seat[data-seat="{players - 1}"][data-pos="bottom"]')
    assert page.url.endswith(f"seat={players - 1}")
    page.keyboard.press("Home")
    wait_step(page, index, 0)
    page.goto(f"{live_server.url}/replay/{stored.pk}/?round={index}&step={first}&seat=1")
    wait_step(page, index, first)
    assert page.locator('section.seat[data-seat="1"]').get_attribute("data-pos") == "bottom"
    assert_shows(page.evaluate(READ_TABLE), frames[first], players)


def test_ujmj_tiles_flowers_and_bonus_tiles_are_drawn(
    page: Any, live_server: Any, transactional_db: None
) -> None:
    """A moment of an Ùzje game with flowers set aside and a claimed meld: the flowers are
    beside the hand, the claimed tile stands upright in its meld, and the bonus tiles are where
    dora would be."""
    stored = store_game(self_played("uzje-4p"), "uzje-4p-flowers")
    found = None
    for index in range(len(stored.document["rounds"])):
        for frame in engine_frames(stored, index)["frames"]:
            seats = frame["seats"]
            claimed = any(m["from"] is not None for s in seats for m in s["melds"])
            if claimed and any(s["flowers"] for s in seats):
                found = (index, frame)
                break
        if found:
            break
    assert found is not None
    index, frame = found
    page.goto(f"{live_server.url}/replay/{stored.pk}/?round={index}&step={frame['step']}")
    wait_step(page, index, frame["step"])
    wait_for_faces(page)
    shown = page.evaluate(READ_TABLE)
    assert_shows(shown, frame, 4)
    assert_tiles_are_readable(shown, True)
    flowers = page.locator('[data-part="flowers"] .tile')
    assert flowers.count() == sum(len(s["flowers"]) for s in frame["seats"])
    label = flowers.first.get_attribute("aria-label") or ""
    assert label.split()[1] == "flower"
    called = page.locator(".meld .called-tile")
    assert called.count() >= 1
    assert "side" not in (called.first.get_attribute("class") or "")
    assert not page.locator("#sticks-line").is_visible()


#: Every seat's box and its tiles' narrowest width, for the layout checks at phone width.
READ_SEAT_BOXES = """() => Array.from(document.querySelectorAll("#table section.seat")).map(
 (seat) => {
  const box = seat.getBoundingClientRect();
  const widths = Array.from(seat.querySelectorAll('[data-part="hand"] .tile')).map(
    (tile) => tile.getBoundingClientRect().width);
  return {pos: seat.dataset.pos, left: box.left, top: box.top, right: box.right,
          bottom: box.bottom, narrowest: Math.min(...widths)};
})"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (0 when they do not touch)."""
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, width) * max(0.0, height)


@pytest.mark.parametrize("name", ["uzje-5p", "uzje-6p"])
def test_five_and_six_seats_fit_a_phone(
    page: Any, live_server: Any, transactional_db: None, name: str
) -> None:
    stored = store_game(self_played(name), name)
    last = len(engine_frames(stored, 0)["frames"]) - 1
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/replay/{stored.pk}/?round=0&step={last}")
    wait_step(page, 0, last)
    page.keyboard.press("Escape")  # close the result panel: the table is what is checked
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    seats = page.evaluate(READ_SEAT_BOXES)
    assert len(seats) == stored.players_count
    for seat in seats:
        assert seat["left"] >= 0 and seat["right"] <= 390, seat
        assert seat["narrowest"] >= 14, seat  # a tile stays big enough to read its rank
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            assert _overlap(a, b) < 1, (a["pos"], b["pos"])
    screenshot(page, f"variant-{name}-390x844")
