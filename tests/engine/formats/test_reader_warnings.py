"""Converter quirks the readers accept with a warning, and what stays refused.

Each quirk is written here the way the converter that makes it writes it, from its source
(gimite/mjai's ``lib/mjai/tenhou_archive.rb``; jansou's ``jansou/io/tenhou_json.py``), in small
records made in the tests: the quirk reads as what it means and leaves a warning in
``Game.warnings``; the same thing where it is contradictory is still refused. The warnings go
through the canonical codec and into the replay report, and never change a verdict.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.errors import MalformedLogError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    Discard,
    ExhaustiveDraw,
    FinalResult,
    Game,
    NagashiMangan,
    RecordedWin,
    Win,
)
from engine.formats import canonical, mjai, read_games, tenhou6
from engine.replay import Verdict, replay
from engine.sim.selfplay import simulate
from engine.tiles import parse_tile

# -- small mjai records ----------------------------------------------------------------------------

#: Four starting hands (13 each). Seat 1 holds two pairs of dragons, seat 3 a pair of chun.
HANDS = [
    ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "S", "W"],
    ["P", "P", "F", "F", "2m", "3m", "4m", "6p", "7p", "8p", "9s", "9s", "N"],
    ["2m", "3m", "4m", "2p", "3p", "4p", "2s", "3s", "4s", "6m", "7m", "8m", "1p"],
    ["5m", "5m", "6p", "6p", "7p", "7p", "3s", "3s", "4s", "4s", "C", "C", "N"],
]
#: The uri gimite's converter writes in start_game.
URI = "http://tenhou.net/0/?log=2010081709gm-00a9-0000-fe3371ad&tw=0"


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


def dahai(actor: int, pai: str, tsumogiri: bool) -> dict[str, Any]:
    return {"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": tsumogiri}


def pon(actor: int, target: int, pai: str) -> dict[str, Any]:
    return {"type": "pon", "actor": actor, "target": target, "pai": pai, "consumed": [pai, pai]}


def read_one(*events: Any) -> Game:
    data = "\n".join(json.dumps(event, ensure_ascii=False) for event in events).encode()
    games = mjai.read(data + b"\n")
    assert len(games) == 1
    return games[0]


def one_round(*events: Any) -> Game:
    return read_one(start_game(), start_kyoku(), *events)


# -- 1. tsumogiri right after a call ---------------------------------------------------------------

#: Lines 3-12: each seat draws and discards once; seat 1 keeps the 1p it draws. Then seat 0
#: draws a haku and discards it, which seat 1 (holding two) may pon.
OPENING = (
    tsumo(0, "9p"),
    dahai(0, "S", tsumogiri=False),
    tsumo(1, "1p"),
    dahai(1, "N", tsumogiri=False),
    tsumo(2, "9p"),
    dahai(2, "9p", tsumogiri=True),
    tsumo(3, "1s"),
    dahai(3, "N", tsumogiri=False),
    tsumo(0, "P"),
    dahai(0, "P", tsumogiri=True),
)


def test_tsumogiri_right_after_a_pon_is_read_as_not_tsumogiri_with_a_warning() -> None:
    # Seat 1 pons the haku and discards the 1p it drew earlier: gimite's converter compares the
    # discard with the last tile it remembers drawing (1p), and writes tsumogiri true.
    game = one_round(*OPENING, pon(1, 0, "P"), dahai(1, "1p", tsumogiri=True))
    assert game.rounds[0].events[-1] == Discard(1, parse_tile("1p"), tsumogiri=False)
    assert len(game.warnings) == 1
    assert game.warnings[0].startswith("line 14: dahai: tsumogiri true on the discard right")
    assert "read as not tsumogiri" in game.warnings[0]
    # Nothing else about the game changes: it is the record with a correct flag.
    fixed = one_round(*OPENING, pon(1, 0, "P"), dahai(1, "1p", tsumogiri=False))
    assert fixed.rounds == game.rounds and fixed.warnings == ()


def test_tsumogiri_right_after_a_chi_is_read_the_same() -> None:
    # Seat 0 discards 2m; seat 1 (on its right) chis it with 3m 4m and discards the 1p it drew
    # earlier, written as tsumogiri as gimite's converter writes it.
    game = one_round(
        tsumo(0, "9p"),
        dahai(0, "S", tsumogiri=False),
        tsumo(1, "1p"),
        dahai(1, "N", tsumogiri=False),
        tsumo(2, "9p"),
        dahai(2, "9p", tsumogiri=True),
        tsumo(3, "1s"),
        dahai(3, "N", tsumogiri=False),
        tsumo(0, "7m"),
        dahai(0, "2m", tsumogiri=False),
        {"type": "chi", "actor": 1, "target": 0, "pai": "2m", "consumed": ["3m", "4m"]},
        dahai(1, "1p", tsumogiri=True),
    )
    last = game.rounds[0].events[-1]
    assert isinstance(last, Discard) and not last.tsumogiri
    assert len(game.warnings) == 1 and "line 14: dahai: tsumogiri true" in game.warnings[0]


def test_several_such_discards_make_one_warning_naming_each_line() -> None:
    game = one_round(
        *OPENING,
        pon(1, 0, "P"),
        dahai(1, "1p", tsumogiri=True),
        tsumo(2, "1s"),
        dahai(2, "1s", tsumogiri=True),
        tsumo(3, "2s"),
        dahai(3, "2s", tsumogiri=True),
        tsumo(0, "F"),
        dahai(0, "F", tsumogiri=True),
        pon(1, 0, "F"),
        dahai(1, "9s", tsumogiri=True),
    )
    assert len(game.warnings) == 1
    assert game.warnings[0].startswith("line 14, line 22: dahai: tsumogiri true")


def test_a_tsumogiri_flag_on_a_tile_not_just_drawn_is_still_refused() -> None:
    # No call before it: the seat drew 1p and discards N, which it did not just draw.
    with pytest.raises(MalformedLogError, match=r"line 6: dahai: tsumogiri of N but the tile"):
        one_round(tsumo(0, "9p"), dahai(0, "S", tsumogiri=False), tsumo(1, "1p"),
                  dahai(1, "N", tsumogiri=True))  # fmt: skip
    # After a call the seat then draws again (its next turn): the flag means what it says.
    with pytest.raises(MalformedLogError, match=r"dahai: tsumogiri of 9s but the tile"):
        one_round(
            *OPENING,
            pon(1, 0, "P"),
            dahai(1, "1p", tsumogiri=False),
            tsumo(2, "1s"),
            dahai(2, "1s", tsumogiri=True),
            tsumo(3, "2s"),
            dahai(3, "2s", tsumogiri=True),
            tsumo(0, "2s"),
            dahai(0, "2s", tsumogiri=True),
            tsumo(1, "3s"),
            dahai(1, "9s", tsumogiri=True),
        )


# -- 2. one sangenpai entry per dragon triplet -----------------------------------------------------


def _two_dragon_win(yakus: list[list[Any]], fan: int) -> Game:
    """Seat 1 pons haku and hatsu from seat 0, is left with 234m 678p 9s, and wins by ron on
    the 9s seat 2 draws and discards."""
    return one_round(
        *OPENING,
        pon(1, 0, "P"),
        dahai(1, "1p", tsumogiri=False),
        tsumo(2, "1s"),
        dahai(2, "1s", tsumogiri=True),
        tsumo(3, "2s"),
        dahai(3, "2s", tsumogiri=True),
        tsumo(0, "F"),
        dahai(0, "F", tsumogiri=True),
        pon(1, 0, "F"),
        dahai(1, "9s", tsumogiri=False),
        tsumo(2, "9s"),
        dahai(2, "9s", tsumogiri=True),
        {"type": "hora", "actor": 1, "target": 2, "pai": "9s", "yakus": yakus, "fan": fan,
         "fu": 40},
    )  # fmt: skip


def test_one_sangenpai_per_dragon_triplet_reads_as_the_dragons_with_a_warning() -> None:
    game = _two_dragon_win([["sangenpai", 1], ["sangenpai", 1]], 2)
    win = game.rounds[0].events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.yaku == (("haku", 1), ("hatsu", 1))
    assert len(game.warnings) == 1
    assert "2 sangenpai entries, one per dragon triplet" in game.warnings[0]
    assert "read as haku and hatsu" in game.warnings[0]
    # gimite's own scorer counts them in one entry: the same yaku, and nothing to warn about.
    counted = _two_dragon_win([["sangenpai", 2]], 2)
    assert counted.rounds[0].events[-1] == win and counted.warnings == ()


def test_sangenpai_entries_that_do_not_count_the_triplets_are_refused() -> None:
    with pytest.raises(MalformedLogError, match=r"sangenpai 1 \+ 1 \+ 1 but the winner has 2"):
        _two_dragon_win([["sangenpai", 1], ["sangenpai", 1], ["sangenpai", 1]], 3)
    with pytest.raises(MalformedLogError, match=r"sangenpai 1 but the winner has 2"):
        _two_dragon_win([["sangenpai", 1]], 1)


# -- gimite's other collapsed names, and its yakuman fan -------------------------------------------

#: Special waits: thirteen orphans on all thirteen (seat 1), four concealed triplets on the
#: pair (seat 2: 555m 222s 333s 444s and 1s), nine gates on all nine (seat 3: 1112345678999p).
WAIT_HANDS = [
    HANDS[0],
    ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C"],
    ["5m", "5m", "5m", "2s", "2s", "2s", "3s", "3s", "3s", "4s", "4s", "4s", "1s"],
    ["1p", "1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "9p", "9p"],
]


def _waits_win(actor: int, pai: str, yakus: list[list[Any]], fan: int = 100) -> Win:
    game = read_one(
        start_game(),
        start_kyoku(tehais=WAIT_HANDS),
        tsumo(0, pai),
        dahai(0, pai, tsumogiri=True),
        {"type": "hora", "actor": actor, "target": 0, "pai": pai, "yakus": yakus, "fan": fan},
    )
    win = game.rounds[0].events[-1]
    assert isinstance(win, Win)
    assert game.warnings == ()
    return win


@pytest.mark.parametrize(
    ("actor", "pai", "name", "ours"),
    [
        (1, "C", "kokushimuso", "kokushi_13"),  # all thirteen waited on
        (2, "1s", "suanko", "suuankou_tanki"),  # the pair is the wait
        (3, "5p", "churenpoton", "junsei_chuuren"),  # 1112345678999p: nine-sided
    ],
)
def test_gimite_names_one_yakuman_for_two_waits_the_hand_tells_which(
    actor: int, pai: str, name: str, ours: str
) -> None:
    win = _waits_win(actor, pai, [[name, 100]])
    assert win.recorded is not None and win.recorded.yaku == ((ours, 13),)


def test_the_plain_yakuman_when_the_wait_is_not_the_special_one() -> None:
    # Seat 3 without its 9p before the win: 111234567899p + 9p is nine gates on a plain wait.
    hands = [*WAIT_HANDS[:3], ["1p", "1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p",
                               "9p", "9p", "5p"]]  # fmt: skip
    game = read_one(
        start_game(),
        start_kyoku(tehais=hands),
        tsumo(0, "9p"),
        dahai(0, "9p", tsumogiri=True),
        {"type": "hora", "actor": 3, "target": 0, "pai": "9p",
         "yakus": [["churenpoton", 100]], "fan": 100},
    )  # fmt: skip
    win = game.rounds[0].events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.yaku == (("chuuren", 13),)


def test_renho_below_a_yakuman_is_tenhous_mangan_renhou() -> None:
    win = _waits_win(1, "C", [["renho", 5]], fan=5)
    assert win.recorded is not None and win.recorded.yaku == (("renhou_mangan", 5),)
    win = _waits_win(1, "C", [["renho", 100]])
    assert win.recorded is not None and win.recorded.yaku == (("renhou", 13),)


def test_fan_100_with_two_yakuman_entries_is_their_sum_with_a_warning() -> None:
    game = read_one(
        start_game(),
        start_kyoku(tehais=WAIT_HANDS),
        tsumo(0, "C"),
        dahai(0, "C", tsumogiri=True),
        {"type": "hora", "actor": 1, "target": 0, "pai": "C", "fan": 100,
         "yakus": [["kokushimuso", 100], ["renho", 100]]},
    )  # fmt: skip
    win = game.rounds[0].events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.han == 26
    assert len(game.warnings) == 1 and "fan 100 (one yakuman) with 2 yakuman" in game.warnings[0]
    # Written as this engine writes it (fan 200), the same hand reads without a warning.
    written = read_one(
        start_game(),
        start_kyoku(tehais=WAIT_HANDS),
        tsumo(0, "C"),
        dahai(0, "C", tsumogiri=True),
        {"type": "hora", "actor": 1, "target": 0, "pai": "C", "fan": 200,
         "yakus": [["kokushimuso", 100], ["renho", 100]]},
    )  # fmt: skip
    assert written.rounds == game.rounds and written.warnings == ()


# -- 3. ryukyoku reasons of every tool -------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        # gimite/mjai and akochan
        ("fanpai", None),
        ("kyushukyuhai", AbortKind.NINE_TERMINALS),
        ("sufonrenta", AbortKind.FOUR_WINDS),
        ("suchareach", AbortKind.FOUR_RIICHI),
        ("sanchaho", AbortKind.TRIPLE_RON),
        ("sukaikan", AbortKind.FOUR_KANS),
        ("nagashimangan", "nagashi"),
        # RiichiEnv
        ("exhaustive_draw", None),
        ("kyushu_kyuhai", AbortKind.NINE_TERMINALS),
        ("sufuurenta", AbortKind.FOUR_WINDS),
        ("suucha_riichi", AbortKind.FOUR_RIICHI),
        ("suukansansen", AbortKind.FOUR_KANS),
        # jansou: its own word, Tenhou's mjlog types and tenhou.net/6 labels passed through
        ("exhaustive", None),
        ("yao9", AbortKind.NINE_TERMINALS),
        ("kaze4", AbortKind.FOUR_WINDS),
        ("reach4", AbortKind.FOUR_RIICHI),
        ("ron3", AbortKind.TRIPLE_RON),
        ("kan4", AbortKind.FOUR_KANS),
        ("nm", "nagashi"),
        ("流局", None),
        ("全員不聴", None),
        ("九種九牌", AbortKind.NINE_TERMINALS),
        ("三家和", AbortKind.TRIPLE_RON),
        ("四開槓", AbortKind.FOUR_KANS),
        ("流し満貫", "nagashi"),
        # the other spellings jansou lists as the mjai ecosystem's
        ("nine_terminals", AbortKind.NINE_TERMINALS),
        ("suufon_renda", AbortKind.FOUR_WINDS),
        ("sanchahou", AbortKind.TRIPLE_RON),
        ("suukaikan", AbortKind.FOUR_KANS),
        ("nagashi_mangan", "nagashi"),
    ],
)
def test_every_tools_ryukyoku_reason(reason: str, kind: AbortKind | str | None) -> None:
    game = one_round(
        tsumo(0, "9p"),
        dahai(0, "9p", tsumogiri=True),
        tsumo(1, "1p"),
        {"type": "ryukyoku", "reason": reason, "deltas": [0, 0, 0, 0]},
    )
    end = game.rounds[0].events[-1]
    if kind is None:
        assert isinstance(end, ExhaustiveDraw)
    elif kind == "nagashi":
        assert isinstance(end, NagashiMangan)
    else:
        assert isinstance(end, AbortiveDraw) and end.kind is kind
    assert game.warnings == ()  # a tool's own spelling is no quirk


def test_an_unknown_reason_is_still_refused() -> None:
    # mjai.app ends a game a bot broke with reason "error": no draw of the game's rules.
    with pytest.raises(MalformedLogError, match=r"unknown reason 'error'"):
        one_round(tsumo(0, "9p"), {"type": "ryukyoku", "reason": "error"})


# -- gimite's start_game and start_kyoku, and its end_game -----------------------------------------


def test_the_tenhou_log_id_in_the_uri_is_the_source_id_and_gives_the_start() -> None:
    game = read_one(start_game(uri=URI), start_kyoku())
    assert game.header.source.id == "2010081709gm-00a9-0000-fe3371ad"
    assert game.header.started_at == "2010-08-17T09:00:00+09:00"
    # An id that is a Tenhou log id (as our writer writes it) gives the start time too.
    game = read_one(start_game(id="2010081709gm-00a9-0000-fe3371ad"), start_kyoku())
    assert game.header.started_at == "2010-08-17T09:00:00+09:00"
    # Another uri or id is kept as it is, with no start time.
    game = read_one(start_game(uri="http://example.org/game/7"), start_kyoku())
    assert (game.header.source.id, game.header.started_at) == ("http://example.org/game/7", None)
    game = read_one(start_game(id=3), start_kyoku())
    assert (game.header.source.id, game.header.started_at) == ("3", None)


def test_start_kyoku_without_kyotaku_takes_the_sticks_left_on_the_table() -> None:
    first = start_kyoku()
    del first["kyotaku"], first["scores"]
    second = {**first, "honba": 1}
    game = read_one(
        start_game(),
        first,
        tsumo(0, "9p"),
        {"type": "reach", "actor": 0},
        dahai(0, "9p", tsumogiri=True),
        {"type": "reach_accepted", "actor": 0},
        tsumo(1, "1p"),
        {"type": "ryukyoku", "reason": "kyushukyuhai", "deltas": [0, 0, 0, 0]},
        {"type": "end_kyoku"},
        second,
    )
    assert [round_.sticks for round_ in game.rounds] == [0, 1]
    assert game.rounds[1].scores == (24000, 25000, 25000, 25000)


def test_end_game_scores_without_the_leftover_sticks_give_them_to_first_place() -> None:
    # The last hand: seat 0's riichi, then an abortive draw; gimite's end_game repeats the
    # hand's scores (Tenhou's sc) with the stick still on the table.
    events = [
        start_game(),
        start_kyoku(),
        tsumo(0, "9p"),
        {"type": "reach", "actor": 0},
        dahai(0, "9p", tsumogiri=True),
        {"type": "reach_accepted", "actor": 0},
        tsumo(1, "1p"),
        {"type": "ryukyoku", "reason": "kyushukyuhai", "deltas": [0, 0, 0, 0]},
        {"type": "end_kyoku"},
    ]
    game = read_one(*events, {"type": "end_game", "scores": [24000, 25000, 25000, 25000]})
    # Ties go to the first seat: seat 1 has 25000 like seats 2 and 3.
    assert game.recorded_final == FinalResult(scores=(24000, 26000, 25000, 25000))
    assert len(game.warnings) == 1 and "without the 1 riichi stick(s)" in game.warnings[0]
    # Final scores that already count the stick, or others, are the record's claim as given.
    game = read_one(*events, {"type": "end_game", "scores": [24000, 26000, 25000, 25000]})
    assert game.recorded_final == FinalResult(scores=(24000, 26000, 25000, 25000))
    assert game.warnings == ()


# -- a whole game as gimite's converter writes it --------------------------------------------------


#: gimite's one name for the yakuman Tenhou tells apart by the wait, and for renhou.
GIMITE_NAMES = {
    "kokushimuso_jusanmen": "kokushimuso",
    "suanko_tanki": "suanko",
    "junsei_churenpoton": "churenpoton",
    "renho_mangan": "renho",
}


def _gimite_style(data: bytes) -> bytes:
    """This engine's mjai made into what gimite's ``tenhou_archive.rb`` writes for the same
    game: start_game with the Tenhou uri and the names only, start_kyoku without kyotaku and
    scores, the discard right after a chi or pon flagged tsumogiri when it is the last tile
    the converter remembers in hand (its tile list: the deal, then each draw appended), yakus
    one per Tenhou yaku (a sangenpai per dragon) in gimite's names, fan 100 for any yakuman."""
    out = []
    remembered: list[list[str]] = []
    after_call: set[int] = set()
    for event in map(json.loads, data.decode().splitlines()):
        kind = event["type"]
        if kind == "start_game":
            event = {"type": "start_game", "uri": URI, "names": event["names"]}
        elif kind == "start_kyoku":
            remembered = [list(hand) for hand in event["tehais"]]
            event = {key: value for key, value in event.items() if key not in ("kyotaku", "scores")}
        elif kind == "tsumo":
            remembered[event["actor"]].append(event["pai"])
            after_call.discard(event["actor"])
        elif kind == "dahai":
            hand = remembered[event["actor"]]
            if event["actor"] in after_call:
                event["tsumogiri"] = event["pai"] == hand[-1]
                after_call.discard(event["actor"])
            # The converter removes the very tile discarded: the drawn one when tsumogiri.
            at = len(hand) - 1 - hand[::-1].index(event["pai"]) if event["tsumogiri"] else None
            hand.pop(hand.index(event["pai"]) if at is None else at)
        elif kind in ("chi", "pon", "daiminkan", "ankan", "kakan"):
            hand = remembered[event["actor"]]
            for tile in [event["pai"]] if kind == "kakan" else event["consumed"]:
                hand.remove(tile)
            if kind in ("chi", "pon"):
                after_call.add(event["actor"])
        elif kind == "hora" and "yakus" in event:
            yakus = []
            for name, han in event["yakus"]:
                if name == "sangenpai":
                    yakus.extend([["sangenpai", 1]] * han)
                else:
                    yakus.append([GIMITE_NAMES.get(name, name), han])
            event["yakus"] = yakus
            if event.get("fan", 0) >= 100:
                event["fan"] = 100
        out.append(json.dumps(event, ensure_ascii=False))
    return ("\n".join(out) + "\n").encode()


