"""The Ùzje state machine on hand-made tables: the deal, flowers, claims and their priority,
quads with their replacement draws and bonus tiles, robbing, flower wins, the end of the wall,
and payments (seeds/002 lines 48-135)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError
from engine.events import (
    AddedKan,
    ClosedKan,
    Discard,
    Draw,
    ExhaustiveDraw,
    OpenKan,
    Pon,
    ScoreChange,
    Win,
)
from engine.variants.uzje.events import BonusRevealed, Chow, FlowerExposed
from engine.variants.uzje.rules import UZJE_4P
from engine.variants.uzje.state import UzjePhase
from tests.engine.variants.uzje.tables import drain, play, table, tile, tiles

NO_FLOWERS = UZJE_4P.replace(name="nf", flowers=False)

# Four players who do not get in each other's way (each is 13 tiles; the dealer adds one).
QUIET = (
    "ft ft 2m 3m 5m 7m am cm em E S W N Z",
    "1t 1t 2s 3s 4s 5s 6s 7s 8s 9s xs as bs",
    "2s 3s 4s 5s 6s 7s 8s 9s xs as bs cs ds",
    "2m 3m 4m 5m 6m 7m 8m xm am bm cm dm fm",
)


def refused(state: object, event: object, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        state.apply(event)  # type: ignore[attr-defined]


# -- the deal -----------------------------------------------------------------------------------


def test_dealer_gets_fourteen_and_the_others_thirteen() -> None:
    # seeds/002 line 60: "The dealer should have 14 tiles and everyone else 13."
    state, _ = table(QUIET)
    assert [seat.size for seat in state.seats] == [14, 13, 13, 13]
    assert state.phase is UzjePhase.ACT and state.turn == 0
    with pytest.raises(IllegalActionError, match="seat 1 is dealt 14 tiles, not 13"):
        table((QUIET[0], QUIET[1] + " cs", *QUIET[2:]))


def test_deal_refuses_a_fifth_copy_and_tiles_not_in_play() -> None:
    with pytest.raises(IllegalActionError, match="5 copies of 2s"):
        table((QUIET[0], QUIET[1], QUIET[2], "2s 2s 2s 4m 5m 6m 7m 8m xm am bm cm dm"))
    # line 15: four players use tongs 1 and 16 only.
    with pytest.raises(IllegalActionError, match="5t is not in play"):
        table((QUIET[0], QUIET[1], QUIET[2], "5t 3m 4m 5m 6m 7m 8m xm am bm cm dm fm"))


def test_a_known_wall_must_hold_exactly_the_rest_of_the_tiles() -> None:
    state, round_ = table(QUIET, wall=True)
    assert round_.wall is not None
    assert state.live_left == len(round_.wall.live) == UZJE_4P.live_wall


# -- flowers --------------------------------------------------------------------------------------


def test_flowers_are_exposed_first_and_replaced_from_the_back() -> None:
    # line 67: every flower is exposed and replaced by a tile from the far end of the wall.
    hands = ("h " + QUIET[0][:-2], *QUIET[1:])
    state, _ = table(hands, wall=True, front="3s", back="9m")
    refused(state, Discard(0, tile("E")), "must expose its flower")
    refused(state, Win(0, 0, tile("E")), "must expose its flower")
    play(state, FlowerExposed(0, tile("h")))
    assert state.phase is UzjePhase.FLOWER
    refused(state, Draw(0, tile("3s")), "the back of the wall is 9m")
    refused(state, Draw(1, tile("9m")), "seat 0 draws the replacement")
    play(state, Draw(0, tile("9m")))
    assert state.seats[0].flowers == [tiles("h")[0].rank + 57]
    refused(state, Discard(0, tile("h")), "flowers cannot be discarded|does not hold")
    play(state, Discard(0, tile("9m"), tsumogiri=True))
    play(state, Draw(1, tile("3s")))  # the next draw comes from the front


def test_tsumogiri_means_the_tile_just_drawn() -> None:
    state, _ = table(QUIET, wall=True, front="3s")
    play(state, Discard(0, tile("E")))
    play(state, Draw(1, tile("3s")))
    refused(state, Discard(1, tile("1t"), tsumogiri=True), "as the tile just drawn")
    # Seat 1 holds 3s already: either copy may go, flagged either way.
    assert state.why_illegal(Discard(1, tile("3s"))) is None
    assert state.why_illegal(Discard(1, tile("3s"), tsumogiri=True)) is None


# -- claims ---------------------------------------------------------------------------------------

CLAIMS = (
    "4s 1t ft 1m 2m 3m E E S S W W N N",
    "1s 2s 6s 7s 5m 6m 7m 9m am bm C C C",
    "4s 4s 8m 8m 8m cm dm em Z Z F F P",
    "3s 5s 9s xs as bs cs 1m 2m 3m N N F",
)


def test_arith_claims_only_by_the_next_player() -> None:
    # lines 76 and 93: an arith is claimed only from the player on the left.
    state, _ = table(CLAIMS)
    play(state, Discard(0, tile("4s")))
    assert state.why_illegal(Chow(1, 0, tile("4s"), tiles("2s 6s"))) is None  # d = 2
    assert state.why_illegal(Chow(1, 0, tile("4s"), tiles("1s 7s"))) is None  # d = 3
    refused(state, Chow(3, 0, tile("4s"), tiles("3s 5s")), "only the next player \\(seat 1\\)")
    refused(state, Chow(1, 0, tile("4s"), tiles("1s 2s")), "124s is not an arith")
    refused(state, Pon(1, 0, tile("4s"), tiles("4s 4s")), "holds 0")
    chows = {str(e.consumed) for e in state.legal_actions() if isinstance(e, Chow)}
    assert chows == {str(tiles("2s 6s")), str(tiles("1s 7s"))}


def test_gems_and_powers_are_claimed_only_with_the_option() -> None:
    state, _ = table(CLAIMS, rules=UZJE_4P.replace(name="g", claim_gems_powers=True))
    play(state, Discard(0, tile("4s")))
    assert state.why_illegal(Chow(1, 0, tile("4s"), tiles("1s 2s"))) is None  # gem 124
    assert len([e for e in state.legal_actions() if isinstance(e, Chow)]) == 3


def test_trip_claimed_by_anyone_then_a_discard_not_a_win() -> None:
    # lines 75 and 94: a trip from any player, skipping the others' turns.
    state, _ = table(CLAIMS)
    play(state, Discard(0, tile("4s")), Pon(2, 0, tile("4s"), tiles("4s 4s")))
    assert state.phase is UzjePhase.ACT and state.turn == 2
    assert state.seats[2].open and state.seats[2].claims == 1
    refused(state, Win(2, 2, tile("Z")), "claimed its 14th tile and must discard")
    refused(state, Discard(1, tile("C")), "it is seat 2's turn")
    play(state, Discard(2, tile("P")))
    refused(state, Draw(0, tile("1t")), "seat 3 draws next")


def test_no_quad_right_after_a_claimed_trip() -> None:
    """Lines 69-70, the turn: "If he got the tile from someone else, for which see 'claiming a
    tile to complete a meld' section below. Otherwise, if he has four tiles all the same (a
    quad), he may choose to reveal that he has a quad". After claiming a trip the player
    discards: neither a closed quad nor a tile added to a claimed trip, until a turn whose tile
    came from the wall."""
    hands = (
        "Z 1t ft 1m 2m 3m E E S S W W N N",
        "1s 2s 6s 7s 5m 6m 7m 9m am bm C C C",
        "4s 4s Z Z Z 8m 8m 8m 8m em F F P",
        "3s 5s 9s xs as bs cs 1m 2m 3m N N F",
    )
    state, _ = table(hands)
    play(state, Discard(0, tile("Z")), Pon(2, 0, tile("Z"), tiles("Z Z")))
    # Seat 2 holds four 8m and the fourth Z, but claimed its 14th tile.
    refused(state, ClosedKan(2, tiles("8m 8m 8m 8m")), "claimed its 14th tile and must discard")
    refused(state, AddedKan(2, tile("Z")), "claimed its 14th tile and must discard")
    actions = state.legal_actions()
    assert not [event for event in actions if isinstance(event, ClosedKan | AddedKan)]
    assert all(isinstance(event, Discard) for event in actions)
    play(state, Discard(2, tile("P")))
    play(state, Draw(3, tile("cm")), Discard(3, tile("cm"), tsumogiri=True))
    play(state, Draw(0, tile("dm")), Discard(0, tile("dm"), tsumogiri=True))
    play(state, Draw(1, tile("9s")), Discard(1, tile("9s"), tsumogiri=True))
    play(state, Draw(2, tile("fm")))
    # A tile from the wall: both quads may be declared now.
    assert state.why_illegal(ClosedKan(2, tiles("8m 8m 8m 8m"))) is None
    assert state.why_illegal(AddedKan(2, tile("Z"))) is None


def test_claim_checks_the_discard() -> None:
    state, _ = table(CLAIMS)
    play(state, Discard(0, tile("4s")))
    refused(state, Pon(2, 1, tile("4s"), tiles("4s 4s")), "the discard is 4s from seat 0")
    refused(state, Pon(2, 0, tile("4s"), tiles("4s 8m")), "with two more of it")
    refused(state, OpenKan(2, 0, tile("4s"), tiles("4s 4s 4s")), "with 3 x 4s but holds 2")


# -- wins on a discard ------------------------------------------------------------------------

RON = (
    "C 2s 4s 6m 8m am cm 1t ft S W N Z F",
    "1s 2s 3s 4s 5s 6s 7s 8s 9s 1m 1m 1m C",
    "2m 3m 4m 5m 6m 7m 8m 8m 8m E E E C",
    "1t 5s 5s 7s 3s xs bs dm em fm N N P",
)


def test_several_winners_on_one_discard_each_paid() -> None:
    # lines 95 and 133: any player may win on a discard; the discarder pays each winner.
    state, _ = table(RON)
    play(state, Discard(0, tile("C")))
    refused(state, Pon(1, 0, tile("C"), tiles("C C")), "holds 1")
    play(state, Win(1, 0, tile("C")))
    refused(state, Discard(2, tile("E")), "the game is over")
    play(state, Win(2, 0, tile("C")))
    result = state.settle()
    # Seat 1: closed hand 2.6 f, 2 points. Seat 2: closed hand, the round wind (EEE in the
    # East set) and clean mans, 6.6 f, 50 points.
    assert [dict(win.value.patterns) for win in result.wins] == [
        {"closed_hand": 26},
        {"closed_hand": 26, "round_wind": 10, "clean": 30},
    ]
    assert [win.value.points for win in result.wins] == [2, 50]
    assert result.deltas == (-52, 2, 50, 0)


def test_multiple_wins_in_turn_order_from_the_discarder() -> None:
    state, _ = table(RON)
    play(state, Discard(0, tile("C")), Win(2, 0, tile("C")))
    refused(state, Win(1, 0, tile("C")), "turn order from seat 0")


def test_no_furiten() -> None:
    # Riichi's furiten does not exist: seat 1 passes C once, and wins on the next C.
    hands = (RON[0], RON[1], RON[2].replace("C", "Z"), RON[3].replace("P", "C"))
    state, _ = table(hands, wall=True, front="P P ft")
    play(state, Discard(0, tile("C")), Draw(1, tile("P")), Discard(1, tile("P"), tsumogiri=True))
    play(state, Draw(2, tile("P")), Discard(2, tile("P"), tsumogiri=True))
    play(state, Draw(3, tile("ft")), Discard(3, tile("C")), Win(1, 3, tile("C")))


def test_a_win_below_the_minimum_is_refused() -> None:
    # line 172: the minimum to win is 2.5 f; an open hand with nothing else has 0 f.
    hands = (
        "9s 1t ft S W N Z F P P 2s 4s 6m am",
        "9s 9s 1s 2s 3s 4m 5m 6m 7m 8m 9m C E",
        "C 2m 3m 5m xm bm cm dm em fm 1t ft Z",
        "3s 5s 7s xs as bs cs ds es fs 1m 1m 1m",
    )
    state, _ = table(hands, wall=True, front="em")
    play(
        state, Discard(0, tile("9s")), Pon(1, 0, tile("9s"), tiles("9s 9s")), Discard(1, tile("E"))
    )
    play(state, Draw(2, tile("em")), Discard(2, tile("C")))
    refused(state, Win(1, 2, tile("C")), "worth 0 f, below the 2.5 f needed to win")


# -- quads --------------------------------------------------------------------------------------

QUADS = (
    "9m 9m 9m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s 1m",
    "ft ft 2m 3m 5m 7m am cm em E S W N",
    "2s 3s 4s 5s 6s 7s 8s 9s xs as bs cs ds",
    "2m 3m 4m 5m 6m 7m 8m xm am bm cm dm fm",
)


def test_closed_quad_replacement_and_bonus_then_a_quad_draw_win() -> None:
    # lines 78-83: a quad, then a draw from the end of the wall, then the next bonus tile;
    # line 200-202: a win on that tile is a quad draw (1.6 f).
    state, _ = table(QUADS, wall=True, back="1m", dead="F")
    refused(state, ClosedKan(0, tiles("1s 1s 1s 1s")), "with 4 x 1s but holds 1")
    play(state, ClosedKan(0, tiles("9m 9m 9m 9m")))
    assert state.phase is UzjePhase.QUAD
    refused(state, Discard(0, tile("1s")), "cannot discard now")
    refused(state, Draw(0, tile("2m")), "the back of the wall is 1m")
    play(state, Draw(0, tile("1m")))
    assert state.phase is UzjePhase.BONUS
    refused(state, BonusRevealed(tile("C")), "the next bonus tile is F")
    play(state, BonusRevealed(tile("F")))
    assert state.bonus_shown == [tile_kind("P"), tile_kind("F")]
    play(state, Win(0, 0, tile("1m")))
    (win,) = state.settle().wins
    assert dict(win.value.patterns) == {"self_draw": 10, "closed_hand": 26, "quad_draw": 16}
    # 5.2 f: two steps, 10 points; on a self-draw everyone else pays half.
    assert win.value.points == 10
    assert win.deltas == (15, -5, -5, -5)


def tile_kind(text: str) -> int:
    from engine.variants.uzje.tiles import parse_kinds

    return parse_kinds(text)[0]


def test_added_quad_robbed() -> None:
    # lines 210-214: a win on the tile someone adds to a claimed trip, 2 f.
    hands = (
        "5s 1t ft Z Z C F P N N W W S S",
        "5s 5s 9s 9s xm xm am am bm bm cm cm E",
        "4s 6s 1m 1m 1m 2m 2m 2m 3m 3m 3m E E",
        "7s 8s xs as bs cs ds es fs 4m 5m 6m 7m",
    )
    state, _ = table(hands, wall=True, front="8m 8m 9m 5s")
    play(
        state, Discard(0, tile("5s")), Pon(1, 0, tile("5s"), tiles("5s 5s")), Discard(1, tile("E"))
    )
    play(state, Draw(2, tile("8m")), Discard(2, tile("8m"), tsumogiri=True))
    play(state, Draw(3, tile("8m")), Discard(3, tile("8m"), tsumogiri=True))
    play(state, Draw(0, tile("9m")), Discard(0, tile("9m"), tsumogiri=True))
    play(state, Draw(1, tile("5s")))
    refused(state, AddedKan(1, tile("9s")), "no claimed trip of 9s")
    play(state, AddedKan(1, tile("5s")), Win(2, 1, tile("5s")))
    (win,) = state.settle().wins
    # The best reading is 456s 123m 123m 123m EE: three identical melds (stutter) and one
    # common difference, over 456s 111m 222m 333m EE.
    assert dict(win.value.patterns) == {
        "closed_hand": 26,
        "quad_rob": 20,
        "stutter": 10,
        "single_differences": 14,
    }
    assert win.deltas == (0, -50, 50, 0)


def test_closed_quads_are_robbed_only_for_orphans() -> None:
    # lines 211-219: standard robbing cannot take a closed quad; thirteen and fourteen orphans
    # may rob any quad (an option).
    hands = (
        "E E E E 2s 3s 4s 5m 5m 5m 5m 9m xm Z",
        "1t ft 1s fs 1m fm S W N C F P P",
        "4m 6m 1s 1s 1s 2m 2m 2m 3m 3m 3m Z Z",
        "7s 8s xs as bs cs ds es 4s 6s 7m 8m dm",
    )
    state, _ = table(hands)
    play(state, ClosedKan(0, tiles("E E E E")))
    play(state, Win(1, 0, tile("E")))
    (win,) = state.settle().wins
    assert dict(win.value.patterns) == {"thirteen_orphans": 1}
    assert win.deltas == (-5000, 5000, 0, 0)

    strict = UZJE_4P.replace(name="s", orphans_rob_any_quad=False)
    state, _ = table(hands, rules=strict)
    play(state, ClosedKan(0, tiles("E E E E")))
    refused(state, Win(1, 0, tile("E")), "a closed quad cannot be robbed")

    state, _ = table(hands)
    play(state, ClosedKan(0, tiles("5m 5m 5m 5m")))
    refused(state, Win(2, 0, tile("5m")), "only be robbed for thirteen or fourteen orphans")


def test_no_quad_on_an_empty_wall() -> None:
    state, _ = table(QUADS, rules=NO_FLOWERS, wall=True)
    play(state, Discard(0, tile("1m")))
    drain(state, stop_when_left=0)
    assert state.live_left == 0
    refused(state, OpenKan(1, 3, tile("9m"), tiles("9m 9m 9m")), "the discard is")


# -- flower wins ----------------------------------------------------------------------------------


def test_six_flowers_on_the_sixth_only() -> None:
    # lines 234-239: six of the eight flowers win, valued at the minimum, on the sixth only.
    hands = ("h i j k o p 2s 3s 4s 5m 6m 7m 8m 9m", *QUIET[1:])
    state, _ = table(hands, wall=True, back="2m 3m 4m 5m 6m")
    for flower, replacement in zip("hijko", ("2m", "3m", "4m", "5m", "6m"), strict=True):
        play(state, FlowerExposed(0, tile(flower)))
        if flower == "o":
            refused(state, Win(0, 0, tile("o")), "has 5 flowers")
        play(state, Draw(0, tile(replacement)))
    play(state, FlowerExposed(0, tile("p")), Win(0, 0, tile("p")))
    (win,) = state.settle().wins
    assert dict(win.value.patterns) == {"six_flowers": 25}
    assert win.value.points == 2 and win.deltas == (3, -1, -1, -1)


def test_crossing_the_sea_and_six_flowers_not_later() -> None:
    # lines 244-248: all eight flowers, one limit; six flowers cannot be claimed afterwards.
    hands = ("h i j k o p q r 2s 3s 4s 5m 6m 7m", *QUIET[1:])
    state, _ = table(hands, wall=True, back="2m 3m 4m 5m 6m 7m 8m")
    for flower, replacement in zip(
        "hijkopq", ("2m", "3m", "4m", "5m", "6m", "7m", "8m"), strict=True
    ):
        play(state, FlowerExposed(0, tile(flower)))
        if flower == "q":
            refused(state, Win(0, 0, tile("q")), "has 7 flowers")
        play(state, Draw(0, tile(replacement)))
    play(state, FlowerExposed(0, tile("r")), Win(0, 0, tile("r")))
    (win,) = state.settle().wins
    assert dict(win.value.patterns) == {"crossing_the_sea": 1}
    assert win.deltas == (7500, -2500, -2500, -2500)


def test_ivies_on_the_wall() -> None:
    # lines 240-243: seven flowers exposed, and a win on the eighth exposed by another, 8 f.
    hands = (
        "1t ft 2m 3m 5m 7m am cm em E S W N Z",
        "h i j k o p q 2s 3s 4s 5s 6s 7s",
        "r 3s 4s 5s 6s 7s 8s 9s xs as bs cs ds",
        QUIET[3],
    )
    backs = "1m 1m 1m 1m xm xm xm"
    state, _ = table(hands, wall=True, front="9m C", back=backs)
    play(state, Discard(0, tile("Z")), Draw(1, tile("9m")))
    for flower, replacement in zip("hijkopq", backs.split(), strict=True):
        play(state, FlowerExposed(1, tile(flower)), Draw(1, tile(replacement)))
    play(state, Discard(1, tile("9m")), Draw(2, tile("C")))
    refused(state, Discard(2, tile("C")), "must expose")
    play(state, FlowerExposed(2, tile("r")))
    refused(state, Win(3, 2, tile("r")), "has 0 flowers")
    play(state, Win(1, 2, tile("r")))
    (win,) = state.settle().wins
    assert dict(win.value.patterns) == {"ivies_on_the_wall": 80}
    assert win.deltas == (0, 100, -100, 0)


# -- the end of the wall --------------------------------------------------------------------------

WALL_END = (
    "1m 2m 4s 5s 6s 7s 8s 9s xm xm xm F F S",
    "3m 3m 2s 3s bs cs ds es fs 5m 6m 7m 8m",
    "1s 2s 3s 4m 5m 6m 7m 8m 9m am bm cm dm",
    "1t 1t 4s 5s 6s 7s 8s 9s 1m 1m 1m C C",
)


def test_sea_scoop_on_the_last_tile() -> None:
    # lines 190-195: a win on the last tile of the wall, 1.8 f, + 3 f on a 1t.
    state, _ = table(WALL_END, rules=NO_FLOWERS, wall=True, back="1t")
    play(state, Discard(0, tile("S")))
    drain(state, stop_when_left=1)
    assert state.discard is not None and state.discard[0] == 2
    play(state, Draw(3, tile("1t")), Win(3, 3, tile("1t")))
    (win,) = state.settle().wins
    assert dict(win.value.patterns) == {
        "self_draw": 10,
        "closed_hand": 26,
        "sea_scoop": 18,
        "sea_scoop_1t": 30,
    }
    assert win.deltas == (-50, -50, -50, 150)


def test_pond_scoop_and_no_meld_claims_on_the_last_discard() -> None:
    # lines 196-199: a win on the last discard, 1.2 f, + 3 f on a 3m.
    state, _ = table(WALL_END, rules=NO_FLOWERS, wall=True, back="3m")
    play(state, Discard(0, tile("S")))
    drain(state, stop_when_left=1)
    play(state, Draw(3, tile("3m")), Discard(3, tile("3m"), tsumogiri=True))
    assert state.live_left == 0
    refused(state, Pon(1, 3, tile("3m"), tiles("3m 3m")), "may only be won on")
    refused(state, Draw(0, tile("1s")), "the wall is empty")
    assert state.why_illegal(ExhaustiveDraw()) is None
    play(state, Win(0, 3, tile("3m")))
    (win,) = state.settle().wins
    assert dict(win.value.patterns) == {"closed_hand": 26, "pond_scoop": 12, "pond_scoop_3m": 30}
    assert win.deltas == (50, 0, 0, -50)


def test_exhaustive_draw_pays_nothing_and_the_dealer_keeps_the_deal() -> None:
    state, _ = table(WALL_END, rules=NO_FLOWERS, wall=True)
    play(state, Discard(0, tile("S")))
    refused(state, ExhaustiveDraw(), "no exhaustive draw: 99 tile")
    drain(state)
    play(state, ExhaustiveDraw())
    result = state.settle()
    assert result.kind == "exhaustive_draw" and result.deltas == (0, 0, 0, 0)
    position = state.end_round()
    assert position is not None and (position.dealer, position.honba) == (0, 1)


def test_score_change_is_applied_as_written() -> None:
    state, _ = table(RON)
    play(state, ScoreChange((5, -5, 0, 0), "penalty"), Discard(0, tile("C")), Win(1, 0, tile("C")))
    state.end_round()
    assert state.scores == [3, -3, 0, 0]


def test_legal_actions_are_all_legal() -> None:
    state, _ = table(CLAIMS, wall=True)
    play(state, Discard(0, tile("4s")))
    for action in state.legal_actions():
        assert state.why_illegal(action) is None, action
    assert any(isinstance(action, Draw) for action in state.legal_actions())


def test_no_bonus_tile_once_the_dead_wall_is_all_shown() -> None:
    # line 82: when every dead-wall tile is shown, the flip is skipped. With a one-tile dead
    # wall (an option) the first quad already finds it all shown.
    state, _ = table(QUADS, rules=UZJE_4P.replace(name="d", dead_wall=1), wall=True, back="1m")
    play(state, ClosedKan(0, tiles("9m 9m 9m 9m")), Draw(0, tile("1m")))
    assert state.phase is UzjePhase.ACT
    refused(state, BonusRevealed(tile("F")), "no bonus tile is due")
