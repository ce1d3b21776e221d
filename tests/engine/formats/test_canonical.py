"""The canonical JSON codec (engine/formats/canonical.py).

Games are built here from the event classes, so every event type and every optional value is
covered whatever the readers of other formats produce. The codec does not judge legality (the
replayer does), so the games are plausible, not necessarily playable. The builders are also used
by test_schema.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import MalformedLogError
from engine.events import (
    EVENT_TYPES,
    FORMAT_VERSION,
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
    Swap,
    Wall,
    Win,
)
from engine.formats import canonical
from engine.tiles import Tile, parse_tile, parse_tiles


def t(text: str) -> Tile:
    """One tile in MPSZ."""
    return parse_tile(text)


def ts(text: str) -> tuple[Tile, ...]:
    """Tiles in MPSZ, in the order written."""
    return tuple(parse_tiles(text))


# -- games built for the tests -------------------------------------------------------------------


def _round(
    wind: int,
    number: int,
    events: tuple[Event, ...],
    *,
    players: int = 4,
    points: int = 25000,
    honba: int = 0,
    sticks: int = 0,
    **extra: Any,
) -> Round:
    hands = (
        ts("12345m406p789s22z"),
        ts("199m1199p1199s55z"),
        ts("2345678m234p345s"),
        ts("55m666p77s123z567z"),
    )[:players]
    return Round(
        wind=wind,
        number=number,
        dealer=(number - 1) % players,
        honba=honba,
        sticks=sticks,
        scores=(points,) * players,
        hands=hands,
        dora_indicators=(t("3z"),),
        events=events,
        **extra,
    )


def four_player_game() -> Game:
    """A Tenhou-style hanchan cut to six rounds: every 4-player event type, a double ron, every
    round end, recorded values with and without each optional field, and a final result."""
    calls_and_double_ron = (
        Draw(0, t("1z")),
        Discard(0, t("1z"), tsumogiri=True),
        Draw(1, t("3m")),
        Discard(1, t("9p")),
        Chi(2, from_seat=1, tile=t("9p"), consumed=ts("78p")),
        Discard(2, t("1s")),
        Pon(0, from_seat=2, tile=t("1s"), consumed=ts("11s")),
        Discard(0, t("2z")),
        Draw(3, t("5p")),
        Discard(3, t("5p"), tsumogiri=True),
        OpenKan(1, from_seat=3, tile=t("5p"), consumed=ts("055p")),
        Draw(1, t("8m")),
        DoraRevealed(t("6s")),
        Discard(1, t("8m"), tsumogiri=True),
        Draw(2, t("7z")),
        ClosedKan(2, tiles=ts("7777z")),
        DoraRevealed(t("2z")),
        Draw(2, t("3s")),
        Discard(2, t("4s")),
        Draw(3, t("1m")),
        Discard(3, t("1m"), tsumogiri=True),
        Draw(0, t("1s")),
        AddedKan(0, t("1s")),
        Draw(0, t("9m")),
        DoraRevealed(t("4m")),
        Discard(0, t("9m"), tsumogiri=True),
        Draw(1, t("2p")),
        RiichiDeclared(1),
        Discard(1, t("2p"), tsumogiri=True),
        RiichiAccepted(1),
        Draw(2, t("0m")),
        Discard(2, t("0m"), tsumogiri=True),
        Win(
            1,
            from_seat=2,
            tile=t("0m"),
            recorded=RecordedWin(
                han=5,
                fu=40,
                yaku=(("riichi", 1), ("dora", 3), ("ura_dora", 1)),
                points=8000,
                limit="mangan",
                deltas=(0, 9000, -8000, 0),
                hand=ts("23406m"),
            ),
        ),
        Win(
            3,
            from_seat=2,
            tile=t("0m"),
            recorded=RecordedWin(han=1, fu=30, yaku=(("tanyao", 1),), points=1000),
        ),
    )
    rounds = (
        _round(0, 1, calls_and_double_ron, ura_indicators=(t("3p"),)),
        _round(
            0,
            2,
            (ExhaustiveDraw(recorded_tenpai=(0, 3), recorded_deltas=(1500, -1500, -1500, 1500)),),
        ),
        _round(0, 3, (Draw(2, t("9s")), AbortiveDraw(AbortKind.NINE_TERMINALS, seat=2))),
        _round(
            0,
            4,
            (
                Draw(3, t("2m")),
                Discard(3, t("2m"), tsumogiri=True),
                AbortiveDraw(AbortKind.TRIPLE_RON, seat=3, recorded_deltas=(0, 0, 0, 0)),
            ),
            honba=1,
            sticks=1,
        ),
        _round(
            1,
            1,
            (
                Draw(0, t("9m")),
                Discard(0, t("9m"), tsumogiri=True),
                NagashiMangan(seats=(1,), recorded_deltas=(-4000, 8000, -2000, -2000)),
            ),
            honba=2,
        ),
        _round(
            1,
            2,
            (
                ScoreChange(deltas=(-8000, 2000, 4000, 2000), reason="chombo"),
                Draw(1, t("7z")),
                # A rule modifier's action (engine.rules.modifiers): the codec carries it as any.
                Swap(1, t("0s"), t("3z")),
                Win(
                    1,
                    from_seat=1,
                    tile=t("7z"),
                    recorded=RecordedWin(
                        han=13,
                        fu=30,
                        yaku=(("daisangen", 13),),
                        points=48000,
                        limit="yakuman",
                        deltas=(-48000, 48000, 0, 0),
                        liable=0,
                    ),
                ),
            ),
        ),
    )
    header = GameHeader(
        ruleset="tenhou-4p",
        rule_overrides={},
        players=(
            Player("Aさん", rank="七段", rating=2105.5),
            Player("B", rank="新人"),
            Player("C"),
            Player("D", rating=1500.0),
        ),
        source=Source(
            format="mjlog",
            id="2010081709gm-00a9-0000-fe3371ad",
            extra={"lobby": "0", "go_type": "169"},
        ),
        started_at="2010-08-17T09:00:00+09:00",
    )
    final = FinalResult(scores=(-11000, 70500, 18500, 22000), results=(-51.0, 80.5, 4.5, -34.0))
    return Game(header=header, rounds=rounds, recorded_final=final)


def sanma_game() -> Game:
    """A 3-player self-play round: North extraction, a wall, a tsumo with 3 deltas; unfinished."""
    events = (
        Draw(0, t("4z")),
        NorthExtraction(0, t("4z")),
        Draw(0, t("1p")),
        Discard(0, t("1p"), tsumogiri=True),
        Draw(1, t("9m")),
        Discard(1, t("9m"), tsumogiri=True),
        Draw(2, t("0s")),
        Win(
            2,
            from_seat=2,
            tile=t("0s"),
            recorded=RecordedWin(
                han=3,
                fu=30,
                yaku=(("menzen_tsumo", 1), ("dora", 1), ("aka_dora", 1)),
                points=3000,
                deltas=(-2000, -1000, 3000),
            ),
        ),
    )
    wall = Wall(
        live=ts("4z9m0s") + ts("123456789p"),
        replacements=ts("1p2p"),
        dora_indicators=ts("3z6p"),
        ura_indicators=ts("7z1s"),
    )
    header = GameHeader(
        ruleset="tenhou-3p",
        rule_overrides={"kiriage": True, "uma": [20, 0, -20]},
        players=(Player("north"), Player("east"), Player("west")),
        source=Source(format="sim"),
        started_at="2024-05-01",
    )
    round_ = _round(0, 1, events, players=3, points=35000, wall=wall)
    return Game(header=header, rounds=(round_,))


def empty_game() -> Game:
    """The least a game can be: two players, no rounds, nothing optional."""
    header = GameHeader(
        ruleset="tenhou-4p",
        rule_overrides={},
        players=(Player("a"), Player("b")),
        source=Source(format="canonical"),
    )
    return Game(header=header, rounds=())


BUILDERS = {"four_player": four_player_game, "sanma": sanma_game, "empty": empty_game}


def four_player_doc() -> dict[str, Any]:
    """A fresh JSON object of the 4-player game."""
    return canonical.game_to_json(four_player_game())


def event_index(doc: dict[str, Any], round_index: int, type_: str) -> int:
    """Where the first event of ``type_`` is in a round of a document."""
    events = doc["rounds"][round_index]["events"]
    return next(i for i, event in enumerate(events) if event["type"] == type_)


# -- round trip -----------------------------------------------------------------------------------


def test_the_built_games_hold_every_event_type() -> None:
    seen = {
        event.type
        for build in BUILDERS.values()
        for round_ in build().rounds
        for event in round_.events
    }
    assert seen == set(EVENT_TYPES), f"add events of these types: {set(EVENT_TYPES) - seen}"


@pytest.mark.parametrize("name", BUILDERS)
def test_dumps_then_loads_gives_the_same_game(name: str) -> None:
    game = BUILDERS[name]()
    assert canonical.loads(canonical.dumps(game)) == [game]


@pytest.mark.parametrize("name", BUILDERS)
def test_indented_text_reads_the_same(name: str) -> None:
    game = BUILDERS[name]()
    assert canonical.loads(canonical.dumps(game, indent=2)) == [game]


def test_the_registered_format_writes_and_reads_back() -> None:
    games = [four_player_game(), sanma_game()]
    assert canonical.FORMAT.name == "canonical"
    assert canonical.FORMAT.write is not None
    assert canonical.FORMAT.read(canonical.FORMAT.write(games)) == games


def test_several_games_are_a_json_array_in_order() -> None:
    games = [sanma_game(), four_player_game(), empty_game()]
    data = canonical.write(games)
    parsed = json.loads(data)
    assert isinstance(parsed, list)
    assert [len(item["players"]) for item in parsed] == [3, 4, 2]
    assert canonical.loads(data) == games


def test_one_game_is_a_json_object() -> None:
    data = canonical.write([sanma_game()])
    assert isinstance(json.loads(data), dict)
    assert canonical.loads(data) == [sanma_game()]


def _json_lines(games: list[Game], newline: str = "\n") -> str:
    """Games one per line, as ``python -m engine simulate`` writes them."""
    return "".join(canonical.dumps(game) + newline for game in games)


def test_json_lines_hold_one_game_per_line() -> None:
    games = [four_player_game(), sanma_game(), empty_game()]
    assert canonical.loads(_json_lines(games)) == games
    assert canonical.loads(_json_lines(games, "\r\n").encode()) == games
    assert canonical.loads(_json_lines(games).replace("\n", "\n\n  \n", 1)) == games
    assert canonical.FORMAT.sniff(_json_lines(games).encode())


def test_an_error_in_a_json_line_names_the_line() -> None:
    lines = _json_lines([empty_game()] * 3).splitlines()
    lines[1] = lines[1].replace('"version": 1', '"version": 2')
    with pytest.raises(MalformedLogError, match="version 2 is not supported") as caught:
        canonical.loads("\n".join(lines))
    assert caught.value.where is not None
    assert caught.value.where.startswith("line 2")
    assert caught.value.where.endswith("version")
    lines[1] = "{not json"
    with pytest.raises(MalformedLogError, match="not valid JSON") as caught:
        canonical.loads("\n".join(lines))
    assert caught.value.where == "line 2"


def test_json_lines_after_a_utf8_bom_are_read() -> None:
    games = [empty_game(), sanma_game()]
    assert canonical.loads(b"\xef\xbb\xbf" + _json_lines(games).encode()) == games


def test_an_error_in_the_second_game_of_an_array_names_it() -> None:
    docs = [four_player_doc(), four_player_doc()]
    docs[1]["rounds"][2]["wind"] = 7
    with pytest.raises(MalformedLogError) as caught:
        canonical.loads(json.dumps(docs))
    assert caught.value.where == "[1].rounds[2].wind"


def test_text_is_utf8_without_escapes() -> None:
    data = canonical.write([four_player_game()])
    assert "Aさん".encode() in data
    assert "七段".encode() in data


# -- what the writer writes (docs/format.md) -----------------------------------------------------


def test_header_members() -> None:
    doc = canonical.game_to_json(empty_game())
    assert doc == {
        "format": "mjlogs-canonical",
        "version": 1,
        "ruleset": "tenhou-4p",
        "rule_overrides": {},
        "players": [{"name": "a"}, {"name": "b"}],
        "source": {"format": "canonical"},
        "started_at": None,
        "rounds": [],
        "final": None,
    }


def test_tiles_are_mpsz_strings_with_0_for_a_red_five() -> None:
    doc = four_player_doc()
    round_ = doc["rounds"][0]
    assert round_["hands"][0] == [
        "1m", "2m", "3m", "4m", "5m", "4p", "0p", "6p", "7s", "8s", "9s", "2z", "2z"
    ]  # fmt: skip
    assert round_["dora_indicators"] == ["3z"]
    open_kan = round_["events"][event_index(doc, 0, "open_kan")]
    assert open_kan == {
        "type": "open_kan",
        "seat": 1,
        "from_seat": 3,
        "tile": "5p",
        "consumed": ["0p", "5p", "5p"],
    }


def test_discards_always_carry_tsumogiri() -> None:
    events = four_player_doc()["rounds"][0]["events"]
    assert events[1] == {"type": "discard", "seat": 0, "tile": "1z", "tsumogiri": True}
    assert events[3] == {"type": "discard", "seat": 1, "tile": "9p", "tsumogiri": False}


def test_recorded_win_keeps_only_what_the_source_gave() -> None:
    events = four_player_doc()["rounds"][0]["events"]
    first, second = events[-2], events[-1]
    assert first["recorded"] == {
        "han": 5,
        "fu": 40,
        "yaku": [["riichi", 1], ["dora", 3], ["ura_dora", 1]],
        "points": 8000,
        "limit": "mangan",
        "deltas": [0, 9000, -8000, 0],
        "hand": ["2m", "3m", "4m", "0m", "6m"],
    }
    assert second["recorded"] == {"han": 1, "fu": 30, "yaku": [["tanyao", 1]], "points": 1000}


def test_absent_optional_values_are_left_out() -> None:
    doc = four_player_doc()
    assert "ura_indicators" not in doc["rounds"][1]
    assert "wall" not in doc["rounds"][1]
    bare = (Win(0, from_seat=0, tile=t("1z")), ExhaustiveDraw())
    game = Game(header=empty_game().header, rounds=(_round(0, 1, bare, players=2),))
    assert canonical.game_to_json(game)["rounds"][0]["events"] == [
        {"type": "win", "seat": 0, "from_seat": 0, "tile": "1z"},
        {"type": "exhaustive_draw"},
    ]


def test_abortive_draw_kind_is_its_name() -> None:
    events = four_player_doc()["rounds"][2]["events"]
    assert events[1] == {"type": "abortive_draw", "kind": "nine_terminals", "seat": 2}


def test_wall_and_final_members() -> None:
    sanma = canonical.game_to_json(sanma_game())
    assert sanma["rounds"][0]["wall"] == {
        "live": ["4z", "9m", "0s", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"],
        "replacements": ["1p", "2p"],
        "dora_indicators": ["3z", "6p"],
        "ura_indicators": ["7z", "1s"],
    }
    assert sanma["final"] is None
    assert four_player_doc()["final"] == {
        "scores": [-11000, 70500, 18500, 22000],
        "results": [-51.0, 80.5, 4.5, -34.0],
    }


# -- versions -------------------------------------------------------------------------------------


def test_a_newer_version_is_refused_with_a_clear_message() -> None:
    doc = four_player_doc()
    doc["version"] = FORMAT_VERSION + 1
    with pytest.raises(MalformedLogError) as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == "version"
    assert f"version {FORMAT_VERSION + 1} is not supported" in str(caught.value)
    assert f"reads 1 to {FORMAT_VERSION}" in str(caught.value)


@pytest.mark.parametrize(
    ("version", "words"),
    [(0, "version 0 is not supported"), ("1", "expected an integer"), (1.0, "expected an integer")],
)
def test_a_bad_version_is_refused(version: object, words: str) -> None:
    doc = four_player_doc()
    doc["version"] = version
    with pytest.raises(MalformedLogError, match=words) as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == "version"


def test_a_missing_version_is_refused() -> None:
    doc = four_player_doc()
    del doc["version"]
    with pytest.raises(MalformedLogError, match="missing") as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == "version"


# -- not JSON, hostile input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"   ",
        b"{",
        b'{"version": 1',
        b'<mjloggm ver="2.3"></mjloggm>',
        b"\xff\xfe\x00\xd8garbage",
        b"\x80\x81\x82",
        "{'version': 1}",
        '{"version": 1}{"version": 1}',
    ],
    ids=repr,
)
def test_what_is_not_json_is_refused(data: bytes | str) -> None:
    with pytest.raises(MalformedLogError, match="not valid JSON"):
        canonical.loads(data)


def test_truncated_documents_are_refused() -> None:
    text = canonical.dumps(four_player_game())
    for end in range(0, len(text), max(1, len(text) // 50)):
        with pytest.raises(MalformedLogError):
            canonical.loads(text[:end])


@pytest.mark.parametrize(
    "value", [1, "game", None, True, [1], [[]]], ids=lambda value: json.dumps(value)
)
def test_a_document_that_is_not_a_game_object_is_refused(value: object) -> None:
    with pytest.raises(MalformedLogError, match="expected an object"):
        canonical.loads(json.dumps(value))


def test_out_of_range_numbers_are_refused_not_crashed_on() -> None:
    doc = four_player_doc()
    doc["rounds"][0]["events"][0]["seat"] = 10**100
    with pytest.raises(MalformedLogError, match="a seat is 0-5") as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == "rounds[0].events[0].seat"
    with pytest.raises(MalformedLogError, match="expected an integer"):
        canonical.loads('{"version": 1e999}')


@pytest.mark.parametrize("opener,closer", [("[", "]"), ('{"a":', "}")])
def test_deep_nesting_is_refused(opener: str, closer: str) -> None:
    depth = 100_000
    with pytest.raises(MalformedLogError):
        canonical.loads(opener * depth + "1" + closer * depth)


def test_an_integer_too_long_to_convert_is_refused() -> None:
    with pytest.raises(MalformedLogError):
        canonical.loads('{"version": ' + "9" * 5000 + "}")


@pytest.mark.parametrize("member", ['"rating": 2105.5', '"results": [-51.0'])
def test_a_number_beyond_float_range_is_refused(member: str) -> None:
    huge = "1" + "0" * 400
    number = member.split(": ")[1].lstrip("[")
    text = json.dumps(four_player_doc()).replace(member, member.replace(number, huge))
    assert huge in text
    with pytest.raises(MalformedLogError):
        canonical.loads(text)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(token: str) -> None:
    text = json.dumps(four_player_doc()).replace('"rating": 2105.5', f'"rating": {token}')
    assert token in text
    with pytest.raises(MalformedLogError):
        canonical.loads(text)


def test_null_tsumogiri_is_refused() -> None:
    """``null`` means "absent" only where absent means ``None``; a discard is tsumogiri or not."""
    doc = four_player_doc()
    doc["rounds"][0]["events"][1]["tsumogiri"] = None
    with pytest.raises(MalformedLogError, match="cannot be null") as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == "rounds[0].events[1].tsumogiri"


# -- wrong types at every level -------------------------------------------------------------------


def paths_in(value: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every path to a value inside ``value`` (not the root), parents before children."""
    found: list[tuple[str | int, ...]] = []
    if isinstance(value, dict):
        items: list[tuple[str | int, object]] = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return found
    for key, item in items:
        found.append((*path, key))
        found.extend(paths_in(item, (*path, key)))
    return found


