"""The planner's statistics of the hand facts are gathered only for the columns a query selects,
joins, groups or sorts the facts by (stats/migrations/0013_fact_statistics.py): the statistics'
queries never plan with a column left out, and PostgreSQL gathers none for those."""

from __future__ import annotations

import importlib
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from stats.catch_up import player_summaries_update
from stats.models import RoundFact
from stats.selectors import study_pending_count
from tests.stats.stats_data import World, build_world

pytestmark = pytest.mark.django_db

NOT_PLANNED: tuple[str, ...] = importlib.import_module(
    "stats.migrations.0013_fact_statistics"
).NOT_PLANNED

#: The clauses whose columns the planner estimates rows by.
PLANNED_CLAUSES = frozenset({"WHERE", "ON", "GROUP BY", "ORDER BY"})
_TOKENS = re.compile(
    r'"[^"]*"\."[^"]*"|"[^"]*"|\'(?:[^\']|\'\')*\'|[()]'
    r"|\b(?:SELECT|FROM|WHERE|GROUP BY|HAVING|ORDER BY|ON|FILTER|LIMIT|RETURNING)\b"
)


def planned_fact_columns(sql: str) -> set[str]:
    """The columns of the facts ``sql`` filters, joins, groups or sorts by: a reference in a
    ``WHERE``, ``ON``, ``GROUP BY`` or ``ORDER BY`` at its own depth of parentheses, not in an
    aggregate's ``FILTER (WHERE ...)`` (a sum's condition, which the planner does not estimate)."""
    aliases = {'"stats_roundfact"'} | {
        f'"{alias}"' for alias in re.findall(r'"stats_roundfact"\s+(?:AS\s+)?"?(\w+)"?', sql)
    }
    clauses = ["SELECT"]  # the clause at each depth
    filtering = False
    found: set[str] = set()
    for match in _TOKENS.finditer(sql):
        token = match.group()
        if token == "(":
            clauses.append("FILTER" if filtering else clauses[-1])
            filtering = False
        elif token == ")":
            clauses.pop()
        elif token == "FILTER":
            filtering = True
        elif token[0].isalpha():
            if clauses[-1] != "FILTER":
                clauses[-1] = token
        elif "." in token and clauses[-1] in PLANNED_CLAUSES:
            table, _, column = token.partition(".")
            if table in aliases:
                found.add(column.strip('"'))
    return found


def test_the_reading_of_clauses() -> None:
    sql = (
        'SELECT "stats_roundfact"."yaku", SUM("stats_roundfact"."delta") FILTER (WHERE '
        '("stats_roundfact"."riichi" AND NOT "stats_roundfact"."tsumo")) FROM "stats_roundfact" '
        'WHERE ("stats_roundfact"."player_id" IN (SELECT U0."id" FROM "mjlogs_game" U0 WHERE '
        'U0."ruleset" = \'x\') AND "stats_roundfact"."won") GROUP BY "stats_roundfact"."han" '
        'ORDER BY "stats_roundfact"."game_id"'
    )
    assert planned_fact_columns(sql) == {"player_id", "won", "han", "game_id"}
    aliased = 'SELECT 1 FROM "stats_roundfact" U1 WHERE (U1."outcome" = \'win\')'
    assert planned_fact_columns(aliased.replace("U1", '"U1"')) == {"outcome"}


def test_no_query_of_the_statistics_plans_with_a_column_left_out(client: Client) -> None:
    world: World = build_world()
    ann, ben = world.id("Ann"), world.id("Ben")
    with CaptureQueriesContext(connection) as captured:
        player_summaries_update([player.pk for player in world.players.values()])
        for url in (
            f"/stats/players/{ann}/",
            f"/stats/players/{ann}/?ruleset=tenhou-4p-east&date_from=2024-01-15",
            f"/stats/compare/?a={ann}&b={ben}",
            "/stats/leaderboard/",
            f"/api/players/{ann}/stats/",
        ):
            assert client.get(url).status_code == 200, url
        study_pending_count()
    queries = [query["sql"] for query in captured if "stats_roundfact" in query["sql"]]
    assert len(queries) >= 10
    planned = set().union(*map(planned_fact_columns, queries))
    assert {"player_id", "won"} <= planned  # (the reading finds what is there)
    assert planned.isdisjoint(NOT_PLANNED), planned & set(NOT_PLANNED)


def test_every_column_left_out_is_a_column_of_the_facts() -> None:
    columns = {field.column for field in RoundFact._meta.concrete_fields}
    assert set(NOT_PLANNED) <= columns
    assert {"game_id", "player_id", "won", "dealer", "han", "decisions"} <= columns - set(
        NOT_PLANNED
    )


def test_postgresql_gathers_no_statistics_for_the_columns_left_out() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("statistics targets are PostgreSQL's (DATABASE_URL=postgres://...)")
    build_world()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attstattarget FROM pg_attribute WHERE attrelid = "
            "'stats_roundfact'::regclass AND attnum > 0 AND NOT attisdropped"
        )
        targets = dict(cursor.fetchall())
        cursor.execute("ANALYZE stats_roundfact")
        cursor.execute("SELECT attname FROM pg_stats WHERE tablename = 'stats_roundfact'")
        gathered = {name for (name,) in cursor.fetchall()}
    assert {targets[column] for column in NOT_PLANNED} == {0}
    # (-1, or NULL since PostgreSQL 17: the server's default target)
    assert all(targets[c] in (-1, None) for c in set(targets) - set(NOT_PLANNED))
    assert gathered == set(targets) - set(NOT_PLANNED)
