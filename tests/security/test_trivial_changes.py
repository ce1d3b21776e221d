"""One game stored again under trivial changes (issue 40, item 3): a record of a stored game
whose ``rule_overrides`` set an option to the value its rule set already has, or an upload of it
with rule modifiers that change nothing, is the same record: a duplicate, never another game
counted again. mjlogs.identity normalises the rule set a record claims (stated_options); an empty
or blank choice of modifiers is no choice."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from mjlogs.models import Game
from tests.api.conftest import client_for, self_played_document

pytestmark = pytest.mark.django_db(transaction=True)

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
PAIR_ID = "2019103023gm-00a9-0000-f90e0fe9"
TENHOU6 = REAL / "tenhou6_json" / "tsubakisakura__mjlog2json" / f"{PAIR_ID}.json"
MJLOG = REAL / "mjlog_xml" / "tsubakisakura__mjlog2json" / f"{PAIR_ID}.xml"


def upload(user: User, data: bytes, name: str, query: str = "") -> dict[str, Any]:
    response = client_for(user).post(
        f"/api/uploads/{query}",
        data,
        content_type="application/octet-stream",
        HTTP_X_FILE_NAME=name,
    )
    assert response.status_code in (200, 201, 400), response.content
    if response.status_code == 400:
        return {"status": "refused", "error": json.dumps(response.json())}
    (outcome,) = response.json()["outcomes"]
    return dict(outcome)


def counted() -> int:
    return Game.objects.filter(copy_of__isnull=True).count()


def with_overrides(document: dict[str, Any], overrides: dict[str, Any]) -> bytes:
    changed = copy.deepcopy(document)
    changed["rule_overrides"] = {**changed.get("rule_overrides", {}), **overrides}
    return json.dumps(changed).encode()


@pytest.mark.parametrize(
    "overrides",
    [
        {"red_fives": [1, 1, 1]},  # tenhou-4p-east has one red five a suit
        {"kuitan": True},
        {"kuitan": "TRUE"},  # read as the rules read it
        {"starting_points": 25000},
        {"modifiers": []},
        {"seat_powers": []},
        {"seat_powers": [None, None, None, None]},  # no seat chose a power
        {"red_fives": "1,1,1", "kuitan": "true", "modifiers": ""},
    ],
    ids=[
        "red-fives", "kuitan", "kuitan-as-text", "starting-points", "no-modifiers",
        "no-powers", "no-seat-chose", "all-at-once",
    ],
)  # fmt: skip
def test_an_option_at_its_rule_sets_value_is_the_same_record(
    alice: User, overrides: dict[str, Any]
) -> None:
    document = self_played_document(1)
    first = upload(alice, json.dumps(document).encode(), "first.json")
    assert first["status"] == "imported"
    again = upload(alice, with_overrides(document, overrides), "again.json")
    assert (again["status"], again["game_id"]) == ("duplicate", first["game_id"]), again
    assert counted() == 1 and Game.objects.count() == 1


def test_the_record_with_trivial_options_first_is_the_same_record_too(alice: User) -> None:
    document = self_played_document(2)
    first = upload(alice, with_overrides(document, {"kuitan": True, "modifiers": []}), "a.json")
    again = upload(alice, json.dumps(document).encode(), "b.json")
    assert (again["status"], again["game_id"]) == ("duplicate", first["game_id"]), again
    assert Game.objects.count() == 1


def test_an_option_that_changes_the_rules_is_a_copy_counted_once(alice: User) -> None:
    document = self_played_document(3)
    first = upload(alice, json.dumps(document).encode(), "first.json")
    other = upload(alice, with_overrides(document, {"red_fives": [0, 0, 0]}), "other.json")
    assert other["status"] == "imported" and other["game_id"] != first["game_id"]
    # The same play: a copy of the one game, counted once, marked with what it claims otherwise.
    assert counted() == 1
    copy_ = Game.objects.get(pk=other["game_id"])
    assert copy_.copy_of_id == first["game_id"]
    assert copy_.copy_conflicts == ["rule set"]


@pytest.mark.parametrize("query", ["?modifiers=", "?modifiers=,", "?modifiers=%20"])
def test_an_empty_modifiers_choice_is_no_choice(alice: User, query: str) -> None:
    data = TENHOU6.read_bytes()
    first = upload(alice, data, TENHOU6.name)
    assert first["status"] == "imported"
    again = upload(alice, data, TENHOU6.name, query)
    assert (again["status"], again["game_id"]) == ("duplicate", first["game_id"]), again
    assert counted() == 1


def test_a_modifier_chosen_for_an_upload_is_a_claim_counted_once(alice: User) -> None:
    """A modifier that the record cannot show (``peek``: what a seat sees) is still a claim
    about how the game was played: the upload is another copy of the game, marked, and the game
    counts once."""
    data = MJLOG.read_bytes()
    first = upload(alice, data, MJLOG.name)
    again = upload(alice, data, MJLOG.name, "?modifiers=peek")
    assert again["status"] == "imported", again
    assert counted() == 1
    assert Game.objects.get(pk=again["game_id"]).copy_conflicts == ["rule set"]
    # Sent again, it is a duplicate of that copy, and the modifier in another spelling too.
    twice = upload(alice, data, MJLOG.name, "?modifiers=%20peek,")
    assert (twice["status"], twice["game_id"]) == ("duplicate", again["game_id"]), twice
    assert first["game_id"] != again["game_id"]


def test_the_migration_gives_stored_games_their_identity_and_marks_copies_again(
    alice: User,
) -> None:
    """Games stored with trivial options before had an identity of their own, and a copy that
    differed only so was marked as claiming another rule set: migration ``mjlogs.0011`` gives
    them the identity they have now and marks their copies again."""
    import importlib

    from django.apps import apps
    from django.db import connection

    from mjlogs.identity import _record_hash, identities, record_claims

    document = self_played_document(4)
    trivial = json.loads(with_overrides(document, {"kuitan": True}))
    first = upload(alice, json.dumps(document).encode(), "a.json")
    other = upload(alice, with_overrides(document, {"red_fives": [0, 0, 0]}), "b.json")

    def old_hash(doc: dict[str, Any]) -> str:  # the options as written were a claim
        claims = record_claims(doc)
        claims["ruleset"] = [doc["ruleset"], doc.get("rule_overrides", {})]
        return _record_hash(identities(doc)[0], claims)

    # As stored before: the first game's record with a trivial option, under its old identity,
    # and the copy marked with the conflict it had with it.
    Game.objects.filter(pk=first["game_id"]).update(
        document=trivial, rule_overrides={"kuitan": True}, content_hash=old_hash(trivial)
    )
    Game.objects.filter(pk=other["game_id"]).update(copy_conflicts=["rule set", "names"])
    migration = importlib.import_module("mjlogs.migrations.0011_rule_options_at_their_values")
    with connection.schema_editor() as editor:
        migration.rehash(apps, editor)
    stored = Game.objects.get(pk=first["game_id"])
    assert stored.content_hash == identities(trivial)[1] == identities(document)[1]
    assert Game.objects.get(pk=other["game_id"]).copy_conflicts == ["rule set"]
    # The record without the option is found as the same record by its identity.
    again = upload(alice, json.dumps(document).encode(), "c.json")
    assert (again["status"], again["game_id"]) == ("duplicate", first["game_id"])
