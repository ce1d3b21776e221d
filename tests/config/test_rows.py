"""config.rows.insert_rows stores what bulk_create would: every column, JSON and booleans too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.forms.models import model_to_dict

from config.rows import insert_rows
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.models import Game
from mjlogs.services import import_file
from stats.models import RoundFact
from tests.people import played_by

pytestmark = pytest.mark.django_db


def test_inserted_rows_equal_bulk_created_ones(django_capture_on_commit_callbacks: Any) -> None:
    (played,) = simulate("tenhou-4p-east", 1, 5)
    document = played_by(canonical.game_to_json(played), ("Ann", "Ben", "Cat", "Dan"))
    with django_capture_on_commit_callbacks(execute=True):  # verified: its facts are stored
        (outcome,) = import_file("g.json", json.dumps(document).encode())
    game = Game.objects.get(pk=outcome.game_id)
    facts = RoundFact.objects.filter(game=game).order_by("round_index", "seat")
    stored = list(facts)
    assert stored and any(fact.yaku for fact in stored) and any(fact.won for fact in stored)

    def read_back() -> list[dict[str, Any]]:
        return [model_to_dict(fact, exclude=["id"]) for fact in facts.all()]

    def unsaved() -> list[RoundFact]:
        for fact in stored:
            fact.pk = None
        return stored

    facts.delete()
    RoundFact.objects.bulk_create(unsaved())
    by_django = read_back()
    facts.delete()
    assert insert_rows(RoundFact, unsaved()) == len(stored)
    assert read_back() == by_django
    assert insert_rows(RoundFact, []) == 0
