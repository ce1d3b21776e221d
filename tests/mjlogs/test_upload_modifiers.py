"""The upload page's rule modifiers ("superpowers"): a record that cannot state the modifiers
its game was played with (mjai, tenhou.net/6, mjlog) is judged under those the uploader
chooses; a canonical record states its own; a game that cannot apply them fails, naming them."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from engine.events import Game as EngineGame
from engine.families import family_named
from engine.formats import canonical, mjai
from engine.rules.modifiers import MODIFIERS
from engine.sim.selfplay import simulate
from mjlogs.forms import UploadForm
from mjlogs.models import Game
from tests.mjlogs.conftest import Users
from tests.mjlogs.pages import text

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def second_chance_game(seed: int = 3) -> EngineGame:
    """A self-played game whose seats draw again after their own discards (``second_chance``),
    its header stating no modifier: what a format without a place for them would carry."""
    (game,) = simulate("tenhou-4p-east", 1, seed, modifiers=("second_chance",))
    return dataclasses.replace(game, header=dataclasses.replace(game.header, rule_overrides={}))


def mjai_file(game: EngineGame, name: str = "game.mjson") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, mjai.write([game]))


@pytest.fixture
def alice(client: Client, users: Users) -> Client:
    client.force_login(users.alice)
    return client


def post(client: Client, upload: SimpleUploadedFile, *modifiers: str) -> Any:
    data = {"files": [upload], "visibility": "public", "modifiers": list(modifiers)}
    return client.post("/upload/", data, **JSON)


def test_the_form_offers_every_registered_modifier_with_its_description(alice: Client) -> None:
    page = text(alice.get("/upload/"))
    for name, modifier in MODIFIERS.items():
        assert f'type="checkbox" name="modifiers" value="{name}"' in page
        assert modifier.description in page
    assert UploadForm().fields["modifiers"].required is False


def test_the_form_keeps_the_registered_order_and_refuses_an_unknown_name() -> None:
    upload = {"files": [SimpleUploadedFile("a.json", b"{}")]}
    form = UploadForm({"visibility": "public", "modifiers": ["swap", "lucky_sevens"]}, upload)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["modifiers"] == ("lucky_sevens", "swap")
    form = UploadForm({"visibility": "public", "modifiers": ["flying"]}, upload)
    assert not form.is_valid() and "modifiers" in form.errors


def test_chosen_modifiers_go_into_a_record_that_states_none(alice: Client) -> None:
    body = post(alice, mjai_file(second_chance_game()), "second_chance").json()
    assert body["counts"] == {"imported": 1, "duplicate": 0, "failed": 0}
    stored = Game.objects.get()
    assert stored.rule_overrides == {"modifiers": ["second_chance"]}


def test_without_a_choice_nothing_changes(alice: Client) -> None:
    post(alice, mjai_file(second_chance_game()))
    assert Game.objects.get().rule_overrides == {}


def test_a_canonical_record_keeps_its_own_modifiers_and_refuses_others(alice: Client) -> None:
    (game,) = simulate("tenhou-4p-east", 1, 5, modifiers=("swap",))
    document = SimpleUploadedFile("swap.json", canonical.write([game]))
    assert post(alice, document, "swap").json()["counts"]["imported"] == 1
    document.seek(0)
    refused = post(alice, document, "peek").json()
    assert refused["counts"]["failed"] == 1
    assert "states rule modifiers swap, not the peek" in refused["outcomes"][0]["error"]


def test_a_game_that_cannot_apply_the_modifiers_fails_naming_them(alice: Client) -> None:
    (uzje,) = family_named("uzje").simulate("uzje-4p", 1, 0)
    refused = post(alice, SimpleUploadedFile("uzje.json", canonical.write([uzje])), "peek").json()
    assert refused["counts"] == {"imported": 0, "duplicate": 0, "failed": 1}
    assert "Ùzje mahjong applies no rule modifiers: peek" in refused["outcomes"][0]["error"]
    assert not Game.objects.exists()
