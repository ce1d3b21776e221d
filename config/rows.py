"""Inserting many rows of one model fast: one prepared ``INSERT`` run by ``executemany``.

Django's ``bulk_create`` compiles its SQL again for every batch, and SQLite's limit on
parameters makes the batches small (about 30 rows of a 30-column model): storing one game's
hand facts cost more than replaying the game (issue 21's profile). Here the statement is built
once and the database driver runs it for every row (``sqlite3`` and psycopg both run
``executemany`` without a round trip a row). Values go through each field's
``get_db_prep_save``, as ``bulk_create`` does, so JSON and dates are stored the same; fields
whose preparation leaves a value of the right type as it is (numbers, booleans, text, foreign
keys: :data:`PLAIN_TYPES`) are passed as they are, the per-value call being most of the cost.
Rows get no ids back and no signals are sent: for append-only rows such as
``stats.RoundFact``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection
from django.db.models import Field, Model

#: Fields whose database preparation returns a value of the right Python type unchanged.
PLAIN_TYPES = frozenset(
    {
        "AutoField", "BigAutoField", "BigIntegerField", "BooleanField", "CharField",
        "FloatField", "ForeignKey", "IntegerField", "PositiveBigIntegerField",
        "PositiveIntegerField", "PositiveSmallIntegerField", "SmallIntegerField", "TextField",
    }
)  # fmt: skip


def _preparer(field: Field[Any, Any]) -> Callable[[Any], Any] | None:
    """How a value of this field is prepared, or ``None`` when it is passed as it is."""
    if field.get_internal_type() in PLAIN_TYPES:
        return None
    return lambda value: field.get_db_prep_save(value, connection)


def insert_rows(model: type[Model], objects: Iterable[Model]) -> int:
    """Insert these unsaved instances of ``model`` (their primary keys left to the database);
    returns how many were inserted."""
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
    names = [field.attname for field in fields]
    prepared = [
        (index, prepare) for index, field in enumerate(fields) if (prepare := _preparer(field))
    ]
    values = []
    for obj in objects:
        row = [getattr(obj, name) for name in names]
        for index, prepare in prepared:
            row[index] = prepare(row[index])
        values.append(row)
    if values:
        with connection.cursor() as cursor:
            cursor.executemany(sql, values)
    return len(values)
