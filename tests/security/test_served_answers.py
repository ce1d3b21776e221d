"""Answers as ``manage.py start`` serves them (issue 40, item 5): ``POST /api/imports/links/``
answered 500 under ``manage.py start`` although the import ran. Its ``Location`` header was DRF's
``Hyperlink``, a subclass of ``str``: Django and the test client pass it on, but the development
server's WSGI handler (``runserver``, wsgiref) takes header values of type ``str`` alone, and
answers 500 after the view has done its work. gunicorn takes it, so only ``manage.py start`` (the
README's way to try the service) failed.

Here the answer goes through the handler ``manage.py start`` serves with (pytest-django's
``live_server`` is Django's own runserver server and handler, in a thread), with the settings it
uses: SQLite and tasks run in-process (no broker), the fetch from a log server on 127.0.0.1."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from mjlogs.models import Game, LinkImport, LinkImportStatus
from tests.api.conftest import client_for
from tests.mjlogs.tenhou_server import GAME_IDS, TenhouServer, tenhou

__all__ = ["tenhou"]  # the fixture, imported to be used here

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/imports/links/"


def served(base: str, user: User, path: str, body: dict[str, Any]) -> tuple[int, Any, Any]:
    """POST JSON through the live server: the status, the headers and the body."""
    token, _ = Token.objects.get_or_create(user=user)
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token.key}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_a_link_import_is_answered_202_by_the_development_server(
    live_server: Any, alice: User, tenhou: TenhouServer
) -> None:
    assert settings.CELERY_TASK_ALWAYS_EAGER  # as under manage.py start: no broker
    status, headers, body = served(live_server.url, alice, URL, {"link": GAME_IDS[0]})
    assert status == 202, body[:500]
    row = LinkImport.objects.get()
    assert headers["Location"] == f"{live_server.url}{URL}{row.pk}/"
    assert json.loads(body)["url"] == headers["Location"]
    # The import ran in the request, as it did before, and is found at its Location.
    assert row.status == LinkImportStatus.IMPORTED and Game.objects.count() == 1


def test_every_header_of_the_answer_is_plain_text(
    alice: User, tenhou: TenhouServer, django_capture_on_commit_callbacks: Any
) -> None:
    """What the development server asks of every header (PEP 3333: ``type(value) is str``),
    asked of the answer the DRF test client gets."""
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(alice).post(URL, {"link": GAME_IDS[1]}, format="json")
    assert response.status_code == 202
    for name, value in response.items():
        assert type(name) is str and type(value) is str, (name, type(value))


def test_an_upload_and_a_download_are_answered_by_the_development_server(
    live_server: Any, alice: User
) -> None:
    """The other answers that set headers of their own (an upload's, a download's
    ``Content-Disposition``) pass the development server too."""
    from tests.api.conftest import self_played_document

    token, _ = Token.objects.get_or_create(user=alice)
    request = urllib.request.Request(
        f"{live_server.url}/api/uploads/",
        data=json.dumps(self_played_document(1)).encode(),
        headers={
            "Content-Type": "application/octet-stream",
            "X-File-Name": "game.json",
            "Authorization": f"Token {token.key}",
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 201
        (outcome,) = json.loads(answer.read())["outcomes"]
    download = f"{live_server.url}/api/games/{outcome['game_id']}/export/canonical/"
    with urllib.request.urlopen(download, timeout=30) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Disposition"].startswith("attachment; ")
