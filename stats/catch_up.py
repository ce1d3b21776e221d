"""Keeping the summaries and the ratings up to date: marks, claims, passes and the queue.

A change to a game (verified, deleted, made public or private) changes its players' summaries
and every rating from the game's time on. Recomputing them once per game costs a bulk import
O(games²): a summary reads every fact row of its player, and a rating depends on every earlier
game of its players. Instead:

1. The change *marks* what it makes stale: its players' summaries in its own transaction
   (:func:`summaries_mark_stale`, the table ``SummaryBacklog``) and, as it commits, the ratings
   from its time on (:func:`ratings_mark_stale`, the one row of ``RatingsBacklog``).
2. It then queues a catch-up task of each kind (``stats.tasks``) unless one is already waiting
   (:func:`claim`, the table ``QueuedCatchUp``), spaced so that catching up takes a bounded
   share of the workers (:data:`DUTY`).
3. A catch-up *pass* (:func:`player_summaries_catch_up`, :func:`ratings_catch_up`) recomputes
   once for every mark there is when it starts, through the writes of ``stats.services``, and
   clears each mark only if no new one came meanwhile (a version number).

The summaries' marks:

* the mark commits with the change, so no committed change is ever unmarked, and a summary
  whose player is not marked is up to date: the statistics pages read it instead of the rows;
* a recomputation holds its player's mark (a row lock) while it reads, and clears the mark
  only if no new mark came meanwhile (``version``); a change that marks the player then waits
  for the lock, so its mark lands after the recomputation and is not lost;
* catch-ups skip marks another worker holds (``SKIP LOCKED``), so many workers share a
  backlog without waiting on each other;
* a catch-up takes the players marked when it starts, not those marked while it runs (their
  changes queued the next catch-up), so a pass ends even while games keep being verified.

The ratings' mark:

* one catch-up at a time (the ratings lock, ``stats.services.RATINGS_LOCK``): another finds
  the lock taken and comes back later (the task queues itself again), because the one running
  may have read the marks before its own;
* a catch-up recomputes once: a mark made while it ran bumps the version, so its "clear if
  unchanged" leaves the mark, for the catch-up that mark's change queued (going round until no
  mark was left would never end while games keep being verified);
* the mark is cleared in the same transaction as the recomputation it stands for, so a worker
  killed in the middle leaves the ratings marked, and the redelivered task recomputes them.

The queue: one waiting task of each kind is enough, however many changes came before it
starts, because it reads every mark there is when it starts. Queueing one per change instead
cost a bulk import of 100,000 games 200,000 tasks, all but a few finding nothing to do; and
catching up whenever a worker was free kept the workers recomputing summaries all through a
bulk import (with 2,000 players, each pass recomputed nearly all of them for a few games each),
at half the verification rate. So a change queues a catch-up only if it can :func:`claim` the
task's row, and the task :func:`release`\\ s it as the first thing it does and records its end
(:func:`finish`):

* a change that finds the row claimed committed its marks before it looked, and the claimed
  task has not started (it releases first), so that task will see the marks;
* a change that comes after the release queues a new task, which sees it;
* the new task is due ``STATS_CATCH_UP_INTERVAL`` seconds after the last one started, or
  later when the last one ran long: a catch-up kind uses at most :data:`DUTY` of one worker's
  time, however long a pass gets (after a quiet spell, it starts at once). A bulk import is
  caught up in passes, each covering every game verified since the last. The first of them
  runs part-way through a short import (it waits in the broker behind the import's tasks),
  and recomputes again at the end the players of the games it saw: holding it until the
  import settles saved that work (1,892 summaries written instead of 2,984-3,146 for a
  2,000-game import on two workers, ``benchmarks/load.py --import-on-workers``) but put it
  all in the last pass, after the last verdict, when nothing else overlaps it (figures
  current 1.7-1.9 s after the last verdict instead of 0.4-0.9 s): so it is not held;
* the spacing only matters while changes keep coming: a waiting catch-up looks again every
  :data:`CHECK_EVERY` and starts at once when no change has come for :data:`QUIET` (the end of
  a bulk import, a single upload), or for :data:`SETTLED` with the game stored last verified
  (no verification is on its way), so the statistics catch up soon after the last change;
* a claim still waiting :data:`LOST_AFTER` past its due time counts as lost (a message lost
  with a broker that did not keep it, a task dropped by hand), and the next change queues anew.

On SQLite (one writer at a time) the locks are not needed and not taken.

The layers of the stats app, each importing only those before it (never lazily, never for
type checking alone)::

    models -> ratings, metrics, filters -> selectors -> services -> catch_up -> tasks

then the API, the views and the management commands. This module never imports
``stats.tasks``: the tasks it queues or re-queues are handed to it (``stats.tasks`` passes
them, and :func:`catch_up_once_after` holds back the ones it is given).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, TypeAlias

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from config.planner import analyze_if_stale
from mjlogs.models import Game, GameSeat
from replay.models import Verification
from stats.models import QueuedCatchUp, RatingsBacklog, RoundFact, SummaryBacklog
from stats.selectors import (
    newest_game_has_verdict,
    players_of_games,
    study_documents,
    study_pending_games,
)
from stats.services import (
    RATINGS_LOCK,
    document_study_counts,
    game_study_store,
    player_summaries_refresh,
    ratings_recompute,
)

if TYPE_CHECKING:
    from celery import Task  # (the tasks are handed in: Celery is imported by stats.tasks)

    #: A catch-up task of ``stats.tasks``: no arguments, returns how much it did.
    CatchUpTask: TypeAlias = Task[[], int]

logger = logging.getLogger(__name__)


# The summaries' marks ---------------------------------------------------------------------


def summaries_mark_stale(player_ids: Iterable[int]) -> None:
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


def summary_marks_hold(player_ids: Sequence[int]) -> dict[int, int]:
    """Lock these players' marks for the current transaction (waiting for changes that are
    marking them to commit); the version of each marked one."""
    marks = SummaryBacklog.objects.select_for_update().filter(player_id__in=player_ids)
    return dict(marks.order_by("player_id").values_list("player_id", "version"))


def summaries_marked() -> list[int]:
    """The players marked now, in the lock order."""
    return list(SummaryBacklog.objects.order_by("player_id").values_list("player_id", flat=True))


def summary_marks_hold_if_free(player_ids: Sequence[int]) -> dict[int, int]:
    """Lock those of these players' marks that no other transaction holds, for the current
    transaction; the version of each one held (those held elsewhere, or cleared, are left
    out)."""
    marks = SummaryBacklog.objects.select_for_update(skip_locked=True)
    held = marks.filter(player_id__in=player_ids).order_by("player_id")
    return dict(held.values_list("player_id", "version"))


def summary_marks_clear(versions: Mapping[int, int]) -> int:
    """Clear the marks held (player: version), except those marked again since (they stay,
    for the next catch-up). Returns how many were cleared."""
    if not versions:
        return 0
    # One condition a version (marks are mostly at one or two), not one a player: a 200-way OR
    # took longer to build and compile than the delete took to run.
    by_version: dict[int, list[int]] = {}
    for player_id, version in versions.items():
        by_version.setdefault(version, []).append(player_id)
    unchanged = Q()
    for version, player_ids in by_version.items():
        unchanged |= Q(player_id__in=player_ids, version=version)
    return SummaryBacklog.objects.filter(unchanged).delete()[0]


# The summaries' passes --------------------------------------------------------------------

#: The tables a summary is computed from (``stats.selectors.public_summaries_of``).
SUMMARY_SOURCES = (RoundFact, GameSeat, Game, Verification)
#: Players recomputed together, in one transaction: a few grouped queries for the lot
#: (``stats.selectors.public_summaries_of``), and locks held for a fraction of a second.
SUMMARY_CHUNK = 200


def player_summaries_update(player_ids: Iterable[int]) -> int:
    """Recompute these players' summaries from their rows (a player with no public game loses
    theirs), and clear their marks. Idempotent and order-free, so any number of workers may
    run it at once on any players. Returns how many summaries were stored."""
    stored = 0
    for chunk in _chunks(sorted(set(player_ids)), SUMMARY_CHUNK):
        with transaction.atomic():
            # The marks first, then the players: the order the catch-up takes them in.
            versions = summary_marks_hold(chunk)
            stored += player_summaries_refresh(chunk)
            summary_marks_clear(versions)
    return stored


def player_summaries_catch_up(marked: Sequence[int] | None = None) -> int:
    """Recompute the summary of every player marked when it starts (or of those of ``marked``
    still marked), once each however many marks they have, skipping any another worker is
    already on. Returns how many summaries were recomputed (stored or removed).

    Marks made after it started are left to the catch-up their change queued: a pass that took
    them too would never end while games keep being verified, and would keep a worker from
    verifying them."""
    done = 0
    for chunk in _chunks(summaries_marked() if marked is None else marked, SUMMARY_CHUNK):
        with transaction.atomic():
            # Those cleared meanwhile, or held by another worker, are left out.
            versions = summary_marks_hold_if_free(chunk)
            if not versions:
                continue
            player_summaries_refresh(sorted(versions))
            summary_marks_clear(versions)
        done += len(versions)
    return done


def _chunks(ids: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


# The ratings' mark and pass ---------------------------------------------------------------


def ratings_mark_stale(since: datetime | None) -> None:
    """Mark the ratings stale from ``since`` on (from the first game when ``None``)."""
    with transaction.atomic():
        backlog, _ = RatingsBacklog.objects.select_for_update().get_or_create(pk=1)
        if not backlog.stale:
            backlog.since = since
        elif backlog.since is not None:
            backlog.since = None if since is None else min(backlog.since, since)
        backlog.stale = True
        backlog.version = F("version") + 1
        backlog.save()


def ratings_catch_up() -> int | None:
    """Recompute the ratings from the earliest time marked stale, once. Returns the rating
    changes stored (0 when nothing was marked), or ``None`` when another worker is catching up
    and this call did nothing: that worker may have read the marks before this call's, so the
    caller must come back later."""
    # One transaction: the ratings and the clearing of the mark they stand for commit together.
    with transaction.atomic():
        if not _try_lock_ratings():
            return None
        backlog = RatingsBacklog.objects.filter(pk=1, stale=True).first()
        if backlog is None:
            return 0
        stored = ratings_recompute(backlog.since)
        # Not cleared when marked again meanwhile: that change queued the next catch-up.
        RatingsBacklog.objects.filter(pk=1, version=backlog.version).update(stale=False, since=None)
    return stored


def _try_lock_ratings() -> bool:
    """Take the ratings lock (the one :func:`stats.services.ratings_recompute` waits for) for
    this transaction if it is free (PostgreSQL; always on others)."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [RATINGS_LOCK])
        (taken,) = cursor.fetchone()
    return bool(taken)


