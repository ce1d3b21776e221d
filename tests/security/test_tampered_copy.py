"""A tampered copy does not win (issue 40, item 4).

Before, a copy of a real game with altered final scores, ranks, room or date, uploaded first,
made the genuine file and the record fetched from Tenhou "duplicates" of it: a player could hide
a game's real result. Now records of one play are copies of one game (``mjlogs.copies``): a copy
that says otherwise is stored beside the first, and the one that counts is the copy the rules
verify with no discrepancy, then the record fetched from Tenhou's log server; the others are
marked with what they claim otherwise. Played here as an outsider would: bob's tampered mjlog of
a real Tenhou game first, over the API, then alice's genuine file or link, the log served by a
real HTTP server on 127.0.0.1 (``tests.mjlogs.tenhou_server``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from mjlogs import selectors
from mjlogs.models import Game
from tests.api.conftest import client_for
from tests.mjlogs.tenhou_server import GAME_IDS, TenhouServer, tenhou

__all__ = ["tenhou"]  # the fixture, imported to be used here

pytestmark = pytest.mark.django_db

GAME = GAME_IDS[0]


def altered(data: bytes, attribute: str, change: Callable[[str], str]) -> bytes:
    """The record with the one value of ``attribute`` (an mjlog tag's) changed, whatever it
    was: the test does not depend on the fixture's exact text."""

    def replaced(found: re.Match[str]) -> str:
        value = found.group(2)
        changed = change(value)
        assert changed != value, attribute
        return f'{found.group(1)}"{changed}"'

    text, count = re.subn(rf'(\b{attribute}=)"([^"]*)"', replaced, data.decode())
    assert count == 1, attribute
    return text.encode()


def other_final_scores(data: bytes) -> bytes:
    """Seats 2 and 4 of the final standings swapped, their points too."""

    def swapped(value: str) -> str:
        pairs = [value.split(",")[i : i + 2] for i in range(0, 8, 2)]
        pairs[1], pairs[3] = pairs[3], pairs[1]
        return ",".join(item for pair in pairs for item in pair)

    return altered(data, "owari", swapped)


def other_ranks(data: bytes) -> bytes:
    """The first seat four ranks higher."""

    def raised(value: str) -> str:
        first, *rest = value.split(",")
        return ",".join([str(int(first) + 4), *rest])

    return altered(data, "dan", raised)


def other_room(data: bytes) -> bytes:
    """The lobby's room flag (0x20 of the GO tag's type) flipped: another room, the same
    rules."""
    return altered(data, "type", lambda value: str(int(value) ^ 0x20))


def upload(user: User, data: bytes, name: str, run: Any) -> int:
    with run(execute=True):  # the verification, as after the commit
        response = client_for(user).post(
            "/api/uploads/", data, content_type="application/octet-stream", HTTP_X_FILE_NAME=name
        )
    assert response.status_code == 201, response.content
    (outcome,) = response.json()["outcomes"]
    assert outcome["status"] == "imported", outcome
    return int(outcome["game_id"])


def fetch(user: User, run: Any) -> int:
    with run(execute=True):  # the fetch task, then the verification
        response = client_for(user).post(
            "/api/imports/links/",
            {"link": f"https://tenhou.net/0/?log={GAME}", "visibility": "public"},
            format="json",
        )
    assert response.status_code == 202, response.content
    answer = client_for(user).get(response["Location"]).json()
    assert answer["status"] in ("imported", "duplicate"), answer
    return int(answer["game"])


def the_counted_copy() -> tuple[int, list[str]]:
    (game,) = Game.objects.filter(copy_of__isnull=True)
    return game.pk, list(game.copy_conflicts)


def test_a_copy_with_other_final_scores_first_does_not_hide_the_genuine_one(
    tenhou: TenhouServer, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    run = django_capture_on_commit_callbacks
    genuine = tenhou.logs[GAME]
    tampered = upload(bob, other_final_scores(genuine), f"{GAME}.mjlog", run)
    assert Game.objects.get(pk=tampered).verification.verdict == "score_mismatch"
    real = upload(alice, genuine, f"{GAME}.mjlog", run)
    assert real != tampered
    assert the_counted_copy() == (real, ["final scores", "final results"])
    assert Game.objects.get(pk=tampered).copy_of_id == real
    assert set(selectors.games_listed(AnonymousUser()).values_list("pk", flat=True)) == {real}


@pytest.mark.parametrize(
    ("tamper", "file_name", "claims"),
    [
        (other_ranks, f"{GAME}.mjlog", ["ranks"]),
        (other_room, f"{GAME}.mjlog", ["room"]),
        (lambda data: data, "2011010100gm-00a9-0000-fe3371ad.mjlog", ["log id", "date"]),
    ],
    ids=["ranks", "room", "date"],
)
def test_the_record_fetched_from_tenhou_counts_over_a_copy_that_verifies_too(
    tenhou: TenhouServer,
    alice: User,
    bob: User,
    django_capture_on_commit_callbacks: Any,
    tamper: Callable[[bytes], bytes],
    file_name: str,
    claims: list[str],
) -> None:
    """What the rules cannot judge (ranks, room, date) verifies in a tampered copy too: it
    counts while it is the only one, and no longer once the game is fetched from Tenhou."""
    run = django_capture_on_commit_callbacks
    tampered = upload(bob, tamper(tenhou.logs[GAME]), file_name, run)
    assert Game.objects.get(pk=tampered).verification.verdict == "verified"
    assert the_counted_copy() == (tampered, [])
    fetched = fetch(alice, run)
    assert fetched != tampered
    counted, conflicts = the_counted_copy()
    assert counted == fetched
    assert sorted(conflicts) == sorted(claims)
    assert Game.objects.get(pk=tampered).copy_of_id == fetched
