"""The Tenhou mjlog reader: the real logs of the shared corpus, hand-decoded meld codes, small
hand-written logs for each rule of the conversion, and hostile or broken input.

The corpus checks track every seat's tiles through the events the reader produced, so a wrongly
decoded call or a lost draw shows up as a hand that does not match what AGARI reports.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from engine.errors import MalformedLogError
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
    Game,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Win,
)
from engine.formats import read_games
from engine.formats.mjlog import (
    DAN_LABELS,
    FORMAT,
    TENHOU_YAKU,
    MeldCode,
    decode_meld,
    log_id_from_name,
    read_mjlog,
)
from engine.rules.presets import PRESETS
from engine.rules.tenhou import TenhouLobby, log_date, tenhou_game_rules
from engine.rules.yaku import DORA_NAMES, YAKU
from engine.tiles import Tile, parse_tile, parse_tiles

CORPUS = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpus"
MISSING = f"{CORPUS} not found: corpus tests need ../shared/corpus"


def _manifest() -> list[dict[str, str]]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(encoding="utf-8") as file:
        return [row for row in csv.DictReader(file, delimiter="\t") if row["format"] == "mjlog_xml"]


def _corpus_params() -> list[object]:
    rows = _manifest()
    if not rows:
        return [pytest.param(None, id="no-corpus", marks=pytest.mark.skip(reason=MISSING))]
    return [pytest.param(row, id=Path(row["path"]).name) for row in rows]


def _corpus_file(relative: str) -> bytes:
    """A file under ``mjlog_xml/``; skips the test when the corpus is absent."""
    path = CORPUS / "mjlog_xml" / relative
    if not path.exists():
        pytest.skip(MISSING)
    return path.read_bytes()


def _corpus_game(relative: str) -> Game:
    """The game of a file under ``mjlog_xml/``; skips the test when the corpus is absent."""
    _corpus_file(relative)
    return _read_corpus("mjlog_xml/" + relative)


@cache
def _read_corpus(relative_path: str) -> Game:
    path = CORPUS / relative_path
    return read_mjlog(path.read_bytes(), log_id_from_name(path.name))


SANMA = "MitsuhiroTaniguchi__MahjongLM/2014091101gm-00b9-0000-5ca6b487.txt"
NAGASHI = "mjx-project__mjx/2019082700gm-00a9-0000-63d1f136.mjlog"
PAO = "mjx-project__mjx/pao-tsumo.mjlog"
SMALL = "mjx-project__mjx/2017040900gm-00a9-0000-af5434e3.mjlog"  # 2 rounds


# -- the corpus -----------------------------------------------------------------------------------

#: The rule-set preset of each GO type in the corpus, worked out from the bits by hand.
GO_PRESETS = {
    1: "tenhou-4p-east",  # 0x01: red, kuitan, tonpuu
    9: "tenhou-4p",  # 0x09: + hanchan
    41: "tenhou-4p",  # 0x29: tokujou hanchan
    137: "tenhou-4p",  # 0x89: joukyuu hanchan
    169: "tenhou-4p",  # 0xA9: houou hanchan
    185: "tenhou-3p",  # 0xB9: houou sanma hanchan
}


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_params())
def test_corpus_game_shape(row: dict[str, str]) -> None:
    game = _read_corpus(row["path"])
    assert len(game.rounds) == int(row["n_rounds"])
    assert game.players == int(row["players"])
    assert (game.recorded_final is not None) == (row["complete_game"] == "yes")
    go_type = int(row["game_type"].split()[1].removeprefix("type="))  # "GO type=169 (...)"
    assert game.header.ruleset == GO_PRESETS[go_type]
    # Only the rules of the game's date differ from the lobby's preset (engine/rules/tenhou.py).
    lobby = TenhouLobby.from_go_type(go_type, number=int(game.header.source.extra["lobby"]))
    assert game.header.rule_overrides == dict(
        tenhou_game_rules(lobby, log_date(game.header.source.id))[1]
    )
    assert game.header.source.format == "mjlog"
    assert game.header.source.extra["go_type"] == str(go_type)
    for round_ in game.rounds:
        assert len(round_.scores) == len(round_.hands) == game.players
        assert all(len(hand) == 13 for hand in round_.hands)
    if game.recorded_final is not None:
        assert len(game.recorded_final.scores) == game.players


def _check_round(round_: Round, players: int) -> None:
    """Track every seat's concealed tiles through the events and check them against what the
    round's end shows, the calls against the discards, and the payments against the sticks."""
    hands = [Counter(hand) for hand in round_.hands]
    melds = [0] * players  # meld count per seat (a kan counts as one)
    last_discard: Discard | None = None
    accepted = 0
    ended = False

    def take(seat: int, tiles: tuple[object, ...] | list[object]) -> None:
        for tile in tiles:
            assert hands[seat][tile] > 0, f"{round_.name}: seat {seat} has no {tile}"
            hands[seat][tile] -= 1

    for event in round_.events:
        assert not (ended and not isinstance(event, Win)), f"{round_.name}: {event} after end"
        if isinstance(event, Draw):
            hands[event.seat][event.tile] += 1
        elif isinstance(event, Discard):
            take(event.seat, [event.tile])
            last_discard = event
        elif isinstance(event, Chi | Pon | OpenKan):
            assert last_discard is not None, f"{round_.name}: call with no discard"
            assert event.tile == last_discard.tile
            assert event.from_seat == last_discard.seat != event.seat
            assert len(event.consumed) == (3 if isinstance(event, OpenKan) else 2)
            take(event.seat, event.consumed)
            melds[event.seat] += 1
            last_discard = None
        elif isinstance(event, ClosedKan):
            assert len({tile.kind for tile in event.tiles}) == 1
            take(event.seat, event.tiles)
            melds[event.seat] += 1
        elif isinstance(event, AddedKan | NorthExtraction):
            take(event.seat, [event.tile])
        elif isinstance(event, RiichiAccepted):
            accepted += 1
        elif isinstance(event, Win):
            ended = True
            recorded = event.recorded
            assert recorded is not None and recorded.hand is not None
            concealed = +hands[event.seat]
            if not event.tsumo:
                concealed[event.tile] += 1
            assert concealed == Counter(recorded.hand), f"{round_.name}: winner's hand"
            assert recorded.deltas is not None and len(recorded.deltas) == players
        elif isinstance(event, ExhaustiveDraw | AbortiveDraw | NagashiMangan):
            ended = True
    # Every concealed hand that is not a winner's holds 13 tiles less 3 per meld.
    last = round_.events[-1] if round_.events else None
    if isinstance(last, ExhaustiveDraw | NagashiMangan):
        for seat in range(players):
            assert sum(hands[seat].values()) + 3 * melds[seat] == 13
    # Payments: wins share the sticks on the table plus this round's; draws move none.
    ends = [e for e in round_.events if isinstance(e, Win)]
    if ends:
        paid = sum(sum(e.recorded.deltas or ()) for e in ends if e.recorded)
        assert paid == 1000 * (round_.sticks + accepted)
    elif isinstance(last, ExhaustiveDraw | NagashiMangan | AbortiveDraw):
        assert last.recorded_deltas is not None and sum(last.recorded_deltas) == 0


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_params())
def test_corpus_tile_accounting(row: dict[str, str]) -> None:
    game = _read_corpus(row["path"])
    for round_ in game.rounds:
        _check_round(round_, game.players)


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_params())
def test_corpus_scores_carry_over(row: dict[str, str]) -> None:
    """Each round starts with the previous round's scores plus its payments, less the riichi
    sticks put down: the scores, ``sc`` deltas and REACH events all line up."""
    game = _read_corpus(row["path"])
    for before, after in zip(game.rounds, game.rounds[1:], strict=False):
        scores = list(before.scores)
        for event in before.events:
            if isinstance(event, RiichiAccepted):
                scores[event.seat] -= 1000
            deltas = (
                event.recorded.deltas
                if isinstance(event, Win) and event.recorded
                else getattr(event, "recorded_deltas", None)
            )
            for seat, delta in enumerate(deltas or ()):
                scores[seat] += delta
        assert tuple(scores) == after.scores, f"{before.name} -> {after.name}"


