"""What real tenhou.net/6 records bring besides Tenhou's own JSON, each read by its rule: a
converter's English words, ``//`` comment lines, a tenhou.net/5 ``#json=`` link, another
program's JSON that only looks like it, leagues without kan dora, and Tenhou's custom lobbies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from engine.errors import MalformedLogError, UnsupportedLogError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    DoraRevealed,
    ExhaustiveDraw,
    NagashiMangan,
    Win,
)
from engine.formats import read_games, sniff_head, tenhou6
from engine.formats.tenhou6 import parse_yaku
from engine.replay import Verdict, replay
from engine.rules.presets import with_overrides
from engine.rules.ruleset import PointsRounding
from tests.engine.formats.test_tenhou6 import events_of, make_log, make_round, short_round, t

REAL = Path(__file__).resolve().parents[2] / "data" / "real"

# -- a converter's English words ------------------------------------------------------------------


def _end(result: list[Any]) -> object:
    """The last event of a one-round game whose dealer draws 1m and discards it."""
    return events_of(make_log(make_round([[11], [], [], []], [[60], [], [], []], result)))[-1]


@pytest.mark.parametrize(
    ("english", "japanese"),
    [
        # tensoul's romaji column (NAMEPREF 1), then its English one (NAMEPREF 2)
        ("Ryuukyoku", "流局"),
        ("Exhaustive Draw", "流局"),
        ("Suufon Renda", "四風連打"),
        ("Four Wind Abortion", "四風連打"),
        ("Suucha Riichi", "四家立直"),
        ("Four Riichi Abortion", "四家立直"),
        ("Suukaikan", "四開槓"),
        ("Four Kan Abortion", "四開槓"),
        ("Sanchahou", "三家和"),
        ("Three Ron Abortion", "三家和"),
    ],
)
def test_a_converters_english_result_means_what_tenhous_word_means(
    english: str, japanese: str
) -> None:
    deltas = [0, 0, 0, 0] if japanese == "流局" else []
    assert _end([english, deltas]) == _end([japanese, deltas])
    assert _end([english.upper(), deltas]) == _end([japanese, deltas])  # any case


def test_english_draws_read_as_their_kind() -> None:
    assert _end(["Ryuukyoku", [1500, -1500, 1500, -1500]]) == ExhaustiveDraw(
        (0, 2), (1500, -1500, 1500, -1500)
    )
    assert _end(["Four Wind Abortion"]) == AbortiveDraw(AbortKind.FOUR_WINDS)
    nagashi = ["Mangan at Draw", [12000, -4000, -4000, -4000]]
    assert _end(nagashi) == NagashiMangan((0,), (12000, -4000, -4000, -4000))
    assert _end(["Nagashi Mangan", nagashi[1]]) == _end(nagashi)


def test_english_nine_terminals_names_the_drawer() -> None:
    round_ = make_round([[], [41], [], []], [[], [], [], []], ["Kyuushu Kyuuhai"], kyoku=1)
    assert events_of(make_log(round_))[-1] == AbortiveDraw(AbortKind.NINE_TERMINALS, seat=1)
    round_[-1] = ["Nine Terminal Abortion"]
    assert events_of(make_log(round_))[-1] == AbortiveDraw(AbortKind.NINE_TERMINALS, seat=1)


def test_an_english_win_with_english_score_and_yaku() -> None:
    # tensoul with NAMEPREF 2: "Agari" is never written (its result needs 和了), but the
    # score's Fu and Han and Mahjong Soul's English yaku names are.
    result = ["Agari", [-3900, 0, 3900, 0], [2, 0, 2, "30Fu3Han3900点", "Kita(1飜)", "Dora(2飜)"]]
    round_ = make_round([[11], [], [], []], [[60], [], [], []], result)  # seat 2 rons the 1m
    win = events_of(make_log(round_))[-1]
    assert isinstance(win, Win) and win.recorded is not None
    assert win.recorded.yaku == (("kita", 1), ("dora", 2))
    assert (win.recorded.han, win.recorded.fu, win.recorded.points) == (3, 30, 3900)


@pytest.mark.parametrize(
    ("label", "name"),
    [
        # Mahjong Soul's fan names (tensoul's data.json, name_jp and name_en) not Tenhou's
        ("ダブル立直(2飜)", "double_riichi"),
        ("Kita(1飜)", "kita"),
        ("Four Little Winds(役満)", "shousuushii"),
        ("Four Big Winds(役満)", "daisuushii"),
        ("True Nine Gates(役満)", "junsei_chuuren"),
        ("Single-wait Four Concealed Triplets(役満)", "suuankou_tanki"),
        ("Thirteen-wait Thirteen Orphans(役満)", "kokushi_13"),
        ("Hand of Man(役満)", "renhou"),
    ],
)
def test_mahjong_souls_own_yaku_names(label: str, name: str) -> None:
    assert parse_yaku(label, seat_wind=0, round_wind=0)[0] == name


def test_an_unknown_result_word_is_still_refused() -> None:
    with pytest.raises(MalformedLogError, match="unknown result 'Chombo'"):
        tenhou6.read(make_log(make_round([[11], [], [], []], [[60], [], [], []], ["Chombo"])))


# -- // comment lines -----------------------------------------------------------------------------

ROUND = make_round([[11], [], [], []], [[60], [], [], []], ["流局", [0, 0, 0, 0]])
GAME = make_log(ROUND)


def test_a_comment_line_before_the_json_is_skipped_when_sniffing_and_reading() -> None:
    for data in (b"// exported by hand\n" + GAME, b"\xef\xbb\xbf  // a note\r\n" + GAME):
        assert sniff_head(data) is tenhou6.FORMAT
        games, fmt = read_games(data)
        assert fmt is tenhou6.FORMAT and games == tenhou6.read(GAME)


def test_comment_lines_between_json_lines_are_skipped() -> None:
    second = make_log(make_round([[], [11], [], []], [[], [60], [], []], ["全員不聴"], kyoku=1))
    data = b"// game of 2024-01-01\n" + GAME + b"\n// next hand\n\n" + second + b"\n// end\n"
    (game,) = tenhou6.read(data)
    assert len(game.rounds) == 2


def test_a_comment_line_inside_pretty_printed_json_is_skipped() -> None:
    obj = json.loads(GAME)
    lines = json.dumps(obj, ensure_ascii=False, indent=1).split("\n")
    lines.insert(len(lines) // 2, "   // hand E1: the dealer cuts 1m")
    data = "\n".join(lines).encode()
    assert tenhou6.read(data) == tenhou6.read(GAME)


def test_a_string_that_starts_a_line_with_slashes_is_no_comment() -> None:
    # Pretty-printed, each name stands on a line of its own, "//B" included: a line that
    # starts inside a JSON value (here with its quote) is never a comment.
    data = json.dumps(json.loads(make_log(ROUND, name=["A", "//B", "C", "D"])), indent=1)
    assert '\n  "//B",' in data
    (game,) = tenhou6.read(("// names\n" + data).encode())
    assert [player.name for player in game.header.players] == ["A", "//B", "C", "D"]


def test_a_comment_after_a_value_on_its_line_is_not_read_as_one() -> None:
    with pytest.raises(MalformedLogError, match="not valid JSON"):
        tenhou6.read(GAME + b" // trailing")


def test_a_file_of_comments_alone_is_no_game() -> None:
    assert sniff_head(b"// nothing here\n// at all\n") is None
    with pytest.raises(MalformedLogError, match="not valid JSON"):
        tenhou6.read(b"// nothing here\n")


# -- a tenhou.net link ----------------------------------------------------------------------------


def _link(record: bytes, encoded: bool, site: str = "https://tenhou.net/5/#json=") -> str:
    text = record.decode()
    return site + (quote(text, safe="") if encoded else text)


@pytest.mark.parametrize("encoded", [False, True])
def test_a_text_holding_a_link_is_read_as_the_record_in_it(encoded: bool) -> None:
    data = (_link(GAME, encoded) + "&ts=0&tw=2\n").encode()  # the viewer's own parameters
    assert sniff_head(data) is tenhou6.FORMAT
    games, fmt = read_games(data)
    assert fmt is tenhou6.FORMAT and games == tenhou6.read(GAME)


def test_links_among_other_words_one_a_round_make_one_game() -> None:
    # As converters hand them out: the editor's links (tenhou.net/6 shows one round), a line
    # each, with words around them.
    second = make_log(make_round([[], [11], [], []], [[], [60], [], []], ["全員不聴"], kyoku=1))
    text = "\n".join(
        [
            "/** 天凤牌谱",
            "E1: " + _link(GAME, True, "http://tenhou.net/6/#json="),
            "E2: " + _link(second, False, "tenhou.net/6/#json="),
            "*/",
        ]
    )
    (game,) = read_games(text.encode())[0]
    assert [round_.name for round_ in game.rounds] == ["E1", "E2"]


def test_a_link_as_a_browser_shows_it_half_encoded() -> None:
    text = _link(GAME, False).replace('"', "%22").replace(" ", "%20")  # #json={%22name%22:...}
    assert text.count("{") > 1 and "%22" in text
    assert tenhou6.read(text.encode()) == tenhou6.read(GAME)


def test_a_links_record_that_is_not_json_names_its_line() -> None:
    text = "my game:\n" + _link(b'{"log": [[0, 0', False) + " broken\n"
    with pytest.raises(MalformedLogError, match=r"^line 2: the record in the tenhou.net link"):
        tenhou6.read(text.encode())
    cut = "my game:\n" + _link(GAME[: len(GAME) // 2], True)
    with pytest.raises(MalformedLogError, match=r"line 2: .*was it cut short"):
        tenhou6.read(cut.encode())
    with pytest.raises(MalformedLogError, match="percent-encoded, but not as UTF-8"):
        tenhou6.read(b"https://tenhou.net/5/#json=%7B%FF%7D")


def test_a_text_without_a_link_is_no_record() -> None:
    assert sniff_head(b"see https://tenhou.net/0/?log=2010081709gm-00a9-0000-fe3371ad\n") is None
    # JSON that merely holds a link in a string is read as the JSON it is.
    assert sniff_head(b'{"note": "https://tenhou.net/5/#json={}"}') is None


# -- 電脳麻将's own JSON ---------------------------------------------------------------------------

#: A game as kobalab/majiang-core's Game writes its paipu (keys and events as in its
#: test/data/script.json): one round, cut short after a few plays.
MAJIANG: dict[str, Any] = {
    "title": "電脳麻将\n2024/01/01 12:00:00",
    "player": ["私", "下家", "対面", "上家"],
    "qijia": 0,
    "log": [
        [
            {
                "qipai": {
                    "zhuangfeng": 0,
                    "jushu": 0,
                    "changbang": 0,
                    "lizhibang": 0,
                    "defen": [25000, 25000, 25000, 25000],
                    "baopai": "p5",
                    "shoupai": [
                        "m127p234688s457z4",
                        "m56p1356689s145z1",
                        "m2358p240s389z457",
                        "m149p27s567z23566",
                    ],
                }
            },
            {"zimo": {"l": 0, "p": "s1"}},
            {"dapai": {"l": 0, "p": "z4"}},
            {"fulou": {"l": 2, "m": "z444-"}},
            {"dapai": {"l": 2, "p": "m8"}},
            {"pingju": {"name": "荒牌平局", "shoupai": ["", "", "", ""], "fenpei": [0, 0, 0, 0]}},
        ]
    ],
    "defen": [25000, 25000, 25000, 25000],
    "rank": [1, 2, 3, 4],
    "point": ["35", "5", "-15", "-25"],
}


@pytest.mark.parametrize(
    "data",
    [
        json.dumps(MAJIANG, ensure_ascii=False),
        json.dumps([MAJIANG, MAJIANG], ensure_ascii=False),  # a file of several games
        json.dumps({"log": MAJIANG["log"], "qijia": 1}),  # the keys in another order
    ],
)
def test_majiangs_own_json_is_unsupported_naming_the_format(data: str) -> None:
    with pytest.raises(UnsupportedLogError, match=r"電脳麻将 \(Majiang\) JSON game log"):
        read_games(data.encode())


def test_a_tenhou6_object_with_a_round_of_objects_is_still_malformed() -> None:
    with pytest.raises(MalformedLogError, match="a round has 17 elements, not 1"):
        tenhou6.read(make_log([{"zimo": {"l": 0, "p": "s1"}}]))


# -- leagues without kan dora ---------------------------------------------------------------------


def _closed_kan(dora: list[int], kyoku: int = 0) -> list[Any]:
    """The dealer draws 1m, declares a closed kan of 1m, draws 9m from the dead wall and
    discards it; nobody is tenpai."""
    takes: list[list[Any]] = [[], [], [], []]
    discards: list[list[Any]] = [[], [], [], []]
    takes[kyoku], discards[kyoku] = [11, 19], ["111111a11", 60]
    return make_round(takes, discards, ["全員不聴"], kyoku=kyoku, dora=dora)


def test_a_kan_that_turns_no_dora_in_a_game_without_any_is_unsupported_naming_the_rule() -> None:
    data = make_log(short_round(), _closed_kan([41], kyoku=1))
    with pytest.raises(UnsupportedLogError, match=r"log\[1\]\[2\]: .*without kan dora") as caught:
        read_games(data)
    assert "malformed" not in str(caught.value)
    # An open kan's, and an added kan's, likewise.
    open_kan = make_round(
        takes=[[11], [], ["45m454545", 16], []],
        discards=[[45], [], [0, 60], []],
        result=["流局", [-1000, -1000, 3000, -1000]],
        dora=[41],
    )
    with pytest.raises(UnsupportedLogError, match="without kan dora"):
        tenhou6.read(make_log(open_kan))


def test_a_kan_without_its_indicator_where_other_kans_turn_one_is_malformed() -> None:
    # The game has kan dora (its first round lists one): a round at odds with it is a fault.
    data = make_log(_closed_kan([41, 47]), _closed_kan([41], kyoku=1))
    with pytest.raises(MalformedLogError, match=r"log\[1\]\[2\]: a kan turns a dora, but only 1"):
        tenhou6.read(data)


def test_a_game_with_kan_dora_still_reads_them() -> None:
    (game,) = tenhou6.read(make_log(_closed_kan([41, 47])))
    assert DoraRevealed(t("7z")) in game.rounds[0].events


# -- Tenhou's custom and tournament lobbies -------------------------------------------------------

#: A custom lobby's rules (tenhou_csrule's layout): no kan dora, 30,000 points to start.
CSRULE = "00000020,00000000,,,30000"


def _rules_of(**header: Any) -> Any:
    (game,) = tenhou6.read(make_log(ROUND, **header))
    return game, with_overrides(game.header.ruleset, game.header.rule_overrides)


@pytest.mark.parametrize(
    "header",
    [
        {"rule": {"disp": "般南喰赤", "aka": 1, "csrule": CSRULE}},
        {"rule": {"disp": "般南喰赤", "aka": 1}, "csrule": CSRULE},  # beside rule
        {"rule": {"disp": "般南喰赤", "aka": 1, "csrule": CSRULE.split(",")}},  # as its fields
        {"rule": [{"disp": "般南喰赤", "aka": 1}, CSRULE]},  # rule as an array of its parts
        {"rule": ["般南喰赤", CSRULE]},
        {"rule": ["00000020", "00000000", "", "", 30000], "lobby": 1234},  # the fields alone
    ],
)
def test_a_custom_lobbys_rules_are_read_in_every_shape(header: dict[str, Any]) -> None:
    game, ruleset = _rules_of(**header)
    assert not ruleset.kan_dora and ruleset.starting_points == 30000
    assert not ruleset.unmodelled
    assert ruleset.points_rounding is PointsRounding.UNCHECKED  # its uma and rounding: its own
    assert game.header.source.extra["csrule"].startswith("00000020,00000000,")


def test_a_custom_lobby_number_leaves_the_points_unchecked() -> None:
    _, ruleset = _rules_of(lobby=1234)
    assert ruleset.points_rounding is PointsRounding.UNCHECKED and ruleset.kan_dora
    _, ranked = _rules_of(lobby=0)
    assert ranked.points_rounding is not PointsRounding.UNCHECKED


def test_parts_of_no_known_meaning_are_named_by_the_replay() -> None:
    game, ruleset = _rules_of(rule=["般南喰赤", {"aka": 1}, 42, "hand-made rules"])
    assert game.header.ruleset == "tenhou-4p"  # its disp, read from the array
    assert ruleset.unmodelled and '[42, "hand-made rules"]' in ruleset.unmodelled[0]
    report = replay(game)
    assert report.verdict is Verdict.UNSUPPORTED
    assert report.discrepancy is not None and "hand-made rules" in report.discrepancy.found


def test_a_rule_that_is_neither_object_nor_array_is_malformed() -> None:
    with pytest.raises(MalformedLogError, match="rule: expected an object or an array"):
        tenhou6.read(make_log(ROUND, rule="般南喰赤"))


def test_a_custom_lobbys_game_is_written_back_with_its_lobby() -> None:
    (game,) = tenhou6.read(make_log(ROUND, lobby=1234))
    assert game.header.rule_overrides == {"points_rounding": "unchecked"}
    written = json.loads(tenhou6.write([game]))
    assert written["lobby"] == 1234
    assert tenhou6.read(tenhou6.write([game])) == [game]


# Mahjong Soul's names as tensoul writes them with NAMEPREF 2 (English): its RUNES table for the
# results and score words, its data.json fan table (name_jp -> name_en) for the yaku.
_TENSOUL_ENGLISH_RESULTS = {"流局": "Exhaustive Draw", "九種九牌": "Nine Terminal Abortion"}
_TENSOUL_ENGLISH_YAKU = {
    "立直": "Riichi",
    "一発": "Ippatsu",
    "門前清自摸和": "Fully Concealed Hand",
    "断幺九": "All Simples",
    "平和": "Pinfu",
    "一盃口": "Pure Double Sequence",
    "三色同順": "Mixed Triple Sequence",
    "混一色": "Half Flush",
    "七対子": "Seven Pairs",
    "国士無双": "Thirteen Orphans",
    "海底摸月": "Under the Sea",
    "槍槓": "Robbing a Kan",
    "役牌 白": "White Dragon",
    "役牌 發": "Green Dragon",
    "役牌 中": "Red Dragon",
    "役牌:自風牌": "Seat Wind",
    "役牌:場風牌": "Prevalent Wind",
    "ドラ": "Dora",
    "赤ドラ": "Red Five",
    "裏ドラ": "Ura Dora",
    "抜きドラ": "Kita",
}
_TENSOUL_ENGLISH_LIMITS = {
    "満貫": "Mangan ",
    "跳満": "Haneman ",
    "倍満": "Baiman ",
    "役満": "Yakuman ",
}


def _in_tensouls_english(obj: dict[str, Any]) -> dict[str, Any]:
    """A tenhou.net/6 object with its words as tensoul writes them in English."""
    obj = json.loads(json.dumps(obj))
    for round_ in obj["log"]:
        result = round_[16]
        result[0] = _TENSOUL_ENGLISH_RESULTS.get(result[0], result[0])
        for detail in result[2::2] if result[0] == "和了" else []:
            score = detail[3].replace("符", "Fu").replace("飜", "Han")
            for japanese, english in _TENSOUL_ENGLISH_LIMITS.items():
                score = score.replace(japanese, english)
            detail[3] = score
            for i, text in enumerate(detail[4:], 4):
                name, value = text[: text.rfind("(")], text[text.rfind("(") :]
                detail[i] = _TENSOUL_ENGLISH_YAKU.get(name, name) + value
    return obj


@pytest.mark.parametrize(
    "path",
    sorted(
        path
        for folder in ("kbkn3__MahjongSoul-review-supporter", "hidacow__mjai-reviewer3p")
        for path in (REAL / "tenhou6_json" / folder).glob("*.json")
    ),
    ids=lambda path: path.name,
)
def test_real_mahjong_soul_records_in_tensouls_english_read_the_same(path: Path) -> None:
    japanese = tenhou6.read(path.read_bytes())
    lines = [line for line in path.read_text(encoding="utf-8-sig").split("\n") if line.strip()]
    try:
        objects = [json.loads("\n".join(lines))]
    except ValueError:
        objects = [json.loads(line) for line in lines]
    english = [_in_tensouls_english(obj) for obj in objects]
    text = "\n".join(json.dumps(obj, ensure_ascii=False) for obj in english)
    assert english != objects  # the words did change
    assert tenhou6.read(text.encode()) == japanese


#: Real tenhou.net/6 records of Tenhou games (mjlog2json's test data: one game, one object).
TENHOU_RECORDS = sorted((REAL / "tenhou6_json" / "tsubakisakura__mjlog2json").glob("*.json"))


@pytest.mark.parametrize("path", TENHOU_RECORDS[:3], ids=lambda path: path.name)
def test_real_records_read_the_same_in_a_link_and_with_comment_lines(path: Path) -> None:
    data = path.read_bytes()
    games = tenhou6.read(data)
    text = data.decode("utf-8-sig")
    # A saved viewer link, percent-encoded as encodeURIComponent writes it
    link = f"see https://tenhou.net/5/#json={quote(text.strip(), safe='')}&ts=3\n"
    assert read_games(link.encode()) == (games, tenhou6.FORMAT)
    # The record pretty-printed, a comment line before it and between its rounds
    lines = json.dumps(json.loads(text), ensure_ascii=False, indent=1).split("\n")
    commented = ["// " + path.name]
    for line in lines:
        if line.startswith("  ["):  # a round of log starts
            commented.append("  // next round")
        commented.append(line)
    assert commented.count("  // next round") == len(games[0].rounds) > 1
    assert read_games("\n".join(commented).encode()) == (games, tenhou6.FORMAT)
