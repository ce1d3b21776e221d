"""The upload page: a form that works without JavaScript, and the endpoint its script posts
each file to (``Accept: application/json``)."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from config.middleware import DATABASE_ERRORS, DATABASE_RETRY_AFTER
from mjlogs import importing
from mjlogs.engine_words import say
from mjlogs.forms import UploadForm
from mjlogs.queued_imports import QueueUnavailable, queued_import_create
from mjlogs.selectors import queued_imports_latest
from mjlogs.throttling import upload_wait
from mjlogs.uploads import UploadRefused, check_upload_size, files_from_form

TEMPLATE = "mjlogs/upload.html"

#: How a page starts the message of an upload refused on its headers (``UploadRefused.title``).
REFUSALS = {
    "Refused": gettext_lazy("Refused"),
    "Too large": gettext_lazy("Too large"),
    "Length required": gettext_lazy("Length required"),
}

logger = logging.getLogger(__name__)

#: When the database cannot be used (``config.middleware.DATABASE_ERRORS``), an upload is
#: answered 503 with this, and nothing of it was stored (``importing.upload_import`` is one
#: transaction). The REST API answers the same.
DATABASE_UNAVAILABLE = (
    "The database is not available right now, so nothing of this upload was stored. "
    "Please try again in a minute."
)


#: When a queued upload cannot reach the task broker: nothing of it was queued.
BROKER_UNAVAILABLE = gettext_lazy(
    "The workers cannot be reached right now, so nothing of this upload was queued. Please "
    "try again in a minute, or upload without the workers."
)
BROKER_RETRY_AFTER = 60
#: The user's latest uploads on the workers the form lists.
QUEUED_SHOWN = 5


def database_unavailable_is_503(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """Answer 503 naming the database, instead of a 500 traceback, when the database cannot be
    used. Put it outermost: loading the logged-in user needs the database too."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except DATABASE_ERRORS as error:
            logger.error("Upload refused, the database is not available: %s", error)
            try:
                request.user.is_authenticated  # noqa: B018 - loads the account, if it can
            except DATABASE_ERRORS:
                # Without the database the account cannot be loaded: show the page as to a
                # visitor rather than fail again while rendering it.
                request.user = AnonymousUser()
            response = _refused(request, _wants_json(request), 503, DATABASE_UNAVAILABLE)
            response["Retry-After"] = str(DATABASE_RETRY_AFTER)
            return response

    return guarded


