"""Optional: grow the served database F-fold by copying its rows in SQL (``--replicate F``).

For the query-cost figures only, when generating, importing and verifying F times as many
games does not fit the time at hand: every game is copied F - 1 times with its seats, verdict
and fact rows, each copy with a new content hash, play hash (it stands for another game, so it
counts: mjlogs.copies) and source id and a start time after all the
originals (so the list's first pages show copies and the timeline goes on). The players are
the same, so each plays F times as many games, as they would in a database F times as big.
Ratings and summaries are not copied: every player is then marked behind and brought up to
date in this process (:func:`statistics_catch_up`, timed), as the workers would after an
import, so the statistics served are those of the grown database. What this cannot measure
is the import and verification of those games: the benchmark's other figures come from the
real pipeline on the real games only.
"""

from __future__ import annotations

import time


def _copied_columns(model: type) -> str:
    """A model's columns copied as they are: all but ``id`` and the game reference (read from
    the model, so a column added later is copied too)."""
    return ", ".join(
        field.column
        for field in model._meta.concrete_fields  # type: ignore[attr-defined]
        if field.column not in ("id", "game_id")
    )


def replicate(factor: int) -> dict[str, float | int]:
    """Copy every game ``factor - 1`` times; returns the games now stored and the seconds."""
    from django.db import connection, transaction

    from mjlogs.models import GameSeat
    from replay.models import Verification
    from stats.models import RoundFact

    tables = {
        model._meta.db_table: _copied_columns(model)
        for model in (GameSeat, Verification, RoundFact)
    }
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT max(started_at) - min(started_at) + interval '1 day' FROM mjlogs_game"
        )
        (span,) = cursor.fetchone()
        cursor.execute(
            "CREATE TEMP TABLE load_copy ON COMMIT DROP AS "
            "SELECT g.id AS old_id, k, nextval(pg_get_serial_sequence('mjlogs_game', 'id')) "
            "AS new_id FROM mjlogs_game g, generate_series(1, %s) AS k",
            [factor - 1],
        )
        cursor.execute(
            "INSERT INTO mjlogs_game (id, ruleset, rule_overrides, players_count, rounds_count, "
            "complete, source_format, source_id, content_hash, started_at, uploaded_at, "
            "visibility, document, raw, raw_name, raw_size, room, uploader_id, play_hash, "
            "copy_conflicts) "
            "SELECT c.new_id, g.ruleset, g.rule_overrides, g.players_count, g.rounds_count, "
            "g.complete, g.source_format, g.source_id || '-copy-' || c.k, "
            "encode(sha256((g.content_hash || '-copy-' || c.k)::bytea), 'hex'), "
            "g.started_at + c.k * %s, g.uploaded_at, g.visibility, g.document, g.raw, "
            "g.raw_name, g.raw_size, g.room, g.uploader_id, "
            # Each copy stands for another game: a play of its own, so that it counts
            # (mjlogs.copies keeps one counted record per play).
            "encode(sha256((g.play_hash || '-copy-' || c.k)::bytea), 'hex'), '[]'::jsonb "
            "FROM mjlogs_game g JOIN load_copy c ON c.old_id = g.id",
            [span],
        )
        for table, columns in tables.items():
            cursor.execute(
                f"INSERT INTO {table} (game_id, {columns}) SELECT c.new_id, {columns} "
                f"FROM {table} t JOIN load_copy c ON c.old_id = t.game_id"
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("SELECT count(*) FROM mjlogs_game")
        (games,) = cursor.fetchone()
    return {"factor": factor, "games": games, "seconds": round(time.perf_counter() - started, 1)}


def statistics_catch_up() -> dict[str, float | int]:
    """Mark every player's summary behind, then recompute the summaries and every rating in
    this process (one core: what one worker would take); returns the seconds of each."""
    from mjlogs.models import Player
    from stats.catch_up import player_summaries_catch_up, summaries_mark_stale
    from stats.services import ratings_recompute

    started = time.perf_counter()
    summaries_mark_stale(Player.objects.values_list("pk", flat=True))
    players = player_summaries_catch_up()
    summaries_seconds = time.perf_counter() - started
    started = time.perf_counter()
    ratings_recompute()
    return {
        "players": players,
        "summaries_seconds": round(summaries_seconds, 1),
        "ratings_seconds": round(time.perf_counter() - started, 1),
    }
