"""What the fault tests import, and how they check that nothing was lost or counted twice: a
snapshot of every verdict, fact row, player summary and rating change, compared with the
statistics computed once from scratch (a clean run) and with the engine's own count."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection

import engine
from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.replay import replay
from engine.sim.selfplay import simulate
from mjlogs.models import Game, GameSeat, Player
from replay.models import Verdict, Verification
from stats.catch_up import player_summaries_update
from stats.models import PlayerSummary, RatingChange, RoundFact
from stats.selectors import player_stats
from stats.services import ratings_recompute
from tests.integration.processes import Process, broker_idle, manage, wait_until


def named_game(seed: int, names: list[str], *, number: int = 0) -> EngineGame:
    """A self-played four-player game whose players have these names (self-play names its
    bots alike in every game; distinct names keep each game's players apart)."""
    game = list(simulate("tenhou-4p-east", number + 1, seed))[number]
    document = canonical.game_to_json(game)
    for player, name in zip(document["players"], names, strict=True):
        player["name"] = name
    return canonical.game_from_json(document)


def import_by_command(env: dict[str, str], folder: Path, games: list[EngineGame]) -> list[int]:
    """Write each game to a file and import the folder with ``manage.py import_logs`` (with a
    broker: the verifications go to the workers). Returns the games' ids, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    for index, game in enumerate(games):
        (folder / f"{index}.json").write_bytes(canonical.write([game]))
    imported = manage(env, "import_logs", "--quiet", str(folder))
    assert imported.returncode == 0, imported.stdout + imported.stderr
    names = dict(Game.objects.values_list("raw_name", "pk"))
    return [names[str(folder / f"{index}.json")] for index in range(len(games))]


def engine_facts(game_id: int) -> int:
    """How many fact rows the engine gives the stored game (0 unless it verifies)."""
    report = replay(canonical.game_from_json(Game.objects.get(pk=game_id).document))
    return len(report.facts) if report.verdict.value == Verdict.VERIFIED else 0


def snapshot() -> dict[str, Any]:
    """Every verdict, fact row, summary and rating change, in a comparable form."""
    return {
        "verifications": sorted(
            Verification.objects.values_list("game_id", "verdict", "engine_version")
        ),
        "facts": sorted(
            RoundFact.objects.values_list("game_id", "round_index", "seat", "player_id", "delta")
        ),
        "summaries": {
            summary.player_id: (summary.games, summary.hands, summary.counts)
            for summary in PlayerSummary.objects.all()
        },
        "ratings": sorted(
            RatingChange.objects.values_list(
                "game_id", "player_id", "games_before", "rating_before", "rating_after"
            )
        ),
    }


def clean_statistics() -> dict[str, Any]:
    """The snapshot after the statistics are rebuilt once, from scratch, in this process, from
    the stored verdicts and facts: what a run without faults ends with."""
    PlayerSummary.objects.all().delete()
    RatingChange.objects.all().delete()
    player_summaries_update(Player.objects.values_list("pk", flat=True))
    ratings_recompute(None)
    return snapshot()


def assert_counted_once(game_ids: list[int]) -> None:
    """Each game has one verdict, of this engine, and as many fact rows as the engine gives it;
    each player's summary is what their rows give; the statistics equal a clean rebuild."""
    assert connection.vendor == "postgresql"
    verdicts = dict(Verification.objects.values_list("game_id", "engine_version"))
    assert verdicts == dict.fromkeys(game_ids, engine.__version__)
    for game_id in game_ids:
        assert RoundFact.objects.filter(game_id=game_id).count() == engine_facts(game_id)
    for summary in PlayerSummary.objects.select_related("player"):
        assert summary.counts == player_stats(AnonymousUser(), summary.player).counts
    stored = snapshot()
    assert stored == clean_statistics()


def counted_games_of(names: list[str]) -> dict[str, int]:
    """The number of games each named player's summary counts (0 without a summary)."""
    summaries = dict(PlayerSummary.objects.values_list("player__name", "games"))
    return {name: summaries.get(name, 0) for name in names}


def wait_until_done(broker: str, game_ids: list[int], *logs: Process) -> None:
    """Wait until the broker holds no task (twice in a row, half a second apart) and every
    game's players have a summary and a rating change."""
    players = GameSeat.objects.filter(game_id__in=game_ids).values("player_id")

    def done() -> bool:
        return (
            broker_idle(broker)
            and PlayerSummary.objects.filter(player__in=players).count() == 4 * len(game_ids)
            and RatingChange.objects.filter(game_id__in=game_ids).count() == 4 * len(game_ids)
        )

    def settled() -> bool:
        if not done():
            return False
        time.sleep(0.5)  # the broker can be empty for a moment between taking a task and
        return done()  # recording it as unacknowledged

    wait_until(settled, 90, "every task", *logs)
