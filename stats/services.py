"""Write paths of the stats app: storing each verified game's facts.

Every change to the database goes through a function here (HackSoft Django Styleguide):
a service takes plain values, validates them, does the work in a transaction and returns
the result. Views, API endpoints, Celery tasks and management commands call services;
they never save models themselves. Reads belong in ``selectors.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from engine.replay import RoundFact as EngineFact
from mjlogs.models import Game, GameSeat, Player
from stats.models import PlayerSummary, RoundFact
from stats.selectors import player_stats


def game_facts_replace(game_id: int, facts: Sequence[EngineFact] | None) -> int:
    """Make the game's stored facts exactly these (``None`` or empty: none, for a game that
    did not verify). Idempotent. Returns the number of rows stored."""
    with transaction.atomic():
        RoundFact.objects.filter(game_id=game_id).delete()
        if not facts or not Game.objects.filter(pk=game_id).exists():
            return 0
        players = dict(GameSeat.objects.filter(game_id=game_id).values_list("seat", "player_id"))
        rows = [_row(game_id, players[fact.seat], fact) for fact in facts]
        RoundFact.objects.bulk_create(rows)
    return len(rows)


def _row(game_id: int, player_id: int, fact: EngineFact) -> RoundFact:
    return RoundFact(
        game_id=game_id,
        player_id=player_id,
        seat=fact.seat,
        round_index=fact.round,
        round_name=fact.round_name,
        dealer=fact.dealer,
        turns=fact.turns,
        outcome=fact.outcome,
        won=fact.won,
        tsumo=fact.tsumo,
        dealt_in=fact.dealt_in,
        win_points=fact.win_points,
        deal_in_points=fact.deal_in_points,
        han=fact.han,
        fu=fact.fu,
        yaku=list(fact.yaku),
        ura=fact.ura,
        ippatsu=fact.ippatsu,
        win_turn=fact.win_turn,
        riichi=fact.riichi,
        riichi_turn=fact.riichi_turn,
        riichi_chasing=fact.riichi_chasing,
        riichi_wait_kinds=fact.riichi_wait_kinds,
        calls=fact.calls,
        open_hand=fact.open_hand,
        tenpai_at_draw=fact.tenpai_at_draw,
        dealt_in_to=fact.dealt_in_to or "",
        delta=fact.delta,
        score_after=fact.score_after,
    )


def player_summaries_update(player_ids: Iterable[int]) -> int:
    """Recompute these players' summaries from their rows (a player with no public game loses
    theirs). Idempotent and order-free, so any number of workers may run it at once on any
    players. Returns how many players were updated."""
    updated = 0
    for player in Player.objects.filter(pk__in=set(player_ids)):
        stats = player_stats(AnonymousUser(), player)
        if not stats.counts["hands"] and not stats.counts["games"]:
            PlayerSummary.objects.filter(player=player).delete()
            continue
        PlayerSummary.objects.update_or_create(
            player=player,
            defaults={
                "games": stats.counts["games"],
                "hands": stats.counts["hands"],
                "counts": stats.counts,
                "metrics": stats.metrics,
            },
        )
        updated += 1
    return updated


def player_stats_queue_update(player_ids: Iterable[int]) -> None:
    """After the current transaction commits, queue the recomputation of these players'
    summaries (the task runs in-process when Celery is eager)."""
    ids = sorted(set(player_ids))
    if not ids:
        return

    def queue() -> None:
        from stats.tasks import update_player_stats

        update_player_stats.delay(ids)

    transaction.on_commit(queue)


def players_of_game(game_id: int) -> list[int]:
    """The ids of the players seated in a game."""
    return list(GameSeat.objects.filter(game_id=game_id).values_list("player_id", flat=True))
