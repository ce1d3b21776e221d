"""The tenhou.net/6 JSON reader and writer.

Unit tests decode call, score and yaku strings from the spec's examples (expected values worked
out by hand) and play small hand-written rounds through each interleaving rule. The corpus tests
track every seat's tiles through the events the reader produced (a call placed on the wrong
discard, or a lost draw, shows up as a tile a seat does not hold), write every file back and read
it again, and check the 31 games stored both as mjlog and as tenhou.net/6 against the mjlog
reader, event by event.
"""

from __future__ import annotations

import contextlib
import copy
import csv
import dataclasses
import json
import random
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.errors import MalformedLogError, UnsupportedLogError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    FinalResult,
    Game,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RecordedWin,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    ScoreChange,
    Win,
)
from engine.formats import read_games, tenhou6
from engine.formats import sniff as sniff_format
from engine.formats.tenhou6 import (
    FORMAT,
    format_call,
    format_score,
    format_yaku,
    parse_call,
    parse_score,
    parse_yaku,
)
from engine.tiles import Tile, parse_tile

CORPUS = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpus"
MISSING = f"{CORPUS} not found: corpus tests need ../shared/corpus"


def t(text: str) -> Tile:
    return parse_tile(text)


def tiles(text: str) -> tuple[Tile, ...]:
    """``"5m5m0m"`` -> three tiles (one tile per digit-letter pair, so red fives stay put)."""
    return tuple(parse_tile(text[i : i + 2]) for i in range(0, len(text), 2))


# -- call strings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "tile", "others", "offset"),
    [
        ("c275226", "chi", "7p", "0p6p", 3),  # 7p called with red 5p and 6p
        ("p252525", "pon", "5p", "5p5p", 3),  # letter first: from the left
        ("12p1212", "pon", "2m", "2m2m", 2),  # after one tile: from across
        ("3737p37", "pon", "7s", "7s7s", 1),  # after two: from the right
        ("m39393939", "open_kan", "9s", "9s9s9s", 3),
        ("26m262626", "open_kan", "6p", "6p6p6p", 2),
        ("131313m13", "open_kan", "3m", "3m3m3m", 1),  # daiminkan from the right: index 6
        ("k16161616", "added_kan", "6m", "6m6m6m", 3),
        ("41k414141", "added_kan", "1z", "1z1z1z", 2),
        ("4646k4646", "added_kan", "6z", "6z6z6z", 1),
        ("35k353553", "added_kan", "5s", "5s5s0s", 2),  # TSU's 35p3553 extended
        ("424242a42", "closed_kan", "2z", "2z2z2z2z", 0),
        ("151515a51", "closed_kan", "0m", "5m5m5m0m", 0),  # a red five goes last
        ("r35", "riichi", "5s", "", 0),
        ("f44", "north", "4z", "", 0),
    ],
)
def test_call_strings(text: str, kind: str, tile: str, others: str, offset: int) -> None:
    call = parse_call(text)
    assert (call.kind, str(call.tile), call.others, call.offset) == (
        kind,
        tile,
        tiles(others),
        offset,
    )
    assert format_call(call) == text


def test_tsumogiri_riichi_has_no_tile() -> None:
    call = parse_call("r60")
    assert (call.kind, call.tile, call.others) == ("riichi", None, ())
    assert format_call(call) == "r60"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x112233", "one letter of"),
        ("p25p2525", "one letter of"),
        ("", "one letter of"),
        ("c2752", "a chi is 3 tile codes"),
        ("12c1112", "with 'c' at index 0"),
        ("1212m12", "with 'm' at index 0 or 2 or 6"),
        ("c112233", "do not form a chi"),
        ("c181921", "do not form a chi"),  # 8m 9m 1p: runs do not wrap or cross suits
        ("p111213", "do not form a pon"),
        ("f45", "do not form a north"),
        ("r99", "holds a code that is no tile"),
        ("p101010", "holds a code that is no tile"),
    ],
)
def test_bad_call_strings(text: str, message: str) -> None:
    with pytest.raises(MalformedLogError, match=re.escape(message)) as caught:
        parse_call(text, "here")
    assert caught.value.where == "here"


# -- score strings --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fu", "han", "limit", "points_4p", "points_3p", "tsumo"),
    [
        ("30符4飜7700点", 30, 4, None, 7700, 7700, False),
        # non-dealer tsumo: 300 from each non-dealer, 500 from the dealer; sanma has one fewer
        ("30符1飜300-500点", 30, 1, None, 2 * 300 + 500, 300 + 500, True),
        ("40符1飜700-1300点", 40, 1, None, 2 * 700 + 1300, 700 + 1300, True),
        # dealer tsumo: every other seat pays 700
        ("20符2飜700点∀", 20, 2, None, 3 * 700, 2 * 700, True),
        ("満貫8000点", None, None, "mangan", 8000, 8000, False),
        ("満貫4000点∀", None, None, "mangan", 12000, 8000, True),
        ("跳満3000-6000点", None, None, "haneman", 12000, 9000, True),
        ("倍満8000点∀", None, None, "baiman", 24000, 16000, True),
        ("三倍満6000-12000点", None, None, "sanbaiman", 24000, 18000, True),
        ("役満32000点", None, None, "yakuman", 32000, 32000, False),
        ("数え役満16000点∀", None, None, "yakuman", 48000, 32000, True),
        ("Mangan 8000点", None, None, "mangan", 8000, 8000, False),  # a converter's English
    ],
)
def test_score_strings(
    text: str,
    fu: int | None,
    han: int | None,
    limit: str | None,
    points_4p: int,
    points_3p: int,
    tsumo: bool,
) -> None:
    score = parse_score(text)
    assert (score.fu, score.han, score.limit, score.tsumo) == (fu, han, limit, tsumo)
    assert score.points(4) == points_4p
    assert score.points(3) == points_3p


@pytest.mark.parametrize(
    "text", ["30符4飜7700", "7700", "30符4飜300-500点∀", "満貫", "30符飜7700点", "", "点"]
)
def test_bad_score_strings(text: str) -> None:
    with pytest.raises(MalformedLogError, match="is not like") as caught:
        parse_score(text, "there")
    assert caught.value.where == "there"


