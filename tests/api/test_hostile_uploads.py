"""Hostile uploads, through the REST API (multipart and raw body) and the upload page: XML
entity expansion and external entities, decompression bombs (gzip, zip, tar.gz), a zip that
lies about its member's size, a tar.gz of a million members, archives inside archives, an
upload declaring 100 GB, a body without a length (chunked).

Each is refused with a message naming the problem (the API: 400, or 413 / 411 on the headers;
the page lists each file's failure in its 200 answer, as its script expects), leaves no row of
any table behind, and costs little memory: the peak Python allocation during the request
(``tracemalloc``) stays far below what the bomb expands to.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from mjlogs.archives import NESTED_ARCHIVE
from tests.api import hostile_files as hostile
from tests.api.conftest import client_for, self_played_document

pytestmark = pytest.mark.django_db

MEGABYTE = 1024 * 1024


def row_counts() -> dict[str, int]:
    """Rows of every table of the service's apps (games, players, seats, verdicts, facts...)."""
    return {
        model._meta.label: model.objects.count()
        for label in ("mjlogs", "replay", "stats")
        for model in apps.get_app_config(label).get_models()
    }


@dataclass
class Measured:
    response: Any
    peak_bytes: int


def measured(send: Callable[[], Any]) -> Measured:
    """Send a request, tracing Python's allocations: the response and the peak."""
    tracemalloc.start()
    try:
        response = send()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return Measured(response, peak)


@pytest.fixture
def nothing_stored(db: None) -> Iterator[None]:
    """The test must leave every table as it found it."""
    before = row_counts()
    yield
    assert row_counts() == before


# -- the files ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hostile:
    """One hostile file: its name, how to make it, what reading it naively would cost (its
    expansion, or the objects listing it would make), words the refusal must hold, and how
    much memory the refusal may take beyond a plain upload of the same size."""

    name: str
    make: Callable[[], bytes]
    expanded: int
    problem: str
    extra_memory: int = 16 * MEGABYTE


def _game_json(seed: int) -> bytes:
    import json

    return json.dumps(self_played_document(seed)).encode()


HOSTILE_FILES = [
    Hostile(
        "laughs.mjlog",
        lambda: hostile.BILLION_LAUGHS,
        hostile.BILLION_LAUGHS_EXPANDED,
        "XML DTDs and entities are not allowed",
    ),
    Hostile(
        "passwd.mjlog",
        lambda: hostile.EXTERNAL_ENTITY,
        0,
        "XML DTDs and entities are not allowed",
    ),
    Hostile(
        "bomb.mjlog.gz",
        cache(hostile.gzip_bomb),
        hostile.GIGABYTE,
        "gzip content larger than 64 MB; refused",
        # Inflated up to the limit (a 64 MB file is a file the readers take), not beyond.
        extra_memory=(64 + 16) * MEGABYTE,
    ),
    Hostile(
        "bomb.zip",
        cache(hostile.zip_bomb),
        hostile.GIGABYTE,
        "bomb.zip holds 1,073,741,824 bytes uncompressed; the limit is 536,870,912",
    ),
    Hostile(
        "liar.zip",
        cache(lambda: hostile.zip_bomb(stated=1000)),
        hostile.GIGABYTE,
        "liar.zip/bomb.json cannot be read from the zip archive (Bad CRC-32",
    ),
    Hostile(
        "bomb.tar.gz",
        cache(hostile.tar_gz_bomb),
        hostile.GIGABYTE,
        "bomb.tar.gz/bomb.json is 1,073,741,824 bytes; the limit for one file is 33,554,432",
    ),
    Hostile(
        "million.tar.gz",
        cache(lambda: hostile.tar_gz_of_many_members(1_000_000)),
        # What listing every member would cost: a TarInfo of about 500 bytes each.
        1_000_000 * 500,
        "million.tar.gz holds more than 2,000 files; the limit is 2,000",
    ),
    Hostile(
        "many.zip",
        cache(lambda: hostile.zip_of_repeated_entries(60_000)),
        # What listing every entry would cost: a ZipInfo of about 500 bytes each.
        60_000 * 500,
        "many.zip holds 60,000 entries; the limit is 10,000",
    ),
    Hostile(
        "lying-count.zip",
        cache(lambda: hostile.zip_of_repeated_entries(200_000, stated=1)),
        200_000 * 500,
        "lying-count.zip has a central directory of 9,400,000 bytes, too large for the "
        "10,000 entries an archive may hold",
    ),
    Hostile(
        "nested.zip",
        lambda: hostile.zip_of(
            {
                "inner.zip": hostile.zip_of({"game.json": _game_json(1)}),
                "inner.tar.gz": hostile.tar_gz_of({"game.json": _game_json(2)}),
            }
        ),
        0,
        NESTED_ARCHIVE,
    ),
]


