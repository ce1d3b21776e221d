"""The embedded default (SQLite, tasks in-process) under concurrent use (issue 21): several
files uploaded at once, and pages read during the uploads, are all served; none is refused
with "database is locked". The site runs in a process of its own on a SQLite file, as
``manage.py start`` runs it."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.formats import canonical
from engine.sim.selfplay import simulate
from tests.integration.http_client import Answer, request, upload
from tests.integration.processes import ROOT, Processes, manage

UPLOADS = 8


@pytest.fixture
def sqlite_site(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The site on a fresh SQLite file, tasks eager; yields its URL and an API token."""
    env = dict(os.environ)
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "DJANGO_CACHE_URL"):
        env.pop(name, None)
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
        MJLOGS_UPLOAD_RATE="1000/hour",
    )
    migrated = manage(env, "migrate", "--no-input")
    assert migrated.returncode == 0, migrated.stderr
    made = manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth.models import User; from rest_framework.authtoken.models "
        "import Token; print(Token.objects.create(user=User.objects.create_user('up', "
        "password='x-secret-1')).key)",
    )
    assert made.returncode == 0, made.stderr
    processes = Processes(tmp_path)
    try:
        server = processes.web(env)
        yield server.url, made.stdout.strip().splitlines()[-1]
    finally:
        processes.stop_all()


def test_files_uploaded_at_once_and_pages_read_meanwhile_are_all_served(
    sqlite_site: tuple[str, str],
) -> None:
    url, token = sqlite_site
    files = [canonical.write([game]) for game in simulate("tenhou-4p", UPLOADS, 2100)]
    start = threading.Barrier(UPLOADS + 1)
    answers: list[Answer] = []
    pages: list[Answer] = []

    def send(data: bytes, index: int) -> None:
        start.wait()
        answers.append(upload(url, token, f"g{index}.json", data))

    def read_pages() -> None:
        start.wait()
        while len(answers) < UPLOADS:
            pages.append(request(f"{url}/games/"))

    threads = [threading.Thread(target=send, args=(data, i)) for i, data in enumerate(files)]
    threads.append(threading.Thread(target=read_pages))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)

    refused = [answer.text[:300] for answer in answers + pages if answer.status >= 500]
    assert not refused, refused
    assert sorted(answer.status for answer in answers) == [201] * UPLOADS
    listed = request(f"{url}/api/games/?page_size=50").json()
    assert listed["count"] == UPLOADS
    verdicts = {game["verdict"] for game in listed["results"]}
    assert verdicts == {"verified"}, [
        request(f"{url}/api/verifications/{game['id']}/").text[:600]
        for game in listed["results"]
        if game["verdict"] != "verified"
    ]
    assert json.loads(request(f"{url}/health/").body)["status"] == "ok"
