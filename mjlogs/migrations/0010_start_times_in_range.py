"""Start times outside years 1 to 9999 in UTC are forgotten (issue 40, item 1).

PostgreSQL keeps such a time (year 10000, year 0), but Python cannot hold it: a game stored with
one failed every read of its row (its page, every list holding it, its deletion, its
verification, left pending). The import now refuses them (``mjlogs.storable.start_time``); a game
stored before keeps its record, whose claim stays in its document, and its date becomes unknown.
SQLite never took one (Django converts the time to UTC in Python first, which failed).

Not reversed: the times forgotten were never readable.
"""

from typing import Any

from django.db import migrations


def forget_start_times_out_of_range(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        # Compared in the database: the rows cannot be read into Python.
        cursor.execute(
            "UPDATE mjlogs_game SET started_at = NULL "
            "WHERE started_at < '0001-01-01 00:00:00+00' "
            "OR started_at >= '10000-01-01 00:00:00+00'"
        )


class Migration(migrations.Migration):
    dependencies = [("mjlogs", "0009_game_copies")]

    operations = [
        migrations.RunPython(forget_start_times_out_of_range, migrations.RunPython.noop),
    ]
