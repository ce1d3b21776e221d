"""Unit tests of the viewer's pure modules (replay/static/replay/viewer/*.js), run in the browser
tests' page: the page imports each module (``import()`` in ``page.evaluate``) from the live
server's static files, as the viewer does, and the functions' answers are checked here.

Notation per family (tile names and faces, a win's value), numbers and strings, the table's
layout maths (positions, where called tiles come from, the blocks of every seat for 2 to 6
players in both arrangements) and the navigation's pure parts (turns, steps, addresses)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

STATIC = Path(__file__).resolve().parents[2] / "replay" / "static" / "replay"
MODULES = "/static/replay/viewer/"


@pytest.fixture
def js(page: Any, live_server: Any) -> Any:
    """``js(module, body, arg)``: run ``body`` (an expression of ``m``, the imported module, and
    ``arg``) in the page and return its value."""
    page.goto(f"{live_server.url}/")

    def run(module: str, body: str, arg: Any = None) -> Any:
        return page.evaluate(
            f"async ([url, arg]) => {{ const m = await import(url); return ({body}); }}",
            [f"{live_server.url}{MODULES}{module}", arg],
        )

    return run


# -- notation -------------------------------------------------------------------------------------

MPSZ = [f"{rank}{suit}" for suit in "mps" for rank in range(10)] + [f"{r}z" for r in range(1, 8)]


def test_every_mpsz_tile_has_its_name_and_a_vendored_face(js: Any) -> None:
    shown = js(
        "notation/mpsz.js",
        "arg.map((code) => [m.default.label(code), m.default.face(code), m.default.red(code)])",
        MPSZ,
    )
    named = dict(zip(MPSZ, shown, strict=True))
    assert named["1m"] == ["1 man", "Man1.svg", False]
    assert named["9p"] == ["9 pin", "Pin9.svg", False]
    assert named["0s"] == ["red 5 sou", "Sou5-Dora.svg", True]
    assert named["5s"] == ["5 sou", "Sou5.svg", False]
    assert [named[f"{r}z"][:2] for r in range(1, 8)] == [
        ["East wind", "Ton.svg"],
        ["South wind", "Nan.svg"],
        ["West wind", "Shaa.svg"],
        ["North wind", "Pei.svg"],
        ["White dragon", "Haku.svg"],
        ["Green dragon", "Hatsu.svg"],
        ["Red dragon", "Chun.svg"],
    ]
    for code, (_, face, _) in named.items():
        assert (STATIC / "tiles" / face).is_file(), code
    assert js("notation/mpsz.js", "[m.default.label('8z'), m.default.face('x')]") == [None, None]


UZJE_NUMBERS = [f"{rank}{suit}" for suit in "tsm" for rank in "0123456789xabcdef"]
UZJE_OTHERS = list("ZESWNHVCFP") + list("hijkopqr")


def test_every_uzje_tile_has_its_name_and_a_face_in_the_same_style(js: Any) -> None:
    codes = UZJE_NUMBERS + UZJE_OTHERS
    shown = js("notation/uzje.js", "arg.map((c) => [m.default.label(c), m.default.face(c)])", codes)
    named = dict(zip(codes, shown, strict=True))
    # Tongs, socks and mans are the set's circles, bamboos and characters; ranks 10-16 and the
    # zero are drawn by tiles/make_faces.py.
    assert named["1t"] == ["1 tongs", "Pin1.svg"]
    assert named["9s"] == ["9 socks", "Sou9.svg"]
    assert named["xm"] == ["10 mans", "Man10.svg"]
    assert named["ct"] == ["13 tongs", "Pin13.svg"]
    assert named["fs"] == ["16 socks", "Sou16.svg"]
    assert named["0s"] == ["0 socks", "Zero.svg"]
    assert named["Z"] == ["Zero", "Zero.svg"]
    assert named["H"] == ["Horizontal wind (East and West)", "EastWest.svg"]
    assert named["V"] == ["Vertical wind (South and North)", "SouthNorth.svg"]
    assert named["C"] == ["Red arrow", "Chun.svg"]
    assert named["P"] == ["White arrow", "Haku.svg"]
    assert named["h"] == ["Spring flower (East)", "Spring.svg"]
    assert named["k"] == ["Winter flower (North)", "Winter.svg"]
    assert named["o"] == ["One flower (plum, East)", "Plum.svg"]
    assert named["r"] == ["Four flower (bamboo, North)", "Bamboo.svg"]
    for code, (label, face) in named.items():
        assert label, code
        assert (STATIC / "tiles" / face).is_file(), code
    assert js("notation/uzje.js", "[m.default.label('5z'), m.default.face('y')]") == [None, None]


def test_a_wins_value_reads_as_the_games_write_it(js: Any) -> None:
    wins = [
        {"han": 5, "fu": 40, "limit": "mangan", "yaku": [["toitoi", 2]]},
        {"han": 2, "fu": 30, "limit": None, "yaku": [["pinfu", 1]]},
        {"han": 13, "fu": 80, "limit": "yakuman", "yaku": [["suukantsu", 13]]},
        {"han": 26, "fu": 30, "limit": "double_yakuman", "yaku": [["kokushi_13", 26]]},
        {"han": 13, "fu": 40, "limit": "kazoe_yakuman", "yaku": [["riichi", 1]]},
    ]
    shown = js(
        "notation/mpsz.js",
        "arg.map((w) => [m.default.value(w), m.default.yakuWorth(w, w.yaku[0][1])])",
        wins,
    )
    assert shown == [
        [{"text": "5 han 40 fu", "limit": "Mangan", "yakuman": False}, "2 han"],
        [{"text": "2 han 30 fu", "limit": None, "yakuman": False}, "1 han"],
        [{"text": "", "limit": "Yakuman", "yakuman": True}, "Yakuman"],
        [{"text": "", "limit": "Double yakuman", "yakuman": True}, "Double yakuman"],
        [{"text": "13 han 40 fu", "limit": "Kazoe yakuman", "yakuman": False}, "1 han"],
    ]
    uzje = [
        {"han": 36, "fu": 0, "limit": None, "limit_patterns": False, "yaku": [["closed_hand", 26]]},
        {"han": 0, "fu": 0, "limit": "2", "limit_patterns": True, "yaku": [["globetrotter", 1]]},
    ]
    shown = js(
        "notation/uzje.js",
        "arg.map((w) => [m.default.value(w), m.default.yakuWorth(w, w.yaku[0][1])])",
        uzje,
    )
    assert shown == [
        [{"text": "3.6 f", "limit": None, "yakuman": False}, "2.6 f"],
        [{"text": "", "limit": "2 limits", "yakuman": False}, "1 limit"],
    ]
    assert js(
        "notation/index.js",
        "[m.notationOf({notation: 'uzje'}).name, m.notationOf({frames: [{notation: 'uzje'}]}).name,"
        " m.notationOf({frames: [{}]}).name, m.notationOf(null).name]",
    ) == ["uzje", "uzje", "mpsz", "mpsz"]


def test_numbers_and_strings(js: Any) -> None:
    assert js(
        "format.js",
        "[m.points(-25000), m.scoreText(-1200), m.signed(1000), m.signed(-300), m.signed(0),"
        " m.words('seat_wind_south'), m.clamp(9, 0, 5)]",
    ) == ["25,000", "\N{MINUS SIGN}1,200", "+1,000", "\N{MINUS SIGN}300", "0", "Seat wind south", 5]
    assert js(
        "strings.js",
        "[m.t('winsByRon', {name: 'Ann', from: 'Ben'}), m.t('step', {step: 3, last: 9}),"
        " m.roundWords('S3'), m.roundWords('X1'), m.t('no such key')]",
    ) == ["Ann wins by ron from Ben", "Step 3 / 9", "South 3", "X1", "no such key"]
    assert js(
        "format.js",
        "[m.finalPoints(43.6), m.finalPoints(-33.6), m.finalPoints(0), m.finalPoints(-0.04)]",
    ) == ["+43.6", "\N{MINUS SIGN}33.6", "+0.0", "+0.0"]
    assert js(
        "strings.js",
        "[1, 2, 3, 4, 6, 7].map((n) => m.placeWords(n)).concat((m.setLanguage('ja', {}),"
        " [1, 4, 7].map((n) => m.placeWords(n))), (m.setLanguage('en', {}), []))",
    ) == ["1st", "2nd", "3rd", "4th", "6th", "7th", "1位", "4位", "7位"]


# -- the game's end (end.js) ----------------------------------------------------------------------


def seat_end(seat: int, score: int | None, place: int | None, points: float | None, by: str) -> Any:
    return {
        "seat": seat,
        "final_score": score,
        "placement": place,
        "points": points,
        "points_by": by,
    }


def test_the_standings_of_a_games_end(js: Any) -> None:
    """``standings`` orders the page's ``end`` by place (equal places by seat) and says whose
    points they are; a record that stops before the end, or whose final scores are unknown,
    has no standings."""
    rules = {
        "complete": True,
        "seats": [
            seat_end(0, 20100, 3, -20.0, "rules"),
            seat_end(1, 35800, 2, 16.0, "rules"),
            seat_end(2, 5200, 4, -45.0, "rules"),
            seat_end(3, 38900, 1, 49.0, "rules"),
        ],
    }
    found = js("end.js", "m.standings(arg)", rules)
    assert found["kind"] == "standings" and found["pointsBy"] == "rules"
    assert [(row["seat"], row["place"], row["score"]) for row in found["rows"]] == [
        (3, 1, 38900),
        (1, 2, 35800),
        (0, 3, 20100),
        (2, 4, 5200),
    ]
    record = {
        "complete": True,
        "seats": [seat_end(s, 25000, 1 if s == 0 else 2, 1.5, "record") for s in range(3)]
        + [seat_end(3, 25000, 2, None, "")],
    }
    found = js("end.js", "m.standings(arg)", record)
    assert found["pointsBy"] == "record"
    assert [(row["seat"], row["by"], row["points"]) for row in found["rows"]] == [
        (0, "record", 1.5),
        (1, "record", 1.5),
        (2, "record", 1.5),
        (3, "", None),
    ]
    none = {"complete": True, "seats": [seat_end(s, 25000, s + 1, None, "") for s in range(4)]}
    assert js("end.js", "m.standings(arg).pointsBy", none) == ""
    cut = {"complete": False, "seats": [seat_end(s, None, None, None, "") for s in range(4)]}
    assert js("end.js", "m.standings(arg)", cut) == {
        "kind": "incomplete",
        "rows": [],
        "pointsBy": "",
    }
    unknown = {"complete": True, "seats": [seat_end(s, None, None, None, "") for s in range(4)]}
    assert js("end.js", "m.standings(arg).kind", unknown) == "unknown"


# -- layout ---------------------------------------------------------------------------------------


def test_seats_sit_in_turn_order_counter_clockwise(js: Any) -> None:
    order = js(
        "layout.js",
        "[2, 3, 4, 5, 6].map((n) => Array.from({length: n}, (_, s) => m.positionOf(s, 0, n)))",
    )
    assert order == [
        ["bottom", "top"],
        ["bottom", "right", "left"],
        ["bottom", "right", "top", "left"],
        ["bottom", "right", "top-right", "top-left", "left"],
        ["bottom", "right", "top-right", "top", "top-left", "left"],
    ]
    # Seen from seat 2 of four, seat 2 is at the bottom and seat 1 on the left.
    assert js("layout.js", "[0, 1, 2, 3].map((s) => m.positionOf(s, 2, 4))") == [
        "top",
        "left",
        "bottom",
        "right",
    ]
    # A called tile lies toward whom it came from: the player before is on the left.
    relations = js(
        "layout.js",
        "[[3, 0, 4], [1, 0, 4], [2, 0, 4], [2, 0, 3], [1, 0, 3], [5, 0, 6], [3, 0, 6], [1, 0, 2]]"
        ".map(([from, owner, n]) => m.relation(from, owner, n))",
    )
    assert relations == ["left", "right", "across", "left", "right", "left", "across", "across"]


def test_rivers_lie_in_rows_of_six_and_hands_take_their_tiles_width(js: Any) -> None:
    assert js("layout.js", "m.riverRows([...'abcdefghijklm']).map((row) => row.join(''))") == [
        "abcdef",
        "ghijkl",
        "m",
    ]
    assert js("layout.js", "m.riverRows([])") == []
    # 13 tiles and a drawn one (each with its 0.03 gap, the drawn one 0.4 apart); a pon: two
    # tiles upright, one sideways (1.34 wide), a gap of 0.35 before it.
    units = js(
        "layout.js", "[m.handUnits(13, true, []), m.handUnits(10, false, [{tiles: 2, turned: 1}])]"
    )
    assert units == pytest.approx([14 * 1.03 + 0.4, 10 * 1.03 + 2 + 1.34 + 0.35])
    assert js("layout.js", "[m.tileToFit(10, 300, 40), m.tileToFit(10, 500, 40)]") == [30, 40]
    assert js(
        "layout.js", "[m.riverTile(4, 30, 4), m.riverTile(5, 30, 4), m.riverTile(4, 30, 3)]"
    ) == [
        30,
        24,
        22.5,
    ]


GEOMETRY_CASES = [
    (count, mode, width)
    for count, (mode, width) in itertools.product(
        (2, 3, 4, 5, 6), (("square", 748), ("square", 560), ("tall", 374), ("tall", 359))
    )
]


@pytest.mark.parametrize(("count", "mode", "width"), GEOMETRY_CASES)
def test_every_seat_has_its_own_part_of_the_table(
    js: Any, count: int, mode: str, width: int
) -> None:
    geometry = js(
        "layout.js",
        "(() => { const g = m.tableGeometry(arg);"
        " return {g: g, boxes: Object.fromEntries(Object.entries(g.seats)"
        ".map(([p, b]) => [p, m.blockBox(b)]))}; })()",
        {"count": count, "width": width, "height": width, "mode": mode},
    )
    table, boxes = geometry["g"], geometry["boxes"]
    assert table["width"] == pytest.approx(width)
    if mode == "square":
        assert table["height"] == pytest.approx(width)
    centre = table["centre"]
    centre_box = {
        "left": centre["left"],
        "top": centre["top"],
        "right": centre["left"] + centre["width"],
        "bottom": centre["top"] + centre["height"],
    }
    assert len(boxes) == count
    for position, box in boxes.items():
        block = table["seats"][position]
        # On the table, clear of the centre box and of every other seat.
        assert box["left"] >= -0.01 and box["top"] >= -0.01, (position, box)
        assert box["right"] <= table["width"] + 0.01, (position, box)
        assert box["bottom"] <= table["height"] + 0.01, (position, box)
        assert overlap(box, centre_box) < 0.01, position
        for other, other_box in boxes.items():
            if other != position:
                assert overlap(box, other_box) < 0.01, (position, other)
        # The river (rows of six) lies inside the block; a 14-tile hand fits its length at the
        # block's largest tile or, on a narrow screen, at the smallest allowed.
        assert 0 <= block["riverOffset"] <= block["length"] - block["riverWidth"] + 0.01
        fourteen = 14 * 1.03 + 0.4
        largest = min(block["hand"], block["handLength"] / fourteen)
        assert largest >= block["smallest"] - 0.01, position
        assert block["facing"][0] >= -0.01 and block["facing"][1] <= block["length"] + 0.01
        # Turned to face its side.
        assert block["angle"] == {"bottom": 0, "right": -90, "top": 180, "left": 90}[block["side"]]
    if mode == "tall" and count <= 4:
        # The viewed seat's 14 tiles stay 20 CSS pixels wide (tests/browser/test_viewer.py).
        bottom = table["seats"]["bottom"]
        assert bottom["handLength"] / (14 * 1.03 + 0.4) >= 20
    # The centre box holds the round, counters and dora between the name strips.
    assert table["inner"]["width"] >= 80 and table["inner"]["height"] >= 80


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, width) * max(0.0, height)


# -- navigation -----------------------------------------------------------------------------------


def frame(
    seat: int | None, kind: str | None, drawn: dict[int, str] | None = None
) -> dict[str, Any]:
    drawn = drawn or {}
    return {
        "action": None if kind is None else {"seat": seat, "type": kind},
        "seats": [{"drawn": drawn.get(index)} for index in range(4)],
    }


def test_turns_steps_and_addresses(js: Any) -> None:
    frames = [
        frame(None, None),
        frame(0, "draw", {0: "1m"}),
        frame(0, "discard"),
        frame(1, "draw", {1: "2m"}),
        frame(1, "discard"),
        frame(0, "pon"),
        frame(0, "discard"),
        frame(2, "draw", {2: "3m"}),
        frame(2, "closed_kan"),
        frame(2, "draw", {2: "4m"}),
    ]
    assert js("navigation.js", "[0, 1, 2].map((seat) => m.turnSteps(arg, seat))", frames) == [
        [1, 5],
        [3],
        [7, 9],
    ]
    assert js(
        "navigation.js",
        "[m.resolveStep(-1, 9), m.resolveStep(-3, 9), m.resolveStep(50, 9), m.resolveStep(null, 9),"
        " m.resolveStep(4, 9)]",
    ) == [9, 7, 9, 0, 4]
    moment = {"round": 2, "step": 13, "seat": 1, "hands": False, "end": False}
    address = js("navigation.js", "m.addressOf(arg, '?x=1&round=0&end=1')", moment)
    assert address == "?x=1&round=2&step=13&seat=1&hands=hidden"
    assert js("navigation.js", "m.momentOf(arg)", address) == moment
    assert js("navigation.js", "m.momentOf('?round=a')") == {
        "round": 0,
        "step": 0,
        "seat": 0,
        "hands": True,
        "end": False,
    }
    # The game's end after its last hand: its own address, without a hand or a step.
    end = {"round": 2, "step": 13, "seat": 3, "hands": True, "end": True}
    address = js("navigation.js", "m.addressOf(arg, '?x=1&round=2&step=13')", end)
    assert address == "?x=1&end=1&seat=3"
    assert js("navigation.js", "m.momentOf(arg)", address) == {
        "round": 0,
        "step": 0,
        "seat": 3,
        "hands": True,
        "end": True,
    }


# -- the study aids (analysis.js) ----------------------------------------------------------------

# Frames as the engine writes their ``study`` (tests/engine/hand/test_acceptance.py works this
# hand out by hand): seat 0 at 123m 9m 456p 13p 789s East White drops East, one of the three best
# (each accepts 10: for East's drop 9m 3, 2p 4, White 3); seat 1 drops a tile that accepts 2
# fewer than its best; seat 0 then raises its shanten (drops 1p), and later gives up 3 copies.
ONE_SHANTEN_STUDY = {
    "seat": 0,
    "shanten": 1,
    "best": 10,
    "discard": "1z",
    "kept": True,
    "loss": 0,
    "unseen": {"9m": 3, "2p": 4, "1z": 3, "5z": 3, "1p": 3},
    "options": [
        {"tile": "9m", "shanten": 1, "count": 10, "tiles": ["2p", "1z", "5z"]},
        {"tile": "1z", "shanten": 1, "count": 10, "tiles": ["9m", "2p", "5z"]},
        {"tile": "5z", "shanten": 1, "count": 10, "tiles": ["9m", "2p", "1z"]},
        {"tile": "1p", "shanten": 2, "count": 13, "tiles": ["9m", "1p", "2p", "1z"]},
    ],
}


def study(seat: int, discard: str, loss: int | None) -> dict[str, Any]:
    return {**ONE_SHANTEN_STUDY, "seat": seat, "discard": discard, "loss": loss, "kept": loss == 0}


STUDY_FRAMES = [
    {"study": None},
    {"study": ONE_SHANTEN_STUDY},
    {"study": None},
    {"study": study(1, "5z", 2)},
    {"study": study(0, "1p", None)},
    {"study": None},
    {"study": study(0, "9m", 3)},
]


def test_the_discards_of_a_decision_best_first(js: Any) -> None:
    choices = js("analysis.js", "m.discardChoices(arg, 0)", STUDY_FRAMES[1])
    assert [choice["tile"] for choice in choices] == ["9m", "1z", "5z", "1p"]
    assert choices[1] == {
        "tile": "1z",
        "shanten": 1,
        "count": 10,
        "tiles": [
            {"tile": "9m", "unseen": 3},
            {"tile": "2p", "unseen": 4},
            {"tile": "5z", "unseen": 3},
        ],
        "chosen": True,
        "best": True,
        "loss": 0,
        "raises": False,
        # Frames from before the other side was judged: value unknown, no riichi.
        "yaku": None,
        "safety": [],
    }
    assert [c["chosen"] for c in choices] == [False, True, False, False]
    assert [c["best"] for c in choices] == [True, True, True, False]
    # 1p raises the shanten: no loss figure, whatever its count.
    assert (choices[3]["loss"], choices[3]["raises"]) == (None, True)
    # Another seat's decision, or a frame without one: nothing.
    assert js("analysis.js", "m.discardChoices(arg, 1)", STUDY_FRAMES[1]) is None
    assert js("analysis.js", "m.discardChoices(arg, 0)", STUDY_FRAMES[0]) is None
    assert js("analysis.js", "m.discardChoices({seats: []}, 0)") is None


def test_decisions_summaries_and_the_jumps(js: Any) -> None:
    steps = js(
        "analysis.js",
        "[m.decisionSteps(arg, 0), m.decisionSteps(arg, 0, true), m.decisionSteps(arg, 1),"
        " m.decisionSteps(arg, 2)]",
        STUDY_FRAMES,
    )
    assert steps == [[1, 4, 6], [4, 6], [3], []]
    assert js(
        "analysis.js",
        "[m.neighbour([1, 4, 6], 4, 1), m.neighbour([1, 4, 6], 6, 1),"
        " m.neighbour([1, 4, 6], 4, -1), m.neighbour([1, 4, 6], 1, -1),"
        " m.neighbour([1, 4, 6], 0, 1), m.neighbour([], 3, -1)]",
    ) == [6, None, 1, None, 1, None]
    # Seat 0: three decisions, one kept, one raised the shanten, one gave up 3 copies.
    assert js("analysis.js", "m.summary(arg, 0)", STUDY_FRAMES) == {
        "decisions": 3,
        "kept": 1,
        "raised": 1,
        "lost": 3,
        "facing": 0,
        "genbutsu": 0,
    }
    assert js("analysis.js", "m.summary(arg, 1)", STUDY_FRAMES) == {
        "decisions": 1,
        "kept": 0,
        "raised": 0,
        "lost": 2,
        "facing": 0,
        "genbutsu": 0,
    }
    # A game: the hands loaded so far, added up (here the same hand twice and an empty one).
    assert js("analysis.js", "m.gameSummary([arg, arg, []], 0)", STUDY_FRAMES) == {
        "decisions": 6,
        "kept": 2,
        "raised": 2,
        "lost": 6,
        "facing": 0,
        "genbutsu": 0,
        "hands": 3,
    }
    assert js("analysis.js", "[m.share(8, 15), m.share(1, 3), m.share(0, 0)]") == [
        "53.3%",
        "33.3%",
        "\N{EN DASH}",
    ]


# The same decision facing seat 2's riichi (docs/stats.md "Value and defence"): 9m and East keep
# riichi only, White keeps haku too (the engine's yaku in reach); against seat 2, 9m is suji,
# East genbutsu, White has no sign, 1p one-chance. Dropping 1p, which leaves two shanten and is
# not genbutsu, is a push.
SIDES = [("9m", ["riichi"], "suji"), ("1z", ["riichi"], "genbutsu"),
         ("5z", ["riichi", "haku"], None), ("1p", ["riichi"], "one_chance")]  # fmt: skip
FACING_STUDY = {
    **ONE_SHANTEN_STUDY,
    "riichi": [2],
    "trade": [],
    "options": [
        {**option, "yaku": yaku, "safety": [sign]}
        for option, (_, yaku, sign) in zip(ONE_SHANTEN_STUDY["options"], SIDES, strict=True)
    ],
}


def facing(discard: str, loss: int | None, trade: list[str]) -> dict[str, Any]:
    return {**FACING_STUDY, "discard": discard, "loss": loss, "kept": loss == 0, "trade": trade}


def test_the_other_side_of_a_decision(js: Any) -> None:
    frame = {"study": facing("5z", 0, [])}
    choices = js("analysis.js", "m.discardChoices(arg, 0)", frame)
    assert [(c["tile"], c["yaku"], c["safety"]) for c in choices] == [
        (tile, yaku, [sign]) for tile, yaku, sign in SIDES
    ]
    assert js("analysis.js", "[m.riichiSeats(arg, 0), m.riichiSeats(arg, 1)]", frame) == [[2], []]
    assert js("analysis.js", "m.commonYaku(m.discardChoices(arg, 0))", frame) == ["riichi"]
    assert js("analysis.js", "m.commonYaku([{yaku: ['riichi']}, {yaku: null}])") is None
    assert js(
        "analysis.js", "m.discardChoices(arg, 0).map((c) => [m.allGenbutsu(c), m.pushes(c)])", frame
    ) == [[False, False], [True, False], [False, False], [False, True]]
    traded = {"study": facing("9m", 3, ["value", "defence"])}  # as the engine wrote it
    assert js("analysis.js", "[m.tradeOf(arg, 0), m.tradeOf(arg, 1)]", traded) == [
        ["value", "defence"],
        [],
    ]
    pushed = {"study": facing("1p", None, [])}
    # Facing a riichi: East (genbutsu) in one hand, 1p in another.
    frames = [{"study": facing("1z", 0, [])}, {"study": None}, pushed]
    assert js("analysis.js", "m.summary(arg, 0)", frames) == {
        "decisions": 2,
        "kept": 1,
        "raised": 1,
        "lost": 0,
        "facing": 2,
        "genbutsu": 1,
    }