# The queue: claims and spacing ------------------------------------------------------------

#: The share of one worker's time a catch-up kind may take: a pass that took a minute is
#: followed by the next four minutes after it started at the soonest.
DUTY = 0.25
#: The longest a catch-up is put off, however long the last pass took: how far behind the
#: summaries may fall while changes keep coming. (Each countdown is at most CHECK_EVERY, far
#: under the Redis visibility timeout, so a delayed task is never delivered twice.)
MAX_DELAY = timedelta(minutes=30)
#: A catch-up due this soon runs now rather than going round the broker again.
POSTPONE_SLACK = timedelta(seconds=5)
#: How long past its due time a queued catch-up may still be waiting before it counts as lost
#: (a queue deeper than that only gets one more catch-up, which costs little).
LOST_AFTER = timedelta(minutes=2)
#: A catch-up not yet due wakes at least this often to see whether changes have stopped.
CHECK_EVERY = timedelta(seconds=30)
#: No change for this long: changes have stopped, and a waiting catch-up need not be spaced
#: (while a stream of verifications goes on, they come many times a second).
QUIET = timedelta(seconds=5)
#: A waiting catch-up wakes this long after the last change it knows of (QUIET, and a little
#: for the clocks), so that it starts soon after changes stop: waking only every CHECK_EVERY,
#: it found the end of a bulk import 10 to 40 s late (benchmarks/load.py).
WAKE_AFTER_CHANGE = QUIET + timedelta(seconds=0.5)
#: No change for this long, and the game stored last has its verdict
#: (:func:`stats.selectors.newest_game_has_verdict`): every verification of the uploads has
#: come, so changes have stopped without waiting for QUIET (the end of a bulk import, where
#: waiting QUIET was a fifth of the end-to-end time of benchmarks/load.py). While changes keep
#: coming (verifications commit many times a second), it is never true. (At 1 s the statistics
#: of a 2,000-game import were current 2.2-2.4 s after its last verdict, at 0.5 s 1.6-2.0 s;
#: the catch-ups woke 17-20 times instead of 10, each wake that puts itself off a few queries.)
SETTLED = timedelta(seconds=0.5)
#: A waiting catch-up first wakes this long after the last change it knows of, to see whether
#: the uploads are settled.
WAKE_WHEN_SETTLED = SETTLED + timedelta(seconds=0.1)


