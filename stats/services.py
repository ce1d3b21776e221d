"""Write paths of the stats app: storing each verified game's facts.

Every change to the database goes through a function here (HackSoft Django Styleguide):
a service takes plain values, validates them, does the work in a transaction and returns
the result. Views, API endpoints, Celery tasks and management commands call services;
they never save models themselves. Reads belong in ``selectors.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import connection, transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from engine.replay import RoundFact as EngineFact
from mjlogs.models import Game, GameSeat, Player, PlayerKind, Visibility
from stats import catch_up_queue, summary_backlog
from stats.models import PlayerSummary, RatingChange, RoundFact
from stats.ratings import RatedGame, Standing, rate
from stats.selectors import SummaryFigures, counted_games, public_summaries_of

if TYPE_CHECKING:
    from celery import Task

logger = logging.getLogger(__name__)

#: The advisory lock that keeps rating recomputations one at a time (PostgreSQL).
RATINGS_LOCK = 7_300_001

#: The catch-ups held back by :func:`catch_up_once_after` in this context, in the order first
#: asked for (``None``: none held back, each runs when asked).
_held_catch_ups: ContextVar[list[Task] | None] = ContextVar("held_catch_ups", default=None)


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


#: Players recomputed together, in one transaction: a few grouped queries for the lot
#: (``stats.selectors.public_summaries_of``), and locks held for a fraction of a second.
SUMMARY_CHUNK = 200


def player_summaries_update(player_ids: Iterable[int]) -> int:
    """Recompute these players' summaries from their rows (a player with no public game loses
    theirs), and clear their marks (``stats.summary_backlog``). Idempotent and order-free, so
    any number of workers may run it at once on any players. Returns how many summaries were
    stored."""
    stored = 0
    for chunk in _chunks(sorted(set(player_ids)), SUMMARY_CHUNK):
        with transaction.atomic():
            # The marks first, then the players: the order the catch-up takes them in.
            versions = summary_backlog.hold_marks(chunk)
            stored += player_summaries_refresh(chunk)
            summary_backlog.clear_marks(versions)
    return stored


def player_summaries_catch_up() -> int:
    """Recompute the summary of every player marked when it starts, once each however many
    marks they have, skipping any another worker is already on. Returns how many summaries were
    recomputed (stored or removed).

    Marks made after it started are left to the catch-up their change queued: a pass that took
    them too would never end while games keep being verified, and would keep a worker from
    verifying them."""
    done = 0
    for chunk in _chunks(summary_backlog.marked_players(), SUMMARY_CHUNK):
        with transaction.atomic():
            # Those cleared meanwhile, or held by another worker, are left out.
            versions = summary_backlog.hold_marks_if_free(chunk)
            if not versions:
                continue
            player_summaries_refresh(sorted(versions))
            summary_backlog.clear_marks(versions)
        done += len(versions)
    return done


def _chunks(ids: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def player_summaries_refresh(player_ids: Sequence[int]) -> int:
    """Recompute these players' summaries from their rows, inside the caller's transaction;
    returns how many were stored (a player with no public game left to sum up loses theirs).

    The players' rows are locked (PostgreSQL) while their rows are read, so two recomputations
    of one player run one after the other and the later one reads what the earlier one saw and
    more: without it, a recomputation that read before a game committed could write after one
    that counted it, leaving that game out."""
    # FOR NO KEY UPDATE: imports inserting these players' seats or facts (which take FOR KEY
    # SHARE on the row) do not wait for it, and it does not wait for them. In id order, the
    # order every recomputation locks them in: no deadlock.
    players = Player.objects.select_for_update(no_key=True).filter(pk__in=player_ids)
    locked = list(players.order_by("pk").values_list("pk", flat=True))
    figures = public_summaries_of(locked)
    PlayerSummary.objects.filter(player_id__in=set(locked) - figures.keys()).delete()
    rows = [_summary_row(player_id, figures[player_id]) for player_id in sorted(figures)]
    PlayerSummary.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=[name for name in SUMMARY_FIELDS if name != "player"],
    )
    return len(rows)


#: The columns a recomputation writes (every one but the id).
SUMMARY_FIELDS = (
    "player", "games", "hands", "counts", "metrics", "yaku", "han", "longest_dealer_streak",
    "stable_dan", "updated_at",
)  # fmt: skip


def _summary_row(player_id: int, figures: SummaryFigures) -> PlayerSummary:
    return PlayerSummary(
        player_id=player_id,
        games=figures.counts["games"],
        hands=figures.counts["hands"],
        counts=figures.counts,
        metrics=figures.metrics,
        yaku=[list(pair) for pair in figures.yaku],
        han=[list(pair) for pair in figures.han.items()],
        longest_dealer_streak=figures.longest_dealer_streak,
        stable_dan=figures.stable_dan,
        # bulk_create leaves auto_now alone on the rows it updates
        updated_at=timezone.now(),
    )


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


@contextmanager
def catch_up_once_after() -> Iterator[None]:
    """Bring the statistics up to date once, after a bulk change (an import of many games, a
    reverification), instead of after each game.

    It matters where tasks run in-process (Celery eager, the default setup): there every
    verified game ran its players' summaries and the ratings at once, so an import of N games
    recomputed the same players N times, two thirds of the import's time. Inside the block
    such catch-ups are only noted (the marks are made and committed as always); when it ends
    each kind runs once and finds every mark. With a broker nothing is held back: the catch-up
    queue already spaces them (``stats.catch_up_queue``).

    When the block ends with an error the catch-ups are not run (the database may be what
    failed); the marks stay, the statistics read the rows until the next change catches up."""
    if _held_catch_ups.get() is not None:  # nested: the outermost block runs them
        yield
        return
    held: list[Task] = []
    token = _held_catch_ups.set(held)
    try:
        yield
    finally:
        _held_catch_ups.reset(token)
    for task in held:
        queue_catch_up(task)


def queue_catch_up(task: Task) -> None:
    """Queue this catch-up task (``stats.tasks``) unless one is already waiting, to start no
    sooner than the catch-up interval after the last one started (``stats.catch_up_queue``);
    when the broker cannot be reached, run it here at once. Inside
    :func:`catch_up_once_after`, a catch-up that would run in-process waits for its end."""
    held = _held_catch_ups.get()
    if held is not None and task.app.conf.task_always_eager:
        if task not in held:
            held.append(task)
        return
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
        seats, guests = _placements([pk for pk, _ in ordered])
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
                if change.player_id not in guests
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


def _placements(game_ids: list[int]) -> tuple[dict[int, tuple[tuple[int, int], ...]], set[int]]:
    """Each game's (player, placement) by seat, and the players who are anonymous seats: a
    guest sits at the table at the starting rating, as Tenhou counts one, and keeps none."""
    seats: dict[int, list[tuple[int, int]]] = {}
    guests: set[int] = set()
    rows = GameSeat.objects.filter(game_id__in=game_ids, placement__isnull=False)
    for game_id, player_id, placement, kind in rows.order_by("game_id", "seat").values_list(
        "game_id", "player_id", "placement", "player__kind"
    ):
        seats.setdefault(game_id, []).append((player_id, placement))
        if kind == PlayerKind.ANONYMOUS:
            guests.add(player_id)
    return {game_id: tuple(rows) for game_id, rows in seats.items()}, guests


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
