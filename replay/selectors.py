"""Read paths of the replay app.

Every query that views, API endpoints or tasks need is a function here (HackSoft Django
Styleguide): a selector takes plain values and returns model instances, querysets or plain
data, and changes nothing. Writes belong in ``services.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.db.models import QuerySet

import engine
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


def game_ids_to_verify(*, outdated_only: bool) -> list[int]:
    """Ids of the games to verify (again): all, or those without a verdict of this engine."""
    games = Game.objects.order_by("pk")
    if outdated_only:
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
