"""``manage.py reverify``: verify stored games again, all of them or only those whose verdict
came from an older engine (``--outdated``) or that were never verified, or only those never
verified (``--pending``: games stored while the broker could not be reached, or whose queued
task was lost with a broker that keeps no data across a restart; see docs/faults.md).

The games go in batches (``replay.tasks.verify_games``, ``VERIFY_BATCH`` games a task, their
verdicts written in one transaction): with a broker the workers share the batches and this
command only queues; with Celery eager it verifies in this process. The verification
service is idempotent, so running the command twice, or a task twice, changes nothing more.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

import engine
from config.bulk import queries_unlogged
from mjlogs import pipeline
from mjlogs.verification_queue import VERIFY_BATCH
from replay.selectors import game_ids_to_verify, verdict_counts
from replay.tasks import verify_games


class Command(BaseCommand):
    help = (
        "Verify stored games again (all, or --outdated: older engine or never verified, "
        "or --pending: never verified)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group()
        which.add_argument(
            "--outdated",
            action="store_true",
            help=f"Only games not verified by this engine ({engine.__version__}).",
        )
        which.add_argument(
            "--pending",
            action="store_true",
            help="Only games never verified (their verification was never queued, or was lost).",
        )
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = game_ids_to_verify(outdated_only=options["outdated"], pending_only=options["pending"])
        eager = pipeline.tasks_run_here()
        # In-process, the statistics catch up once at the end rather than after every game.
        with (
            queries_unlogged(),
            pipeline.statistics().once_after(),
            tqdm(
                total=len(ids),
                unit="game",
                desc="verifying" if eager else "queueing",
                file=sys.stderr,
                disable=options["quiet"] or None,
            ) as progress,
        ):
            for start in range(0, len(ids), VERIFY_BATCH):
                batch = ids[start : start + VERIFY_BATCH]
                verify_games.delay(batch)
                progress.update(len(batch))
        if not eager:
            self.stdout.write(f"{len(ids)} games queued for verification")
            return
        counts = verdict_counts(ids)
        words = ", ".join(f"{count} {verdict}" for verdict, count in sorted(counts.items()))
        self.stdout.write(f"{len(ids)} games verified" + (f": {words}" if words else ""))
