"""Values a record may hold that the service does not store (issue 20, findings 2, 4 and 11):
each is a failure of its file with a message naming the value, never a 500 or a lost upload,
and the other files of the upload (or of the folder) go in. mjlogs.storable has the limits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from mjlogs.models import Game, Player
from mjlogs.storable import MAX_NAME_LENGTH, MAX_POINTS, MAX_ROUNDS
from tests.api.conftest import client_for, self_played_document
from tests.security.bad_files import (
    as_file,
    changed,
    import_logs_fails_alone,
    upload_fails_alone,
)

pytestmark = pytest.mark.django_db(transaction=True)

REAL_TENHOU6 = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "real"
    / "tenhou6_json"
    / "tsubakisakura__mjlog2json"
    / "2019103023gm-00a9-0000-f90e0fe9.json"
)


def long_name(document: dict[str, Any]) -> None:
    document["players"][1]["name"] = "x" * (MAX_NAME_LENGTH + 1)


def long_source_id(document: dict[str, Any]) -> None:
    document["source"] = {"format": "tenhou6", "id": "2019" + "0" * 296}


def huge_start_score(document: dict[str, Any]) -> None:
    document["rounds"][0]["scores"][0] = 2**31


def control_in_name(document: dict[str, Any]) -> None:
    document["players"][2]["name"] = "evil\u202eeman"


def too_many_rounds(document: dict[str, Any]) -> None:
    document["rounds"] = document["rounds"][:1] * (MAX_ROUNDS + 1)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (long_name, f"the name of seat 1 is {MAX_NAME_LENGTH + 1} characters long"),
        (long_source_id, "the record's source id is 300 characters long"),
        (huge_start_score, f"a starting score is 2,147,483,648 points; at most {MAX_POINTS:,}"),
        (control_in_name, "the name of seat 2 ('evil\\u202eeman') holds a control character"),
        (too_many_rounds, f"the game has {MAX_ROUNDS + 1} rounds"),
    ],
    ids=["long-name", "long-source-id", "score-2^31", "rtl-override", "rounds"],
)
def test_a_value_beyond_what_is_stored_fails_its_file_alone(
    alice: User, change: Any, named: str
) -> None:
    upload_fails_alone(alice, changed(2, change), self_played_document(1), named)


def test_import_logs_goes_on_after_a_file_beyond_the_limits(tmp_path: Path) -> None:
    bad, good = changed(3, huge_start_score), self_played_document(4)
    import_logs_fails_alone(tmp_path, bad, good, "a starting score is 2,147,483,648 points")


def test_a_four_player_record_with_eight_names_is_refused(alice: User) -> None:
    record = json.loads(REAL_TENHOU6.read_text())
    record["name"] += ["E", "F", "G", "H"]
    upload = SimpleUploadedFile("eight.json", json.dumps(record).encode())
    response = client_for(alice).post("/api/uploads/", {"files": [upload]})
    (outcome,) = response.json()["outcomes"]
    assert outcome["status"] == "failed"
    assert "8 names for a 4-player game" in outcome["error"]
    assert not Game.objects.exists()


def test_a_number_of_5000_digits_is_named_without_pythons_words(alice: User) -> None:
    text = json.dumps(self_played_document(5)).replace(
        '"scores": [', '"scores": [' + "9" * 5000 + ", ", 1
    )
    upload = SimpleUploadedFile("digits.json", text.encode())
    (outcome,) = client_for(alice).post("/api/uploads/", {"files": [upload]}).json()["outcomes"]
    assert outcome["status"] == "failed"
    assert "a number of 5,000 digits" in outcome["error"]
    assert "sys.set_int_max_str_digits" not in outcome["error"]


def test_a_content_length_of_superscript_digits_is_a_400(alice: User) -> None:
    response = client_for(alice).post(
        "/api/uploads/",
        b"{}",
        content_type="application/json",
        HTTP_X_FILE_NAME="g.json",
        CONTENT_LENGTH="\u00b2",
    )
    assert response.status_code == 400
    assert "is not a number of bytes" in response.json()["detail"]


def test_a_seat_without_a_name_is_shown_as_such(alice: User) -> None:
    document = changed(6, lambda doc: doc["players"][0].update(name="   "))
    response = client_for(alice).post("/api/uploads/", {"files": [as_file(document, "n.json")]})
    (outcome,) = response.json()["outcomes"]
    assert outcome["status"] == "imported"
    player = Game.objects.get(pk=outcome["game_id"]).seats.get(seat=0).player
    assert player.name == "(no name)"
    page = Client().get(f"/games/{outcome['game_id']}/").content.decode()
    assert f'/players/{player.pk}/">(no name)</a>' in page
    assert not Player.objects.filter(name__regex=r"^\s*$").exists()