@pytest.mark.corpus
@pytest.mark.parametrize("row", _corpus_params())
def test_corpus_tsumogiri_and_ura(row: dict[str, str]) -> None:
    game = _read_corpus(row["path"])
    for round_ in game.rounds:
        drawn: dict[int, object] = {}
        for event in round_.events:
            if isinstance(event, Draw):
                drawn[event.seat] = event.tile
            elif isinstance(event, Discard):
                if event.tsumogiri:  # the tile just drawn
                    assert drawn.get(event.seat) == event.tile
                drawn.pop(event.seat, None)
            elif isinstance(event, Chi | Pon | OpenKan):
                drawn.pop(event.seat, None)
        # Tenhou shows the ura indicators (one per dora indicator) to riichi winners only.
        riichi_win = any(
            isinstance(e, Win)
            and e.recorded is not None
            and any(name in ("riichi", "double_riichi") for name, _ in e.recorded.yaku or ())
            for e in round_.events
        )
        if riichi_win:
            kan_dora = sum(isinstance(e, DoraRevealed) for e in round_.events)
            assert len(round_.ura_indicators) == 1 + kan_dora
        else:
            assert round_.ura_indicators == ()


@pytest.mark.corpus
def test_sanma_calls_count_the_offset_over_four_seats() -> None:
    """In the sanma log seat 2 pons seat 0's discard with offset 2 and calls seat 1's with
    offset 3: (who + offset) % 4, as if the empty North seat were there."""
    game = _corpus_game(SANMA)
    calls = [e for r in game.rounds for e in r.events if isinstance(e, Pon | OpenKan)]
    assert {(call.seat, call.from_seat) for call in calls} >= {(2, 0), (2, 1)}
    norths = [e for r in game.rounds for e in r.events if isinstance(e, NorthExtraction)]
    assert norths and all(str(e.tile) == "4z" for e in norths)
    assert game.header.players[0].name == "Emurated"  # %45%6D%75%72%61%74%65%64
    assert [p.rank for p in game.header.players] == ["八段", "七段", "八段"]  # dan 17,16,17
    assert game.header.players[2].rating == 2314.01
    assert game.header.started_at == "2014-09-11T01:00:00+09:00"
    # The last round (S3, the third dealer) ends with owari 592,54.0,228,-37.0,230,-17.0.
    assert game.rounds[-1].name == "S3"
    assert game.recorded_final is not None
    assert game.recorded_final.scores == (59200, 22800, 23000)
    assert game.recorded_final.results == (54.0, -37.0, -17.0)


