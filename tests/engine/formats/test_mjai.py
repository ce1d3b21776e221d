"""The mjai JSON-lines reader and writer (engine.formats.mjai).

The expectations come from the mjai dialects themselves (gimite's names and fields, Mortal's
ordering, akochan's and mjai-manue's extras), written out by hand in small logs below, and from
the real files of ``../shared/corpus/mjai_jsonl``: those are checked against their MANIFEST and
against a tile-by-tile accounting done here, independently of the reader.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.errors import EngineError, MalformedLogError, UnsupportedLogError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    ExhaustiveDraw,
    FinalResult,
    Game,
    GameHeader,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Player,
    Pon,
    RecordedWin,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    ScoreChange,
    Source,
    Win,
)
from engine.formats import decompress, mjai
from engine.tiles import parse_tile, parse_tiles

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus"
MANIFEST = CORPUS / "MANIFEST.tsv"
NO_CORPUS = f"{CORPUS} not found: corpus tests need ../shared/corpus"


def t(text: str) -> Any:
    """One tile in MPSZ notation (``0p`` is the red five)."""
    return parse_tile(text)


def ts(text: str) -> tuple[Any, ...]:
    return tuple(parse_tiles(text))


# -- small hand-written logs -----------------------------------------------------------------------

#: Four starting hands in mjai codes (13 each; seat 0 holds a red five).
HANDS = [
    ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "P", "P"],
    ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C"],
    ["2m", "3m", "4m", "2p", "3p", "4p", "2s", "3s", "4s", "6m", "7m", "8m", "F"],
    ["5m", "5m", "6p", "6p", "7p", "7p", "3s", "3s", "4s", "4s", "C", "C", "N"],
]


def start_game(**fields: Any) -> dict[str, Any]:
    return {"type": "start_game", "names": ["A", "B", "C", "D"], **fields}


def start_kyoku(**fields: Any) -> dict[str, Any]:
    event = {
        "type": "start_kyoku",
        "bakaze": "E",
        "dora_marker": "9s",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "scores": [25000] * 4,
        "tehais": HANDS,
    }
    event.update(fields)
    return event


def tsumo(actor: int, pai: str) -> dict[str, Any]:
    return {"type": "tsumo", "actor": actor, "pai": pai}


def dahai(actor: int, pai: str, tsumogiri: bool | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "dahai", "actor": actor, "pai": pai}
    if tsumogiri is not None:
        event["tsumogiri"] = tsumogiri
    return event


def lines(*events: Any) -> bytes:
    """A file of one JSON value per line."""
    return "\n".join(json.dumps(event) for event in events).encode() + b"\n"


def one_game(*events: Any) -> Game:
    games = mjai.read(lines(*events))
    assert len(games) == 1
    return games[0]


def one_round(*events: Any) -> Round:
    game = one_game(start_game(), start_kyoku(), *events)
    assert len(game.rounds) == 1
    return game.rounds[0]


# -- reading: the round and its actions ------------------------------------------------------------


def test_start_kyoku_fields_become_the_round() -> None:
    round_ = one_game(
        start_game(),
        start_kyoku(bakaze="S", kyoku=3, honba=2, kyotaku=1, oya=2, dora_marker="C",
                    scores=[31000, 24000, 20000, 24000]),
    ).rounds[0]  # fmt: skip
    assert (round_.wind, round_.number, round_.dealer) == (1, 3, 2)
    assert (round_.honba, round_.sticks) == (2, 1)
    assert round_.scores == (31000, 24000, 20000, 24000)
    assert round_.dora_indicators == (t("7z"),)
    assert round_.name == "S3"
    assert round_.hands[0] == ts("123m406p789s1155z")  # P = haku 5z, 5pr = red 0p
    assert round_.hands[1] == ts("19m19p19s1234567z")  # E S W N P F C = 1z..7z
    assert round_.hands[3][-3:] == ts("774z")


def test_draws_discards_and_tsumogiri() -> None:
    round_ = one_round(
        tsumo(0, "5mr"),
        dahai(0, "5mr", tsumogiri=True),
        tsumo(1, "2p"),
        dahai(1, "C"),  # no tsumogiri field: not the drawn tile
        tsumo(2, "3s"),
        dahai(2, "3s"),  # no tsumogiri field: the drawn tile
        tsumo(3, "5s"),
        dahai(3, "5s", tsumogiri=False),  # the source's word is kept
    )
    assert round_.events == (
        Draw(0, t("0m")),
        Discard(0, t("0m"), tsumogiri=True),
        Draw(1, t("2p")),
        Discard(1, t("7z"), tsumogiri=False),
        Draw(2, t("3s")),
        Discard(2, t("3s"), tsumogiri=True),
        Draw(3, t("5s")),
        Discard(3, t("5s"), tsumogiri=False),
    )


def test_plain_five_is_not_the_drawn_red_five() -> None:
    round_ = one_round(tsumo(0, "5pr"), dahai(0, "5p"))
    assert round_.events[1] == Discard(0, t("5p"), tsumogiri=False)


def test_calls_kans_and_dora() -> None:
    round_ = one_round(
        tsumo(0, "1s"),
        dahai(0, "P"),
        {"type": "pon", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P"]},
        dahai(1, "9m"),
        {"type": "chi", "actor": 2, "target": 1, "pai": "9m", "consumed": ["7m", "8m"]},
        dahai(2, "F"),
        tsumo(3, "C"),
        {"type": "ankan", "actor": 3, "consumed": ["C", "C", "C", "C"]},
        {"type": "dora", "dora_marker": "1p"},
        tsumo(3, "2s"),
        dahai(3, "N"),
        {"type": "daiminkan", "actor": 1, "target": 3, "pai": "N", "consumed": ["N", "N", "N"]},
        tsumo(1, "P"),
        {"type": "kakan", "actor": 1, "pai": "P", "consumed": ["P", "P", "P"]},
        tsumo(1, "4m"),
        {"type": "dora", "dora_marker": "2p"},
        dahai(1, "4m"),
        {"type": "kan", "actor": 2, "target": 1, "pai": "4m", "consumed": ["4m", "4m", "4m"]},
    )
    assert round_.events == (
        Draw(0, t("1s")),
        Discard(0, t("5z")),
        Pon(1, 0, t("5z"), ts("55z")),
        Discard(1, t("9m")),
        Chi(2, 1, t("9m"), ts("78m")),
        Discard(2, t("6z")),
        Draw(3, t("7z")),
        ClosedKan(3, ts("7777z")),
        DoraRevealed(t("1p")),
        Draw(3, t("2s")),
        Discard(3, t("4z")),
        OpenKan(1, 3, t("4z"), ts("444z")),
        Draw(1, t("5z")),
        AddedKan(1, t("5z")),
        Draw(1, t("4m")),
        DoraRevealed(t("2p")),
        Discard(1, t("4m"), tsumogiri=True),
        OpenKan(2, 1, t("4m"), ts("444m")),  # RiichiEnv's "kan" is a daiminkan
    )


def test_riichi_declared_before_and_accepted_after_the_discard() -> None:
    round_ = one_round(
        tsumo(0, "1s"),
        {"type": "reach", "actor": 0},
        dahai(0, "1s", tsumogiri=True),
        # Mortal's deltas and scores on reach_accepted are not read.
        {"type": "reach_accepted", "actor": 0, "deltas": [-1000, 0, 0, 0], "scores": [0] * 4},
        tsumo(1, "2s"),
    )
    assert round_.events[1:4] == (
        RiichiDeclared(0),
        Discard(0, t("1s"), tsumogiri=True),
        RiichiAccepted(0),
    )


def test_riichi_accepted_late_is_moved_right_after_the_discard() -> None:
    round_ = one_round(
        tsumo(0, "P"),
        {"type": "reach", "actor": 0},
        dahai(0, "P", tsumogiri=True),
        {"type": "pon", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P"]},
        {"type": "reach_accepted", "actor": 0},
        dahai(1, "C"),
    )
    assert [type(event) for event in round_.events] == [
        Draw, RiichiDeclared, Discard, RiichiAccepted, Pon, Discard,
    ]  # fmt: skip


def test_reach_accepted_without_riichi_discard_is_an_error() -> None:
    with pytest.raises(MalformedLogError, match=r"line 4: reach_accepted: seat 0 has no riichi"):
        one_round(tsumo(0, "1s"), {"type": "reach_accepted", "actor": 0})


# -- reading: wins ---------------------------------------------------------------------------------


def test_ron_with_gimite_fields() -> None:
    round_ = one_round(
        tsumo(0, "1s"),
        {"type": "reach", "actor": 0},
        dahai(0, "1s", tsumogiri=True),
        {"type": "reach_accepted", "actor": 0},
        tsumo(1, "6s"),
        dahai(1, "6s", tsumogiri=True),
        {
            "type": "hora", "actor": 0, "target": 1, "pai": "6s",
            "uradora_markers": ["3p"],
            "hora_tehais": ["2m", "3m", "4m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E",
                            "P", "P"],
            "yakus": [["reach", 1], ["akadora", 1], ["dora", 0]],
            "fu": 40, "fan": 2, "hora_points": 2600,
            "deltas": [3600, -2600, 0, 0], "scores": [27600, 22400, 25000, 25000],
        },
        {"type": "end_kyoku"},
    )  # fmt: skip
    assert round_.ura_indicators == (t("3p"),)
    win = round_.events[-1]
    assert win == Win(
        seat=0,
        from_seat=1,
        tile=t("6s"),
        recorded=RecordedWin(
            han=2,
            fu=40,
            yaku=(("riichi", 1), ("aka_dora", 1)),  # the 0-han dora entry is dropped
            points=2600,
            deltas=(3600, -2600, 0, 0),
            hand=(*ts("234m406p789s1155z"), t("6s")),  # gimite leaves the winning tile out
        ),
    )


def test_winning_tile_without_pai_is_the_last_discard_or_draw() -> None:
    ron = one_round(tsumo(0, "1s"), dahai(0, "C"), {"type": "hora", "actor": 3, "target": 0})
    assert ron.events[-1] == Win(3, 0, t("7z"))
    tsumo_win = one_round(tsumo(0, "5sr"), {"type": "hora", "actor": 0, "target": 0})
    assert tsumo_win.events[-1] == Win(0, 0, t("0s"))


def test_chankan_takes_the_added_tile() -> None:
    round_ = one_round(
        tsumo(0, "1s"),
        dahai(0, "P"),
        {"type": "pon", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P"]},
        dahai(1, "9m"),
        tsumo(2, "1p"),
        dahai(2, "1p"),
        tsumo(3, "9p"),
        dahai(3, "9p"),
        tsumo(0, "2s"),
        dahai(0, "2s"),
        tsumo(1, "P"),
        {"type": "kakan", "actor": 1, "pai": "P", "consumed": ["P", "P", "P"]},
        {"type": "hora", "actor": 2, "target": 1},
    )
    assert round_.events[-1] == Win(2, 1, t("5z"))


def test_double_ron_keeps_source_order_and_derives_deltas_from_scores() -> None:
    # akochan gives the scores after each win and no deltas.
    round_ = one_round(
        tsumo(0, "1s"),
        dahai(0, "C"),
        {"type": "hora", "actor": 1, "target": 0, "pai": "C",
         "scores": [17000, 33000, 25000, 25000]},
        {"type": "hora", "actor": 3, "target": 0, "pai": "C",
         "scores": [15000, 33000, 25000, 27000]},
    )  # fmt: skip
    assert [(w.seat, w.from_seat) for w in round_.events[-2:]] == [(1, 0), (3, 0)]
    recorded = [w.recorded for w in round_.events[-2:]]
    assert recorded == [
        RecordedWin(deltas=(-8000, 8000, 0, 0)),
        RecordedWin(deltas=(-2000, 0, 0, 2000)),
    ]


def test_hora_pai_that_is_not_the_last_discard_is_an_error() -> None:
    with pytest.raises(MalformedLogError, match=r"line 5: hora: pai 9m is not the winning tile"):
        one_round(tsumo(0, "1s"), dahai(0, "C"), {"type": "hora", "actor": 3, "target": 0,
                                                   "pai": "9m"})  # fmt: skip


def test_tsumo_without_a_draw_is_an_error() -> None:
    with pytest.raises(MalformedLogError, match=r"line 5: hora: tsumo by seat 1"):
        one_round(tsumo(0, "1s"), dahai(0, "C"), {"type": "hora", "actor": 1, "target": 1})


@pytest.mark.parametrize(
    ("winner", "oya", "bakaze", "mjai_yaku", "ours"),
    [
        # jikaze is the winner's seat wind counted from the dealer.
        (1, 1, "E", [["jikaze", 1], ["bakaze", 1]],
         [("seat_wind_east", 1), ("round_wind_east", 1)]),
        (2, 0, "S", [["jikaze", 1]], [("seat_wind_west", 1)]),
        (1, 2, "E", [["jikaze", 1]], [("seat_wind_north", 1)]),
        (3, 0, "S", [["bakaze", 1]], [("round_wind_south", 1)]),
        (1, 0, "E", [["ikkitsukan", 2], ["honiso", 3], ["chiniso", 6]],
         [("ittsu", 2), ("honitsu", 3), ("chinitsu", 6)]),
        (1, 0, "E", [["toitoiho", 2], ["sananko", 2], ["honroto", 2], ["sanshokudoko", 2]],
         [("toitoi", 2), ("sanankou", 2), ("honroutou", 2), ("sanshoku_doukou", 2)]),
        (1, 0, "E", [["reach", 1], ["ippatsu", 1], ["hoteiraoyui", 1], ["uradora", 2],
                     ["pinfu", 1], ["ipeko", 1], ["tanyaochu", 1]],
         [("riichi", 1), ("ippatsu", 1), ("houtei", 1), ("ura_dora", 2), ("pinfu", 1),
          ("iipeikou", 1), ("tanyao", 1)]),
        # gimite counts a yakuman as 100 fan; the engine as 13. Seat 1 waits on all thirteen
        # orphans: gimite's one name for both is the thirteen-sided one.
        (1, 0, "E", [["kokushimuso", 100]], [("kokushi_13", 13)]),
        (1, 0, "E", [["daisangen", 100], ["tsuiso", 100]], [("daisangen", 13), ("tsuuiisou", 13)]),
    ],
)  # fmt: skip
def test_yaku_names_map_to_ours(
    winner: int, oya: int, bakaze: str, mjai_yaku: list[list[Any]], ours: list[tuple[str, int]]
) -> None:
    round_ = one_game(
        start_game(),
        start_kyoku(bakaze=bakaze, oya=oya),
        tsumo(0, "1s"),
        dahai(0, "C"),
        {"type": "hora", "actor": winner, "target": 0, "yakus": mjai_yaku},
    ).rounds[0]
    win = round_.events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.yaku == tuple(ours)


def test_sangenpai_names_the_dragons_the_winner_holds() -> None:
    # Seat 0 calls pon on haku; seat 3 holds C C and rons the third: the dragon is chun.
    round_ = one_round(
        tsumo(0, "1s"),
        dahai(0, "1s"),
        tsumo(1, "2s"),
        dahai(1, "P"),
        {"type": "pon", "actor": 0, "target": 1, "pai": "P", "consumed": ["P", "P"]},
        dahai(0, "1m"),
        tsumo(1, "3s"),
        dahai(1, "C"),
        {"type": "hora", "actor": 3, "target": 1, "pai": "C",
         "yakus": [["sangenpai", 1], ["toitoiho", 2]], "fan": 3, "fu": 40},
    )  # fmt: skip
    win = round_.events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.yaku == (("chun", 1), ("toitoi", 2))


def test_sangenpai_counting_two_dragons() -> None:
    round_ = one_game(
        start_game(),
        start_kyoku(tehais=[
            [*HANDS[0][:11], "9m", "9p"],  # seat 0 gives up its haku
            HANDS[1],
            HANDS[2],
            # Two dragon triplets and a pair of hatsu (the pair is no set).
            ["P", "P", "P", "C", "C", "C", "1m", "2m", "3m", "F", "F", "5s", "6s"],
        ]),
        tsumo(0, "1s"),
        dahai(0, "1s"),
        tsumo(1, "2s"),
        dahai(1, "7s"),
        tsumo(2, "3s"),
        dahai(2, "3s"),
        tsumo(3, "4s"),
        {"type": "hora", "actor": 3, "target": 3, "pai": "4s",
         "yakus": [["menzenchin_tsumoho", 1], ["sangenpai", 2]], "fan": 3},
    ).rounds[0]  # fmt: skip
    win = round_.events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.yaku == (("menzen_tsumo", 1), ("haku", 1), ("chun", 1))


def test_sangenpai_without_the_dragons_is_an_error() -> None:
    with pytest.raises(MalformedLogError, match=r"sangenpai 1 but the winner has 0 dragon sets"):
        one_round(
            tsumo(0, "1s"),
            dahai(0, "C"),
            {"type": "hora", "actor": 2, "target": 0, "yakus": [["sangenpai", 1]]},
        )


def test_unknown_yaku_is_an_error() -> None:
    with pytest.raises(MalformedLogError, match=r"unknown yaku 'tsubame'"):
        one_round(tsumo(0, "1s"), dahai(0, "C"),
                  {"type": "hora", "actor": 2, "target": 0, "yakus": [["tsubame", 1]]})  # fmt: skip


def test_yakuman_fan_and_unrounded_fu() -> None:
    def recorded(fan: int, fu: int) -> RecordedWin | None:
        hora = {"type": "hora", "actor": 1, "target": 0, "fan": fan, "fu": fu}
        win = one_round(tsumo(0, "1s"), dahai(0, "C"), hora).events[-1]
        assert isinstance(win, Win)
        return win.recorded

    assert recorded(200, 40) == RecordedWin(han=26, fu=40)  # gimite: 100 fan per yakuman
    assert recorded(13, 40) == RecordedWin(han=13, fu=40)  # a counted yakuman stays 13
    assert recorded(1, 38) == RecordedWin(han=1, fu=40)  # akochan's fu before rounding
    assert recorded(2, 25) == RecordedWin(han=2, fu=25)  # seven pairs: 25 is not rounded


def test_pao_and_tsumo_hand_with_the_winning_tile() -> None:
    round_ = one_round(
        tsumo(0, "1s"),
        {"type": "hora", "actor": 0, "target": 0, "pao": 2,
         "hora_tehais": [*HANDS[0], "1s"], "ura_markers": []},
    )  # fmt: skip
    win = round_.events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.liable == 2
    assert win.recorded.hand == (*ts("123m406p789s1155z"), t("1s"))  # 14 already: kept as is
    assert round_.ura_indicators == ()


# -- reading: draws --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("kyushukyuhai", AbortKind.NINE_TERMINALS),
        ("sufonrenta", AbortKind.FOUR_WINDS),
        ("suchareach", AbortKind.FOUR_RIICHI),
        ("sanchaho", AbortKind.TRIPLE_RON),
        ("sukaikan", AbortKind.FOUR_KANS),
    ],
)
def test_abortive_draw_reasons(reason: str, kind: AbortKind) -> None:
    round_ = one_round(
        tsumo(0, "1s"),
        dahai(0, "1s"),
        tsumo(1, "2s"),
        {"type": "ryukyoku", "reason": reason, "deltas": [0, 0, 0, 0]},
    )
    end = round_.events[-1]
    assert isinstance(end, AbortiveDraw)
    assert end.kind is kind
    assert end.recorded_deltas == (0, 0, 0, 0)
    # The seat that just drew declared nine terminals; the others name no seat here.
    assert end.seat == {AbortKind.NINE_TERMINALS: 1}.get(kind)


def test_exhaustive_draw_with_tenpai_and_hidden_hands() -> None:
    round_ = one_round(
        tsumo(0, "1s"),
        dahai(0, "1s"),
        # mjai-manue shows noten hands as '?': they are not read.
        {"type": "ryukyoku", "reason": "fanpai", "tenpais": [True, False, False, True],
         "tehais": [HANDS[0], ["?"] * 13, ["?"] * 13, HANDS[3]],
         "deltas": [1500, -1500, -1500, 1500]},
    )  # fmt: skip
    assert round_.events[-1] == ExhaustiveDraw(
        recorded_tenpai=(0, 3), recorded_deltas=(1500, -1500, -1500, 1500)
    )


def _draws(count: int, first_seat: int = 0) -> list[dict[str, Any]]:
    """``count`` draws and discards of 2s in turn order."""
    events = []
    for index in range(count):
        seat = (first_seat + index) % 4
        events += [tsumo(seat, "2s"), dahai(seat, "2s")]
    return events


def test_ryukyoku_without_reason_after_the_last_draw_is_exhaustive() -> None:
    round_ = one_round(*_draws(70), {"type": "ryukyoku", "deltas": [0, 0, 0, 0]})
    assert round_.events[-1] == ExhaustiveDraw(recorded_deltas=(0, 0, 0, 0))


def test_ryukyoku_without_reason_on_a_first_draw_with_nine_terminals() -> None:
    round_ = one_round(tsumo(0, "2s"), dahai(0, "2s"), tsumo(1, "2s"), {"type": "ryukyoku"})
    assert round_.events[-1] == AbortiveDraw(AbortKind.NINE_TERMINALS, seat=1)


def test_ryukyoku_without_reason_after_four_winds() -> None:
    round_ = one_game(
        start_game(),
        start_kyoku(tehais=[[*hand[:12], "W"] for hand in HANDS]),
        *[event for seat in range(4) for event in (tsumo(seat, "1s"), dahai(seat, "W"))],
        {"type": "ryukyoku"},
    ).rounds[0]
    assert round_.events[-1] == AbortiveDraw(AbortKind.FOUR_WINDS)


def test_ryukyoku_without_reason_in_mid_round_is_an_error() -> None:
    with pytest.raises(MalformedLogError, match=r"line 7: ryukyoku: no reason given"):
        one_round(tsumo(0, "2s"), dahai(0, "2s"), tsumo(1, "3s"), dahai(1, "3s"),
                  {"type": "ryukyoku"})  # fmt: skip


def test_nagashi_mangan_finds_the_seats() -> None:
    events = []
    for index in range(70):
        seat = index % 4
        tile = "9p" if seat == 2 else "2s"
        events += [tsumo(seat, tile), dahai(seat, tile)]
    round_ = one_round(*events, {"type": "ryukyoku", "reason": "nagashimangan"})
    assert round_.events[-1] == NagashiMangan(seats=(2,))


# -- reading: games, headers, batches --------------------------------------------------------------


def test_header_from_start_game() -> None:
    game = one_game(
        start_game(id="abc", aka_flag=True, kyoku_first=4),
        start_kyoku(),
        {"type": "end_kyoku"},
        {"type": "end_game", "scores": [26000, 24000, 25000, 25000]},
    )
    assert game.header.players == tuple(Player(name) for name in "ABCD")
    assert game.header.source == Source(format="mjai", id="abc")
    assert game.header.ruleset == "tenhou-4p-east"  # akochan: kyoku_first 4 = East only
    assert game.header.rule_overrides == {}
    assert game.recorded_final == FinalResult(scores=(26000, 24000, 25000, 25000))


@pytest.mark.parametrize(
    ("fields", "hands", "ruleset"),
    [
        ({}, HANDS, "tenhou-4p"),  # a red five is dealt
        ({"aka_flag": False}, HANDS, "tenhou-4p-nored"),
        ({}, [[tile.replace("5pr", "5p") for tile in hand] for hand in HANDS], "tenhou-4p-nored"),
        ({"kyoku_first": 0}, HANDS, "tenhou-4p"),
    ],
)
def test_ruleset_from_aka_flag_or_red_tiles(
    fields: dict[str, Any], hands: list[list[str]], ruleset: str
) -> None:
    game = one_game(start_game(**fields), start_kyoku(tehais=hands))
    assert game.header.ruleset == ruleset


def test_final_scores_worked_out_when_end_game_has_none() -> None:
    game = one_game(
        start_game(),
        start_kyoku(kyotaku=1),
        tsumo(0, "1s"),
        dahai(0, "C"),
        {"type": "hora", "actor": 1, "target": 0, "deltas": [-8000, 9000, 0, 0]},
        {"type": "end_kyoku"},
        start_kyoku(kyoku=2, oya=1, scores=[17000, 34000, 25000, 25000]),
        tsumo(1, "1s"),
        {"type": "reach", "actor": 1},
        dahai(1, "1s"),
        {"type": "reach_accepted", "actor": 1},
        *_draws(69, first_seat=2),
        {"type": "ryukyoku", "deltas": [-1000, 3000, -1000, -1000]},
        {"type": "end_kyoku"},
        {"type": "end_game"},
    )
    # Seat 1's riichi stick is left on the table: it goes to the top player (seat 1).
    assert game.recorded_final == FinalResult(scores=(16000, 37000, 24000, 24000))


def test_start_kyoku_without_scores_carries_them_over() -> None:
    # mjai-manue leaves the scores out of start_kyoku.
    kyoku = start_kyoku()
    del kyoku["scores"]
    second = {**kyoku, "kyoku": 2, "oya": 1}
    game = one_game(
        start_game(),
        kyoku,
        tsumo(0, "1s"),
        dahai(0, "C"),
        {"type": "hora", "actor": 1, "target": 0, "deltas": [-8000, 8000, 0, 0]},
        {"type": "end_kyoku"},
        second,
    )
    assert [round_.scores for round_ in game.rounds] == [(25000,) * 4, (17000, 33000, 25000, 25000)]


def test_several_games_batches_and_an_unfinished_game() -> None:
    first = [start_game(), start_kyoku(), tsumo(0, "1s"), dahai(0, "1s")]
    data = (
        lines(*first, {"type": "end_kyoku"}, {"type": "end_game"})
        + b"\n\n"
        + lines([start_game(id=7), start_kyoku()], [tsumo(0, "2s"), dahai(0, "2s")])
    )
    games = mjai.read(data)
    assert len(games) == 2
    assert games[0].recorded_final is None  # ended on no win or draw: no final scores
    assert games[1].header.source.id == "7"
    assert games[1].recorded_final is None  # no end_game
    assert games[1].rounds[0].events == (Draw(0, t("2s")), Discard(0, t("2s"), tsumogiri=True))


def test_a_game_may_start_with_its_first_round() -> None:
    games = mjai.read(lines(start_kyoku(), tsumo(0, "1s"), start_game(), start_kyoku()))
    assert len(games) == 2
    assert games[0].header.players == (Player(""),) * 4


def test_sanma_with_three_hands_and_kita() -> None:
    game = one_game(
        start_game(names=["A", "B", "C"]),
        start_kyoku(scores=[35000] * 3, tehais=HANDS[:3]),
        tsumo(0, "N"),
        {"type": "kita", "actor": 0},
        tsumo(0, "1s"),
        {"type": "nukidora", "actor": 0, "pai": "N"},
        tsumo(0, "1p"),
        dahai(0, "1p"),
        {"type": "hora", "actor": 1, "target": 0, "deltas": [-8000, 8000, 0, 0]},
    )
    assert game.players == 3
    assert game.header.ruleset == "tenhou-3p"
    round_ = game.rounds[0]
    assert round_.events[1] == NorthExtraction(0, t("4z"))
    assert round_.events[3] == NorthExtraction(0, t("4z"))
    win = round_.events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.deltas == (-8000, 8000, 0)  # the empty 4th seat is dropped


def test_a_ron_on_an_extracted_north() -> None:
    # A player waiting on North may ron the North another sets aside (not a chankan).
    game = one_game(
        start_game(names=["A", "B", "C"]),
        start_kyoku(scores=[35000] * 3, tehais=HANDS[:3]),
        tsumo(0, "N"),
        {"type": "nukidora", "actor": 0, "pai": "N"},
        {"type": "hora", "actor": 1, "target": 0, "pai": "N", "deltas": [-2000, 2000, 0]},
    )
    win = game.rounds[0].events[-1]
    assert win == Win(1, 0, t("4z"), win.recorded)


@pytest.mark.parametrize("fourth", [[], ["?"] * 13])
def test_sanma_with_an_empty_fourth_seat(fourth: list[str]) -> None:
    game = one_game(start_game(), start_kyoku(scores=[35000, 35000, 35000, 0],
                                               tehais=[*HANDS[:3], fourth]))  # fmt: skip
    assert game.players == 3
    assert game.header.players == (Player("A"), Player("B"), Player("C"))
    assert game.rounds[0].scores == (35000,) * 3
    assert len(game.rounds[0].hands) == 3


# -- reading: errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        # The last line stops inside its event: a file cut short.
        ('{"type": "tsumo", "actor": 0, "pai": "1s"',
         r"line 3: the file ends in the middle of the last event.*not valid JSON"),
        ('{"type": "tsumo", "actor": 0, "pai": "1s",,}', r"line 3: not valid JSON"),
        ('{"type": "naki", "actor": 0}', r"line 3: naki: unknown event type"),
        ('{"type": "tsumo", "pai": "1s"}', r"line 3: tsumo: missing 'actor'"),
        ('{"type": "tsumo", "actor": "0", "pai": "1s"}', r"line 3: tsumo: actor must be an int"),
        ('{"type": "tsumo", "actor": 4, "pai": "1s"}', r"line 3: tsumo: actor out of range: 4"),
        ('{"type": "tsumo", "actor": 0, "pai": "5x"}', r"line 3: tsumo: pai: '5x' is not an mjai"),
        ('{"type": "tsumo", "actor": 0, "pai": 5}', r"line 3: tsumo: pai: 5 is not an mjai"),
        ('{"type": "dahai", "actor": 0, "pai": "1s", "tsumogiri": true}',
         r"line 3: dahai: tsumogiri of 1s but the tile just drawn is not one"),
        ('{"type": "chi", "actor": 1, "target": 0, "pai": "1s", "consumed": ["2s"]}',
         r"line 3: chi: consumed must hold 2 tiles, got 1"),
        ('{"type": "pon", "actor": 1, "target": 1, "pai": "1s", "consumed": ["1s", "1s"]}',
         r"line 3: pon: a call must take another player's discard"),
        ('{"actor": 0}', r"line 3: event without a string 'type'"),
        ('[1, 2]', r"line 3, event 1: an event must be a JSON object, got a number"),
        ('"start_game"', r"line 3: an event must be a JSON object, got a string"),
    ],
)  # fmt: skip
def test_malformed_lines_name_the_line(bad_line: str, message: str) -> None:
    data = lines(start_game(), start_kyoku()) + bad_line.encode() + b"\n"
    with pytest.raises(MalformedLogError, match=message) as caught:
        mjai.read(data)
    assert caught.value.where is not None and caught.value.where.startswith("line 3")


def test_hidden_tiles_are_unsupported() -> None:
    hidden = [HANDS[0], ["?"] * 13, ["?"] * 13, ["?"] * 13]
    with pytest.raises(UnsupportedLogError, match=r"line 2: .*hidden tiles \('\?'\) cannot be"):
        mjai.read(lines(start_game(), start_kyoku(tehais=hidden)))
    with pytest.raises(UnsupportedLogError, match=r"line 3: tsumo: hidden tiles"):
        mjai.read(lines(start_game(), start_kyoku(), tsumo(1, "?")))


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([tsumo(0, "1s")], r"line 1: tsumo: event before start_game or start_kyoku"),
        ([start_game(), tsumo(0, "1s")], r"line 2: tsumo: event outside a round"),
        ([start_game(), start_kyoku(bakaze="X")], r"line 2: start_kyoku: bakaze must be one of"),
        ([start_game(), start_kyoku(kyoku=5)], r"line 2: start_kyoku: kyoku out of range: 5"),
        ([start_game(), start_kyoku(tehais=[h[:12] for h in HANDS])], r"must hold 13 tiles"),
        ([start_game(), start_kyoku(tehais=HANDS[:2])], r"tehais must hold 3 or 4 hands"),
        ([start_game(), start_kyoku(scores=[1, 2])], r"scores must have 4 entries, got 2"),
        ([start_game(), start_kyoku(), start_kyoku(scores=[1, 2, 3], tehais=HANDS[:3])],
         r"line 3: start_kyoku: 3 players in a 4-player game"),
        ([start_game(), start_kyoku(), {"type": "ryukyoku", "reason": "fanpai"}, tsumo(0, "1s")],
         r"line 4: tsumo: round E1 has already ended"),
        ([start_game(), start_kyoku(), {"type": "ryukyoku", "reason": "bored"}],
         r"line 3: ryukyoku: unknown reason 'bored'"),
        ([start_game(names="ABCD")], r"line 1: start_game: names must be an array"),
        ([], r"no mjai events"),
    ],
)  # fmt: skip
def test_events_out_of_place_or_ill_formed(events: list[Any], message: str) -> None:
    with pytest.raises(MalformedLogError, match=message):
        mjai.read(lines(*events) if events else b"\n  \n")


@pytest.mark.parametrize(
    "line",
    [b"[" * 100000 + b"]" * 100000, b'{"type": "tsumo", "actor": ' + b"9" * 5000 + b"}"],
    ids=["deep-nesting", "huge-number"],
)
def test_json_python_cannot_hold(line: bytes) -> None:
    with pytest.raises(MalformedLogError, match=r"line 3: unreadable JSON"):
        mjai.read(lines(start_game(), start_kyoku()) + line)


def test_line_separator_inside_a_name_is_not_a_line_break() -> None:
    first = json.dumps(start_game(names=["a\u2028b", "B", "C", "D"]), ensure_ascii=False)
    assert "\u2028" in first  # written as the character itself, not escaped
    game = mjai.read(first.encode() + b"\n" + lines(start_kyoku()))[0]
    assert game.header.players[0].name == "a\u2028b"


def test_bytes_that_are_not_utf8() -> None:
    with pytest.raises(MalformedLogError, match=r"not UTF-8"):
        mjai.read(b'{"type": "start_game", "names": ["\xff\xfe"]}\n')


def _sample_log() -> bytes:
    return lines(
        start_game(aka_flag=True),
        start_kyoku(),
        tsumo(0, "1s"),
        {"type": "reach", "actor": 0},
        dahai(0, "1s", tsumogiri=True),
        {"type": "reach_accepted", "actor": 0},
        tsumo(1, "P"),
        dahai(1, "P", tsumogiri=True),
        {"type": "pon", "actor": 0, "target": 1, "pai": "P", "consumed": ["P", "P"]},
        dahai(0, "E"),
        tsumo(1, "6s"),
        dahai(1, "6s"),
        {
            "type": "hora",
            "actor": 0,
            "target": 1,
            "pai": "6s",
            "yakus": [["sangenpai", 1]],
            "fan": 1,
            "fu": 30,
            "deltas": [2000, -1000, 0, 0],
            "ura_markers": ["2m"],
        },
        {"type": "end_kyoku"},
        {"type": "end_game"},
    )


def test_truncated_or_corrupted_input_raises_only_engine_errors() -> None:
    """Cut the log anywhere, or break one byte: the reader answers with games or an
    EngineError, never a KeyError, IndexError, TypeError or UnicodeError."""
    data = _sample_log()
    mjai.read(data)  # the intact log reads
    rng = random.Random(20240611)
    variants = [data[:cut] for cut in range(0, len(data), 3)]
    for _ in range(400):
        position = rng.randrange(len(data))
        replacement = rng.choice(b'{}[]",:0123456789aeiou?\xff \n')
        variants.append(data[:position] + bytes([replacement]) + data[position + 1 :])
    for variant in variants:
        with contextlib.suppress(EngineError):
            mjai.read(variant)


def test_wrong_types_in_every_field_raise_engine_errors() -> None:
    events = [json.loads(line) for line in _sample_log().splitlines()]
    for index, event in enumerate(events):
        for key in event:
            if key == "type":
                continue
            for wrong in (None, True, -1, 99, "x", [], ["?"], {"a": 1}, [[1, 2]], 2.5):
                broken = [*events[:index], {**event, key: wrong}, *events[index + 1 :]]
                with contextlib.suppress(EngineError):
                    mjai.read(lines(*broken))


# -- writing ---------------------------------------------------------------------------------------


def _written(games: list[Game]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in mjai.write(games).decode().splitlines()]


def test_written_events_follow_the_mortal_dialect() -> None:
    game = mjai.read(_sample_log())[0]
    events = _written([game])
    assert [event["type"] for event in events] == [
        "start_game", "start_kyoku", "tsumo", "reach", "dahai", "reach_accepted", "tsumo",
        "dahai", "pon", "dahai", "tsumo", "dahai", "hora", "end_kyoku", "end_game",
    ]  # fmt: skip
    assert events[0] == {
        "type": "start_game", "names": ["A", "B", "C", "D"], "kyoku_first": 0, "aka_flag": True,
        "ruleset": "tenhou-4p",
    }  # fmt: skip
    assert events[1]["tehais"][0] == HANDS[0]
    assert events[4] == {"type": "dahai", "actor": 0, "pai": "1s", "tsumogiri": True}
    assert events[12] == {
        "type": "hora", "actor": 0, "target": 1, "pai": "6s", "deltas": [2000, -1000, 0, 0],
        "ura_markers": ["2m"], "yakus": [["sangenpai", 1]], "fu": 30, "fan": 1,
    }  # fmt: skip
    # Seat 0 paid its stick (-1000) and won 2000 with it back.
    assert events[-1] == {"type": "end_game", "scores": [26000, 24000, 25000, 25000]}


def _game(events: tuple[Any, ...], players: int = 4, ruleset: str = "tenhou-4p") -> Game:
    hands = tuple(ts(text) for text in ("123456789m1234p", "123456789p1234s", "123456789s1234m",
                                        "1112223334445z"))[:players]  # fmt: skip
    round_ = Round(
        wind=0, number=1, dealer=0, honba=0, sticks=0, scores=(25000,) * players,
        hands=tuple(hand[:13] for hand in hands), dora_indicators=(t("1m"),), events=events,
    )  # fmt: skip
    header = GameHeader(
        ruleset=ruleset,
        rule_overrides={},
        players=tuple(Player(f"p{seat}") for seat in range(players)),
        source=Source(format="canonical"),
    )
    return Game(header=header, rounds=(round_,))


def test_kakan_names_the_pon_it_extends() -> None:
    game = _game((
        Draw(0, t("5z")), Discard(0, t("5z")), Pon(1, 0, t("5z"), ts("55z")),
        Discard(1, t("1p")), Draw(2, t("1s")), Discard(2, t("1s")), Draw(3, t("2s")),
        Discard(3, t("2s")), Draw(0, t("3s")), Discard(0, t("3s")), Draw(1, t("5z")),
        AddedKan(1, t("5z")), Draw(1, t("9m")), DoraRevealed(t("2m")), Discard(1, t("9m")),
    ))  # fmt: skip
    kakan = next(event for event in _written([game]) if event["type"] == "kakan")
    assert kakan == {"type": "kakan", "actor": 1, "pai": "P", "consumed": ["P", "P", "P"]}
    assert mjai.read(mjai.write([game]))[0].rounds == game.rounds


def test_kakan_without_a_pon_cannot_be_written() -> None:
    with pytest.raises(MalformedLogError, match=r"added kan of 5z without a pon"):
        mjai.write([_game((Draw(0, t("5z")), AddedKan(0, t("5z"))))])


def test_sanma_is_written_with_three_seats_and_nukidora() -> None:
    game = _game((Draw(0, t("4z")), NorthExtraction(0, t("4z")), Draw(0, t("1s"))), players=3,
                 ruleset="tenhou-3p")  # fmt: skip
    events = _written([game])
    assert len(events[0]["names"]) == 3
    assert len(events[1]["scores"]) == 3 and len(events[1]["tehais"]) == 3
    # What the Mortal-family sanma engines (libriichi3p) read.
    assert events[3] == {"type": "nukidora", "actor": 0, "pai": "N"}
    back = mjai.read(mjai.write([game]))[0]
    assert back.header.ruleset == "tenhou-3p"
    assert back.rounds == game.rounds
    # kita (RiichiEnv's and jansou's spelling, and what this writer wrote before) reads the same.
    old = mjai.write([game]).replace(b'"type":"nukidora"', b'"type":"kita"')
    assert b'"kita"' in old
    assert mjai.read(old)[0].rounds == game.rounds


def test_east_only_and_no_red_rule_sets_are_written_as_flags() -> None:
    events = _written([_game((), ruleset="tenhou-4p-east-nored")])
    assert (events[0]["kyoku_first"], events[0]["aka_flag"]) == (4, False)
    assert mjai.read(mjai.write([_game((), ruleset="tenhou-4p-east-nored")]))[0].header.ruleset == (
        "tenhou-4p-east-nored"
    )


def test_the_rule_set_is_written_and_read_back_beyond_what_the_flags_say() -> None:
    # Mahjong Soul's rules differ from Tenhou's in ways aka_flag and kyoku_first cannot say.
    game = _game((), ruleset="majsoul-4p")
    overridden = dataclasses.replace(
        game, header=dataclasses.replace(game.header, rule_overrides={"kuitan": False})
    )
    for original in (game, overridden):
        start = _written([original])[0]
        assert start["ruleset"] == "majsoul-4p"
        assert start.get("rule_overrides", {}) == original.header.rule_overrides
        back = mjai.read(mjai.write([original]))[0].header
        assert (back.ruleset, back.rule_overrides) == ("majsoul-4p", original.header.rule_overrides)


@pytest.mark.parametrize(
    ("member", "value", "problem"),
    [
        ("ruleset", 4, "ruleset must be a rule set's name, got a number"),
        ("ruleset", "", "ruleset is empty"),
        ("rule_overrides", ["kuitan"], "rule_overrides must be an object, got an array"),
    ],
)
def test_a_bad_rule_set_member_is_refused(member: str, value: object, problem: str) -> None:
    start = {"type": "start_game", "names": ["A", "B", "C", "D"], member: value}
    with pytest.raises(MalformedLogError, match=re.escape(problem)) as caught:
        mjai.read(json.dumps(start).encode())
    assert caught.value.where == "line 1"


def test_draws_are_written_with_gimite_reasons_and_read_back() -> None:
    for end in (
        ExhaustiveDraw(recorded_tenpai=(1, 2), recorded_deltas=(-1500, 1500, 1500, -1500)),
        AbortiveDraw(AbortKind.NINE_TERMINALS, seat=0),
        AbortiveDraw(AbortKind.TRIPLE_RON, recorded_deltas=(0, 0, 0, 0)),
        NagashiMangan(seats=(0,), recorded_deltas=(12000, -4000, -4000, -4000)),
    ):
        # Seat 0 discards a terminal, the others simples (the reader finds nagashi seats so).
        play = tuple(
            event
            for seat, tile in enumerate(ts("9m2s3p4m"))
            for event in (Draw(seat, tile), Discard(seat, tile, tsumogiri=True))
        )
        game = _game((*play, Draw(0, t("1z")), end))
        written = _written([game])[-2]
        assert written["type"] == "ryukyoku"
        assert mjai.read(mjai.write([game]))[0].rounds[0].events[-1] == end


def test_yakuman_and_dragons_written_the_gimite_way() -> None:
    win = Win(0, 0, t("1z"), RecordedWin(han=26, yaku=(("daisangen", 13), ("tsuuiisou", 13))))
    hora = _written([_game((Draw(0, t("1z")), win))])[3]
    assert hora["fan"] == 200
    assert hora["yakus"] == [["daisangen", 100], ["tsuiso", 100]]
    dragons = Win(0, 0, t("1z"), RecordedWin(han=3, yaku=(("haku", 1), ("riichi", 1), ("chun", 1))))
    hora = _written([_game((Draw(0, t("1z")), dragons))])[3]
    assert hora["yakus"] == [["sangenpai", 2], ["reach", 1]]


def test_hora_tehais_written_without_the_winning_tile() -> None:
    hand = ts("123m406p789s11555z")
    tsumo_win = Win(0, 0, t("5z"), RecordedWin(hand=hand))
    hora = _written([_game((Draw(0, t("5z")), tsumo_win))])[3]
    assert hora["hora_tehais"] == ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E",
                                   "P", "P"]  # fmt: skip
    back = mjai.read(mjai.write([_game((Draw(0, t("5z")), tsumo_win))]))[0]
    assert back.rounds[0].events[-1] == tsumo_win


def test_games_mjai_cannot_express_are_refused() -> None:
    five = _game((), players=4)
    five = Game(
        header=GameHeader(ruleset="x", rule_overrides={}, source=Source(format="sim"),
                          players=tuple(Player(str(seat)) for seat in range(5))),
        rounds=five.rounds,
    )  # fmt: skip
    with pytest.raises(UnsupportedLogError, match=r"5-player"):
        mjai.write([five])
    with pytest.raises(UnsupportedLogError, match=r"score change"):
        mjai.write([_game((ScoreChange(deltas=(0, 0, 0, 0), reason="penalty"),))])


# -- sniffing --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"type":"start_game","names":["a","b","c","d"]}\n', True),
        (b'\xef\xbb\xbf\n{"aka_flag": true, "type": "start_game"}\n', True),
        (b'[{"type":"start_game","id":1}]\n', True),
        (b'{"type":"tsumo","actor":0,"pai":"1m"}\n', True),
        (b'{"format": "mjlogs-canonical", "version": 1}', False),
        (b'{"title": ["", ""], "name": ["a"], "rule": {"disp": "x"}, "log": []}', False),
        (b'<mjloggm ver="2.3"><SHUFFLE/>', False),
        (b'{"type": "start_game"', False),
        (b'{"type": "whatever"}\n', False),
        (b"\x00\x01garbage", False),
    ],
)
def test_sniff(data: bytes, expected: bool) -> None:
    assert mjai.sniff(data) is expected


def test_format_registration_fields() -> None:
    assert mjai.FORMAT.name == "mjai"
    assert mjai.FORMAT.write is mjai.write
    assert ".jsonl" in mjai.FORMAT.extensions


# -- the corpus ------------------------------------------------------------------------------------


def _corpus_rows() -> list[Any]:
    if not MANIFEST.exists():
        return [pytest.param(None, id="no-corpus")]
    with MANIFEST.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [
        pytest.param(row, id=Path(row["path"]).name)
        for row in rows
        if row["format"] == "mjai_jsonl"
    ]


def _corpus_file(row: dict[str, str] | None) -> tuple[dict[str, str], bytes]:
    if row is None:
        pytest.skip(NO_CORPUS)
    path = CORPUS / row["path"]
    if not path.exists():
        pytest.skip(f"{path} not found: corpus tests need ../shared/corpus")
    return row, path.read_bytes()


def _source_events(data: bytes) -> list[dict[str, Any]]:
    """Every event of the file, batches flattened."""
    out: list[dict[str, Any]] = []
    for line in data.decode("utf-8-sig").splitlines():
        if line.strip():
            value = json.loads(line)
            out.extend(value if isinstance(value, list) else [value])
    return out


def _account(round_: Round) -> None:
    """Follow every tile of the round by hand: each discard and call uses tiles the seat holds,
    hands have 14 tiles (melds counted as 3) before each discard, no tile is seen more than four
    times, and each win takes the tile the last draw, discard or added kan put into play."""
    hands = [Counter(str(tile) for tile in hand) for hand in round_.hands]
    melds = [0] * len(hands)
    seen = Counter(str(tile) for hand in round_.hands for tile in hand)
    seen.update(str(tile) for tile in (*round_.dora_indicators, *round_.ura_indicators))
    last: tuple[str, int, str] | None = None

    def take(seat: int, tiles: tuple[Any, ...]) -> None:
        for tile in tiles:
            assert hands[seat][str(tile)] > 0, f"{round_.name}: seat {seat} has no {tile}"
            hands[seat][str(tile)] -= 1

    for event in round_.events:
        if isinstance(event, Draw):
            hands[event.seat][str(event.tile)] += 1
            seen[str(event.tile)] += 1
            last = ("draw", event.seat, str(event.tile))
        elif isinstance(event, Discard):
            assert sum(hands[event.seat].values()) + 3 * melds[event.seat] == 14
            take(event.seat, (event.tile,))
            last = ("discard", event.seat, str(event.tile))
        elif isinstance(event, Chi | Pon | OpenKan):
            assert last == ("discard", event.from_seat, str(event.tile))
            take(event.seat, event.consumed)
            melds[event.seat] += 1
        elif isinstance(event, ClosedKan):
            take(event.seat, event.tiles)
            melds[event.seat] += 1
        elif isinstance(event, AddedKan):
            take(event.seat, (event.tile,))
            last = ("kan", event.seat, str(event.tile))
        elif isinstance(event, NorthExtraction):
            take(event.seat, (event.tile,))
        elif isinstance(event, DoraRevealed):
            seen[str(event.indicator)] += 1
        elif isinstance(event, Win):
            if event.tsumo:
                assert last == ("draw", event.seat, str(event.tile))
            else:
                assert last is not None and last[1:] == (event.from_seat, str(event.tile))
                assert last[0] in ("discard", "kan")
    by_kind = Counter()
    for text, count in seen.items():
        by_kind[text.replace("0", "5")] += count
        if text.startswith("0"):
            assert count <= 1, f"{round_.name}: red {text} seen {count} times"
    assert max(by_kind.values()) <= 4, f"{round_.name}: {by_kind.most_common(1)}"
    assert sum(isinstance(event, Draw) for event in round_.events) <= 70


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_rows())
def test_corpus_file_reads_as_its_manifest_says(row: dict[str, str] | None) -> None:
    row, data = _corpus_file(row)
    assert mjai.sniff(data)
    games = mjai.read(data)
    assert sum(len(game.rounds) for game in games) == int(row["n_rounds"])
    complete = row["complete_game"] == "yes"
    assert all((game.recorded_final is not None) is complete for game in games)
    assert all(game.players == int(row["players"]) for game in games)


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_rows())
def test_corpus_tiles_add_up(row: dict[str, str] | None) -> None:
    _, data = _corpus_file(row)
    for game in mjai.read(data):
        for round_ in game.rounds:
            _account(round_)


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_rows())
def test_corpus_events_match_the_source_one_for_one(row: dict[str, str] | None) -> None:
    """Each source action is one canonical event of the matching class, in the same order."""
    _, data = _corpus_file(row)
    classes = {
        "tsumo": Draw, "dahai": Discard, "chi": Chi, "pon": Pon, "daiminkan": OpenKan,
        "kan": OpenKan, "ankan": ClosedKan, "kakan": AddedKan, "reach": RiichiDeclared,
        "reach_accepted": RiichiAccepted, "dora": DoraRevealed, "hora": Win, "kita":
        NorthExtraction,
    }  # fmt: skip
    expected = [
        classes.get(event["type"], "end" if event["type"] == "ryukyoku" else None)
        for event in _source_events(data)
    ]
    ends = (ExhaustiveDraw, AbortiveDraw, NagashiMangan)
    got = [
        "end" if isinstance(event, ends) else type(event)
        for game in mjai.read(data)
        for round_ in game.rounds
        for event in round_.events
    ]
    assert got == [item for item in expected if item is not None]


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_rows())
def test_corpus_recorded_deltas_carry_to_the_next_round(row: dict[str, str] | None) -> None:
    """A round's start scores, less a stick per accepted riichi, plus every recorded delta give
    the next round's start scores: the deltas, given or worked out from scores, are right."""
    _, data = _corpus_file(row)
    checked = 0
    deltas_seen = False
    for game in mjai.read(data):
        for round_, following in zip(game.rounds, game.rounds[1:], strict=False):
            scores = list(round_.scores)
            known = True
            for event in round_.events:
                if isinstance(event, RiichiAccepted):
                    scores[event.seat] -= 1000
                    continue
                if isinstance(event, Win):
                    deltas = event.recorded.deltas if event.recorded else None
                elif isinstance(event, ExhaustiveDraw | AbortiveDraw | NagashiMangan):
                    deltas = event.recorded_deltas
                else:
                    continue
                if deltas is None:
                    known = False
                else:
                    deltas_seen = True
                    scores = [score + delta for score, delta in zip(scores, deltas, strict=True)]
            if known:
                assert tuple(scores) == following.scores, round_.name
                checked += 1
    assert checked > 0 or not deltas_seen


@pytest.mark.corpus
def test_sniff_claims_no_other_corpus_file() -> None:
    if not MANIFEST.exists():
        pytest.skip(NO_CORPUS)
    with MANIFEST.open(encoding="utf-8") as handle:
        others = [row["path"] for row in csv.DictReader(handle, delimiter="\t")
                  if row["format"] != "mjai_jsonl"]  # fmt: skip
    assert others
    for path in others:
        assert not mjai.sniff(decompress((CORPUS / path).read_bytes())), path


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_rows())
def test_corpus_round_trip(row: dict[str, str] | None) -> None:
    _, data = _corpus_file(row)
    games = mjai.read(data)
    written = mjai.write(games)
    assert mjai.sniff(written)
    assert mjai.read(written) == games
