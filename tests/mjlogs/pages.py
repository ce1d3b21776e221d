"""Helpers of the page tests (tests/mjlogs/test_pages_*.py): small self-played games with the
names and dates a test needs, and what a page lists."""

from __future__ import annotations

import dataclasses
import json
import re
from functools import cache
from html import unescape

from django.http import HttpResponse

from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.sim.selfplay import simulate

EAST_4P = "tenhou-4p-east"
EAST_3P = "tenhou-3p-east"


@cache
def _simulated(ruleset: str, seed: int) -> tuple[EngineGame, ...]:
    return tuple(simulate(ruleset, 2, seed))


def engine_game(
    ruleset: str = EAST_4P,
    seed: int = 1,
    number: int = 0,
    *,
    names: tuple[str, ...] | None = None,
    started_at: str | None = None,
) -> EngineGame:
    """A short self-played game (east round only), renamed and dated as asked. Its source id
    comes from ``ruleset``, ``seed`` and ``number``: two games stored in one test need two of
    those."""
    game = _simulated(ruleset, seed)[number]
    header = game.header
    if names is not None:
        players = tuple(
            dataclasses.replace(player, name=name)
            for player, name in zip(header.players, names, strict=True)
        )
        header = dataclasses.replace(header, players=players)
    if started_at is not None:
        header = dataclasses.replace(header, started_at=started_at)
    return dataclasses.replace(game, header=header)


def with_wrong_points(game: EngineGame, add: int = 100) -> bytes:
    """The game's canonical file with the first recorded win's points changed: the record no
    longer agrees with the rules (as tests/engine/test_replay_mutations.py does)."""
    document = canonical.game_to_json(game)
    for round_ in document["rounds"]:
        for event in round_["events"]:
            if event["type"] == "win" and "points" in event.get("recorded", {}):
                event["recorded"]["points"] += add
                return json.dumps(document).encode()
    raise AssertionError("the game has no recorded win")


def text(response: HttpResponse) -> str:
    return response.content.decode()


def listed_game_ids(response: HttpResponse) -> set[int]:
    """The games a list page links to."""
    return {int(found) for found in re.findall(r'href="/games/(\d+)/"', text(response))}


def rows(page: str, table_class: str) -> list[str]:
    """The body rows of the first table of that class, as HTML."""
    table = page.split(f'<table class="{table_class}">', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [row.split(">", 1)[1].split("</tr>", 1)[0] for row in body.split("<tr")[1:]]


def plain(html: str) -> str:
    """HTML as words: tags dropped, entities decoded, white space folded (and dropped before a
    comma)."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split()).replace(" ,", ",")
