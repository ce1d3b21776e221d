"""The page that follows an upload the workers import (the upload page's "Let the workers
import them"): how many of its files they have read, what became of them, and its games'
verdicts; it reloads itself until the last batch is done (a ``<meta http-equiv="refresh">``:
the Content-Security-Policy allows no inline script)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from mjlogs.selectors import queued_imports_of
from mjlogs.verdicts import Verdict

TEMPLATE = "mjlogs/queued_import.html"
#: Seconds between two reloads of the page while the workers import, by how long ago the
#: upload was sent: soon at first, then less often, so that a tab left open on an import
#: that will not finish (its workers gone) does not ask every 2 seconds for ever.
REFRESH_AFTER = ((timedelta(minutes=1), 2), (timedelta(minutes=10), 10))
REFRESH_SLOWEST = 60


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
    refresh = None if queued.finished else _refresh_seconds(timezone.now() - queued.created_at)
    context = {"queued": queued, "verdicts": verdicts, "refresh": refresh}
    return render(request, TEMPLATE, context)


def _refresh_seconds(age: timedelta) -> int:
    """Seconds until the page of an upload sent ``age`` ago reloads (:data:`REFRESH_AFTER`)."""
    return next((seconds for within, seconds in REFRESH_AFTER if age < within), REFRESH_SLOWEST)
