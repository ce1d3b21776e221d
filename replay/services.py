"""Write paths of the replay app: verifying stored games.

Every change to the database goes through a function here (HackSoft Django Styleguide):
a service takes plain values, validates them, does the work in a transaction and returns
the result. Views, API endpoints, Celery tasks and management commands call services;
they never save models themselves. Reads belong in ``selectors.py``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DataError, connection, transaction
from django.utils import timezone

import engine
from config.rows import insert_rows, update_column
from engine.errors import EngineError
from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.frame_types import StudyTally
from engine.gc_settings import collector_paused
from engine.replay import ReplayReport, replay, replay_and_study
from engine.replay import RoundFact as EngineFact
from mjlogs import pipeline, record_cache
from mjlogs.copies import copies_regroup, plays_with_copies
from mjlogs.game_end import RecordEnd, game_end, record_end
from mjlogs.models import Game, GameSeat
from mjlogs.replayed import Replayed
from replay import selectors
from replay.models import Verdict, Verification

logger = logging.getLogger(__name__)


def game_verify(game_id: int) -> Verification | None:
    """Replay a stored game through the engine and record the verdict (replacing any earlier
    one) and, for a verified game, the per-player facts the statistics are computed from.
    Idempotent: running it twice leaves the same rows. ``None`` when the game is gone
    (deleted after the task was queued)."""
    return games_verify([game_id]).get(game_id)


@collector_paused()  # (a batch's games are all alive until it ends: engine.gc_settings)
def games_verify(game_ids: Sequence[int]) -> dict[int, Verification]:
    """:func:`game_verify` for several games, their verdicts and facts written in one
    transaction (a bulk import verifies its games in batches: per-game writes cost more than
    the replays). Games gone are left out of the answer.

    A game the import that stored it still has in memory in this process is replayed from
    that record (:mod:`mjlogs.record_cache`), not decoded again from its stored document; one
    whose replay the import made ahead (in the worker that read it) is not replayed again.

    On a worker, the study aids of a game the rules agree with are counted in the same pass
    (no second decoding, replay and transaction for the study catch-up, and the study's work
    shared by every worker); where tasks run in this process (an import), they are left to
    the catch-up, off the import's way (``manage.py study_games``)."""
    ids = list(dict.fromkeys(game_ids))
    study = not pipeline.tasks_run_here()
    hashes = dict(Game.objects.filter(pk__in=ids).values_list("pk", "content_hash"))
    remembered = {
        game_id: stored
        for game_id in ids
        if game_id in hashes and (stored := record_cache.take(game_id, hashes[game_id]))
    }
    missing = [game_id for game_id in ids if game_id in hashes and game_id not in remembered]
    documents = dict(Game.objects.filter(pk__in=missing).values_list("pk", "document"))
    outcomes = []
    for game_id in ids:
        if game_id in remembered:
            stored = remembered[game_id]
            made = stored.replayed
            outcomes.append(_outcome(game_id, stored.document, stored.record, made, study=study))
        elif game_id in documents:
            outcomes.append(_outcome(game_id, documents[game_id], None, study=study))
    try:
        return _save(outcomes)
    except DataError:
        if len(outcomes) == 1:
            return _save_without_facts(outcomes[0])
        # One game's figures are beyond a column: save the batch one game at a time, so that
        # only that game goes without statistics.
        saved: dict[int, Verification] = {}
        for outcome in outcomes:
            try:
                saved |= _save([outcome])
            except DataError:
                saved |= _save_without_facts(outcome)
        return saved


@dataclass(frozen=True, slots=True)
class _Outcome:
    """A game's replay, ready to store."""

    game_id: int
    values: dict[str, Any]
    facts: Sequence[EngineFact] | None
    #: What the record states of the game's end (with the verdict, the game's end to store).
    record: RecordEnd
    #: The study aids' counts, where they were counted with the replay.
    study: Sequence[StudyTally] | None = None


def _outcome(
    game_id: int,
    document: Any,
    record: EngineGame | None,
    made: Replayed | None = None,
    *,
    study: bool = False,
) -> _Outcome:
    """Replay one game (decoding its document unless its record is given), unless its replay
    was ``made`` ahead; with ``study``, count its study aids too."""
    if made is None:
        made = replayed(document, record, f"game {game_id}", study=study)
    values = made.values | {"verified_at": timezone.now()}
    return _Outcome(game_id, values, made.facts, record_end(document), made.study)


