"""A small world of games whose statistics are worked out by hand, shared by the selector,
page, API and browser tests of the statistics.

Five players; Ann's hands are written out below and every figure the tests expect is computed
from them in the comments. The games are self-played records (for real seats and documents)
imported without running the verification, then marked verified, with the seats' places and
final scores and Ann's fact rows set by hand.

=====  ==========  ===========================  ===========================================
game   date        seats (place, final score)    Ann's hands
=====  ==========  ===========================  ===========================================
g1     2024-01-01  Ann 1st 41000, Ben 2nd,       win +8000; nothing -1000
                   Cat 3rd, Dan 4th
g2     2024-02-01  Ben 1st, Ann 3rd 19000,       deal-in -3900; riichi -1000
                   Cat 2nd, Dan 4th
g3     2024-03-01  Ann 2nd 30200, Ben 4th,       riichi win +5200
                   Eve 1st, Dan 3rd
g4     2024-04-01  Ann 4th 23000, Cat 1st,       called; called + deal-in -2000; nothing
                   Dan 2nd, Eve 3rd
g5     2024-05-01  private (alice's): Ann 1st,   win +12000
                   Ben 2nd, Cat 3rd, Dan 4th
g6     2024-06-01  not verified: Ann 4th,        none
                   Ben 1st, Cat 2nd, Dan 3rd
=====  ==========  ===========================  ===========================================
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, GameSeat, Player, Visibility
from replay.models import Verdict, Verification
from stats.catch_up import summaries_mark_stale
from stats.models import RoundFact
from tests.people import played_by

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")

#: Per game: date, the seats' (name, place, final score), Ann's hands, public, verified.
GAMES: dict[str, dict[str, Any]] = {
    "g1": {
        "date": "2024-01-01T10:00:00",
        "seats": (("Ann", 1, 41000), ("Ben", 2, 30000), ("Cat", 3, 20000), ("Dan", 4, 9000)),
        "hands": [
            {"won": True, "win_points": 8000, "win_turn": 9, "outcome": "win", "delta": 8000,
             "han": 3, "yaku": ["tanyao", "pinfu", "dora"], "dealer": True},
            {"outcome": "win", "delta": -1000},
        ],
    },
    "g2": {
        "date": "2024-02-01T10:00:00",
        "seats": (("Ben", 1, 40000), ("Ann", 3, 19000), ("Cat", 2, 28000), ("Dan", 4, 13000)),
        "hands": [
            {"dealt_in": True, "deal_in_points": 3900, "dealt_in_to": "riichi", "outcome": "win",
             "delta": -3900},
            {"riichi": True, "riichi_turn": 7, "riichi_wait_kinds": 2, "tenpai_at_draw": True,
             "outcome": "exhaustive_draw", "delta": -1000},
        ],
    },
    "g3": {
        "date": "2024-03-01T10:00:00",
        "seats": (("Ann", 2, 30200), ("Ben", 4, 10000), ("Eve", 1, 39800), ("Dan", 3, 20000)),
        "hands": [
            {"won": True, "tsumo": True, "riichi": True, "riichi_turn": 5, "win_turn": 8,
             "riichi_wait_kinds": 1, "win_points": 5200, "outcome": "win", "delta": 5200,
             "han": 3, "yaku": ["riichi", "menzen_tsumo", "tanyao"]},
        ],
    },
    "g4": {
        "date": "2024-04-01T10:00:00",
        "seats": (("Ann", 4, 23000), ("Cat", 1, 35000), ("Dan", 2, 32000), ("Eve", 3, 10000)),
        "hands": [
            {"calls": 1, "open_hand": True, "outcome": "win"},
            {"calls": 2, "open_hand": True, "dealt_in": True, "deal_in_points": 2000,
             "dealt_in_to": "open", "outcome": "win", "delta": -2000},
            {"outcome": "win"},
        ],
    },
    "g5": {
        "date": "2024-05-01T10:00:00",
        "seats": (("Ann", 1, 45000), ("Ben", 2, 30000), ("Cat", 3, 15000), ("Dan", 4, 10000)),
        "hands": [
            {"won": True, "win_points": 12000, "win_turn": 11, "outcome": "win", "delta": 12000,
             "han": 5, "yaku": ["honitsu", "yakuhai_haku"]},
        ],
        "private": True,
    },
    "g6": {
        "date": "2024-06-01T10:00:00",
        "seats": (("Ann", 4, 5000), ("Ben", 1, 50000), ("Cat", 2, 25000), ("Dan", 3, 20000)),
        "hands": [],
        "unverified": True,
    },
}  # fmt: skip


@dataclass
class World:
    games: dict[str, Game]
    players: dict[str, Player]
    alice: User

    def id(self, name: str) -> int:
        return self.players[name].pk


def write_facts(game: Game, player: Player, hands: list[dict[str, Any]]) -> None:
    """Fact rows for the player's hands (anything a hand leaves out is 0, False or "")."""
    seat = GameSeat.objects.get(game=game, player=player).seat
    for index, hand in enumerate(hands):
        values = {
            "dealer": False, "turns": 10, "won": False, "tsumo": False, "dealt_in": False,
            "win_points": 0, "deal_in_points": 0, "han": 0, "fu": 0, "yaku": [], "ura": 0,
            "ippatsu": False, "win_turn": 0, "riichi": False, "riichi_turn": 0,
            "riichi_chasing": False, "riichi_wait_kinds": 0, "calls": 0, "open_hand": False,
            "tenpai_at_draw": None, "dealt_in_to": "", "delta": 0, "score_after": 25000,
        } | hand  # fmt: skip
        RoundFact.objects.create(
            game=game, player=player, seat=seat, round_index=index, round_name=f"E{index + 1}",
            **values,
        )  # fmt: skip