@pytest.mark.parametrize(
    ("recorded", "tsumo", "dealer", "players", "text"),
    [
        (RecordedWin(fu=30, han=4, points=7700), False, False, 4, "30符4飜7700点"),
        (RecordedWin(fu=30, han=1, points=1100), True, False, 4, "30符1飜300-500点"),
        (RecordedWin(fu=30, han=1, points=800), True, False, 3, "30符1飜300-500点"),
        # 40 fu 1 han: base 320 -> 400 and 700; 2700 = 2 * 700 + 1300 (base 640 -> 700, 1300)
        (RecordedWin(fu=40, han=1, points=2700), True, False, 4, "40符1飜700-1300点"),
        (RecordedWin(fu=20, han=2, points=2100), True, True, 4, "20符2飜700点∀"),
        (RecordedWin(limit="mangan", points=12000), True, True, 4, "満貫4000点∀"),
        (RecordedWin(limit="haneman", points=9000), True, False, 3, "跳満3000-6000点"),
        (RecordedWin(limit="double_yakuman", points=64000), False, False, 4, "役満64000点"),
    ],
)
def test_score_strings_written(
    recorded: RecordedWin, tsumo: bool, dealer: bool, players: int, text: str
) -> None:
    assert format_score(recorded, tsumo=tsumo, dealer=dealer, players=players) == text


def test_points_that_are_no_tsumo_shares_are_refused() -> None:
    # 1000 = 2a + b has no solution with b = 2a or 2a - 100 (a a multiple of 100)
    with pytest.raises(MalformedLogError, match="not Tenhou's shares"):
        format_score(RecordedWin(fu=30, han=1, points=1000), tsumo=True, dealer=False, players=4)


# -- yaku strings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seat_wind", "round_wind", "expected"),
    [
        ("立直(1飜)", 0, 0, ("riichi", 1)),
        ("門前清自摸和(1飜)", 0, 0, ("menzen_tsumo", 1)),
        ("ドラ(3飜)", 0, 0, ("dora", 3)),
        ("裏ドラ(0飜)", 0, 0, ("ura_dora", 0)),
        ("役牌 中(1飜)", 0, 0, ("chun", 1)),
        ("場風 南(1飜)", 0, 0, ("round_wind_south", 1)),
        ("自風 西(1飜)", 0, 0, ("seat_wind_west", 1)),
        ("清一色(5飜)", 0, 0, ("chinitsu", 5)),
        ("大三元(役満)", 0, 0, ("daisangen", 13)),
        ("国士無双１３面(役満)", 0, 0, ("kokushi_13", 13)),  # Tenhou's full-width 13
        ("純正九蓮宝燈(役満)", 0, 0, ("junsei_chuuren", 13)),
        ("人和(役満)", 0, 0, ("renhou", 13)),
        ("人和(5飜)", 0, 0, ("renhou_mangan", 5)),  # Tenhou values renhou as a mangan
        ("抜きドラ(2飜)", 0, 0, ("kita", 2)),
        ("Riichi(1飜)", 0, 0, ("riichi", 1)),
        ("Ura Dora(0飜)", 0, 0, ("ura_dora", 0)),
        ("All Simples(1飜)", 0, 0, ("tanyao", 1)),
        ("Seat Wind(1飜)", 2, 1, ("seat_wind_west", 1)),  # resolved from the winner's seat
        ("Prevalent Wind(1飜)", 2, 1, ("round_wind_south", 1)),
    ],
)
def test_yaku_strings(
    text: str, seat_wind: int, round_wind: int, expected: tuple[str, int]
) -> None:
    assert parse_yaku(text, seat_wind=seat_wind, round_wind=round_wind) == expected


@pytest.mark.parametrize(
    ("name", "han", "text"),
    [
        ("riichi", 1, "立直(1飜)"),
        ("chun", 1, "役牌 中(1飜)"),
        ("kokushi_13", 13, "国士無双１３面(役満)"),
        ("renhou_mangan", 5, "人和(5飜)"),
        ("suukantsu", 13, "四槓子(役満)"),
    ],
)
def test_yaku_strings_written(name: str, han: int, text: str) -> None:
    assert format_yaku(name, han) == text
    assert parse_yaku(text, seat_wind=0, round_wind=0) == (name, han)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Foo(1飜)", "unknown yaku 'Foo'"),
        ("立直", "is not like"),
        ("立直(x飜)", "neither"),
        ("立直(１飜)", "neither"),  # full-width digits are not numbers here
    ],
)
def test_bad_yaku_strings(text: str, message: str) -> None:
    with pytest.raises(MalformedLogError, match=re.escape(message)) as caught:
        parse_yaku(text, seat_wind=0, round_wind=0, where="w")
    assert caught.value.where == "w"


# -- hand-written rounds --------------------------------------------------------------------------

HAND = [11, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 24, 26]


def make_round(
    takes: list[list[Any]],
    discards: list[list[Any]],
    result: list[Any],
    *,
    kyoku: int = 0,
    dora: list[int] | None = None,
    ura: list[int] | None = None,
    hands: list[list[int]] | None = None,
    scores: list[int] | None = None,
) -> list[Any]:
    """A 17-element round; four seats unless ``hands`` gives seat 3 an empty hand."""
    hands = hands or [HAND] * 4
    out: list[Any] = [[kyoku, 0, 0], scores or [25000] * 4, dora or [41], ura or []]
    for seat in range(4):
        out += [hands[seat], takes[seat], discards[seat]]
    return [*out, result]


def make_log(*rounds: list[Any], **header: Any) -> bytes:
    obj = {
        "name": ["A", "B", "C", "D"],
        "rule": {"disp": "般南喰赤", "aka": 1},
        "log": list(rounds),
    }
    obj.update(header)
    return json.dumps(obj, ensure_ascii=False).encode()


def events_of(data: bytes) -> list[Event]:
    (game,) = tenhou6.read(data)
    return list(game.rounds[0].events)


RON_8000 = [0, 0, 0, 0]  # deltas are not checked against the play: any four numbers do