def replayed(
    document: Any, record: EngineGame | None, label: str = "a game", *, study: bool = False
) -> Replayed:
    """Replay one game (decoding its document unless its record is given) for its
    verification; with ``study``, count the study aids of a game the rules agree with too.
    ``label`` names the game in the log should the engine fail on it."""
    started = time.perf_counter()
    facts = None
    counted: Sequence[StudyTally] | None = None
    try:
        if record is None:
            record = canonical.game_from_json(document)
        if study:  # the study aids in the replay's own pass (None: a game they cannot count)
            report, counted = replay_and_study(record)
        else:
            report = replay(record)
    except EngineError as error:
        # A stored document the engine can no longer read (a format change), or a game it
        # cannot replay at all (an unknown rule set): say so.
        values: dict[str, Any] = {
            "verdict": Verdict.MALFORMED,
            "discrepancy": {"message": str(error)},
            "message": str(error),
            "complete": False,
            "events": 0,
            "report": None,
            "frames_index": (
                {"error": f"the game's record cannot be read: {error}"}
                if record is None
                else _frames_index(label, document, record)
            ),
        }
    except Exception as error:  # a bug must not leave the game pending for ever
        # The engine failed on a record it read (a bug): the game still gets a final verdict,
        # and the log has the traceback; `manage.py reverify` runs it again once fixed.
        logger.exception("The engine failed on %s", label)
        message = f"the engine failed on this game ({type(error).__name__}: {error}); logged"
        values = _unverifiable(message)
    else:
        discrepancy = report.discrepancy
        values = {
            "verdict": report.verdict.value,
            "discrepancy": None if discrepancy is None else discrepancy.to_json(),
            "message": "" if discrepancy is None else discrepancy.message,
            "complete": report.complete,
            "events": report.events,
            "report": report.to_json(),
            # What the frames API reads besides the asked hand, kept so that a frames request
            # replays one hand (the list replays each hand from its deal: a few percent of
            # the replay's time).
            "frames_index": _frames_index(label, document, record, report),
        }
        if report.agrees:
            # Statistics count only games the rules engine agrees with.
            facts = report.facts
    values |= {
        "engine_version": engine.__version__,
        "duration_ms": (time.perf_counter() - started) * 1000,
    }
    tallies = None
    if study and facts is not None and record is not None:
        # Counted in the pass unless the family could not (a record judged by an older era's
        # rules, a fault of the study's): then apart, with the catch-up's logging.
        tallies = counted if counted is not None else pipeline.statistics().study(record, label)
    return Replayed(values, facts, tallies)


def _save_without_facts(outcome: _Outcome) -> dict[int, Verification]:
    """Save a verdict whose facts a column of the facts table cannot hold (a game stored
    before the import checked its values, ``mjlogs.storable``): it gets a final verdict all
    the same, and no statistics."""
    try:
        return _save([outcome])
    except DataError as error:
        logger.warning("Game %d: its facts cannot be stored (%s)", outcome.game_id, error)
        reason = str(error).strip().splitlines()[0] if str(error).strip() else "a value"
        message = f"a figure of this game is beyond what the statistics keep ({reason})"
        values = outcome.values | _unverifiable(message)
        return _save([_Outcome(outcome.game_id, values, None, outcome.record)])


def _frames_index(
    label: str, document: Any, record: EngineGame, report: ReplayReport | None = None
) -> dict[str, Any] | None:
    """``selectors.frames_index_of`` the game, or ``None`` (the frames API then computes it on
    request) when the engine fails on it: a bug there must not keep the verdict from being
    written."""
    try:
        return selectors.frames_index_of(document, record, report)
    except Exception:  # a bug must not leave the game pending for ever
        logger.exception("The engine failed listing the hands of %s", label)
        return None


def _unverifiable(message: str) -> dict[str, Any]:
    """The verdict of a game that was read but cannot be verified or counted."""
    return {
        "verdict": Verdict.UNSUPPORTED,
        "discrepancy": {"message": message},
        "message": message,
        "complete": False,
        "report": None,
    }


