"""The pages that bring a game in by its Tenhou link: a form (log-in required, like the upload
page, and counted in the same upload budget), and each request's status page, which reloads
itself while the fetch waits or runs (a ``<meta http-equiv="refresh">``: the
Content-Security-Policy allows no inline script) and shows how far it has come.

The form says at once, before anything is queued, when games stored here claim the link's log
id (``mjlogs.link_imports.games_claiming``), with a link to each, and fetches only when asked
again (``fetch_anyway``). A failed request's page has a "Try again" button, which posts the same
link and visibility to the form."""

from __future__ import annotations

import math

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from mjlogs.engine_words import say
from mjlogs.link_imports import (
    TooManyWaiting,
    games_claiming,
    link_import_get,
    link_import_request,
)
from mjlogs.models import LinkImport, LinkImportStatus, Visibility
from mjlogs.tenhou_links import EXAMPLE, MAX_LINK_LENGTH, log_id_from_link
from mjlogs.throttling import upload_wait

FORM_TEMPLATE = "mjlogs/upload_link.html"
STATUS_TEMPLATE = "mjlogs/link_import.html"
#: Seconds between two reloads of a status page while the fetch waits or runs.
REFRESH_SECONDS = 2


class LinkImportForm(forms.Form):
    link = forms.CharField(
        label=gettext_lazy("Tenhou replay link or log id"),
        max_length=MAX_LINK_LENGTH,
        help_text=format_lazy(
            gettext_lazy("Such as https://tenhou.net/0/?log={example}&tw=2, or {example}."),
            example=EXAMPLE,
        ),
        widget=forms.TextInput(attrs={"size": 60, "autocomplete": "off", "spellcheck": "false"}),
    )
    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        initial=Visibility.PUBLIC,
        widget=forms.RadioSelect,
        label=gettext_lazy("Who may see the game"),
    )
    #: Fetch even though games stored here claim the log id (the form said so, and the person
    #: asked again).
    fetch_anyway = forms.BooleanField(required=False, widget=forms.HiddenInput)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def upload_link(request: HttpRequest) -> HttpResponse:
    """GET: the form. POST: ask for the game and go to its status page; the form again with
    the problem (400) for a link that names no Tenhou log, 429 over ``MJLOGS_UPLOAD_RATE`` or
    with ``MJLOGS_FETCH_PENDING_PER_USER`` requests of the user's already waiting."""
    if request.method != "POST":
        return render(request, FORM_TEMPLATE, {"form": LinkImportForm()})
    form = LinkImportForm(request.POST)
    if not form.is_valid():
        return render(request, FORM_TEMPLATE, {"form": form}, status=400)
    here = _already_here(request, form.cleaned_data["link"])
    if here is not None and not form.cleaned_data["fetch_anyway"]:
        return render(request, FORM_TEMPLATE, {"form": form, **here})
    wait = upload_wait(request)
    if wait is not None:
        seconds = math.ceil(wait)
        error = gettext("Too many uploads: try again in %(seconds)s seconds.") % {
            "seconds": seconds
        }
        response = render(request, FORM_TEMPLATE, {"form": form, "error": error}, status=429)
        response["Retry-After"] = str(seconds)
        return response
    try:
        row = link_import_request(
            user=request.user,
            link=form.cleaned_data["link"],
            visibility=form.cleaned_data["visibility"],
        )
    except ValueError as error:
        form.add_error("link", say(str(error)).plain())
        return render(request, FORM_TEMPLATE, {"form": form}, status=400)
    except TooManyWaiting as error:
        context = {"form": form, "error": say(str(error)).plain()}
        return render(request, FORM_TEMPLATE, context, status=429)
    return redirect("mjlogs:link_import", link_import_id=row.pk)


def _already_here(request: HttpRequest, link: str) -> dict[str, object] | None:
    """What the form says when stored games the user may see claim the link's log id: the
    log id, the seat the link shows, the games; ``None`` when none does (or the link names no
    log: the request says what is wrong)."""
    try:
        ref = log_id_from_link(link)
    except ValueError:
        return None
    games = games_claiming(request.user, ref.log_id)
    if not games:
        return None
    return {"here": games, "log_id": ref.log_id, "seat": ref.seat}


def _progress(row: LinkImport) -> dict[str, int]:
    """How far a waiting request has come, for its page: ``step`` 1 while it waits for its turn
    (queued, first or again after a failed try), 2 while the log is fetched and imported;
    ``attempt``, the try running or next; ``attempts``, the tries in all."""
    fetching = row.status == LinkImportStatus.FETCHING
    return {
        "step": 2 if fetching else 1,
        "attempt": max(1, row.attempts if fetching else row.attempts + 1),
        "attempts": int(settings.MJLOGS_FETCH_ATTEMPTS),
    }


@require_safe
def link_import(request: HttpRequest, link_import_id: int) -> HttpResponse:
    """Where one link import stands, with its progress while it waits or runs: 404 when the
    user may not see it."""
    try:
        row = link_import_get(request.user, link_import_id)
    except LinkImport.DoesNotExist:
        raise Http404("no such link import") from None
    context: dict[str, object] = {
        "row": row,
        "refresh": None if row.finished else REFRESH_SECONDS,
        "progress": None if row.finished else _progress(row),
    }
    return render(request, STATUS_TEMPLATE, context)
