"""Games brought in by their Tenhou link: reading links, the polite client against a real HTTP
server on 127.0.0.1 (``tenhou_server``), the service and its task, and the pages.

Tasks run in-process (no broker), as on the default setup; a test's transaction never commits,
so what the request queues after commit is run by ``django_capture_on_commit_callbacks``.
"""

from __future__ import annotations

import gzip
import itertools
import re
import socket
import threading
from typing import Any

import pytest
from celery.exceptions import Retry
from django.test import Client
from kombu.exceptions import OperationalError as BrokerUnreachable
from pytest_django.fixtures import Settings

from engine.formats import NOT_A_RECORD
from mjlogs import link_imports
from mjlogs.importing import import_file
from mjlogs.link_imports import (
    BROKER_DOWN,
    UNEXPECTED,
    TryAgainLater,
    link_import_request,
    link_import_run,
)
from mjlogs.log_fetch import RETRY_AFTER_CAP, USER_AGENT, FetchError, fetch_tenhou_log
from mjlogs.models import Game, LinkImport, LinkImportStatus, Visibility
from mjlogs.tasks import TASK_FAILED, import_tenhou_link
from mjlogs.tenhou_links import LinkRef, deobfuscate, log_id_from_link
from replay.models import Verdict
from tests.config.processes import run
from tests.mjlogs.conftest import Users
from tests.mjlogs.pages import text
from tests.mjlogs.tenhou_server import GAME_IDS, TIMEOUT, Answer, TenhouServer, tenhou

__all__ = ["tenhou"]  # the fixture, imported to be used here

GAME = GAME_IDS[0]
OTHER = GAME_IDS[1]

# --- Reading links ------------------------------------------------------------------------------

ID = "2019032206gm-00a9-0000-0b6b7592"


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        (ID, LinkRef(ID)),
        (f"  {ID}\n", LinkRef(ID)),
        (f"{ID}&tw=2", LinkRef(ID, 2)),
        (f"https://tenhou.net/0/?log={ID}&tw=2", LinkRef(ID, 2)),
        (f"https://tenhou.net/0/?log={ID}", LinkRef(ID)),
        (f"http://tenhou.net/0/?log={ID}&tw=0", LinkRef(ID, 0)),
        (f"https://tenhou.net/3/?log={ID}&tw=3", LinkRef(ID, 3)),
        (f"https://tenhou.net/4/?log={ID}&tw=1", LinkRef(ID, 1)),
        (f"https://tenhou.net/5/?log={ID}", LinkRef(ID)),
        (f"https://tenhou.net/6/?log={ID}&tw=1&ts=4", LinkRef(ID, 1)),
        (f"https://tenhou.net/6/#log={ID}&tw=2", LinkRef(ID, 2)),
        (f"https://www.tenhou.net/0/?tw=1&log={ID}", LinkRef(ID, 1)),
        (f"tenhou.net/0/?log={ID}", LinkRef(ID)),
        (f"https://tenhou.net/0/log/?{ID}", LinkRef(ID)),
        (f"http://tenhou.net/0/log/find.cgi?log={ID}", LinkRef(ID)),
        (f"https://tenhou.net/5/mjlog2json.cgi?{ID}", LinkRef(ID)),
        (f"HTTPS://TENHOU.NET/0/?log={ID.upper()}", LinkRef(ID)),
        # A tournament lobby has five digits.
        (
            "https://tenhou.net/0/?log=2012060420gm-0009-10011-5b3fe327",
            LinkRef("2012060420gm-0009-10011-5b3fe327"),
        ),
        # Obfuscated in the link, decoded as Tenhou's viewer does.
        (
            "https://tenhou.net/0/?log=2012090306gm-0089-0000-x666f4d41e26b&tw=1",
            LinkRef("2012090306gm-0089-0000-dc81a77a", 1),
        ),
    ],
)
def test_links_and_ids_give_the_log_id_and_seat(link: str, expected: LinkRef) -> None:
    assert log_id_from_link(link) == expected


