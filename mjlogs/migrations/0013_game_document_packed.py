"""A game's document is stored packed: its JSON text zlib-compressed in a binary column
(``config.json_columns.PackedJSONColumn``), no longer as ``jsonb``.

Nothing looks into a stored document in the database: it is written once and read whole (the
frames API's read of one hand now unpacks the document and takes the hand). Storing and reading
it as ``jsonb`` was the largest part of PostgreSQL's work in an import: 1.7 ms of its CPU to
store a 30 KB document and 0.5 ms to read it back, against 0.07 and 0.02 ms packed, and 9.2 KB
on disk against about 5 KB (docs/performance.md, "The stored document").

The data step packs every document in batches, in the migration's transaction. Both ways: the
reverse step writes the documents back as JSON.
"""

from typing import Any

from django.db import migrations, models

import config.json_columns

#: Documents rewritten per statement.
BATCH = 500
HELP_TEXT = "The canonical record (docs/format.md), packed."


def _rewrite(apps: Any, schema_editor: Any, source: str, target: str) -> None:
    """Write every game's ``source`` column into ``target``, as ``target``'s field stores it."""
    Game = apps.get_model("mjlogs", "Game")
    field = Game._meta.get_field(target)
    connection = schema_editor.connection
    quote = connection.ops.quote_name
    sql = f"UPDATE {quote(Game._meta.db_table)} SET {quote(target)} = %s WHERE id = %s"
    rows = Game.objects.order_by("pk").values_list("pk", source).iterator(chunk_size=BATCH)
    batch: list[tuple[Any, int]] = []
    with connection.cursor() as cursor:
        for pk, document in rows:
            batch.append((field.get_db_prep_value(document, connection), pk))
            if len(batch) == BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


def pack_documents(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, schema_editor, "document", "packed_document")


def unpack_documents(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, schema_editor, "packed_document", "document")


class Migration(migrations.Migration):
    dependencies = [("mjlogs", "0012_canonical_origin_is_a_claim")]

    operations = [
        # Nullable for a while, so that the reverse steps can add the JSON column back empty.
        migrations.AlterField(
            model_name="game",
            name="document",
            field=models.JSONField(null=True, help_text="The canonical record (docs/format.md)."),
        ),
        migrations.AddField(
            model_name="game",
            name="packed_document",
            field=config.json_columns.PackedJSONColumn(null=True, help_text=HELP_TEXT),
        ),
        migrations.RunPython(pack_documents, unpack_documents, elidable=True),
        migrations.RemoveField(model_name="game", name="document"),
        migrations.RenameField(model_name="game", old_name="packed_document", new_name="document"),
        migrations.AlterField(
            model_name="game",
            name="document",
            field=config.json_columns.PackedJSONColumn(help_text=HELP_TEXT),
        ),
    ]
