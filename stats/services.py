"""Write paths of the stats app: storing each verified game's facts.

Every change to the database goes through a function here (HackSoft Django Styleguide):
a service takes plain values, validates them, does the work in a transaction and returns
the result. Views, API endpoints, Celery tasks and management commands call services;
they never save models themselves. Reads belong in ``selectors.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from kombu.exceptions import OperationalError as BrokerUnreachable

from engine.replay import RoundFact as EngineFact
from mjlogs.models import Game, GameSeat, Player, Visibility
from stats import catch_up_queue, summary_backlog
from stats.models import PlayerSummary, RatingChange, RoundFact
from stats.ratings import RatedGame, Standing, rate
from stats.selectors import counted_games, player_stats

if TYPE_CHECKING:
    from celery import Task

logger = logging.getLogger(__name__)

#: The advisory lock that keeps rating recomputations one at a time (PostgreSQL).
RATINGS_LOCK = 7_300_001


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
        limit_hand=fact.limit_hand,
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
    theirs), and clear their marks (``stats.summary_backlog``). Idempotent and order-free, so
    any number of workers may run it at once on any players. Returns how many summaries were
    stored."""
    stored = 0
    for player_id in sorted(set(player_ids)):
        with transaction.atomic():
            # The mark first, then the player: the order the catch-up takes them in.
            version = summary_backlog.hold_mark(player_id)
            stored += player_summary_refresh(player_id)
            if version is not None:
                summary_backlog.clear_mark(player_id, version)
    return stored


def player_summaries_catch_up() -> int:
    """Recompute the summary of every player marked when it starts, once each however many
    marks they have, skipping any another worker is already on. Returns how many summaries were
    recomputed (stored or removed).

    Marks made after it started are left to the catch-up their change queued: a pass that took
    them too would never end while games keep being verified, and would keep a worker from
    verifying them."""
    done = 0
    for player_id in summary_backlog.marked_players():
        with transaction.atomic():
            version = summary_backlog.hold_mark_if_free(player_id)
            if version is None:
                continue  # cleared meanwhile, or another worker holds it
            player_summary_refresh(player_id)
            summary_backlog.clear_mark(player_id, version)
        done += 1
    return done


def player_summary_refresh(player_id: int) -> bool:
    """Recompute one player's summary from their rows, inside the caller's transaction; True
    when a summary was stored (False: no such player, or no public game left to sum up).

    The player's row is locked (PostgreSQL) while their rows are read, so two recomputations
    of one player run one after the other and the later one reads what the earlier one saw and
    more: without it, a recomputation that read before a game committed could write after one
    that counted it, leaving that game out."""
    # FOR NO KEY UPDATE: imports inserting this player's seats or facts (which take FOR KEY
    # SHARE on the row) do not wait for it, and it does not wait for them.
    player = Player.objects.select_for_update(no_key=True).filter(pk=player_id).first()
    if player is None:
        return False
    stats = player_stats(AnonymousUser(), player, from_summary=False)
    if not stats.counts["hands"] and not stats.counts["games"]:
        PlayerSummary.objects.filter(player=player).delete()
        return False
    PlayerSummary.objects.update_or_create(
        player=player,
        defaults={
            "games": stats.counts["games"],
            "hands": stats.counts["hands"],
            "counts": stats.counts,
            "metrics": stats.metrics,
            "yaku": [list(pair) for pair in stats.yaku],
            "han": [list(pair) for pair in stats.han.items()],
            "longest_dealer_streak": stats.longest_dealer_streak,
            "stable_dan": stats.stable_dan,
        },
    )
    return True


def game_stats_queue_update(game: Game) -> None:
    """Mark what a change to this game (verified, deleted, made public or private) changes,
    and after the current transaction commits, queue the tasks that bring it up to date: its
    players' summaries, and the ratings from its time on. Call it inside the transaction that
    changes the game, before deleting it (it reads the game's players now).

    The tasks run in-process when Celery is eager, and also when the broker cannot be reached
    (logged): the marks would keep the statistics correct (read from the rows) but slow until
    the next catch-up, so they are brought up to date now."""
    player_ids = players_of_game(game.pk)
    since = game.started_at or game.uploaded_at
    # Marked in the change's own transaction: a committed change is never unmarked.
    summary_backlog.mark_stale(player_ids)

    def queue() -> None:
        from stats.rating_backlog import ratings_mark_stale
        from stats.tasks import catch_up_player_stats, update_ratings

        if player_ids:
            queue_catch_up(catch_up_player_stats)
        # Marked now, not when the task runs: the catch-up then finds every mark made before
        # it started, and one catch-up serves a burst of changes (stats.rating_backlog).
        ratings_mark_stale(since)
        queue_catch_up(update_ratings)

    transaction.on_commit(queue)


