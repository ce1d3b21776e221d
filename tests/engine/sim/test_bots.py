"""The bots' choices on hand-made positions: what the greedy bot takes, calls and throws away,
and the random bot's passing rules."""

from __future__ import annotations

import random

import pytest

from engine.events import (
    AbortiveDraw,
    AbortKind,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    NorthExtraction,
    Pon,
    RiichiDeclared,
    Round,
    Win,
)
from engine.rules import get_ruleset
from engine.sim.bots import GreedyBot, RandomBot, is_claim
from engine.state import GameState, Phase
from engine.tiles import parse_tile, parse_tiles

T = parse_tile

# Hands for the other seats that stay far from tenpai and leave room for the tested tiles.
FILL = ("119m119p119s1234z", "889m889p889s1234z", "66m66p78p66s77s123z")
# Pair-heavy fillers for hands made of honours and terminals.
FILL_PAIRS = ("11m99m11p99p11s99s7z", "22m88m22p88p22s88s6z", "33m77m33p77p33s77s3z")


def started(
    hands: tuple[str, ...], *, ruleset: str = "tenhou-4p-nored", dora: str = "9m"
) -> GameState:
    """A state at the start of East 1 with these hands (seat 0 deals)."""
    rules = get_ruleset(ruleset)
    round_ = Round(
        wind=0,
        number=1,
        dealer=0,
        honba=0,
        sticks=0,
        scores=(rules.starting_points,) * rules.players,
        hands=tuple(tuple(parse_tiles(hand)) for hand in hands),
        dora_indicators=(T(dora),),
        events=(),
    )
    state = GameState(rules)
    state.start_round(round_)
    return state


def play(state: GameState, *events: Event) -> GameState:
    for event in events:
        state.apply(event)
    return state


def options(state: GameState, seat: int, *kinds: type) -> list[Event]:
    """The seat's legal events now (only of these types, when given)."""
    return [
        event
        for event in state.legal_actions()
        if getattr(event, "seat", None) == seat and (not kinds or isinstance(event, kinds))
    ]


def dealer_turn(hand: str, draw: str, **kwargs: str) -> tuple[GameState, list[Event]]:
    """The dealer holds ``hand`` and draws ``draw``; the state and the dealer's options."""
    state = play(started((hand, *FILL), **kwargs), Draw(0, T(draw)))
    return state, options(state, 0)


# -- discards -------------------------------------------------------------------------------


def test_discards_the_isolated_guest_wind_before_the_double_east() -> None:
    # 2p 3p 1z 4z all leave the hand one from tenpai; East is the dealer's seat and round
    # wind (a pair of it would be a yaku), North is nothing.
    state, turn = dealer_turn("123m456p789s22p14z", "3p")
    assert GreedyBot().choose(state, 0, turn) == Discard(0, T("4z"))


def test_keeps_a_dora_even_when_it_is_an_isolated_honour() -> None:
    state, turn = dealer_turn("123m456p789s22p14z", "3p", dora="3z")  # North is dora
    assert GreedyBot().choose(state, 0, turn) == Discard(0, T("1z"))


def test_shanten_comes_before_loneliness() -> None:
    # One from thirteen orphans: the lone fives are the tiles to throw, though the lone winds
    # look worse by shape alone.
    state = play(started(("19m19p19s123456z5s", *FILL_PAIRS)), Draw(0, T("5p")))
    choice = GreedyBot().choose(state, 0, options(state, 0))
    assert choice in (Discard(0, T("5p"), tsumogiri=True), Discard(0, T("5s")))


# -- wins and riichi ------------------------------------------------------------------------


def test_wins_by_tsumo_whenever_it_can() -> None:
    state, turn = dealer_turn("123m456m789m23p55s", "4p")
    assert Win(0, 0, T("4p")) in turn and RiichiDeclared(0) in turn
    assert GreedyBot().choose(state, 0, turn) == Win(0, 0, T("4p"))


def test_wins_by_ron_whenever_it_can() -> None:
    hands = ("119m119p119s1234z", "123m456m789m23p55s", FILL[1], FILL[2])
    state = play(
        started(hands),
        *(
            event
            for seat, tile in enumerate(("5z", "6z", "7z", "5z"))
            for event in (Draw(seat, T(tile)), Discard(seat, T(tile), tsumogiri=True))
        ),
        Draw(0, T("4p")),
        Discard(0, T("4p"), tsumogiri=True),
    )
    claim = options(state, 1)
    chi = Chi(1, 0, T("4p"), (T("2p"), T("3p")))
    assert set(claim) == {chi, Win(1, 0, T("4p"))}
    for offered in (claim, claim[::-1]):
        assert GreedyBot().choose(state, 1, offered) == Win(1, 0, T("4p"))


def test_declares_riichi_when_tenpai_and_closed() -> None:
    state, turn = dealer_turn("123m456m789m23p55s", "1z")
    assert GreedyBot().choose(state, 0, turn) == RiichiDeclared(0)


def test_riichi_discard_keeps_the_widest_wait() -> None:
    # Throwing 2p waits on 4p alone (kanchan 3-5p); throwing 5p waits on 1p and 4p. The
    # loneliest tile is 2p, so only the wait count can pick 5p.
    state, turn = dealer_turn("234567m23p567s55z", "5p")
    assert RiichiDeclared(0) in turn
    play(state, RiichiDeclared(0))
    assert state.phase is Phase.RIICHI
    riichi_discards = options(state, 0)
    assert {event.tile for event in riichi_discards if isinstance(event, Discard)} == {
        T("2p"),
        T("5p"),
    }
    assert GreedyBot().choose(state, 0, riichi_discards) == Discard(0, T("5p"), tsumogiri=True)


