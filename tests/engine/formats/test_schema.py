"""The JSON Schema of the canonical format (engine/schema/game.schema.json) and docs/format.md.

What the writer writes must validate; what the schema refuses in the tests below, the reader
must refuse too, naming the same place; a document the schema accepts must read; and the schema
and the documentation must list the same event types, members and names as the code.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine.errors import MalformedLogError
from engine.events import (
    EVENT_TYPES,
    FORMAT_VERSION,
    AbortKind,
    Discard,
    Draw,
    FinalResult,
    Game,
    GameHeader,
    Player,
    RecordedWin,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Source,
    Wall,
    Win,
)
from engine.formats import canonical, read_games
from engine.rules import PRESETS
from engine.rules.modifiers import modifier_entries
from engine.rules.yaku import YAKU
from engine.scoring import score_request
from engine.scoring.limits import base_points, yakuman_limit
from engine.sim.bots import GreedyBot
from engine.sim.selfplay import play_game
from engine.tiles import KINDS, Tile, parse_tiles
from engine.variants.uzje import scoring as uzje_scoring
from engine.variants.uzje.events import UZJE_EVENT_TYPES, BonusRevealed, Chow, FlowerExposed
from engine.variants.uzje.scoring import PATTERN_NAMES
from engine.variants.uzje.selfplay import simulate as uzje_simulate
from tests.engine.formats.test_canonical import (
    BUILDERS,
    codec_path,
    event_index,
    four_player_doc,
    paths_in,
    value_at,
)

SCHEMA: dict[str, Any] = json.loads(
    resources.files("engine").joinpath("schema", "game.schema.json").read_text(encoding="utf-8")
)
VALIDATOR = Draft202012Validator(SCHEMA)
#: The definitions by name: the header's own and the round parts (the riichi dialect's tiles,
#: events, yaku names and limits are the parts' defaults).
DEFS: dict[str, Any] = {**SCHEMA["$defs"], **SCHEMA["$defs"]["parts"]["$defs"]}
#: What the Ùzje dialect brings in place of the riichi parts.
UZJE_DEFS: dict[str, Any] = SCHEMA["$defs"]["uzje"]["$defs"]
FORMAT_DOC = Path(__file__).resolve().parents[3] / "docs" / "format.md"


def _schema_errors(doc: object) -> list[tuple[str | int, ...]]:
    """The instance path of every validation error."""
    return [tuple(error.absolute_path) for error in VALIDATOR.iter_errors(doc)]


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


# -- what the writer writes validates -------------------------------------------------------------


@pytest.mark.parametrize("name", BUILDERS)
def test_written_games_validate(name: str) -> None:
    doc = canonical.game_to_json(BUILDERS[name]())
    assert _schema_errors(doc) == []


def test_every_game_of_a_written_array_validates() -> None:
    docs = json.loads(canonical.write([build() for build in BUILDERS.values()]))
    assert len(docs) == len(BUILDERS)
    for doc in docs:
        assert _schema_errors(doc) == []


@pytest.mark.parametrize("kind", list(AbortKind))
def test_every_abort_kind_validates(kind: AbortKind) -> None:
    doc = four_player_doc()
    doc["rounds"][2]["events"][1]["kind"] = kind.value
    assert _schema_errors(doc) == []


# -- the schema lists what the code has ----------------------------------------------------------


def test_event_types_are_the_codes() -> None:
    assert DEFS["event"]["properties"]["type"]["enum"] == list(EVENT_TYPES)
    branches = {branch["if"]["properties"]["type"]["const"] for branch in DEFS["event"]["allOf"]}
    assert branches == set(EVENT_TYPES)


@pytest.mark.parametrize("name", EVENT_TYPES)
def test_each_event_has_the_members_of_its_class(name: str) -> None:
    cls = EVENT_TYPES[name]
    definition = DEFS[name]
    fields = dataclasses.fields(cls)
    without_default = {
        spec.name
        for spec in fields
        if spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING
    }
    assert set(definition["properties"]) == {"type"} | {spec.name for spec in fields}
    assert set(definition["required"]) == {"type"} | without_default
    assert definition["properties"]["type"] == {"const": name}
    assert definition["additionalProperties"] is False


@pytest.mark.parametrize(
    ("definition", "cls"),
    [
        ("round", Round),
        ("wall", Wall),
        ("player", Player),
        ("source", Source),
        ("final", FinalResult),
        ("recorded_win", RecordedWin),
    ],
)
def test_each_object_has_the_members_of_its_class(definition: str, cls: type) -> None:
    names = {spec.name for spec in dataclasses.fields(cls)}
    assert set(DEFS[definition]["properties"]) == names
    assert DEFS[definition]["additionalProperties"] is False


def test_top_level_members_are_what_the_writer_always_writes() -> None:
    written = canonical.game_to_json(BUILDERS["empty"]())
    assert set(SCHEMA["required"]) == set(written)
    # warnings is the one optional member: written only when a reader had something to say.
    assert set(SCHEMA["properties"]) == set(written) | {"warnings"}
    assert SCHEMA["additionalProperties"] is False
    assert SCHEMA["properties"]["format"]["const"] == canonical.FORMAT_MARK
    assert SCHEMA["properties"]["version"]["const"] == FORMAT_VERSION


def test_abort_kinds_are_the_codes() -> None:
    assert DEFS["abort_kind"]["enum"] == [kind.value for kind in AbortKind]


def test_yaku_names_are_the_engines_and_the_modifiers_entries() -> None:
    assert DEFS["yaku_name"]["enum"] == list(YAKU) + list(modifier_entries())
    assert "lucky_seven" in DEFS["yaku_name"]["enum"]


def test_every_limit_name_of_the_engine_is_accepted() -> None:
    ruleset = PRESETS["tenhou-4p"]
    names = {base_points(han, 30, ruleset)[1] for han in range(5, 14)}
    names |= {base_points(13, 30, PRESETS["ema-2016"])[1]}
    names |= {yakuman_limit(count)[1] for count in range(1, 9)}
    names.discard(None)
    assert {"mangan", "haneman", "baiman", "sanbaiman", "yakuman", "double_yakuman"} <= names
    pattern = re.compile(DEFS["limit"]["pattern"])
    assert [name for name in names if not pattern.search(str(name))] == []
    for wrong in ("Mangan", "yakuman2", "double", "kazoe", "x_yakuman"):
        assert not pattern.search(wrong), wrong


def _all_tiles() -> list[Tile]:
    plain = [Tile.from_kind(kind) for kind in range(KINDS)]
    return plain + [Tile.from_kind(kind, red=True) for kind in (4, 13, 22)]


def test_the_tile_pattern_accepts_every_tile_as_written() -> None:
    tile_schema = Draft202012Validator({"$defs": DEFS, "$ref": "#/$defs/tile"})
    written = [str(tile) for tile in _all_tiles()]
    assert len(set(written)) == 37
    assert [text for text in written if not tile_schema.is_valid(text)] == []


@pytest.mark.parametrize(
    "text", ["5x", "0z", "8z", "9z", "10m", "5mr", "m5", " 5m", "5m ", "5", "", "\uff11m", "E"]
)
def test_the_tile_pattern_refuses_what_is_not_one_tile(text: str) -> None:
    tile_schema = Draft202012Validator({"$defs": DEFS, "$ref": "#/$defs/tile"})
    assert not tile_schema.is_valid(text)


# -- what the schema refuses, the reader refuses at the same place --------------------------------

_DISCARD = ("rounds", 0, "events", 3)  # Discard(1, 9p) in the 4-player game
# The first winner of the double ron.
_FIRST_WIN = ("rounds", 0, "events", event_index(four_player_doc(), 0, "win"))


def _set(path: tuple[str | int, ...], value: object) -> Any:
    def mutate(doc: Any) -> None:
        value_at(doc, path[:-1])[path[-1]] = value

    return mutate


def _delete(path: tuple[str | int, ...]) -> Any:
    def mutate(doc: Any) -> None:
        del value_at(doc, path[:-1])[path[-1]]

    return mutate


#: (what, how to break the document, the path the reader must name)
BROKEN = [
    ("unknown event type", _set((*_DISCARD, "type"), "tsumo"), (*_DISCARD, "type")),
    ("missing seat", _delete((*_DISCARD, "seat")), (*_DISCARD, "seat")),
    ("bad tile 5x", _set((*_DISCARD, "tile"), "5x"), (*_DISCARD, "tile")),
    ("red honour", _set(("rounds", 0, "hands", 1, 0), "0z"), ("rounds", 0, "hands", 1, 0)),
    ("string score", _set(("rounds", 0, "scores", 1), "25000"), ("rounds", 0, "scores", 1)),
    ("string han", _set((*_FIRST_WIN, "recorded", "han"), "5"), (*_FIRST_WIN, "recorded", "han")),
    ("string version", _set(("version",), "1"), ("version",)),
    ("number tsumogiri", _set((*_DISCARD, "tsumogiri"), 1), (*_DISCARD, "tsumogiri")),
    ("seat 6", _set((*_DISCARD, "seat"), 6), (*_DISCARD, "seat")),
    ("negative seat", _set((*_FIRST_WIN, "from_seat"), -1), (*_FIRST_WIN, "from_seat")),
    ("unknown member", _set((*_DISCARD, "tsumogri"), True), _DISCARD),
    (
        "unknown abort kind",
        _set(("rounds", 2, "events", 1, "kind"), "nine_orphans"),
        ("rounds", 2, "events", 1, "kind"),
    ),
    ("wind 4", _set(("rounds", 1, "wind"), 4), ("rounds", 1, "wind")),
    ("number 0", _set(("rounds", 1, "number"), 0), ("rounds", 1, "number")),
    ("one player", _set(("players",), [{"name": "solo"}]), ("players",)),
    ("nameless player", _delete(("players", 2, "name")), ("players", 2, "name")),
    ("extra not a string", _set(("source", "extra", "lobby"), 0), ("source", "extra", "lobby")),
    (
        "yaku triple",
        _set((*_FIRST_WIN, "recorded", "yaku", 0), ["riichi", 1, 1]),
        (*_FIRST_WIN, "recorded", "yaku", 0),
    ),
    ("final scores", _set(("final", "scores"), 70500), ("final", "scores")),
    ("no events", _delete(("rounds", 3, "events")), ("rounds", 3, "events")),
    ("round not an object", _set(("rounds", 5), []), ("rounds", 5)),
    ("unknown game member", _set(("placement",), [1, 2, 3, 4]), ()),
    ("unknown round member", _set(("rounds", 1, "ura"), []), ("rounds", 1)),
    ("unknown player member", _set(("players", 0, "dan"), "1"), ("players", 0)),
    ("unknown source member", _set(("source", "url"), "x"), ("source",)),
    ("unknown final member", _set(("final", "placements"), [1]), ("final",)),
    (
        "unknown recorded member",
        _set((*_FIRST_WIN, "recorded", "fan"), 3),
        (*_FIRST_WIN, "recorded"),
    ),
]


@pytest.mark.parametrize(
    ("mutate", "where"), [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN]
)
def test_schema_and_reader_refuse_the_same_broken_documents(
    mutate: Any, where: tuple[str | int, ...]
) -> None:
    doc = four_player_doc()
    mutate(doc)
    errors = _schema_errors(doc)
    assert errors, "the schema accepted it"
    # The schema points at the value or at an object holding it, as the reader does.
    assert any(where[: len(path)] == path for path in errors), errors
    with pytest.raises(MalformedLogError) as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == codec_path(where)


def test_a_wall_without_live_tiles_is_refused_by_both() -> None:
    doc = canonical.game_to_json(BUILDERS["sanma"]())
    del doc["rounds"][0]["wall"]["live"]
    assert _schema_errors(doc) == [("rounds", 0, "wall")]
    with pytest.raises(MalformedLogError) as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == "rounds[0].wall.live"


# -- what the schema accepts, the reader reads ----------------------------------------------------

_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=8)
    # Bounded: the reader refuses numbers beyond float range, which JSON Schema accepts.
    | st.integers(min_value=-(10**30), max_value=10**30)
    # JSON Schema counts 2.0 as an integer and the reader does not (docs/format.md says so).
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer())
    | st.sampled_from(["1m", "0p", "7z", "4z", "win", "draw", "riichi", "mangan", "riichi"])
    | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["seat", "tile", "type", "x"]), children, max_size=3)
    ),
    max_leaves=8,
)


def _small_doc() -> dict[str, Any]:
    """The 4-player document cut to the rounds that hold every event type (validation is slow)."""
    doc = four_player_doc()
    doc["rounds"] = [doc["rounds"][index] for index in (0, 2, 4, 5)]
    return doc


_SMALL_PATHS = paths_in(_small_doc())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_SMALL_PATHS), st.booleans(), _values)
def test_a_document_the_schema_accepts_is_read(
    path: tuple[str | int, ...], delete: bool, value: object
) -> None:
    doc = _small_doc()
    parent = value_at(doc, path[:-1])
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    if VALIDATOR.is_valid(doc):
        games = canonical.loads(json.dumps(doc))
        assert len(games) == 1


# -- docs/format.md -------------------------------------------------------------------------------


def _example() -> dict[str, Any]:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    section = text[text.index("## A complete example") :]
    start = section.index("```json\n") + len("```json\n")
    block = section[start : section.index("\n```", start)]
    example: dict[str, Any] = json.loads(block)
    return example


def _example_game() -> Game:
    """The game the example describes, built independently of the JSON."""
    t = {str(tile): tile for tile in _all_tiles()}
    hands = tuple(
        tuple(parse_tiles(text))
        for text in (
            "12345m406p789s22z",
            "112p789m334s5677z",
            "239m358p1256s446z",
            "567m23778p406s35z",
        )
    )
    turns = [(0, "9p", "9p"), (1, "8p", "5z"), (2, "1z", "1z"), (3, "9s", "3z")]
    events: list[Any] = []
    for seat, drawn, discarded in turns:
        events += [Draw(seat, t[drawn]), Discard(seat, t[discarded], drawn == discarded)]
    events += [
        Draw(0, t["1z"]),
        RiichiDeclared(0),
        Discard(0, t["1z"], tsumogiri=True),
        RiichiAccepted(0),
        Draw(1, t["6m"]),
        Discard(1, t["6m"], tsumogiri=True),
        Win(
            0,
            from_seat=1,
            tile=t["6m"],
            recorded=RecordedWin(
                han=4,
                fu=30,
                yaku=(("riichi", 1), ("ippatsu", 1), ("pinfu", 1), ("aka_dora", 1)),
                points=11600,
                deltas=(12600, -11600, 0, 0),
                hand=tuple(parse_tiles("123456m406p789s22z")),
            ),
        ),
    ]
    round_ = Round(
        wind=0,
        number=1,
        dealer=0,
        honba=0,
        sticks=0,
        scores=(25000,) * 4,
        hands=hands,
        dora_indicators=(t["3z"],),
        events=tuple(events),
        ura_indicators=(t["1s"],),
    )
    header = GameHeader(
        ruleset="tenhou-4p",
        rule_overrides={},
        players=(
            Player("Asa", rank="七段", rating=2105.5),
            Player("Ben", rank="六段", rating=1984.0),
            Player("Chie"),
            Player("Dan"),
        ),
        source=Source(
            format="mjlog",
            id="2024010112gm-00a9-0000-5f1e2d3c",
            extra={"go_type": "169", "lobby": "0"},
        ),
        started_at="2024-01-01T12:00:00+09:00",
    )
    return Game(header=header, rounds=(round_,))


def test_the_documented_example_validates() -> None:
    assert _schema_errors(_example()) == []


def test_the_documented_example_is_what_the_writer_writes() -> None:
    game = _example_game()
    assert canonical.loads(json.dumps(_example())) == [game]
    assert canonical.game_to_json(game) == _example()


def test_the_documented_example_win_is_scored_as_recorded() -> None:
    win = _example()["rounds"][0]["events"][-1]
    recorded = win["recorded"]
    result = score_request(
        {
            "ruleset": "tenhou-4p",
            "hand": "".join(recorded["hand"]),
            "win": win["tile"],
            "riichi": True,
            "ippatsu": True,
            "dora": "3z",
            "ura": "1s",
            "discarder": "S",
        }
    )
    assert (result["han"], result["fu"], result["total"]) == (4, 30, recorded["points"])
    assert [[item["name"], item["han"]] for item in result["yaku"]] == recorded["yaku"]
    assert sum(recorded["deltas"]) == 1000  # the riichi stick the winner takes


def test_the_documentation_names_every_event_type_and_member() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    names = set(EVENT_TYPES) | {kind.value for kind in AbortKind}
    for cls in (*EVENT_TYPES.values(), Round, Wall, Player, Source, FinalResult, RecordedWin):
        names |= {spec.name for spec in dataclasses.fields(cls)}
    names |= set(SCHEMA["properties"])
    missing = sorted(name for name in names if f"`{name}`" not in text)
    assert not missing, f"docs/format.md does not mention: {missing}"


def test_the_documentation_table_has_every_format_column() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    table = text[text.index("## What each format can carry") :]
    assert "| | canonical | mjlog (read only) | tenhou6 | mjai |" in table
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert all(line.count("|") == 6 for line in rows), "every row needs five cells"


# -- real games -----------------------------------------------------------------------------------

CORPUS = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpus"


def _corpus_files() -> dict[str, list[str]]:
    """Corpus files (paths relative to the corpus) by format, in manifest order."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        pytest.skip(f"{CORPUS} not found: corpus tests need ../shared/corpus")
    files: dict[str, list[str]] = {}
    for line in manifest.read_text(encoding="utf-8").splitlines()[1:]:
        cells = line.split("\t")
        files.setdefault(cells[4], []).append(cells[0])
    return files


