"""``manage.py recompute_stats``: rebuild every player's statistics summary from the fact rows,
and every R rating in time order.

The players are split into chunks, one task each (``stats.tasks.update_player_stats``): with a
broker the workers share them and this command only queues; with Celery eager it computes in
this process. The result is the same as the incremental updates that imports queue, because
both run the same recomputation from the rows.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from mjlogs import pipeline
from stats.catch_up import ratings_mark_stale
from stats.selectors import player_ids_with_facts_or_summary
from stats.tasks import update_player_stats, update_ratings


class Command(BaseCommand):
    help = "Rebuild every player's statistics from the stored facts (spread over the workers)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--chunk", type=int, default=100, help="Players per task (default 100)."
        )
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["chunk"] < 1:
            self.stderr.write("--chunk must be at least 1")
            sys.exit(2)
        ids = player_ids_with_facts_or_summary()
        eager = pipeline.tasks_run_here()
        size = options["chunk"]
        chunks = [ids[start : start + size] for start in range(0, len(ids), size)]
        with tqdm(
            total=len(ids),
            unit="player",
            desc="recomputing" if eager else "queueing",
            file=sys.stderr,
            disable=options["quiet"] or None,
        ) as bar:
            for chunk in chunks:
                update_player_stats.delay(chunk)
                bar.update(len(chunk))
        # One task for all games: each rating depends on the order of every game before it.
        ratings_mark_stale(None)
        update_ratings.delay()
        verb = "recomputed" if eager else "queued for recomputation"
        self.stdout.write(f"{len(ids)} players {verb} in {len(chunks)} tasks, and the ratings")
