"""Which game is which (issue 20, finding 1): a duplicate answer never points to, or confirms, a
game the uploader cannot see; a source id claimed by a record with other play does not stop that
record from being stored; a public upload is never absorbed into someone's private game; and the
same game in two formats is still one game (mjlogs.identity, docs/security.md)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from mjlogs.identity import identity_hash
from mjlogs.migrations._identity_0003 import identity_hash_0003
from mjlogs.models import Game, Visibility
from tests.api.conftest import client_for, self_played_document

pytestmark = pytest.mark.django_db(transaction=True)

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
#: One real Tenhou game as Tenhou's mjlog and as mjlog2json's tenhou.net/6 conversion.
PAIR_ID = "2019103023gm-00a9-0000-f90e0fe9"
PAIR = (
    REAL / "mjlog_xml" / "tsubakisakura__mjlog2json" / f"{PAIR_ID}.xml",
    REAL / "tenhou6_json" / "tsubakisakura__mjlog2json" / f"{PAIR_ID}.json",
)


def upload(user: User, data: bytes, name: str, visibility: str = "public") -> dict[str, Any]:
    """POST one file as a raw body; the one outcome of the answer."""
    response = client_for(user).post(
        f"/api/uploads/?visibility={visibility}",
        data,
        content_type="application/octet-stream",
        HTTP_X_FILE_NAME=name,
    )
    assert response.status_code in (200, 201), response.content  # 200: nothing new
    (outcome,) = response.json()["outcomes"]
    return dict(outcome)


def document_bytes(document: dict[str, Any]) -> bytes:
    return json.dumps(document).encode()


def with_source_id(document: dict[str, Any], source_id: str) -> dict[str, Any]:
    claimed = copy.deepcopy(document)
    claimed["source"] = {"format": "tenhou6", "id": source_id}
    return claimed


def test_someone_elses_private_game_is_neither_named_nor_confirmed(alice: User, bob: User) -> None:
    data = document_bytes(self_played_document(1))
    secret = upload(alice, data, "secret.json", visibility="private")
    assert secret["status"] == "imported"
    # Bob sends the very same game: he is not told it exists, let alone its id; he gets his own.
    answer = upload(bob, data, "mine.json", visibility="private")
    assert answer["status"] == "imported" and answer["game_id"] != secret["game_id"]
    assert Game.objects.get(pk=answer["game_id"]).uploader == bob
    assert Game.objects.get(pk=secret["game_id"]).visibility == Visibility.PRIVATE


def test_a_public_copy_is_not_absorbed_into_a_private_game(alice: User, bob: User) -> None:
    data = document_bytes(self_played_document(2))
    secret = upload(alice, data, "secret.json", visibility="private")
    public = upload(bob, data, "public.json")
    assert public["status"] == "imported" and public["game_id"] != secret["game_id"]
    assert Game.objects.get(pk=public["game_id"]).visibility == Visibility.PUBLIC
    # Anyone else's copy of it now finds the public one.
    again = upload(alice, data, "again.json")
    assert (again["status"], again["game_id"]) == ("duplicate", public["game_id"])


def test_a_duplicate_names_the_public_game_or_the_uploaders_own(alice: User, bob: User) -> None:
    data = document_bytes(self_played_document(3))
    own = upload(alice, data, "a.json", visibility="private")
    assert upload(alice, data, "b.json", visibility="private")["game_id"] == own["game_id"]
    assert upload(alice, data, "c.json")["game_id"] == own["game_id"]  # hers: she may see it


def test_a_fake_record_under_a_real_log_id_does_not_block_the_real_game(
    alice: User, bob: User
) -> None:
    log_id = "2019103023gm-00a9-0000-f90e0fe9"
    fake = with_source_id(self_played_document(4), log_id)
    real = with_source_id(self_played_document(5), log_id)
    assert identity_hash(fake) != identity_hash(real)
    for visibility in ("private", "public"):
        Game.objects.all().delete()
        planted = upload(bob, document_bytes(fake), "fake.json", visibility=visibility)
        stored = upload(alice, document_bytes(real), "real.json")
        assert planted["status"] == stored["status"] == "imported", visibility
        assert stored["game_id"] != planted["game_id"]
        assert Game.objects.filter(source_id=log_id).count() == 2


def test_the_same_game_in_two_formats_is_one_game(alice: User, bob: User) -> None:
    mjlog, tenhou6 = (path.read_bytes() for path in PAIR)
    first = upload(alice, mjlog, PAIR[0].name)
    second = upload(bob, tenhou6, PAIR[1].name)
    assert first["status"] == "imported"
    assert (second["status"], second["game_id"]) == ("duplicate", first["game_id"])


def test_other_names_make_another_game() -> None:
    document = self_played_document(6)
    renamed = copy.deepcopy(document)
    renamed["players"][0]["name"] += "!"
    assert identity_hash(renamed) != identity_hash(document)
    reordered = copy.deepcopy(document)
    reordered["rounds"][0]["hands"][0].reverse()
    assert identity_hash(reordered) == identity_hash(document)


def test_making_a_game_public_when_a_public_copy_exists_is_a_409(alice: User, bob: User) -> None:
    data = document_bytes(self_played_document(7))
    private = upload(alice, data, "private.json", visibility="private")
    public = upload(bob, data, "public.json")
    response = client_for(alice).patch(
        f"/api/games/{private['game_id']}/", {"visibility": "public"}, format="json"
    )
    assert response.status_code == 409
    assert f"game {public['game_id']}" in response.json()["detail"]
    assert Game.objects.get(pk=private["game_id"]).visibility == Visibility.PRIVATE


@pytest.mark.usefixtures("latest_schema_after")
def test_the_migration_rehashes_stored_games_and_keeps_both_of_a_pair() -> None:
    """Games stored before identities were told by play keep being found: the migration gives
    each its new hash, and of two stored games that turn out to be one, both stay."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("mjlogs", "0002_game_list_order_index")]
    after = [("mjlogs", "0003_game_identity_by_visibility")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old_game = executor.loader.project_state(before).apps.get_model("mjlogs", "Game")
    document = self_played_document(8)
    reordered = copy.deepcopy(document)
    reordered["rounds"][0]["hands"][0].reverse()  # the same game, spelt another way
    for key, (doc, source_id) in enumerate(((document, "x"), (reordered, "y"))):
        old_game.objects.create(
            ruleset=doc["ruleset"], players_count=4, rounds_count=len(doc["rounds"]),
            complete=True, source_format="canonical", source_id=source_id,
            content_hash=f"old-{key}", document=doc, raw=b"", raw_size=0,
        )  # fmt: skip
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    hashes = dict(Game.objects.values_list("source_id", "content_hash"))
    assert hashes == {"x": identity_hash_0003(document), "y": "old-1"}
