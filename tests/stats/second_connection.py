"""A second connection to the test database, for tests of what two workers do at once."""

from __future__ import annotations

from typing import Any

from django.db import connection


def second_connection() -> Any:
    """A psycopg connection (autocommit) to the database Django's test connection uses, as
    another worker would have: its locks are not this test's."""
    import psycopg

    settings = connection.settings_dict
    return psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"] or "postgres",
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        password=settings["PASSWORD"] or None,
        autocommit=True,
    )
