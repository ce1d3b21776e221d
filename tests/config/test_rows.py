"""config.rows.insert_rows stores what bulk_create would: every column, JSON and booleans too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.forms.models import model_to_dict

from config.rows import insert_rows, update_column, upsert_rows
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


def test_update_column_sets_nulls_booleans_and_prepared_values() -> None:
    """A NULL among the values, a boolean column, and a JSON column (its values prepared, so
    set one row at a time on PostgreSQL too) each land on their own row."""
    games = [canonical.game_to_json(game) for game in simulate("tenhou-4p-east", 2, 11)]
    ids = [
        import_file(f"{n}.json", json.dumps(doc).encode())[0].game_id for n, doc in enumerate(games)
    ]
    seats = list(GameSeat.objects.filter(game_id=ids[0]).order_by("seat"))
    update_column(GameSeat, "points", [(seats[0].pk, None), (seats[3].pk, 12.5)])
    stored = GameSeat.objects.filter(game_id=ids[0]).order_by("seat")
    points = list(stored.values_list("points", flat=True))
    assert [points[0], points[3]] == [None, 12.5]
    assert [points[1], points[2]] == [seats[1].points, seats[2].points]
    first, second = (Game.objects.get(pk=pk) for pk in ids)
    assert update_column(Game, "complete", [(second.pk, not second.complete)]) == 1
    assert Game.objects.get(pk=second.pk).complete is not second.complete
    assert Game.objects.get(pk=first.pk).complete is first.complete
    overrides = [(first.pk, {"aka": 0}), (second.pk, {"kuitan": False, "note": "it's"})]
    assert update_column(Game, "rule_overrides", overrides) == 2
    stored = dict(Game.objects.filter(pk__in=ids).values_list("pk", "rule_overrides"))
    assert stored == dict(overrides)


def test_upsert_rows_inserts_new_rows_and_sets_every_field_of_stored_ones() -> None:
    from django.utils import timezone

    from mjlogs.models import Player
    from stats.models import PlayerSummary

    ann, ben = (Player.objects.create(name=name) for name in ("Ann", "Ben"))
    then = timezone.now()

    def row(player: Player, games: int, **more: Any) -> dict[str, Any]:
        return {
            "player_id": player.pk, "games": games, "hands": 10 * games,
            "counts": {"games": games, "東": 1}, "metrics": {"win_rate": None, "x": 0.25},
            "yaku": [["riichi", games]], "han": [[1, games]], "longest_dealer_streak": 2,
            "stable_dan": None, "updated_at": then,
        } | more  # fmt: skip

    old = PlayerSummary.objects.create(**row(ann, 1))
    assert (
        upsert_rows(PlayerSummary, [row(ann, 3, stable_dan=4.5), row(ben, 2)], unique="player") == 2
    )
    stored = {summary.player_id: summary for summary in PlayerSummary.objects.all()}
    assert stored[ann.pk].pk == old.pk  # Ann's row, updated in place
    for player, games, dan in ((ann, 3, 4.5), (ben, 2, None)):
        got = model_to_dict(stored[player.pk], exclude=["id", "player"])
        expected = row(player, games, stable_dan=dan)
        assert got | {"updated_at": stored[player.pk].updated_at} == {
            name: value for name, value in expected.items() if name != "player_id"
        }
    assert upsert_rows(PlayerSummary, [], unique="player") == 0
    with pytest.raises(TypeError, match="every row must give"):
        upsert_rows(PlayerSummary, [row(ann, 1), {"player_id": ben.pk}], unique="player")
