"""POST /api/uploads/?modifiers=...: the rule modifiers ("superpowers") a record that cannot
state them was played with; the games are verified under them."""

from __future__ import annotations

import dataclasses

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from engine.formats import mjai
from engine.sim.selfplay import simulate
from mjlogs.models import Game
from replay.models import Verdict, Verification
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def mjai_file(seed: int = 3) -> SimpleUploadedFile:
    """A self-played game with second chances, as mjai (which has no place for modifiers)."""
    (game,) = simulate("tenhou-4p-east", 1, seed, modifiers=("second_chance",))
    plain = dataclasses.replace(game, header=dataclasses.replace(game.header, rule_overrides={}))
    return SimpleUploadedFile("game.mjson", mjai.write([plain]))


def verdict_of(game_id: int) -> str:
    return str(Verification.objects.get(game_id=game_id).verdict)


def test_a_game_is_verified_under_the_modifiers_it_was_played_with(alice: User) -> None:
    url = "/api/uploads/?modifiers=second_chance"
    response = client_for(alice).post(url, {"files": [mjai_file()]})
    assert response.status_code == 201, response.json()
    (outcome,) = response.json()["outcomes"]
    assert Game.objects.get(pk=outcome["game_id"]).rule_overrides == {
        "modifiers": ["second_chance"]
    }
    assert verdict_of(outcome["game_id"]) == Verdict.VERIFIED


def test_without_them_its_second_chances_are_illegal(alice: User) -> None:
    response = client_for(alice).post("/api/uploads/", {"files": [mjai_file()]})
    assert response.status_code == 201
    (outcome,) = response.json()["outcomes"]
    assert verdict_of(outcome["game_id"]) == Verdict.ILLEGAL_ACTION


def test_an_unknown_modifier_is_a_400_listing_the_known_ones(alice: User) -> None:
    response = client_for(alice).post("/api/uploads/?modifiers=flying", {"files": [mjai_file()]})
    assert response.status_code == 400
    message = str(response.json())
    assert "unknown rule modifier(s): flying" in message and "second_chance" in message
    assert not Game.objects.exists()
