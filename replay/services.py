"""Write paths of the replay app: verifying stored games.

Every change to the database goes through a function here (HackSoft Django Styleguide):
a service takes plain values, validates them, does the work in a transaction and returns
the result. Views, API endpoints, Celery tasks and management commands call services;
they never save models themselves. Reads belong in ``selectors.py``.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import DataError, transaction
from django.utils import timezone

import engine
from engine.errors import EngineError
from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.replay import ReplayReport, replay
from engine.replay import Verdict as EngineVerdict
from mjlogs.models import Game, GameSeat
from replay import selectors
from replay.models import Verdict, Verification
from stats.services import game_facts_replace
from stats.tasks import game_stats_queue_update

logger = logging.getLogger(__name__)


def game_verify(game_id: int) -> Verification | None:
    """Replay a stored game through the engine and record the verdict (replacing any earlier
    one) and, for a verified game, the per-player facts the statistics are computed from.
    Idempotent: running it twice leaves the same rows. ``None`` when the game is gone
    (deleted after the task was queued)."""
    document = Game.objects.filter(pk=game_id).values_list("document", flat=True).first()
    if document is None:
        return None
    started = time.perf_counter()
    facts = None
    record: EngineGame | None = None
    try:
        record = canonical.game_from_json(document)
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
                else _frames_index(game_id, document, record)
            ),
        }
    except Exception as error:  # a bug must not leave the game pending for ever
        # The engine failed on a record it read (a bug): the game still gets a final verdict,
        # and the log has the traceback; `manage.py reverify` runs it again once fixed.
        logger.exception("The engine failed on game %d", game_id)
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
            "frames_index": _frames_index(game_id, document, record, report),
        }
        if report.verdict in (EngineVerdict.VERIFIED, EngineVerdict.VERIFIED_FRAGMENT):
            # Statistics count only games the rules engine agrees with.
            facts = report.facts
    values |= {
        "engine_version": engine.__version__,
        "duration_ms": (time.perf_counter() - started) * 1000,
        "verified_at": timezone.now(),
    }
    try:
        return _save(game_id, values, facts)
    except DataError as error:
        # A figure of the game is beyond a column of the facts table (a game stored before the
        # import checked its values, mjlogs.storable): it gets a final verdict all the same,
        # and no statistics.
        logger.warning("Game %d: its facts cannot be stored (%s)", game_id, error)
        reason = str(error).strip().splitlines()[0] if str(error).strip() else "a value"
        message = f"a figure of this game is beyond what the statistics keep ({reason})"
        return _save(game_id, values | _unverifiable(message), None)


def _frames_index(
    game_id: int, document: Any, record: EngineGame, report: ReplayReport | None = None
) -> dict[str, Any] | None:
    """``selectors.frames_index_of`` the game, or ``None`` (the frames API then computes it on
    request) when the engine fails on it: a bug there must not keep the verdict from being
    written."""
    try:
        return selectors.frames_index_of(document, record, report)
    except Exception:  # a bug must not leave the game pending for ever
        logger.exception("The engine failed listing the hands of game %d", game_id)
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


def _save(game_id: int, values: dict[str, Any], facts: Any) -> Verification | None:
    with transaction.atomic():
        if not Game.objects.filter(pk=game_id).exists():
            return None
        verification, _ = Verification.objects.update_or_create(game_id=game_id, defaults=values)
        _seat_points_replace(game_id, values)
        game_facts_replace(game_id, facts)
        game_stats_queue_update(Game.objects.only("started_at", "uploaded_at").get(pk=game_id))
    return verification


def _seat_points_replace(game_id: int, values: dict[str, Any]) -> None:
    """Keep each seat's final points by the rules with the seat (the game list and the API read
    them there) for a game verified whole; none otherwise (a fragment has no end, and a game the
    rules disagree with has no points one can trust)."""
    report = values.get("report") or {}
    points = report.get("points") if values["verdict"] == Verdict.VERIFIED else None
    seats = GameSeat.objects.filter(game_id=game_id)
    if not isinstance(points, list):
        seats.update(points=None)
        return
    for seat, value in enumerate(points):
        seats.filter(seat=seat).update(points=value)
