"""The study aids' columns of the fact rows (``decisions``, ``best_discards``: docs/stats.md,
"Tile acceptance"), null until the study catch-up counts them, with the index that finds the
games still to count; and the summaries kept before them, which have no value for
``best_acceptance_rate``, marked behind (as 0009 did for ``total_points``): pages and
leaderboards compute those players' figures from the rows until a catch-up or
``recompute_stats`` brings their summaries up to date."""

from typing import Any

from django.db import migrations, models


def mark_summaries_behind(apps: Any, schema_editor: Any) -> None:
    PlayerSummary = apps.get_model("stats", "PlayerSummary")
    SummaryBacklog = apps.get_model("stats", "SummaryBacklog")
    marked = set(SummaryBacklog.objects.values_list("player_id", flat=True))
    SummaryBacklog.objects.bulk_create(
        SummaryBacklog(player_id=pk)
        for pk in PlayerSummary.objects.values_list("player_id", flat=True)
        if pk not in marked
    )


class Migration(migrations.Migration):
    dependencies = [
        ("mjlogs", "0007_link_import"),
        ("stats", "0009_summaries_behind_for_total_points"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundfact",
            name="best_discards",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Of those, discards that kept the most tile acceptance.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="roundfact",
            name="decisions",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Discards the player chose in the hand (null: not yet counted; 0 in Ùzje).",
                null=True,
            ),
        ),
        migrations.AddIndex(
            model_name="roundfact",
            index=models.Index(
                condition=models.Q(("decisions__isnull", True)),
                fields=["game"],
                name="fact_study_pending",
            ),
        ),
        migrations.RunPython(mark_summaries_behind, migrations.RunPython.noop),
    ]
