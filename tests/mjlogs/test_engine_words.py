"""The engine's and the import's messages in the page's language (issue 39,
``mjlogs.engine_words``): each sentence of the modules whose messages pages show has an entry in
the catalogue, so that a new one cannot silently stay English; a message without an entry is
shown in English, marked; seats become the players' names, tiles their names in the page's
language, and reasons inside reasons are translated in turn."""

# Japanese sentences have their own punctuation, English ones a typographic apostrophe.
# ruff: noqa: RUF001

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from mjlogs import discrepancy_words, engine_words
from mjlogs.engine_words import CATALOGUE, KINDS, Said, say

ROOT = Path(__file__).resolve().parents[2]

#: The modules whose every sentence a page may show: the riichi state machine's reasons for
#: refusing an event (a discrepancy), the readers' shared frames, the import's failures, the
#: link fetch's errors. The readers' own words and Ùzje's are left to the marked fallback.
COVERED = (
    *sorted((ROOT / "engine" / "state").glob("*.py")),
    ROOT / "engine" / "formats" / "base.py",
    ROOT / "engine" / "formats" / "__init__.py",
    ROOT / "engine" / "report.py",
    ROOT / "mjlogs" / "log_fetch.py",
    ROOT / "mjlogs" / "link_imports.py",
    ROOT / "mjlogs" / "storable.py",
    ROOT / "mjlogs" / "archives.py",
    ROOT / "mjlogs" / "reading.py",
    ROOT / "mjlogs" / "importing.py",
    ROOT / "mjlogs" / "storing.py",
    ROOT / "mjlogs" / "game_changes.py",
    ROOT / "mjlogs" / "verification_queue.py",
    ROOT / "mjlogs" / "uploads.py",
    ROOT / "mjlogs" / "tenhou_links.py",
)

#: Strings the reading below finds that are no sentence a page shows, each with why.
NOT_MESSAGES = {
    # A date built from a log id, and an internal error of the format registry.
    "{}-{}-{}T{}:00:00+09:00",
    "{}.FORMAT is not a Format",
    # The replay's own wording of a discrepancy and of where a hand stands: pages word the
    # discrepancy from its parts (mjlogs.discrepancy_words), never from these.
    "{}: {}: the rules give {}, the record says {}",
    "{}: illegal {}: {}; the record has {}",
    "{} dealt by seat {}, {} honba, {} riichi stick(s)",
    "{}({})",  # a refused event as the engine writes it: pages say the event from the record
    "{}-{}",  # a hand's name with its counters
    # Pieces that others put in a sentence: a path in an archive, a size, a game's label in
    # the import's log, a prefix and its message, the kinds of a power's words.
    "{}/{}",
    "{} MB",
    "game {} of {}",
    "{}{}",
    "it chose {}",
    "every seat has {}",
    "the powers chosen: {}",
    "seat {} {}",
    "{}; {}",
    "{}: {}",
    "{} (trying again in {} s)",
    "try {} of {}: {}",
    # Answers of the API or of programs, not shown on pages: a visibility the API refuses, a
    # duplicate's conflict (409), the import's own log lines.
    "visibility must be one of {}",
    "the games of one batch share their uploader and visibility",  # a caller's mistake
    "{}.{} has no max_length",  # a column of mjlogs.storable's table without a size: a bug
    "(no name)",  # a file's name when it has none
    "mjlogs-service/{} (a mahjong game-log service, importing games by link)",  # User-Agent
    "the same game is already {}{}; delete this copy instead",
    " (game {})",
    # A 403's reason: pages answer 403 with their own words, the API with DRF's.
    "only the game's uploader or staff may change or delete it",
}