@pytest.mark.corpus
def test_corpus_round_ends() -> None:
    """Round ends checked against the raw tags, read by eye."""
    nagashi = _corpus_game(NAGASHI)
    # <RYUUKYOKU type="nm" sc="319,-20,140,-20,221,80,310,-40" ...>: seat 2 is paid a mangan.
    end = next(r.events[-1] for r in nagashi.rounds if isinstance(r.events[-1], NagashiMangan))
    assert end == NagashiMangan(seats=(2,), recorded_deltas=(-2000, -2000, 8000, -4000))
    # ... <W34/><RYUUKYOKU type="yao9" ... hai3="...">: seat 3 declares nine terminals.
    yao9 = _corpus_game("mjx-project__mjx/2010112714gm-00a9-0000-d497e395.mjlog")
    aborts = [r.events[-1] for r in yao9.rounds if isinstance(r.events[-1], AbortiveDraw)]
    assert [(a.kind, a.seat) for a in aborts] == [(AbortKind.NINE_TERMINALS, 3)]
    # <AGARI ... machi="39" ten="40,32000,5" yakuman="39" who="2" fromWho="2" paoWho="0"
    #  sc="319,-320,189,0,153,320,339,0" owari=...>: a daisangen tsumo paid by seat 0 alone.
    pao = _corpus_game(PAO)
    win = pao.rounds[-1].events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert (win.seat, win.from_seat, str(win.tile)) == (2, 2, "1p")
    assert win.recorded.yaku == (("daisangen", 13),)
    assert (win.recorded.han, win.recorded.fu, win.recorded.points) == (13, 40, 32000)
    assert win.recorded.limit == "yakuman"
    assert win.recorded.liable == 0
    assert win.recorded.deltas == (-32000, 0, 32000, 0)
    # Double ron: two Win events on the same discard, the first taking the stick.
    double = _corpus_game("mjx-project__mjx/double-ron.mjlog")
    pairs = [
        [e for e in r.events if isinstance(e, Win)]
        for r in double.rounds
        if sum(isinstance(e, Win) for e in r.events) == 2
    ]
    assert pairs
    first, second = pairs[0]
    assert first.from_seat == second.from_seat and first.tile == second.tile
    kinds = {r.events[-1].kind for r in _all_rounds() if isinstance(r.events[-1], AbortiveDraw)}
    assert kinds == set(AbortKind) - {AbortKind.TRIPLE_RON}


def _all_rounds() -> list[Round]:
    return [r for row in _manifest() for r in _read_corpus(row["path"]).rounds]


@pytest.mark.corpus
def test_real_chi_of_a_red_five() -> None:
    """1.txt: ``<F16/><REACH who="2" ... step="2"/><N who="3" m="10263" />``: seat 3 chis the
    red 5m (id 16) seat 2 discarded, showing 4m (id 14) and 6m (id 20)."""
    game = read_mjlog(_corpus_file("MahjongRepository__tenhou-python-bot/1.txt"))
    chis = [e for r in game.rounds for e in r.events if isinstance(e, Chi) and e.tile.red]
    assert Chi(3, 2, parse_tile("0m"), (parse_tile("4m"), parse_tile("6m"))) in chis


# -- meld codes (expected values worked out by hand from the bit layout of spec §A.5) -------------


def test_decode_chi() -> None:
    # 10263 = 0b1010_0000010_111: offset 3, chi bit; copies (bits 3-4, 5-6, 7-8) = 2, 0, 0;
    # 10263 >> 10 = 10: called 10 % 3 = 1 (the middle tile), run 10 // 3 = 3 -> base kind 3 (4m).
    assert decode_meld(10263) == MeldCode("chi", (14, 16, 20), 16, 3)


def test_decode_pon() -> None:
    # 51722 = 0xCA0A: offset 2, pon bit; bits 5-6 = 0 (copy 0 unused); 51722 >> 9 = 101:
    # called 101 % 3 = 2, kind 101 // 3 = 33 (chun) -> tiles 133, 134, 135, the called one 135.
    assert decode_meld(51722) == MeldCode("pon", (133, 134, 135), 135, 2)


def test_decode_added_kan() -> None:
    # 44146 = 0xAC72: offset 2, bit 0x10 (added kan); bits 5-6 = 3 (copy 3 added);
    # 44146 >> 9 = 86: kind 86 // 3 = 28 (South) -> tiles 112-115, 115 added.
    assert decode_meld(44146) == MeldCode("added_kan", (112, 113, 114, 115), 115, 2)


def test_decode_north_and_kans() -> None:
    # 31008 = (121 << 8) | 0x20: North (id 121) set aside.
    assert decode_meld(31008) == MeldCode("north", (121,), 121, 0)
    # 4608 = 18 << 8, offset 0: closed kan of kind 4 (5m), ids 16-19.
    assert decode_meld(4608) == MeldCode("closed_kan", (16, 17, 18, 19), -1, 0)
    # 26883 = (105 << 8) | 3: open kan on id 105 (kind 26, 9s) from the left.
    assert decode_meld(26883) == MeldCode("open_kan", (104, 105, 106, 107), 105, 3)