def interval() -> timedelta:
    return timedelta(seconds=settings.STATS_CATCH_UP_INTERVAL)


def claim(task: str) -> float | None:
    """Claim the waiting slot of ``task`` for a change just committed. ``None`` when one is
    waiting (queue nothing); otherwise the seconds to delay the task by (0: at once). The
    claim is one statement, so two changes claiming at once cannot both win."""
    now = timezone.now()
    table = connection.ops.quote_name(QueuedCatchUp._meta.db_table)
    with connection.cursor() as cursor:
        # INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING (PostgreSQL, SQLite 3.35+):
        # a row comes back only when it was inserted or the WHERE let the update through.
        cursor.execute(
            f"INSERT INTO {table} (task, queued_at, changed_at) VALUES (%s, %s, %s) "
            f"ON CONFLICT (task) DO UPDATE "
            f"SET queued_at = excluded.queued_at, changed_at = excluded.changed_at "
            f"WHERE {table}.queued_at IS NULL OR {table}.queued_at < %s "
            f"RETURNING started_at, finished_at, last_seconds",
            [task, now, now, now - LOST_AFTER],
        )
        claimed = cursor.fetchone()
        if claimed is None:  # one is waiting: note the change, so it keeps to its spacing
            cursor.execute(f"UPDATE {table} SET changed_at = %s WHERE task = %s", [now, task])
    if claimed is None:
        return None
    started, finished, last_seconds = _aware(claimed[0]), _aware(claimed[1]), claimed[2]
    due = now if started is None else next_start(started, finished, last_seconds, now)
    return _hold_until(task, due, now, wake=now + WAKE_WHEN_SETTLED)


