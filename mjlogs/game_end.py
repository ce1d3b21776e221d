"""How a game ended, decided in one place: whether the record reaches the game's end, each
seat's final score and place, its final points, and who vouches for each figure (issue 39).

The import stores what the record alone says (:func:`game_end` of its :func:`record_end`,
without a verdict: ``mjlogs.reading``); each verification stores it again with the rules
engine's word (``replay.services``). The game page, the viewer and the API read what is stored
(``Game.complete``, ``GameSeat.final_score``, ``placement`` and ``points``), so that none of
them can tell another story:

- **complete**: the record states the game's end (its final scores: Tenhou's ``owari``, a
  tenhou.net/6 ``sc``), or the rules engine played its hands to the end of the game (a record
  split into one hand per JSON object states no end, but its last hand ends the game);
- **final scores and places**: the record's when it states them, else the engine's for a game
  it verified whole (they agree with every recorded figure), else none;
- **points** (by the rules: uma, oka): the engine's for a game verified whole, and only then;
  the statistics count them;
- **the record's own points** (Tenhou's ``owari`` figures, :attr:`RecordEnd.points`) are kept
  apart, in the document, never stored as a seat's points: where a seat has no points by the
  rules (a custom lobby, whose uma and rounding the rules do not know; a game not verified
  whole), pages show the record's, marked as the record's (:func:`shown_points`), and the API
  gives them as ``recorded_points``.

So a game ``verified`` is complete, with every final score, place and (where the rules say how
to count them) points; a game that is not complete has no final scores; no game but one verified
whole has points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.game_flow import placements, whole_points
from mjlogs.storable import MAX_POINTS

#: The verdict of a game verified whole (``replay.models.Verdict.VERIFIED``; this module is
#: below the replay app).
VERIFIED = "verified"

#: Who vouches for the points a page shows (:func:`shown_points`): the rules engine, which
#: counted them for a game it verified whole, or only the record, which states them.
BY_RULES = "rules"
BY_RECORD = "record"


@dataclass(frozen=True, slots=True)
class RecordEnd:
    """What a record itself states of its game's end (the canonical document's ``final``)."""

    #: Final scores per seat, when the record states the game's end.
    scores: tuple[float, ...] | None
    #: Its own final points per seat after uma and oka (Tenhou's ``owari`` figures).
    points: tuple[float, ...] | None
    #: The first dealer (equal scores are placed by seat order from them).
    first_dealer: int = 0


def record_end(document: Mapping[str, Any]) -> RecordEnd:
    """What the record whose canonical document this is states of its game's end."""
    final = document.get("final")
    final = final if isinstance(final, Mapping) else {}
    rounds = document.get("rounds") or []
    dealer = rounds[0].get("dealer") if rounds and isinstance(rounds[0], Mapping) else None
    return RecordEnd(
        scores=_numbers(final.get("scores"), float),
        points=recorded_points_of(final.get("results")),
        first_dealer=dealer if isinstance(dealer, int) else 0,
    )


def recorded_points_of(results: Any) -> tuple[float, ...] | None:
    """The record's own final points from the document's ``final.results`` (a list of games
    reads that member alone, not the whole document)."""
    return _numbers(results, float)


@dataclass(frozen=True, slots=True)
class GameEnd:
    """What is stored of a game's end: the game's ``complete`` and each seat's final score,
    place and points (``None`` where unknown)."""

    complete: bool
    final_scores: tuple[int, ...] | None
    placements: tuple[int, ...] | None
    #: By the rules, for a game verified whole whose rules say how to count them.
    points: tuple[float, ...] | None

    def seat(self, seat: int) -> tuple[int | None, int | None, float | None]:
        """``(final score, place, points)`` of one seat."""
        return (
            _at(self.final_scores, seat),
            _at(self.placements, seat),
            _at(self.points, seat),
        )


def game_end(
    record: RecordEnd,
    verdict: str | None = None,
    report: Mapping[str, Any] | None = None,
) -> GameEnd:
    """The end of a game, as far as what its record states (:func:`record_end`) and, once it
    has been verified, its verdict and replay report (``ReplayReport.to_json``) tell."""
    report = report or {}
    reached = report.get("complete") is True
    verified = verdict == VERIFIED and reached
    scores: tuple[int, ...] | None = None
    places: tuple[int, ...] | None = None
    if record.scores is not None and _storable(record.scores):
        scores = tuple(whole_points(score) for score in record.scores)
        places = placements(list(record.scores), record.first_dealer)
    elif verified:
        scores = _numbers(report.get("final_scores"), int)
        places = _numbers(report.get("placements"), int)
    if scores is not None and not _storable(scores):
        scores = places = None
    points = _numbers(report.get("points"), float) if verified else None
    if points is not None and not _storable(points):
        points = None
    return GameEnd(
        complete=record.scores is not None or reached,
        final_scores=scores,
        placements=places if scores is not None else None,
        points=points,
    )


def shown_points(
    points: float | None, recorded: Sequence[float] | None, seat: int
) -> tuple[float | None, str]:
    """The final points a page shows for a seat and who vouches for them: its points by the
    rules (:data:`BY_RULES`), else the record's own (:data:`BY_RECORD`), else ``(None, "")``."""
    if points is not None:
        return points, BY_RULES
    own = _at(recorded, seat)
    return (own, BY_RECORD) if own is not None else (None, "")


def _numbers(values: Any, kind: type[Any]) -> tuple[Any, ...] | None:
    """A JSON list of numbers as a tuple of ``kind``, else ``None``."""
    if not isinstance(values, list) or not values:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    return tuple(kind(value) for value in values)


def _storable(figures: Sequence[float]) -> bool:
    """Whether every figure is within what the import stores (``mjlogs.storable``): a game
    stored before the import checked its values may state scores beyond the seat columns, and
    its end is then unknown rather than a database error that leaves it pending."""
    return all(abs(figure) <= MAX_POINTS for figure in figures)


def _at(values: Sequence[Any] | None, index: int) -> Any:
    return values[index] if values is not None and 0 <= index < len(values) else None
