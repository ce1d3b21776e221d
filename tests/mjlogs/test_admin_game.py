"""The admin's page of a game shows its stored document as JSON text, read-only."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import import_file


@pytest.mark.django_db
def test_the_admin_shows_the_document_as_json() -> None:
    (played,) = simulate("tenhou-4p-east", 1, 14)
    document = canonical.game_to_json(played)
    (outcome,) = import_file("g.json", json.dumps(document).encode())
    client = Client()
    client.force_login(User.objects.create_superuser("admin", "admin@example.org", "pw"))
    page = client.get(f"/admin/mjlogs/game/{outcome.game_id}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert escape(json.dumps(document["players"], ensure_ascii=False)) in text
    assert escape("{'") not in text  # not Python's spelling of the document