@pytest.mark.parametrize(
    ("m", "problem"),
    [
        ((63 << 10) | 0x4, "run 21"),  # chi run 21 would start at East
        ((102 << 9) | 0x8, "kind 34"),  # pon of kind 34
        (136 << 8, "tile id 136"),
        (0x20, "not a North"),  # North extraction of 1m
        (1 << 16, "16-bit"),
    ],
)
def test_decode_rejects_impossible_codes(m: int, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        decode_meld(m)


def test_yaku_table_matches_our_names() -> None:
    assert len(TENHOU_YAKU) == 55
    assert all(name in YAKU for name in TENHOU_YAKU)
    # Spot checks against the Japanese of spec §A.6.
    for tenhou_id, japanese in [(1, "立直"), (22, "七対子"), (35, "清一色"), (47, "国士無双")]:
        assert YAKU[TENHOU_YAKU[tenhou_id]].japanese == japanese
    assert [YAKU[name].yakuman for name in TENHOU_YAKU[37:52]] == [True] * 15
    assert TENHOU_YAKU[36] == "renhou_mangan"
    assert set(TENHOU_YAKU[52:]) <= DORA_NAMES
    assert (DAN_LABELS[0], DAN_LABELS[9], DAN_LABELS[10], DAN_LABELS[20]) == (
        "新人",
        "1級",
        "初段",
        "天鳳",
    )


# -- hand-written logs ----------------------------------------------------------------------------

#: Starting hands by id: seat 0 holds 1m-3m x4 and a 4m, seat 1 4m-7m (16 is the red 5m), seat 2
#: 7m-9m and 1p, seat 3 1p-4p.
HANDS = tuple(",".join(map(str, range(13 * seat, 13 * seat + 13))) for seat in range(4))
ROSTER = (
    '<UN n0="%41%6C%69" n1="B" n2="C" n3="D" dan="0,9,10,20" rate="1500,1600.5,1700,1800" '
    'sx="M,F,M,C"/>'
)
EXHAUSTIVE = f'<RYUUKYOKU ba="0,0" sc="250,15,250,-15,250,15,250,-15" hai0="{HANDS[0]}" hai2="x"/>'


def _init(players: int = 4, **replace: str) -> str:
    """An INIT: E1, dealer 0, 7p (id 60) indicator; ``name="-"`` drops an attribute."""
    ten = "250,250,250,250" if players == 4 else "350,350,350,0"
    attrs = {"seed": "0,0,0,1,2,60", "ten": ten, "oya": "0"}
    for seat in range(4):
        attrs[f"hai{seat}"] = HANDS[seat] if seat < players else ""
    attrs.update(replace)
    return "<INIT " + " ".join(f'{k}="{v}"' for k, v in attrs.items() if v != "-") + "/>"


def _log(*body: str, go_type: int = 169, header: str = ROSTER) -> bytes:
    head = f'<mjloggm ver="2.3"><GO type="{go_type}" lobby="0"/>{header}<TAIKYOKU oya="0"/>'
    return (head + "".join(body) + "</mjloggm>").encode()


def _read(*body: str, go_type: int = 169) -> Game:
    return read_mjlog(_log(*body, go_type=go_type))


def _tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


#: A round with a tsumogiri, a chi, a riichi, a closed kan with its dora, an exhaustive draw.
ROUND = (
    '<BYE who="1"/>',
    _init(),
    "<T52/><D52/><U53/><E25/>",
    # Chi of 7m (id 25, copy 1) from seat 1 with 8m (28) and 9m (32): run 6 (7m-8m-9m), the
    # low tile called: (6 * 3 + 0) << 10 | copy 1 << 3 | chi | from the left = 18447.
    '<N who="2" m="18447"/><F36/>',
    '<UN n2="%45"/>',  # a reconnect: ignored
    '<W54/><REACH who="3" step="1"/><G54/><REACH who="3" ten="250,250,250,240" step="2"/>',
    # Closed kan of 2m: 4 << 8; its dora (9p, id 70) before the replacement draw (6z, id 130).
    '<T55/><N who="0" m="1024"/><DORA hai="70"/><T130/><D130/>',
    EXHAUSTIVE.replace('hai2="x"', f'hai2="{HANDS[2]}"'),
    '<BYE who="0"/>',
)


def test_round_events_in_play_order() -> None:
    game = read_mjlog(_log(*ROUND), "2010081709gm-00a9-0000-fe3371ad")
    (round_,) = game.rounds
    p = parse_tile
    assert round_.events == (
        Draw(0, p("0p")),
        Discard(0, p("0p"), tsumogiri=True),
        Draw(1, p("5p")),
        Discard(1, p("7m")),
        Chi(2, 1, p("7m"), (p("8m"), p("9m"))),
        Discard(2, p("1p")),  # right after a call: never tsumogiri
        Draw(3, p("5p")),
        RiichiDeclared(3),
        Discard(3, p("5p"), tsumogiri=True),
        RiichiAccepted(3),
        Draw(0, p("5p")),
        ClosedKan(0, _tiles("2222m")),
        DoraRevealed(p("9p")),
        Draw(0, p("6z")),
        Discard(0, p("6z"), tsumogiri=True),
        ExhaustiveDraw(recorded_tenpai=(0, 2), recorded_deltas=(1500, -1500, 1500, -1500)),
    )
    assert (round_.name, round_.dealer, round_.honba, round_.sticks) == ("E1", 0, 0, 0)
    assert round_.scores == (25000,) * 4
    assert round_.hands[1] == _tiles("4440555666677m")
    assert round_.dora_indicators == (p("7p"),)
    assert game.recorded_final is None  # no owari: the game did not end
    header = game.header
    assert [(pl.name, pl.rank, pl.rating) for pl in header.players] == [
        ("Ali", "新人", 1500.0),
        ("B", "1級", 1600.5),
        ("C", "初段", 1700.0),
        ("D", "天鳳", 1800.0),
    ]
    assert header.source.id == "2010081709gm-00a9-0000-fe3371ad"
    assert header.source.extra == {"go_type": "169", "lobby": "0"}
    assert header.started_at == "2010-08-17T09:00:00+09:00"
    assert header.ruleset == "tenhou-4p"


def test_round_without_an_end_is_kept() -> None:
    game = _read(_init(shuffle="mt19937ar,0,1"), "<T52/><D52/><U53/>")  # a 2009 INIT
    assert len(game.rounds) == 1 and len(game.rounds[0].events) == 3
    assert game.recorded_final is None


def test_tsumo_with_owari() -> None:
    game = _read(
        _init(seed="4,1,2,0,0,60"),
        '<T52/><AGARI ba="1,2" hai="0,1,2,3,4,5,6,7,8,9,10,11,12,52" machi="52" '
        'ten="30,7700,1" yaku="0,1,1,1,52,0,53,0,54,1" doraHai="60" doraHaiUra="61" who="0" '
        'fromWho="0" sc="250,103,250,-27,250,-27,250,-27" '
        'owari="353,55.3,223,-2.7,223,-22.7,201,-29.9"/>',
        '<BYE who="2"/>',  # only UN and BYE may follow owari
    )
    (round_,) = game.rounds
    assert (round_.name, round_.honba, round_.sticks) == ("S1", 1, 2)
    win = round_.events[-1]
    assert isinstance(win, Win) and win.tsumo and win.tile == parse_tile("0p")
    recorded = win.recorded
    assert recorded is not None
    # 52,0 and 53,0 (no dora, no ura dora) are dropped; han adds up the rest.
    assert recorded.yaku == (("menzen_tsumo", 1), ("riichi", 1), ("aka_dora", 1))
    assert (recorded.han, recorded.fu, recorded.points, recorded.limit) == (3, 30, 7700, "mangan")
    assert recorded.deltas == (10300, -2700, -2700, -2700)
    assert recorded.hand == (*_tiles("1111222233334m"), parse_tile("0p"))
    assert round_.ura_indicators == (parse_tile("7p"),)  # id 61
    assert game.recorded_final is not None
    assert game.recorded_final.scores == (35300, 22300, 22300, 20100)
    assert game.recorded_final.results == (55.3, -2.7, -22.7, -29.9)


def test_double_ron() -> None:
    agari = (
        '<AGARI ba="0,0" hai="{hai},52" machi="52" ten="30,1000,0" yaku="8,1" doraHai="60" '
        'who="{who}" fromWho="0" sc="250,{pay},250,{d1},250,{d2},250,0"/>'
    )
    game = _read(
        _init(),
        "<T52/><D52/>",
        agari.format(hai=HANDS[1], who=1, pay=-10, d1=10, d2=0),
        agari.format(hai=HANDS[2], who=2, pay=-10, d1=0, d2=10),
    )
    wins = [e for e in game.rounds[0].events if isinstance(e, Win)]
    assert [(w.seat, w.from_seat, w.tile) for w in wins] == [
        (1, 0, parse_tile("0p")),
        (2, 0, parse_tile("0p")),
    ]
    assert game.rounds[0].events[-2:] == tuple(wins)


@pytest.mark.parametrize(
    ("go_type", "init", "who", "draw", "points", "limit"),
    [
        (169, _init(), 1, "<U53/>", 64000, "double_yakuman"),  # 4 x 2 x 8000
        (169, _init(), 1, "<U53/>", 32000, "yakuman"),  # two yakuman valued as one
        (169, _init(), 0, "<T53/>", 96000, "double_yakuman"),  # dealer: 6 x 2 x 8000
        (185, _init(3), 1, "<U53/>", 48000, "double_yakuman"),  # sanma tsumo loss: 3 x 2 x 8000
        (185, _init(3), 0, "<T53/>", 64000, "double_yakuman"),  # sanma dealer: 4 x 2 x 8000
    ],
)
def test_yakuman_limit_from_points(
    go_type: int, init: str, who: int, draw: str, points: int, limit: str
) -> None:
    sc = "0,0," * 3 + "0,0"
    game = _read(
        init,
        draw + f'<AGARI ba="0,0" hai="{HANDS[who]},53" machi="53" ten="40,{points},5" '
        f'yakuman="39,42" doraHai="60" who="{who}" fromWho="{who}" sc="{sc}"/>',
        go_type=go_type,
    )
    win = game.rounds[0].events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.limit == limit
    assert win.recorded.yaku == (("daisangen", 13), ("tsuuiisou", 13))
    assert win.recorded.han == 26


def test_chip_lobby_and_pao() -> None:
    """A chip lobby (GO type 553 = 0x229) adds chip pairs to sc and chip, ratio attributes."""
    game = _read(
        _init(),
        f'<T52/><D52/><AGARI ba="0,0" hai="{HANDS[1]},52" machi="52" ten="40,32000,5" '
        'yakuman="39" doraHai="60" who="1" fromWho="0" paoWho="2" chip="2,1,0,0" ratio="2" '
        'sc="250,-160,250,320,250,-160,250,0,1,-2,2,4,0,-1,0,-1"/>',
        go_type=553,
    )
    win = game.rounds[0].events[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.deltas == (-16000, 32000, -16000, 0)
    assert win.recorded.liable == 2
    assert game.header.ruleset == "tenhou-4p"
    assert game.header.source.extra["go_type"] == "553"


def test_abortive_and_nagashi() -> None:
    honours = "108,112,116,120,124,128,132,109,113,117,121,125,129"  # 1z-7z
    aborts = _read(
        _init(),
        f'<T52/><RYUUKYOKU type="yao9" ba="0,0" sc="250,0,250,0,250,0,250,0" hai0="{HANDS[0]}"/>',
        _init(),
        "<T52/><D52/>",
        '<RYUUKYOKU type="ron3" ba="0,0" sc="250,0,250,0,250,0,250,0"/>',
    )
    assert [r.events[-1] for r in aborts.rounds] == [
        AbortiveDraw(AbortKind.NINE_TERMINALS, 0, (0, 0, 0, 0)),
        AbortiveDraw(AbortKind.TRIPLE_RON, 0, (0, 0, 0, 0)),
    ]
    # Seat 1 discards only honours, seat 0 a 5p: seat 1 is the nagashi seat, and is paid.
    nagashi = _read(
        _init(hai1=honours),
        "<T52/><D52/><U53/><E108/>",
        '<RYUUKYOKU type="nm" ba="0,0" sc="250,-40,250,120,250,-40,250,-40"/>',
    )
    assert nagashi.rounds[0].events[-1] == NagashiMangan((1,), (-4000, 12000, -4000, -4000))
    with pytest.raises(MalformedLogError, match=r"seats \[1\] discarded only terminals"):
        _read(
            _init(hai1=honours),
            "<T52/><D52/><U53/><E108/>",
            '<RYUUKYOKU type="nm" ba="0,0" sc="250,120,250,-40,250,-40,250,-40"/>',
        )


@pytest.mark.parametrize(
    ("go_type", "ruleset", "overrides"),
    [
        (0x1B, "tenhou-3p", {"red_fives": [0, 0, 0]}),  # sanma hanchan, no red
        # sanma tonpuu without kuitan: the nearest preset of the same seats and length
        (0x15, "tenhou-3p-east", {"kuitan": False}),
        (0x07, "tenhou-4p-east-nored-nokuitan", {}),
        (0xF1, "tenhou-3p-east", {}),
        # 0x841: a one-hand lobby (bit 0x800) at 1,000 points: not modelled, and said so
        (
            2113,
            "tenhou-4p-east",
            {
                "unmodelled": [
                    "Tenhou's one-hand lobby (GO type 2113: bit 0x800), whose games start at "
                    "1,000 points and end after one hand"
                ]
            },
        ),
        (0x229, "tenhou-4p", {"kiriage": True}),  # 553: chips (0x200): 切り上げ満貫
    ],
)
def test_go_type_to_ruleset(go_type: int, ruleset: str, overrides: dict[str, object]) -> None:
    players = 3 if go_type & 0x10 else 4
    game = _read(_init(players), "<T52/>", go_type=go_type)
    assert game.header.ruleset == ruleset
    assert ruleset in PRESETS
    assert game.header.rule_overrides == overrides
    assert game.players == players
    drawn = game.rounds[0].events[0]
    assert isinstance(drawn, Draw) and drawn.tile.red == (not go_type & 0x02)


def test_sanma_has_three_of_everything() -> None:
    game = _read(
        _init(3),
        '<T120/><N who="0" m="30752"/><T1/><D1/>',  # North (id 120) set aside, replacement 1m
        '<RYUUKYOKU ba="0,0" sc="350,10,350,-20,350,10,0,0" hai0="x" hai2="y"/>',
        go_type=185,
    )
    (round_,) = game.rounds
    assert len(round_.hands) == 3 and round_.scores == (35000,) * 3
    assert round_.events[1] == NorthExtraction(0, parse_tile("4z"))
    assert round_.events[-1] == ExhaustiveDraw((0, 2), (1000, -2000, 1000))
    with pytest.raises(MalformedLogError, match="seat 3 in a 3-player game"):
        _read(_init(3), "<W52/>", go_type=185)


def test_unknown_tags_outside_rounds_are_ignored() -> None:
    game = _read("<NEWTHING a='1'/>", *ROUND, "<OTHER/>")
    assert len(game.rounds) == 1


# -- hostile and broken input ---------------------------------------------------------------------


def _error(data: bytes) -> str:
    with pytest.raises(MalformedLogError) as caught:
        read_mjlog(data)
    return str(caught.value)


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<mjloggm ver="2.3"><UN n0="&lol9;" n1="b" n2="c" n3="d"/></mjloggm>"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE mjloggm [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<mjloggm ver="2.3"><UN n0="a" n1="b" n2="c" n3="d"/>&secret;</mjloggm>"""


@pytest.mark.parametrize("document", [BILLION_LAUGHS, EXTERNAL_ENTITY])
def test_dtds_and_entities_are_refused(document: bytes) -> None:
    assert "XML DTDs and entities are not allowed in an mjlog" in _error(document)
    assert "XML DTDs and entities are not allowed" in _error(document.decode().encode("utf-16"))


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"hello, world", "not well-formed XML"),
        (b"", "not well-formed XML"),
        (b'{"format": "mjlogs-canonical"}', "not well-formed XML"),
        (b"<mjloggm><GO type='169'", "not well-formed XML"),
        (b"<mjlog/>", "root element is <mjlog>, not <mjloggm>"),
        (b"\xff\xfe\x00\xd8<\x00", "bad UTF-16 text"),  # a lone surrogate
        (b"<mjloggm>\xc3\x28</mjloggm>", "not well-formed XML"),  # bad UTF-8
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 20, "corrupt gzip data"),
        (gzip.compress(_log(_init()))[:-30], "truncated gzip data"),  # cut short
        (b'<mjloggm ver="2.3"></mjloggm>', "no round in the log"),
        (_log().replace(b"<GO", b"<OG"), "no round"),
    ],
)
def test_garbage_is_refused(data: bytes, problem: str) -> None:
    assert problem in _error(data)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ((_init(), "<T52/><XYZ/>"), "round 1 (E1), tag 6 <XYZ>: unknown tag <XYZ> inside a round"),
        ((_init(), "<T52/><D136/>"), "tile id 136 in <D136>"),
        ((_init(), "<T9999999/>"), "tile id 9999999"),
        ((_init(), '<N who="2" m="18447"/>'), "calls tile id 25, but the last discard is no"),
        ((_init(), "<T52/><D52/><U53/><E25/>", '<N who="3" m="18447"/>'), "takes from seat 2"),
        ((_init(), "<T52/><D52/>", '<N who="1" m="18447"/>'), "the last discard is tile id 52"),
        ((_init(hai1="-"),), "missing attribute hai1"),
        ((_init(seed="a,b,c,d,e,f"),), "seed='a,b,c,d,e,f' is not a list of integers"),
        ((_init(seed="0,0,0"),), "has 3 values, expected 6"),
        ((_init(hai2="1,2,3"),), "hai2 has 3 tiles, expected 13"),
        ((_init(hai0="0,1,2,3,4,5,6,7,8,9,10,11,200"),), "hai0 holds tile id 200"),
        ((_init(oya="4"),), "oya=4 is not a seat"),
        (("<T52/>",), "<draw> outside a round"),
        ((_init(), EXHAUSTIVE, "<T52/>"), "<draw> after the round ended"),
        ((_init(), '<REACH who="0" step="3"/>'), "REACH step=3"),
        ((_init(), '<REACH who="7" step="1"/>'), "who=7 is not a seat"),
        ((_init(), '<N who="0" m="x"/>'), "m='x' is not an integer"),
        ((_init(), '<N who="0" m="34816"/>'), "tile id 136"),
        ((_init(), '<DORA hai="-1"/>'), "hai=-1 is not a tile id"),
        ((_init(), '<T52/><AGARI who="0" fromWho="0" machi="53"/>'), "tsumo on tile id 53"),
        ((_init(), '<T52/><D52/><AGARI who="1" fromWho="0" machi="51"/>'), "ron on tile id 51"),
        ((_init(), '<T52/><AGARI who="0" fromWho="0" machi="52" ten="30"/>'), "ten='30' has 1"),
        ((_init(), '<RYUUKYOKU type="bored" sc="0,0,0,0,0,0,0,0"/>'), "unknown RYUUKYOKU type"),
        ((_init(), EXHAUSTIVE.replace("250,15,", "250,")), "sc="),
        ((_init(), '<T52/><AGARI who="0" fromWho="0" machi="52" ten="30,1000,0"/>'), "neither"),
        (
            (_init(), '<T52/><AGARI who="0" fromWho="0" machi="52" ten="30,1000,0" yaku="99,1"/>'),
            "unknown yaku id 99",
        ),
        ((_init(), EXHAUSTIVE.replace('ba="0,0"', 'owari="1,2"')), "owari='1,2' has fewer"),
        ((_init(), EXHAUSTIVE.replace('ba="0,0"', 'owari="250,a,1,1,1,1,1,1"')), "owari="),
        (
            (_init(), EXHAUSTIVE.replace('ba="0,0"', 'owari="250,0,250,0,250,0,250,0"'), _init()),
            "<INIT> after the game's final result",
        ),
    ],
)
def test_broken_logs_name_the_problem(body: tuple[str, ...], problem: str) -> None:
    assert problem in _error(_log(*body))


