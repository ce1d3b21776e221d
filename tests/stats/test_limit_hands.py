"""Which wins are limit hands: the engine's limit of the win decides, never ``han >= 13``
(small mahjong's ``han`` is points, Ùzje's is fan in tenths)."""

from __future__ import annotations

import pytest

from engine.replay import is_limit_hand


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        # riichi: a yakuman, a double yakuman and a counted (kazoe) yakuman are limit hands
        ("yakuman", True),
        ("double_yakuman", True),
        ("kazoe_yakuman", True),
        # riichi with kazoe capped at sanbaiman: 13 han is no limit hand; nor is a mangan
        ("sanbaiman", False),
        ("mangan", False),
        # small mahjong: no limits at all
        (None, False),
    ],
)
def test_riichi_limits_that_are_limit_hands(limit: str | None, expected: bool) -> None:
    assert is_limit_hand(limit) is expected
