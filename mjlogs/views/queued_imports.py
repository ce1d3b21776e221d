"""The page that follows an upload the workers import (the upload page's "Let the workers
import them"): how many of its files they have read, what became of them, and its games'
verdicts; it reloads itself until the last batch is done (a ``<meta http-equiv="refresh">``:
the Content-Security-Policy allows no inline script)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from mjlogs.selectors import queued_imports_of
from mjlogs.verdicts import Verdict

TEMPLATE = "mjlogs/queued_import.html"
#: Seconds between two reloads of the page while the workers import.
REFRESH_SECONDS = 2


@login_required
@require_safe
def queued_import(request: HttpRequest, queued_import_id: int) -> HttpResponse:
    """Where one queued upload stands: 404 unless the user uploaded it (or is staff)."""
    queued = queued_imports_of(request.user).filter(pk=queued_import_id).first()
    if queued is None:
        raise Http404("no such queued upload")
    labels = dict(Verdict.choices)
    # In the order of the verdicts' own list (verified first), with their words.
    verdicts = [
        {"verdict": verdict, "label": labels[verdict], "count": queued.verdicts[verdict]}
        for verdict in Verdict.values
        if queued.verdicts.get(verdict)
    ]
    context = {
        "queued": queued,
        "verdicts": verdicts,
        "refresh": None if queued.finished else REFRESH_SECONDS,
    }
    return render(request, TEMPLATE, context)
