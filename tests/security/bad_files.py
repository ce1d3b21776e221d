"""One bad file beside a good one: the bad one fails with a message naming its value, and the
good one goes in, by upload and by ``import_logs`` (tests/security: record limits, column
sizes, start times)."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from mjlogs.models import Game
from tests.api.conftest import client_for, self_played_document


def as_file(document: dict[str, Any], name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(document).encode(), "application/json")


def changed(seed: int, change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    """The self-played game of ``seed``'s canonical document, changed by ``change``."""
    document = copy.deepcopy(self_played_document(seed))
    change(document)
    return document


def upload_fails_alone(
    user: User, bad: dict[str, Any], good: dict[str, Any], *named: str
) -> dict[str, Any]:
    """Upload ``bad`` then ``good`` together: ``bad`` fails naming each of ``named``, ``good``
    alone is stored; its outcome is returned."""
    files = [as_file(bad, "bad.json"), as_file(good, "good.json")]
    response = client_for(user).post("/api/uploads/", {"files": files})
    assert response.status_code == 201, response.content
    refused, stored = response.json()["outcomes"]
    assert refused["status"] == "failed", refused
    for words in named:
        assert words in refused["error"], refused
    assert stored["status"] == "imported", stored
    assert list(Game.objects.values_list("pk", flat=True)) == [stored["game_id"]]
    return stored


def import_logs_fails_alone(
    folder: Path, bad: dict[str, Any], good: dict[str, Any], named: str
) -> None:
    """``import_logs`` of a folder holding ``bad`` and ``good``: it goes on after ``bad``,
    names it, stores ``good`` and exits 1."""
    (folder / "a-bad.json").write_text(json.dumps(bad))
    (folder / "b-good.json").write_text(json.dumps(good))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_logs", str(folder), "--quiet", stdout=out)
    assert exit_.value.code == 1  # a file failed
    assert "1 games imported, 0 duplicates, 1 failed" in out.getvalue()
    assert named in out.getvalue()