def postpone(task: str) -> float | None:
    """Called by a catch-up as it is about to start: the seconds to put it off by (its claim
    held until it is due), or ``None`` to run now. It was queued with a delay reckoned from
    what was known then; the last pass may have run longer since (or still be running: two
    passes at once would only share the marks, with a second worker taken from verifying), or
    changes may have stopped coming (then it need not wait)."""
    now = timezone.now()
    row = QueuedCatchUp.objects.filter(task=task).first()
    if row is None or row.started_at is None:
        return None
    due = next_start(row.started_at, row.finished_at, row.last_seconds, now)
    if due <= now + POSTPONE_SLACK:
        return None
    if _running(row.started_at, row.finished_at, now):
        # Look again after as long as that pass has run so far (at first soon, then less and
        # less often): once it has finished and the uploads have settled, this one need not
        # wait for its due time. Waking only every CHECK_EVERY, a catch-up claimed by the last
        # verifications of an import while the pass before it ran found the end up to 30 s
        # late (benchmarks/load.py --import-on-workers).
        ran = now - row.started_at
        return _hold_until(task, due, now, wake=now + max(ran, WAKE_WHEN_SETTLED))
    changed = row.changed_at
    if _quiet(changed, now) or changed is None:
        return None
    if changed <= now - SETTLED:
        if newest_game_has_verdict():
            return None
        return _hold_until(task, due, now, wake=changed + WAKE_AFTER_CHANGE)
    return _hold_until(task, due, now, wake=changed + WAKE_WHEN_SETTLED)