def _template(node: ast.expr) -> str | None:
    """A string constant or an f-string as a shape: its words, each value as ``{}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
        )
    if isinstance(node, ast.IfExp):
        return None
    return None


def _messages(path: Path) -> set[str]:
    """The sentences a module writes: what its functions return or raise as text, the first
    argument of an error it makes or of any exception it raises, the ``error=``/``problem=``/
    ``skipped=`` of an outcome, and its module-level sentences (``WORKER_DIED = "..."``)."""
    tree = ast.parse(path.read_text())
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and node.value is not None:
            found.append(node.value)
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            found.append(node.exc.args[0])  # any exception raised with a message
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else ""
            name = node.func.attr if isinstance(node.func, ast.Attribute) else name
            if (name.endswith(("Error", "Refused")) or name == "Exception") and node.args:
                found.append(node.args[0])
            found.extend(
                keyword.value
                for keyword in node.keywords
                if keyword.arg in ("error", "problem", "skipped")
            )
    for node in tree.body:
        if isinstance(node, ast.Assign) and all(
            isinstance(target, ast.Name) and target.id.isupper() for target in node.targets
        ):
            found.append(node.value)
    shapes = set()
    for value in found:
        parts = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        for part in parts:
            shape = _template(part)
            # A sentence has a space in it: names, codes and paths are no message.
            if shape is not None and " " in shape.strip():
                shapes.add(shape)
    return shapes


def _shape(written: str) -> str:
    return re.sub(r"\{[a-z]+[0-9]?\}", "{}", written)


def test_every_sentence_pages_show_has_its_entry() -> None:
    catalogue = {_shape(entry.written) for entry in CATALOGUE}
    missing = sorted(
        f"{path.relative_to(ROOT)}: {shape}"
        for path in COVERED
        for shape in _messages(path)
        if shape not in catalogue and shape not in NOT_MESSAGES
    )
    assert missing == [], "add these to mjlogs/engine_words.py CATALOGUE:\n" + "\n".join(missing)


def test_the_check_sees_a_sentence_without_an_entry(tmp_path: Path) -> None:
    """The reading above finds a new sentence: the test can fail."""
    module = tmp_path / "new.py"
    module.write_text(
        "def check(seat):\n    return f'seat {seat} sneezes, which the rules forbid'\n"
    )
    catalogue = {_shape(entry.written) for entry in CATALOGUE}
    assert _messages(module) == {"seat {} sneezes, which the rules forbid"}
    assert not _messages(module) <= catalogue


def test_every_figure_a_replay_compares_has_its_words() -> None:
    """The ``what`` of every discrepancy the replayers write (riichi's and Ùzje's) is worded by
    mjlogs.discrepancy_words."""
    known = (
        set(discrepancy_words.WIN_FIELDS)
        | set(discrepancy_words.GAME_FIELDS)
        | discrepancy_words.ILLEGAL_WHATS
        | discrepancy_words.REFUSAL_WHATS
    )
    whats = set()
    for path in (
        ROOT / "engine" / "report.py",
        ROOT / "engine" / "replay.py",
        ROOT / "engine" / "variants" / "riichi" / "replay.py",
        ROOT / "engine" / "variants" / "uzje" / "replay.py",
    ):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else ""
            name = node.func.id if isinstance(node.func, ast.Name) else name
            if name == "differ" and len(node.args) >= 3:
                whats.add(_template(node.args[2]))
            elif name == "refused_report" and len(node.args) >= 2:
                whats.add(_template(node.args[1]))
            elif name == "append" and node.args and isinstance(node.args[0], ast.Tuple):
                whats.add(_template(node.args[0].elts[0]))
    # "{HAND} start", "{GAME} end": the ledger's unit words (hand and game, Ùzje's game and
    # match); "seat {seat}'s win: {what}": the checks above; a power's entry, worded apart.
    expanded = set()
    for what in whats - {None, "{}"}:
        assert what is not None
        if what == "{} start":
            expanded |= {"hand start", "game start"}
        elif what == "{} end":
            expanded |= {"game end", "match end"}
        elif what == "seat {}'s win: {}" or what.endswith("power)"):
            continue
        else:
            expanded.add(what)
    assert expanded - known == set()
    assert {"han", "points", "score changes", "final scores", "action"} <= expanded


# -- Saying it -------------------------------------------------------------------------------------

NAMES = ("Ann", "Ben", "Cho", "Dai")


@pytest.mark.parametrize(
    ("message", "english", "japanese"),
    [
        (
            "seat 1 discards 5m, which they do not hold",
            "Ben discards 5 man, which they do not hold",
            "Benが五萬を打牌していますが、その牌を持っていません",
        ),
        (
            "no discard now (seat 2 is to draw)",
            "no discard now (Cho is to draw)",
            "今は打牌できません（Choのツモ番です）",
        ),
        (
            "seat 0 draws a fifth 5 circles (red)",
            "Ann draws a fifth red 5 pin",
            "Annのツモ：5枚目の赤五筒",
        ),
        (
            "game 2 of 3: line 4: not valid JSON (Expecting value, column 1)",
            "game 2 of 3: line 4: not valid JSON (Expecting value, column 1)",
            "ファイルの3対局のうち2番目：4行目："
            "正しいJSONではありません（Expecting value, column 1）",
        ),
        (
            "try 1 of 3: Tenhou's log server did not answer within 10 s (trying again in 5 s)",
            "try 1 of 3: Tenhou’s log server did not answer within 10 s (trying again in 5 s)",
            "3回中1回目：天鳳の牌譜サーバーが10秒以内に応答しませんでした（5秒後にもう一度試します）",
        ),
        (
            "the record names 4 players, but round 2 (E2) has 3 starting scores",
            "the record names 4 players, but hand 2 (E2) has 3 starting scores",
            "牌譜には4人のプレイヤーがいますが、第2局（東2局）の開始時の持ち点は3人分です",
        ),
        (
            "the rank of seat 2 is 40 characters long; at most 32 are kept",
            "the rank of Cho is 40 characters long; at most 32 are kept",
            "Choの段位が40文字あります。保存できるのは32文字までです",
        ),
        (
            "the file is 22,031,138 bytes, 656 times its games' record (33,535 bytes): mostly "
            "bytes that are no part of any game; a file of more than 1,048,576 bytes may be at "
            "most 64 times its record",
            "the file is 22,031,138 bytes, 656 times its games’ record (33,535 bytes): mostly "
            "bytes that are no part of any game; a file of more than 1,048,576 bytes may be at "
            "most 64 times its record",
            "ファイルは22,031,138バイトで、対局の記録（33,535バイト）の656倍あります。"
            "大部分がどの対局にも属さないバイトです。1,048,576バイトを超えるファイルは記録の"
            "64倍までです",
        ),
    ],
)
def test_a_message_in_each_language(message: str, english: str, japanese: str) -> None:
    for language, expected in (("en", english), ("ja", japanese)):
        with translation.override(language):
            said = say(message, NAMES)
            assert said == Said(expected, True)
            assert said.plain() == expected


def test_a_message_without_an_entry_is_shown_in_english_and_marked() -> None:
    message = "rounds[2].events[4]: expected an integer, got a string"
    with translation.override("ja"):
        said = say(message, NAMES)
        assert said == Said(message, False) and said.marked
        assert said.plain().startswith(message) and "英語のまま" in said.plain()
        html = said.__html__()
        assert f'<span lang="en" class="untranslated">{message}</span>' in html
        assert "untranslated-mark" in html
    with translation.override("en"):
        assert not say(message).marked and say(message).plain() == message
        assert say(message).__html__() == message


def test_a_reason_inside_a_reason_without_an_entry_leaves_all_of_it_english() -> None:
    """No half translation: an entry whose inner reason has no entry does not match."""
    with translation.override("ja"):
        said = say("no discard now (the moon is full)", NAMES)
    assert not said.translated and said.text == "no discard now (the moon is full)"


def test_seats_without_names_are_numbered_from_one() -> None:
    with translation.override("en"):
        assert say("seat 0 is already in riichi").text == "Seat 1 is already in riichi"


def test_the_holes_match_what_the_engine_writes() -> None:
    for kind, (regex, _) in KINDS.items():
        assert re.compile(regex), kind
    assert engine_words.pattern("seat {seat} holds {tiles}").fullmatch("seat 2 holds 1m 2m 3m")
