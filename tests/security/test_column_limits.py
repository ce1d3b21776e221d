"""Column limits (issue 40, item 2): a value over the size of the column it is stored in (the
rule set, the source's format, which names the players' platform, a player's rank), or a record
whose seats do not agree (five names for four starting scores), fails its file with the value
named, never a 500 or a lost upload; the other files of the upload go in, and ``import_logs``
goes on. Every column's size is read from the model, in one place (mjlogs.storable)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import models

from mjlogs import storable
from mjlogs.models import Game, GameSeat, Player, PlayerName
from tests.api.conftest import client_for, self_played_document
from tests.security.bad_files import (
    as_file,
    changed,
    import_logs_fails_alone,
    upload_fails_alone,
)

pytestmark = pytest.mark.django_db(transaction=True)


def size(model: type[models.Model], field: str) -> int:
    max_length = model._meta.get_field(field).max_length
    assert isinstance(max_length, int)
    return max_length


def long_ruleset(document: dict[str, Any]) -> None:
    document["ruleset"] = "tenhou-4p-east" + "x" * (size(Game, "ruleset") - 13)


def long_source_format(document: dict[str, Any]) -> None:
    document["source"]["format"] = "f" * (size(Player, "platform") + 1)


def long_rank(document: dict[str, Any]) -> None:
    document["players"][2]["rank"] = "十段" * 20


def five_names(document: dict[str, Any]) -> None:
    document["players"].append({"name": "Eve"})


def three_names(document: dict[str, Any]) -> None:
    document["players"].pop()


def five_final_scores(document: dict[str, Any]) -> None:
    document["final"]["scores"].append(0)


def three_scores_in_a_hand(document: dict[str, Any]) -> None:
    document["rounds"][1]["scores"].pop()


CASES = [
    (long_ruleset, f"the rule set is 65 characters long; at most {size(Game, 'ruleset')}"),
    (long_source_format, "the record's source format is 33 characters long; at most 32"),
    (long_rank, "the rank of seat 2 is 40 characters long; at most 32"),
    (five_names, "the record names 5 players, but round 1 (E1) has 4 starting scores"),
    (three_names, "the record names 3 players, but round 1 (E1) has 4 starting scores"),
    (five_final_scores, "the record names 4 players, but the final scores are 5"),
    (three_scores_in_a_hand, "the record names 4 players, but round 2 (E2) has 3 starting"),
]
IDS = ["ruleset", "source-format", "rank", "5-names", "3-names", "5-final", "3-scores"]


@pytest.mark.parametrize(("change", "named"), CASES, ids=IDS)
def test_a_value_over_its_column_fails_its_file_alone(
    alice: User, change: Callable[[dict[str, Any]], object], named: str
) -> None:
    upload_fails_alone(alice, changed(2, change), self_played_document(1), named)


@pytest.mark.parametrize(("change", "named"), CASES, ids=IDS)
def test_import_logs_goes_on_after_a_value_over_its_column(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], named: str
) -> None:
    import_logs_fails_alone(tmp_path, changed(3, change), self_played_document(4), named)


def test_values_at_their_columns_sizes_are_stored(alice: User) -> None:
    def at_the_sizes(document: dict[str, Any]) -> None:
        document["ruleset"] = "r" * size(Game, "ruleset")
        document["source"]["format"] = "f" * size(Player, "platform")
        document["players"][0]["rank"] = "k" * size(GameSeat, "recorded_rank")

    response = client_for(alice).post(
        "/api/uploads/", {"files": [as_file(changed(5, at_the_sizes), "edge.json")]}
    )
    (outcome,) = response.json()["outcomes"]
    assert outcome["status"] == "imported", outcome
    game = Game.objects.get(pk=outcome["game_id"])
    assert len(game.ruleset) == size(Game, "ruleset")
    assert len(game.seats.get(seat=0).recorded_rank) == size(GameSeat, "recorded_rank")


#: Text columns of the stored game whose values a record does not choose: hashes, choices, the
#: reader's own format name, the room (one of a fixed few), the file's name (cut to the column).
NOT_FROM_THE_RECORD = {
    (Game, "content_hash"),
    (Game, "play_hash"),
    (Game, "source_format"),
    (Game, "visibility"),
    (Game, "room"),
    (Game, "raw_name"),
    (Player, "kind"),
}


def test_every_text_column_a_record_fills_is_checked_at_the_models_size() -> None:
    """A new column, or a column made smaller, is checked as the model says, or named here."""
    checked = {(column.model, column.field) for column in storable.COLUMNS}
    for model in (Game, GameSeat, Player, PlayerName):
        for field in model._meta.get_fields():
            if isinstance(field, models.CharField) and (model, field.name) not in (
                NOT_FROM_THE_RECORD
            ):
                assert (model, field.name) in checked, f"{model.__name__}.{field.name}"
    for column in storable.COLUMNS:
        assert column.size == size(column.model, column.field)
