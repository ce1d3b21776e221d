"""Tiles and MPSZ notation: parsing, formatting, kinds, dora indicators, Tenhou 136-ids.

Written from the notation and the table rules, not from the code's output: kinds follow the
Tenhou / ``mahjong`` layout (0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s, 27-33 = E S W N White
Green Red), ``0`` is a red five, and a dora indicator points at the next tile of its suit.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, NotationError
from engine.tiles import (
    HAKU,
    Tile,
    _parse_tiles_slowly,
    dora_from_indicator,
    format_counts,
    format_kind,
    format_tiles,
    is_honor,
    is_terminal,
    is_yaochuu,
    parse_counts,
    parse_tile,
    parse_tiles,
    tile_from_tenhou136,
    to_counts,
    wind_kind,
)


def kind(text: str) -> int:
    """The kind of one tile written in MPSZ."""
    return parse_tile(text).kind


# -- parsing and formatting ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["123m456p789s1122z", "19m19p19s1234567z", "406p", "055m", "1m", "7z", "11223344556677z"],
)
def test_sorted_notation_round_trips(text: str) -> None:
    assert format_tiles(parse_tiles(text)) == text


def test_parse_keeps_written_order_and_format_keeps_it_without_sort() -> None:
    tiles = parse_tiles("3m1m2p")
    assert [str(tile) for tile in tiles] == ["3m", "1m", "2p"]
    assert format_tiles(tiles) == "31m2p"


def test_format_with_sort_orders_suits_then_ranks_with_red_five_before_plain_five() -> None:
    assert format_tiles(parse_tiles("5z9s505p1m"), sort=True) == "1m055p9s5z"


def test_spaces_are_ignored() -> None:
    assert parse_tiles(" 123m 456p\t789s 11z ") == parse_tiles("123m456p789s11z")
    assert parse_tiles("1 2 3m") == parse_tiles("123m")


def test_zero_is_a_red_five_in_every_number_suit() -> None:
    tiles = parse_tiles("0m0p0s")
    assert [(tile.suit, tile.rank, tile.red) for tile in tiles] == [
        ("m", 5, True),
        ("p", 5, True),
        ("s", 5, True),
    ]
    assert all(str(tile) == f"0{tile.suit}" for tile in tiles)


def test_red_five_has_the_kind_of_a_five_but_is_a_different_tile() -> None:
    assert parse_tile("0p").kind == parse_tile("5p").kind == 13
    assert parse_tile("0p") != parse_tile("5p")


def test_empty_string_is_no_tiles() -> None:
    assert parse_tiles("") == []
    assert format_tiles([]) == ""


def test_honours_have_no_red_five() -> None:
    white = parse_tile("5z")
    assert not white.red
    assert white.kind == 31


def test_counts_round_trip() -> None:
    counts = parse_counts("123m456p789s1122z")
    assert len(counts) == 34
    assert sum(counts) == 13
    assert counts[27] == 2 and counts[28] == 2
    assert format_counts(counts) == "123m456p789s1122z"


def test_tile_names() -> None:
    assert parse_tile("0p").name == "5 circles (red)"
    assert parse_tile("3s").name == "3 bamboo"
    assert parse_tile("9m").name == "9 characters"
    assert [parse_tile(f"{rank}z").name for rank in range(1, 8)] == [
        "East",
        "South",
        "West",
        "North",
        "White",
        "Green",
        "Red",
    ]


# -- notation errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("m", ["'m'", "no digits before it"]),
        ("123mp", ["'p'", "position 4", "no digits"]),
        ("12", ["'12'", "no suit letter"]),
        ("123m45", ["'45'", "no suit letter"]),
        ("1x3m", ["'x'", "position 1", "m, p, s or z"]),
        ("123M", ["'M'", "position 3"]),
        ("5h", ["'h'"]),
        ("8z", ["8z", "1z-7z"]),
        ("0z", ["0z", "1z-7z"]),
        ("9z", ["9z"]),
    ],
)
def test_notation_errors_name_the_problem(text: str, words: list[str]) -> None:
    with pytest.raises(NotationError) as caught:
        parse_tiles(text)
    message = str(caught.value)
    for word in words:
        assert word in message, (word, message)


def test_notation_error_is_an_engine_error_and_a_value_error() -> None:
    with pytest.raises(EngineError):
        parse_tiles("1q")
    with pytest.raises(ValueError):
        parse_tiles("1q")
    assert NotationError.code == "bad_notation"


@pytest.mark.parametrize("text", ["", "12m", "1m1p"])
def test_parse_tile_needs_exactly_one_tile(text: str) -> None:
    with pytest.raises(NotationError, match="expected one tile"):
        parse_tile(text)


# -- kinds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1m", 0),
        ("5m", 4),
        ("0m", 4),
        ("9m", 8),
        ("1p", 9),
        ("9p", 17),
        ("1s", 18),
        ("0s", 22),
        ("9s", 26),
        ("1z", 27),  # East
        ("2z", 28),  # South
        ("3z", 29),  # West
        ("4z", 30),  # North
        ("5z", 31),  # White
        ("6z", 32),  # Green
        ("7z", 33),  # Red
    ],
)
def test_kinds_follow_the_34_layout(text: str, expected: int) -> None:
    assert kind(text) == expected
    assert format_kind(expected) == text.replace("0", "5")


def test_from_kind_round_trips_every_kind() -> None:
    for k in range(34):
        assert Tile.from_kind(k).kind == k
    assert Tile.from_kind(4, red=True) == parse_tile("0m")
    assert Tile.from_kind(22, red=True) == parse_tile("0s")


@pytest.mark.parametrize("bad", [-1, 34, 100])
def test_from_kind_rejects_kinds_outside_0_33(bad: int) -> None:
    with pytest.raises(NotationError, match=str(bad)):
        Tile.from_kind(bad)


def test_only_fives_can_be_red() -> None:
    with pytest.raises(NotationError, match="only fives can be red"):
        Tile.from_kind(3, red=True)


def test_terminal_honour_predicates() -> None:
    assert [k for k in range(34) if is_terminal(k)] == [0, 8, 9, 17, 18, 26]
    assert [k for k in range(34) if is_honor(k)] == list(range(27, 34))
    assert [k for k in range(34) if is_yaochuu(k)] == [0, 8, 9, 17, 18, 26, *range(27, 34)]


@pytest.mark.parametrize(("letter", "expected"), [("E", 27), ("S", 28), ("W", 29), ("N", 30)])
def test_wind_letters(letter: str, expected: int) -> None:
    assert wind_kind(letter) == expected
    assert wind_kind(letter.lower()) == expected


def test_bad_wind_letter() -> None:
    with pytest.raises(NotationError, match="'X'"):
        wind_kind("X")


# -- dora indicators -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("1m", "2m"),
        ("4m", "5m"),
        ("8m", "9m"),
        ("9m", "1m"),
        ("1p", "2p"),
        ("9p", "1p"),
        ("5s", "6s"),
        ("9s", "1s"),
        ("1z", "2z"),  # East -> South
        ("2z", "3z"),  # South -> West
        ("3z", "4z"),  # West -> North
        ("4z", "1z"),  # North -> East
        ("5z", "6z"),  # White -> Green
        ("6z", "7z"),  # Green -> Red
        ("7z", "5z"),  # Red -> White
    ],
)
def test_dora_is_the_next_tile_with_wraps(indicator: str, dora: str) -> None:
    assert dora_from_indicator(kind(indicator)) == kind(dora)


def test_red_five_indicator_points_at_the_six() -> None:
    assert dora_from_indicator(kind("0p")) == kind("6p")


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("1m", "9m"),  # 2m-8m do not exist in 3-player
        ("9m", "1m"),
        ("9p", "1p"),
        ("4p", "5p"),
        ("9s", "1s"),
        ("3z", "4z"),  # West -> North, the extracted tile
        ("4z", "1z"),
        ("7z", "5z"),
    ],
)
def test_three_player_dora(indicator: str, dora: str) -> None:
    assert dora_from_indicator(kind(indicator), three_player=True) == kind(dora)


# -- Tenhou 136 ids ------------------------------------------------------------------------------


@pytest.mark.parametrize(("tile_id", "text"), [(16, "0m"), (52, "0p"), (88, "0s")])
def test_tenhou_red_five_ids(tile_id: int, text: str) -> None:
    assert tile_from_tenhou136(tile_id) == parse_tile(text)
    assert tile_from_tenhou136(tile_id, red_fives=False) == parse_tile(text.replace("0", "5"))


@pytest.mark.parametrize(
    ("tile_id", "text"),
    [
        (0, "1m"),
        (3, "1m"),
        (17, "5m"),
        (19, "5m"),
        (35, "9m"),
        (36, "1p"),
        (53, "5p"),
        (89, "5s"),
        (108, "1z"),
        (123, "4z"),
        (124, "5z"),
        (135, "7z"),
    ],
)
def test_tenhou_ids_are_four_per_kind(tile_id: int, text: str) -> None:
    assert tile_from_tenhou136(tile_id) == parse_tile(text)


@pytest.mark.parametrize("bad", [-1, 136])
def test_tenhou_id_out_of_range(bad: int) -> None:
    with pytest.raises(NotationError, match="0-135"):
        tile_from_tenhou136(bad)


@pytest.mark.parametrize(
    ("suit", "rank", "red"), [("m", 10, False), ("p", 0, False), ("z", 8, False), ("z", 1, True)]
)
def test_tiles_outside_the_standard_set_are_refused(suit: str, rank: int, red: bool) -> None:
    with pytest.raises(NotationError):
        Tile(suit, rank, red)


def test_only_fives_are_red() -> None:
    with pytest.raises(NotationError, match="only fives"):
        Tile("s", 3, red=True)
    with pytest.raises(NotationError, match="only fives"):
        Tile.from_kind(HAKU, red=True)


def test_a_variant_suit_has_no_standard_kind() -> None:
    flower = Tile("f", 1)
    assert flower.kind == -1
    with pytest.raises(NotationError, match="standard"):
        to_counts([flower])


# ``parse_tiles`` reads the usual spelling by table and hands anything else to a loop that
# words the problem; the two must agree on every text, whatever the fast path takes or leaves.
# Digits and suit letters mostly (letters twice: runs are short), with the spellings the table
# leaves to the loop: spaces, a tab, a stray letter.
_NOTATION_ALPHABET = "0123456789mpszmpsz  x\t"


@given(st.text(alphabet=_NOTATION_ALPHABET, max_size=24))
@settings(max_examples=3000, deadline=None)
def test_the_table_reading_agrees_with_the_character_loop(text: str) -> None:
    def outcome(parse: Callable[[str], list[Tile]]) -> object:
        try:
            return parse(text)
        except NotationError as error:
            return ("error", str(error))

    assert outcome(parse_tiles) == outcome(_parse_tiles_slowly)


@pytest.mark.parametrize("text", ["123m406p789s1234567z", "0m0p0s", "55z", "9s9s", ""])
def test_usual_spellings_give_the_shared_tiles(text: str) -> None:
    # The same objects the character loop hands out (tiles are interned: identity, not just
    # equality, is what keeps a game's tiles few).
    fast, slow = parse_tiles(text), _parse_tiles_slowly(text)
    assert [id(tile) for tile in fast] == [id(tile) for tile in slow]
