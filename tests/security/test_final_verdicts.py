"""Every accepted game reaches a final verdict (issue 20, finding 3): a game whose figures
overflow the facts table, or on which the engine fails, is never left pending, and
``reverify --pending`` does not fail on it."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

import replay.services
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import import_file
from mjlogs.models import Game
from replay.models import Verdict, Verification
from replay.services import game_verify
from stats.models import RoundFact

pytestmark = pytest.mark.django_db(transaction=True)


def stored_game(seed: int) -> Game:
    (game,) = simulate("tenhou-4p-east", 1, seed)
    (outcome,) = import_file(f"{seed}.json", canonical.write([game]))
    return Game.objects.get(pk=outcome.game_id)


def test_figures_beyond_the_facts_columns_give_a_final_verdict() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps 64-bit integers in any column: set DATABASE_URL=postgres://")
    game = stored_game(11)
    # A game stored before the import checked its values (mjlogs.storable): scores near 2^31,
    # so that a score after a hand is beyond the facts table's 32-bit column.
    document = game.document
    for round_ in document["rounds"]:
        round_["scores"] = [score + 2_147_460_000 for score in round_["scores"]]
    document["final"]["scores"] = [score + 2_147_460_000 for score in document["final"]["scores"]]
    Game.objects.filter(pk=game.pk).update(document=document)
    Verification.objects.filter(game=game).delete()

    verification = game_verify(game.pk)

    assert verification is not None and verification.verdict == Verdict.UNSUPPORTED
    assert "beyond what the statistics keep" in verification.message
    assert not RoundFact.objects.filter(game=game).exists()


def test_an_engine_failure_gives_a_final_verdict_and_reverify_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    failing, fine = stored_game(12), stored_game(13)
    Verification.objects.all().delete()  # stored while the broker was away: pending
    real_replay = replay.services.replay

    def replay_failing_on_one(record: Any) -> Any:
        if record.header.source.id == failing.source_id:
            raise IndexError("a bug")
        return real_replay(record)

    monkeypatch.setattr(replay.services, "replay", replay_failing_on_one)
    out = io.StringIO()
    call_command("reverify", "--pending", stdout=out)

    verdicts = dict(Verification.objects.values_list("game_id", "verdict"))
    assert verdicts == {failing.pk: Verdict.UNSUPPORTED, fine.pk: Verdict.VERIFIED}
    message = Verification.objects.get(game=failing).message
    assert message == "the engine failed on this game (IndexError: a bug); logged"


def test_in_a_batch_only_the_game_beyond_the_columns_goes_without_facts() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps 64-bit integers in any column: set DATABASE_URL=postgres://")
    beyond, fine = stored_game(14), stored_game(15)
    document = beyond.document
    for round_ in document["rounds"]:
        round_["scores"] = [score + 2_147_460_000 for score in round_["scores"]]
    document["final"]["scores"] = [score + 2_147_460_000 for score in document["final"]["scores"]]
    Game.objects.filter(pk=beyond.pk).update(document=document)
    Verification.objects.all().delete()
    RoundFact.objects.all().delete()

    saved = replay.services.games_verify([beyond.pk, fine.pk])

    assert saved[beyond.pk].verdict == Verdict.UNSUPPORTED
    assert saved[fine.pk].verdict == Verdict.VERIFIED
    assert set(RoundFact.objects.values_list("game_id", flat=True)) == {fine.pk}
