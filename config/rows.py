"""Inserting many rows of one model fast: PostgreSQL's ``COPY``, elsewhere one prepared
``INSERT`` run by ``executemany`` (inserting or updating by one prepared ``INSERT ... ON
CONFLICT``, and setting one column of many rows by one ``UPDATE``).

Django's ``bulk_create`` compiles its SQL again for every batch, and SQLite's limit on
parameters makes the batches small (about 30 rows of a 30-column model): storing one game's
hand facts cost more than replaying the game (issue 21's profile). Here the statement is built
once and the database driver runs it for every row (``sqlite3`` and psycopg both run
``executemany`` without a round trip a row). Values go through each field's
``get_db_prep_save``, as ``bulk_create`` does, so JSON and dates are stored the same; fields
whose preparation leaves a value of the right type as it is (numbers, booleans, text, foreign
keys: :data:`PLAIN_TYPES`) are passed as they are, the per-value call being most of the cost.
Rows are given as mappings of field names to values, not model instances: building an
instance of a 30-column model cost more than inserting it. They get no ids back and no signals
are sent: for append-only rows such as ``stats.RoundFact``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
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


def _column(field: Field[Any, Any]) -> str:
    """The column of a concrete field (``Field.column`` is ``None`` only for a field with no
    column of its own)."""
    if field.column is None:
        raise TypeError(f"{field} is not a column")
    return field.column


def insert_rows(model: type[Model], rows: Iterable[Mapping[str, Any]]) -> int:
    """Insert these rows of ``model``, each a mapping of its fields' attribute names
    (``game_id`` for a foreign key) to values, a field left out taking its default; primary
    keys are left to the database. Returns how many were inserted. A name that is no field is
    an error."""
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(field)) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
    names = [field.attname for field in fields]
    known = frozenset(names)
    defaults = {field.attname: field.get_default for field in fields}

    def listed(given: Mapping[str, Any]) -> list[Any]:
        if not known.issuperset(given):
            unknown = ", ".join(sorted(set(given) - known))
            raise TypeError(f"{model.__name__} has no field {unknown}")
        return [given[name] if name in given else defaults[name]() for name in names]

    values = _prepared(fields, map(listed, rows))
    if not values:
        return 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # COPY: one statement for every row, the rows streamed in PostgreSQL's text
            # format; about half the database's and the driver's work of running one
            # prepared INSERT a row (docs/performance.md, "Storing a verification").
            # (On the driver's own cursor, so its errors are wrapped as Django's are: a value
            # beyond a column is a DataError, which a verification's writer catches.)
            table = quote(model._meta.db_table)
            copy_sql = f"COPY {table} ({columns}) FROM STDIN"
            with connection.wrap_database_errors, cursor.cursor.copy(copy_sql) as copy:
                for row in values:
                    copy.write_row(row)
        else:
            cursor.executemany(sql, values)
    return len(values)


def upsert_rows(model: type[Model], rows: Sequence[Mapping[str, Any]], *, unique: str) -> int:
    """Insert these rows of ``model``, or where a row with the same value of the unique field
    ``unique`` is stored, set its fields to the given ones: one prepared ``INSERT ... ON
    CONFLICT (...) DO UPDATE`` run by ``executemany``. Every row gives the same fields
    (attribute names: ``player_id``), the primary key left to the database. Returns how many
    rows were given. (Django's ``bulk_create(update_conflicts=True)`` builds and quotes one
    array a column in Python: three times this one's CPU for 200 players' summaries.)"""
    if not rows:
        return 0
    names = list(rows[0])
    fields = [_concrete(model, name) for name in names]
    key = _concrete(model, unique)
    quote = connection.ops.quote_name
    columns = [quote(_column(field)) for field in fields]
    updates = ", ".join(
        f"{column} = EXCLUDED.{column}"
        for field, column in zip(fields, columns, strict=True)
        if field is not key
    )
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))}) "
        f"ON CONFLICT ({quote(_column(key))}) DO UPDATE SET {updates}"
    )

    def listed(given: Mapping[str, Any]) -> list[Any]:
        if given.keys() != rows[0].keys():
            raise TypeError(f"every row must give the fields {names}")
        return [given[name] for name in names]

    values = _prepared(fields, map(listed, rows))
    with connection.cursor() as cursor:
        cursor.executemany(sql, values)
    return len(values)


def _concrete(model: type[Model], name: str) -> Field[Any, Any]:
    """The field ``name`` of ``model``, which must be a column of its own."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.concrete:
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


def _prepared(fields: Sequence[Field[Any, Any]], rows: Iterable[list[Any]]) -> list[list[Any]]:
    """The rows (values in the order of ``fields``) with each value prepared for the database
    where its field needs it (:func:`_preparer`)."""
    prepared = [
        (index, prepare) for index, field in enumerate(fields) if (prepare := _preparer(field))
    ]
    values = []
    for row in rows:
        for index, prepare in prepared:
            row[index] = prepare(row[index])
        values.append(row)
    return values


def update_column(model: type[Model], name: str, values: Iterable[tuple[Any, Any]]) -> int:
    """Set the field ``name`` of the rows of ``model`` given as (primary key, value) pairs,
    each key once. On PostgreSQL, for a field whose values go as they are (:data:`PLAIN_TYPES`),
    one ``UPDATE ... FROM unnest(keys, values)`` sets them all; elsewhere one prepared
    ``UPDATE`` a row, run by ``executemany`` (``bulk_update`` builds one ``CASE`` expression
    over every row, compiled again for each batch). The value goes through the field's
    preparation as in :func:`insert_rows`. Returns how many pairs were given."""
    field = _concrete(model, name)
    quote = connection.ops.quote_name
    key = model._meta.pk
    assert key is not None
    table, column, key_column = (
        quote(model._meta.db_table),
        quote(_column(field)),
        quote(_column(key)),
    )
    prepare = _preparer(field)
    pairs = [(pk, value if prepare is None else prepare(value)) for pk, value in values]
    if not pairs:
        return 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and prepare is None:
            # One statement for every row: a quarter of the driver's CPU of a prepared UPDATE
            # a row, and a quarter of the database's (8,000 seats' points: docs/performance.md,
            # "Storing a verification"). Not for prepared values: psycopg quotes each JSON
            # text into the array in Python, which cost the driver more than the database
            # saved (the same for the summaries' upsert, so it keeps executemany).
            keys, new = zip(*pairs, strict=True)
            cursor.execute(
                f"UPDATE {table} AS t SET {column} = v.value "
                f"FROM unnest(%s::{key.db_type(connection)}[], "
                f"%s::{field.db_type(connection)}[]) AS v(pk, value) "
                f"WHERE t.{key_column} = v.pk",
                [list(keys), list(new)],
            )
        else:
            cursor.executemany(
                f"UPDATE {table} SET {column} = %s WHERE {key_column} = %s",
                [(value, pk) for pk, value in pairs],
            )
    return len(pairs)
