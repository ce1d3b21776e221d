"""The defence columns of the study aids (``riichi_decisions``, ``genbutsu_discards``,
``push_deal_ins``: docs/stats.md, "Value and defence"), null until the study catch-up counts
them. The games already counted (``decisions`` set) are returned to the catch-up, which counts
every column again (the defence comes from the same walk of each hand): until it has, their
rows count for no study figure. ``manage.py study_games`` counts them at once. The summaries
kept before, which have no value for the new metrics, are marked behind (as 0010 did)."""

from typing import Any

from django.db import migrations, models


def recount(apps: Any, schema_editor: Any) -> None:
    RoundFact = apps.get_model("stats", "RoundFact")
    RoundFact.objects.filter(decisions__isnull=False).update(decisions=None, best_discards=None)
    PlayerSummary = apps.get_model("stats", "PlayerSummary")
    SummaryBacklog = apps.get_model("stats", "SummaryBacklog")
    marked = set(SummaryBacklog.objects.values_list("player_id", flat=True))
    SummaryBacklog.objects.bulk_create(
        SummaryBacklog(player_id=pk)
        for pk in PlayerSummary.objects.values_list("player_id", flat=True)
        if pk not in marked
    )


class Migration(migrations.Migration):
    dependencies = [("stats", "0010_study_discards")]

    operations = [
        migrations.AddField(
            model_name="roundfact",
            name="genbutsu_discards",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Of those, discards genbutsu against every riichi.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="roundfact",
            name="push_deal_ins",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="1 when the player dealt in on a discard that pushed a hand at two or "
                "more shanten against a riichi (not genbutsu), else 0.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="roundfact",
            name="riichi_decisions",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Of those, discards chosen facing another's riichi.",
                null=True,
            ),
        ),
        migrations.RunPython(recount, migrations.RunPython.noop),
    ]
