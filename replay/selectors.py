"""Read paths of the replay app.

Every query that views, API endpoints or tasks need is a function here (HackSoft Django
Styleguide): a selector takes plain values and returns model instances, querysets or plain
data, and changes nothing. Writes belong in ``services.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from replay.models import Verdict, Verification


def verdict_counts(game_ids: Iterable[int]) -> dict[str, int]:
    """How many of these games have each verdict (``pending``: not verified yet)."""
    ids = set(game_ids)
    rows = Verification.objects.filter(game_id__in=ids).values_list("game_id", "verdict")
    counted = Counter(verdict for _, verdict in rows)
    if pending := len(ids) - sum(counted.values()):
        counted[Verdict.PENDING.value] += pending
    return dict(counted)