def test_header_problems() -> None:
    assert "only games where seat 0 deals first" in _error(
        _log(_init()).replace(b'TAIKYOKU oya="0"', b'TAIKYOKU oya="2"')
    )
    assert "no <UN> tag" in _error(_log(_init(), header=""))
    assert "<INIT> before the <GO> tag" in _error(_log(_init()).replace(b"<GO", b"<XX"))
    bad_dan, negative_dan = ROSTER.replace("0,9,", "0,x,"), ROSTER.replace("0,9", "-1,9")
    assert "bad dan or rate of seat 1" in _error(_log(_init(), header=bad_dan))
    assert "bad dan or rate of seat 0" in _error(_log(_init(), header=negative_dan))
    assert "<GO> after the first round" in _error(_log(_init(), '<GO type="9"/>'))


def _fuzz_cases(data: bytes, count: int, seed: int) -> list[bytes]:
    """Broken variants of a log: cut, bytes deleted, digits and letters changed."""
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        mutated = bytearray(data)
        how = rng.randrange(4)
        at = rng.randrange(len(mutated))
        if how == 0:
            del mutated[at:]
        elif how == 1:
            del mutated[at : at + rng.randrange(1, 20)]
        elif how == 2:
            mutated[at] = rng.choice(b"0123456789,-x<>/\"'& \x00\xff")
        else:
            for _ in range(5):
                spot = rng.randrange(len(mutated))
                if chr(mutated[spot]).isdigit():
                    mutated[spot] = rng.choice(b"0123456789")
        cases.append(bytes(mutated))
    return cases


