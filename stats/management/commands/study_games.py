"""``manage.py study_games``: count the study aids (tile acceptance of every discard decision,
docs/stats.md "Tile acceptance") of the verified games that wait for them, here and now, then
bring the players' summaries up to date.

Imports count them after verifying, by their own catch-up (``stats.catch_up.study_pass``): on a
worker as fast as it goes, but in-process (Celery eager, the default setup) an upload's pass stops
after about a second so that it is not held up, and ``import_logs`` leaves them all to this
command (or runs it, with ``--study``). After a bulk import on the default setup, run this once.
``--all`` counts every verified game again (after a change to the counting). ``--jobs N``:
N worker processes work out the counts (the engine's work, nearly all of it), forked from this
one, which stores them; 1: all in this process.
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from multiprocessing import get_context
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connections, transaction
from tqdm import tqdm

from engine.jobs import all_cores, job_count
from mjlogs.reading import can_fork
from stats.catch_up import player_summaries_catch_up, study_catch_up
from stats.models import RoundFact
from stats.selectors import study_pending_games
from stats.services import STUDY_COLUMNS


class Command(BaseCommand):
    help = "Count the study aids of the verified games that wait for them (in this process)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true", help="Count every verified game's again.")
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")
        parser.add_argument(
            "--jobs",
            type=job_count,
            default=all_cores(),
            help="Worker processes that work out the counts (default: every core, "
            "%(default)s); 1: all in this process.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            RoundFact.objects.update(**dict.fromkeys(STUDY_COLUMNS))
        waiting = len(study_pending_games(10**9))
        done = 0
        with ExitStack() as stack:
            bar = stack.enter_context(
                tqdm(
                    total=waiting,
                    unit="game",
                    desc="counting",
                    file=sys.stderr,
                    disable=options["quiet"] or None,
                )
            )
            pool = None
            if options["jobs"] > 1 and waiting > 1 and can_fork():
                # Forked: no worker may hold this process's database connections (they only
                # run the engine); Django opens new ones here when next asked. Not inside a
                # transaction (a caller's), which must not be cut.
                if not transaction.get_connection().in_atomic_block:
                    connections.close_all()
                pool = stack.enter_context(
                    ProcessPoolExecutor(
                        min(options["jobs"], waiting), mp_context=get_context("fork")
                    )
                )
            while True:
                counted, left = study_catch_up(budget=5.0, pool=pool)
                done += counted
                bar.update(counted)
                if not left:
                    break
        summaries = player_summaries_catch_up()
        self.stdout.write(
            f"{done} games' study aids counted; {summaries} players' summaries brought up to date"
        )