def codec_path(path: tuple[str | int, ...]) -> str:
    """A path as the codec names it: ``rounds[0].events[3].tile``."""
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text


def _wrong_values(value: object) -> list[object]:
    """JSON values of another type than ``value`` (int and float count as one type: numbers)."""
    candidates: list[object] = ["x", 7, 1.5, True, [], {}]
    if isinstance(value, bool):
        return [item for item in candidates if not isinstance(item, bool)]
    if isinstance(value, int):
        return [item for item in candidates if isinstance(item, bool) or not isinstance(item, int)]
    if isinstance(value, float):
        return ["x", True, [], {}]
    return [item for item in candidates if type(item) is not type(value)]


#: Places the reader does not type-check, on purpose: any JSON value is fine there.
_UNCHECKED = {"format", "rule_overrides"}


def _checked_paths(doc: dict[str, Any]) -> list[tuple[str | int, ...]]:
    return [
        path
        for path in paths_in(doc)
        if path[0] not in _UNCHECKED and value_at(doc, path) is not None
    ]


def value_at(doc: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@pytest.mark.parametrize("name", ["four_player", "sanma"])
def test_a_wrong_type_anywhere_is_refused_naming_its_path(name: str) -> None:
    doc = canonical.game_to_json(BUILDERS[name]())
    problems = []
    for path in _checked_paths(doc):
        parent, key = value_at(doc, path[:-1]), path[-1]
        right = parent[key]
        for wrong in _wrong_values(right):
            parent[key] = wrong
            try:
                canonical.game_from_json(doc)
            except MalformedLogError as error:
                if error.where != codec_path(path):
                    problems.append(f"{codec_path(path)} = {wrong!r}: error names {error.where!r}")
            else:
                problems.append(f"{codec_path(path)} = {wrong!r}: accepted")
            finally:
                parent[key] = right
    assert not problems, "\n".join(problems[:20])


# -- random input (hypothesis) --------------------------------------------------------------------

_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["5m", "0p", "7z", "8z", "draw", "win", "nine_terminals", "mjlogs-canonical"])
)
_json_values = st.recursive(
    _json_scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=25,
)


