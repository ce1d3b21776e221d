"""Read paths of the replay app.

Every query that views, API endpoints or tasks need is a function here (HackSoft Django
Styleguide): a selector takes plain values and returns model instances, querysets or plain
data, and changes nothing. Writes belong in ``services.py``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet

import engine
from engine.errors import EngineError
from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.frames import (
    RoundFrames,
    discrepancy_step,
    round_frames,
    round_list,
    round_list_after_replay,
)
from engine.replay import ReplayReport
from mjlogs.models import Game
from mjlogs.selectors import User, games_visible_to
from replay.models import Verdict, Verification


def verdict_counts(game_ids: Iterable[int]) -> dict[str, int]:
    """How many of these games have each verdict (``pending``: not verified yet), a game
    counted as often as it is given (an upload's files name a game twice when one of them
    holds a copy of another's)."""
    ids = list(game_ids)
    verdict_of = dict(
        Verification.objects.filter(game_id__in=set(ids)).values_list("game_id", "verdict")
    )
    return dict(Counter(verdict_of.get(game_id, Verdict.PENDING.value) for game_id in ids))


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


# -- the frames -------------------------------------------------------------------------------
#
# A frames request costs one hand, however long the game. What a request needs besides its hand
# (the hands' list for the selector, the document's header, the first dealer) is kept with the
# verdict (``Verification.frames_index``, written by ``services.game_verify``); of the stored
# document only the asked hand is decoded and replayed. A long upload (a hand repeated thousands
# of times) used to make every request decode the whole document and replay every hand of it.
# (The document is stored packed, config.json_columns, and unpacked whole: about 0.5 ms for a
# 30 KB document, zlib 0.06 ms and orjson 0.4 ms; decoding and replaying are for the hand.)

#: The canonical document's members a hand's frames do not read (``frames_index_of``).
_NOT_IN_HEADER = frozenset({"rounds", "final", "warnings"})
#: Seconds a frames index computed on request (no kept one) stays in the cache.
FRAMES_INDEX_CACHE_SECONDS = 24 * 60 * 60


def frames_game_get(user: User, game_id: int) -> Game:
    """The game, if this user may see it, with only what the frames read beside the document
    (no document, raw file, seats or report).

    :raises Game.DoesNotExist: no such game, or one this user may not see.
    """
    return games_visible_to(user).only("pk", "rounds_count", "content_hash").get(pk=game_id)


def frames_index_of(
    document: Mapping[str, Any], record: EngineGame, report: ReplayReport | None = None
) -> dict[str, Any]:
    """What the frames API reads besides one hand of the game (``document``, read as
    ``record``): ``rounds`` (the hands as the viewer's selector lists them), ``header`` (the
    document without its hands) and ``first_dealer``; or ``{"error": message}`` when the engine
    cannot replay the game. ``Verification.frames_index`` keeps it. ``report``, the game's
    replay just made, saves replaying its rounds again when it agreed with all of them."""
    try:
        listed = round_list(record) if report is None else round_list_after_replay(record, report)
        rounds = [info.to_json() for info in listed]
    except EngineError as error:
        return {"error": f"the game cannot be replayed: {error}"}
    return {
        "rounds": rounds,
        "header": {name: value for name, value in document.items() if name not in _NOT_IN_HEADER},
        "first_dealer": record.rounds[0].dealer if record.rounds else 0,
    }


def _frames_index_computed(game: Game) -> dict[str, Any]:
    """:func:`frames_index_of` the whole stored document, for a verification that keeps none
    (made before it was kept, or by another engine version), cached by game, content and engine
    version."""
    key = f"replay:frames-index:{game.pk}:{game.content_hash}:{engine.__version__}"
    found = cache.get(key)
    if isinstance(found, dict):
        return found
    document = Game.objects.filter(pk=game.pk).values_list("document", flat=True).get()
    try:
        index = frames_index_of(document, canonical.game_from_json(document))
    except EngineError as error:
        index = {"error": f"the game's record cannot be read: {error}"}
    cache.set(key, index, FRAMES_INDEX_CACHE_SECONDS)
    return index


def _frames_parts(game: Game) -> tuple[dict[str, Any], Any]:
    """The game's frames index and the verification's first discrepancy (``None``).

    :raises FramesNotFound: a game the engine cannot replay.
    """
    row = (
        Verification.objects.filter(game_id=game.pk)
        .values_list("frames_index", "engine_version", "discrepancy")
        .first()
    )
    kept, version, discrepancy = row if row is not None else (None, "", None)
    # The hands' outcomes are this engine's: a list another engine version made is not used.
    index = kept if isinstance(kept, dict) and version == engine.__version__ else None
    if index is None:
        index = _frames_index_computed(game)
    if "error" in index:
        raise FramesNotFound(str(index["error"]))
    return index, discrepancy


def _round_frames(game: Game, round_index: int) -> tuple[RoundFrames, dict[str, Any], Any]:
    """The frames of one hand, read and replayed alone, with the game's frames index and the
    verification's first discrepancy.

    :raises FramesNotFound: no such round, or a game the engine cannot read or replay.
    """
    count = game.rounds_count
    if not 0 <= round_index < count:
        raise FramesNotFound(f"no round {round_index}: the game has {count} (0 to {count - 1})")
    index, discrepancy = _frames_parts(game)
    document = Game.objects.filter(pk=game.pk).values_list("document", flat=True).get()
    rounds = document.get("rounds") if isinstance(document, dict) else None
    if not isinstance(rounds, list) or round_index >= len(rounds):
        raise FramesNotFound(f"no round {round_index}: the game has {count} (0 to {count - 1})")
    hand = rounds[round_index]
    try:
        record = canonical.game_from_json({**index["header"], "rounds": [hand]})
    except EngineError as error:
        raise FramesNotFound(f"the game's record cannot be read: {error}") from None
    try:
        frames = round_frames(record, 0, first_dealer=index["first_dealer"])
    except EngineError as error:
        raise FramesNotFound(f"the game cannot be replayed: {error}") from None
    # The frames are those of the hand's deal and events; only its place was the partial
    # record's.
    return dataclasses.replace(frames, index=round_index), index, discrepancy


def _discrepancy_in(found: Any, frames: RoundFrames) -> dict[str, Any] | None:
    """The verification's first discrepancy, with the frame to show it at, if it is in this
    round."""
    if not isinstance(found, dict) or found.get("round") != frames.index:
        return None
    return {**found, "step": discrepancy_step(found, frames)}


def game_frames(game: Game, round_index: int) -> dict[str, Any]:
    """Every frame of one round of a game, with the game's rounds and the verification's
    discrepancy when it is in this round (docs/replay.md, "Frames"). ``game`` needs its id,
    ``rounds_count`` and ``content_hash`` only (:func:`frames_game_get`).

    :raises FramesNotFound: no such round, or a game the engine cannot replay.
    """
    frames, index, discrepancy = _round_frames(game, round_index)
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
        "rounds": index["rounds"],
        "round": round_index,
        "discrepancy": _discrepancy_in(discrepancy, frames),
        "frames": data["frames"],
    }


def game_frame(game: Game, round_index: int, step: int) -> dict[str, Any]:
    """One frame of a round (the same as in :func:`game_frames`), with the game, its players
    and the round index.

    :raises FramesNotFound: no such round or step, or a game the engine cannot replay.
    """
    frames, _, _ = _round_frames(game, round_index)
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
