"""Inserting many rows of one model fast: one prepared ``INSERT`` run by ``executemany``.

Django's ``bulk_create`` compiles its SQL again for every batch, and SQLite's limit on
parameters makes the batches small (about 30 rows of a 30-column model): storing one game's
hand facts cost more than replaying the game (issue 21's profile). Here the statement is built
once and the database driver runs it for every row (``sqlite3`` and psycopg both run
``executemany`` without a round trip a row). Values go through each field's
``get_db_prep_save``, as ``bulk_create`` does, so JSON, booleans and dates are stored the same.
Rows get no ids back and no signals are sent: for append-only rows such as
``stats.RoundFact``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import Model


def insert_rows(model: type[Model], objects: Iterable[Model]) -> int:
    """Insert these unsaved instances of ``model`` (their primary keys left to the database);
    returns how many were inserted."""
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
    values = [
        [field.get_db_prep_save(getattr(obj, field.attname), connection) for field in fields]
        for obj in objects
    ]
    if values:
        with connection.cursor() as cursor:
            cursor.executemany(sql, values)
    return len(values)