def test_interleaving_riichi_pon_and_ron() -> None:
    # Seat 0 (dealer) draws and discards; seat 1 declares riichi on 1p; seat 3 pons it from
    # across (the letter after one tile), so seat 2 is skipped; ... seat 2 rons seat 1's 4m.
    # (The winner's change counts the riichi stick: 8,000 and the stick.)
    result = ["和了", [0, -8000, 9000, 0], [2, 1, 2, "満貫8000点", "断幺九(1飜)", "ドラ(4飜)"]]
    data = make_log(
        make_round(
            takes=[[11, 13], [12, 14], [], ["21p2121"]],
            discards=[[60, 60], ["r21", 60], [], [31]],
            result=result,
        )
    )
    assert events_of(data) == [
        Draw(0, t("1m")),
        Discard(0, t("1m"), tsumogiri=True),
        Draw(1, t("2m")),
        RiichiDeclared(1),
        Discard(1, t("1p")),
        RiichiAccepted(1),  # the pon shows the riichi discard passed
        Pon(3, 1, t("1p"), tiles("1p1p")),
        Discard(3, t("1s")),
        Draw(0, t("3m")),
        Discard(0, t("3m"), tsumogiri=True),
        Draw(1, t("4m")),
        Discard(1, t("4m"), tsumogiri=True),
        Win(
            2,
            1,
            t("4m"),
            RecordedWin(
                han=5,  # a limit hand's han is its yaku's sum
                fu=None,
                yaku=(("tanyao", 1), ("dora", 4)),
                points=8000,
                limit="mangan",
                deltas=(0, -8000, 9000, 0),
            ),
        ),
    ]


def test_riichi_discard_that_is_ronned_is_not_accepted() -> None:
    result = ["和了", [-3900, 3900, 0, 0], [1, 0, 1, "30符3飜3900点", "立直(1飜)"]]
    data = make_log(make_round([[11], [], [], []], [["r60"], [], [], []], result))
    assert events_of(data) == [
        Draw(0, t("1m")),
        RiichiDeclared(0),
        Discard(0, t("1m"), tsumogiri=True),
        Win(1, 0, t("1m"), RecordedWin(3, 30, (("riichi", 1),), 3900, None, (-3900, 3900, 0, 0))),
    ]


def test_open_kan_dora_comes_after_the_replacement_draw() -> None:
    # Seat 2 calls an open kan on seat 0's white dragon (from across): its discard slot holds
    # 0, it draws a replacement, the new indicator (2z) is turned, then it discards.
    data = make_log(
        make_round(
            takes=[[11], [], ["45m454545", 16], []],
            discards=[[45], [], [0, 60], []],
            result=["流局", [-1000, -1000, 3000, -1000]],
            dora=[41, 42],
        )
    )
    assert events_of(data) == [
        Draw(0, t("1m")),
        Discard(0, t("5z")),
        OpenKan(2, 0, t("5z"), tiles("5z5z5z")),
        Draw(2, t("6m")),
        DoraRevealed(t("2z")),
        Discard(2, t("6m"), tsumogiri=True),
        ExhaustiveDraw(recorded_tenpai=(2,), recorded_deltas=(-1000, -1000, 3000, -1000)),
    ]


def test_no_open_kan_dora_before_a_rinshan_tsumo() -> None:
    result = ["和了", [-4000, 0, 8000, -4000], [2, 2, 2, "満貫2000-4000点", "嶺上開花(1飜)"]]
    data = make_log(
        make_round([[11], [], ["45m454545", 16], []], [[45], [], [0], []], result, dora=[41])
    )
    events = events_of(data)
    assert not any(isinstance(event, DoraRevealed) for event in events)
    assert events[-2] == Draw(2, t("6m"))
    assert isinstance(events[-1], Win) and (events[-1].seat, events[-1].tile) == (2, t("6m"))


def test_closed_kan_dora_comes_before_the_replacement_draw() -> None:
    data = make_log(
        make_round(
            takes=[[11, 19], [], [], []],
            discards=[["111111a11", 60], [], [], []],
            result=["全員不聴"],
            dora=[41, 47],
        )
    )
    assert events_of(data) == [
        Draw(0, t("1m")),
        ClosedKan(0, tiles("1m1m1m1m")),
        DoraRevealed(t("7z")),
        Draw(0, t("9m")),
        Discard(0, t("9m"), tsumogiri=True),
        ExhaustiveDraw(recorded_tenpai=(), recorded_deltas=(0, 0, 0, 0)),
    ]


def added_kans(result: list[Any], dora: list[int], *, robbed: bool) -> list[Any]:
    """Seat 3 deals and discards 1m, then 2m, for seat 0 (on its right) to pon; on its third
    turn seat 0 draws 3m and adds to both pons, the second time robbed or not."""
    return make_round(
        takes=[
            ["p111111", "p121212", 13, 14, *([] if robbed else [15])],
            [33, 35],
            [34, 36],
            [31, 32, 37],
        ],
        discards=[
            [31, 32, "k11111111", "k12121212", *([] if robbed else [60])],
            [60, 60],
            [60, 60],
            [11, 12, 60],
        ],
        result=result,
        kyoku=3,
        dora=dora,
    )


def test_two_added_kans_in_one_turn_in_tenhous_order() -> None:
    # As Tenhou's mjlog writes it (corpus 2016052515gm-...-c4d72066): kan, draw, kan, the
    # first kan's dora, draw, the second kan's dora, discard.
    data = make_log(added_kans(["全員不聴"], dora=[41, 42, 43], robbed=False))
    events = events_of(data)
    kans = events[events.index(AddedKan(0, t("1m"))) :]
    assert kans == [
        AddedKan(0, t("1m")),
        Draw(0, t("4m")),
        AddedKan(0, t("2m")),
        DoraRevealed(t("2z")),
        Draw(0, t("5m")),
        DoraRevealed(t("3z")),
        Discard(0, t("5m"), tsumogiri=True),
        ExhaustiveDraw(recorded_tenpai=(), recorded_deltas=(0, 0, 0, 0)),
    ]


def test_robbed_added_kan_turns_no_dora() -> None:
    # Seat 0's second added kan is robbed (chankan): the first kan's dora is never turned.
    result = ["和了", [-2000, 2000, 0, 0], [1, 0, 1, "30符2飜2000点", "槍槓(1飜)", "平和(1飜)"]]
    events = events_of(make_log(added_kans(result, dora=[41], robbed=True)))
    assert not any(isinstance(event, DoraRevealed) for event in events)
    assert events[-2] == AddedKan(0, t("2m"))
    assert isinstance(events[-1], Win) and events[-1].tile == t("2m")


