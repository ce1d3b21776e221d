"""The canonical game record (engine/events.py): derived properties, the event registry, and the
value semantics (frozen, hashable, red fives distinct) that the codec and the replayer rely on."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from engine.events import (
    EVENT_TYPES,
    FORMAT_VERSION,
    ROUND_ENDS,
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    Game,
    GameHeader,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Player,
    Pon,
    RecordedWin,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    ScoreChange,
    Source,
    Swap,
    Win,
)
from engine.tiles import parse_tile, parse_tiles

FIVE = parse_tile("5m")
RED_FIVE = parse_tile("0m")

#: One instance of every event class, each field set to a hashable value (tuples, not lists).
ONE_OF_EACH: tuple[Event, ...] = (
    Draw(seat=0, tile=FIVE),
    Discard(seat=0, tile=RED_FIVE, tsumogiri=True),
    Chi(seat=1, from_seat=0, tile=parse_tile("3p"), consumed=tuple(parse_tiles("24p"))),
    Pon(seat=2, from_seat=1, tile=parse_tile("7z"), consumed=tuple(parse_tiles("77z"))),
    OpenKan(seat=3, from_seat=2, tile=FIVE, consumed=(RED_FIVE, FIVE, FIVE)),
    ClosedKan(seat=0, tiles=tuple(parse_tiles("1111z"))),
    AddedKan(seat=2, tile=parse_tile("7z")),
    NorthExtraction(seat=1, tile=parse_tile("4z")),
    RiichiDeclared(seat=3),
    RiichiAccepted(seat=3),
    DoraRevealed(indicator=parse_tile("9s")),
    Win(
        seat=0,
        from_seat=3,
        tile=parse_tile("6m"),
        recorded=RecordedWin(
            han=3,
            fu=40,
            yaku=(("riichi", 1), ("dora", 2)),
            points=5200,
            deltas=(5200, 0, 0, -5200),
            hand=tuple(parse_tiles("12345m")),
        ),
    ),
    ExhaustiveDraw(recorded_tenpai=(0, 2), recorded_deltas=(1500, -1500, 1500, -1500)),
    AbortiveDraw(kind=AbortKind.NINE_TERMINALS, seat=1),
    NagashiMangan(seats=(2,), recorded_deltas=(-4000, -2000, 8000, -2000)),
    ScoreChange(deltas=(-1000, 1000, 0, 0), reason="penalty"),
    Swap(seat=2, tile=RED_FIVE, indicator=parse_tile("9s")),
)


def _round(wind: int, number: int) -> Round:
    return Round(
        wind=wind,
        number=number,
        dealer=number - 1,
        honba=0,
        sticks=0,
        scores=(25000,) * 4,
        hands=((),) * 4,
        dora_indicators=(parse_tile("1z"),),
        events=(),
    )


# -- Win.tsumo ------------------------------------------------------------------------------------


def test_a_win_from_ones_own_seat_is_tsumo() -> None:
    assert Win(seat=2, from_seat=2, tile=FIVE).tsumo


@pytest.mark.parametrize("discarder", [0, 1, 3])
def test_a_win_on_another_seat_is_ron(discarder: int) -> None:
    assert not Win(seat=2, from_seat=discarder, tile=FIVE).tsumo


# -- Round.name -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wind", "number", "name"),
    [(0, 1, "E1"), (0, 4, "E4"), (1, 1, "S1"), (1, 3, "S3"), (2, 2, "W2"), (3, 4, "N4")],
)
def test_round_name_is_wind_letter_and_hand_number(wind: int, number: int, name: str) -> None:
    assert _round(wind, number).name == name


# -- the event registry ---------------------------------------------------------------------------


def test_event_types_lists_every_class_of_the_event_alias() -> None:
    alias_classes = set(typing.get_args(Event))
    assert set(EVENT_TYPES.values()) == alias_classes
    # Distinct type names: a repeated name would silently drop a class from the dict.
    assert len(EVENT_TYPES) == len(alias_classes)


def test_event_types_are_keyed_by_each_class_type_name() -> None:
    for name, cls in EVENT_TYPES.items():
        assert cls.type == name


def test_type_is_a_class_constant_not_a_field() -> None:
    """The codec writes ``type`` itself and reads the fields by name: a ``type`` field would be
    written twice and demanded as a constructor argument."""
    for cls in EVENT_TYPES.values():
        assert "type" not in {spec.name for spec in dataclasses.fields(cls)}, cls.__name__


def test_the_fixture_has_one_event_of_every_type() -> None:
    assert sorted(event.type for event in ONE_OF_EACH) == sorted(EVENT_TYPES)


def test_round_ends_are_the_win_and_draw_events() -> None:
    assert set(ROUND_ENDS) == {Win, ExhaustiveDraw, AbortiveDraw, NagashiMangan}
    assert set(ROUND_ENDS) <= set(typing.get_args(Event))


def test_abort_kinds_are_the_five_abortive_draws() -> None:
    assert {kind.value for kind in AbortKind} == {
        "nine_terminals",
        "four_winds",
        "four_riichi",
        "four_kans",
        "triple_ron",
    }


def test_format_version_is_1() -> None:
    # docs/format.md and engine/schema/game.schema.json describe version 1; bumping the version
    # means updating both (and keeping a reader for version 1).
    assert FORMAT_VERSION == 1


# -- value semantics ------------------------------------------------------------------------------


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=lambda event: event.type)
def test_events_are_frozen(event: Event) -> None:
    first_field = dataclasses.fields(event)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(event, first_field, getattr(event, first_field))


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=lambda event: event.type)
def test_events_with_hashable_fields_are_hashable_values(event: Event) -> None:
    twin = dataclasses.replace(event)
    assert twin is not event
    assert twin == event
    assert hash(twin) == hash(event)
    assert len({event, twin}) == 1


def test_events_differ_when_a_field_differs() -> None:
    assert Draw(seat=0, tile=FIVE) != Draw(seat=1, tile=FIVE)
    assert Discard(seat=0, tile=FIVE) != Discard(seat=0, tile=FIVE, tsumogiri=True)
    # A red five is a different tile from a plain five (the codec writes 0m and 5m).
    assert Draw(seat=0, tile=RED_FIVE) != Draw(seat=0, tile=FIVE)


def test_events_of_different_types_with_equal_fields_differ() -> None:
    assert RiichiDeclared(seat=1) != RiichiAccepted(seat=1)
    assert AddedKan(seat=1, tile=FIVE) != NorthExtraction(seat=1, tile=FIVE)


def test_a_round_of_events_is_hashable() -> None:
    events_round = dataclasses.replace(_round(0, 1), events=ONE_OF_EACH)
    assert hash(events_round) == hash(dataclasses.replace(events_round))


def test_a_header_with_a_mapping_is_frozen_but_unhashable() -> None:
    """Headers hold dicts (rule overrides, source extras): frozen, compared by value, not
    hashable. Code that needs a key for a game must not hash the header."""
    header = GameHeader(
        ruleset="tenhou-4p",
        rule_overrides={},
        players=(Player("a"), Player("b")),
        source=Source(format="canonical", extra={"lobby": "0"}),
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        header.ruleset = "tenhou-3p"  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(header)


def test_game_players_counts_the_seats() -> None:
    three = GameHeader(
        ruleset="tenhou-3p",
        rule_overrides={},
        players=(Player("a"), Player("b"), Player("c")),
        source=Source(format="canonical"),
    )
    assert Game(header=three, rounds=()).players == 3
