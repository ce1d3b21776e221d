"""config.rows.insert_rows stores what bulk_create would: every column, JSON and booleans too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.forms.models import model_to_dict

from config.rows import insert_rows, update_column
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import import_file
from mjlogs.models import Game, GameSeat
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

    fields = [field.attname for field in RoundFact._meta.concrete_fields if not field.primary_key]
    mappings = [{name: getattr(fact, name) for name in fields} for fact in stored]
    facts.delete()
    RoundFact.objects.bulk_create(unsaved())
    by_django = read_back()
    facts.delete()
    assert insert_rows(RoundFact, mappings) == len(stored)
    assert read_back() == by_django
    assert insert_rows(RoundFact, []) == 0


def test_a_field_left_out_takes_its_default_and_an_unknown_name_is_refused(
    django_capture_on_commit_callbacks: Any,
) -> None:
    (played,) = simulate("tenhou-4p-east", 1, 6)
    with django_capture_on_commit_callbacks(execute=True):
        import_file("g.json", json.dumps(canonical.game_to_json(played)).encode())
    fact = RoundFact.objects.filter(won=True).first()
    assert fact is not None and fact.yaku and fact.limit_hand is not None
    fields = [field.attname for field in RoundFact._meta.concrete_fields if not field.primary_key]
    row = {name: getattr(fact, name) for name in fields if name not in ("yaku", "limit_hand")}
    RoundFact.objects.all().delete()
    assert insert_rows(RoundFact, [row]) == 1
    again = RoundFact.objects.get()
    assert again.yaku == [] and again.limit_hand is False and again.han == fact.han
    with pytest.raises(TypeError, match="RoundFact has no field colour"):
        insert_rows(RoundFact, [row | {"colour": "red"}])


def test_update_column_sets_one_field_of_the_rows_given() -> None:
    games = [canonical.game_to_json(game) for game in simulate("tenhou-4p-east", 2, 9)]
    ids = [
        import_file(f"{n}.json", json.dumps(doc).encode())[0].game_id for n, doc in enumerate(games)
    ]
    seats = list(GameSeat.objects.filter(game_id=ids[0]).order_by("seat"))
    untouched = set(GameSeat.objects.filter(game_id=ids[1]).values_list("pk", "points"))
    assert (
        update_column(GameSeat, "points", [(seat.pk, 100 * seat.seat - 50) for seat in seats]) == 4
    )
    assert update_column(GameSeat, "points", []) == 0
    stored = (
        GameSeat.objects.filter(game_id=ids[0]).order_by("seat").values_list("points", flat=True)
    )
    assert list(stored) == [-50, 50, 150, 250]
    assert set(GameSeat.objects.filter(game_id=ids[1]).values_list("pk", "points")) == untouched
    with pytest.raises(TypeError, match=r"Game\.seats is not a column"):  # a reverse relation
        update_column(Game, "seats", [])
