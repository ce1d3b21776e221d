"""Statistics on small sets computed by hand: the fact rows of two games are written out
below, every figure is worked out in the comments, and the filters choose the games whose rows
count."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, GameSeat, Player
from replay.models import Verdict, Verification
from stats.selectors import StatsFilterError, player_stats
from tests.people import played_by
from tests.stats.stats_data import write_facts

pytestmark = pytest.mark.django_db

#: Ann's hands in game A, one dict each (anything left out is 0 / False / "").
GAME_A_HANDS: list[dict[str, Any]] = [
    # 1: riichi (first), tsumo win for 8000 on turn 10 with ippatsu and ura
    {"won": True, "tsumo": True, "win_points": 8000, "win_turn": 10, "riichi": True,
     "riichi_turn": 6, "riichi_wait_kinds": 2, "ura": 1, "ippatsu": True, "outcome": "win",
     "han": 5, "yaku": ["riichi", "ippatsu", "menzen_tsumo", "ura_dora"]},
    # 2: called once, dealt in 3900 to a riichi hand
    {"dealt_in": True, "deal_in_points": 3900, "dealt_in_to": "riichi", "calls": 1,
     "open_hand": True, "outcome": "win"},
    # 3: called twice, won by ron for 2000 on turn 8
    {"won": True, "win_points": 2000, "win_turn": 8, "calls": 2, "open_hand": True,
     "outcome": "win", "han": 2, "yaku": ["tanyao", "yakuhai_haku"]},
    # 4: chasing riichi on one wait kind, tenpai at the exhaustive draw
    {"riichi": True, "riichi_turn": 9, "riichi_chasing": True, "riichi_wait_kinds": 1,
     "tenpai_at_draw": True, "outcome": "exhaustive_draw"},
    # 5: dealer, noten at the exhaustive draw (the deal passes)
    {"tenpai_at_draw": False, "outcome": "exhaustive_draw", "dealer": True},
    # 6: somebody else won
    {"outcome": "win"},
    # 7: dama (closed, no riichi) win for 12000 on turn 12, as dealer
    {"won": True, "win_points": 12000, "win_turn": 12, "outcome": "win", "dealer": True,
     "han": 5, "yaku": ["tanyao", "dora"]},
    # 8: dealer again (the deal kept after 7); riichi (first) on two kinds, then dealt in
    # 8000 to a dama hand
    {"dealer": True, "riichi": True, "riichi_turn": 3, "riichi_wait_kinds": 2, "dealt_in": True,
     "deal_in_points": 8000, "dealt_in_to": "dama", "outcome": "win"},
]  # fmt: skip

#: Ann's one hand in game B: a win for 1000.
GAME_B_HANDS: list[dict[str, Any]] = [
    {"won": True, "win_points": 1000, "win_turn": 5, "outcome": "win", "han": 1,
     "yaku": ["tanyao"]},
]  # fmt: skip


def stored_game(seed: int, names: tuple[str, ...], ruleset: str, started_at: str) -> Game:
    (game,) = simulate(ruleset, 1, seed)
    document = canonical.game_to_json(game)
    played_by(document, names)
    document["started_at"] = started_at
    # Imported without running the verification (no facts of its own), then marked verified
    # so that its hand-written facts below count.
    (outcome,) = import_file("g.json", json.dumps(document).encode())
    assert outcome.status is Status.IMPORTED
    Verification.objects.create(game_id=outcome.game_id, verdict=Verdict.VERIFIED)
    return Game.objects.get(pk=outcome.game_id)


@pytest.fixture
def games() -> dict[str, Game]:
    a = stored_game(1, ("Ann", "Ben", "Cat", "Dan"), "tenhou-4p-east", "2024-03-01T10:00:00")
    b = stored_game(2, ("Eve", "Ann", "Fay", "Gus"), "tenhou-4p", "2024-05-01T10:00:00")
    ann = Player.objects.get(name="Ann")
    write_facts(a, ann, GAME_A_HANDS)
    write_facts(b, ann, GAME_B_HANDS)
    return {"a": a, "b": b}


def ann_stats(params: dict[str, Any] | None = None) -> Any:
    return player_stats(AnonymousUser(), Player.objects.get(name="Ann"), params)


def test_hand_rates_and_averages_of_game_a(games: dict[str, Game]) -> None:
    got = ann_stats({"ruleset": "tenhou-4p-east"}).metrics
    expected = {
        "win_rate": 3 / 8,  # hands 1, 3, 7
        "deal_in_rate": 2 / 8,  # hands 2, 8
        "riichi_rate": 3 / 8,  # hands 1, 4, 8
        "call_rate": 2 / 8,  # hands 2, 3
        "exhaustive_draw_rate": 2 / 8,  # hands 4, 5
        "tsumo_rate": 1 / 3,  # hand 1 of the 3 wins
        "dama_rate": 1 / 3,  # hand 7
        "average_win": (8000 + 2000 + 12000) / 3,
        "average_deal_in": (3900 + 8000) / 2,
        "average_win_turn": (10 + 8 + 12) / 3,
        "tenpai_at_draw_rate": 1 / 2,  # hand 4 of 4 and 5
        "ippatsu_rate": 1 / 1,  # the one riichi win (hand 1)
        "ura_rate": 1 / 1,
        "riichi_win_rate": 1 / 3,  # hand 1 of riichi hands 1, 4, 8
        "riichi_deal_in_rate": 1 / 3,  # hand 8
        "riichi_draw_rate": 1 / 3,  # hand 4
        "first_riichi_rate": 2 / 3,  # hands 1 and 8
        "chasing_riichi_rate": 1 / 3,  # hand 4
        "good_wait_riichi_rate": 2 / 3,  # hands 1 and 8 wait on two kinds
        "average_riichi_turn": (6 + 9 + 3) / 3,
        "called_win_rate": 1 / 2,  # hand 3 of called hands 2, 3
        "called_deal_in_rate": 1 / 2,  # hand 2
        "called_draw_rate": 0 / 2,
        "deal_in_to_riichi": 1 / 2,  # hand 2
        "deal_in_to_open": 0 / 2,
        "deal_in_to_dama": 1 / 2,  # hand 8
    }
    for name, value in expected.items():
        assert got[name] == pytest.approx(value), name


def test_placements_come_from_the_seats_of_complete_games(games: dict[str, Game]) -> None:
    ann = Player.objects.get(name="Ann")
    seats = {g: GameSeat.objects.get(game=games[g], player=ann) for g in ("a", "b")}
    stats = ann_stats()
    assert stats.counts["games"] == 2
    places = [seats["a"].placement, seats["b"].placement]
    assert stats.metrics["average_placement"] == pytest.approx(sum(places) / 2)
    assert stats.metrics["top_two_rate"] == pytest.approx(sum(p <= 2 for p in places) / 2)
    finals = [seats["a"].final_score, seats["b"].final_score]
    assert stats.metrics["average_final_score"] == pytest.approx(sum(finals) / 2)
    assert stats.metrics["bust_rate"] == pytest.approx(sum(f < 0 for f in finals) / 2)


@pytest.mark.parametrize(
    ("params", "hands", "wins"),
    [
        ({}, 9, 4),
        ({"ruleset": "tenhou-4p"}, 1, 1),
        ({"length": "east"}, 8, 3),
        ({"length": "east_south"}, 1, 1),
        ({"since": "2024-04-01"}, 1, 1),
        ({"until": "2024-04-01"}, 8, 3),
        ({"last": "1"}, 1, 1),  # game B is the newer
        ({"last": "2"}, 9, 4),
        ({"players": "3"}, 0, 0),
    ],
)
def test_filters_choose_the_games_whose_rows_count(
    games: dict[str, Game], params: dict[str, str], hands: int, wins: int
) -> None:
    counts = ann_stats(params).counts
    assert (counts["hands"], counts["wins"]) == (hands, wins)


def test_the_opponent_filter(games: dict[str, Game]) -> None:
    ben = Player.objects.get(name="Ben")  # only in game A
    assert ann_stats({"opponent": str(ben.pk)}).counts["hands"] == 8
    eve = Player.objects.get(name="Eve")  # only in game B
    assert ann_stats({"opponent": str(eve.pk)}).counts["hands"] == 1


def test_a_private_game_counts_only_for_who_may_see_it(games: dict[str, Game]) -> None:
    Game.objects.filter(pk=games["a"].pk).update(visibility="private")
    assert ann_stats().counts["hands"] == 1
    staff = User.objects.create_user("root", is_staff=True)
    ann = Player.objects.get(name="Ann")
    assert player_stats(staff, ann).counts["hands"] == 9


def test_no_hands_gives_no_value_not_zero(games: dict[str, Game]) -> None:
    stats = ann_stats({"players": "3"})
    assert stats.metrics["win_rate"] is None and stats.metrics["average_placement"] is None


@pytest.mark.parametrize("params", [{"last": "0"}, {"length": "long"}, {"opponent": "x"}])
def test_a_bad_filter_is_refused_by_name(games: dict[str, Game], params: dict[str, str]) -> None:
    with pytest.raises(StatsFilterError) as error:
        ann_stats(params)
    assert set(error.value.errors) == set(params)


def test_yaku_han_and_dealer_streak(games: dict[str, Game]) -> None:
    stats = ann_stats()
    # Wins: hand 1 (riichi, ippatsu, menzen tsumo, ura), 3 (tanyao, haku), 7 (tanyao, dora),
    # and game B's (tanyao).
    assert stats.yaku == [
        ("tanyao", 3), ("dora", 1), ("ippatsu", 1), ("menzen_tsumo", 1), ("riichi", 1),
        ("ura_dora", 1), ("yakuhai_haku", 1),
    ]  # fmt: skip
    assert stats.han == {1: 1, 2: 1, 5: 2}
    # Dealer in hands 5, 7 and 8 of game A: 7 and 8 follow each other.
    assert stats.longest_dealer_streak == 2


def test_stable_dan_from_placements() -> None:
    from stats.metrics import stable_dan

    # 30 firsts, 25 seconds, 25 thirds, 20 fourths: (6*30 + 3*25) / 20 - 2 = 10.75
    counts = {"first": 30, "second": 25, "third": 25, "fourth": 20}
    assert stable_dan(counts) == pytest.approx(10.75)
    assert stable_dan({"first": 3, "second": 0, "third": 1, "fourth": 0}) is None


def test_only_verified_games_count(games: dict[str, Game]) -> None:
    Verification.objects.filter(game=games["b"]).update(verdict=Verdict.SCORE_MISMATCH)
    counts = ann_stats().counts
    assert (counts["games"], counts["hands"]) == (1, 8)
