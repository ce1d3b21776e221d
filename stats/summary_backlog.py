"""Which players' summaries are behind their games: marks kept in the database.

A change to a game (verified, deleted, made public or private) changes its players' summaries.
Recomputing a summary reads every fact row of the player, so doing it once per game costs a
bulk import of a busy player's games O(games²) reads. Instead the change *marks* its players in
its own transaction (:func:`mark_stale`), and a catch-up task recomputes each marked player
once, however many marks piled up (``stats.services.player_summaries_catch_up``):

* the mark commits with the change, so no committed change is ever unmarked, and a summary
  whose player is not marked is up to date: the statistics pages read it instead of the rows;
* a recomputation holds its player's mark (a row lock) while it reads, and clears the mark
  only if no new mark came meanwhile (``version``); a change that marks the player then waits
  for the lock, so its mark lands after the recomputation and is not lost;
* catch-ups skip marks another worker holds (``SKIP LOCKED``), so many workers share a
  backlog without waiting on each other;
* a catch-up takes the players marked when it starts, not those marked while it runs (their
  changes queued the next catch-up, ``stats.catch_up_queue``), so a pass ends even while games
  keep being verified.

On SQLite (one writer at a time) the locks are not needed and not taken.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from django.db import connection
from django.db.models import Q

from stats.models import SummaryBacklog


def mark_stale(player_ids: Iterable[int]) -> None:
    """Mark these players' summaries as behind. Call it inside the transaction that changes
    their games, so that the mark commits (or rolls back) with the change."""
    ids = sorted(set(player_ids))  # one lock order for every transaction: no deadlock
    if not ids:
        return
    table = connection.ops.quote_name(SummaryBacklog._meta.db_table)
    rows = ", ".join(["(%s, 1)"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (player_id, version) VALUES {rows} "
            f"ON CONFLICT (player_id) DO UPDATE SET version = {table}.version + 1",
            ids,
        )


def hold_marks(player_ids: Sequence[int]) -> dict[int, int]:
    """Lock these players' marks for the current transaction (waiting for changes that are
    marking them to commit); the version of each marked one."""
    marks = SummaryBacklog.objects.select_for_update().filter(player_id__in=player_ids)
    return dict(marks.order_by("player_id").values_list("player_id", "version"))


def marked_players() -> list[int]:
    """The players marked now, in the lock order."""
    return list(SummaryBacklog.objects.order_by("player_id").values_list("player_id", flat=True))


def hold_marks_if_free(player_ids: Sequence[int]) -> dict[int, int]:
    """Lock those of these players' marks that no other transaction holds, for the current
    transaction; the version of each one held (those held elsewhere, or cleared, are left
    out)."""
    marks = SummaryBacklog.objects.select_for_update(skip_locked=True)
    held = marks.filter(player_id__in=player_ids).order_by("player_id")
    return dict(held.values_list("player_id", "version"))


def clear_marks(versions: Mapping[int, int]) -> int:
    """Clear the marks held (player: version), except those marked again since (they stay,
    for the next catch-up). Returns how many were cleared."""
    if not versions:
        return 0
    unchanged = Q()
    for player_id, version in versions.items():
        unchanged |= Q(player_id=player_id, version=version)
    return SummaryBacklog.objects.filter(unchanged).delete()[0]
