"""Site-wide request checks that no single view should have to repeat."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

#: The database errors that mean it cannot be used now (it refuses connections, the connection
#: was lost, the server is shutting down, a deadlock outlasted the retries), not a bug.
DATABASE_ERRORS = (OperationalError, InterfaceError)
#: Seconds a client is told to wait before trying again (``Retry-After``).
DATABASE_RETRY_AFTER = 60
DATABASE_DOWN = "The database is not available right now. Please try again in a minute."


class RefuseNulInQueryMiddleware:
    """Answer 400 to a query string holding U+0000 (``?search=a%00b``).

    PostgreSQL text cannot hold the character, so comparing a column with such a value fails
    inside the database (a 500 on every search box and filter that passes its value on).
    No name, id or option of ours holds it, so the request is refused before any view runs,
    naming the parameter. Form fields refuse it already (Django's and DRF's ``CharField``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                message = f"the query parameter {name!r} holds the character U+0000 (NUL)"
                if request.path.startswith("/api/"):
                    return JsonResponse({"detail": message}, status=400)
                return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """Answer 503 with ``Retry-After``, naming the database, when a view fails because the
    database cannot be used, instead of a 500 and a traceback in the log for every request.

    Pages get a page that needs nothing from the database (not even the visitor's account);
    the REST API gets JSON. The upload page and endpoint say more (that nothing of the upload
    was stored) themselves, before this is reached.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        logger.error("%s %s refused, the database is not available: %s",
                     request.method, request.path, exception)  # fmt: skip
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": DATABASE_DOWN}, status=503)
        else:
            page = render_to_string("503.html", {"message": DATABASE_DOWN})
            response = HttpResponse(page, status=503)
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
