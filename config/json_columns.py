"""The encoder and decoder of our JSON columns: orjson, with the standard library's ``json``
wherever orjson would not do what ``json`` does.

Storing a game writes its canonical document (30-70 KB of JSON), and its verification the
report, the frames' index and a row of facts per player and hand; ``json`` took a twentieth of
an import's time on them, orjson takes a tenth of that. The text differs only in spelling
(no spaces, characters not escaped), never in the values read back. Where orjson refuses
(integers beyond 64 bits, keys that are not text, objects only an encoder subclass knows),
``json`` writes as before. NaN and the infinities, which are not JSON (PostgreSQL refuses
them), are written as ``null``. Reading, a text orjson refuses (``NaN``) or may misread (an
integer beyond 64 bits, which orjson turns into a float) is read by ``json`` as before.

Our models' JSON columns are :class:`JSONColumn`: a ``JSONField`` with these as its encoder and
decoder, which Django hands to ``json.dumps(value, cls=...)`` on every database (psycopg's
``Jsonb`` too) and to ``json.loads``.

A game's canonical document is the one large value, written once and read whole: it is a
:class:`PackedJSONColumn`, the same JSON text compressed (:mod:`config.compression`) in a
binary column. PostgreSQL spent 1.7 ms of its CPU storing a 30 KB document as ``jsonb`` and
0.5 ms reading it back, against 0.07 and 0.02 ms for the packed bytes (docs/performance.md,
"The stored document").
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

import orjson
from django.db import models

from config import compression
from engine.formats.base import holds_digit_run


class ColumnEncoder(json.JSONEncoder):
    """``json.dumps(value, cls=ColumnEncoder)``: orjson's text, else ``json``'s."""

    def encode(self, o: Any) -> str:
        try:
            return orjson.dumps(o, option=orjson.OPT_PASSTHROUGH_DATACLASS).decode()
        except TypeError:  # orjson.JSONEncodeError is one
            return super().encode(o)


#: Digits in a row from which an integer may be beyond 64 bits (2**63 has nineteen).
LONG_INTEGER_DIGITS = 19


def may_hold_long_integer(text: str | bytes) -> bool:
    """Whether ``text`` (or its UTF-8 bytes) has nineteen ASCII digits in a row: where an
    integer may be beyond 64 bits, which orjson reads as a float without a word (json reads it
    exactly). A name or a long fraction matching only costs json's slower reading."""
    return holds_digit_run(text, LONG_INTEGER_DIGITS)


#: What :func:`_read_by_orjson` gives for a text it leaves to json.
_NOT_READ: Final = object()


def _read_by_orjson(text: str | bytes) -> Any:
    """``text``'s value as orjson reads it, or :data:`_NOT_READ` where it must be json's: a
    text orjson refuses (``NaN``) or may misread (an integer beyond 64 bits)."""
    if not may_hold_long_integer(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return _NOT_READ


class ColumnDecoder(json.JSONDecoder):
    """``json.loads(text, cls=ColumnDecoder)``: orjson's reading, else ``json``'s."""

    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        value = _read_by_orjson(s)
        return super().decode(s, *args, **kwargs) if value is _NOT_READ else value


class JSONColumn(models.JSONField):
    """A ``JSONField`` written and read by :class:`ColumnEncoder` and :class:`ColumnDecoder`.

    It deconstructs as a plain ``JSONField``: the codec is no part of the schema, and a
    migration altering it would make SQLite copy every table holding such a column."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("encoder", ColumnEncoder)
        kwargs.setdefault("decoder", ColumnDecoder)
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, _, args, kwargs = super().deconstruct()
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        return name, "django.db.models.JSONField", args, kwargs

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        # What ColumnDecoder does, without the decoder Django builds for every value it reads
        # (json.loads(value, cls=...)): building it cost more than orjson's reading of a
        # fact's yaku, a fifth of the worker's CPU in a summaries' pass. Anything else (a
        # decoder of the caller's, a text orjson refuses or may misread, a value that is no
        # text) is read by Django's way, as before. (orjson, like json.loads, refuses a text
        # opening with a byte order mark.)
        if type(value) is str and self.decoder is ColumnDecoder:
            read = _read_by_orjson(value)
            if read is not _NOT_READ:
                return read
        return super().from_db_value(value, expression, connection)


def packed(value: Any) -> bytes:
    """``value``'s JSON text (as :class:`ColumnEncoder` writes it), compressed
    (:mod:`config.compression`)."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_PASSTHROUGH_DATACLASS)
    except TypeError:
        text = ColumnEncoder().encode(value).encode()
    return compression.compress(text)


def unpacked(data: bytes | bytearray | memoryview) -> Any:
    """The value :func:`packed` made ``data`` from (read as :class:`ColumnDecoder` reads)."""
    text = compression.decompress(data)
    value = _read_by_orjson(text)
    return json.loads(text) if value is _NOT_READ else value


if TYPE_CHECKING:
    # Generic in django-stubs only (set and got: any JSON value).
    _BinaryField = models.BinaryField[Any, Any]
else:
    _BinaryField = models.BinaryField


class PackedJSONColumn(_BinaryField):
    """A JSON value stored :func:`packed` in a binary column (``bytea``, SQLite's ``BLOB``):
    for a large value written once and read whole, which the database never looks into (no
    lookups by its members). The attribute is the value itself, as a ``JSONField``'s is; a
    fixture (``dumpdata``) holds its JSON text."""

    description = "JSON, compressed"
    if TYPE_CHECKING:  # what django-stubs' plugin reads a value of the column as
        _pyi_private_set_type: Any
        _pyi_private_get_type: Any

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else unpacked(value)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is None:
            return None
        if not isinstance(value, bytes | bytearray | memoryview):
            value = packed(value)  # (a value "prepared" by Django is still the value itself)
        return connection.Database.Binary(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):  # a fixture's JSON text (value_to_string)
            return json.loads(value)
        if isinstance(value, bytes | bytearray | memoryview):
            return unpacked(value)
        return value

    def value_to_string(self, obj: Any) -> str:
        return ColumnEncoder().encode(self.value_from_object(obj))