def test_fuzzed_logs_read_or_raise_malformed() -> None:
    """Whatever the damage, read_mjlog returns a game or raises MalformedLogError: never a
    KeyError, IndexError, ValueError of its own or UnicodeError."""
    sources = [_log(*ROUND)]
    small = CORPUS / "mjlog_xml" / SMALL
    if small.exists():
        sources.append(small.read_bytes())
    for number, data in enumerate(sources):
        for case in _fuzz_cases(data, 400, seed=number):
            with contextlib.suppress(MalformedLogError):
                read_mjlog(case)


# -- encodings, compression, sniffing -------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_other_encodings_read_the_same(codec: str) -> None:
    data = _corpus_file(SANMA)  # player names beyond ASCII once decoded
    text = data.decode("utf-8")
    assert read_mjlog(text.encode(codec)) == read_mjlog(data)
    declared = f'<?xml version="1.0" encoding="{codec.upper()}"?>\n{text}'
    assert read_mjlog(declared.encode(codec)) == read_mjlog(data)


def test_reindented_xml_reads_the_same() -> None:
    data = _log(*ROUND)
    pretty = data.replace(b"><", b">\n    <").replace(b"/>", b" />")
    assert read_mjlog(b'<?xml version="1.0" encoding="UTF-8"?>\n' + pretty) == read_mjlog(data)


