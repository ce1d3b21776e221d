"""``config.planner.analyze_if_stale``: on PostgreSQL, a table that changed by more than a fifth
of its rows (and at least 1,000) since its statistics were gathered gets them gathered again,
once; a small change, or another database, does nothing. Each test fills a table of its own,
so that no other test's rows count."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import psycopg
import pytest
from django.db import connection, transaction

from config import planner
from config.planner import STALE_ROWS, analyze_if_stale

pytestmark = pytest.mark.django_db(transaction=True)

TABLE = "planner_probe"


def activity() -> tuple[int, int, object]:
    """(rows changed since analyzed, live rows, when last analyzed) as PostgreSQL counts them."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_mod_since_analyze, n_live_tup, last_analyze FROM pg_stat_user_tables "
            "WHERE relname = %s AND schemaname = current_schema()",
            [TABLE],
        )
        return cursor.fetchone()


@pytest.fixture
def add_rows() -> Iterator[Callable[[int], None]]:
    """A table of this test's own; the function adds rows to it and waits until PostgreSQL's
    counters show them (a session's counts reach them within about a second)."""
    if connection.vendor != "postgresql":
        pytest.skip("planner statistics are PostgreSQL's (DATABASE_URL=postgres://...)")
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {TABLE} (n integer)")
    added = 0

    def add(count: int) -> None:
        nonlocal added
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {TABLE} SELECT generate_series(1, %s)", [count])
        added += count
        deadline = time.monotonic() + 10
        while activity()[1] < added:
            assert time.monotonic() < deadline, f"{activity()}: {added} rows never counted"
            time.sleep(0.2)

    yield add
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {TABLE}")


def test_a_table_filled_since_its_statistics_is_analyzed_once(
    add_rows: Callable[[int], None],
) -> None:
    add_rows(STALE_ROWS + 500)
    assert activity()[2] is None  # never analyzed

    assert analyze_if_stale([TABLE, "no_such_table"]) == [TABLE]
    changed, live, analyzed = activity()
    assert analyzed is not None and changed == 0 and live == STALE_ROWS + 500
    assert analyze_if_stale([TABLE]) == []  # nothing changed since


def test_a_few_rows_are_not_worth_it(add_rows: Callable[[int], None]) -> None:
    add_rows(STALE_ROWS - 1)
    assert analyze_if_stale([TABLE]) == []
    assert activity()[2] is None
    add_rows(1)
    assert analyze_if_stale([TABLE]) == [TABLE]


def test_a_change_small_for_the_table_leaves_its_statistics(
    add_rows: Callable[[int], None],
) -> None:
    add_rows(6 * STALE_ROWS)
    assert analyze_if_stale([TABLE]) == [TABLE]
    add_rows(STALE_ROWS + 10)  # a sixth of what was analyzed: under a fifth
    assert analyze_if_stale([TABLE]) == []
    add_rows(STALE_ROWS)  # now over a fifth
    assert analyze_if_stale([TABLE]) == [TABLE]


def test_a_table_another_command_holds_is_skipped_not_waited_for(
    add_rows: Callable[[int], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    add_rows(STALE_ROWS + 1)
    monkeypatch.setattr(planner, "LOCK_TIMEOUT_MS", 200)
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        host=settings["HOST"],
        port=settings["PORT"] or None,
        password=settings["PASSWORD"] or None,
    ) as other:  # a VACUUM or an index build elsewhere takes this lock
        other.execute(f"LOCK TABLE {TABLE} IN SHARE UPDATE EXCLUSIVE MODE")
        started = time.monotonic()
        assert analyze_if_stale([TABLE]) == []
        assert time.monotonic() - started < 5
    assert analyze_if_stale([TABLE]) == [TABLE]  # once it is free


def test_inside_a_transaction_nothing_is_done(add_rows: Callable[[int], None]) -> None:
    add_rows(STALE_ROWS + 1)
    with transaction.atomic():
        assert analyze_if_stale([TABLE]) == []
    assert analyze_if_stale([TABLE]) == [TABLE]


def test_elsewhere_nothing_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "vendor", "sqlite")
    assert analyze_if_stale(["mjlogs_player"]) == []
