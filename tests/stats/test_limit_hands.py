"""Which wins are limit hands: the engine's limit of the win decides, never ``han >= 13``
(small mahjong's ``han`` is points, Ùzje's is fan in tenths)."""

from __future__ import annotations

from engine.replay import RoundSummary, WinSummary
from stats.services import limit_hand_wins


def _win(seat: int, han: int, limit: str | None) -> WinSummary:
    return WinSummary(
        seat=seat,
        from_seat=seat,
        han=han,
        fu=0,
        yaku=[],
        limit=limit,
        points=0,
        deltas=[],
        liable=None,
    )


def test_yakuman_and_uzje_limits_are_limit_hands_and_nothing_else_is() -> None:
    rounds = [
        # riichi: a yakuman, a double yakuman and a counted (kazoe) yakuman are limit hands
        RoundSummary(
            0, "E1", 0, "win", wins=[_win(0, 13, "yakuman"), _win(1, 26, "double_yakuman")]
        ),
        RoundSummary(1, "E2", 0, "win", wins=[_win(2, 14, "kazoe_yakuman")]),
        # riichi with kazoe capped at sanbaiman: 13 han is no limit hand; nor is a mangan
        RoundSummary(2, "E3", 0, "win", wins=[_win(3, 13, "sanbaiman"), _win(0, 5, "mangan")]),
        # Ùzje: 13 fan is 130 tenths and below the limit step without a limit; a "2l" hand is one
        RoundSummary(3, "E4", 0, "win", wins=[_win(1, 130, None), _win(2, 0, "2l")]),
        # small mahjong: a 20-point win has no limit
        RoundSummary(4, "S1", 0, "win", wins=[_win(3, 20, None)]),
        RoundSummary(5, "S2", 0, "exhaustive_draw"),
    ]
    assert limit_hand_wins(rounds) == {(0, 0), (0, 1), (1, 2), (3, 2)}