def test_a_whole_game_in_gimites_dialect_verifies_with_its_warnings() -> None:
    for game in simulate("tenhou-4p", 10, 3):
        data = _gimite_style(mjai.write([game]))
        (read,), _ = read_games(data)
        if read.warnings:
            break
    else:  # pragma: no cover - the seed is chosen so that a call happens
        pytest.fail("no self-played game had a discard right after a call")
    assert read.header.source.id == "2010081709gm-00a9-0000-fe3371ad"
    # The same game as this engine's own mjai gives it (which has no wall to show).
    assert read.rounds == mjai.read(mjai.write([game]))[0].rounds
    report = replay(read)
    assert report.verdict is Verdict.VERIFIED, report.discrepancy
    assert report.warnings == list(read.warnings)
    assert report.to_json()["warnings"] == list(read.warnings)
    assert any("tsumogiri true on the discard right after" in w for w in read.warnings)


# -- 4. empty score strings in tenhou.net/6 (jansou) -----------------------------------------------


def _blank_scores(data: bytes, keep_yaku: bool = False) -> bytes:
    """The game as jansou's writer gives it: ``name``, ``rule`` and ``log`` alone, every win's
    score string empty (and its yaku strings dropped, as jansou writes none, unless
    ``keep_yaku``)."""
    obj = {key: value for key, value in json.loads(data).items() if key in ("name", "rule", "log")}
    for round_ in obj["log"]:
        result = round_[16]
        if result[0] == "和了":
            for detail in result[2::2]:
                detail[3:] = ["", *detail[4:]] if keep_yaku else [""]
    return json.dumps(obj, ensure_ascii=False).encode()