def test_identical_discards_backtrack_to_the_call_that_fits() -> None:
    # Seat 0 discards 5m on both of its turns; seat 2 pons one of them. Pon on the first and
    # seat 3's pon of seat 1's 1p can no longer happen (seat 3 would have to draw first), so
    # the reader must take the pon as made on the second 5m.
    data = make_log(
        make_round(
            takes=[[11, 12], [13], ["15p1515"], ["21p2121", 17]],
            discards=[[15, 15], [21], [19], [31, 60]],
            result=["全員不聴"],
        )
    )
    events = events_of(data)
    discards_5m = [i for i, e in enumerate(events) if e == Discard(0, t("5m"))]
    pon = events.index(Pon(2, 0, t("5m"), tiles("5m5m")))
    assert len(discards_5m) == 2 and pon == discards_5m[1] + 1
    assert events.index(Pon(3, 1, t("1p"), tiles("1p1p"))) < discards_5m[1]


def test_chi_only_from_the_left() -> None:
    # Seat 2's chi of 3m could only come from seat 1; seat 0's 3m passes.
    data = make_log(
        make_round(
            takes=[[13], [14], ["c131214"], []],
            discards=[[60], [13], [11], []],
            result=["全員不聴"],
        )
    )
    events = events_of(data)
    assert Chi(2, 1, t("3m"), tiles("2m4m")) in events
    assert events.index(Chi(2, 1, t("3m"), tiles("2m4m"))) == 4  # after seat 1's discard


def test_nine_terminals_names_the_drawer() -> None:
    data = make_log(make_round([[], [41], [], []], [[], [], [], []], ["九種九牌"], kyoku=1))
    assert events_of(data) == [
        Draw(1, t("1z")),
        AbortiveDraw(AbortKind.NINE_TERMINALS, seat=1),
    ]


def test_fourth_riichi_is_accepted_before_the_abort() -> None:
    data = make_log(
        make_round(
            takes=[[11], [12], [13], [14]],
            discards=[["r60"], ["r60"], ["r60"], ["r60"]],
            result=["四家立直"],
        )
    )
    events = events_of(data)
    assert events[-2:] == [RiichiAccepted(3), AbortiveDraw(AbortKind.FOUR_RIICHI)]
    assert events.count(RiichiAccepted(0)) == 1


def test_double_ron_in_the_sources_order() -> None:
    result = [
        "和了",
        [-1000, 1000, 0, 0],
        [1, 0, 1, "30符1飜1000点", "役牌 白(1飜)"],
        [-2000, 0, 0, 2000],
        [3, 0, 3, "30符2飜2000点", "役牌 中(1飜)", "ドラ(1飜)"],
    ]
    events = events_of(make_log(make_round([[11], [], [], []], [[45], [], [], []], result)))
    wins = [event for event in events if isinstance(event, Win)]
    assert [(w.seat, w.from_seat, w.tile) for w in wins] == [(1, 0, t("5z")), (3, 0, t("5z"))]
    assert wins[1].recorded is not None and wins[1].recorded.han == 2


def test_a_name_beyond_the_seats_is_refused() -> None:
    round_ = make_round([[], [], [], []], [[], [], [], []], ["流局", [0, 0, 0, 0]])
    with pytest.raises(MalformedLogError, match="5 names for a 4-player game") as caught:
        tenhou6.read(make_log(round_, name=["A", "B", "C", "D", "E"]))
    assert caught.value.where == "name"


def test_sanma_drops_the_empty_seat_and_counts_directions_over_four() -> None:
    # Seat 0 pons seat 2's 9m: seat 2 is "across" (offset 2) in Tenhou's four-seat count.
    hands = [HAND, HAND, HAND, []]
    data = make_log(
        make_round(
            takes=[[44, 11, "19p1919"], [12], [13], []],
            discards=[["f44", 60, 31], [60], [19], []],
            result=["流局", [2000, -1000, -1000, 0]],
            hands=hands,
            scores=[35000, 35000, 35000, 0],
        ),
        rule={"disp": "三般南喰赤", "aka53": 1, "aka52": 1, "aka51": 1},
        name=["A", "B", "C", ""],  # Tenhou's: the fourth seat empty
    )
    (game,) = tenhou6.read(data)
    round_ = game.rounds[0]
    assert game.players == 3 and game.header.ruleset == "tenhou-3p"
    assert len(round_.hands) == 3 and round_.scores == (35000,) * 3
    assert list(round_.events[:4]) == [
        Draw(0, t("4z")),
        NorthExtraction(0, t("4z")),
        Draw(0, t("1m")),
        Discard(0, t("1m"), tsumogiri=True),
    ]
    assert Pon(0, 2, t("9m"), tiles("9m9m")) in round_.events
    assert round_.events[-1] == ExhaustiveDraw((0,), (2000, -1000, -1000))


def test_exhaustive_draw_results() -> None:
    def draw_event(result: list[Any]) -> Event:
        return events_of(make_log(make_round([[11], [], [], []], [[60], [], [], []], result)))[-1]

    assert draw_event(["流局", [1500, -1500, 1500, -1500]]) == ExhaustiveDraw(
        (0, 2), (1500, -1500, 1500, -1500)
    )
    assert draw_event(["全員聴牌"]) == ExhaustiveDraw((0, 1, 2, 3), (0, 0, 0, 0))
    assert draw_event(["全員不聴"]) == ExhaustiveDraw((), (0, 0, 0, 0))
    assert draw_event(["流局"]) == ExhaustiveDraw(None, None)  # nobody paid: tenpai unsaid
    # nagashi: the seat with only terminals and honours discarded, none called
    assert draw_event(["流し満貫", [12000, -4000, -4000, -4000]]) == NagashiMangan(
        (0,), (12000, -4000, -4000, -4000)
    )


# -- games and headers ----------------------------------------------------------------------------


def short_round(kyoku: int = 0, honba: int = 0) -> list[Any]:
    """The dealer draws 1m and discards it; nobody else plays; nobody is tenpai."""
    takes: list[list[Any]] = [[], [], [], []]
    discards: list[list[Any]] = [[], [], [], []]
    takes[kyoku % 4], discards[kyoku % 4] = [11], [60]
    round_ = make_round(takes, discards, ["全員不聴"], kyoku=kyoku)
    round_[0][1] = honba
    return round_