def _check_corpus(files: list[str]) -> None:
    """Every game read from ``files``, written as canonical JSON, follows the schema (our yaku and
    limit names, tile counts of calls, ...) and reads back equal."""
    problems: list[str] = []
    for relative in files:
        games, _ = read_games((CORPUS / relative).read_bytes())
        assert games, relative
        for game in games:
            doc = canonical.game_to_json(game)
            problems += [
                f"{relative}: {codec_path(tuple(error.absolute_path))}: {error.message[:100]}"
                for error in VALIDATOR.iter_errors(doc)
            ][:3]
            if canonical.loads(json.dumps(doc)) != [game]:
                problems.append(f"{relative}: does not read back equal")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.corpus
def test_corpus_games_of_every_format_validate_and_round_trip() -> None:
    by_format = _corpus_files()
    assert {"mjlog_xml", "tenhou6_json", "mjai_jsonl"} <= set(by_format)
    _check_corpus([name for files in by_format.values() for name in files[:1]])


@pytest.mark.corpus
@pytest.mark.slow
def test_every_corpus_game_validates_and_round_trips() -> None:
    """About a minute: schema validation of a whole hanchan takes half a second."""
    _check_corpus([name for files in _corpus_files().values() for name in files])


# -- dialects: Ùzje rounds, modified rule sets ----------------------------------------------------


