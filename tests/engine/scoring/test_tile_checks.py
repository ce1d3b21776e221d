"""Tile checks that requests cannot reach: tiles built directly, outside the notation."""

from __future__ import annotations

import pytest

from engine.errors import InvalidHandError
from engine.hand.melds import Meld
from engine.rules import get_ruleset
from engine.scoring.score import WinConditions, WinningHand, score_hand
from engine.tiles import SOUTH, Tile, parse_tile, parse_tiles

TENHOU = get_ruleset("tenhou-4p")


def test_a_tile_outside_the_standard_set_is_refused() -> None:
    flower = Tile("f", 1)
    tiles = (*parse_tiles("123m45699p34578s"), flower)
    with pytest.raises(InvalidHandError, match="standard"):
        score_hand(WinningHand(tiles=tiles, win_tile=parse_tile("5p")), TENHOU)
    tiles = tuple(parse_tiles("123m45699p345789s"))
    with pytest.raises(InvalidHandError):
        score_hand(WinningHand(tiles=tiles, win_tile=flower), TENHOU)
    with pytest.raises(InvalidHandError, match="standard"):
        score_hand(
            WinningHand(tiles=tiles, win_tile=parse_tile("5p"), dora_indicators=(flower,)),
            TENHOU,
        )


def test_four_kans_of_one_kind_are_too_many_copies() -> None:
    kan = Meld.parse("ankan", "1111m")
    hand = WinningHand(
        tiles=tuple(parse_tiles("11m")), win_tile=parse_tile("1m"), melds=(kan, kan, kan, kan)
    )
    with pytest.raises(InvalidHandError, match="18 copies of 1m"):
        score_hand(hand, TENHOU)


def test_north_extractions_count_as_copies_however_many() -> None:
    hand = WinningHand(
        tiles=tuple(parse_tiles("123p456p789s99s444z")),
        win_tile=parse_tile("9s"),
        conditions=WinConditions(seat_wind=SOUTH, kita=1000),
    )
    with pytest.raises(InvalidHandError, match="1003 copies of 4z"):
        score_hand(hand, get_ruleset("tenhou-3p"))