@functools.cache
def _played(seed: int) -> str:
    """A self-played game's canonical JSON (simulated once per test run)."""
    (played,) = simulate("tenhou-4p-east", 1, seed)
    return json.dumps(canonical.game_to_json(played))


def store(seed: int, spec: dict[str, Any], uploader: User) -> Game:
    document = json.loads(_played(seed))
    played_by(document, (name for name, _, _ in spec["seats"]))
    document["started_at"] = spec["date"]
    document["source"]["id"] = f"stats-world-{seed}"
    visibility = Visibility.PRIVATE if spec.get("private") else Visibility.PUBLIC
    (outcome,) = import_file(
        "g.json", json.dumps(document).encode(), uploader=uploader, visibility=visibility
    )
    assert outcome.status is Status.IMPORTED, outcome.error
    game = Game.objects.get(pk=outcome.game_id)
    # Where commits run the verification (a transactional test), its verdict and facts are
    # replaced by the table's.
    Verification.objects.filter(game=game).delete()
    RoundFact.objects.filter(game=game).delete()
    if not spec.get("unverified"):
        Verification.objects.create(game=game, verdict=Verdict.VERIFIED)
    for name, place, final in spec["seats"]:
        GameSeat.objects.filter(game=game, player__name=name).update(
            placement=place, final_score=final
        )
    return game


def build_world() -> World:
    """Store the games of the table above (the database must be open to the caller)."""
    alice = User.objects.create_user("alice")
    # alice uploads every game; only g5 is private, so it tells her view from anyone else's.
    games = {
        key: store(100 + index, spec, alice) for index, (key, spec) in enumerate(GAMES.items())
    }
    players = {name: Player.objects.get(name=name) for name in NAMES}
    for key, spec in GAMES.items():
        write_facts(games[key], players["Ann"], spec["hands"])
    # The games' verdicts and facts were replaced behind the services' back: mark the players
    # as a change to their games does, so no summary computed before (where commits ran the
    # verifications) is read for them.
    summaries_mark_stale(player.pk for player in players.values())
    return World(games, players, alice)
