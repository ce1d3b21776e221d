"""Write paths of the stats app: each verified game's facts, the players' summaries and the
ratings, each recomputed from the rows.

Every change to the database goes through a function here (HackSoft Django Styleguide):
a service takes plain values, validates them, does the work in a transaction and returns
the result. Views, API endpoints, Celery tasks and management commands call services;
they never save models themselves. Reads belong in ``selectors.py``; keeping the summaries
and ratings up to date after a change to a game (marks, claims, the catch-up passes) in
``catch_up.py``, which calls these. The layers are listed in ``stats/catch_up.py``: this
module imports only ``models``, ``ratings`` and ``selectors`` of the stats app.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from config.rows import insert_rows, upsert_rows
from engine.errors import EngineError
from engine.events import Game
from engine.families import family_of
from engine.formats import canonical
from engine.frame_types import StudyTally
from engine.replay import RoundFact as EngineFact
from mjlogs.models import GameSeat, Player
from stats.models import PlayerSummary, RatingChange, RoundFact
from stats.ratings import RatedGame, rate
from stats.selectors import (
    SummaryFigures,
    public_summaries_of,
    rated_games,
    rating_placements,
    rating_standings_before,
    study_document,
)

logger = logging.getLogger(__name__)

#: The advisory lock that keeps rating recomputations one at a time (PostgreSQL); the
#: ratings' catch-up (``stats.catch_up.ratings_catch_up``) tries it without waiting.
RATINGS_LOCK = 7_300_001


def game_facts_replace(game_id: int, facts: Sequence[EngineFact] | None) -> int:
    """Make the game's stored facts exactly these (``None`` or empty: none, for a game that
    did not verify). Idempotent. Returns the number of rows stored."""
    return games_facts_replace({game_id: facts})


def games_facts_replace(
    facts_by_game: Mapping[int, Sequence[EngineFact] | None],
    study_by_game: Mapping[int, Sequence[StudyTally]] | None = None,
) -> int:
    """:func:`game_facts_replace` for several games at once (a batch of verifications: three
    statements in all), with the study aids' counts of the games ``study_by_game`` has (a
    worker's verification counts them in the same pass: :func:`game_study_store` then finds
    nothing left to do); the others' are left to the study catch-up. Games no longer stored
    are skipped. Returns the rows stored."""
    study_by_game = study_by_game or {}
    with transaction.atomic():
        RoundFact.objects.filter(game_id__in=list(facts_by_game)).delete()
        with_facts = [game_id for game_id, facts in facts_by_game.items() if facts]
        seats = GameSeat.objects.filter(game_id__in=with_facts)
        players = {
            (game, seat): player
            for game, seat, player in seats.values_list("game_id", "seat", "player_id")
        }
        rows = []
        for game_id in with_facts:
            if (game_id, 0) not in players:  # a game deleted meanwhile has no seats
                continue
            study = study_by_game.get(game_id)
            counts = None if study is None else study_counts(study)
            for fact in facts_by_game[game_id] or ():
                row = _row(game_id, players[game_id, fact.seat], fact)
                values = UNSTUDIED if counts is None else counts.get((fact.round, fact.seat))
                row |= zip(STUDY_COLUMNS, values or NO_STUDY, strict=True)
                rows.append(row)
        insert_rows(RoundFact, rows)
    return len(rows)


def _row(game_id: int, player_id: int, fact: EngineFact) -> dict[str, Any]:
    """A hand fact's row, as :func:`config.rows.insert_rows` takes it (without the study aids'
    columns)."""
    return {
        "game_id": game_id,
        "player_id": player_id,
        "seat": fact.seat,
        "round_index": fact.round,
        "round_name": fact.round_name,
        "dealer": fact.dealer,
        "turns": fact.turns,
        "outcome": fact.outcome,
        "won": fact.won,
        "tsumo": fact.tsumo,
        "dealt_in": fact.dealt_in,
        "win_points": fact.win_points,
        "deal_in_points": fact.deal_in_points,
        "han": fact.han,
        "fu": fact.fu,
        "limit_hand": fact.limit_hand,
        "yaku": list(fact.yaku),
        "ura": fact.ura,
        "ippatsu": fact.ippatsu,
        "win_turn": fact.win_turn,
        "riichi": fact.riichi,
        "riichi_turn": fact.riichi_turn,
        "riichi_chasing": fact.riichi_chasing,
        "riichi_wait_kinds": fact.riichi_wait_kinds,
        "calls": fact.calls,
        "open_hand": fact.open_hand,
        "tenpai_at_draw": fact.tenpai_at_draw,
        "dealt_in_to": fact.dealt_in_to or "",
        "delta": fact.delta,
        "score_after": fact.score_after,
    }


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
    now = timezone.now()
    rows = [_summary_row(player_id, figures[player_id], now) for player_id in sorted(figures)]
    return upsert_rows(PlayerSummary, rows, unique="player")


def _summary_row(player_id: int, figures: SummaryFigures, now: datetime) -> dict[str, Any]:
    """A player's summary row: every column but the id."""
    return {
        "player_id": player_id,
        "games": figures.counts["games"],
        "hands": figures.counts["hands"],
        "counts": figures.counts,
        "metrics": figures.metrics,
        "yaku": [list(pair) for pair in figures.yaku],
        "han": [list(pair) for pair in figures.han.items()],
        "longest_dealer_streak": figures.longest_dealer_streak,
        "stable_dan": figures.stable_dan,
        "updated_at": now,
    }


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
        seats, guests = rating_placements([pk for pk, _ in ordered])
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
            standings = rating_standings_before(since, mode, players)
            rows += [
                {
                    "game_id": change.game_id,
                    "player_id": change.player_id,
                    "players_count": mode,
                    "played_at": played_at[change.game_id],
                    "games_before": change.before.games,
                    "rating_before": change.before.rating,
                    "rating_after": change.after.rating,
                }
                for change in rate(mode_games, standings)
                if change.player_id not in guests
            ]
        # By COPY: a bulk import recomputes every change from its earliest game at each pass
        # (8,000 for 2,000 games), and bulk_create's instances and SQL were two thirds of it.
        return insert_rows(RatingChange, rows)


