"""Called melds: what makes a chi, a pon and each kind of kan valid, and their properties."""

from __future__ import annotations

import pytest

from engine.errors import EngineError, InvalidHandError
from engine.hand.melds import Meld, MeldType
from engine.tiles import parse_tiles

# -- valid melds ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld_type", "tiles"),
    [
        ("chi", "123m"),
        ("chi", "789s"),
        ("chi", "406p"),  # a red five is a five
        ("chi", "312p"),  # tiles in any order
        ("pon", "555z"),
        ("pon", "111m"),
        ("pon", "055s"),
        ("minkan", "9999p"),
        ("ankan", "1111z"),
        ("kakan", "0555m"),
    ],
)
def test_valid_melds(meld_type: str, tiles: str) -> None:
    meld = Meld.parse(meld_type, tiles)
    assert meld.type is MeldType(meld_type)
    assert meld.tiles == tuple(parse_tiles(tiles))


def test_meld_kind_is_the_lowest_tile() -> None:
    assert Meld.parse("chi", "312p").kind == 9  # 1p
    assert Meld.parse("pon", "777z").kind == 33
    assert Meld.parse("chi", "406p").kind == 12  # 4p


def test_open_and_closed() -> None:
    assert Meld.parse("chi", "123m").is_open
    assert Meld.parse("pon", "111z").is_open
    assert Meld.parse("minkan", "1111m").is_open
    assert Meld.parse("kakan", "1111m").is_open
    # A closed kan does not open the hand.
    assert not Meld.parse("ankan", "1111m").is_open


def test_kan_and_run_flags() -> None:
    assert [Meld.parse(t, "2222m").is_kan for t in ("minkan", "ankan", "kakan")] == [True] * 3
    assert not Meld.parse("pon", "222m").is_kan
    assert not Meld.parse("chi", "234m").is_kan
    assert Meld.parse("chi", "234m").is_run
    assert not Meld.parse("pon", "222m").is_run


def test_meld_str() -> None:
    assert str(Meld.parse("pon", "555z")) == "pon(555z)"
    assert str(Meld.parse("chi", "406p")) == "chi(406p)"


# -- invalid melds -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld_type", "tiles", "words"),
    [
        ("chi", "124m", "consecutive"),
        ("chi", "135p", "consecutive"),
        ("chi", "12m3p", "one suit"),
        ("chi", "123z", "consecutive"),  # honours never make a run
        ("chi", "567z", "consecutive"),
        ("chi", "891m", "consecutive"),  # no wrap-around from 9 to 1
        ("chi", "12m", "three"),
        ("chi", "1234m", "three"),
        ("chi", "111m", "consecutive"),
        ("pon", "556z", "identical"),
        ("pon", "55z", "3 identical"),
        ("pon", "5555z", "3 identical"),
        ("pon", "123m", "identical"),
        ("minkan", "999p", "4 identical"),
        ("ankan", "11112m", "4 identical"),
        ("kakan", "5556m", "4 identical"),
        ("ankan", "1111m1p", "4 identical"),
    ],
)
def test_invalid_melds_are_rejected_with_the_reason(meld_type: str, tiles: str, words: str) -> None:
    with pytest.raises(InvalidHandError) as caught:
        Meld.parse(meld_type, tiles)
    message = str(caught.value)
    assert words in message
    assert meld_type in message


def test_unknown_meld_type_lists_the_types() -> None:
    with pytest.raises(InvalidHandError) as caught:
        Meld.parse("kong", "1111m")
    message = str(caught.value)
    assert "'kong'" in message
    for name in ("chi", "pon", "minkan", "ankan", "kakan"):
        assert name in message


def test_meld_with_bad_notation() -> None:
    with pytest.raises(EngineError):
        Meld.parse("pon", "55x")


def test_meld_errors_are_invalid_hand() -> None:
    assert InvalidHandError.code == "invalid_hand"
