"""Read paths of the replay app.

Every query that views, API endpoints or tasks need is a function here (HackSoft Django
Styleguide): a selector takes plain values and returns model instances, querysets or plain
data, and changes nothing. Writes belong in ``services.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

import engine
from engine.errors import EngineError
from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.frames import RoundFrames, discrepancy_step, round_frames, round_list
from mjlogs.models import Game
from replay.models import Verdict, Verification


def verdict_counts(game_ids: Iterable[int]) -> dict[str, int]:
    """How many of these games have each verdict (``pending``: not verified yet)."""
    ids = set(game_ids)
    rows = Verification.objects.filter(game_id__in=ids).values_list("game_id", "verdict")
    counted = Counter(verdict for _, verdict in rows)
    if pending := len(ids) - sum(counted.values()):
        counted[Verdict.PENDING.value] += pending
    return dict(counted)


def game_ids_to_verify(*, outdated_only: bool, pending_only: bool = False) -> list[int]:
    """Ids of the games to verify (again): all, those without a verdict of this engine
    (``outdated_only``), or those without any verdict yet (``pending_only``)."""
    games = Game.objects.order_by("pk")
    if pending_only:
        games = games.exclude(pk__in=Verification.objects.values("game_id"))
    elif outdated_only:
        current = Verification.objects.filter(engine_version=engine.__version__)
        games = games.exclude(pk__in=current.values("game_id"))
    return list(games.values_list("pk", flat=True))


def verifications_of(games: QuerySet[Game]) -> QuerySet[Verification]:
    """The verifications of these games, newest game first, without their (large) reports."""
    return (
        Verification.objects.filter(game__in=games)
        .defer("report")
        .order_by("-game__started_at", "-game_id")
    )


def verification_of(game: Game) -> Verification:
    """:raises Verification.DoesNotExist: the game has not been verified yet."""
    return Verification.objects.get(game=game)


class FramesNotFound(LookupError):
    """No such round or step in the game, or a game the engine cannot replay at all."""


def _round_frames(game: Game, round_index: int) -> tuple[EngineGame, RoundFrames]:
    try:
        record = canonical.game_from_json(game.document)
    except EngineError as error:
        raise FramesNotFound(f"the game's record cannot be read: {error}") from None
    if not 0 <= round_index < len(record.rounds):
        raise FramesNotFound(
            f"no round {round_index}: the game has {len(record.rounds)} (0 to "
            f"{len(record.rounds) - 1})"
        )
    try:
        return record, round_frames(record, round_index)
    except EngineError as error:
        raise FramesNotFound(f"the game cannot be replayed: {error}") from None


def _discrepancy_in(game: Game, frames: RoundFrames) -> dict[str, Any] | None:
    """The verification's first discrepancy, with the frame to show it at, if it is in this
    round."""
    found = Verification.objects.filter(game=game).values_list("discrepancy", flat=True).first()
    if not isinstance(found, dict) or found.get("round") != frames.index:
        return None
    return {**found, "step": discrepancy_step(found, frames)}


def game_frames(game: Game, round_index: int) -> dict[str, Any]:
    """Every frame of one round of a game, with the game's rounds and the verification's
    discrepancy when it is in this round (docs/replay.md, "Frames").

    :raises FramesNotFound: no such round, or a game the engine cannot replay.
    """
    record, frames = _round_frames(game, round_index)
    data = frames.to_json()
    # A variant with its own tile notation says so ("notation": "uzje"); the viewer reads it
    # from the round before it draws any frame.
    notation = {"notation": data["notation"]} if "notation" in data else {}
    return {
        "game": game.pk,
        "players": data["players"],
        "players_count": data["players_count"],
        "ruleset": data["ruleset"],
        **notation,
        "rounds": [info.to_json() for info in round_list(record)],
        "round": round_index,
        "discrepancy": _discrepancy_in(game, frames),
        "frames": data["frames"],
    }


def game_frame(game: Game, round_index: int, step: int) -> dict[str, Any]:
    """One frame of a round (the same as in :func:`game_frames`), with the game, its players
    and the round index.

    :raises FramesNotFound: no such round or step, or a game the engine cannot replay.
    """
    _, frames = _round_frames(game, round_index)
    if not 0 <= step <= frames.last_step:
        raise FramesNotFound(
            f"no step {step} in round {round_index}: its frames are 0 to {frames.last_step}"
        )
    return {
        "game": game.pk,
        "players": list(frames.players),
        "round": round_index,
        **frames.frames[step].to_json(),
    }
