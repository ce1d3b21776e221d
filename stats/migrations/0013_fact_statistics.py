"""Gather the planner's statistics of the hand facts only for the columns a query selects,
joins, groups or sorts the facts by (PostgreSQL; nothing elsewhere).

``ANALYZE`` builds each column's statistics from its sample (its most common values, a
histogram), and the facts have 36 columns, 27 of which no query ever filters on: they are only
summed or counted (``stats.metrics``) or read back. On the load bench's 2,000 games (45,000
facts), ``ANALYZE stats_roundfact`` took 180-254 ms with every column and 47-56 ms with these
left out (``psql``'s ``\\timing``). The catch-up analyses the facts as a bulk import grows them
(``config.planner.analyze_if_stale``), and autovacuum after every tenth of growth on any
server: each time, three quarters of the work was for numbers nobody plans with.

A column left out keeps no statistics (``pg_stats`` has no row for it); the planner would
guess a filter on it at its defaults. A new column is analysed (the default) until it is
listed here. ``tests/stats/test_fact_statistics.py`` holds the list against the queries."""

from collections.abc import Callable
from typing import Any

from django.db import migrations

#: The columns of ``stats_roundfact`` no query filters, joins, groups or sorts by.
NOT_PLANNED = (
    "round_name", "turns", "outcome", "tsumo", "dealt_in", "win_points", "deal_in_points",
    "fu", "yaku", "ura", "ippatsu", "win_turn", "riichi", "riichi_turn", "riichi_chasing",
    "riichi_wait_kinds", "calls", "open_hand", "tenpai_at_draw", "dealt_in_to", "delta",
    "score_after", "limit_hand", "best_discards", "genbutsu_discards", "push_deal_ins",
    "riichi_decisions",
)  # fmt: skip


def _set_statistics(target: int) -> Callable[[Any, Any], None]:
    def run(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        quote = schema_editor.quote_name
        columns = ", ".join(
            f"ALTER COLUMN {quote(column)} SET STATISTICS {target}" for column in NOT_PLANNED
        )
        schema_editor.execute(f"ALTER TABLE {quote('stats_roundfact')} {columns}")

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0012_composite_indexes_lead"),
    ]

    operations = [
        # (-1: the server's default_statistics_target again.)
        migrations.RunPython(_set_statistics(0), _set_statistics(-1), elidable=False),
    ]