def _with_a_win() -> Game:
    for game in simulate("tenhou-4p", 5, 11):
        if any(isinstance(e, Win) for r in game.rounds for e in r.events):
            return game
    raise AssertionError("no self-played game has a win")  # pragma: no cover


def test_an_empty_score_string_is_a_win_with_no_recorded_worth_and_a_warning() -> None:
    game = _with_a_win()
    (read,) = tenhou6.read(_blank_scores(tenhou6.write([game])))
    wins = [e for r in read.rounds for e in r.events if isinstance(e, Win)]
    originals = [e for r in game.rounds for e in r.events if isinstance(e, Win)]
    assert wins and len(wins) == len(originals)
    for win, original in zip(wins, originals, strict=True):
        assert win.recorded is not None and original.recorded is not None
        assert win.recorded == RecordedWin(
            deltas=original.recorded.deltas, liable=original.recorded.liable
        )
    assert len(read.warnings) == 1
    # One warning naming every such place (the first few, then how many more).
    places = r"log\[\d+\]\[16\]\[\d+\]\[3\]"
    assert re.match(
        rf"{places}(, {places})*( and \d+ more)?: an empty score string \(as jansou's tenhou",
        read.warnings[0],
    )
    report = replay(read)
    assert report.verdict is Verdict.VERIFIED, report.discrepancy
    assert report.warnings == list(read.warnings)


