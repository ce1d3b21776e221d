"""The player search says nothing of players you may not see (issue 40, item 11).

The search lists the players a text finds, the most games first, or by name when the text finds
more than ``FEW_MATCHES`` of them. Before, the players counted toward that choice included those
seated only in games you may not see (another user's private uploads): a search whose answer
switched to name order (and lost its game counts) told an outsider that a hidden player's name
holds the text. Now only the players you may see are counted (``mjlogs.selectors.player_search``),
so the answer is the same whether or not a hidden player matches.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from mjlogs.importing import import_file
from mjlogs.models import Visibility
from tests.api.conftest import client_for, self_played_document

pytestmark = pytest.mark.django_db


def search(user: User | None, text: str) -> list[dict[str, Any]]:
    response = client_for(user).get("/api/players/", {"search": text})
    assert response.status_code == 200, response.content
    return list(response.json()["results"])


def store_game(
    names: tuple[str, ...], seed: int, uploader: User | None = None, visibility: str = "public"
) -> None:
    data = json.dumps(self_played_document(seed, names)).encode()
    (outcome,) = import_file(f"{seed}.json", data, uploader=uploader, visibility=visibility)
    assert outcome.game_id is not None, outcome


@pytest.mark.parametrize("few", [2, 5])
def test_a_hidden_players_name_changes_no_search(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch, few: int
) -> None:
    monkeypatch.setattr("mjlogs.selectors.FEW_MATCHES", few)
    # Two players the text finds, Dan in more games than Ann: the most games first.
    store_game(("Dan", "Ann", "Cat", "Ben"), 1)
    store_game(("Dan", "Eve", "Fay", "Gus"), 2)
    before = {user: search(user, "an") for user in (None, alice)}
    assert [p["name"] for p in before[None]] == ["Dan", "Ann"]
    # Bob's private games seat players only he sees, whose names hold the text.
    for seed in range(3, 3 + few):
        names = (f"Hidden Anna {seed}", f"Anton {seed}", "Zed", "Yul")
        store_game(names, seed, uploader=bob, visibility=Visibility.PRIVATE)
    for user, answer in before.items():
        assert search(user, "an") == answer, f"{user}: the hidden players show in the answer"
    assert {p["name"] for p in search(bob, "an")} >= {"Ann", "Dan", "Hidden Anna 3"}