def _save(outcomes: Sequence[_Outcome]) -> dict[int, Verification]:
    """Store these replays' verdicts, seat points and facts, and mark the statistics behind,
    in one transaction; games deleted meanwhile are skipped."""
    with transaction.atomic():
        ids = [o.game_id for o in outcomes]
        # Every copy of these games locked first, in one order, before a row naming one is
        # written: a verdict or a fact row takes a share lock on its game, and the choice of the
        # copy that counts (below) locks them all, so two verifications of two copies at once,
        # each holding its own game and then asking for the other, deadlocked (issue 40's
        # concurrent uploads of one game in two formats on PostgreSQL).
        shared = plays_with_copies(
            Game.objects.filter(pk__in=ids).values_list("play_hash", flat=True)
        )
        if shared:
            locked = Game.objects.select_for_update().filter(play_hash__in=shared).order_by("pk")
            list(locked.values_list("pk", flat=True))
        present = set(Game.objects.filter(pk__in=ids).values_list("pk", flat=True))
        outcomes = [outcome for outcome in outcomes if outcome.game_id in present]
        if not outcomes:
            return {}
        earlier = Verification.objects.filter(game_id__in=present)
        saved = {verification.game_id: verification for verification in earlier}
        new = []
        for outcome in outcomes:
            verification = saved.get(outcome.game_id)
            if verification is None:
                new.append(outcome)
                continue
            for name, value in outcome.values.items():
                setattr(verification, name, value)
            verification.save(update_fields=list(outcome.values))
        saved |= _verifications_insert(new)
        _game_ends_replace(outcomes)
        statistics = pipeline.statistics()
        statistics.facts_replace(
            {outcome.game_id: outcome.facts for outcome in outcomes},
            {o.game_id: o.study for o in outcomes if o.study is not None},
        )
        # A verdict may change which copy of a game counts (the one the rules agree with): the
        # plays with copies, as found above (their rows are locked since: still true).
        copies_regroup(shared)
        changed = Game.objects.filter(pk__in=present).only("started_at", "uploaded_at")
        statistics.games_changed(changed, verified=True)
    return {outcome.game_id: saved[outcome.game_id] for outcome in outcomes}


def _verifications_insert(outcomes: Sequence[_Outcome]) -> dict[int, Verification]:
    """Insert the verifications of games that had none, by game: their rows through
    :func:`config.rows.insert_rows` (PostgreSQL's ``COPY``), then their ids in one query.
    (``bulk_create`` sends PostgreSQL each column as one array, every report and frames
    index quoted into it in Python: a third of what storing a verification cost the worker.)"""
    if not outcomes:
        return {}
    insert_rows(Verification, [{"game_id": o.game_id, **o.values} for o in outcomes])
    ids = dict(
        Verification.objects.filter(game_id__in=[o.game_id for o in outcomes]).values_list(
            "game_id", "pk"
        )
    )
    made = {}
    for outcome in outcomes:
        verification = Verification(
            pk=ids[outcome.game_id], game_id=outcome.game_id, **outcome.values
        )
        verification._state.adding = False  # stored: as bulk_create leaves its objects
        verification._state.db = connection.alias
        made[outcome.game_id] = verification
    return made


def _game_ends_replace(outcomes: Sequence[_Outcome]) -> None:
    """Store each game's end as its verdict makes it (:func:`mjlogs.game_end.game_end`, the one
    place that decides): whether it is complete, and each seat's final score, place and points
    (the game list, the game page, the viewer, the API and the statistics read them there)."""
    ends = {
        outcome.game_id: game_end(
            outcome.record, outcome.values["verdict"], outcome.values.get("report")
        )
        for outcome in outcomes
    }
    games = Game.objects.filter(pk__in=list(ends)).only("complete")
    update_column(
        Game,
        "complete",
        [
            (game.pk, ends[game.pk].complete)
            for game in games
            if game.complete != ends[game.pk].complete
        ],
    )
    seats = GameSeat.objects.filter(game_id__in=list(ends)).only(
        "game_id", "seat", "final_score", "placement", "points"
    )
    columns: dict[str, list[tuple[int, Any]]] = {"final_score": [], "placement": [], "points": []}
    for seat in seats:
        values = dict(zip(columns, ends[seat.game_id].seat(seat.seat), strict=True))
        for name, value in values.items():
            if getattr(seat, name) != value:
                columns[name].append((seat.pk, value))
    for name, changed in columns.items():
        update_column(GameSeat, name, changed)
