"""Drop the foreign keys' own indexes on the facts and the rating changes: each column leads a
composite index already (``one_fact_a_seat_a_hand``, ``fact_player_game``,
``one_rating_change_a_seat``, ``rating_player``), which serves the same look-ups and cascades.

Only the indexes are dropped (by name: Django names them alike on PostgreSQL and SQLite). An
``AlterField`` alone would also drop and re-add each foreign key constraint, and PostgreSQL
would check every row again (minutes under a lock on a large table)."""

import django.db.models.deletion
from django.db import migrations, models

#: (table, column, index name as Django made it in 0001)
INDEXES = (
    ("stats_ratingchange", "game_id", "stats_ratingchange_game_id_cc9255de"),
    ("stats_ratingchange", "player_id", "stats_ratingchange_player_id_ac02319a"),
    ("stats_roundfact", "game_id", "stats_roundfact_game_id_5fe0cd54"),
    ("stats_roundfact", "player_id", "stats_roundfact_player_id_6294de93"),
)


#: (model, related name) of the foreign keys to game and player whose indexes go.
FIELDS = (("ratingchange", "rating_changes"), ("roundfact", "round_facts"))


def _field(to: str, related_name: str) -> models.ForeignKey:
    return models.ForeignKey(
        db_index=False,
        on_delete=django.db.models.deletion.CASCADE,
        related_name=related_name,
        to=to,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0011_study_defence"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name=model,
                    name=name,
                    field=_field(f"mjlogs.{name}", related_name),
                )
                for model, related_name in FIELDS
                for name in ("game", "player")
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{name}"',
                    reverse_sql=f'CREATE INDEX "{name}" ON "{table}" ("{column}")',
                )
                for table, column, name in INDEXES
            ],
        ),
    ]
