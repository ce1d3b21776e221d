"""The precomputed suit table of the shanten memo (engine.hand.shanten_table): what it holds is
what the walk gives, shanten numbers are the same with and without it, and a missing or broken
file only means walking again."""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from itertools import product
from pathlib import Path

import pytest

from engine.hand import shanten as shanten_module
from engine.hand import shanten_table
from engine.hand.shanten import NOT_DENSE, clear_tables, dense_shanten, shanten, suit_frontiers
from engine.hand.shanten_table import NO_PATTERN, PATTERNS, SuitTable, load
from engine.hand.shanten_table_build import dense_tables
from engine.tiles import parse_counts


@pytest.fixture(scope="module")
def table() -> SuitTable:
    loaded = load()
    assert loaded is not None, f"{shanten_table.TABLE_PATH} is missing or unreadable"
    return loaded


def patterns(total_at_most: int) -> Iterator[tuple[int, ...]]:
    for counts in product(range(5), repeat=9):
        if sum(counts) <= total_at_most:
            yield counts


def random_pattern(rng: random.Random) -> tuple[int, ...]:
    """A suit of 6-14 tiles, at most four of a rank."""
    while True:
        counts = [0] * 9
        for _ in range(rng.randint(6, 14)):
            counts[rng.randrange(9)] += 1
        if max(counts) <= 4:
            return tuple(counts)


def held(table: SuitTable, counts: tuple[int, ...]) -> tuple[tuple[object, ...], ...]:
    fast, full = table.lookup(bytes(counts))
    return table.frontiers[fast], table.frontiers[full]


def test_the_table_holds_what_the_walk_gives(table: SuitTable) -> None:
    rng = random.Random(2111)
    small = list(patterns(5))  # every pattern of up to five tiles, then a sample of the rest
    sample = small + [random_pattern(rng) for _ in range(3000)]
    assert len(small) == 2002 - 9  # C(5 + 9, 9) ways, less five of one rank
    for counts in sample:
        assert held(table, counts) == suit_frontiers(counts), counts


def test_the_classes_are_the_fast_frontiers(table: SuitTable) -> None:
    """Each pattern's class is its fast frontier's id, and those ids are the first ones."""
    fast_ids = table.ids[0::2]
    assert len(table.classes) == len(fast_ids) == PATTERNS
    assert bytes(255 if i == NO_PATTERN else i for i in fast_ids) == table.classes
    assert set(fast_ids) - {NO_PATTERN} == set(range(table.class_count))
    for front in table.frontiers[: table.class_count]:
        assert all(state == 0 for *_, state in front), front


def test_the_dense_tables_are_those_of_the_classes(table: SuitTable) -> None:
    """The stored pair, triple and final tables equal a fresh build from the classes'
    frontiers (:func:`dense_tables`), which the next test checks against the memo."""
    built = dense_tables(table.frontiers[: table.class_count])
    assert (table.pairs, table.triples, table.finals) == built
    count = table.class_count
    assert len(table.pairs) == count * count and max(table.pairs) < len(table.triples) // count


def test_the_dense_tables_give_the_memos_numbers(table: SuitTable) -> None:
    """Every pair of classes, then every triple class with every honour group, scored by the
    tables and by combining the frontiers as the memo does."""
    count = table.class_count
    fronts = table.frontiers
    ids = [shanten_module._intern_frontier(front) for front in fronts[:count]]
    for a in range(count):
        for b in range(count):
            pair = table.pairs[a * count + b]
            for c in (0, a, b, count - 1):
                triple = table.triples[pair * count + c]
                memo = shanten_module._combined(shanten_module._combined(ids[a], ids[b]), ids[c])
                for blocks in range(6):
                    for has_pair in (0, 1):
                        best = table.finals[triple * 12 + blocks * 2 + has_pair]
                        melds = max(blocks - has_pair, 0)  # honours of these blocks
                        honour = shanten_module._intern({(melds, blocks, has_pair, 0)})
                        value = shanten_module._final(memo, honour)
                        assert 8 - melds - best == value, (a, b, c, blocks, has_pair)


def test_a_suit_of_more_than_fourteen_tiles_is_not_in_it(table: SuitTable) -> None:
    assert table.lookup(bytes([4, 4, 4, 3, 0, 0, 0, 0, 0])) == (NO_PATTERN, NO_PATTERN)
    assert table.lookup(bytes([4, 4, 4, 2, 0, 0, 0, 0, 0])) != (NO_PATTERN, NO_PATTERN)


def random_hand(rng: random.Random, three_player: bool) -> list[int]:
    kinds = [k for k in range(34) if not (three_player and 1 <= k <= 7)]
    counts = [0] * 34
    size = rng.choice((13, 14, 10, 11, 7, 8))
    while sum(counts) < size:
        kind = rng.choice(kinds[:9] if rng.random() < 0.4 else kinds)
        if counts[kind] < 4:
            counts[kind] += 1
    return counts


def test_shanten_is_the_same_with_and_without_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(2112)
    hands = [(random_hand(rng, sanma), sanma) for sanma in (False, True) for _ in range(1500)]
    complete = ("123m456p789s11122z", "11123455678999m", "19m19p19s1234567z1z", "111999m11p")
    hands += [(parse_counts(text), False) for text in complete]
    clear_tables()
    with_table = [shanten(hand, three_player=sanma) for hand, sanma in hands]
    dense = [dense_shanten(hand, sanma, True, True) for hand, sanma in hands]
    assert shanten_module._FROM_TABLE  # the table was read, not the walk
    assert shanten_module._DENSE.state == 1
    monkeypatch.setattr(shanten_table, "load", lambda: None)
    clear_tables()
    try:
        walked = [shanten(hand, three_player=sanma) for hand, sanma in hands]
        assert not shanten_module._FROM_TABLE
        assert dense_shanten(hands[0][0], hands[0][1], True, True) == NOT_DENSE
        assert shanten_module._DENSE.state == -1
    finally:  # the table again for the other tests, whatever happened
        monkeypatch.undo()
        clear_tables()
    assert with_table == walked
    assert all(d in (NOT_DENSE, w) for d, w in zip(dense, walked, strict=True))
    assert dense.count(NOT_DENSE) < len(dense) // 4  # most hands hold no four of a kind
    assert set(walked) >= {-1, 0, 1, 2, 3} and walked[-4:] == [-1, -1, -1, -1]


@pytest.mark.parametrize(
    "contents",
    [
        b"",
        b"not zlib",
        zlib.compress(b"MJSF0\n" + bytes(16)),
        zlib.compress(shanten_table.MAGIC + b"\x05\x00\x00\x00[[]]!"),
        zlib.compress(shanten_table.MAGIC + b"\x02\x00\x00\x00[]" + bytes(10)),
    ],
    ids=["empty", "not-compressed", "wrong-magic", "bad-json", "too-short"],
)
def test_a_broken_table_file_is_no_table(tmp_path: Path, contents: bytes) -> None:
    path = tmp_path / "suit_frontiers.bin"
    path.write_bytes(contents)
    assert load(path) is None
    assert load(tmp_path / "missing.bin") is None
