"""Rule sets: the :class:`Ruleset` options value and the named presets."""

from engine.rules.presets import PRESETS, get_ruleset, tenhou_ruleset
from engine.rules.ruleset import (
    DOUBLE_YAKUMAN_FORMS,
    KanDoraTiming,
    KazoeLimit,
    Renhou,
    Ruleset,
    SanmaTsumo,
    StickWinner,
)

__all__ = [
    "DOUBLE_YAKUMAN_FORMS",
    "PRESETS",
    "KanDoraTiming",
    "KazoeLimit",
    "Renhou",
    "Ruleset",
    "SanmaTsumo",
    "StickWinner",
    "get_ruleset",
    "tenhou_ruleset",
]