def _uzje_doc(preset: str = "uzje-4p", seed: int = 5) -> dict[str, Any]:
    return canonical.game_to_json(uzje_simulate(1, seed, preset)[0])


@pytest.mark.parametrize("preset", ["uzje-3p", "uzje-4p", "uzje-5p", "uzje-6p"])
def test_self_played_uzje_games_validate(preset: str) -> None:
    for seed in range(3):
        assert _schema_errors(_uzje_doc(preset, seed)) == []


def test_uzje_event_types_are_the_codes() -> None:
    event = UZJE_DEFS["event"]
    assert event["properties"]["type"]["enum"] == list(UZJE_EVENT_TYPES)
    branches = {branch["if"]["properties"]["type"]["const"] for branch in event["allOf"]}
    assert branches == set(UZJE_EVENT_TYPES)


@pytest.mark.parametrize("cls", [FlowerExposed, Chow, BonusRevealed])
def test_each_uzje_event_has_the_members_of_its_class(cls: type) -> None:
    definition = UZJE_DEFS[cls.type]  # type: ignore[attr-defined]
    assert set(definition["properties"]) == {"type"} | {f.name for f in dataclasses.fields(cls)}
    assert set(definition["required"]) == set(definition["properties"])
    assert definition["additionalProperties"] is False


