"""Base points from han and fu, and the names of the limits (mangan to multiple yakuman)."""

from __future__ import annotations

from typing import Final

from engine.rules.ruleset import KazoeLimit, Ruleset

MANGAN: Final = 2000

_YAKUMAN_NAMES: Final = {
    1: "yakuman",
    2: "double_yakuman",
    3: "triple_yakuman",
    4: "quadruple_yakuman",
    5: "quintuple_yakuman",
    6: "sextuple_yakuman",
}


def yakuman_limit(multiplier: int) -> tuple[int, str]:
    """Base points and limit name of a hand worth ``multiplier`` yakuman."""
    name = _YAKUMAN_NAMES.get(multiplier, f"{multiplier}x_yakuman")
    return 8000 * multiplier, name


def base_points(han: int, fu: int, ruleset: Ruleset) -> tuple[int, str | None]:
    """Base points (before the 4x/6x and rounding) and the limit's name, or None below mangan.

    ``han`` counts yaku and dora; yakuman hands go through :func:`yakuman_limit` instead.
    """
    if han >= 13:
        if ruleset.kazoe is KazoeLimit.YAKUMAN:
            return 8000, "kazoe_yakuman"
        return 6000, "sanbaiman"
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    if han == 5:
        return MANGAN, "mangan"
    base = fu << (han + 2)
    if base >= MANGAN:
        return MANGAN, "mangan"
    if ruleset.kiriage and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
        return MANGAN, "mangan"
    return base, None


def round_up_100(points: int) -> int:
    """Round up to the next 100 points, as every payment is."""
    return -(-points // 100) * 100