@pytest.mark.corpus
def test_gzip_reads_the_same() -> None:
    data = _corpus_file(SMALL)
    assert read_mjlog(gzip.compress(data)) == read_mjlog(data)
    assert FORMAT.read(gzip.compress(data)) == [read_mjlog(data)]


def test_sniff_mjlog() -> None:
    data = _log(*ROUND)
    assert FORMAT.sniff(data)
    assert FORMAT.sniff(data.decode().encode("utf-16"))
    assert FORMAT.sniff(data.decode().encode("utf-16-le"))  # no byte-order mark
    assert FORMAT.sniff(b'\xef\xbb\xbf<?xml version="1.0"?>\n<!-- from tenhou -->\n' + data)
    assert FORMAT.sniff(b"  \n" + data)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b'{"format": "mjlogs-canonical", "version": 1, "players": ["<mjloggm"]}',
        b'{"ver":2.3,"ref":"2010081709gm-00a9-0000-fe3371ad","log":[]}',
        b'{"type":"start_game","names":["a","b","c","d"]}\n{"type":"end_game"}\n',
        b"<html><body><mjloggm/></body></html>",
        b"<?xml version='1.0'",
    ],
)
def test_sniff_refuses_other_formats(data: bytes) -> None:
    assert not FORMAT.sniff(data)


