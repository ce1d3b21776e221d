"""The facts of each verified game are stored as rows when it is verified, replaced when it is
verified again, and absent for a game that does not verify."""

from __future__ import annotations

from typing import Any

import pytest

from engine.formats import canonical
from engine.replay import replay
from engine.sim.selfplay import simulate
from mjlogs.importing import import_file
from mjlogs.models import Game, GameSeat
from replay.services import game_verify
from stats.models import RoundFact

pytestmark = pytest.mark.django_db


def stored(document: dict[str, Any]) -> Game:
    import json

    (outcome,) = import_file("g.json", json.dumps(document).encode())
    return Game.objects.get(pk=outcome.game_id)


def test_a_verified_games_facts_are_the_replayers() -> None:
    (played,) = simulate("tenhou-4p", 1, 11)
    game = stored(canonical.game_to_json(played))
    game_verify(game.pk)
    report = replay(played)
    rows = list(RoundFact.objects.filter(game=game).order_by("round_index", "seat"))
    assert len(rows) == len(report.facts) == 4 * len(played.rounds)
    players = dict(GameSeat.objects.filter(game=game).values_list("seat", "player_id"))
    for row, fact in zip(rows, report.facts, strict=True):
        assert (row.round_index, row.seat, row.player_id) == (
            fact.round,
            fact.seat,
            players[fact.seat],
        )
        assert (row.won, row.dealt_in, row.riichi, row.win_points, row.delta) == (
            fact.won,
            fact.dealt_in,
            fact.riichi,
            fact.win_points,
            fact.delta,
        )
    wins = sum(len(summary.wins) for summary in report.rounds)
    assert RoundFact.objects.filter(game=game, won=True).count() == wins


def test_verifying_again_replaces_the_rows() -> None:
    (played,) = simulate("tenhou-4p-east", 1, 12)
    game = stored(canonical.game_to_json(played))
    game_verify(game.pk)
    first = list(RoundFact.objects.filter(game=game).values_list("pk", flat=True))
    game_verify(game.pk)
    assert RoundFact.objects.filter(game=game).count() == len(first)
    assert not RoundFact.objects.filter(pk__in=first).exists()


def test_a_game_that_does_not_verify_has_no_facts() -> None:
    (played,) = simulate("tenhou-4p-east", 1, 13)
    document = canonical.game_to_json(played)
    document["final"]["scores"][0] += 1000
    game = stored(document)
    verification = game_verify(game.pk)
    assert verification is not None and verification.verdict == "score_mismatch"
    assert not RoundFact.objects.filter(game=game).exists()
