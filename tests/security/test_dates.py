"""A date out of range (issue 40, item 1): a record's start time outside years 1 to 9999 once
in UTC (year 9999 with a negative offset, year 1 with a positive one) is a value the database
cannot give back (PostgreSQL stores it, then every read of it fails in Python) or cannot take
(SQLite). It fails its file with the value named, the other files of the upload go in, and the
pages and API that list games keep answering. mjlogs.storable has the rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from mjlogs.models import Game
from tests.api.conftest import client_for, self_played_document
from tests.security.bad_files import as_file, import_logs_fails_alone, upload_fails_alone

pytestmark = pytest.mark.django_db(transaction=True)

REAL_MJLOG = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "real"
    / "mjlog_xml"
    / "tsubakisakura__mjlog2json"
    / "2019103023gm-00a9-0000-f90e0fe9.xml"
)


def dated(seed: int, started_at: str | None) -> dict[str, Any]:
    document = self_played_document(seed)
    document["started_at"] = started_at
    return document


@pytest.mark.parametrize(
    "started_at",
    [
        "9999-12-31T23:00:00-05:00",  # 10000-01-01T04:00Z
        "0001-01-01T00:00:00+05:00",  # 0000-12-31T19:00Z
        "9999-12-31T23:59:59.999999-00:01",
        "0001-01-01T05:00:00+05:00:01",  # a second before year 1 begins
    ],
    ids=["year-9999-west", "year-1-east", "a-minute-past-9999", "a-second-before-1"],
)
def test_a_start_time_beyond_the_years_fails_its_file_alone(alice: User, started_at: str) -> None:
    good = dated(1, "2024-01-01T12:00:00+09:00")
    named = (f"the start time {started_at!r}", "years 1 to 9999")
    stored = upload_fails_alone(alice, dated(2, started_at), good, *named)
    # Every read holding the stored game still answers.
    assert Client().get("/games/").status_code == 200
    assert client_for(alice).get("/api/games/").status_code == 200
    assert Client().get(f"/games/{stored['game_id']}/").status_code == 200


@pytest.mark.parametrize(
    "started_at",
    [
        "9999-12-31T18:59:59-05:00",  # 9999-12-31T23:59:59Z: the last second kept
        "0001-01-01T00:00:00+00:00",
        "0001-01-01T09:00:00+09:00",  # 0001-01-01T00:00Z
        "9999-12-31",  # a date alone is UTC
        "2024-01-01T12:00:00",  # no zone: UTC
    ],
)
def test_the_first_and_last_moments_kept_are_stored(alice: User, started_at: str) -> None:
    response = client_for(alice).post(
        "/api/uploads/", {"files": [as_file(dated(3, started_at), "edge.json")]}
    )
    (outcome,) = response.json()["outcomes"]
    assert outcome["status"] == "imported", outcome
    game = Game.objects.get(pk=outcome["game_id"])
    assert game.started_at is not None
    assert Client().get("/games/").status_code == 200
    assert client_for(alice).get(f"/api/games/{game.pk}/").status_code == 200


def test_import_logs_goes_on_after_a_start_time_beyond_the_years(tmp_path: Path) -> None:
    bad, good = dated(4, "9999-12-31T23:00:00-05:00"), dated(5, None)
    import_logs_fails_alone(tmp_path, bad, good, "'9999-12-31T23:00:00-05:00'")


def test_a_tenhou_log_id_of_year_0001_is_refused_too(alice: User) -> None:
    # An mjlog's start time comes from its log id, in Japan time: 0001-01-01 00:00 JST is still
    # year 0 in UTC. Every format's date goes through the same rule.
    data = REAL_MJLOG.read_bytes()
    response = client_for(alice).post(
        "/api/uploads/",
        data,
        content_type="application/octet-stream",
        HTTP_X_FILE_NAME="0001010100gm-00a9-0000-f90e0fe9.xml",
    )
    (outcome,) = response.json()["outcomes"]
    assert outcome["status"] == "failed", outcome
    assert "'0001-01-01T00:00:00+09:00'" in outcome["error"], outcome


def test_a_start_time_stored_beyond_the_years_is_forgotten_by_the_migration(
    alice: User,
) -> None:
    """PostgreSQL took such times before the rule: the game, the lists holding it, its deletion
    and its verification then failed on reading them. Migration ``mjlogs.0010`` forgets them
    (the date is unknown; the record's claim stays in its document)."""
    import importlib

    from django.apps import apps
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("SQLite never took such a time: set DATABASE_URL=postgres://")
    response = client_for(alice).post(
        "/api/uploads/",
        {"files": [as_file(dated(6, None), "a.json"), as_file(dated(7, None), "b.json")]},
    )
    bad, good = (outcome["game_id"] for outcome in response.json()["outcomes"])
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE mjlogs_game SET started_at = %s WHERE id = %s",
            ["10000-01-01 04:00:00+00", bad],
        )
        cursor.execute(
            "UPDATE mjlogs_game SET started_at = %s WHERE id = %s",
            ["0001-01-01 00:00:00+00", good],  # the first moment kept: it stays
        )
    # What it did: every list holding the game fails.
    assert Client(raise_request_exception=False).get("/games/").status_code == 500
    migration = importlib.import_module("mjlogs.migrations.0010_start_times_in_range")
    with connection.schema_editor() as editor:
        migration.forget_start_times_out_of_range(apps, editor)
    assert Game.objects.get(pk=bad).started_at is None
    assert Game.objects.get(pk=good).started_at is not None
    assert Client().get("/games/").status_code == 200
    assert Client().get(f"/games/{bad}/").status_code == 200
    assert client_for(alice).delete(f"/api/games/{bad}/").status_code == 204
