"""The readers' JSON (engine/formats/base.py, ``json_loads``): parsed by the C scanner alone
unless the text holds a long run of digits, and then with ``json_int``, which refuses a number
of more than ``MAX_JSON_INT_DIGITS`` digits in the reader's own words.

The fast path must read every text as the careful one does, and must never let a long number
through: Python's own limit (4,300 digits) is far above the reader's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import MalformedLogError
from engine.formats import canonical, read_games
from engine.formats.base import MAX_JSON_INT_DIGITS, json_int, json_loads
from engine.sim.selfplay import simulate
from tests.engine.corpus import corpus_dir

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**30, max_value=10**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)


def careful(text: str | bytes) -> Any:
    return json.loads(text, parse_int=json_int)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_any_json_reads_as_the_careful_parse_reads_it(value: Any, as_bytes: bool) -> None:
    text = json.dumps(value, ensure_ascii=False)
    given_text: str | bytes = text.encode() if as_bytes else text
    assert json_loads(given_text) == careful(given_text)


@pytest.mark.parametrize("digits", [MAX_JSON_INT_DIGITS + 1, 2_000, 4_000])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_number_longer_than_the_limit_is_refused_in_the_readers_words(
    digits: int, as_bytes: bool
) -> None:
    # (Below Python's own limit of 4,300 digits: the scanner alone would read these.)
    text = '{"scores": [25000, ' + "9" * digits + "]}"
    with pytest.raises(MalformedLogError, match=f"a number of {digits:,} digits"):
        json_loads(text.encode() if as_bytes else text)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32", "utf-32-be"])
def test_bytes_read_as_utf16_or_utf32_are_parsed_the_careful_way(encoding: str) -> None:
    # (A NUL byte parts every digit from the next: the scan would see no run at all.)
    digits = MAX_JSON_INT_DIGITS + 1
    with pytest.raises(MalformedLogError, match=f"a number of {digits:,} digits"):
        json_loads(f"[{'9' * digits}]".encode(encoding))
    assert json_loads('{"scores": [25000, -1]}'.encode(encoding)) == {"scores": [25000, -1]}


def test_a_negative_number_counts_its_digits_without_the_sign() -> None:
    at_limit = "-" + "9" * MAX_JSON_INT_DIGITS
    assert json_loads(f"[{at_limit}]") == [int(at_limit)]
    with pytest.raises(MalformedLogError, match=f"{MAX_JSON_INT_DIGITS + 1:,} digits"):
        json_loads(f"[-{'9' * (MAX_JSON_INT_DIGITS + 1)}]")


def test_a_long_run_of_digits_in_a_string_is_read_as_it_is() -> None:
    name = "7" * (MAX_JSON_INT_DIGITS + 500)
    text = json.dumps({"name": name, "scores": [25000, 31000]}, ensure_ascii=False)
    assert json_loads(text) == {"name": name, "scores": [25000, 31000]}


def test_digits_around_multibyte_characters_are_counted_as_runs() -> None:
    # UTF-8 gives no byte of another character a digit's value: "東" between digits breaks a run.
    half = "1" * (MAX_JSON_INT_DIGITS // 2 + 1)
    assert json_loads(json.dumps(f"{half}東{half}", ensure_ascii=False)) == f"{half}東{half}"


@pytest.mark.parametrize("field", ["scores", "honba"])
def test_a_canonical_record_with_a_long_figure_is_refused_naming_its_digits(field: str) -> None:
    document = canonical.game_to_json(next(simulate("tenhou-4p", 1, seed=3)))
    first = document["rounds"][0]
    if field == "scores":
        first["scores"][0] = "@long@"
    else:
        first[field] = "@long@"
    digits = MAX_JSON_INT_DIGITS + 20
    text = json.dumps(document, ensure_ascii=False).replace('"@long@"', "9" * digits)
    with pytest.raises(MalformedLogError, match=f"a number of {digits:,} digits"):
        canonical.loads(text.encode())


def test_a_canonical_record_reads_as_before() -> None:
    game = next(simulate("tenhou-4p", 1, seed=4))
    assert canonical.loads(canonical.dumps(game).encode()) == [game]


def test_tenhou6_records_of_the_corpus_read_as_the_careful_parse_reads_them() -> None:
    paths = sorted(Path(corpus_dir(), "tenhou6_json").rglob("*.json"))[:20]
    if not paths:
        pytest.skip("no tenhou.net/6 records in the shared corpus")
    for path in paths:
        data = path.read_bytes()
        assert json_loads(data) == careful(data), path
        assert read_games(data, file_name=path.name)[0]