def test_an_empty_score_string_with_yaku_keeps_the_yaku() -> None:
    game = _with_a_win()
    (read,) = tenhou6.read(_blank_scores(tenhou6.write([game]), keep_yaku=True))
    win = next(e for r in read.rounds for e in r.events if isinstance(e, Win))
    original = next(e for r in game.rounds for e in r.events if isinstance(e, Win))
    assert win.recorded is not None and original.recorded is not None
    assert win.recorded.yaku == original.recorded.yaku and win.recorded.points is None
    assert replay(read).verdict is Verdict.VERIFIED


def test_a_win_with_an_empty_score_string_is_still_checked() -> None:
    # The score changes stay the record's claim: a wrong one is a mismatch.
    obj = json.loads(_blank_scores(tenhou6.write([_with_a_win()])))
    result = next(round_[16] for round_ in obj["log"] if round_[16][0] == "和了")
    result[1] = [delta + (100 if seat == 0 else -100) for seat, delta in enumerate(result[1])]
    (read,) = tenhou6.read(json.dumps(obj).encode())
    report = replay(read)
    assert report.verdict is Verdict.SCORE_MISMATCH
    assert report.discrepancy is not None and "score changes" in report.discrepancy.message


def test_a_score_string_that_is_not_one_is_still_refused() -> None:
    obj = json.loads(tenhou6.write([_with_a_win()]))
    result = next(round_[16] for round_ in obj["log"] if round_[16][0] == "和了")
    result[2][3] = "lots of points"
    with pytest.raises(MalformedLogError, match=r"score 'lots of points' is not like"):
        tenhou6.read(json.dumps(obj).encode())


