"""The dense path of the shanten (engine.hand.shanten: the shipped table's classes and their
combination tables), against the memo of frontiers it stands in for, ``mahjong`` and riichienv.

``shanten`` of a list takes the dense path in the compiled engine only; it is tested here
whichever engine runs: it must give the memo's number (``shanten`` of a tuple, which always takes
the memo) for every hand without four of a kind, and leave the others to it (``NOT_DENSE``).
"""

from __future__ import annotations

import random

import pytest

from engine.hand import shanten as shanten_module
from engine.hand.shanten import NOT_DENSE, dense_shanten, shanten
from engine.tiles import format_counts, parse_counts
from tests.engine.hand.test_shanten import (
    mahjong,
    one_suit,
    pairs_heavy,
    terminal_heavy,
    uniform,
    with_quads,
)

FLAGS = ((True, True), (False, True), (True, False), (False, False))
SIZES = (14, 13, 11, 10, 8, 7, 5, 4, 2, 1)


def _random_hands(seed: int, n: int) -> list[tuple[list[int], bool]]:
    rng = random.Random(seed)
    generators = (uniform, uniform, pairs_heavy, terminal_heavy, one_suit, with_quads)
    hands = []
    for i in range(n):
        three_player = i % 4 == 3
        generator = generators[i % len(generators)]
        size = rng.choice(SIZES if generator in (uniform, one_suit) else (13, 14))
        if generator is with_quads:
            size = rng.choice((14, 13, 11, 10, 8, 7, 5, 4))
        hands.append((generator(rng, size, three_player), three_player))
    return hands


def memo_shanten(counts: list[int], three_player: bool, chiitoitsu: bool, kokushi: bool) -> int:
    """The memo's number (a tuple never takes the dense path)."""
    return shanten(
        tuple(counts),
        three_player=three_player,
        use_chiitoitsu=chiitoitsu,
        use_kokushi=kokushi,
    )


def test_the_dense_path_gives_the_memos_number() -> None:
    declined = 0
    for counts, three_player in _random_hands(4201, 12_000):
        quads = 4 in counts
        for flags in FLAGS:
            found = dense_shanten(counts, three_player, *flags)
            if found == NOT_DENSE:
                assert quads, (format_counts(counts), three_player, flags)
                declined += 1
                continue
            assert not quads, (format_counts(counts), three_player, flags)
            assert found == memo_shanten(counts, three_player, *flags), (
                format_counts(counts),
                three_player,
                flags,
            )
    assert declined > 1_000  # the hands with four of a kind, left to the memo


@pytest.mark.parametrize(
    ("hand", "three_player", "expected"),
    [
        ("1z", False, 0),  # one tile: four calls, waiting on its pair
        ("5p", True, 0),
        ("11z", False, -1),
        ("19m", True, 0),  # sanma: 1m and 9m are honour-like, one of them the pair's wait
        ("1m1p1s1z", False, 2),  # four tiles: three calls
        ("1239m", False, 0),
        ("1112z", False, 0),
        ("1111m", False, 1),  # four of a kind: the memo's (the fourth tile is dead)
        ("111z1m", False, 0),
        ("1199m1p", True, 0),
        ("11m99m1z", True, 0),
        ("1234567z", False, 4),  # seven tiles: two calls
        ("111222333z1m", False, 0),  # ten tiles: one call
        ("1112223334m", False, 0),
        ("1112223334445m", False, 0),
        ("19m19p19s1234567z", True, 0),  # thirteen orphans in sanma too
        ("111999m111999p11s", True, -1),
        ("111m999m11p", True, -1),  # 1m and 9m triplets as honour melds, two calls
        ("1111z2222z3333z1m", False, 3),  # the jidahai floor: the memo's
        ("1111m9999m1111p11z", True, 1),  # sanma: 1m and 9m held four times
    ],
)
def test_edge_cases(hand: str, three_player: bool, expected: int) -> None:
    counts = parse_counts(hand)
    assert shanten(counts, three_player=three_player) == expected
    assert mahjong(counts, three_player) == expected
    assert memo_shanten(counts, three_player, True, True) == expected
    found = dense_shanten(counts, three_player, True, True)
    assert found == (NOT_DENSE if 4 in counts else expected)


def test_inputs_the_dense_path_leaves_to_the_memo() -> None:
    hand = parse_counts("123m456p789s1112z")
    assert shanten(tuple(hand)) == shanten(bytearray(hand)) == shanten(hand) == 0
    for bad in ([5, *hand[1:]], [-1, *hand[1:]], hand[:33], [*hand, 0]):
        assert dense_shanten(bad, False, True, True) == NOT_DENSE
    assert dense_shanten(parse_counts("123m456p789s11122z1z"), False, True, True) == NOT_DENSE
    assert dense_shanten(parse_counts("234m456p789s1112z"), True, True, True) == NOT_DENSE


def test_without_the_table_file_the_memo_does_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = parse_counts("123m456p789s1112z")
    monkeypatch.setattr(shanten_module.shanten_table, "load", lambda: None)
    shanten_module.clear_tables()
    try:
        assert dense_shanten(hand, False, True, True) == NOT_DENSE
        assert shanten(hand) == 0
    finally:  # the table again for the other tests, whatever happened
        monkeypatch.undo()
        shanten_module.clear_tables()
    assert dense_shanten(hand, False, True, True) == 0


def test_the_same_numbers_as_riichienv() -> None:
    """riichienv (a Rust engine, a benchmark peer) computes its shanten independently; on these
    hands its numbers are mahjong's."""
    riichienv = pytest.importorskip("riichienv")
    for counts, three_player in _random_hands(4202, 6_000):
        ids = [kind * 4 + copy for kind, count in enumerate(counts) for copy in range(count)]
        theirs = (
            riichienv.calculate_shanten_3p(ids)
            if three_player
            else riichienv.calculate_shanten(ids)
        )
        assert shanten(counts, three_player=three_player) == theirs, (
            format_counts(counts),
            three_player,
        )