SHORT_ROUND = short_round()


def test_json_lines_of_one_game_are_joined() -> None:
    lines = [make_log(short_round(0)), make_log(short_round(0, 1)), make_log(short_round(1, 2))]
    games = tenhou6.read(b"\n".join(lines))
    assert len(games) == 1
    assert [(r.name, r.honba) for r in games[0].rounds] == [("E1", 0), ("E1", 1), ("E2", 2)]


def test_objects_of_different_games_stay_apart() -> None:
    by_ref = [make_log(short_round(0), ref=ref) for ref in ("a", "b")]
    assert len(tenhou6.read(b"\n".join(by_ref))) == 2
    restarted = [make_log(short_round(1)), make_log(short_round(0))]  # same names, rounds go back
    assert len(tenhou6.read(b"\n".join(restarted))) == 2
    array = b"[" + b",".join(make_log(short_round(k)) for k in (0, 1)) + b"]"
    assert len(tenhou6.read(array)) == 1


@pytest.mark.parametrize(
    ("rule", "ruleset", "overrides"),
    [
        # Tenhou's lobby texts (without a log id: the lobby's rules as today)
        ({"disp": "鳳南喰赤", "aka": 1}, "tenhou-4p", {}),
        ({"disp": "般東喰赤速"}, "tenhou-4p-east", {}),
        ({"disp": "般南喰"}, "tenhou-4p-nored", {}),
        ({"disp": "般南赤"}, "tenhou-4p-nokuitan", {}),
        ({"disp": "上東"}, "tenhou-4p-east-nored-nokuitan", {}),
        # A Mahjong Soul room: Mahjong Soul's rules.
        ({"disp": "Gold Room South", "aka51": 1, "aka52": 1, "aka53": 1}, "majsoul-4p", {}),
        # A converter's own text: the lobby's rules as its flags say.
        ({"disp": "Friendly East", "aka51": 0, "aka52": 0, "aka53": 0}, "tenhou-4p-east-nored", {}),
        ({}, "tenhou-4p", {}),  # nothing said: Tenhou's defaults
    ],
)
def test_rule_set_from_the_rule(
    rule: dict[str, Any], ruleset: str, overrides: dict[str, Any]
) -> None:
    (game,) = tenhou6.read(make_log(SHORT_ROUND, rule=rule))
    assert (game.header.ruleset, dict(game.header.rule_overrides)) == (ruleset, overrides)


def test_red_fives_in_the_log_mean_red_fives() -> None:
    round_ = copy.deepcopy(SHORT_ROUND)
    round_[4] = [*HAND[:12], 51]
    (game,) = tenhou6.read(make_log(round_, rule={"disp": "般南喰"}))
    assert game.header.ruleset == "tenhou-4p"


def test_sanma_without_red_fives_is_a_preset_with_an_override() -> None:
    round_ = make_round(
        [[11], [], [], []],
        [[60], [], [], []],
        ["全員不聴"],
        hands=[HAND] * 3 + [[]],
        scores=[35000, 35000, 35000, 0],
    )
    (game,) = tenhou6.read(make_log(round_, rule={"disp": "三般南喰"}, name=["A", "B", "C", ""]))
    assert game.header.ruleset == "tenhou-3p"
    assert game.header.rule_overrides == {"red_fives": [0, 0, 0]}


def test_header_players_source_and_start() -> None:
    data = make_log(
        SHORT_ROUND,
        ref="2019050417gm-0029-0000-4f2a8622",
        dan=["四段", "新人", "九段", ""],
        rate=[1912.87, 1500, 2104.6, 1904.95],
        lobby=0,
        sx=["F", "F", "M", "F"],
    )
    (game,) = tenhou6.read(data)
    header = game.header
    assert [(p.name, p.rank, p.rating) for p in header.players] == [
        ("A", "四段", 1912.87),
        ("B", "新人", 1500.0),
        ("C", "九段", 2104.6),
        ("D", None, 1904.95),
    ]
    assert header.source.id == "2019050417gm-0029-0000-4f2a8622"
    assert header.source.extra == {"disp": "般南喰赤", "lobby": "0", "sx": "F,F,M,F"}
    assert header.started_at == "2019-05-04T17:00:00+09:00"


def test_final_result_only_when_the_last_round_ends_the_game() -> None:
    # The round's end scores (25000 each, no payment) plus nothing left on the table.
    ended = make_log(SHORT_ROUND, sc=[25000, 5.0, 25000, 15.0, 25000, -5.0, 25000, -15.0])
    (game,) = tenhou6.read(ended)
    assert game.recorded_final == FinalResult((25000,) * 4, (5.0, 15.0, -5.0, -15.0))
    trimmed = make_log(SHORT_ROUND, sc=[30000, 20, 25000, 0, 25000, -10, 20000, -10])
    assert tenhou6.read(trimmed)[0].recorded_final is None
    # Seat 0's riichi stick is left on the table: it goes to first place (seat 1 here)
    riichi = make_round([[11], [], [], []], [["r60"], [], [], []], ["全員不聴"])
    leftover = make_log(riichi, sc=[24000, -16, 26000, 46, 25000, -5, 25000, -25])
    assert tenhou6.read(leftover)[0].recorded_final is not None


# -- malformed input ------------------------------------------------------------------------------