def next_start(
    started: datetime, finished: datetime | None, last_seconds: float | None, now: datetime
) -> datetime:
    """When the next catch-up may start, after the one that started at ``started``: an interval
    later, or later still when passes run long, so that they take at most :data:`DUTY` of a
    worker. A pass still running counts as long as it has run so far, or as the last finished
    one took, whichever is longer."""
    if not interval():  # spacing turned off: catch up after every change
        return now
    if _running(started, finished, now):
        busy = max(now - started, timedelta(seconds=last_seconds or 0))
    elif finished is not None:
        busy = finished - started
    else:  # started long ago and never finished: a worker lost with it
        busy = timedelta(seconds=last_seconds or 0)
    return min(started + max(interval(), busy / DUTY), now + MAX_DELAY)


def _running(started: datetime, finished: datetime | None, now: datetime) -> bool:
    """Whether the pass that started at ``started`` is still running (or was lost: one that has
    not finished in :data:`MAX_DELAY` is taken for lost with its worker)."""
    return (finished is None or finished < started) and started > now - MAX_DELAY


def _quiet(changed_at: datetime | None, now: datetime) -> bool:
    """Whether changes have stopped: none for :data:`QUIET`."""
    return changed_at is None or changed_at <= now - QUIET


def _hold_until(task: str, due: datetime, now: datetime, wake: datetime | None = None) -> float:
    """Hold the claim until ``due`` (and LOST_AFTER more); the task's countdown, at most
    :data:`CHECK_EVERY` (it wakes that often to see whether changes have stopped), and no later
    than ``wake`` (when changes would have stopped, if none comes meanwhile)."""
    if due > now:
        QueuedCatchUp.objects.filter(task=task).update(queued_at=due)
    soonest = min(due - now, CHECK_EVERY)
    if wake is not None:
        soonest = min(soonest, wake - now)
    return max(0.0, soonest.total_seconds())


def release(task: str) -> None:
    """Mark ``task`` as started, no longer waiting: call it when the task starts, before it
    reads any mark, so that a change committed from now on queues another."""
    table = connection.ops.quote_name(QueuedCatchUp._meta.db_table)
    with connection.cursor() as cursor:
        # An upsert: a task run without a claim (by hand, or redelivered after the table was
        # emptied) still records its start.
        cursor.execute(
            f"INSERT INTO {table} (task, started_at) VALUES (%s, %s) "
            f"ON CONFLICT (task) DO UPDATE SET queued_at = NULL, started_at = excluded.started_at",
            [task, timezone.now()],
        )


def finish(task: str) -> None:
    """Record that ``task`` finished (or failed), and how long it took: the next is spaced
    after it."""
    now = timezone.now()
    row = QueuedCatchUp.objects.filter(task=task).first()
    if row is None or row.started_at is None:
        return
    took = (now - row.started_at).total_seconds()
    QueuedCatchUp.objects.filter(task=task).update(finished_at=now, last_seconds=took)


