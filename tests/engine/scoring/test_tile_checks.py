"""Tile checks that requests cannot reach: tiles built directly, outside the notation."""

from __future__ import annotations

import pytest

from engine.errors import InvalidHandError
from engine.hand.melds import Meld
from engine.rules import get_ruleset
from engine.scoring.rule_tables import FIVES, rule_tables
from engine.scoring.score import (
    _COUNT_CHECK_TOPS,
    WinConditions,
    WinningHand,
    _check_fives,
    score_hand,
)
from engine.tiles import PACKED_BYTES, RED_BYTE, SOUTH, Tile, parse_tile, parse_tiles

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


@pytest.mark.parametrize("allowed", [0, 1, 2, 3, 4])
def test_the_quick_red_five_check_sends_every_bad_hand_to_the_full_one(allowed: int) -> None:
    ruleset = TENHOU.replace(red_fives=(allowed, allowed, allowed))
    tables = rule_tables(ruleset)
    for fives in range(5):
        for reds in range(fives + 1):
            counts = bytearray(PACKED_BYTES)
            counts[FIVES[1]] = fives
            counts[RED_BYTE + 1] = reds
            packed = int.from_bytes(counts, "little")
            try:
                _check_fives(ruleset, bytes(counts))
            except InvalidHandError:
                assert (packed + tables.count_check_add) & _COUNT_CHECK_TOPS, (fives, reds)
