"""The home page and the health endpoint."""

from dataclasses import asdict

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from mjlogs.health import celery_health, database_health


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the service is and where to go."""
    return render(request, "home.html")


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """JSON status for load balancers and monitors: 200 when the database answers, else 503."""
    database = database_health()
    body = {
        "status": "ok" if database.reachable else "error",
        "database": asdict(database),
        "celery": asdict(celery_health()),
    }
    return JsonResponse(body, status=200 if database.reachable else 503)
