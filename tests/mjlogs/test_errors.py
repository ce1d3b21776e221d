"""One vocabulary of refusals (mjlogs.errors, issue 41): a service's refusal is answered with
its status and message by one handler for the API and one for the pages, and no endpoint
converts one by hand."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from mjlogs.errors import (
    Conflict,
    InvalidRequest,
    ServiceError,
    ServiceErrorMiddleware,
    TooMany,
    api_exception_handler,
)
from mjlogs.game_changes import VisibilityConflict
from mjlogs.link_imports import TooManyWaiting
from mjlogs.selectors import PlayerLookupError
from mjlogs.uploads import UploadRefused, UploadTooLarge
from stats.selectors import StatsFilterError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("error", "status", "body"),
    [
        (StatsFilterError({"room": ["No such room."]}), 400, {"room": ["No such room."]}),
        (VisibilityConflict("the same game is already public"), 409,
         {"detail": "the same game is already public"}),
        (TooManyWaiting("3 link imports are waiting", 3), 429,
         {"detail": "3 link imports are waiting"}),
        (UploadTooLarge("the upload is 70 MB"), 413, {"detail": "the upload is 70 MB"}),
    ],
    ids=["bad-filter", "conflict", "too-many", "too-large"],
)  # fmt: skip
def test_the_api_answers_a_refusal_with_its_status_and_message(
    error: ServiceError, status: int, body: dict[str, object]
) -> None:
    response = api_exception_handler(error, {})
    assert response is not None
    assert (response.status_code, response.data) == (status, body)


def test_every_refusal_is_a_service_error() -> None:
    for kind, base in (
        (StatsFilterError, InvalidRequest), (PlayerLookupError, InvalidRequest),
        (VisibilityConflict, Conflict), (TooManyWaiting, TooMany), (UploadRefused, ServiceError),
    ):  # fmt: skip
        assert issubclass(kind, base), kind


@pytest.mark.django_db
def test_a_page_that_lets_a_refusal_through_shows_it_with_its_status() -> None:
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    middleware = ServiceErrorMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    response = middleware.process_exception(request, Conflict("the same game is already public"))
    assert response is not None and response.status_code == 409
    assert "the same game is already public" in response.content.decode()
    assert middleware.process_exception(request, ValueError("not ours")) is None


def test_no_endpoint_turns_a_service_error_into_an_answer_by_hand() -> None:
    """The API modules catch none of the refusals: the handler answers them."""
    refusals = {"StatsFilterError", "VisibilityConflict", "TooManyWaiting", "UploadRefused"}
    caught = []
    for path in [*ROOT.glob("*/api.py"), *ROOT.glob("*/api/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                names = {n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "")
                         for n in ast.walk(node.type)}  # fmt: skip
                caught += [f"{path.relative_to(ROOT)}: {name}" for name in names & refusals]
    assert caught == []
