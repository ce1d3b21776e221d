"""The summaries kept before ``total_points`` (stats.metrics) have no value for it: mark every
summarized player behind (``stats.summary_backlog``), so pages and leaderboards compute them
from the rows until the next catch-up or ``recompute_stats`` brings the summaries up to date."""

from typing import Any

from django.db import migrations


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
        ("stats", "0008_queued_catch_up_changed_at"),
        ("mjlogs", "0006_player_identity"),
    ]

    operations = [migrations.RunPython(mark_summaries_behind, migrations.RunPython.noop)]