def test_uzje_pattern_names_are_the_scorers() -> None:
    assert UZJE_DEFS["yaku_name"]["enum"] == list(PATTERN_NAMES)
    # Every name the scorer can add is listed (a new pattern must be added to PATTERN_NAMES).
    source = Path(uzje_scoring.__file__).read_text(encoding="utf-8")
    added = set(re.findall(r'(?:add|append)\(\(?"([a-z0-9_]+)"', source))
    added |= set(re.findall(r'\("([a-z]+_wind)",', source))
    assert added, "the scorer's pattern names were not found"
    assert sorted(added - set(PATTERN_NAMES)) == []


def test_self_played_uzje_wins_use_listed_patterns_and_limits() -> None:
    names: set[str] = set()
    limits: set[str] = set()
    for game in uzje_simulate(6, 11, "uzje-4p"):
        for round_ in game.rounds:
            for event in round_.events:
                recorded = getattr(event, "recorded", None)
                if recorded is not None:
                    names |= {name for name, _ in recorded.yaku or ()}
                    limits |= {recorded.limit} if recorded.limit else set()
    assert names and names <= set(PATTERN_NAMES)
    pattern = re.compile(UZJE_DEFS["limit"]["pattern"])
    assert all(pattern.search(limit) for limit in limits)
    assert not pattern.search("mangan") and not pattern.search("0l")


