"""Scoring: yaku, fu, han, limits and payments."""

from engine.scoring.payments import Payment
from engine.scoring.request import result_to_dict, score_request
from engine.scoring.score import (
    FuItem,
    HandScore,
    WinConditions,
    WinningHand,
    YakuHan,
    score_hand,
)

__all__ = [
    "FuItem",
    "HandScore",
    "Payment",
    "WinConditions",
    "WinningHand",
    "YakuHan",
    "result_to_dict",
    "score_hand",
    "score_request",
]