def test_obfuscated_ids_decode_as_tenhous_viewer_decodes_them() -> None:
    # The published pair (TenhouViewer's TenhouHash): coded and decoded.
    assert deobfuscate("2012090306gm-0089-0000-x666f4d41e26b") == "2012090306gm-0089-0000-dc81a77a"
    # Ids before 2010041111 take the table's first row: a ^ b ^ t[0], b ^ c ^ t[0] ^ t[1].
    a, b, c = 0x1234, 0x5678, 0x9ABC
    expected = f"{a ^ b ^ 22136:04x}{b ^ c ^ 22136 ^ 52719:04x}"
    assert (
        deobfuscate("2009010100gm-0001-0000-x123456789abc") == f"2009010100gm-0001-0000-{expected}"
    )
    assert deobfuscate(ID) == ID


@pytest.mark.parametrize(
    ("link", "message"),
    [
        ("", "give a Tenhou replay link or log id"),
        ("   ", "give a Tenhou replay link or log id"),
        ("hello", "not a Tenhou log link or id: 'hello' is neither a link nor a log id"),
        ("2019032206gm-00a9-0000-0b6b759", "'2019032206gm-00a9-0000-0b6b759' is not a log id"),
        ("2019032206gm-00a9-00-0b6b7592", "is not a log id"),
        ("2019032206gm-00g9-0000-0b6b7592", "is not a log id"),
        ("2012090306gm-0089-0000-x666f4d41e2", "is not a log id"),
        (f"https://example.com/0/?log={ID}", "the link is to example.com, not tenhou.net"),
        (f"ftp://tenhou.net/0/?log={ID}", "is neither a link nor a log id"),
        ("https://tenhou.net/", "names no game log (no log= in it)"),
        ("https://tenhou.net/0/?log=", "'' is not a log id"),
        (f"https://tenhou.net/0/?log={ID}&tw=4", "tw='4' is not a seat (0 to 3)"),
        (f"{ID}&tw=east", "tw='east' is not a seat (0 to 3)"),
        ('https://tenhou.net/6/#json={"title":["",""]}', "carries the game record itself"),
        ("https://game.mahjongsoul.com/?paipu=230101-abc", "Mahjong Soul records can only be"),
        ("https://mahjongsoul.game.yo-star.com/?paipu=x", "with a Mahjong Soul login"),
        ("https://www.riichicity.com/replay/abc", "Riichi City records can only be fetched"),
        ("https://[zz/", "is neither a link nor a log id"),
        ("x" * 2001, "2,001 characters"),
    ],
)
def test_anything_else_is_refused_with_what_is_wrong(link: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        log_id_from_link(link)
    assert message in str(raised.value)


# --- The client ---------------------------------------------------------------------------------


def test_a_fetch_sends_one_request_that_names_us(tenhou: TenhouServer) -> None:
    assert fetch_tenhou_log(GAME) == tenhou.logs[GAME]
    (seen,) = tenhou.requests
    assert seen.log_id == GAME
    assert seen.headers["User-Agent"] == USER_AGENT and "mjlogs-service" in USER_AGENT


def test_a_gzip_encoded_answer_is_decoded(tenhou: TenhouServer) -> None:
    tenhou.gzip_encoded.add(GAME)
    assert fetch_tenhou_log(GAME) == tenhou.logs[GAME]


@pytest.mark.parametrize(
    ("answer", "transient", "message", "retry_after"),
    [
        (Answer(404), False, f"Tenhou has no log {GAME}", None),
        (Answer(200, b" \n"), False, f"Tenhou has no log {GAME}", None),
        (Answer(403), False, "Tenhou's log server answered 403 (Forbidden)", None),
        (Answer(503), True, "Tenhou's log server answered 503 (Service Unavailable)", None),
        (Answer(500, headers={"Retry-After": "7"}), True, "answered 500", 7.0),
        (Answer(429, headers={"Retry-After": "86400"}), True, "answered 429", RETRY_AFTER_CAP),
        (Answer(429, headers={"Retry-After": "soon"}), True, "answered 429", None),
        (Answer(delay=TIMEOUT + 0.3), True, f"did not answer within {TIMEOUT:g} s", None),
    ],
)
def test_failures_say_what_happened_and_whether_to_try_again(
    tenhou: TenhouServer, answer: Answer, transient: bool, message: str, retry_after: float | None
) -> None:
    tenhou.script(GAME, answer)
    with pytest.raises(FetchError) as raised:
        fetch_tenhou_log(GAME)
    assert message in raised.value.message
    assert (raised.value.transient, raised.value.retry_after) == (transient, retry_after)
    assert len(tenhou.requests) == 1


def test_a_server_that_is_not_there_is_a_transient_failure(settings: Settings) -> None:
    with socket.socket() as probe:  # a port just free: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.MJLOGS_TENHOU_LOG_URL = f"http://127.0.0.1:{port}/0/log/?{{log_id}}"
    settings.MJLOGS_FETCH_MIN_INTERVAL = 0
    with pytest.raises(FetchError) as raised:
        fetch_tenhou_log(GAME)
    assert raised.value.transient
    assert "Tenhou's log server could not be reached" in raised.value.message


def test_requests_to_one_server_start_the_interval_apart_even_from_two_threads(
    tenhou: TenhouServer, settings: Settings
) -> None:
    settings.MJLOGS_FETCH_MIN_INTERVAL = 0.3
    fetched: list[bytes] = []
    threads = [
        threading.Thread(target=lambda log_id=log_id: fetched.append(fetch_tenhou_log(log_id)))
        for log_id in (GAME, OTHER, GAME)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(fetched) == 3
    times = sorted(seen.at for seen in tenhou.requests)
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    # Each starts at its own slot of 0.3 s; what the server sees may lag a request's start by
    # a few milliseconds, so allow that much.
    assert min(gaps) >= 0.3 - 0.015, gaps


# --- The service and the task, without pages -------------------------------------------------


@pytest.fixture
def run_after_commit(django_capture_on_commit_callbacks: Any) -> Any:
    """Call a function and run what it queued after commit (the task, then the verification)."""

    def run(function: Any, /, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            result = function(**kwargs)
        return result

    return run


def _request(run_after_commit: Any, users: Users, link: str, **kwargs: Any) -> LinkImport:
    kwargs.setdefault("visibility", Visibility.PUBLIC)
    row = run_after_commit(link_import_request, user=users.alice, link=link, **kwargs)
    row.refresh_from_db()
    return row


@pytest.mark.django_db
def test_a_transient_failure_then_success_is_imported_on_the_second_try(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    tenhou.script(GAME, Answer(503))
    row = _request(run_after_commit, users, f"https://tenhou.net/0/?log={GAME}")
    assert row.status == LinkImportStatus.IMPORTED, row.error
    assert row.attempts == 2 and row.error == ""
    assert len(tenhou.requests_for(GAME)) == 2
    assert row.game is not None and row.game.source_id == GAME


@pytest.mark.django_db
def test_a_server_that_never_answers_in_time_is_tried_three_times_then_failed(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    tenhou.script(GAME, *[Answer(delay=TIMEOUT + 0.3)] * 5)
    row = _request(run_after_commit, users, GAME)
    assert row.status == LinkImportStatus.FAILED
    assert row.error == f"Tenhou's log server did not answer within {TIMEOUT:g} s (tried 3 times)"
    assert row.attempts == 3 and row.finished_at is not None
    assert len(tenhou.requests_for(GAME)) == 3
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_503_every_time_fails_after_the_tries(
    tenhou: TenhouServer, users: Users, run_after_commit: Any, settings: Settings
) -> None:
    settings.MJLOGS_FETCH_ATTEMPTS = 2
    tenhou.script(GAME, *[Answer(503)] * 5)
    row = _request(run_after_commit, users, GAME)
    assert (row.status, row.attempts) == (LinkImportStatus.FAILED, 2)
    assert "answered 503 (Service Unavailable) (tried 2 times)" in row.error
    assert len(tenhou.requests_for(GAME)) == 2


@pytest.mark.django_db
def test_a_missing_log_fails_at_once_without_another_try(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    missing = "2019032206gm-00a9-0000-0b6b7592"
    row = _request(run_after_commit, users, missing)
    assert row.status == LinkImportStatus.FAILED
    assert row.error == f"Tenhou has no log {missing}"
    assert row.attempts == 1 and len(tenhou.requests_for(missing)) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("gzip_encoded", [False, True])
def test_an_answer_over_the_size_cap_is_refused_unstored(
    tenhou: TenhouServer,
    users: Users,
    run_after_commit: Any,
    settings: Settings,
    gzip_encoded: bool,
) -> None:
    # gzip-encoded, the body on the wire is far under the cap; decoded, it is over.
    settings.MJLOGS_MAX_UPLOAD_BYTES = 10_000
    assert len(gzip.compress(tenhou.logs[GAME])) < 10_000 < len(tenhou.logs[GAME])
    if gzip_encoded:
        tenhou.gzip_encoded.add(GAME)
    row = _request(run_after_commit, users, GAME)
    assert row.status == LinkImportStatus.FAILED
    assert "sent more than 10,000 bytes" in row.error and "MJLOGS_MAX_UPLOAD_BYTES" in row.error
    assert row.attempts == 1 and not Game.objects.exists()


@pytest.mark.django_db
def test_an_html_page_instead_of_a_log_fails_with_the_importers_message(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    tenhou.script(GAME, Answer(200, b"<html><body>Service closed for maintenance</body></html>"))
    row = _request(run_after_commit, users, GAME)
    assert row.status == LinkImportStatus.FAILED
    assert NOT_A_RECORD in row.error
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_gzip_file_as_the_body_is_read_by_the_importer(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    tenhou.logs[GAME] = gzip.compress(tenhou.logs[GAME])  # a .mjlog as Tenhou stores them
    row = _request(run_after_commit, users, GAME)
    assert row.status == LinkImportStatus.IMPORTED, row.error


@pytest.mark.django_db
def test_a_game_only_uploaded_under_the_log_id_does_not_stop_the_fetch(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    # Someone uploads another game's record named as this log id: a claim, not the game.
    (fake,) = import_file(f"{GAME}.mjlog", tenhou.logs[OTHER], uploader=users.bob)
    assert Game.objects.get(pk=fake.game_id).source_id == GAME
    row = _request(run_after_commit, users, GAME)
    assert row.status == LinkImportStatus.IMPORTED and row.game_id != fake.game_id
    assert len(tenhou.requests_for(GAME)) == 1


@pytest.mark.django_db
def test_the_same_game_uploaded_before_is_fetched_once_then_never_again(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    (uploaded,) = import_file(f"{GAME}.mjlog", tenhou.logs[GAME], uploader=users.bob)
    first = _request(run_after_commit, users, GAME)
    assert (first.status, first.game_id) == (LinkImportStatus.DUPLICATE, uploaded.game_id)
    second = _request(run_after_commit, users, f"https://tenhou.net/3/?log={GAME}&tw=1")
    assert (second.status, second.game_id) == (LinkImportStatus.DUPLICATE, uploaded.game_id)
    assert second.attempts == 0 and second.seat == 1
    assert len(tenhou.requests_for(GAME)) == 1


@pytest.mark.django_db
def test_a_row_is_failed_when_its_task_cannot_be_queued(
    users: Users, run_after_commit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: Any) -> None:
        raise BrokerUnreachable("Connection refused")

    monkeypatch.setattr(import_tenhou_link, "delay", unreachable)
    row = _request(run_after_commit, users, GAME)
    assert (row.status, row.error) == (LinkImportStatus.FAILED, BROKER_DOWN)


@pytest.mark.django_db
def test_an_unexpected_error_still_ends_the_row(
    tenhou: TenhouServer, users: Users, run_after_commit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(link_imports, "upload_import", broken)
    row = _request(run_after_commit, users, GAME)
    assert (row.status, row.error) == (LinkImportStatus.FAILED, UNEXPECTED)
    assert row.finished_at is not None


@pytest.mark.django_db
def test_a_finished_row_is_left_as_it_is_when_the_task_runs_again(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    row = _request(run_after_commit, users, GAME)
    assert row.status == LinkImportStatus.IMPORTED
    assert import_tenhou_link.apply(args=(row.pk,)).get() == "imported"
    assert len(tenhou.requests_for(GAME)) == 1
    assert import_tenhou_link.apply(args=(row.pk + 1000,)).get() is None


@pytest.mark.django_db
def test_with_a_broker_a_transient_failure_is_retried_after_the_servers_pause(
    tenhou: TenhouServer, users: Users, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a worker the task asks Celery for a retry with the pause (here the server's
    Retry-After) instead of trying again at once; the row waits, noting the failed try."""
    tenhou.script(GAME, Answer(429, headers={"Retry-After": "42"}))
    row = link_import_request(user=users.alice, link=GAME, visibility=Visibility.PUBLIC)
    asked: dict[str, Any] = {}

    def retry(**kwargs: Any) -> Retry:
        asked.update(kwargs)
        return Retry("retry", when=kwargs["countdown"])

    monkeypatch.setattr(import_tenhou_link, "retry", retry)
    import_tenhou_link.push_request(is_eager=False, retries=0, id="test")
    try:
        with pytest.raises(Retry):
            import_tenhou_link.run(row.pk)
    finally:
        import_tenhou_link.pop_request()
    assert asked["countdown"] == 42.0 and isinstance(asked["exc"], TryAgainLater)
    row.refresh_from_db()
    assert row.status == LinkImportStatus.QUEUED and row.attempts == 1
    assert "try 1 of 3: Tenhou's log server answered 429" in row.error
    # The retry, when it comes, fetches again and imports.
    assert link_import_run(row.pk).status == LinkImportStatus.IMPORTED  # type: ignore[union-attr]


# --- The pages ----------------------------------------------------------------------------------


@pytest.fixture
def alice(client: Client, users: Users) -> Client:
    client.force_login(users.alice)
    return client


def test_the_form_needs_a_log_in_like_the_upload_page(client: Client, db: None) -> None:
    response = client.get("/upload/link/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/upload/link/"
    response = client.post("/upload/link/", {"link": GAME, "visibility": "public"})
    assert response.status_code == 302 and not LinkImport.objects.exists()


def test_the_upload_page_links_to_the_form_which_has_its_fields(alice: Client) -> None:
    assert 'href="/upload/link/"' in text(alice.get("/upload/"))
    page = text(alice.get("/upload/link/"))
    assert "Tenhou replay link or log id" in page
    assert '<input type="text" name="link"' in page
    assert 'type="radio" name="visibility" value="public"' in page and 'value="private"' in page
    assert "Mahjong Soul" in page and "<script" not in page.split("</footer>")[0]


def test_a_link_brings_the_game_in_and_the_status_page_shows_it(
    alice: Client, tenhou: TenhouServer, django_capture_on_commit_callbacks: Any
) -> None:
    link = f"https://tenhou.net/0/?log={GAME}&tw=2"
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post("/upload/link/", {"link": link, "visibility": "public"})
    row = LinkImport.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/upload/link/{row.pk}/"
    game = Game.objects.get()
    assert (game.source_id, game.uploader.username, game.visibility) == (GAME, "alice", "public")
    assert game.verification.verdict == Verdict.VERIFIED
    assert (row.status, row.game_id, row.seat, row.link) == ("imported", game.pk, 2, link)
    (seen,) = tenhou.requests
    assert seen.headers["User-Agent"] == USER_AGENT
    page = text(alice.get(response["Location"]))
    assert f'href="/games/{game.pk}/"' in page and f'href="/replay/{game.pk}/?seat=2"' in page
    assert 'http-equiv="refresh"' not in page


def test_the_same_game_again_is_said_at_once_then_a_duplicate_without_a_request(
    alice: Client, tenhou: TenhouServer, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        alice.post("/upload/link/", {"link": GAME, "visibility": "public"})
    game = Game.objects.get()
    # Asked again: the form says at once that it is here, queues nothing, fetches nothing.
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post(
            "/upload/link/",
            {"link": f"https://tenhou.net/0/?log={GAME}&tw=1", "visibility": "private"},
        )
    assert response.status_code == 200
    page = text(response)
    assert f"Tenhou game {GAME} is already here" in page
    assert f'href="/games/{game.pk}/"' in page and f'href="/replay/{game.pk}/?seat=1"' in page
    assert "brought in from Tenhou\N{RIGHT SINGLE QUOTATION MARK}s log server" in page
    assert LinkImport.objects.count() == 1 and len(tenhou.requests) == 1
    # The button asks again for the same link and visibility.
    assert 'name="fetch_anyway" value="on"' in page
    assert f'name="link" value="https://tenhou.net/0/?log={GAME}&amp;tw=1"' in page
    assert 'name="visibility" value="private"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post(
            "/upload/link/", {"link": GAME, "visibility": "private", "fetch_anyway": "on"}
        )
    first, second = LinkImport.objects.order_by("pk")
    assert (second.status, second.game_id) == ("duplicate", first.game_id)
    assert len(tenhou.requests) == 1 and Game.objects.count() == 1
    assert "This game was already here" in text(alice.get(response["Location"]))


def test_a_game_uploaded_under_the_log_id_is_said_and_fetched_only_when_asked(
    alice: Client, users: Users, tenhou: TenhouServer, django_capture_on_commit_callbacks: Any
) -> None:
    # Bob's upload claims the log id (another game's record named as it): said, as a claim.
    (fake,) = import_file(f"{GAME}.mjlog", tenhou.logs[OTHER], uploader=users.bob)
    response = alice.post("/upload/link/", {"link": GAME, "visibility": "public"})
    page = text(response)
    assert response.status_code == 200 and f'href="/games/{fake.game_id}/"' in page
    assert "its log id is what the record claims" in page
    assert not LinkImport.objects.exists() and tenhou.requests == []
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post(
            "/upload/link/", {"link": GAME, "visibility": "public", "fetch_anyway": "on"}
        )
    row = LinkImport.objects.get()
    assert row.status == "imported" and row.game_id != fake.game_id
    assert len(tenhou.requests_for(GAME)) == 1


def test_a_game_alice_may_not_see_is_not_said_to_be_here(
    alice: Client, users: Users, tenhou: TenhouServer, django_capture_on_commit_callbacks: Any
) -> None:
    import_file(f"{GAME}.mjlog", tenhou.logs[OTHER], uploader=users.bob, visibility="private")
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post("/upload/link/", {"link": GAME, "visibility": "public"})
    assert response.status_code == 302
    assert LinkImport.objects.get().status == "imported"


def test_a_bad_link_shows_the_form_again_with_the_problem(alice: Client) -> None:
    response = alice.post("/upload/link/", {"link": "https://example.com/", "visibility": "public"})
    assert response.status_code == 400
    assert "the link is to example.com, not tenhou.net" in text(response)
    assert not LinkImport.objects.exists()


def test_a_failure_is_shown_on_the_status_page(
    alice: Client, tenhou: TenhouServer, django_capture_on_commit_callbacks: Any
) -> None:
    missing = "2019032206gm-00a9-0000-0b6b7592"
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post("/upload/link/", {"link": missing, "visibility": "public"})
    page = text(alice.get(response["Location"]))
    assert f"Tenhou has no log {missing}" in page and "Failed" in page


def test_a_waiting_import_reloads_its_page(alice: Client, users: Users) -> None:
    # Queued, its task not run (a test's transaction never commits).
    row = link_import_request(user=users.alice, link=GAME, visibility=Visibility.PUBLIC)
    assert row.status == LinkImportStatus.QUEUED
    page = text(alice.get(f"/upload/link/{row.pk}/"))
    assert '<meta http-equiv="refresh" content="2">' in page and "Queued" in page


def progress_of(client: Client, row: LinkImport) -> tuple[str, str, str]:
    """The progress a status page shows: the bar's value, the current step, the try."""
    html = client.get(f"/upload/link/{row.pk}/").content.decode()
    value = re.search(r'<progress max="3" value="(\d)"', html)
    current = re.search(r'<li class="current" aria-current="step">([^<]*)', html)
    attempt = re.search(r'<span class="muted link-try">\(([^)]*)\)', html)
    assert value and current and attempt, html
    return value.group(1), current.group(1).strip(), attempt.group(1)


def test_a_waiting_import_shows_how_far_it_has_come(alice: Client, users: Users) -> None:
    row = link_import_request(user=users.alice, link=GAME, visibility=Visibility.PUBLIC)
    waiting = (
        "Waiting for its turn: requests to Tenhou\N{RIGHT SINGLE QUOTATION MARK}s log server"
        " are spaced out"
    )
    fetching = "Fetching the log from Tenhou and checking it with the rules engine"
    assert progress_of(alice, row) == ("1", waiting, "try 1 of 3")
    LinkImport.objects.filter(pk=row.pk).update(status=LinkImportStatus.FETCHING, attempts=1)
    assert progress_of(alice, row) == ("2", fetching, "try 1 of 3")
    # A failed try puts it back in the queue: its next try is the second.
    LinkImport.objects.filter(pk=row.pk).update(
        status=LinkImportStatus.QUEUED, error="try 1 of 3: no answer"
    )
    assert progress_of(alice, row) == ("1", waiting, "try 2 of 3")
    # Once it has ended, no progress and no reload.
    LinkImport.objects.filter(pk=row.pk).update(status=LinkImportStatus.FAILED)
    page = text(alice.get(f"/upload/link/{row.pk}/"))
    assert "<progress" not in page and 'http-equiv="refresh"' not in page


def test_a_failed_fetch_can_be_tried_again_with_one_button(
    client: Client,
    users: Users,
    tenhou: TenhouServer,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tenhou.script(GAME, Answer(404))
    client.force_login(users.alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/upload/link/", {"link": GAME, "visibility": "private"})
    failed = LinkImport.objects.get()
    assert failed.status == LinkImportStatus.FAILED
    page = text(client.get(response["Location"]))
    form = page.split('id="link-import-retry-form"')[1].split("</form>")[0]
    assert f'name="link" value="{GAME}"' in form and 'name="visibility" value="private"' in form
    assert 'id="link-import-retry"' in form and "Try again" in form
    # The button posts the same link and visibility: a new request, fetched again.
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/upload/link/", {"link": GAME, "visibility": "private"})
    again = LinkImport.objects.exclude(pk=failed.pk).get()
    assert response["Location"] == f"/upload/link/{again.pk}/"
    assert (again.status, again.visibility) == (LinkImportStatus.IMPORTED, "private")
    assert len(tenhou.requests_for(GAME)) == 2
    # Someone not logged in sees the failure of a public request, without the button.
    LinkImport.objects.filter(pk=failed.pk).update(visibility=Visibility.PUBLIC)
    client.logout()
    page = text(client.get(f"/upload/link/{failed.pk}/"))
    assert "Tenhou has no log" in page and "link-import-retry" not in page


def test_a_private_import_is_seen_by_its_requester_and_staff_only(
    client: Client, users: Users, tenhou: TenhouServer, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(users.alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/upload/link/", {"link": GAME, "visibility": "private"})
    page = response["Location"]
    assert Game.objects.get().visibility == "private"
    assert client.get(page).status_code == 200
    client.force_login(users.bob)
    assert client.get(page).status_code == 404
    client.force_login(users.staff)
    assert client.get(page).status_code == 200
    client.logout()
    assert client.get(page).status_code == 404


def test_the_form_counts_in_the_upload_budget(
    alice: Client, settings: Settings, tenhou: TenhouServer
) -> None:
    settings.MJLOGS_UPLOAD_RATE = "1/hour"
    assert alice.post("/upload/link/", {"link": GAME, "visibility": "public"}).status_code == 302
    response = alice.post("/upload/link/", {"link": OTHER, "visibility": "public"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert LinkImport.objects.count() == 1


# --- Settings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"MJLOGS_TENHOU_LOG_URL": "ftp://logs.example/{log_id}"}, "MJLOGS_TENHOU_LOG_URL="),
        ({"MJLOGS_TENHOU_LOG_URL": "https://logs.example/{id}"}, "with {log_id} where"),
        ({"MJLOGS_TENHOU_LOG_URL": "https://logs.example/"}, "with {log_id} where"),
        ({"MJLOGS_FETCH_TIMEOUT": "0"}, "MJLOGS_FETCH_TIMEOUT='0' is not a whole number"),
        ({"MJLOGS_FETCH_MIN_INTERVAL": "-1"}, "MJLOGS_FETCH_MIN_INTERVAL='-1'"),
        ({"MJLOGS_FETCH_ATTEMPTS": "three"}, "MJLOGS_FETCH_ATTEMPTS='three'"),
    ],
)
def test_a_bad_fetch_setting_stops_the_start(env: dict[str, str], message: str) -> None:
    result = run(["-c", "import django; django.setup()"], **env)
    assert result.returncode != 0 and message in result.stderr


def test_the_fetch_settings_default_to_tenhou_and_can_be_set() -> None:
    show = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.MJLOGS_TENHOU_LOG_URL, s.MJLOGS_FETCH_TIMEOUT, s.MJLOGS_FETCH_MIN_INTERVAL, "
        "s.MJLOGS_FETCH_ATTEMPTS)"
    )
    assert run(["-c", show]).stdout.split() == [
        "https://tenhou.net/0/log/?{log_id}",
        "10",
        "2",
        "3",
    ]
    result = run(
        ["-c", show],
        MJLOGS_TENHOU_LOG_URL="http://127.0.0.1:8001/log?id={log_id}",
        MJLOGS_FETCH_TIMEOUT="5",
        MJLOGS_FETCH_MIN_INTERVAL="0",
        MJLOGS_FETCH_ATTEMPTS="1",
    )
    assert result.stdout.split() == ["http://127.0.0.1:8001/log?id={log_id}", "5", "0", "1"]


@pytest.mark.django_db
def test_a_task_that_fails_for_good_ends_its_row(users: Users) -> None:
    row = link_import_request(user=users.alice, link=GAME, visibility=Visibility.PUBLIC)
    import_tenhou_link.on_failure(RuntimeError("gone"), "task-id", (row.pk,), {}, None)
    row.refresh_from_db()
    assert (row.status, row.error) == (LinkImportStatus.FAILED, TASK_FAILED)
    assert row.finished_at is not None


@pytest.mark.django_db
def test_a_request_left_waiting_long_ago_is_failed_when_asked_again(
    tenhou: TenhouServer, users: Users, run_after_commit: Any
) -> None:
    """A fetch whose process ended (a web process running it in-process) leaves its row
    waiting; asking for the log again ends that row as failed and brings the game in."""
    from datetime import timedelta

    from django.utils import timezone

    log_id = GAME
    abandoned = LinkImport.objects.create(
        link=log_id, source="tenhou", log_id=log_id, status=LinkImportStatus.FETCHING,
        attempts=1, visibility=Visibility.PUBLIC,
    )  # fmt: skip
    recent = LinkImport.objects.create(
        link=log_id, source="tenhou", log_id=log_id, status=LinkImportStatus.QUEUED,
        visibility=Visibility.PUBLIC,
    )  # fmt: skip
    LinkImport.objects.filter(pk=abandoned.pk).update(
        created_at=timezone.now() - link_imports.ABANDONED_AFTER - timedelta(minutes=1)
    )
    row = _request(run_after_commit, users, log_id)
    assert row.status == LinkImportStatus.IMPORTED, row.error
    abandoned.refresh_from_db()
    assert (abandoned.status, abandoned.error) == (LinkImportStatus.FAILED, link_imports.ABANDONED)
    recent.refresh_from_db()
    assert recent.status == LinkImportStatus.QUEUED  # not long enough ago to be given up