def _aware(value: datetime | str | None) -> datetime | None:
    """A timestamp from RETURNING (SQLite hands back text, naive in UTC)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is not None and timezone.is_naive(value):
        value = value.replace(tzinfo=UTC)
    return value


# Queueing and running the catch-up tasks --------------------------------------------------

#: The catch-ups held back by :func:`catch_up_once_after` in this context, in the order first
#: asked for (``None``: none held back, each runs when asked).
_held_catch_ups: ContextVar[list[CatchUpTask] | None] = ContextVar("held_catch_ups", default=None)


def game_stats_mark(
    game: Game,
    *,
    summaries: CatchUpTask,
    ratings: CatchUpTask,
    study: CatchUpTask | None = None,
) -> None:
    """Mark what a change to this game (verified, deleted, made public or private) changes,
    and after the current transaction commits, queue the catch-up tasks that bring it up to
    date (:func:`queue_catch_up`): ``summaries`` for its players' summaries, ``ratings`` for
    the ratings from its time on, and first ``study`` for the study aids of games verified
    since the last (:func:`study_pass`). Call it inside the transaction that changes the game,
    before deleting it (it reads the game's players now); ``stats.tasks.game_stats_queue_update``
    does, with the tasks."""
    games_stats_mark([game], summaries=summaries, ratings=ratings, study=study)


def games_stats_mark(
    games: Sequence[Game],
    *,
    summaries: CatchUpTask,
    ratings: CatchUpTask,
    study: CatchUpTask | None = None,
) -> None:
    """:func:`game_stats_mark` for several games changed in one transaction (a batch of
    verifications): one mark of all their players, and the ratings from the earliest."""
    if not games:
        return
    player_ids = players_of_games([game.pk for game in games])
    times = [game.started_at or game.uploaded_at for game in games]
    since = None if None in times else min(time for time in times if time is not None)
    # Marked in the change's own transaction: a committed change is never unmarked.
    summaries_mark_stale(player_ids)

    def queue() -> None:
        if study is not None:
            # First: it marks the players whose counts it adds to, for the summaries' pass.
            queue_catch_up(study)
        if player_ids:
            queue_catch_up(summaries)
        # Marked now, not when the task runs: the catch-up then finds every mark made before
        # it started, and one catch-up serves a burst of changes.
        ratings_mark_stale(since)
        queue_catch_up(ratings)

    transaction.on_commit(queue)


@contextmanager
def catch_up_once_after(*, leave: Collection[str] = ()) -> Iterator[None]:
    """Bring the statistics up to date once, after a bulk change (an import of many games, a
    reverification), instead of after each game. In-process catch-ups whose task name is in
    ``leave`` are not run at the end (their marks stay: the study aids' games wait for
    ``manage.py study_games``, which ``import_logs`` names).

    It matters where tasks run in-process (Celery eager, the default setup): there every
    verified game ran its players' summaries and the ratings at once, so an import of N games
    recomputed the same players N times, two thirds of the import's time. Inside the block
    such catch-ups are only noted (the marks are made and committed as always); when it ends
    each kind runs once and finds every mark. With a broker nothing is held back: the catch-up
    queue already spaces them.

    When the block ends with an error the catch-ups are not run (the database may be what
    failed); the marks stay, the statistics read the rows until the next change catches up."""
    if _held_catch_ups.get() is not None:  # nested: the outermost block runs them
        yield
        return
    held: list[CatchUpTask] = []
    token = _held_catch_ups.set(held)
    try:
        yield
    finally:
        _held_catch_ups.reset(token)
    # Each held catch-up runs once, in the order asked. One that asks for another still to run
    # (the study aids' pass asks for the summaries' pass) leaves it to its turn; one it asks for
    # that has run already runs again after the rest.
    while held:
        task = held.pop(0)
        if task.name in leave:
            continue
        token = _held_catch_ups.set(held)
        try:
            _queue_now(task)
        finally:
            _held_catch_ups.reset(token)


def queue_catch_up(task: CatchUpTask) -> None:
    """Queue this catch-up task (``stats.tasks``) unless one is already waiting, to start no
    sooner than the catch-up interval after the last one started (:func:`claim`); when the
    broker cannot be reached, run it here at once. Inside :func:`catch_up_once_after`, a
    catch-up that would run in-process waits for its end."""
    held = _held_catch_ups.get()
    if held is not None and task.app.conf.task_always_eager:
        if task not in held:
            held.append(task)
        return
    _queue_now(task)


def _queue_now(task: CatchUpTask) -> None:
    """:func:`queue_catch_up` without holding it back."""
    delay = claim(task.name)
    if delay is None:
        return
    from kombu.exceptions import OperationalError as BrokerUnreachable  # (Celery's: loaded)

    try:
        if delay:
            task.apply_async(countdown=delay)
        else:
            task.delay()
    except BrokerUnreachable as error:
        logger.warning("The task broker cannot be reached (%s): running %s here", error, task.name)
        task()


#: Helpers a summaries' pass queues at most (one a worker process beyond its own, on a
#: 16-core machine): a helper that finds every chunk taken costs a few queries.
SUMMARY_HELPERS = 15


def player_summaries_pass(task: CatchUpTask, helper: CatchUpTask | None = None) -> int:
    """What the summaries' catch-up ``task`` does when it runs: unless it puts itself off
    (:func:`postpone`), release its claim, recompute the summaries of the players marked
    (:func:`player_summaries_catch_up`) and record the pass. Returns how many.

    On a worker, a pass of more than one chunk first queues a ``helper`` a chunk beyond the
    first (up to :data:`SUMMARY_HELPERS`): a task that runs :func:`player_summaries_catch_up`
    too, so that idle workers take chunks beside it (the chunks a worker holds are skipped by
    the others). At the end of a bulk import every summary is behind at once, and one worker
    recomputing them all while the others waited was most of the time the statistics took to
    catch up (benchmarks/load.py). Helpers queued behind verifications find the pass done, and
    cost a few queries."""
    if _postponed(task):
        return 0
    release(task.name)
    try:
        marked = summaries_marked()
        if len(marked) >= SUMMARY_CHUNK:
            # Many players behind at once: a bulk import, whose rows the planner may not know.
            analyze_if_stale([model._meta.db_table for model in SUMMARY_SOURCES])
        if helper is not None and not task.app.conf.task_always_eager:
            helpers = max(0, len(marked) - 1) // SUMMARY_CHUNK
            _queue_helpers(helper, min(SUMMARY_HELPERS, helpers))
        return player_summaries_catch_up(marked)
    finally:
        finish(task.name)


def _queue_helpers(helper: CatchUpTask, count: int) -> None:
    from kombu.exceptions import OperationalError as BrokerUnreachable  # (Celery's: loaded)

    try:
        for _ in range(count):
            helper.delay()
    except BrokerUnreachable as error:  # the pass goes on alone
        logger.warning("The task broker cannot be reached (%s): no helpers", error)


def ratings_pass(task: CatchUpTask) -> int:
    """What the ratings' catch-up ``task`` does when it runs: unless it puts itself off
    (:func:`postpone`), release its claim and bring the ratings up to date
    (:func:`ratings_catch_up`); when another worker is doing it already, queue ``task`` again
    for later. Returns the changes stored."""
    if _postponed(task):
        return 0
    release(task.name)
    try:
        stored = ratings_catch_up()
    finally:
        finish(task.name)
    if stored is None:  # another worker is catching up: come back after it
        if not task.app.conf.task_always_eager:  # eager, it would run again at once
            queue_catch_up(task)
        return 0
    return stored


def _postponed(task: CatchUpTask) -> bool:
    """Whether this catch-up put itself off: not yet due while changes keep coming, or the last
    one still running (queued again to look at most 30 s later, :func:`postpone`). Eager tasks
    run one after another, and never are."""
    if task.app.conf.task_always_eager:
        return False
    delay = postpone(task.name)
    if delay is None:
        return False
    from kombu.exceptions import OperationalError as BrokerUnreachable  # (Celery's: loaded)

    try:
        task.apply_async(countdown=delay)
    except BrokerUnreachable:  # run here, as the change that found no broker asked
        return False
    return True


# The study aids ---------------------------------------------------------------------------

#: The name of the study aids' catch-up task (``stats.tasks.catch_up_study``), which Celery
#: queues by: named here so that a bulk import can leave it (``catch_up_once_after``) without
#: importing the tasks, and with them Celery, before it forks its workers.
STUDY_CATCH_UP = "stats.tasks.catch_up_study"
#: Games whose study aids a pass counts before marking their players (one transaction each).
STUDY_CHUNK = 20
#: How long a study pass runs in-process (Celery eager, the default setup: after an upload, at
#: the end of a bulk import) before it stops: it counts what fits, at least one game, and leaves
#: the rest to the next pass or to ``manage.py study_games``, so that an import is not held up
#: by them (about 40 ms a game: docs/performance.md).
EAGER_STUDY_SECONDS = 1.0
#: How long a pass on a worker runs before it queues the next (spaced as every catch-up).
STUDY_SECONDS = 60.0


def study_catch_up(
    budget: float | None = None, *, pool: Executor | None = None
) -> tuple[int, bool]:
    """Count the study aids of the games waiting for them (verified since their last count:
    their fact rows' ``decisions`` are null), lowest id first, through
    :func:`stats.services.game_study_store`, and mark their players' summaries behind. Stops
    once ``budget`` seconds have passed (after one game at least). Returns how many games were
    counted, and whether some are still waiting.

    With a ``pool`` of processes (``manage.py study_games --jobs``), they work out the counts
    (the engine's work, :func:`stats.services.document_study_counts`) and this process stores
    them, a chunk of games at a time."""
    started = time.monotonic()
    done = 0
    chunk = STUDY_CHUNK if pool is None else STUDY_CHUNK * POOLED_CHUNKS
    while True:
        pending = study_pending_games(chunk)
        if not pending:
            return done, False
        counted_ahead = _counted_in(pool, pending) if pool is not None else {}
        counted = 0
        for game_id in pending:
            # The players' summaries are marked behind with the counts, in their transaction:
            # marked after a batch, a pass that died before marking (or a look between the
            # two) left counts that no summary would take in.
            game_study_store(
                game_id,
                with_counts=partial(_summaries_behind_of, game_id),
                counts=counted_ahead.get(game_id),
            )
            counted += 1
            if budget is not None and time.monotonic() - started >= budget:
                break
        done += counted
        if budget is not None and time.monotonic() - started >= budget:
            return done, bool(study_pending_games(1))


#: With a pool, a chunk is this many times :data:`STUDY_CHUNK`, so that every process has work.
POOLED_CHUNKS = 5


def _counted_in(
    pool: Executor, game_ids: Sequence[int]
) -> dict[int, Mapping[tuple[int, int], tuple[int, ...]]]:
    """The study counts of these games (those still stored), worked out in ``pool``."""
    documents = study_documents(game_ids)
    ids = [game_id for game_id in game_ids if game_id in documents]
    found = pool.map(document_study_counts, ids, [documents[game_id] for game_id in ids])
    return dict(zip(ids, found, strict=True))


def _summaries_behind_of(game_id: int) -> None:
    summaries_mark_stale(players_of_games([game_id]))


def study_pass(task: CatchUpTask, summaries: CatchUpTask) -> int:
    """What the study aids' catch-up ``task`` does when it runs: unless it puts itself off
    (:func:`postpone`), release its claim, count the games waiting (:func:`study_catch_up`,
    for :data:`STUDY_SECONDS` on a worker, :data:`EAGER_STUDY_SECONDS` in-process), then
    queue ``summaries`` for the players marked, and on a worker ``task`` again while games
    are left. Returns the games counted."""
    if _postponed(task):
        return 0
    release(task.name)
    eager = bool(task.app.conf.task_always_eager)
    try:
        done, left = study_catch_up(EAGER_STUDY_SECONDS if eager else STUDY_SECONDS)
    finally:
        finish(task.name)
    if done:
        queue_catch_up(summaries)
    if left and not eager:  # in-process they wait for the next pass (no queue to go round)
        queue_catch_up(task)
    return done
