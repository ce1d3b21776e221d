"""Ùzje tiles: the UJMJ notation of seeds/002 ("Notation", lines 19-47) and the tile set of a
table ("Wall building", lines 50-52)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.tiles import Tile
from engine.variants.uzje import tiles as T
from engine.variants.uzje.rules import PRESETS, UzjeRules


def test_honour_letters() -> None:
    # seeds/002 lines 22-30: E S W N H V C F P are East ... White.
    assert T.parse_kinds("ESWNHVCFP") == [
        T.EAST,
        T.SOUTH,
        T.WEST,
        T.NORTH,
        T.HORIZONTAL,
        T.VERTICAL,
        T.RED,
        T.GREEN,
        T.WHITE,
    ]


def test_zero_is_one_tile_written_as_honour_or_number() -> None:
    # seeds/002 line 31: the zero is Z as an honour and 0 + a suit letter as a number tile.
    assert T.parse_kinds("Z") == [T.ZERO]
    assert T.parse_kinds("0t0s0m") == [T.ZERO, T.ZERO, T.ZERO]
    assert T.parse_kinds("048s") == [T.ZERO, 16 + 3, 16 + 7]


def test_flower_letters() -> None:
    # seeds/002 lines 33-40: h i j k are the seasons, o p q r one to four.
    assert T.parse_kinds("hijkopqr") == list(T.FLOWERS)
    assert (tuple(T.parse_kinds("hijk")), tuple(T.parse_kinds("opqr"))) == T.FLOWER_SETS


def test_number_ranks_and_suits() -> None:
    # seeds/002 line 41-44: ranks 1-9, then x, then a-f for 1 to 16; suits t s m.
    ranks = "123456789xabcdef"
    for suit, letter in enumerate("tsm"):
        for rank, char in enumerate(ranks, start=1):
            kind = T.parse_kinds(char + letter)[0]
            assert (T.suit_of(kind), T.rank_of(kind)) == (suit, rank)
            assert T.format_kind(kind) == char + letter


def test_run_length_shorthand() -> None:
    # seeds/002 line 45: "9, 10 and 11 of sock put together are 9xas".
    assert T.parse_kinds("9xas") == T.parse_kinds("9sxsas") == [16 + 8, 16 + 9, 16 + 10]
    assert T.format_kinds(T.parse_kinds("9sxsas")) == "9xas"


def test_conventional_sort_order() -> None:
    # seeds/002 line 47: tongs, socks, mans, zero, winds, arrows; ranks inside a suit; flowers
    # by themselves in alphabetical order.
    shuffled = T.parse_kinds("P r Z 3m E h fs 1t C 2s N o")
    assert T.format_kinds(shuffled) == "1t2fs3mZENCPhor"
    # line 91 gives the full order of the discards: 1t..ft, 1s..fs, 1m..fm, Z, E, S, W, N, C, F, P.
    order = [T.number_kind(s, r) for s in range(3) for r in range(1, 17)]
    order += T.parse_kinds("ZESWNCFP")
    assert sorted(order) == order


def test_tiles_are_engine_tiles_outside_the_standard_layout() -> None:
    # Reused value type: Ùzje tiles are engine Tiles with uppercase suit codes, never a
    # standard MPSZ tile (kind -1), and one shared object per kind.
    for kind in range(T.KINDS):
        value = T.tile(kind)
        assert isinstance(value, Tile)
        assert value.kind == -1
        assert T.kind_of(value) == kind
        assert T.parse_tile(T.format_kind(kind)) is value
    assert T.tile(0) != Tile("s", 1)
    with pytest.raises(NotationError, match="not an Ùzje tile"):
        T.kind_of(Tile("m", 1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12", "no suit letter"),
        ("s", "no rank before it"),
        ("1sX", "unexpected character 'X' at position 2"),
        ("12E3s", "have no suit letter"),
        ("gs", "unexpected character 'g'"),
    ],
)
def test_notation_errors_name_the_bad_text(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        T.parse_kinds(text)


def test_parse_tile_wants_exactly_one() -> None:
    with pytest.raises(NotationError, match="expected one"):
        T.parse_tile("12s")


@given(st.lists(st.integers(0, T.KINDS - 1), max_size=20))
def test_format_then_parse_round_trips(kinds: list[int]) -> None:
    assert T.parse_kinds(T.format_kinds(kinds)) == sorted(kinds)
    assert T.parse_kinds(T.format_kinds(kinds, sort=False)) == kinds


def test_no_character_is_two_things() -> None:
    # seeds/002 line 46: "no characters that are terminal and non-terminal at the same time".
    ranks, suits = set(T.RANK_CHARS), set(T.SUIT_LETTERS)
    honours, flowers = set(T.HONOUR_LETTERS), set(T.FLOWER_LETTERS)
    for first, second in itertools.combinations((ranks, suits, honours, flowers), 2):
        assert not first & second


@pytest.mark.parametrize(
    ("full_winds", "flowers", "all_tongs", "width"),
    [
        (False, False, False, 20),  # line 51: base width
        (True, False, False, 21),  # line 52: "21 without flowers"
        (True, True, False, 22),  # line 52: "the default width is 22 with flowers"
        (True, True, True, 29),  # line 51: maximum width
        (False, True, True, 28),
    ],
)
def test_wall_width_matches_the_tile_set(
    full_winds: bool, flowers: bool, all_tongs: bool, width: int
) -> None:
    # seeds/002 lines 50-52: four walls, two tall, this wide, hold every tile exactly.
    assert T.wall_width(full_winds=full_winds, flowers=flowers, all_tongs=all_tongs) == width
    tiles = T.tile_set(full_winds=full_winds, flowers=flowers, all_tongs=all_tongs)
    assert len(tiles) == 4 * 2 * width


def test_default_tile_set() -> None:
    # line 15: tongs only 1 and 16 for four players; line 17: all eight flowers or none.
    tiles = T.tile_set(full_winds=True, flowers=True, all_tongs=False)
    assert {T.rank_of(k) for k in tiles if k < 16} == {1, 16}
    assert tiles.count(T.ZERO) == 4
    assert [k for k in tiles if T.is_flower(k)] == list(T.FLOWERS)
    assert T.HORIZONTAL not in tiles
    compressed = T.tile_set(full_winds=False, flowers=False, all_tongs=False)
    assert {T.HORIZONTAL, T.VERTICAL} <= set(compressed)
    assert not set(T.FULL_WINDS) & set(compressed)


def test_rules_tile_counts() -> None:
    rules = UzjeRules(name="x")
    assert rules.wall_width == 22
    assert len(rules.tiles()) == 176
    # 176 tiles - 14 for the dealer - 3 x 13 - 16 in the dead wall.
    assert rules.live_wall == 176 - 14 - 39 - 16
    for preset in PRESETS.values():
        assert preset.live_wall > 4 * preset.players


def test_check_counts() -> None:
    in_play = T.kinds_in_play(full_winds=True, flowers=True, all_tongs=False)
    T.check_counts(T.parse_kinds("1t1t1t1tZZ"), in_play, "a hand")
    with pytest.raises(NotationError, match="5 copies of 1s"):
        T.check_counts(T.parse_kinds("11111s"), in_play, "a hand")
    with pytest.raises(NotationError, match="5t is not in play"):
        T.check_counts(T.parse_kinds("5t"), in_play, "a hand")
    with pytest.raises(NotationError, match="2 copies of h"):
        T.check_counts(T.parse_kinds("hh"), in_play, "a hand")