def broken(change: Any) -> bytes:
    """The short valid log with ``change(round)`` applied to its round (or to the object)."""
    obj = json.loads(make_log(copy.deepcopy(SHORT_ROUND)))
    change(obj)
    return json.dumps(obj, ensure_ascii=False).encode()


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(obj: Any) -> None:
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("data", "where", "message"),
    [
        (b"{", "line 1", "not valid JSON"),
        (b"\x80\x81", None, "not UTF-8"),
        (b"[1, 2]", "[0]", "expected a tenhou.net/6 object"),
        (b'{"log": 5}', "log", "expected an array"),
        (broken(lambda o: o["log"][0].pop()), "log[0]", "17 elements"),
        (broken(_set(("log", 0, 4, 0), 10)), "log[0][4][0]", "not a tile code"),
        (broken(_set(("log", 0, 4, 0), "11")), "log[0][4][0]", "not a tile code"),
        (broken(_set(("log", 0, 4), HAND[:12])), "log[0][4]", "starting hand of 12"),
        (broken(_set(("log", 0, 1, 0), "25000")), "log[0][1][0]", "expected an integer"),
        (broken(_set(("log", 0, 0), [0, 0])), "log[0][0]", "kyoku"),
        (broken(_set(("log", 0, 2), [])), "log[0][2]", "no dora indicator"),
        (broken(_set(("log", 0, 5), [11, "c131415"])), "log[0][5][1]", "takes unplayed"),
        (broken(_set(("log", 0, 8), ["c131415"])), "log[0][8][0]", "no discard before it"),
        (broken(_set(("log", 0, 5), [11, "a111111"])), "log[0][5][1]", "with 'a' at index 6"),
        (broken(_set(("log", 0, 5), [11, "111111a11"])), "log[0][5][1]", "in the discards"),
        (broken(_set(("log", 0, 5), [])), "log[0][6][0]", "discards unplayed"),
        (
            broken(lambda o: o["log"][0].__setitem__(slice(8, 10), [["p111111"], [60]])),
            "log[0][9][0]",
            "drew none",
        ),
        (broken(_set(("log", 0, 6), [60, 60])), "log[0][6][1]", "unplayed"),
        (broken(_set(("log", 0, 6), [0])), "log[0][6][0]", "open kan's 0"),
        (broken(_set(("log", 0, 16), ["foo"])), "log[0][16][0]", "unknown result"),
        (broken(_set(("log", 0, 16), [])), "log[0][16][0]", "unknown result"),
        (broken(_set(("log", 0, 16), ["流局", [1, 2, 3]])), "log[0][16][1]", "3 values"),
        (broken(_set(("log", 0, 16), ["和了", [0] * 4])), "log[0][16]", "pairs"),
        (
            broken(_set(("log", 0, 16), ["和了", [0] * 4, [0, 0, 0, "満貫4000点∀", "Foo(1飜)"]])),
            "log[0][16][2][4]",
            "unknown yaku",
        ),
        (
            broken(_set(("log", 0, 16), ["和了", [0] * 4, [0, 0, 0, "満貫8000点"]])),
            "log[0][16][2][3]",
            "not a tsumo's score",
        ),
        (broken(_set(("log", 0, 16), ["和了", [0] * 4, [7, 0, 7]])), "log[0][16][2][0]", "seat"),
        (
            broken(_set(("log", 0, 16), ["和了", [0] * 4, [1, 2, 1]])),
            "log[0][16]",
            "offered no tile",
        ),
        (broken(_set(("name",), "A")), "name", "expected an array"),
        (broken(_set(("rate",), ["x"] * 4)), "rate[0]", "expected a number"),
        (broken(_set(("sc",), [1, 2])), "sc", "not (points, result) per seat"),
        (make_log(SHORT_ROUND) + b"\n{oops", "line 2", "not valid JSON"),
    ],
)
def test_malformed_input_names_the_place(data: bytes, where: str | None, message: str) -> None:
    with pytest.raises(MalformedLogError, match=re.escape(message)) as caught:
        tenhou6.read(data)
    assert caught.value.where == where


def test_mutated_logs_fail_only_with_malformed_log_error() -> None:
    """Random damage to a real-looking log: any outcome but a stray exception."""
    base = json.loads(
        make_log(
            make_round(
                takes=[[11, 13], [12, 14], [], ["21p2121"]],
                discards=[[60, 60], ["r21", 60], [], [31]],
                result=["和了", [0, -8000, 8000, 0], [2, 1, 2, "満貫8000点", "断幺九(1飜)"]],
            )
        )
    )
    _fuzz(base, seed=1, rounds=400)


def _fuzz(base: dict[str, Any], *, seed: int, rounds: int) -> None:
    junk = [
        None,
        True,
        -1,
        0,
        60,
        99,
        1.5,
        float("nan"),
        "",
        "x",
        "p111111",
        "r60",
        [],
        [11],
        {},
        "和了",
    ]
    rng = random.Random(seed)
    for _ in range(rounds):
        obj = copy.deepcopy(base)
        for _ in range(rng.randint(1, 3)):
            _mutate(obj, rng, junk)
        with contextlib.suppress(MalformedLogError):
            tenhou6.read(json.dumps(obj, ensure_ascii=False).encode())


def _mutate(obj: Any, rng: random.Random, junk: list[Any]) -> None:
    """Replace, drop or duplicate one random element somewhere inside ``obj``."""
    target = obj
    while True:
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        if not keys:
            return
        key = rng.choice(keys)
        inner = target[key]
        if isinstance(inner, dict | list) and inner and rng.random() < 0.7:
            target = inner
            continue
        action = rng.random()
        if action < 0.5 or isinstance(target, dict):
            target[key] = rng.choice(junk)
        elif action < 0.8:
            del target[key]
        else:
            target.insert(key, copy.deepcopy(inner))
        return


# -- writing --------------------------------------------------------------------------------------


def test_written_objects_have_tenhous_structure() -> None:
    (game,) = tenhou6.read(make_log(SHORT_ROUND, sc=[25000, 5, 25000, 15, 25000, -5, 25000, -15]))
    (line,) = tenhou6.write([game]).decode().splitlines()
    obj = json.loads(line)
    assert list(obj) == ["ver", "ref", "log", "ratingc", "rule", "lobby", "sc", "name"]
    assert obj["ver"] == 2.3 and obj["ratingc"] == "PF4"
    assert obj["rule"] == {"disp": "般南喰赤", "aka53": 1, "aka52": 1, "aka51": 1}
    assert obj["sc"] == [25000, 5, 25000, 15, 25000, -5, 25000, -15]
    assert obj["log"] == [SHORT_ROUND]


def test_written_calls_and_markers() -> None:
    rounds = [
        make_round(
            takes=[[11, 13], [12, 14], [], ["21p2121"]],
            discards=[[60, 60], ["r21", 60], [], [31]],
            result=["和了", [0, -8000, 9000, 0], [2, 1, 2, "満貫8000点", "断幺九(1飜)"]],
        ),
        make_round(
            takes=[[11], [], ["45m454545", 16], []],
            discards=[[45], [], [0, 60], []],
            result=["流局", [-1000, -1000, 3000, -1000]],
            dora=[41, 42],
        ),
        added_kans(["全員不聴"], dora=[41, 42, 43], robbed=False),
    ]
    for round_ in rounds:
        (game,) = tenhou6.read(make_log(round_))
        assert tenhou6.game_to_json(game)["log"] == [round_]


