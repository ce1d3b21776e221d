"""config.bulk.queries_unlogged: a bulk command keeps no query log, even with DEBUG on."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from config.bulk import queries_unlogged
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def debug_on(settings: Any) -> None:
    settings.DEBUG = True


@pytest.mark.usefixtures("debug_on")
def test_queries_in_the_block_are_not_kept_and_debug_comes_back() -> None:
    Game.objects.count()
    assert len(connection.queries) == 1  # DEBUG keeps them outside
    with queries_unlogged():
        assert settings.DEBUG is False
        Game.objects.count()
        Game.objects.exists()
    assert settings.DEBUG is True
    assert connection.queries == []
    Game.objects.count()
    assert len(connection.queries) == 1


@pytest.mark.usefixtures("debug_on")
def test_debug_comes_back_after_an_error() -> None:
    with pytest.raises(RuntimeError), queries_unlogged():
        raise RuntimeError("the import failed")
    assert settings.DEBUG is True


@pytest.mark.usefixtures("debug_on")
def test_an_import_keeps_no_query_log(tmp_path: Path) -> None:
    (tmp_path / "g.json").write_bytes(canonical.write(list(simulate("tenhou-4p-east", 2, 4))))
    call_command("import_logs", str(tmp_path), "--quiet", stdout=io.StringIO())
    assert Game.objects.count() == 2
    assert settings.DEBUG is True
    assert [query for query in connection.queries if "INSERT" in query["sql"]] == []
