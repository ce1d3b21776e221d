"""Site-wide request checks that no single view should have to repeat."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse


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
