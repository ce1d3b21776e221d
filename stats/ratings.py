"""Tenhou's R rating, game by game (features-and-metrics.md, section 2):

    change = games correction x (placement base + (table average R - own R) / 40) x scale

with the games correction ``1 - 0.002 x games played`` under 400 games and ``0.2`` from then
on, placement bases +30/+10/-10/-30 (4 players) or +30/0/-30 (3 players), a scale of 1.0, and
every player starting at R1500. The table average counts every seat, one's own included, as
Tenhou does. 4-player and 3-player ratings are separate, as on Tenhou.

Pure computation: :func:`rate` takes games in time order and the ratings before them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

START = 1500.0
BASES = {4: (30, 10, -10, -30), 3: (30, 0, -30)}
SCALE = 1.0


@dataclass(frozen=True)
class Standing:
    """A player's rating in one mode and the games it is built on."""

    rating: float = START
    games: int = 0


@dataclass(frozen=True)
class RatedGame:
    game_id: int
    #: ``(player id, placement)`` per seat.
    seats: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Change:
    game_id: int
    player_id: int
    before: Standing
    after: Standing


def correction(games: int) -> float:
    return 1 - 0.002 * games if games < 400 else 0.2


def rate(games: Iterable[RatedGame], standings: Mapping[int, Standing]) -> Iterator[Change]:
    """The rating changes of these games, played in this order, from these standings (a player
    missing from them starts at R1500); every game has 3 or 4 seats."""
    current = dict(standings)
    for game in games:
        bases = BASES[len(game.seats)]
        before = [current.get(player, Standing()) for player, _ in game.seats]
        average = sum(standing.rating for standing in before) / len(before)
        for (player, placement), old in zip(game.seats, before, strict=True):
            delta = correction(old.games) * (bases[placement - 1] + (average - old.rating) / 40)
            new = Standing(old.rating + delta * SCALE, old.games + 1)
            current[player] = new
            yield Change(game.game_id, player, old, new)