def _loads_cleanly(text: str | bytes) -> list[Game] | None:
    """The games, or None when refused with MalformedLogError; any other exception escapes."""
    try:
        return canonical.loads(text)
    except MalformedLogError:
        return None


@settings(max_examples=300, deadline=None)
@given(_json_values)
def test_random_json_is_read_or_refused_cleanly(value: object) -> None:
    games = _loads_cleanly(json.dumps(value))
    if games is not None:
        assert canonical.loads(canonical.write(games)) == games


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_are_read_or_refused_cleanly(data: bytes) -> None:
    _loads_cleanly(data)


_DOC_PATHS = paths_in(four_player_doc())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(_DOC_PATHS),
    st.sampled_from(["replace", "delete", "add"]),
    _json_values,
)
def test_mutated_documents_are_read_or_refused_cleanly(
    path: tuple[str | int, ...], action: str, value: object
) -> None:
    doc = four_player_doc()
    parent = value_at(doc, path[:-1])
    key = path[-1]
    if action == "replace":
        parent[key] = value
    elif action == "delete":
        del parent[key]
    elif isinstance(parent, dict):
        parent["unknown_member"] = value
    else:
        parent.insert(key, value)
    games = _loads_cleanly(json.dumps(doc))
    if games is not None:
        # Whatever is accepted is a game the writer can write and the reader read back equal.
        assert canonical.loads(canonical.write(games)) == games