# -- the warnings kept: canonical JSON, schema, replay report --------------------------------------


def test_warnings_go_through_the_canonical_codec() -> None:
    game = one_round(*OPENING, pon(1, 0, "P"), dahai(1, "1p", tsumogiri=True))
    document = canonical.game_to_json(game)
    assert document["warnings"] == list(game.warnings)
    assert canonical.loads(canonical.dumps(game)) == [game]
    plain = dataclasses.replace(game, warnings=())
    assert "warnings" not in canonical.game_to_json(plain)  # written only when there is one
    assert canonical.loads(canonical.dumps(plain)) == [plain]


def test_the_schema_validates_a_document_with_warnings() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = Path(canonical.__file__).parent.parent / "schema" / "game.schema.json"
    validator = jsonschema.Draft202012Validator(json.loads(schema_path.read_text("utf-8")))
    game = one_round(*OPENING, pon(1, 0, "P"), dahai(1, "1p", tsumogiri=True))
    document = canonical.game_to_json(game)
    validator.validate(document)
    document["warnings"] = [7]
    assert not validator.is_valid(document)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("one sentence", r"warnings: expected an array"),
        ([7], r"warnings\[0\]: expected a string"),
    ],
)
def test_bad_warnings_are_refused_by_path(value: object, message: str) -> None:
    document = canonical.game_to_json(one_round(*OPENING))
    document["warnings"] = value
    with pytest.raises(MalformedLogError, match=message):
        canonical.game_from_json(document)