@pytest.mark.corpus
def test_sniff_on_the_corpus() -> None:
    if not CORPUS.exists():
        pytest.skip(MISSING)
    for row in csv.DictReader((CORPUS / "MANIFEST.tsv").open(encoding="utf-8"), delimiter="\t"):
        data = (CORPUS / row["path"]).read_bytes()
        assert FORMAT.sniff(data) == (row["format"] == "mjlog_xml"), row["path"]


@pytest.mark.parametrize(
    ("name", "log_id"),
    [
        ("2010081709gm-00a9-0000-fe3371ad.mjlog", "2010081709gm-00a9-0000-fe3371ad"),
        ("x/2010091009gm-00a9-0000-83af2648&tw=2.mjlog", "2010091009gm-00a9-0000-83af2648"),
        # A tournament lobby has 5 digits.
        (
            "https://tenhou.net/0/?log=2012060420gm-0009-10011-5ed1a2de&tw=1",
            "2012060420gm-0009-10011-5ed1a2de",
        ),
        ("1.txt", None),
        ("2010081709gm-00a9-0000.mjlog", None),
    ],
)
def test_log_id_from_name(name: str, log_id: str | None) -> None:
    assert log_id_from_name(name) == log_id


def test_format_entry() -> None:
    assert (FORMAT.name, FORMAT.title, FORMAT.write) == ("mjlog", "Tenhou mjlog XML", None)
    assert set(FORMAT.extensions) == {".mjlog", ".xml", ".txt"}
    assert FORMAT.read(_log(*ROUND)) == [read_mjlog(_log(*ROUND))]


def test_read_games_takes_the_log_id_from_the_file_name() -> None:
    data = gzip.compress(_log(*ROUND))
    (game,), fmt = read_games(data, file_name="dl/2010081709gm-00a9-0000-fe3371ad&tw=2.mjlog")
    assert fmt is FORMAT
    assert game.header.source.id == "2010081709gm-00a9-0000-fe3371ad"
    assert game.header.started_at == "2010-08-17T09:00:00+09:00"
    (nameless,), _ = read_games(data)
    assert (nameless.header.source.id, nameless.header.started_at) == (None, None)
