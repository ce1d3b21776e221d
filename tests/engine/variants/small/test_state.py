"""The state machine plays small mahjong (``seeds/004``): what it allows and what it refuses.

Hand-made 4-tile deals (``small-4p-4``) keep the scenarios short. Seed lines refer to
``../shared/seeds/004_1679fc2b9b5d2e6b.txt``.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    ExhaustiveDraw,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Win,
)
from engine.rules import get_ruleset
from engine.state import GameState, Phase
from engine.tiles import Tile, parse_tile, parse_tiles
from tests.engine.variants.small.helpers import deal

#: Seat 0 (the dealer) waits on 1m/4m; seat 1 holds one 4m and is far from winning; seat 2 waits
#: on 4m/7m without riichi; seat 3 holds two 4m.
HANDS = ["23m99s", "4m68p1s", "56m11p", "44m13s"]


def T(text: str) -> Tile:
    return parse_tile(text)


def play(state: GameState, *events: object) -> None:
    for event in events:
        state.apply(event)  # type: ignore[arg-type]


def test_the_dealer_draws_first() -> None:
    # seeds/004 line 71: after the deal the players take turns drawing, the dealer first.
    state = deal(HANDS, ruleset="small-4p-4", dealer=2)
    assert state.phase is Phase.DRAW and state.turn == 2
    assert state.why_illegal(Draw(0, T("5p"))) == "seat 2 draws next, not seat 0"
    assert state.tiles_left == 56  # seeds/004 line 58: 14 stock tiles per player


def riichi_then_discard_4m() -> GameState:
    """The dealer declares riichi on the first draw (a double riichi); seat 1 discards 4m."""
    state = deal(HANDS, ruleset="small-4p-4")
    play(state, Draw(0, T("5p")))
    # seeds/004 line 73: reach only when one tile is enough to win (seat 0 is).
    play(state, RiichiDeclared(0), Discard(0, T("5p"), tsumogiri=True), RiichiAccepted(0))
    play(state, Draw(1, T("7s")))
    # Seat 1 is two tiles from winning: no reach.
    assert state.why_illegal(RiichiDeclared(1)) == "seat 1 is not tenpai and cannot declare riichi"
    play(state, Discard(1, T("4m")))
    return state


def test_ron_needs_reach() -> None:
    # seeds/004 line 75: after reach the player may ron; line 90: not without reach.
    state = riichi_then_discard_4m()
    assert state.completes(2, T("4m").kind)  # seat 2 would win on it ...
    problem = state.why_illegal(Win(2, 1, T("4m")))  # ... but has not declared riichi
    assert problem is not None and "has not declared riichi" in problem
    assert Win(2, 1, T("4m")) not in state.legal_actions()
    assert Win(0, 1, T("4m")) in state.legal_actions()


def test_ron_after_reach_is_paid_by_the_discarder() -> None:
    # seeds/004 line 75 and 81: the reached dealer rons seat 1's 4m; seat 1 alone pays.
    # Double Reach 2 (line 111: declared on the first draw), One Shot 1 (line 103: before the
    # dealer's next discard), All Sequences 1 (line 108: 23m waited on 1m or 4m): 4 points,
    # times three opponents (line 79).
    state = riichi_then_discard_4m()
    play(state, Win(0, 1, T("4m")))
    result = state.result
    assert result is not None
    [win] = result.wins
    assert {entry.name: entry.han for entry in win.score.yaku} == {
        "double_riichi": 2,
        "ippatsu": 1,
        "pinfu": 1,
    }
    assert win.deltas == (12, -12, 0, 0)
    # seeds/004 line 94: no repeat for the dealer who won: the deal passes, no counters.
    following = state.end_round()
    assert following is not None and following.dealer == 1 and following.honba == 0
    assert state.scores == [12, -12, 0, 0]


def test_no_calls() -> None:
    # seeds/004 line 89: "The players can NOT open meld".
    state = riichi_then_discard_4m()
    refused = "there are no calls in small-4p-4: no chi, pon or open kan"
    assert state.why_illegal(Pon(3, 1, T("4m"), (T("4m"), T("4m")))) == refused
    assert state.why_illegal(Chi(2, 1, T("4m"), (T("5m"), T("6m")))) == refused
    assert state.why_illegal(OpenKan(3, 1, T("4m"), (T("4m"),) * 3)) == refused
    assert not any(isinstance(a, Chi | Pon | OpenKan) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="no calls"):
        state.apply(Pon(3, 1, T("4m"), (T("4m"), T("4m"))))


def test_no_kans() -> None:
    # Our choice (docs/variants/small.md): no closed kan either.
    state = deal(["1111m", "23m99s", "56m11p", "55m13s"], ruleset="small-4p-4")
    play(state, Draw(0, T("5p")))
    assert state.why_illegal(ClosedKan(0, (T("1m"),) * 4)) == "there are no kans in small-4p-4"
    assert not any(isinstance(action, ClosedKan) for action in state.legal_actions())


def test_the_hand_cannot_change_after_reach() -> None:
    # seeds/004 line 75: "If the player declares Reach, the hand cannot be changed".
    state = deal(HANDS, ruleset="small-4p-4")
    play(state, Draw(0, T("5p")), RiichiDeclared(0), Discard(0, T("5p"), tsumogiri=True))
    play(state, RiichiAccepted(0))
    for seat, tile in ((1, "7s"), (2, "9p"), (3, "1s")):
        play(state, Draw(seat, T(tile)), Discard(seat, T(tile), tsumogiri=True))
    play(state, Draw(0, T("8p")))
    problem = state.why_illegal(Discard(0, T("2m")))
    assert problem == "seat 0 is in riichi and must discard the drawn tile 8p, not 2m"
    assert [a for a in state.legal_actions() if isinstance(a, Discard)] == [
        Discard(0, T("8p"), tsumogiri=True)
    ]


def test_tsumo_needs_no_reach() -> None:
    # seeds/004 line 77: tsumo without reach; line 83: every other player pays the total.
    # Win from Stock 1 (line 106) and All Sequences 1 (line 108): 2 points from each.
    state = deal(HANDS, ruleset="small-4p-4")
    play(state, Draw(0, T("5p")), Discard(0, T("5p"), tsumogiri=True))
    for seat, tile in ((1, "7s"), (2, "9p"), (3, "1s")):
        play(state, Draw(seat, T(tile)), Discard(seat, T(tile), tsumogiri=True))
    play(state, Draw(0, T("4m")), Win(0, 0, T("4m")))
    assert state.result is not None
    [win] = state.result.wins
    assert {entry.name: entry.han for entry in win.score.yaku} == {"menzen_tsumo": 1, "pinfu": 1}
    assert win.deltas == (6, -2, -2, -2)


def test_blessing_of_heaven_in_play() -> None:
    # seeds/004 line 124: the dealer wins on the first draw: 16 from each other player.
    state = deal(HANDS, ruleset="small-4p-4")
    play(state, Draw(0, T("4m")), Win(0, 0, T("4m")))
    assert state.result is not None
    assert state.result.wins[0].deltas == (48, -16, -16, -16)


def test_reach_costs_nothing_even_below_zero() -> None:
    # Our choice: no deposit for reach, so no minimum score (scores start at 0, line 79 pays
    # points from 0, and there is no bust).
    state = deal(HANDS, ruleset="small-4p-4", scores=(-20, 0, 0, 20))
    play(state, Draw(0, T("5p")), RiichiDeclared(0), Discard(0, T("5p"), tsumogiri=True))
    play(state, RiichiAccepted(0))
    assert state.scores == [-20, 0, 0, 20] and state.sticks == 0


def test_no_abortive_draws() -> None:
    # seeds/004 line 95: "No abortive draws".
    state = deal(HANDS, ruleset="small-4p-4")
    play(state, Draw(0, T("5p")))
    problem = state.why_illegal(AbortiveDraw(AbortKind.NINE_TERMINALS, 0))
    assert problem == "nine terminals is not an abortive draw in small-4p-4"
    assert not any(isinstance(action, AbortiveDraw) for action in state.legal_actions())


def test_a_deal_of_the_wrong_size_is_refused() -> None:
    # seeds/004 line 60: 4, 7, 10 or 13 dealt tiles, as the rule set says.
    with pytest.raises(IllegalActionError, match="seat 0 is dealt 14 tiles, not 13"):
        deal(["12345678912345m", "1234567891234p", "1234567891234s", "5555666677m88p"])
    with pytest.raises(IllegalActionError, match="seat 1 is dealt 5 tiles, not 4"):
        deal(["23m99s", "4m68p1s5p", "56m11p", "44m13s"], ruleset="small-4p-4")


def test_honour_tiles_are_refused() -> None:
    # seeds/004 line 91: "No honor tiles", in the deal and in a draw.
    with pytest.raises(IllegalActionError, match="1z is an honour tile; small-4p-4 has none"):
        deal(["23m1z9s", "4m68p1s", "56m11p", "44m13s"], ruleset="small-4p-4")
    state = deal(HANDS, ruleset="small-4p-4")
    assert state.push(Draw(0, T("7z"))) == "seat 0 draws 7z is an honour tile; small-4p-4 has none"


def test_dora_indicators_are_refused() -> None:
    # seeds/004 line 92: "No dora tiles": a hand starts with no indicator.
    with pytest.raises(IllegalActionError, match="no dora indicator"):
        deal(HANDS, ruleset="small-4p-4", indicators="5m")


def test_three_players_keep_every_number_tile() -> None:
    # seeds/004 line 42 (4 or fewer players) and line 44 (108 tiles): 2m-8m stay with three.
    state = deal(
        ["23m99s", "4m68p1s", "56m11p"], ruleset=get_ruleset("small-3p").replace(dealt_tiles=4)
    )
    assert state.tiles_left == 42
    play(state, Draw(0, T("5m")))
    assert state.phase is Phase.ACT


def test_the_wall_runs_out_into_a_draw_that_pays_nothing() -> None:
    # seeds/004 line 85: "In case of no more tiles in the stock, the game is drawn"; our choice:
    # an exhaustive draw pays nothing.
    state = deal(["23m99s", "4m68p1s"], ruleset=get_ruleset("small-2p").replace(dealt_tiles=4))
    tiles = iter(parse_tiles("1p2p3p4p5p6p7p8p9p1s2s3s4s5s6s7s8s9s1p2p3p4p5p6p7p8p9p1s"))
    for _ in range(14):
        for seat in (0, 1):
            tile = next(tiles)
            play(state, Draw(seat, tile), Discard(seat, tile, tsumogiri=True))
    assert state.tiles_left == 0
    assert state.why_illegal(Draw(0, T("1m"))) == "the wall is exhausted"
    play(state, ExhaustiveDraw())
    assert state.result is not None and state.result.deltas == [0, 0]
    assert state.result.tenpai == (0,)