@pytest.mark.parametrize(
    ("make_doc", "foreign_tile"),
    [(_uzje_doc, "1z"), (lambda: four_player_doc(), "xm")],
    ids=["riichi tile in an Ùzje game", "Ùzje tile in a riichi game"],
)
def test_a_tile_of_the_other_dialect_is_refused_by_schema_and_reader(
    make_doc: Any, foreign_tile: str
) -> None:
    doc = make_doc()
    doc["rounds"][0]["hands"][0][0] = foreign_tile
    assert _schema_errors(doc) == [("rounds", 0, "hands", 0, 0)]
    with pytest.raises(MalformedLogError, match=re.escape(foreign_tile)):
        read_games(json.dumps(doc).encode())


def test_a_riichi_event_in_an_uzje_game_is_refused_by_schema_and_reader() -> None:
    doc = _uzje_doc()
    doc["rounds"][0]["events"].insert(0, {"type": "riichi", "seat": 0})
    assert _schema_errors(doc) == [("rounds", 0, "events", 0, "type")]
    with pytest.raises(MalformedLogError, match="riichi"):
        read_games(json.dumps(doc).encode())


def test_a_lucky_sevens_game_validates_with_its_entries() -> None:
    lucky = PRESETS["tenhou-4p"].replace(modifiers=("lucky_sevens",))
    rng = random.Random(7)
    docs = [
        canonical.game_to_json(play_game(lucky, [GreedyBot() for _ in range(4)], rng))
        for _ in range(8)
    ]
    assert all(_schema_errors(doc) == [] for doc in docs)
    assert "lucky_seven" in json.dumps(docs)
