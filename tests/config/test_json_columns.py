"""config.json_columns: our JSON columns are written and read by orjson, with json wherever
orjson would not do what json does, and the values read back are the values written."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from django.apps import apps
from django.db import models

from config import compression
from config.json_columns import (
    ColumnDecoder,
    ColumnEncoder,
    JSONColumn,
    PackedJSONColumn,
    may_hold_long_integer,
    packed,
    unpacked,
)
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import import_file
from mjlogs.models import Game


def written(value: Any) -> str:
    return json.dumps(value, cls=ColumnEncoder)  # as Django calls it


def read(text: str) -> Any:
    return json.loads(text, cls=ColumnDecoder)


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, None, True], "東": '南 \u2028 " \\ \n', "n": -0.0},
        [{"x": 1e-05, "y": 1e16}, []],
        {"big": 2**70 + 1},  # beyond orjson: json writes it
        "plain text",
    ],
)
def test_values_read_back_as_written(value: Any) -> None:
    assert read(written(value)) == value == json.loads(json.dumps(value))


def test_orjson_writes_what_it_can_and_json_the_rest() -> None:
    assert written({"a": [1, 2]}) == '{"a":[1,2]}'  # orjson's spelling: no spaces
    assert written({1: "a"}) == '{"1": "a"}'  # keys that are not text: json's
    assert written({"x": math.nan}) == '{"x":null}'  # not JSON: null, as documented


def test_texts_orjson_refuses_are_read_by_json() -> None:
    assert math.isnan(read('{"x": NaN}')["x"])
    big = read('{"big": 1180591620717411303425, "small": -9223372036854775809}')
    assert big == {"big": 2**70 + 1, "small": -(2**63) - 1}
    assert all(type(value) is int for value in big.values())
    with pytest.raises(json.JSONDecodeError):
        read("{not json")


COLUMN_TEXTS = [
    '{"a": [1, 2.5, null, true], "\u6771": "\u5357"}',
    '["riichi", "menzen_tsumo", "dora"]',
    '{"x": NaN, "y": Infinity}',  # not JSON: json reads it
    '{"big": 1180591620717411303425}',  # beyond 64 bits: json reads it exactly
    "{not json",  # Django gives such a text back as it is
    "\ufeff[1]",  # json.loads refuses a text opening with a byte order mark
    '"plain text"',
    "[]",
]


@pytest.mark.parametrize("text", COLUMN_TEXTS)
def test_a_column_reads_what_django_reads(text: str) -> None:
    column = JSONColumn()
    django_way = models.JSONField(decoder=ColumnDecoder)
    ours, theirs = (
        column.from_db_value(text, None, None),
        django_way.from_db_value(text, None, None),
    )
    assert json.dumps(ours) == json.dumps(theirs) and type(ours) is type(theirs)
    assert column.from_db_value(None, None, None) is None
    for way in (column, django_way):  # (a number is no text: refused alike)
        with pytest.raises(TypeError):
            way.from_db_value(7, None, None)


def test_a_column_builds_no_decoder_for_a_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[object] = []
    real_init = ColumnDecoder.__init__

    def counted(self: ColumnDecoder, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(ColumnDecoder, "__init__", counted)
    column = JSONColumn()
    assert column.from_db_value('["riichi", "dora"]', None, None) == ["riichi", "dora"]
    assert built == []
    assert column.from_db_value('{"big": 1180591620717411303425}', None, None) == {"big": 2**70 + 1}
    assert len(built) == 1  # (a long integer: json's reading, as before)
    other = JSONColumn(decoder=json.JSONDecoder)  # a decoder of the caller's is used
    assert other.from_db_value("[1]", None, None) == [1]


@pytest.mark.parametrize(
    ("text", "long"),
    [
        ("1" * 18, False),
        ("1" * 19, True),
        ('{"東南": 9223372036854775807}', True),  # after text of several bytes a character
        ("1" * 9 + "." + "1" * 9, False),
        ("1" * 10 + chr(0x661) * 9, False),  # Arabic-Indic digits are no JSON number's
        ('"\ud800" 1234567890123456789', True),
    ],
)
def test_a_run_of_nineteen_ascii_digits_may_be_a_long_integer(text: str, long: bool) -> None:
    assert may_hold_long_integer(text) is long


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, None, True], "東": '南 \u2028 " \\ \n', "n": -0.0},
        {"big": 2**70 + 1, "small": -(2**63) - 1, "edge": 2**63 - 1},  # json's, exactly
        {1: "a"},  # a key that is not text: json writes it
        [],
    ],
)
def test_packed_values_read_back_as_json_reads_them(value: Any) -> None:
    data = packed(value)
    assert compression.decompress(data) == written(value).encode()
    back = unpacked(data)
    assert back == json.loads(json.dumps(value))
    assert [type(item) for item in _numbers(back)] == [type(item) for item in _numbers(value)]


def _numbers(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [number for item in value.values() for number in _numbers(item)]
    if isinstance(value, list):
        return [number for item in value for number in _numbers(item)]
    return [value] if isinstance(value, int | float) else []


def test_a_packed_column_goes_in_a_fixture_as_json_text() -> None:
    field = Game._meta.get_field("document")
    assert isinstance(field, PackedJSONColumn)
    game = Game(document={"rounds": [], "n": 2**70})
    text = field.value_to_string(game)
    assert json.loads(text) == {"rounds": [], "n": 2**70}
    assert field.to_python(text) == field.to_python(packed(game.document)) == game.document


def test_every_json_column_of_our_models_uses_the_codec_and_needs_no_migration() -> None:
    ours = [
        field
        for app in ("mjlogs", "replay", "stats")
        for model in apps.get_app_config(app).get_models()
        for field in model._meta.get_fields()
        if isinstance(field, models.JSONField)
    ]
    assert len(ours) >= 9
    assert all(isinstance(field, JSONColumn) for field in ours)
    assert all(field.encoder is ColumnEncoder and field.decoder is ColumnDecoder for field in ours)
    _, path, _, kwargs = ours[0].deconstruct()
    assert path == "django.db.models.JSONField" and "encoder" not in kwargs


@pytest.mark.django_db
def test_a_stored_document_reads_back_as_the_canonical_document() -> None:
    (played,) = simulate("tenhou-4p-east", 1, 12)
    document = canonical.game_to_json(played)
    (outcome,) = import_file("g.json", json.dumps(document).encode())
    assert Game.objects.get(pk=outcome.game_id).document == document