# -- calls ----------------------------------------------------------------------------------

# Seat 0 throws what the others may call. Seat 2 holds a pair of Red dragons and a pair of 1s,
# two shapes short of tenpai; seat 1 holds 23m in an all-simples hand.
CALL_HANDS = (
    "119m119p119s14m23z",
    "23m567p678s33p468s",
    "77z234m56p78p25s11s",
    "34m34p34s456m456p6z",
)


def discarded(tile: str, ruleset: str = "tenhou-4p-nored") -> GameState:
    """Seat 0 (holding CALL_HANDS[0] with a Red dragon drawn) has just thrown ``tile``."""
    hands = ("119m119p119s14m27z", *CALL_HANDS[1:]) if tile == "7z" else CALL_HANDS
    draw = "4z" if tile != "4z" else "2z"
    return play(started(hands, ruleset=ruleset), Draw(0, T(draw)), Discard(0, T(tile)))


def test_pons_a_dragon_that_lowers_the_shanten() -> None:
    state = discarded("7z")
    claim = options(state, 2)
    assert claim == [Pon(2, 0, T("7z"), (T("7z"), T("7z")))]
    assert GreedyBot().choose(state, 2, claim) == claim[0]


def test_passes_a_pon_that_leaves_no_yaku_in_reach() -> None:
    # A pon of 1s would lower the shanten too, but the hand has no yakuhai set, no simples,
    # and seven tiles outside the bamboo suit.
    state = discarded("1s")
    claim = options(state, 2, Pon)
    assert claim == [Pon(2, 0, T("1s"), (T("1s"), T("1s")))]
    assert GreedyBot().choose(state, 2, claim) is None


def test_chis_for_open_tanyao() -> None:
    state = discarded("4m")
    claim = options(state, 1)
    assert claim == [Chi(1, 0, T("4m"), (T("2m"), T("3m")))]
    assert GreedyBot().choose(state, 1, claim) == claim[0]


def test_no_chi_for_tanyao_without_open_tanyao() -> None:
    state = discarded("4m", ruleset="tenhou-4p-nored-nokuitan")
    claim = options(state, 1)
    assert claim == [Chi(1, 0, T("4m"), (T("2m"), T("3m")))]
    assert GreedyBot().choose(state, 1, claim) is None


# -- kans, kita, nine terminals -------------------------------------------------------------


def test_declares_a_closed_kan_that_keeps_the_shanten() -> None:
    state = play(started(("123m456p789s2222z", *FILL_PAIRS)), Draw(0, T("5z")))
    turn = options(state, 0)
    kan = ClosedKan(0, (T("2z"),) * 4)
    assert kan in turn and RiichiDeclared(0) in turn
    assert GreedyBot().choose(state, 0, turn) == kan


def test_extracts_north_in_sanma() -> None:
    hands = ("19m123p456p789s4z5z", "11m99m11p99p11s99s7z", "22p88p22s88s3366z7z")
    state = play(started(hands, ruleset="tenhou-3p", dora="1p"), Draw(0, T("6z")))
    turn = options(state, 0)
    assert NorthExtraction(0, T("4z")) in turn
    assert GreedyBot().choose(state, 0, turn) == NorthExtraction(0, T("4z"))


def test_aborts_on_nine_terminals_far_from_thirteen_orphans() -> None:
    state = play(started(("19m19p19s1234z556p", *FILL_PAIRS)), Draw(0, T("7p")))
    turn = options(state, 0)
    assert GreedyBot().choose(state, 0, turn) == AbortiveDraw(AbortKind.NINE_TERMINALS, 0)


def test_plays_on_with_eleven_terminal_kinds() -> None:
    # Two tiles from thirteen orphans: worth playing for.
    state = play(started(("19m19p19s12345z55p", *FILL_PAIRS)), Draw(0, T("7p")))
    turn = options(state, 0)
    assert AbortiveDraw(AbortKind.NINE_TERMINALS, 0) in turn
    choice = GreedyBot().choose(state, 0, turn)
    assert isinstance(choice, Discard)
    assert choice.tile.kind not in {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31}


# -- the random bot -------------------------------------------------------------------------


def test_random_bot_always_plays_on_its_turn() -> None:
    state, turn = dealer_turn("123m456p789s22p14z", "3p")
    bot = RandomBot(random.Random(1), pass_rate=1.0)
    choices = {bot.choose(state, 0, turn) for _ in range(200)}
    assert None not in choices
    assert choices == set(turn)  # uniform over 200 picks reaches every option


@pytest.mark.parametrize(("pass_rate", "passes"), [(1.0, True), (0.0, False)])
def test_random_bot_passes_claims_at_its_rate(pass_rate: float, passes: bool) -> None:
    state = discarded("7z")
    claim = options(state, 2)
    bot = RandomBot(random.Random(2), pass_rate=pass_rate)
    choices = {bot.choose(state, 2, claim) for _ in range(50)}
    assert choices == ({None} if passes else set(claim))


def test_is_claim_tells_turns_from_claims() -> None:
    _, turn = dealer_turn("123m456m789m23p55s", "4p")
    assert not is_claim(turn)
    assert not is_claim([Win(0, 0, T("4p")), Discard(0, T("4p"))])
    assert is_claim([Win(1, 0, T("4p"))])
    assert is_claim([Pon(2, 0, T("7z"), (T("7z"), T("7z")))])
