"""``manage.py start``: migrate, then serve."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from mjlogs.management.commands import start

PROJECT_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    recorded: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def fake_call_command(name: str, *args: Any, **options: Any) -> None:
        recorded.append((name, args, options))

    monkeypatch.setattr(start, "call_command", fake_call_command)
    monkeypatch.delenv("RUN_MAIN", raising=False)
    return recorded


def test_start_migrates_then_serves_on_the_default_address(calls: list[Any]) -> None:
    call_command("start", "--no-demo")
    assert [name for name, _, _ in calls] == ["migrate", "runserver"]
    assert calls[0][2]["interactive"] is False
    assert calls[1][1] == ("127.0.0.1:8000",)
    assert calls[1][2]["use_reloader"] is True


def test_start_passes_addrport_and_noreload(calls: list[Any]) -> None:
    call_command("start", "0.0.0.0:8080", "--noreload", "--no-demo")
    assert calls[1][0] == "runserver"
    assert calls[1][1] == ("0.0.0.0:8080",)
    assert calls[1][2]["use_reloader"] is False


@pytest.mark.django_db(transaction=True)
def test_an_empty_database_gets_verified_demo_games_once(calls: list[Any]) -> None:
    from mjlogs.demo import DEMO_PRESETS
    from mjlogs.models import Game
    from replay.models import Verdict, Verification

    out = io.StringIO()
    call_command("start", stdout=out)
    stored = Game.objects.count()
    assert stored == 3 * len(DEMO_PRESETS)
    assert f"{stored} demo games imported" in out.getvalue()
    assert set(Game.objects.values_list("ruleset", flat=True)) == set(DEMO_PRESETS)
    assert Verification.objects.filter(verdict=Verdict.VERIFIED).count() == stored
    # Each a game of its own, none a copy of another (mjlogs.copies): the list shows them all.
    assert not Game.objects.filter(copy_of__isnull=False).exists()
    call_command("start", stdout=io.StringIO())
    assert Game.objects.count() == stored


def test_reloader_child_only_serves(calls: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUN_MAIN", "true")
    call_command("start")
    assert [name for name, _, _ in calls] == ["runserver"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_start_serves_health_on_a_fresh_sqlite_database(tmp_path: Path) -> None:
    """The real thing: a new database file is migrated and /health/ answers 200."""
    database = tmp_path / "fresh.sqlite3"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    env.update(DATABASE_URL=f"sqlite:///{database}", DJANGO_SETTINGS_MODULE="config.settings")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "start", f"127.0.0.1:{port}", "--noreload"],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        body = None
        deadline = time.monotonic() + 60
        while body is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=5) as r:
                    assert r.status == 200
                    body = json.load(r)
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    assert body == {
        "status": "ok",
        "database": {"reachable": True, "vendor": "sqlite"},
        "celery": {"mode": "eager", "broker": None},
    }, output
    assert "Preparing the database (migrate)" in output
    assert "Applying auth.0001_initial" in output
    assert database.exists()