# CSRF is checked in the view, after the size check: Django's middleware would read (and spool
# to disk) the whole body of an oversized request to look for the form's token first.
@csrf_exempt
@database_unavailable_is_503
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    """GET: the upload form. POST: import the files and show (or, for ``Accept:
    application/json``, answer) what became of each game. 413 for a request over
    ``MJLOGS_MAX_UPLOAD_BYTES``, 411 for a chunked body (``Transfer-Encoding``), 429 over
    ``MJLOGS_UPLOAD_RATE``, 400 without a file, 503 when the database cannot be used (nothing
    stored: the upload is all or nothing)."""
    if request.method != "POST":
        return _page(request, UploadForm())
    as_json = _wants_json(request)
    try:
        check_upload_size(request)
    except UploadRefused as error:
        title = REFUSALS.get(error.title, error.title)
        message = gettext("%(title)s: %(error)s.") % {"title": title, "error": say(str(error))}
        return _refused(request, as_json, error.status, message)
    try:
        request.FILES  # noqa: B018 - parses the form: the first place too many files show
    except TooManyFilesSent:
        message = gettext(
            "Too many files in one upload: at most %(count)s. Put them in a zip or tar "
            "archive, or send them in several uploads."
        ) % {"count": settings.DATA_UPLOAD_MAX_NUMBER_FILES}
        return _refused(request, as_json, 400, message)
    rejected = _csrf_rejection(request)
    if rejected is not None:
        return rejected
    wait = upload_wait(request)
    if wait is not None:
        seconds = math.ceil(wait)
        message = gettext("Too many uploads: try again in %(seconds)s seconds.") % {
            "seconds": seconds
        }
        response = _refused(request, as_json, 429, message)
        response["Retry-After"] = str(seconds)
        return response
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        if as_json:
            # (Each error of an ErrorList comes as its message; str() for the type checker.)
            errors = [str(error) for field in form.errors.values() for error in field]
            return JsonResponse({"error": " ".join(errors), "errors": form.errors}, status=400)
        return _page(request, form, status=400)
    user = request.user
    assert user.is_authenticated  # (login_required)
    if form.cleaned_data["on_workers"]:
        return _queue(request, form, as_json)
    summary = importing.upload_import(
        files_from_form(form.cleaned_data["files"]),
        uploader=user,
        visibility=form.cleaned_data["visibility"],
        modifiers=form.cleaned_data["modifiers"],
    )
    if as_json:
        # For the page's script: each failure in the page's language (the REST API keeps the
        # engine's English, mjlogs.engine_words).
        outcomes = [
            outcome.to_json() | ({"error": say(outcome.error).plain()} if outcome.error else {})
            for outcome in summary.outcomes
        ]
        return JsonResponse({"outcomes": outcomes, "counts": summary.counts})
    form = UploadForm(
        initial={
            "visibility": form.cleaned_data["visibility"],
            "modifiers": list(form.cleaned_data["modifiers"]),
        }
    )
    return _page(request, form, summary=summary)


def _page(
    request: HttpRequest, form: UploadForm, status: int = 200, **context: Any
) -> HttpResponse:
    """The upload page with this form, and the user's latest uploads on the workers (to go
    back to one after leaving its page)."""
    context |= {"form": form, "queued_recent": queued_imports_latest(request.user, QUEUED_SHOWN)}
    return render(request, TEMPLATE, context, status=status)


def _queue(request: HttpRequest, form: UploadForm, as_json: bool) -> HttpResponse:
    """Queue the files for the workers (``mjlogs.queued_imports``) and send the browser to the
    page that follows them; 503 naming the broker when it cannot be reached (nothing queued)."""
    user = request.user
    assert isinstance(user, User)  # (login_required)
    try:
        queued = queued_import_create(
            files_from_form(form.cleaned_data["files"]),
            uploader=user,
            visibility=form.cleaned_data["visibility"],
            modifiers=form.cleaned_data["modifiers"],
        )
    except QueueUnavailable as error:
        logger.error("Queued upload refused: %s", error)
        response = _refused(request, as_json, 503, str(BROKER_UNAVAILABLE))
        response["Retry-After"] = str(BROKER_RETRY_AFTER)
        return response
    page = reverse("mjlogs:queued_import", kwargs={"queued_import_id": queued.pk})
    if as_json:
        return JsonResponse({"queued_import": queued.pk, "url": page}, status=202)
    return redirect(page)


def _wants_json(request: HttpRequest) -> bool:
    """Whether the client prefers JSON to a page (a browser's form post prefers HTML)."""
    preferred = request.get_preferred_type(["text/html", "application/json"])
    return preferred == "application/json"


def _refused(request: HttpRequest, as_json: bool, status: int, message: str) -> HttpResponse:
    if as_json:
        return JsonResponse({"error": message}, status=status)
    return render(request, TEMPLATE, {"form": UploadForm(), "error": message}, status=status)


def _csrf_rejection(request: HttpRequest) -> HttpResponse | None:
    """Django's CSRF check, as the middleware makes it for a view that is not exempt: ``None``
    when the request passes, else the 403 answer."""
    check = CsrfViewMiddleware(lambda request: HttpResponse())
    return check.process_view(request, _checked, (), {})


def _checked(request: HttpRequest) -> HttpResponse:  # pragma: no cover - never called
    """The view the CSRF check is made for: not exempt."""
    raise AssertionError