def test_writer_refuses_what_tenhou6_cannot_hold() -> None:
    (game,) = tenhou6.read(make_log(SHORT_ROUND))
    header = game.header
    ema = dataclasses.replace(
        game, header=dataclasses.replace(header, ruleset="ema-2016", rule_overrides={})
    )
    with pytest.raises(UnsupportedLogError, match="Tenhou and Mahjong Soul games"):
        tenhou6.write([ema])
    options = dataclasses.replace(header, rule_overrides={"uma": [30, 10, -10, -30]})
    with pytest.raises(UnsupportedLogError, match="uma"):
        tenhou6.write([dataclasses.replace(game, header=options)])
    round_ = game.rounds[0]
    penalty = dataclasses.replace(round_, events=(*round_.events, ScoreChange((0, 0, 0, 0), "x")))
    with pytest.raises(UnsupportedLogError, match="score change"):
        tenhou6.write([dataclasses.replace(game, rounds=(penalty,))])
    no_pon = dataclasses.replace(round_, events=(AddedKan(0, t("1m")), *round_.events))
    with pytest.raises(MalformedLogError, match="adds 1m to no pon"):
        tenhou6.write([dataclasses.replace(game, rounds=(no_pon,))])
    unended = dataclasses.replace(round_, events=round_.events[:-1])
    with pytest.raises(MalformedLogError, match="no end"):
        tenhou6.write([dataclasses.replace(game, rounds=(unended,))])


def test_sniff() -> None:
    assert FORMAT.sniff(make_log(SHORT_ROUND))
    assert sniff_format(make_log(SHORT_ROUND)) is FORMAT  # the registry finds it too
    assert FORMAT.sniff(b"[" + make_log(SHORT_ROUND) + b"]")
    assert not FORMAT.sniff(b'{"format": "mjlogs-canonical", "log": []}')
    assert not FORMAT.sniff(b'{"type":"start_game","names":["a","b","c","d"]}')
    assert not FORMAT.sniff(b"<mjloggm ver='2.3'>")


# -- the corpus -----------------------------------------------------------------------------------


def _manifest(format_name: str) -> list[dict[str, str]]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(encoding="utf-8") as file:
        rows = csv.DictReader(file, delimiter="\t")
        return [row for row in rows if row["format"] == format_name]


def _params(rows: list[Any]) -> list[Any]:
    if not rows:
        return [pytest.param(None, id="no-corpus", marks=pytest.mark.skip(reason=MISSING))]
    return [pytest.param(row, id=Path(row["path"]).name) for row in rows]


@cache
def _read(relative: str) -> Game:
    path = CORPUS / relative
    if not path.exists():
        pytest.skip(MISSING)
    (game,) = tenhou6.read(path.read_bytes())
    return game


TENHOU6 = _manifest("tenhou6_json")


@pytest.mark.corpus
@pytest.mark.parametrize("row", _params(TENHOU6))
def test_corpus_file_reads(row: dict[str, str]) -> None:
    game = _read(row["path"])
    assert len(game.rounds) == int(row["n_rounds"])
    assert game.players == int(row["players"])
    wall = 136 - 13 * 4 - 14 if game.players == 4 else 108 - 13 * 3 - 14
    for round_ in game.rounds:
        draws = _check_tiles(round_, game.players)
        kans_and_norths = sum(
            isinstance(e, OpenKan | ClosedKan | AddedKan | NorthExtraction) for e in round_.events
        )
        assert draws - kans_and_norths <= wall


#: The events that move tiles: what a call, a win or the round's end follows.
PLAYS = (Draw, Discard, Chi, Pon, OpenKan, ClosedKan, AddedKan, NorthExtraction)


def _check_tiles(round_: Round, players: int) -> int:
    """Account for every seat's tiles through the events: its 13 + its draws = its discards +
    the tiles it melded or set aside + what it holds at the end, which is 13 less 3 per meld
    (one more if its own draw ended the round). Each tile given away must be held at the time;
    each call takes the discard just made by its source; each win's tile is the last draw
    (tsumo) or the last tile offered (ron). Returns the number of draws."""
    hands = [Counter(hand) for hand in round_.hands]
    drawn, discarded, melded, melds = ([0] * players for _ in range(4))
    previous: Event | None = None  # the last play, riichi markers and dora aside

    def give(seat: int, given: tuple[Tile, ...]) -> None:
        for tile in given:
            assert hands[seat][tile] > 0, f"{round_.name}: seat {seat} gives {tile} it lacks"
            hands[seat][tile] -= 1

    for event in round_.events:
        if isinstance(event, Draw):
            hands[event.seat][event.tile] += 1
            drawn[event.seat] += 1
        elif isinstance(event, Discard):
            give(event.seat, (event.tile,))
            discarded[event.seat] += 1
        elif isinstance(event, AddedKan | NorthExtraction):
            give(event.seat, (event.tile,))
            melded[event.seat] += 1
        elif isinstance(event, ClosedKan):
            give(event.seat, event.tiles)
            melded[event.seat] += 4
            melds[event.seat] += 1
        elif isinstance(event, Chi | Pon | OpenKan):
            assert isinstance(previous, Discard)
            assert (previous.seat, previous.tile) == (event.from_seat, event.tile)
            give(event.seat, event.consumed)
            melded[event.seat] += len(event.consumed)
            melds[event.seat] += 1
        elif isinstance(event, Win):
            if event.tsumo:
                assert previous == Draw(event.seat, event.tile)
            else:
                assert isinstance(previous, Discard | AddedKan | NorthExtraction)
                assert (previous.seat, previous.tile) == (event.from_seat, event.tile)
        if isinstance(event, PLAYS):
            previous = event
    ender = previous.seat if isinstance(previous, Draw) else None
    for seat in range(players):
        remaining = 13 - 3 * melds[seat] + (seat == ender)
        assert 13 + drawn[seat] == discarded[seat] + melded[seat] + remaining, round_.name
        assert sum(hands[seat].values()) == remaining, f"{round_.name}: seat {seat}"
    return sum(drawn)


