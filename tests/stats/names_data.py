"""Players found by name (issue 22): the hand-computed world of ``stats_data.py`` and a few
games on other platforms, shared by the compare page, head-to-head API and browser tests.

=========  ==========================================  ========================================
game       seats                                        what it gives
=========  ==========================================  ========================================
world      Ann, Ben, Cat, Dan, Eve (g1-g6)              the world's platform (its records')
tenhou     Ben, Kim, Lee, NoName (a tenhou.net/6 file)  a second "Ben", on Tenhou; a guest seat
majsoul    Kim, Lee, Moe, Nia (Mahjong Soul rules)      "Kim" on two platforms too
private    Zed, Kim, Lee, Moe (alice's, private)        Zed, seen only by alice
=========  ==========================================  ========================================

Lee's seats are made a bot's (as self-play seats are) to show how a bot is offered.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from engine.formats import get_format
from engine.sim.selfplay import simulate
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, Player, PlayerKind, Visibility
from tests.stats.stats_data import World, build_world


@dataclass
class NamesWorld:
    world: World
    games: dict[str, Game]

    def player(self, name: str, platform: str | None = None) -> Player:
        """The one player of this name (on this platform)."""
        players = Player.objects.filter(name=name)
        if platform is not None:
            players = players.filter(platform=platform)
        (found,) = players
        return found

    def id(self, name: str, platform: str | None = None) -> int:
        return self.player(name, platform).pk

    @property
    def platform(self) -> str:
        """The platform of the world's players (their records' source)."""
        return self.world.players["Ann"].platform


def _game(ruleset: str, seed: int, names: tuple[str, ...]) -> Any:
    (played,) = simulate(ruleset, 1, seed)
    players = tuple(
        dataclasses.replace(player, name=name)
        for player, name in zip(played.header.players, names, strict=True)
    )
    return dataclasses.replace(played, header=dataclasses.replace(played.header, players=players))


def _import(data: bytes, name: str, uploader: User, visibility: str, on_commit: Any) -> Game:
    # The verification runs as after a commit: the head-to-head counts verified games only.
    with on_commit(execute=True):
        (outcome,) = import_file(name, data, uploader=uploader, visibility=visibility)
    assert outcome.status is Status.IMPORTED, outcome.error
    return Game.objects.get(pk=outcome.game_id)


def build_names_world(on_commit: Any) -> NamesWorld:
    """The world of ``stats_data`` and the games of the table above; ``on_commit`` is
    pytest-django's ``django_capture_on_commit_callbacks``."""
    world = build_world()
    alice = world.alice
    tenhou6 = get_format("tenhou6").write
    assert tenhou6 is not None
    tenhou = _game("tenhou-4p-east", 301, ("Ben", "Kim", "Lee", "NoName"))
    majsoul = _game("majsoul-4p-east", 302, ("Kim", "Lee", "Moe", "Nia"))
    private = _game("tenhou-4p-east", 303, ("Zed", "Kim", "Lee", "Moe"))
    games = {
        "tenhou": _import(tenhou6([tenhou]), "t.json", alice, Visibility.PUBLIC, on_commit),
        # As a converter writes a Mahjong Soul game (self-play's own record seats bots).
        "majsoul": _import(tenhou6([majsoul]), "m.json", alice, Visibility.PUBLIC, on_commit),
        "private": _import(tenhou6([private]), "p.json", alice, Visibility.PRIVATE, on_commit),
    }
    Player.objects.filter(name="Lee").update(kind=PlayerKind.BOT)
    return NamesWorld(world, games)
