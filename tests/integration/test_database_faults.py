"""The database unreachable during an upload: a clear error and no partial game.

- Down before the upload: the upload page and the API answer 503 with a message that names
  the database (not a 500 traceback), even though the account itself cannot be loaded.
- Lost in the middle of an upload of many games (its connection terminated by the server, as
  a restart or a failover does): the upload is one transaction, so nothing of it is stored,
  no game, seat, player or verdict (every table is counted), and the same upload sent again
  once the database is back stores it all.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from engine.formats import canonical
from mjlogs.models import Game
from tests.integration.conftest import _missing
from tests.integration.counting import named_game
from tests.integration.http_client import request
from tests.integration.processes import ROOT, Processes, free_port

DATABASE_NAMED = "The database is not available right now, so nothing of this upload was stored."


def test_with_the_database_down_the_upload_page_and_api_answer_503(
    processes: Processes,
) -> None:
    env = {
        **os.environ,
        # Nothing listens on that port: every connection is refused.
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{free_port()}/mjlogs",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("CELERY_BROKER_URL", None)
    site = processes.web(env)
    session = {"Cookie": "sessionid=a-session-the-database-would-know"}

    token = {"Authorization": "Token 0123456789abcdef", "X-File-Name": "g.json"}
    api = request(f"{site.url}/api/uploads/", body=b"{}", headers=token)
    # A browser asks for the browsable API's page, which would need the account: JSON too.
    api_html = request(
        f"{site.url}/api/uploads/", body=b"{}", headers={**token, "Accept": "text/html"}
    )
    page_json = request(
        f"{site.url}/upload/", body=b"", headers={**session, "Accept": "application/json"}
    )
    page = request(f"{site.url}/upload/", body=b"", headers={**session, "Accept": "text/html"})
    form = request(f"{site.url}/upload/", headers=session)

    for answer in (api, api_html, page_json, page, form):
        assert answer.status == 503, answer.text[:2000]
        assert answer.headers["Retry-After"] == "60"
    assert api.json() == {"detail": DATABASE_NAMED + " Please try again in a minute."}
    assert api_html.json() == api.json()
    assert page_json.json() == {"error": DATABASE_NAMED + " Please try again in a minute."}
    assert DATABASE_NAMED in page.text and DATABASE_NAMED in form.text
    assert "Log in" in page.text  # shown as to a visitor: the account cannot be loaded
    # Every other page and endpoint too (config.middleware), a visitor's session or not.
    browsing = [
        request(f"{site.url}{path}", headers=headers)
        for path in ("/games/", "/stats/leaderboard/", "/api/games/", "/api/players/1/stats/")
        for headers in ({}, session)
    ]
    for answer in browsing:
        assert answer.status == 503, answer.text[:2000]
        assert answer.headers["Retry-After"] == "60"
        assert "The database is not available right now." in answer.text
    assert "Traceback" not in site.log()
    assert site.log().count("Upload refused, the database is not available") == 5
    assert site.log().count("refused, the database is not available") == 5 + len(browsing)


def row_counts() -> dict[str, int]:
    """The number of rows of every table of the database."""
    counts = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f'SELECT COUNT(*) FROM "{table}"')
            counts[table] = cursor.fetchone()[0]
    return counts


@contextmanager
def connection_terminated_after_insert(table: str, number: int) -> Iterator[list[int]]:
    """Terminate this thread's database connection from a second connection, as the server
    does when it restarts, right after the ``number``-th ``INSERT`` into ``table`` ran (an
    import stores a batch of games with one statement, so this is in the middle of its
    transaction). Yields the list of terminated backends' process ids."""
    terminated: list[int] = []
    inserted = 0
    settings = connection.settings_dict
    statement = f'INSERT INTO "{table}" '

    def terminate_after(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal inserted
        result = execute(sql, params, many, context)
        if not sql.startswith(statement):
            return result
        inserted += 1
        if inserted != number:
            return result
        backend = connection.connection.info.backend_pid
        with psycopg.connect(
            dbname=settings["NAME"],
            user=settings["USER"] or None,
            password=settings["PASSWORD"] or None,
            host=settings["HOST"] or None,
            port=settings["PORT"] or None,
            autocommit=True,
        ) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [backend])
        terminated.append(backend)
        return result

    with connection.execute_wrapper(terminate_after):
        yield terminated


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("via", ["page", "api"])
def test_a_connection_lost_in_the_middle_of_an_upload_stores_none_of_it(
    via: str, client: Client
) -> None:
    if connection.vendor != "postgresql":
        _missing("PostgreSQL (DATABASE_URL=postgres://...) is needed to terminate a connection")
    user = get_user_model().objects.create_user("uploader")
    token = Token.objects.create(user=user).key
    client.force_login(user)
    # Six games in two files; the games share players, and each file brings new ones.
    names = ["Pia", "Quin", "Ran", "Sora", "Taro", "Umi"]
    games = [named_game(60 + index, names[index % 3 : index % 3 + 4]) for index in range(6)]
    files = {"first.jsonl": canonical.write(games[:3]), "second.jsonl": canonical.write(games[3:])}

    def upload() -> Any:
        if via == "page":
            uploads = [SimpleUploadedFile(name, data) for name, data in files.items()]
            data = {"files": uploads, "visibility": "public"}
            return client.post("/upload/", data, HTTP_ACCEPT="application/json")
        uploads = [SimpleUploadedFile(name, data) for name, data in files.items()]
        return client.post("/api/uploads/", {"files": uploads}, HTTP_AUTHORIZATION=f"Token {token}")

    before = row_counts()
    # After the games are inserted, before their seats and the commit.
    with connection_terminated_after_insert(Game._meta.db_table, 1) as terminated:
        answer = upload()
    assert terminated, "the hook never ran: no game was inserted"
    assert answer.status_code == 503, answer.content[:2000]
    assert DATABASE_NAMED in answer.content.decode()
    connection.close()  # the test shares the request's connection, which is gone
    assert row_counts() == before

    # The database answers again: the same upload stores all of it.
    answer = upload()
    assert answer.status_code in (200, 201), answer.content[:2000]
    assert answer.json()["counts"] == {"imported": 6, "duplicate": 0, "failed": 0}
    assert Game.objects.count() == 6
