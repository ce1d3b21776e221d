"""Tenhou's log server and the link fetches (issue 40, items 6, 8 and 10).

- **Item 6.** Sixty link requests of one user held every worker (each fetch waits its turn for
  the log server) and delayed another user's verification from 0.3 s to 115 s. The fetch task
  now has a queue of its own (``fetch``), which the documented workers take apart from the
  verifications', and one user may have at most ``MJLOGS_FETCH_PENDING_PER_USER`` link imports
  waiting: the next is refused (429 in the API, on the page) until one ends.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from config.celery import app
from mjlogs.models import LinkImport, LinkImportStatus
from mjlogs.tasks import import_tenhou_link
from replay.tasks import verify_game
from tests.api.conftest import client_for
from tests.config.processes import run

ROOT = Path(__file__).resolve().parents[2]


def _log_id(number: int) -> str:
    """A well-formed Tenhou log id of its own (nothing is fetched in the tests of item 6)."""
    return f"2010081709gm-00a9-0000-{number:08x}"


# --- Item 6: the fetches' own queue, and a limit of waiting fetches per user --------------------


def _queue(task_name: str) -> str:
    route = app.amqp.router.route({}, task_name, args=(1,), kwargs={})
    return str(route["queue"].name)


def test_the_fetch_task_has_a_queue_of_its_own() -> None:
    assert _queue(import_tenhou_link.name) == "fetch"
    assert _queue(verify_game.name) == "celery"
    # A worker started without -Q takes both, so that no fetch waits for ever on a worker
    # started as it was before the fetches had their queue.
    assert {"celery", "fetch"} <= set(app.amqp.queues)


@pytest.mark.parametrize("doc", ["README.md", "docs/deploy.md"])
def test_the_documented_workers_take_the_fetch_queue_apart(doc: str) -> None:
    commands = re.findall(r"celery -A config worker[^\n`]*", (ROOT / doc).read_text())
    queues = [
        set(found.group(1).split(","))
        for command in commands
        if (found := re.search(r"-Q (\S+)", command))
    ]
    # One worker (or more) for the verifications and the rest, one for the fetches: never both
    # in one, or one user's fetches hold the verifications' processes again.
    assert {"celery"} in queues and {"fetch"} in queues, commands


URL = "/api/imports/links/"


def _ask(user: User, number: int) -> Any:
    # The test's transaction never commits, so no task runs: each request stays waiting, as
    # it would behind a busy fetch worker.
    return client_for(user).post(URL, {"link": _log_id(number)}, format="json")


@pytest.mark.django_db
def test_one_user_may_have_so_many_fetches_waiting(
    settings: Settings, alice: User, bob: User
) -> None:
    settings.MJLOGS_FETCH_PENDING_PER_USER = 3
    assert [_ask(alice, number).status_code for number in range(3)] == [202] * 3
    refused = _ask(alice, 3)
    assert refused.status_code == 429
    detail = refused.json()["detail"]
    assert "3 games waiting to be fetched" in detail, detail
    assert LinkImport.objects.filter(requested_by=alice).count() == 3
    # Someone else's requests are not held by alice's.
    assert _ask(bob, 10).status_code == 202
    # Once one of alice's ends, she may ask again.
    first = LinkImport.objects.filter(requested_by=alice).order_by("pk").first()
    assert first is not None
    LinkImport.objects.filter(pk=first.pk).update(status=LinkImportStatus.FAILED)
    assert _ask(alice, 4).status_code == 202
    assert _ask(alice, 5).status_code == 429


@pytest.mark.django_db
def test_a_request_left_waiting_long_ago_holds_no_place(settings: Settings, alice: User) -> None:
    settings.MJLOGS_FETCH_PENDING_PER_USER = 1
    assert _ask(alice, 0).status_code == 202
    LinkImport.objects.update(created_at=timezone.now() - timedelta(hours=1))
    assert _ask(alice, 1).status_code == 202


@pytest.mark.django_db
def test_the_page_says_the_limit_too(settings: Settings, alice: User) -> None:
    settings.MJLOGS_FETCH_PENDING_PER_USER = 2
    page = Client()
    page.force_login(alice)
    for number in range(2):
        answer = page.post("/upload/link/", {"link": _log_id(number), "visibility": "public"})
        assert answer.status_code == 302
    refused = page.post("/upload/link/", {"link": _log_id(2), "visibility": "public"})
    assert refused.status_code == 429
    assert "2 games waiting to be fetched" in refused.content.decode()
    assert LinkImport.objects.count() == 2


def test_the_limit_has_a_default_and_can_be_set() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.MJLOGS_FETCH_PENDING_PER_USER)"
    )
    assert run(["-c", code]).stdout.split() == ["10"]
    assert run(["-c", code], MJLOGS_FETCH_PENDING_PER_USER="3").stdout.split() == ["3"]
    assert run(["-c", code], MJLOGS_FETCH_PENDING_PER_USER="0").returncode != 0