def hostile_params() -> list[Any]:
    return [pytest.param(file, id=file.name) for file in HOSTILE_FILES]


Send = Callable[[str, bytes], Any]


def _refused_cheaply(file: Hostile, send: Send) -> Any:
    """Send the file, and check that its refusal costs no more memory than a plain upload of
    the same size (the request holds the upload a few times over: body, parsed file, copies)
    beyond ``file.extra_memory``, and far less than reading it naively would."""
    data = file.make()
    baseline = measured(lambda: send("plain.bin", b"\x01" * len(data)))
    result = measured(lambda: send(file.name, data))
    extra = result.peak_bytes - baseline.peak_bytes
    assert extra < file.extra_memory, f"{extra:,} bytes more than a plain upload"
    if file.expanded:
        assert result.peak_bytes < file.expanded / 10 + 2 * baseline.peak_bytes, (
            f"{result.peak_bytes:,} bytes at the peak"
        )
    return result.response


def _failures(body: dict[str, Any]) -> list[str]:
    assert body["counts"]["imported"] == body["counts"]["duplicate"] == 0, body
    assert all(outcome["status"] == "failed" for outcome in body["outcomes"]), body
    return [outcome["error"] for outcome in body["outcomes"]]


# -- the REST API ---------------------------------------------------------------------------------


@pytest.mark.parametrize("file", hostile_params())
def test_the_api_refuses_a_hostile_file_in_a_form(
    file: Hostile, alice: User, nothing_stored: None
) -> None:
    client = client_for(alice)

    def send(name: str, data: bytes) -> Any:
        upload = SimpleUploadedFile(name, data, "application/octet-stream")
        return client.post("/api/uploads/", {"files": [upload]})

    response = _refused_cheaply(file, send)
    assert response.status_code == 400, response.content[:500]
    errors = _failures(response.json())
    assert any(file.problem in error for error in errors), errors


@pytest.mark.parametrize("file", hostile_params())
def test_the_api_refuses_a_hostile_file_as_the_body(
    file: Hostile, alice: User, nothing_stored: None
) -> None:
    client = client_for(alice)

    def send(name: str, data: bytes) -> Any:
        disposition = f'attachment; filename="{name}"'
        return client.post(
            "/api/uploads/",
            data,
            content_type="application/octet-stream",
            HTTP_CONTENT_DISPOSITION=disposition,
        )

    response = _refused_cheaply(file, send)
    assert response.status_code == 400, response.content[:500]
    errors = _failures(response.json())
    assert any(file.problem in error for error in errors), errors


def test_an_archive_inside_an_archive_is_named_and_its_neighbours_go_in(alice: User) -> None:
    archive = hostile.zip_of(
        {"inner.zip": hostile.zip_of({"a.json": b"{}"}), "g.json": _game_json(3)}
    )
    upload = SimpleUploadedFile("mixed.zip", archive)
    response = client_for(alice).post("/api/uploads/", {"files": [upload]})
    assert response.status_code == 201
    outcomes = {outcome["file"]: outcome for outcome in response.json()["outcomes"]}
    assert outcomes["mixed.zip/inner.zip"]["status"] == "failed"
    assert outcomes["mixed.zip/inner.zip"]["error"] == NESTED_ARCHIVE
    assert outcomes["mixed.zip/g.json"]["status"] == "imported"


