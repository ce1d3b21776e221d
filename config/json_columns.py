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
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models


class ColumnEncoder(json.JSONEncoder):
    """``json.dumps(value, cls=ColumnEncoder)``: orjson's text, else ``json``'s."""

    def encode(self, o: Any) -> str:
        try:
            return orjson.dumps(o, option=orjson.OPT_PASSTHROUGH_DATACLASS).decode()
        except TypeError:  # orjson.JSONEncodeError is one
            return super().encode(o)


#: Every byte but an ASCII digit made a space, and the digits ``0``: a text holds nineteen
#: digits in a row when its translation holds ``LONG_RUN``.
_DIGITS_ONLY = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
LONG_RUN = b"0" * 19


def may_hold_long_integer(text: str) -> bool:
    """Whether ``text`` has nineteen ASCII digits in a row: where an integer may be beyond 64
    bits, which orjson reads as a float without a word (json reads it exactly). A name or a
    long fraction matching only costs json's slower reading. (A translation and a substring
    search: a regular expression took 0.9 ms on a game's 30 KB document, five times orjson's
    reading of it.)"""
    return LONG_RUN in text.encode("utf-8", "surrogatepass").translate(_DIGITS_ONLY)


class ColumnDecoder(json.JSONDecoder):
    """``json.loads(text, cls=ColumnDecoder)``: orjson's reading, else ``json``'s."""

    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        if not may_hold_long_integer(s):
            try:
                return orjson.loads(s)
            except orjson.JSONDecodeError:
                pass
        return super().decode(s, *args, **kwargs)


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
