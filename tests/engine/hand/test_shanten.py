"""Shanten: hand-written cases, input errors, and a differential test against mahjong 2.1.0.

The differential part deals seeded random hands (uniform from a real wall, and biased towards the
hard cases: four-of-a-kinds, pairs, terminals, one suit) and requires our numbers to equal
``mahjong``'s ``Shanten.calculate_shanten`` on every one of them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence

import pytest

import engine
from engine.hand.shanten import (
    AGARI,
    TENPAI,
    shanten,
    shanten_chiitoitsu,
    shanten_kokushi,
    shanten_regular,
)
from engine.tiles import format_counts, parse_counts

mahjong_shanten = pytest.importorskip("mahjong.shanten")
Shanten = mahjong_shanten.Shanten

Counts = list[int]
Generator = Callable[[random.Random, int, bool], Counts]

SUITS = (("m", 0, 9), ("p", 9, 18), ("s", 18, 27), ("z", 27, 34))
TERMINALS_AND_HONOURS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
SANMA_KINDS = tuple(k for k in range(34) if not 1 <= k <= 7)
ALL_KINDS = tuple(range(34))


def parse(text: str) -> Counts:
    """34 counts of ``123m456p789s11z``-style text."""
    return parse_counts(text)


def mpsz(counts: Sequence[int]) -> str:
    """``123m456p789s11z``-style text of 34 counts."""
    return format_counts(counts) or "(empty)"


def mahjong(counts: Sequence[int], three_player: bool = False, **flags: bool) -> int:
    return int(Shanten.calculate_shanten(list(counts), is_three_player=three_player, **flags))


# --------------------------------------------------------------------------------------------
# Hand-written cases


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s11122z", AGARI),
        ("123m456p789s1112z", TENPAI),
        ("11z", AGARI),  # a pair and four called melds
        ("1z", TENPAI),  # a lone tile waiting for its pair
        ("111z1p", TENPAI),
        ("147m258p369s1234z", 6),  # the worst 13-tile hand, by the seven-pairs formula
        ("19m19p19s1234567z", TENPAI),  # thirteen orphans, 13-sided wait
        ("19m19p19s12345677z", AGARI),
        ("1133557799m1122z", AGARI),  # seven pairs
        ("11335577m112233z", AGARI),
        ("1111m2222p3333s44z", 1),
        # The last tile of a four-of-a-kind can be neither a pair nor a wait: not tenpai.
        ("1111m123p456p789p", 1),
        ("1111z123m456p789s", 1),  # the same with honours
        ("1111z2222z3333z1m", 3),  # the jidahai floor: three dead honour tiles
        ("1111z2222z3333z11m", 2),  # one of which is the discard of a 14-tile hand
        ("111m123p456p789p1z", TENPAI),  # while a tanki on another tile is tenpai
        ("123456789m1111p", 1),
    ],
)
def test_known_shanten(hand: str, expected: int) -> None:
    counts = parse(hand)
    assert shanten(counts) == expected
    assert mahjong(counts) == expected


def test_three_player_example_from_mahjong_docstring() -> None:
    counts = parse("1111m111122233z")
    assert shanten(counts) == 1
    assert shanten(counts, three_player=True) == 2
    assert shanten_regular(counts) == 1
    assert shanten_regular(counts, three_player=True) == 2


def test_three_player_terminal_manzu_cannot_form_runs() -> None:
    counts = parse("19m123p456p789s11z")  # 1m, 9m are isolated either way
    assert shanten(counts, three_player=True) == mahjong(counts, three_player=True) == 1
    counts = parse("111m999m123p456p1z")
    assert shanten(counts, three_player=True) == TENPAI


def test_separate_shapes() -> None:
    counts = parse("19m19p19s1234567z")
    assert shanten_kokushi(counts) == TENPAI
    assert shanten_chiitoitsu(counts) == 6
    assert shanten_regular(counts) == 8
    assert shanten(counts, use_kokushi=False) == 6
    assert shanten(counts, use_kokushi=False, use_chiitoitsu=False) == 8
    # Four of a kind is one pair, not two, for seven pairs.
    assert shanten_chiitoitsu(parse("1111m2233p4455s66z")) == 1
    pairs = parse("1122m3344p5566s7z")
    assert shanten_chiitoitsu(pairs) == TENPAI
    assert shanten(pairs, use_chiitoitsu=False) == shanten_regular(pairs) == 3
    assert mahjong(pairs, use_chiitoitsu=False) == 3


def test_accepts_tuples_and_lists_alike() -> None:
    counts = parse("123m456p789s1112z")
    assert shanten(tuple(counts)) == shanten(counts) == TENPAI


# --------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    ("counts", "three_player", "message"),
    [
        ([0] * 33, False, "a hand has 34 tile counts, got 33"),
        ([0] * 35, False, "a hand has 34 tile counts, got 35"),
        ([-1] + [0] * 33, False, "tile counts are 0-4, got -1 for 1m"),
        (parse("11111m"), False, "tile counts are 0-4, got 5 for 1m"),
        ([0] * 33 + [300], False, "tile counts are 0-4, got 300 for 7z"),
        (parse("5555p5p123s"), False, "tile counts are 0-4, got 5 for 5p"),
        (parse("1234567z11111z"), False, "tile counts are 0-4, got 6 for 1z"),
        (parse("123m456p789s111z"), False, "a hand has 3n+1 or 3n+2 tiles, got 12"),
        ([0] * 34, False, "a hand has 3n+1 or 3n+2 tiles, got 0"),
        (parse("123m456p789s111122z"), False, "a hand has at most 14 tiles, got 15"),
        (
            parse("123m456p789s1112z"),
            True,
            "2m-8m do not exist in three-player mahjong, got 2m, 3m",
        ),
        (parse("11111m1z"), True, "tile counts are 0-4, got 5 for 1m"),
    ],
)
def test_invalid_hands(counts: Counts, three_player: bool, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        shanten(counts, three_player=three_player)
    with pytest.raises(ValueError, match=re.escape(message)):
        shanten_regular(counts, three_player=three_player)


def test_invalid_hands_for_the_closed_shapes() -> None:
    for fn in (shanten_chiitoitsu, shanten_kokushi):
        with pytest.raises(ValueError, match="needs a closed hand of 13 or 14 tiles, got 11"):
            fn(parse("123m456p789s11z"))
        with pytest.raises(ValueError, match="a hand has 3n\\+1 or 3n\\+2 tiles, got 12"):
            fn(parse("123m456p789s111z"))
        with pytest.raises(ValueError, match="tile counts are 0-4, got 5 for 9s"):
            fn(parse("99999s"))
        with pytest.raises(ValueError, match="a hand has 34 tile counts, got 3"):
            fn([1, 1, 1])


def test_errors_are_engine_errors() -> None:
    from engine.errors import InvalidHandError

    with pytest.raises(InvalidHandError):
        shanten([0] * 34)


def test_non_integer_counts_are_type_errors() -> None:
    # The compiled engine (python -m engine.compile) refuses the float where the annotation says
    # int, before the engine's own check, in mypyc's words.
    words = "int object expected" if engine.is_compiled() else "tile counts are ints"
    with pytest.raises(TypeError, match=words):
        shanten([1.0] + [0] * 33)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Hand generators (all deal from a wall, so no kind has more than 4 copies)


def _deal(rng: random.Random, wall: list[int], size: int) -> Counts:
    counts = [0] * 34
    for kind in rng.sample(wall, size):
        counts[kind] += 1
    return counts


def _wall(kinds: Sequence[int]) -> list[int]:
    return [k for k in kinds for _ in range(4)]


def _kinds(three_player: bool) -> tuple[int, ...]:
    return SANMA_KINDS if three_player else ALL_KINDS


def uniform(rng: random.Random, size: int, three_player: bool) -> Counts:
    return _deal(rng, _wall(_kinds(three_player)), size)


def with_quads(rng: random.Random, size: int, three_player: bool) -> Counts:
    """One or more four-of-a-kinds, the other tiles mostly from the first one's suit."""
    kinds = _kinds(three_player)
    counts = [0] * 34
    quads = rng.sample(kinds, rng.randint(1, size // 4))
    for kind in quads:
        counts[kind] = 4
    group = quads[0] // 9
    while sum(counts) < size:
        free = [k for k in kinds if counts[k] < 4]
        near = [k for k in free if k // 9 == group]
        counts[rng.choice(near if near and rng.random() < 0.7 else free)] += 1
    return counts


def pairs_heavy(rng: random.Random, size: int, three_player: bool) -> Counts:
    """Mostly pairs (near seven pairs), some triplets and four-of-a-kinds."""
    kinds = _kinds(three_player)
    picks = rng.sample(kinds, 9)
    counts = [0] * 34
    while sum(counts) < size:
        kind = rng.choice(picks) if rng.random() < 0.9 else rng.choice(kinds)
        counts[kind] += min(rng.choice((2, 2, 2, 1, 3)), 4 - counts[kind], size - sum(counts))
    return counts


def terminal_heavy(rng: random.Random, size: int, three_player: bool) -> Counts:
    """Mostly terminals and honours (near thirteen orphans)."""
    kinds = _kinds(three_player)
    yaochuu = _wall(TERMINALS_AND_HONOURS)
    others = _wall([k for k in kinds if k not in TERMINALS_AND_HONOURS])
    n_other = sum(1 for _ in range(size) if rng.random() < 0.15)
    counts = _deal(rng, yaochuu, size - n_other)
    for kind in rng.sample(others, n_other):
        counts[kind] += 1
    return counts


def one_suit(rng: random.Random, size: int, three_player: bool) -> Counts:
    """All tiles of one number suit (chinitsu), sometimes with a few honours."""
    start = rng.choice((9, 18) if three_player else (0, 9, 18))
    n_honours = rng.choice((0, 0, 0, 1, 2, 3)) if size > 4 else 0
    counts = _deal(rng, _wall(range(start, start + 9)), size - n_honours)
    for kind in rng.sample(_wall(range(27, 34)), n_honours):
        counts[kind] += 1
    return counts


def _hands(
    generator: Generator, seed: int, sizes: Sequence[int], per_size: int, three_player: bool
) -> Iterator[Counts]:
    rng = random.Random(seed)
    for size in sizes:
        for _ in range(per_size):
            counts = generator(rng, size, three_player)
            assert sum(counts) == size and max(counts) <= 4, counts
            yield counts


def _assert_same_as_mahjong(hands: Iterator[Counts], three_player: bool) -> int:
    n = 0
    for counts in hands:
        n += 1
        ours = shanten(counts, three_player=three_player)
        theirs = mahjong(counts, three_player)
        if ours != theirs:
            mode = "three-player" if three_player else "four-player"
            pytest.fail(
                f"{mode} {mpsz(counts)} ({sum(counts)} tiles): shanten {ours}, mahjong {theirs}"
            )
    return n


CALL_SIZES = (10, 11, 7, 8, 4, 5, 1, 2)


@pytest.mark.parametrize(
    ("name", "generator", "sizes", "per_size", "three_player"),
    [
        ("closed 4p", uniform, (13, 14), 20_000, False),
        ("closed 3p", uniform, (13, 14), 5_000, True),
        ("with calls 4p", uniform, CALL_SIZES, 2_000, False),
        ("with calls 3p", uniform, CALL_SIZES, 500, True),
        ("quads 4p", with_quads, (13, 14, 10, 11, 7, 8, 4, 5), 1_000, False),
        ("quads 3p", with_quads, (13, 14, 10, 11, 7, 8, 4, 5), 300, True),
        ("pairs 4p", pairs_heavy, (13, 14), 3_000, False),
        ("pairs 3p", pairs_heavy, (13, 14), 1_000, True),
        ("terminals 4p", terminal_heavy, (13, 14), 3_000, False),
        ("terminals 3p", terminal_heavy, (13, 14), 1_000, True),
        ("one suit 4p", one_suit, (13, 14, 10, 11, 7, 8), 1_000, False),
        ("one suit 3p", one_suit, (13, 14, 10, 11), 300, True),
    ],
)
def test_same_as_mahjong(
    name: str, generator: Generator, sizes: Sequence[int], per_size: int, three_player: bool
) -> None:
    seed = sum(map(ord, name))
    n = _assert_same_as_mahjong(
        _hands(generator, seed, sizes, per_size, three_player), three_player
    )
    assert n == len(sizes) * per_size


@pytest.mark.parametrize("three_player", [False, True])
def test_separate_shapes_same_as_mahjong(three_player: bool) -> None:
    rng = random.Random(7)
    for generator in (uniform, pairs_heavy, terminal_heavy, with_quads):
        for _ in range(1_000):
            counts = generator(rng, rng.choice((13, 14)), three_player)
            text = mpsz(counts)
            assert shanten_chiitoitsu(counts) == Shanten.calculate_shanten_for_chiitoitsu_hand(
                counts
            ), text
            assert shanten_kokushi(counts) == Shanten.calculate_shanten_for_kokushi_hand(counts), (
                text
            )
            assert shanten_regular(
                counts, three_player=three_player
            ) == Shanten.calculate_shanten_for_regular_hand(counts, three_player), text
            for flags in ({"use_chiitoitsu": False}, {"use_kokushi": False}):
                assert shanten(counts, three_player=three_player, **flags) == mahjong(
                    counts, three_player, **flags
                ), (text, flags)


def test_every_four_copies_placement_in_one_suit() -> None:
    """A four-of-a-kind at each rank of a suit with every 1-3 other tiles of the suit.

    Exhaustive over a small space where the four-copies rules and the walk interact most.
    """
    n = 0
    for quad in range(9):
        for a in range(9):
            for b in range(a, 9):
                for c in range(b, 9):
                    counts = [0] * 34
                    counts[9 + quad] = 4
                    for kind in (a, b, c):
                        counts[9 + kind] += 1
                    if max(counts) > 4:
                        continue
                    for extra in ("", "1z", "11z", "5s", "19m"):
                        hand = [x + y for x, y in zip(counts, parse(extra), strict=True)]
                        if sum(hand) % 3 == 0:
                            continue
                        n += 1
                        assert shanten(hand) == mahjong(hand), mpsz(hand)
    assert n > 500