def _lock_ratings() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK])


#: The fact rows' columns the study catch-up writes (null until it has).
STUDY_COLUMNS = (
    "decisions",
    "best_discards",
    "riichi_decisions",
    "genbutsu_discards",
    "push_deal_ins",
)
#: The study columns of a seat's hand the study has no tally of (a family that counts none, a
#: round that could not start, a game the engine could not study).
NO_STUDY: tuple[int, ...] = (0, 0, 0, 0, 0)
#: The study columns of a hand not studied yet: the study catch-up looks for these.
UNSTUDIED: tuple[None, ...] = (None,) * len(STUDY_COLUMNS)


def study_counts(tallies: Iterable[StudyTally]) -> dict[tuple[int, int], tuple[int, ...]]:
    """The values of :data:`STUDY_COLUMNS` for each (round, seat) these tallies count."""
    return {
        (tally.round, tally.seat): (
            tally.decisions,
            tally.kept,
            tally.riichi_decisions,
            tally.genbutsu,
            int(tally.push_deal_in),
        )
        for tally in tallies
    }


def game_study(game: Game, label: str) -> list[StudyTally]:
    """A game's study aids (``engine.study`` through its family): empty for a family that
    counts none, or a game the engine cannot study (logged), whose hands then count none."""
    try:
        return family_of(game.header.ruleset).study(game) or []
    except EngineError as error:
        logger.info("%s has no study aids: %s", label, error)
    except Exception:  # a bug must not leave the game pending for ever
        logger.exception("The engine failed counting the study aids of %s", label)
    return []


def document_study_counts(game_id: int, document: Any) -> dict[tuple[int, int], tuple[int, ...]]:
    """:func:`study_counts` of a game's stored document: the engine's work alone, no database
    (picklable: ``manage.py study_games --jobs`` runs it in worker processes)."""
    try:
        game = canonical.game_from_json(document)
    except EngineError as error:
        logger.info("Game %d has no study aids: %s", game_id, error)
        return {}
    return study_counts(game_study(game, f"game {game_id}"))


def game_study_store(
    game_id: int,
    *,
    with_counts: Callable[[], None],
    counts: Mapping[tuple[int, int], tuple[int, ...]] | None = None,
) -> int:
    """Count a game's study aids into its fact rows: for each player and hand, the discards
    they chose and how many kept the most tile acceptance, how many they chose facing a riichi
    and how many of those were genbutsu, and whether they dealt in pushing a hand at two or more
    shanten (``engine.study`` through the game's family; docs/stats.md, "Tile acceptance" and
    "Value and defence"). A family that counts none (Ùzje), or a game the engine cannot read,
    gets 0s (so it is not asked again). Idempotent. Returns the rows
    updated (0 for a game gone or without facts). ``with_counts`` runs in the transaction that
    stores them (the caller marks there what they make stale, so that the marks commit with
    the counts).

    The study is computed outside any transaction (it takes tens of milliseconds); rows replaced
    meanwhile (a reverification) are new rows, left for the next catch-up. ``counts``: the
    game's :func:`document_study_counts`, computed already (by another process)."""
    if counts is None:
        document = study_document(game_id)
        if document is None:
            return 0
        counts = document_study_counts(game_id, document)
    with transaction.atomic():
        rows = list(RoundFact.objects.filter(game_id=game_id).only("pk", "round_index", "seat"))
        for row in rows:
            values = counts.get((row.round_index, row.seat), NO_STUDY)
            for column, value in zip(STUDY_COLUMNS, values, strict=True):
                setattr(row, column, value)
        RoundFact.objects.bulk_update(rows, STUDY_COLUMNS, batch_size=500)
        with_counts()
    return len(rows)
