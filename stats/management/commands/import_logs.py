"""``manage.py import_logs PATH...``: bulk import of game records from files and folders.

Folders are walked recursively (hidden files and folders left out); each file is told by its
content, whatever its name: archives (zip, tar) are opened, game records in any known format
(gzip or not) are imported, and anything else (a README, a manifest, an image) is skipped and
listed with the reason. Only a file's start is read to tell which, and the upload limits hold:
a record over the size of one game file, or an archive over ``MJLOGS_MAX_UPLOAD_BYTES``, fails
unread. A progress bar runs on standard error, and a summary follows: games imported,
duplicates, files that failed and files skipped, each with its reason, and (once verified, at
once when Celery runs eagerly) the verdicts. Exit status 1 when any file failed; skipped files
fail nothing.

The files are read in worker processes, one a core by default (``--jobs``), several files
ahead of this process, which stores their games (:mod:`mjlogs.reading`); where tasks run in this
process, the workers replay the games for their verification too.

Where tasks run in this process (the default setup), the study aids' counts of the games (tile
acceptance, about 40 ms a game) are left to ``manage.py study_games``, which the summary names;
``--study`` runs it at the end. A worker counts them by itself.

With ``--on-workers``, this process only queues the files in the database, a batch a task,
and the Celery workers read, store and verify them (``mjlogs.queued_imports``), every worker
at once; the command follows their progress (interrupted, it stops following; the workers go
on).

The command runs the whole path of a game, stored, verified and counted, so it lives in the
app at the top of the three (docs/development.md, "The apps' layers").
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from config.bulk import queries_unlogged
from engine.jobs import all_cores, job_count
from mjlogs import pipeline
from mjlogs.archives import UploadedFile, is_archive
from mjlogs.importing import DEFAULT_LIMITS, Outcome, Status, import_files, local_file
from mjlogs.models import Visibility
from mjlogs.queued_imports import QueueUnavailable, queued_import_create
from replay.selectors import verdict_counts
from stats.selectors import study_pending_count


def _files(paths: list[Path]) -> Iterator[Path]:
    """The files named, and every file in the folders named (sorted), hidden ones (a name
    starting with a dot, or inside such a folder: ``.git``) left out."""
    for path in paths:
        if path.is_dir():
            for item in sorted(path.rglob("*")):
                hidden = any(part.startswith(".") for part in item.relative_to(path).parts)
                if item.is_file() and not hidden:
                    yield item
        elif path.is_file():
            yield path
        else:
            raise CommandError(f"{path}: no such file or folder")


#: How often ``--on-workers`` looks at the workers' progress.
FOLLOW_SECONDS = 0.5
#: Bytes of a file's start that tell a zip or tar archive (a tar's first header, compressed).
ARCHIVE_HEAD = 64 * 1024


def _holds_many(path: Path) -> bool:
    """Whether the file is an archive of many game files, as its start tells (a bzip2 tar
    does not tell so soon: it counts as one file here, and is still read as an archive)."""
    try:
        with path.open("rb") as handle:
            return is_archive(handle.read(ARCHIVE_HEAD))
    except OSError:
        return False  # (the import says what is wrong with it)


class Command(BaseCommand):
    help = "Import game records (files, folders, archives) and report what became of each."
    # The system checks load the site's URLs, and with them the REST framework and the OpenAPI
    # generator: a third of a second of every import's start, for checks about serving pages
    # (`manage.py check` and `runserver` still run them).
    requires_system_checks: tuple[str, ...] = ()

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path, help="Files or folders to import.")
        parser.add_argument("--uploader", help="Username to record as the uploader.")
        parser.add_argument(
            "--private", action="store_true", help="Only the uploader and staff see the games."
        )
        parser.add_argument("--quiet", action="store_true", help="No progress bar.")
        parser.add_argument(
            "--jobs",
            type=job_count,
            default=all_cores(),
            help="Worker processes that read (and, where tasks run in this process, verify) the "
            "files ahead of this one, which stores them (default: every core, %(default)s; at "
            "most four a core); 1: all in this process.",
        )
        parser.add_argument(
            "--study",
            action="store_true",
            help="Where tasks run in this process, also count the study aids (tile acceptance, "
            "about 40 ms a game) before returning; else `manage.py study_games` counts them.",
        )
        parser.add_argument(
            "--on-workers",
            action="store_true",
            help="Queue the files for the Celery workers, which read, store and verify them "
            "(docs/deploy.md); this process only stores the files and follows the workers.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with queries_unlogged():
            self._import(options)

    def _import(self, options: dict[str, Any]) -> None:
        uploader = None
        if options["uploader"]:
            users = get_user_model().objects.filter(username=options["uploader"])
            uploader = users.first()
            if uploader is None:
                raise CommandError(f"no user named {options['uploader']!r}")
        paths = list(_files(options["paths"]))
        jobs = options["jobs"]
        if len(paths) < jobs and not any(_holds_many(path) for path in paths):
            # No more workers than files (one file: none, forking would cost more than it
            # saves); an archive's members are read one a worker, like files.
            jobs = max(1, len(paths))
        # The workers are forks of this process: no thread of tqdm's may be running then (a
        # lock it holds at the fork would stay held in the worker).
        tqdm.monitor_interval = 0
        bar = tqdm(total=len(paths), unit="file", file=sys.stderr, disable=options["quiet"] or None)

        def uploads() -> Iterator[UploadedFile]:
            for path in paths:
                yield local_file(path, DEFAULT_LIMITS, settings.MJLOGS_MAX_UPLOAD_BYTES)
                bar.update(1)

        counted: Counter[str] = Counter()

        def progress(outcome: Outcome) -> None:
            counted[outcome.status.value] += 1
            bar.set_postfix(counted, refresh=False)

        visibility = Visibility.PRIVATE if options["private"] else Visibility.PUBLIC
        if options["on_workers"]:
            self._import_on_workers(uploads(), len(paths), bar, uploader, visibility, options)
            return
        summary = import_files(
            uploads(),
            uploader=uploader,
            visibility=visibility,
            progress=progress,
            skip_non_records=True,
            # In-process, the study aids' counts would add a pass of a second to every import,
            # and still leave most of a large one's games waiting: they are left whole to
            # `study_games` (run below with --study), which shows its progress.
            study_after=False,
            jobs=jobs,
        )
        bar.close()
        counts = summary.counts
        skipped = counts.get(Status.SKIPPED.value, 0)
        self.stdout.write(
            f"{len(paths)} files: {counts['imported']} games imported, "
            f"{counts['duplicate']} duplicates, {counts['failed']} failed"
            + (f", {skipped} skipped (not game records)" if skipped else "")
        )
        for outcome in summary.outcomes:
            if outcome.status in (Status.FAILED, Status.SKIPPED):
                self.stdout.write(f"  {outcome.status.value}: {outcome.file}: {outcome.error}")
        game_ids = [o.game_id for o in summary.outcomes if o.game_id is not None]
        self._verdicts_say(verdict_counts(game_ids))
        waiting = study_pending_count() if pipeline.tasks_run_here() else 0
        if waiting and options["study"]:
            call_command(
                "study_games", quiet=options["quiet"], jobs=options["jobs"], stdout=self.stdout
            )
        elif waiting:
            # In-process, the study aids are left to their own command; a worker counts them.
            self.stdout.write(
                f"{waiting} games wait for their study aids' counts (tile acceptance, "
                "docs/stats.md): `manage.py study_games` counts them"
            )
        if counts["failed"]:
            raise SystemExit(1)

    def _import_on_workers(
        self,
        uploads: Iterator[UploadedFile],
        paths: int,
        bar: tqdm[Any],
        uploader: Any,
        visibility: str,
        options: dict[str, Any],
    ) -> None:
        """Queue the files for the workers (``mjlogs.queued_imports``) and follow them."""
        try:
            queued = queued_import_create(
                uploads, uploader=uploader, visibility=visibility, skip_non_records=True
            )
        except QueueUnavailable as error:
            raise CommandError(f"{error}; nothing was queued") from error
        bar.close()
        done = tqdm(
            total=queued.files,
            unit="file",
            desc="imported",
            file=sys.stderr,
            disable=options["quiet"] or None,
        )
        while not queued.finished:
            time.sleep(FOLLOW_SECONDS)
            queued.refresh_from_db()
            done.update(queued.files_done - done.n)
            done.set_postfix(
                imported=queued.imported, duplicate=queued.duplicates, failed=queued.failed
            )
        done.close()
        self.stdout.write(
            f"{paths} files: {queued.imported} games imported, "
            f"{queued.duplicates} duplicates, {queued.failed} failed"
            + (f", {queued.skipped} skipped (not game records)" if queued.skipped else "")
            + f" (queued import {queued.pk}, on the workers)"
        )
        for problem in queued.problems:
            self.stdout.write(f"  {problem['status']}: {problem['file']}: {problem['error']}")
        self._verdicts_say(queued.verdicts)
        if queued.failed:
            raise SystemExit(1)

    def _verdicts_say(self, verdicts: Mapping[str, int]) -> None:
        """One line: how many of the games imported or found have each verdict."""
        if verdicts:
            words = ", ".join(f"{count} {verdict}" for verdict, count in sorted(verdicts.items()))
            self.stdout.write(f"verdicts of these games: {words}")
