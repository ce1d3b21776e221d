"""Keeping PostgreSQL's planner statistics in step with tables that a bulk import has just
filled.

The planner picks an index or a whole-table scan from the statistics ``ANALYZE`` gathers.
Autovacuum gathers them once a table has changed by a tenth, but it looks only once a minute
(``autovacuum_naptime``), and not at all where it is off: at the end of a bulk import the
tables the summaries' pass reads may hold tens of thousands of rows that their statistics
have never seen. The pass then read every hand fact again for each chunk of 200 players
(`benchmarks/load.py`, 2,000 games: 1.8 s, against 1.0 s with the statistics current).
:func:`analyze_if_stale` gathers them first where autovacuum would have, costing a fraction
of that: ``ANALYZE`` reads a sample of at most 30,000 rows a table (the default target)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import DatabaseError, connection, transaction

#: A table's statistics are stale once more than this share of its rows changed since they
#: were gathered: autovacuum's own threshold is a tenth (``autovacuum_analyze_scale_factor``);
#: a fifth keeps this for large changes, which a bulk import makes.
STALE_SHARE = 0.2
#: ... and at least this many rows: below it, whatever the planner picks is fast.
STALE_ROWS = 1000
#: How long an ANALYZE waits for a table another command holds (then it is skipped).
LOCK_TIMEOUT_MS = 2000

logger = logging.getLogger(__name__)


def analyze_if_stale(tables: Sequence[str]) -> list[str]:
    """``ANALYZE`` those of ``tables`` (names in the database) whose statistics are stale
    (:data:`STALE_SHARE`, :data:`STALE_ROWS`), going by PostgreSQL's activity counters;
    returns the names of those analyzed. A table another command holds longer than
    :data:`LOCK_TIMEOUT_MS` is skipped (logged). Inside a transaction, or elsewhere than
    PostgreSQL, it does nothing."""
    if connection.vendor != "postgresql" or not tables or connection.in_atomic_block:
        # (In a transaction, ANALYZE's lock would last until the caller commits.)
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, n_mod_since_analyze, n_live_tup FROM pg_stat_user_tables "
            "WHERE schemaname = current_schema() AND relname = ANY(%s)",
            [list(tables)],
        )
        stale = sorted(
            name
            for name, changed, live in cursor.fetchall()
            if changed >= STALE_ROWS and changed > STALE_SHARE * max(live - changed, 0)
        )
    analyzed = []
    for name in stale:
        # Best effort: the statistics only speed the caller up. A table locked by a VACUUM, an
        # index being built or a migration is left as it is rather than waited for.
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT_MS}ms'")
                cursor.execute(f"ANALYZE {connection.ops.quote_name(name)}")
        except DatabaseError as error:
            logger.warning("ANALYZE %s left for autovacuum: %s", name, error)
            continue
        analyzed.append(name)
    return analyzed
