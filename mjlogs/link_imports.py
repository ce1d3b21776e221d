"""Games brought in by their Tenhou link or log id: the write paths, and the two reads the page
and the API need (kept beside them: they decide together who sees a link import).

:func:`link_import_request` reads the link (``mjlogs.tenhou_links``), stores a
:class:`~mjlogs.models.LinkImport` and queues the Celery task ``import_tenhou_link`` once the row
is committed. The task calls :func:`link_import_run`: one request to Tenhou's log server
(``mjlogs.log_fetch``), then the answer is imported exactly like an upload of a file named
``<log id>.mjlog`` (:func:`mjlogs.importing.upload_import`), by the requester, with the visibility
they chose. A transient failure (no answer, a 5xx, a 429) with tries left puts the row back in
the queue and raises :class:`TryAgainLater`, which the task turns into a retry; the row counts
the tries (``MJLOGS_FETCH_ATTEMPTS`` in all).

A row always ends ``imported``, ``duplicate`` or ``failed`` with a message, whatever went wrong:
only a database that cannot be used leaves it waiting (the task is retried, and a run finds
rows still ``queued`` or ``fetching``). Running the task twice does no harm: a finished row is
left as it is.

**Not fetched twice.** A log id that an earlier link import already brought in (a public game,
or the requester's own private one) is answered at once as ``duplicate`` of that game, without a
request. A game merely *uploaded* under that log id does not count: a log id is a record's
claim, not its identity (docs/security.md), so the record is fetched, and it is a duplicate of
the uploaded game only if it is the same game.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Account
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from config.middleware import DATABASE_ERRORS
from mjlogs import selectors
from mjlogs.archives import UploadedFile
from mjlogs.copies import copies_regroup
from mjlogs.errors import TooMany
from mjlogs.importing import ImportSummary, Status, upload_import
from mjlogs.log_fetch import FetchError, fetch_tenhou_log, retry_delay
from mjlogs.models import Game, LinkImport, LinkImportStatus, Visibility
from mjlogs.tenhou_links import log_id_from_link

logger = logging.getLogger(__name__)

User = Account | AnonymousUser

#: What a row says when its task could not be queued.
BROKER_DOWN = (
    "the import could not be queued: the task broker cannot be reached; please try again later"
)
#: What a row says after an error nobody foresaw (the error itself is logged).
UNEXPECTED = "the import failed on an unexpected error (logged for the administrators)"

#: What a request still waiting long after it was made says, once asked again.
ABANDONED = "the fetch stopped without finishing (the process running it ended); asked again"
#: When a waiting request counts as abandoned: well past the longest retry schedule (three
#: tries, at most 300 s apart) and the timeouts.
ABANDONED_AFTER = timedelta(minutes=30)

_WAITING = (LinkImportStatus.QUEUED, LinkImportStatus.FETCHING)
#: Link imports whose game came from Tenhou's log server, fetched by one of them.
_FETCHED = (LinkImportStatus.IMPORTED, LinkImportStatus.DUPLICATE)


class TooManyWaiting(TooMany):
    """Refused: the requester already has ``limit`` link imports waiting
    (``MJLOGS_FETCH_PENDING_PER_USER``); they may ask again once one of them ends."""

    def __init__(self, message: str, limit: int) -> None:
        super().__init__(message)
        self.limit = limit


class TryAgainLater(Exception):
    """A transient failure with tries left: run :func:`link_import_run` again in ``delay``
    seconds. The row is queued again, its ``error`` noting the failed try."""

    def __init__(self, delay: float, error: FetchError) -> None:
        super().__init__(f"{error} (trying again in {delay:g} s)")
        self.delay = delay
        self.error = error


def link_import_request(*, user: User, link: str, visibility: str) -> LinkImport:
    """Ask for the game a Tenhou link or log id names, as ``user``'s upload with this
    visibility. The fetch is queued once the row is committed (with tasks run in-process, it has
    run when this returns); a log id brought in before is answered at once as a duplicate.

    :raises ValueError: not a Tenhou log link or id (the message says what is wrong), or an
        unknown visibility.
    :raises TooManyWaiting: the user already has ``MJLOGS_FETCH_PENDING_PER_USER`` link imports
        waiting (one answered at once as a duplicate is never refused: it fetches nothing).
    """
    if visibility not in Visibility.values:
        raise ValueError(f"visibility must be one of {', '.join(Visibility.values)}")
    ref = log_id_from_link(link)
    requester = user if user.is_authenticated else None
    row = LinkImport(
        link=link.strip(),
        source=ref.source,
        log_id=ref.log_id,
        seat=ref.seat,
        requested_by=requester,
        visibility=visibility,
    )
    _fail_abandoned(ref.log_id)
    known = _fetched_before(ref.log_id, requester)
    if known is not None:
        row.status = LinkImportStatus.DUPLICATE
        row.game = known
        row.finished_at = timezone.now()
        row.save()
        return row
    with transaction.atomic():
        _hold_place(requester)
        row.save()
        transaction.on_commit(lambda: _queue(row.pk))
    # With tasks run in-process (and outside a transaction) the import has run by now.
    row.refresh_from_db()
    return row


def _hold_place(requester: Account | None) -> None:
    """Refuse a request past the requester's limit of waiting link imports: each takes a place
    in the fetch queue, which one user must not fill (``MJLOGS_FETCH_PENDING_PER_USER``). A row
    waiting since long ago (:data:`ABANDONED_AFTER`) holds no place. The user's row is locked
    first (in the caller's transaction), so that two requests of one user at once are counted
    one after the other (PostgreSQL; SQLite writes one transaction at a time)."""
    limit = int(settings.MJLOGS_FETCH_PENDING_PER_USER)
    if requester is not None:
        users = get_user_model()._default_manager.select_for_update()
        list(users.filter(pk=requester.pk).values("pk"))
    waiting = LinkImport.objects.filter(
        requested_by=requester,
        status__in=_WAITING,
        created_at__gte=timezone.now() - ABANDONED_AFTER,
    ).count()
    if waiting >= limit:
        raise TooManyWaiting(
            f"you already have {limit} games waiting to be fetched from Tenhou's log server, "
            "the most one person may have; ask again once one of them is done",
            limit,
        )


def _fail_abandoned(log_id: str) -> None:
    """End as failed the requests of this log id still waiting long after any retry schedule
    would have ended them (:data:`ABANDONED_AFTER`): the process running the fetch ended (a web
    process that ran it in-process, a worker lost with its queue). Asking again starts anew."""
    LinkImport.objects.filter(
        log_id=log_id,
        status__in=_WAITING,
        created_at__lt=timezone.now() - ABANDONED_AFTER,
    ).update(status=LinkImportStatus.FAILED, error=ABANDONED, finished_at=timezone.now())


def _queue(link_import_id: int) -> None:
    from mjlogs.tasks import import_tenhou_link  # the tasks call this module

    try:
        import_tenhou_link.delay(link_import_id)
    except BrokerUnreachable as error:
        logger.warning("Link import %d could not be queued: %s", link_import_id, error)
        _finish(link_import_id, LinkImportStatus.FAILED, error=BROKER_DOWN)


def link_import_run(link_import_id: int) -> LinkImport | None:
    """Fetch and import the game of one link import (the Celery task's work); returns the row
    as it ended, or ``None`` when there is no such row. A row already finished is returned
    as it is (the task ran twice).

    :raises TryAgainLater: a transient failure with tries left; the row is queued again.
    :raises OperationalError, InterfaceError: the database cannot be used (the row waits).
    """
    row = _claim(link_import_id)
    if row is None:
        return LinkImport.objects.filter(pk=link_import_id).first()
    attempts = int(settings.MJLOGS_FETCH_ATTEMPTS)
    try:
        known = _fetched_before(row.log_id, row.requested_by)
        if known is not None:  # another link import brought it in meanwhile
            return _finish(row.pk, LinkImportStatus.DUPLICATE, game=known)
        if row.attempts > attempts:  # a worker stopped during the last try
            return _finish(row.pk, LinkImportStatus.FAILED, error=_gave_up(row.error, attempts))
        try:
            data = fetch_tenhou_log(row.log_id)
        except FetchError as error:
            if not error.transient:
                return _finish(row.pk, LinkImportStatus.FAILED, error=error.message)
            if row.attempts >= attempts:
                return _finish(row.pk, LinkImportStatus.FAILED, error=_gave_up(error, attempts))
            later = TryAgainLater(retry_delay(row.attempts, error), error)
            _requeue(row.pk, f"try {row.attempts} of {attempts}: {later}")
            raise later from None
        summary = upload_import(
            [UploadedFile(f"{row.log_id}.mjlog", data)],
            uploader=row.requested_by,
            visibility=row.visibility,
        )
        return _finish_import(row.pk, summary)
    except (TryAgainLater, *DATABASE_ERRORS):
        raise
    except Exception:
        logger.exception("Link import %d (%s) failed", row.pk, row.log_id)
        return _finish(row.pk, LinkImportStatus.FAILED, error=UNEXPECTED)


def link_import_fail(link_import_id: int, error: str) -> LinkImport | None:
    """End a row that is still waiting as failed with this message (a task that gave up);
    a finished row is left as it is."""
    LinkImport.objects.filter(pk=link_import_id, status__in=_WAITING).update(
        status=LinkImportStatus.FAILED, error=error, finished_at=timezone.now()
    )
    return LinkImport.objects.filter(pk=link_import_id).first()


def _claim(link_import_id: int) -> LinkImport | None:
    """Mark a waiting row as being fetched, counting the try; ``None`` when it is not waiting."""
    claimed = LinkImport.objects.filter(pk=link_import_id, status__in=_WAITING).update(
        status=LinkImportStatus.FETCHING, attempts=F("attempts") + 1
    )
    if not claimed:
        return None
    return LinkImport.objects.select_related("requested_by").get(pk=link_import_id)


def _requeue(link_import_id: int, note: str) -> None:
    LinkImport.objects.filter(pk=link_import_id).update(status=LinkImportStatus.QUEUED, error=note)


def _gave_up(error: FetchError | str, attempts: int) -> str:
    last = error.message if isinstance(error, FetchError) else error
    return f"{last} (tried {attempts} times)" if last else f"gave up after {attempts} tries"


def _finish_import(link_import_id: int, summary: ImportSummary) -> LinkImport:
    """The row's end from what the import made of Tenhou's answer."""
    stored = [outcome for outcome in summary.outcomes if outcome.game_id is not None]
    if not stored:
        errors = "; ".join(outcome.error for outcome in summary.outcomes if outcome.error)
        return _finish(
            link_import_id,
            LinkImportStatus.FAILED,
            error=f"what Tenhou's log server sent could not be imported: "
            f"{errors or 'it holds no game'}",
        )
    new = [outcome for outcome in stored if outcome.status is Status.IMPORTED]
    status = LinkImportStatus.IMPORTED if new else LinkImportStatus.DUPLICATE
    game_id = (new or stored)[0].game_id
    assert game_id is not None  # (a stored outcome)
    return _finish(link_import_id, status, game=Game.objects.get(pk=game_id))


def _finish(
    link_import_id: int, status: str, *, error: str = "", game: Game | None = None
) -> LinkImport:
    row = LinkImport.objects.get(pk=link_import_id)
    row.status = status
    row.error = error
    row.game = game
    row.finished_at = timezone.now()
    with transaction.atomic():
        row.save(update_fields=("status", "error", "game", "finished_at"))
        if game is not None and status in _FETCHED:
            # The record as Tenhou keeps it: the copy of its game that counts, if the rules
            # agree with it (mjlogs.copies).
            copies_regroup([game.play_hash])
    return row


def _fetched_before(log_id: str, user: Account | None) -> Game | None:
    """The game of this log id that an earlier link import brought in from Tenhou and that an
    upload of it by ``user`` would be a duplicate of: the public one, else their own private
    one (as ``mjlogs.storing.game_store`` finds duplicates)."""
    games = Game.objects.filter(
        source_id=log_id,
        link_imports__log_id=log_id,
        link_imports__status__in=_FETCHED,
    ).distinct()
    public = games.filter(visibility=Visibility.PUBLIC).order_by("pk").first()
    if public is not None or user is None:
        return public
    return games.filter(visibility=Visibility.PRIVATE, uploader=user).order_by("pk").first()


# --- Reads ------------------------------------------------------------------------------------


def link_imports_visible_to(user: User) -> QuerySet[LinkImport]:
    """The link imports this user may see: the public ones, their own, and all for staff (as
    games are: ``mjlogs.selectors.games_visible_to``)."""
    rows = LinkImport.objects.select_related("game")
    if getattr(user, "is_staff", False):
        return rows
    if user.is_authenticated:
        return rows.filter(Q(visibility=Visibility.PUBLIC) | Q(requested_by=user))
    return rows.filter(visibility=Visibility.PUBLIC)


def games_claiming(user: User, log_id: str, limit: int = 5) -> list[Game]:
    """The stored games this user may see whose record claims this Tenhou log id (their
    ``source_id``): what the form says is already here before anything is queued. A log id is
    only a record's claim, so this is what is here *under that id*, not a verdict: each game's
    ``fetched`` says whether a link import brought it in from Tenhou's log server (then it is
    Tenhou's record), else it was uploaded. Those fetched first, then the oldest; at most
    ``limit``."""
    fetched = LinkImport.objects.filter(game=OuterRef("pk"), log_id=log_id, status__in=_FETCHED)
    games = (
        selectors.games_visible_to(user)
        .filter(source_id=log_id)
        .annotate(fetched=Exists(fetched))
        .order_by("-fetched", "pk")
        .only("pk", "source_id", "uploaded_at", "visibility")
    )
    return list(games[:limit])


def link_import_get(user: User, link_import_id: int) -> LinkImport:
    """One link import this user may see. Its ``game`` is left out (``None``, in this instance
    only) when the user may not see that game (made private since).

    :raises LinkImport.DoesNotExist: no such link import, or one this user may not see.
    """
    row = link_imports_visible_to(user).get(pk=link_import_id)
    if row.game_id is not None and not (
        selectors.games_visible_to(user).filter(pk=row.game_id).exists()
    ):
        row.game = None
    return row