def queue_catch_up(task: Task) -> None:
    """Queue this catch-up task (``stats.tasks``) unless one is already waiting, to start no
    sooner than the catch-up interval after the last one started (``stats.catch_up_queue``);
    when the broker cannot be reached, run it here at once."""
    delay = catch_up_queue.claim(task.name)
    if delay is None:
        return
    try:
        if delay:
            task.apply_async(countdown=delay)
        else:
            task.delay()
    except BrokerUnreachable as error:
        logger.warning("The task broker cannot be reached (%s): running %s here", error, task.name)
        task()


def players_of_game(game_id: int) -> list[int]:
    """The ids of the players seated in a game."""
    return list(GameSeat.objects.filter(game_id=game_id).values_list("player_id", flat=True))


def ratings_recompute(since: datetime | None = None) -> int:
    """Recompute the R ratings of every counted game played at or after ``since`` (all games
    when ``None``), in time order, from the ratings before it. Runs one at a time (a database
    lock), so concurrent workers cannot interleave their orders. Returns the changes stored."""
    with transaction.atomic():
        _lock_ratings()
        games = rated_games()
        stale = RatingChange.objects.all()
        if since is not None:
            games = games.filter(played_at__gte=since)
            stale = stale.filter(played_at__gte=since)
        stale.delete()
        ordered = list(games.order_by("played_at", "pk").values_list("pk", "played_at"))
        seats = _placements([pk for pk, _ in ordered])
        played_at = dict(ordered)
        by_mode: dict[int, list[RatedGame]] = {3: [], 4: []}
        for pk, _ in ordered:
            table = seats.get(pk, ())
            # A name seated twice (anonymous "NoName" players, bots) cannot be rated.
            distinct = len({player for player, _ in table}) == len(table)
            if len(table) in by_mode and distinct:
                by_mode[len(table)].append(RatedGame(pk, table))
        rows = []
        for mode, mode_games in by_mode.items():
            players = {player for game in mode_games for player, _ in game.seats}
            standings = _standings_before(since, mode, players)
            rows += [
                RatingChange(
                    game_id=change.game_id,
                    player_id=change.player_id,
                    players_count=mode,
                    played_at=played_at[change.game_id],
                    games_before=change.before.games,
                    rating_before=change.before.rating,
                    rating_after=change.after.rating,
                )
                for change in rate(mode_games, standings)
            ]
        RatingChange.objects.bulk_create(rows, batch_size=1000)
    return len(rows)


def rated_games() -> QuerySet[Game]:
    """The games ratings count: verified, public and complete, with their place in time."""
    public = Game.objects.filter(visibility=Visibility.PUBLIC, complete=True)
    return counted_games(public).annotate(played_at=Coalesce("started_at", "uploaded_at"))


def _lock_ratings() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK])


def _placements(game_ids: list[int]) -> dict[int, tuple[tuple[int, int], ...]]:
    seats: dict[int, list[tuple[int, int]]] = {}
    rows = GameSeat.objects.filter(game_id__in=game_ids, placement__isnull=False)
    for game_id, player_id, placement in rows.order_by("game_id", "seat").values_list(
        "game_id", "player_id", "placement"
    ):
        seats.setdefault(game_id, []).append((player_id, placement))
    return {game_id: tuple(rows) for game_id, rows in seats.items()}


def _standings_before(since: datetime | None, mode: int, players: set[int]) -> dict[int, Standing]:
    """Each player's rating after their last game before ``since`` in this mode."""
    if since is None or not players:
        return {}
    earlier = RatingChange.objects.filter(players_count=mode, played_at__lt=since)
    last = earlier.filter(player_id=OuterRef("pk")).order_by("-played_at", "-game_id")
    # One row per player, their last before ``since``: not every earlier row of theirs.
    last_ids = Player.objects.filter(pk__in=players).annotate(last=Subquery(last.values("pk")[:1]))
    rows = RatingChange.objects.filter(pk__in=last_ids.values("last"))
    return {
        player_id: Standing(rating, games + 1)
        for player_id, rating, games in rows.values_list(
            "player_id", "rating_after", "games_before"
        )
    }