def test_an_unknown_event_member_is_refused() -> None:
    doc = four_player_doc()
    doc["rounds"][0]["events"][0]["tsumogiri"] = True  # a draw has no tsumogiri
    with pytest.raises(MalformedLogError, match=r"unknown member.*'tsumogiri'") as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == "rounds[0].events[0]"


def _win_with_recorded(doc: dict[str, Any]) -> str:
    """The path of the first win event that has recorded values."""
    for r, round_ in enumerate(doc["rounds"]):
        for e, event in enumerate(round_["events"]):
            if "recorded" in event:
                return f"rounds[{r}].events[{e}].recorded"
    raise AssertionError("the sample game has no recorded win")


def _object_at(doc: dict[str, Any], path: str) -> dict[str, Any]:
    """The object at a path like ``rounds[0].events[3]`` ('' is the document)."""
    obj: Any = doc
    for part in filter(None, path.replace("[", ".").replace("]", "").split(".")):
        obj = obj[int(part)] if part.isdigit() else obj[part]
    assert isinstance(obj, dict)
    return obj


@pytest.mark.parametrize(
    "path",
    ["", "players[1]", "source", "final", "rounds[0]", "rounds[0].wall", "recorded"],
)
def test_a_misspelt_member_is_refused_at_every_level(path: str) -> None:
    # Optional members are many; a misspelt one ("ura_indicator") silently dropped would change
    # the game without a word, so every object refuses what it does not know.
    doc = four_player_doc()
    if path == "rounds[0].wall":
        doc["rounds"][0]["wall"] = {
            "live": [],
            "replacements": [],
            "dora_indicators": doc["rounds"][0]["dora_indicators"],
            "ura_indicators": [],
        }
    if path == "recorded":
        path = _win_with_recorded(doc)
    _object_at(doc, path)["ura_indicator"] = []
    with pytest.raises(MalformedLogError, match=r"unknown member.*'ura_indicator'") as caught:
        canonical.loads(json.dumps(doc))
    assert caught.value.where == path


# -- sniffing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        canonical.write([empty_game()]),
        canonical.write([empty_game(), sanma_game()]),
        canonical.dumps(four_player_game(), indent=2).encode(),
        b"\xef\xbb\xbf" + canonical.write([empty_game()]),
        b"\r\n  \t" + canonical.write([empty_game()]),
    ],
    ids=["one game", "array", "indented", "utf-8 bom", "leading whitespace"],
)
def test_sniff_recognises_canonical_files(data: bytes) -> None:
    assert canonical.FORMAT.sniff(data)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b'<mjloggm ver="2.3"><SHUFFLE seed="mt19937ar-sha512-n288-base64,abc"/>',
        b'{"ver":2.3,"ref":"2010081709gm-00a9-0000-fe3371ad","log":[[[0,0,0]]],"name":["a"]}',
        b'{"type":"start_game","names":["a","b","c","d"]}\n{"type":"end_game"}\n',
        b'["mjlogs-canonical"]',
        b'"mjlogs-canonical"',
    ],
    ids=["empty", "mjlog", "tenhou6", "mjai", "array of a string", "a string"],
)
def test_sniff_rejects_other_data(data: bytes) -> None:
    assert not canonical.FORMAT.sniff(data)