def test_warnings_never_change_the_verdict() -> None:
    game = next(iter(simulate("tenhou-4p", 1, 5)))
    warned = dataclasses.replace(game, warnings=("line 1: something odd, read as usual",))
    plain, with_warnings = replay(game), replay(warned)
    assert plain.verdict is with_warnings.verdict is Verdict.VERIFIED
    assert with_warnings.warnings == ["line 1: something odd, read as usual"]
    assert plain.to_json() == {**with_warnings.to_json(), "warnings": []}


def test_an_error_of_gimites_server_ends_the_game_there_with_a_warning() -> None:
    # gimite's mjai server logs an error event and stops when a player's response is invalid.
    error = {"type": "error", "message": "Error in player 1's response: Unexpected response"}
    data = "\n".join(
        json.dumps(event)
        for event in (start_game(), start_kyoku(), *OPENING, error, start_game(), start_kyoku())
    ).encode()
    first, second = mjai.read(data)
    assert first.recorded_final is None and len(first.rounds[0].events) == len(OPENING)
    assert first.warnings == (
        "line 13: error: the mjai server stopped the game here (Error in player 1's response: "
        "Unexpected response); the game is read up to this point, as one that does not end",
    )
    assert second.warnings == () and len(second.rounds) == 1
    report = replay(first)
    assert report.verdict is Verdict.VERIFIED_FRAGMENT and not report.complete