@pytest.mark.corpus
@pytest.mark.parametrize("row", _params(TENHOU6))
def test_corpus_round_trip(row: dict[str, str]) -> None:
    """read -> write -> read gives the same game: names, rule set, rounds, final result.
    Hands are compared as multisets: Tenhou lists a starting hand sorted (a red five after its
    plain fives), the writer does the same, and two hand-edited mjai-reviewer fixtures do not."""
    game = _read(row["path"])
    (again,) = tenhou6.read(tenhou6.write([game]))
    assert [p.name for p in again.header.players] == [p.name for p in game.header.players]
    assert (again.header.ruleset, again.header.rule_overrides) == (
        game.header.ruleset,
        game.header.rule_overrides,
    )
    assert again.recorded_final == game.recorded_final
    assert [_sorted_hands(r) for r in again.rounds] == [_sorted_hands(r) for r in game.rounds]


def _sorted_hands(round_: Round) -> Round:
    return dataclasses.replace(round_, hands=tuple(tuple(sorted(hand)) for hand in round_.hands))


# -- the same games as mjlog ----------------------------------------------------------------------

PAIRS = [
    row
    for row in TENHOU6
    if row["repo"] == "mjx-project/mjx"
    and (CORPUS / "mjlog_xml" / "mjx-project__mjx" / (Path(row["path"]).stem + ".mjlog")).exists()
]


def _mjlog_game(row: dict[str, str]) -> Game:
    try:
        from engine.formats.mjlog import read_mjlog
    except ImportError:  # pragma: no cover - the mjlog reader is written alongside
        pytest.skip("engine/formats/mjlog.py (read_mjlog) is not there yet")
    path = CORPUS / "mjlog_xml" / "mjx-project__mjx" / (Path(row["path"]).stem + ".mjlog")
    return read_mjlog(path.read_bytes())


@pytest.mark.corpus
def test_all_31_pairs_are_there() -> None:
    if not TENHOU6:
        pytest.skip(MISSING)
    assert len(PAIRS) == 31


@pytest.mark.corpus
@pytest.mark.parametrize("row", _params(PAIRS))
def test_same_rounds_as_mjlog(row: dict[str, str]) -> None:
    """Both formats give the same rounds, events included, once the differences of what each
    format can carry are set aside:

    * hand and meld tile order: mjlog lists tiles by id (a red five before its plain fives),
      Tenhou's JSON by kind with the red five last; the tiles are the same;
    * ``RecordedWin.hand``: only mjlog shows the winner's hand;
    * ``RecordedWin.fu`` of limit hands: Tenhou's JSON writes "満貫8000点" without fu;
    * ``AbortiveDraw.recorded_deltas``: mjlog's ``sc`` gives zero payments, the JSON none.
    """
    ours = _read(row["path"])
    theirs = _mjlog_game(row)
    assert len(ours.rounds) == len(theirs.rounds)
    for mine, other in zip(ours.rounds, theirs.rounds, strict=True):
        mine, other = _comparable(mine), _comparable(other)
        assert len(mine.events) == len(other.events), mine.name
        for event, expected in zip(mine.events, other.events, strict=True):
            if isinstance(event, Win) and isinstance(expected, Win) and expected.recorded:
                assert event.recorded is not None
                if event.recorded.fu is None:  # a limit hand: the JSON says no fu
                    expected = dataclasses.replace(
                        expected, recorded=dataclasses.replace(expected.recorded, fu=None)
                    )
            assert event == expected, mine.name
        assert dataclasses.replace(mine, events=()) == dataclasses.replace(other, events=())


def _comparable(round_: Round) -> Round:
    events: list[Event] = []
    for event in round_.events:
        if isinstance(event, Chi | Pon | OpenKan):
            event = dataclasses.replace(event, consumed=tuple(sorted(event.consumed)))
        elif isinstance(event, ClosedKan):
            event = dataclasses.replace(event, tiles=tuple(sorted(event.tiles)))
        elif isinstance(event, AbortiveDraw):
            event = dataclasses.replace(event, recorded_deltas=None)
        elif isinstance(event, Win) and event.recorded is not None:
            event = dataclasses.replace(
                event, recorded=dataclasses.replace(event.recorded, hand=None)
            )
        events.append(event)
    return dataclasses.replace(_sorted_hands(round_), events=tuple(events))


@pytest.mark.corpus
@pytest.mark.parametrize("row", _params(PAIRS))
def test_writer_gives_tenhous_own_json_for_mjlog_games(row: dict[str, str]) -> None:
    """Written from the mjlog, each round is exactly the array Tenhou's JSON holds: hands,
    takes, discards (call strings, 60, 0), dora, results with their Japanese detail."""
    written = tenhou6.game_to_json(_mjlog_game(row))
    path = CORPUS / row["path"]
    stored = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    assert written["log"] == [obj["log"][0] for obj in stored]
    assert written["rule"]["disp"] == stored[0]["rule"]["disp"]  # 鳳南喰赤: room from GO type


@pytest.mark.corpus
def test_corpus_damage_fails_only_with_malformed_log_error() -> None:
    path = CORPUS / "tenhou6_json" / "Equim-chan__mjai-reviewer" / "confusing_nakis_0.json"
    if not path.exists():
        pytest.skip(MISSING)
    _fuzz(json.loads(path.read_bytes()), seed=2, rounds=300)
    data = path.read_bytes()
    with pytest.raises(MalformedLogError):
        tenhou6.read(data[: len(data) // 2])  # truncated


@pytest.mark.corpus
def test_a_game_without_ref_takes_the_log_id_in_its_file_name() -> None:
    if not PAIRS:
        pytest.skip(MISSING)
    path = CORPUS / PAIRS[0]["path"]
    (nameless,), _ = read_games(path.read_bytes())
    assert nameless.header.source.id is None  # mjx's exports carry no ref
    (named,), _ = read_games(path.read_bytes(), file_name=f"downloads/{path.name}")
    assert named.header.source.id == path.stem
    assert named.header.started_at is not None and named.header.started_at.startswith(
        f"{path.stem[:4]}-{path.stem[4:6]}-{path.stem[6:8]}T"
    )
    assert named.rounds == nameless.rounds