def test_the_api_refuses_an_upload_declaring_100_gb_before_reading_it(
    alice: User, nothing_stored: None
) -> None:
    client = client_for(alice)
    declared = 100 * 1024 * MEGABYTE
    result = measured(
        lambda: client.post(
            "/api/uploads/",
            b"x" * 1000,
            content_type="application/octet-stream",
            CONTENT_LENGTH=str(declared),
        )
    )
    assert result.response.status_code == 413
    assert "the upload is 102400.0 MB; at most 64.0 MB" in result.response.json()["detail"]
    assert result.peak_bytes < declared / 1000


def _chunked(client: Client | APIClient, path: str, **extra: Any) -> Any:
    """POST a chunked body, as it arrives through a WSGI server: no Content-Length."""
    return client.post(
        path,
        _game_json(4),
        content_type="application/octet-stream",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
        **extra,
    )


def test_the_api_refuses_a_chunked_body(alice: User, nothing_stored: None) -> None:
    response = _chunked(client_for(alice), "/api/uploads/")
    assert response.status_code == 411
    detail = response.json()["detail"]
    assert "a chunked upload (Transfer-Encoding) is not taken" in detail
    assert "send the file with its Content-Length" in detail


def test_a_post_without_length_has_no_body(alice: User, nothing_stored: None) -> None:
    # Neither Content-Length nor Transfer-Encoding: HTTP says there is no body.
    response = client_for(alice).post(
        "/api/uploads/", b"ignored", content_type="application/octet-stream", CONTENT_LENGTH=""
    )
    assert response.status_code == 400
    assert response.json() == {"files": ["no file was sent"]}


def test_the_api_refuses_a_length_that_is_not_a_number(alice: User, nothing_stored: None) -> None:
    response = client_for(alice).post(
        "/api/uploads/", b"{}", content_type="application/json", CONTENT_LENGTH="-5"
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "Content-Length '-5' is not a number of bytes"


# -- the upload page ------------------------------------------------------------------------------

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def page(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


@pytest.mark.parametrize("file", hostile_params())
def test_the_page_lists_a_hostile_file_as_failed(
    file: Hostile, page: Client, nothing_stored: None
) -> None:
    def send(name: str, data: bytes) -> Any:
        upload = SimpleUploadedFile(name, data)
        return page.post("/upload/", {"files": [upload], "visibility": "public"}, **JSON)

    response = _refused_cheaply(file, send)
    # The page's script shows each file's outcome from a 200 answer.
    assert response.status_code == 200
    errors = _failures(response.json())
    assert any(file.problem in error for error in errors), errors


def test_the_page_refuses_an_upload_declaring_100_gb(page: Client, nothing_stored: None) -> None:
    response = page.post(
        "/upload/", {"visibility": "public"}, CONTENT_LENGTH=str(100 * 1024 * MEGABYTE), **JSON
    )
    assert response.status_code == 413
    assert "Too large: the upload is 102400.0 MB" in response.json()["error"]


def test_the_page_refuses_a_chunked_body(page: Client, nothing_stored: None) -> None:
    response = _chunked(page, "/upload/", **JSON)
    assert response.status_code == 411
    assert "Length required: a chunked upload" in response.json()["error"]


# -- strings a database cannot hold ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["nul\x00name", "lone \ud800 surrogate"], ids=["nul", "surrogate"])
def test_a_player_name_no_database_can_hold_is_refused(
    name: str, alice: User, nothing_stored: None
) -> None:
    import json

    document = self_played_document(5)
    document["players"][0]["name"] = name
    data = json.dumps(document).encode()  # ASCII: the surrogate and NUL as \\u escapes
    response = client_for(alice).post(
        "/api/uploads/", {"files": [SimpleUploadedFile("g.json", data)]}
    )
    assert response.status_code == 400
    (error,) = _failures(response.json())
    assert "players[0].name" in error
