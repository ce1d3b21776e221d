"""The pages that bring a game in by its Tenhou link: a form (log-in required, like the upload
page, and counted in the same upload budget), and each request's status page, which reloads
itself while the fetch waits or runs (a ``<meta http-equiv="refresh">``: the
Content-Security-Policy allows no inline script)."""

from __future__ import annotations

import math

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from mjlogs.engine_words import say
from mjlogs.link_imports import link_import_get, link_import_request
from mjlogs.models import LinkImport, Visibility
from mjlogs.tenhou_links import EXAMPLE, MAX_LINK_LENGTH
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


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def upload_link(request: HttpRequest) -> HttpResponse:
    """GET: the form. POST: ask for the game and go to its status page; the form again with
    the problem (400) for a link that names no Tenhou log, 429 over ``MJLOGS_UPLOAD_RATE``."""
    if request.method != "POST":
        return render(request, FORM_TEMPLATE, {"form": LinkImportForm()})
    form = LinkImportForm(request.POST)
    if not form.is_valid():
        return render(request, FORM_TEMPLATE, {"form": form}, status=400)
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
    return redirect("mjlogs:link_import", link_import_id=row.pk)


@require_safe
def link_import(request: HttpRequest, link_import_id: int) -> HttpResponse:
    """Where one link import stands: 404 when the user may not see it."""
    try:
        row = link_import_get(request.user, link_import_id)
    except LinkImport.DoesNotExist:
        raise Http404("no such link import") from None
    return render(
        request, STATUS_TEMPLATE, {"row": row, "refresh": None if row.finished else REFRESH_SECONDS}
    )
