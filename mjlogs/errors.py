"""The apps' one vocabulary of refusals (issue 41): what a service or a selector refuses, for
the person who asked, and how the API answers it.

A refusal is a :class:`ServiceError`: a message, or messages by field (``fields``, as a form
names its fields), and the HTTP status that says what kind of refusal it is (400 a bad value,
409 a conflict with what is stored, 413 too large, 429 too many at once). The services and
selectors of every app raise its subclasses; the API answers every one in one place
(:func:`api_exception_handler`, DRF's ``EXCEPTION_HANDLER``), in DRF's shapes (``{"detail":
...}``, or the messages by field), so an endpoint calls the service and nothing more. A page
that shows the refusal in its own form catches it there (the leaderboard puts each message under
its field); the others are answered by :class:`ServiceErrorMiddleware`, with the message on the
site's error page and the same status.

Defined in the records app, at the bottom of the apps' layers, so that every app may raise them
(docs/development.md, "The apps' layers").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ServiceError(Exception):
    """A refusal, for the person who asked: ``message``, or messages by field."""

    #: The HTTP status of the answer.
    status: ClassVar[int] = 400

    def __init__(
        self, message: str = "", *, fields: Mapping[str, Sequence[Any]] | None = None
    ) -> None:
        self.fields = {
            name: [str(m) for m in messages] for name, messages in (fields or {}).items()
        }
        joined = "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in self.fields.items())
        super().__init__(message or joined)

    @property
    def message(self) -> str:
        return str(self)

    def as_data(self) -> dict[str, Any]:
        """The API's body: the messages by field, or ``{"detail": message}``."""
        return dict(self.fields) if self.fields else {"detail": self.message}


class InvalidRequest(ServiceError):
    """A value the service cannot take (a bad filter, a name that is no one)."""

    status = 400


class Conflict(ServiceError):
    """The request contradicts what is stored (the same game already public)."""

    status = 409


class TooLarge(ServiceError):
    status = 413


class TooMany(ServiceError):
    """Too many requests of this kind at once; the next may succeed once one ends."""

    status = 429


def api_exception_handler(error: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering a :class:`ServiceError` with its status and body."""
    if isinstance(error, ServiceError):
        return Response(error.as_data(), status=error.status)
    return exception_handler(error, context)


class ServiceErrorMiddleware:
    """A page's view that lets a :class:`ServiceError` through is answered with its message on
    the site's error page (``templates/service_error.html``) and its status."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, error: Exception) -> HttpResponse | None:
        if not isinstance(error, ServiceError):
            return None
        context = {"message": error.message, "fields": error.fields, "status": error.status}
        return render(request, "service_error.html", context, status=error.status)
