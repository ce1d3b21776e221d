"""The state machine on small hand-made hands: each rule allows what it should and refuses what
it should, with a reason that names the rule."""

from __future__ import annotations

import dataclasses

import pytest

from engine.errors import IllegalActionError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Wall,
    Win,
)
from engine.rules import get_ruleset
from engine.rules.presets import with_overrides
from engine.state import GameState, Phase
from engine.tiles import parse_tile, parse_tiles

T = parse_tile

# Four 13-tile hands that share no tile kind with each other more than four times.
HANDS = (
    "123m456m789m23p55s",  # seat 0 (dealer): waits 1p-4p
    "111z222z333z444z5z",  # seat 1: winds, a honour tanki
    "19m19p19s1234567z",  # seat 2: thirteen orphans, 13-sided wait
    "223344s6679p567z",  # seat 3: far from tenpai
)


# Hands for the call tests: seat 0 discards what the others may call.
CALLS = (
    "123m456m789m23p55s",
    "13p456s789s11z222z",
    "46p456m789s33z444z",
    "13p456s789p11z555z",
)


def make_round(
    hands: tuple[str, ...] = HANDS,
    *,
    scores: tuple[int, ...] = (25000, 25000, 25000, 25000),
    dora: str = "9s",
    ura: str = "",
    dealer: int = 0,
) -> Round:
    return Round(
        wind=0,
        number=dealer + 1,
        dealer=dealer,
        honba=0,
        sticks=0,
        scores=scores,
        hands=tuple(tuple(parse_tiles(hand)) for hand in hands),
        dora_indicators=tuple(parse_tiles(dora)),
        events=(),
        ura_indicators=tuple(parse_tiles(ura)),
    )


def started(round_: Round | None = None, ruleset: str = "tenhou-4p-nored") -> GameState:
    state = GameState(get_ruleset(ruleset))
    state.start_round(round_ or make_round())
    return state


def play(state: GameState, *events: Event) -> GameState:
    for event in events:
        state.apply(event)
    return state


def refused(state: GameState, event: Event) -> str:
    reason = state.why_illegal(event)
    assert reason is not None, f"{event} should be illegal"
    assert not state.is_legal(event)
    with pytest.raises(IllegalActionError):
        state.apply(event)
    return reason


def test_turn_order_and_held_tiles() -> None:
    state = started()
    assert "seat 0 draws next" in refused(state, Draw(1, T("1s")))
    play(state, Draw(0, T("7p")))
    assert "do not hold" in refused(state, Discard(0, T("9p")))
    assert "seat 0 is to play" in refused(state, Discard(1, T("1z")))
    play(state, Discard(0, T("7p"), tsumogiri=True))
    assert state.phase is Phase.CLAIM
    assert "seat 1 draws next" in refused(state, Draw(2, T("1s")))


def test_tsumogiri_flag_must_be_the_drawn_tile() -> None:
    state = play(started(), Draw(0, T("7p")))
    assert "just drawn" in refused(state, Discard(0, T("1m"), tsumogiri=True))


def test_fifth_copy_refused() -> None:
    state = started()
    # Seat 1 holds three East and seat 2 one: a fifth East cannot be drawn.
    assert "fifth East" in refused(state, Draw(0, T("1z")))


def test_chi_only_from_the_left() -> None:
    hands = CALLS
    state = play(started(make_round(hands)), Draw(0, T("6z")), Discard(0, T("2p")))
    assert "player to the left" in refused(state, Chi(2, 0, T("2p"), (T("4p"), T("6p"))))
    assert "player to the left" in refused(state, Chi(3, 0, T("2p"), (T("1p"), T("3p"))))
    play(state, Chi(1, 0, T("2p"), (T("1p"), T("3p"))))
    assert state.phase is Phase.ACT and state.turn == 1


def test_kuikae_refused_after_chi() -> None:
    hands = ("123m456m789m23p55s", "345p456s789s11z22z", *CALLS[2:])
    state = play(
        started(make_round(hands)),
        Draw(0, T("6z")),
        Discard(0, T("2p")),
        Chi(1, 0, T("2p"), (T("3p"), T("4p"))),
    )
    # 2p called with 3p4p: discarding 2p again or its suji 5p would swap the call.
    assert "kuikae" in refused(state, Discard(1, T("5p")))
    play(state, Discard(1, T("1z")))


def test_suji_swap_calls_where_only_the_called_tile_is_forbidden() -> None:
    # JPML: "現物以外の喰い替えを認める": after the chi of 2p with 3p4p, 5p may go, 2p may not.
    hands = ("123m456m789m23p55s", "2345p456s789s11z2z", *CALLS[2:])
    calls = (Draw(0, T("6z")), Discard(0, T("2p")), Chi(1, 0, T("2p"), (T("3p"), T("4p"))))
    jpml = GameState(get_ruleset("tenhou-4p-nored").replace(kuikae_suji=True))
    jpml.start_round(make_round(hands))
    play(jpml, *calls)
    assert "kuikae" in refused(jpml, Discard(1, T("2p")))
    play(jpml, Discard(1, T("5p")))
    strict = play(started(make_round(hands)), *calls)
    assert "kuikae" in refused(strict, Discard(1, T("5p")))


def test_pon_priority_player_may_call_out_of_turn() -> None:
    state = play(started(make_round(CALLS)), Draw(0, T("5z")), Discard(0, T("5z")))
    play(state, Pon(3, 0, T("5z"), (T("5z"), T("5z"))))
    assert state.turn == 3 and state.phase is Phase.ACT
    assert state.is_legal(Discard(3, T("1z")))
    assert state.first_turn is False


def test_riichi_needs_1000_points_and_tenpai() -> None:
    state = play(started(make_round(scores=(900, 25000, 25000, 49100))), Draw(0, T("7p")))
    assert "needs 1000 points" in refused(state, RiichiDeclared(0))
    state = play(started(), Draw(0, T("7z")))
    play(state, RiichiDeclared(0))
    assert "does not leave seat 0 tenpai" in refused(state, Discard(0, T("5s")))
    play(state, Discard(0, T("7z"), tsumogiri=True))
    assert "riichi is accepted first" in refused(state, Draw(1, T("1s")))
    play(state, RiichiAccepted(0))
    assert state.scores[0] == 24000 and state.sticks == 1


def test_not_tenpai_cannot_declare_riichi() -> None:
    hands = ("135m2468p13579s7z", *HANDS[1:])
    state = play(started(make_round(hands)), Draw(0, T("7z")))
    assert "not tenpai" in refused(state, RiichiDeclared(0))


def test_riichi_discards_only_the_drawn_tile() -> None:
    state = play(
        started(),
        Draw(0, T("7z")),
        RiichiDeclared(0),
        Discard(0, T("7z"), tsumogiri=True),
        RiichiAccepted(0),
        Draw(1, T("6z")),
        Discard(1, T("6z"), tsumogiri=True),
        Draw(2, T("9s")),
        Discard(2, T("9s"), tsumogiri=True),
        Draw(3, T("1s")),
        Discard(3, T("1s"), tsumogiri=True),
        Draw(0, T("8s")),
    )
    assert "must discard the drawn tile" in refused(state, Discard(0, T("1m")))


def test_furiten_after_own_discard_of_a_winning_tile() -> None:
    state = play(
        started(),
        Draw(0, T("4p")),  # completes the hand; the dealer declines the tsumo
        Discard(0, T("4p"), tsumogiri=True),
        Draw(1, T("1p")),
        Discard(1, T("1p"), tsumogiri=True),
    )
    assert state.furiten(0)
    assert "furiten" in refused(state, Win(0, 1, T("1p")))


def test_temporary_furiten_until_next_draw() -> None:
    state = play(
        started(),
        Draw(0, T("7z")),
        Discard(0, T("7z"), tsumogiri=True),
        Draw(1, T("1p")),
        Discard(1, T("1p"), tsumogiri=True),
        # Seat 0 could ron 1p (ittsu) but passes: seat 2 draws.
        Draw(2, T("8s")),
        Discard(2, T("8s"), tsumogiri=True),
    )
    assert state.furiten(0)
    play(state, Draw(3, T("4p")), Discard(3, T("4p"), tsumogiri=True))
    assert "furiten" in refused(state, Win(0, 3, T("4p")))
    play(state, Draw(0, T("9p")), Discard(0, T("9p"), tsumogiri=True))
    assert not state.furiten(0)


def test_ron_and_its_value() -> None:
    state = play(
        started(),
        Draw(0, T("7z")),
        Discard(0, T("7z"), tsumogiri=True),
        Draw(1, T("6z")),
        Discard(1, T("6z"), tsumogiri=True),
        Draw(2, T("8s")),
        Discard(2, T("8s"), tsumogiri=True),
        Draw(3, T("4p")),
        Discard(3, T("4p"), tsumogiri=True),
        Win(0, 3, T("4p")),
    )
    assert state.result is not None
    win = state.result.wins[0]
    names = {y.name for y in win.score.yaku}
    assert "ittsu" in names
    assert win.deltas[0] == -win.deltas[3] > 0
    assert state.end_round() is not None  # the dealer won E1: the game goes on


def test_win_without_yaku_refused() -> None:
    # 123m456m678p24p55s waits on 3p: no tanyao (1m), no pinfu (closed wait), no yakuhai.
    hands = ("123m456m678p24p55s", *HANDS[1:])
    state = play(
        started(make_round(hands)),
        Draw(0, T("7z")),
        Discard(0, T("7z"), tsumogiri=True),
        Draw(1, T("3p")),
        Discard(1, T("3p"), tsumogiri=True),
    )
    assert "no yaku" in refused(state, Win(0, 1, T("3p")))
    play(state, Draw(2, T("8s")), Discard(2, T("8s"), tsumogiri=True))
    play(state, Draw(3, T("9m")), Discard(3, T("9m"), tsumogiri=True), Draw(0, T("3p")))
    # The same hand by self-draw has a yaku: menzen tsumo.
    assert state.is_legal(Win(0, 0, T("3p")))


def test_nine_terminals_only_on_the_first_draw() -> None:
    hands = ("19m19p19s1234z23p5s", "555z666z777z11s22s", "234567m345678p9s", "223344s667788p1s")
    state = play(started(make_round(hands, dora="9s")), Draw(0, T("8s")))
    assert state.is_legal(AbortiveDraw(AbortKind.NINE_TERMINALS, 0))
    play(state, Discard(0, T("8s"), tsumogiri=True), Draw(1, T("4s")))
    assert "not 9" in refused(state, AbortiveDraw(AbortKind.NINE_TERMINALS, 1))


def test_four_winds_abort_is_forced() -> None:
    hands = (
        "123m456m789m23p51z",
        "1z23p456s789s22z33z",
        "1z46p456m789s33z44z",
        "13p456s789p1z55z66z",
    )
    state = started(make_round(hands))
    for seat, draw in ((0, "7p"), (1, "9p"), (2, "2s"), (3, "8m")):
        play(state, Draw(seat, T(draw)), Discard(seat, T("1z")))
    assert "abortive draw (four_winds)" in refused(state, Draw(0, T("1s")))
    play(state, AbortiveDraw(AbortKind.FOUR_WINDS))
    assert state.phase is Phase.OVER
    nxt = state.end_round()
    assert nxt is not None and nxt.honba == 1 and nxt.dealer == 0


def test_closed_kan_reveals_dora_before_the_replacement_draw() -> None:
    hands = ("2222m456m789m23p5s", *HANDS[1:])
    state = play(
        started(make_round(hands)), Draw(0, T("7z")), ClosedKan(0, tuple(parse_tiles("2222m")))
    )
    assert "before the replacement draw" in refused(state, Draw(0, T("3s")))
    play(state, DoraRevealed(T("2s")), Draw(0, T("3s")))
    assert len(state.dora_indicators) == 2


def test_open_kan_dora_after_the_replacement_draw_on_tenhou() -> None:
    hands = (*CALLS[:3], "13p456s789p11z777z")
    state = play(
        started(make_round(hands)),
        Draw(0, T("7z")),
        Discard(0, T("7z"), tsumogiri=True),
        OpenKan(3, 0, T("7z"), tuple(parse_tiles("777z"))),
    )
    assert "no kan dora indicator is due" in refused(state, DoraRevealed(T("2s")))
    play(state, Draw(3, T("3s")))
    assert "kan dora indicator is due" in refused(state, Discard(3, T("3s"), tsumogiri=True))
    play(state, DoraRevealed(T("2s")), Discard(3, T("3s"), tsumogiri=True))


def test_open_kan_dora_after_the_discard_on_mahjong_soul_counts_for_a_ron_on_it() -> None:
    # Mahjong Soul turns an open kan's indicator once the kan player discards, before anyone
    # may claim that discard: a ron on it counts the new dora (here 9m: the winner's 1m).
    hands = (*CALLS[:3], "13p456s789p11z777z")
    state = GameState(with_overrides("majsoul-4p", {"red_fives": [0, 0, 0]}))
    state.start_round(make_round(hands))
    play(
        state,
        Draw(0, T("7z")),
        Discard(0, T("7z"), tsumogiri=True),
        OpenKan(3, 0, T("7z"), tuple(parse_tiles("777z"))),
        Draw(3, T("3s")),
    )
    assert "no kan dora indicator is due" in refused(state, DoraRevealed(T("9m")))
    play(state, Discard(3, T("1p")))
    assert "kan dora indicator is due" in refused(state, Win(0, 3, T("1p")))
    play(state, DoraRevealed(T("9m")), Win(0, 3, T("1p")))
    assert state.result is not None
    score = state.result.wins[0].score
    assert {y.name: y.han for y in score.yaku}.get("dora") == 1
    assert score.han == 4  # closed ittsu 2, pinfu 1, the kan dora 1


def test_a_kan_declared_instead_of_the_discard_turns_the_open_kans_dora_on_mahjong_soul() -> None:
    # The open kan's indicator waits for its player's discard; a closed kan declared on the
    # replacement instead turns it, then its own (at once): two before the next replacement
    # draw, as RiichiEnv's and jansou's Mahjong Soul do (the referee found it).
    hands = (*CALLS[:3], "9999p456s78p1z777z")
    state = GameState(with_overrides("majsoul-4p", {"red_fives": [0, 0, 0]}))
    state.start_round(make_round(hands))
    play(
        state,
        Draw(0, T("7z")),
        Discard(0, T("7z"), tsumogiri=True),
        OpenKan(3, 0, T("7z"), tuple(parse_tiles("777z"))),
        Draw(3, T("3s")),
        ClosedKan(3, tuple(parse_tiles("9999p"))),
    )
    assert "before the replacement draw" in refused(state, Draw(3, T("9s")))
    play(state, DoraRevealed(T("2s")))
    assert "before the replacement draw" in refused(state, Draw(3, T("9s")))
    play(state, DoraRevealed(T("4m")), Draw(3, T("9s")))
    assert [str(tile) for tile in state.dora_indicators] == ["9s", "2s", "4m"]
    play(state, Discard(3, T("9s"), tsumogiri=True))  # and the discard turns none again
    assert "no kan dora indicator is due" in refused(state, DoraRevealed(T("5m")))


def test_a_recorded_wall_decides_each_draw_after_a_discard() -> None:
    # Such draws take push's fast path: it must compare them with the wall as the general check
    # does, and move along the wall.
    live = tuple(parse_tiles("7p1s2s"))
    wall = Wall(live=live, replacements=(), dora_indicators=(T("9s"),), ura_indicators=())
    state = started(dataclasses.replace(make_round(), wall=wall))
    play(state, Draw(0, T("7p")), Discard(0, T("7p"), tsumogiri=True))
    assert "the wall gives 1s, the record draws 2s" in refused(state, Draw(1, T("2s")))
    play(state, Draw(1, T("1s")), Discard(1, T("1s"), tsumogiri=True))
    assert "the wall gives 2s, the record draws 1s" in refused(state, Draw(2, T("1s")))
    play(state, Draw(2, T("2s")))
    assert state.live_index == 3


def test_exhaustive_draw_noten_payments() -> None:
    state = started()
    state.tiles_left = 1
    play(state, Draw(0, T("7p")), Discard(0, T("7p"), tsumogiri=True))
    assert state.tiles_left == 0
    assert "the wall is exhausted" in refused(state, Draw(1, T("1s")))
    play(state, ExhaustiveDraw())
    assert state.result is not None
    # Seat 0 waits on 1p-4p, seat 2 on thirteen orphans, seat 1 on 5z: three tenpai.
    assert state.result.tenpai == (0, 1, 2)
    assert state.result.deltas == [1000, 1000, 1000, -3000]
    nxt = state.end_round()
    assert nxt is not None and nxt.dealer == 0 and nxt.honba == 1


def test_three_player_rules_refuse_chi_and_missing_tiles() -> None:
    hands = ("19m123p456p789p11s", "19m456s789s11z222z", "99m46p456s33z444z5z")
    round_ = Round(
        0, 1, 0, 0, 0, (35000,) * 3, tuple(tuple(parse_tiles(h)) for h in hands), (T("9s"),), ()
    )
    state = GameState(get_ruleset("tenhou-3p"))
    state.start_round(round_)
    assert "not used in 3-player" in refused(state, Draw(0, T("5m")))
    play(state, Draw(0, T("7z")), Discard(0, T("7z"), tsumogiri=True))
    assert state.tiles_left == 108 - 39 - 14 - 1


def test_pao_tsumo_with_honba_the_liable_player_pays_300_a_honba_points_exclude_them() -> None:
    # Seat 1 pons the three dragons from the dealer (liable for daisangen: pao), then draws
    # its tanki. Tenhou: on a tsumo the liable player pays the whole value and the honba as on
    # a ron (300 each); the hand's points (``ten``) are the value alone.
    hands = ("567z1469m258p368s", "55z66z77z123m99s45p", "1469m258p368s244z", "2358m147p2358s33z")
    state = GameState(get_ruleset("tenhou-4p-nored"))
    state.start_round(dataclasses.replace(make_round(hands, dora="1s"), honba=2))
    others = (Draw(2, T("9p")), Discard(2, T("9p"), tsumogiri=True))
    others += (Draw(3, T("7s")), Discard(3, T("7s"), tsumogiri=True))
    for dragon, thrown in (("5z", "5p"), ("6z", "4p"), ("7z", "9s")):
        play(
            state,
            Draw(0, T("1z")),
            Discard(0, T(dragon)),
            Pon(1, 0, T(dragon), (T(dragon), T(dragon))),
            Discard(1, T(thrown)),
            *others,
        )
    play(state, Draw(0, T("1z")), Discard(0, T("1z"), tsumogiri=True), Draw(1, T("9s")))
    play(state, Win(1, 1, T("9s")))
    assert state.result is not None
    win = state.result.wins[0]
    assert win.liable == 0
    assert win.points == 32000
    assert win.deltas == (-32600, 32600, 0, 0)


# Sanma: a riichi by the dealer, then seat 1 sets a North aside. Seat 0 waits on 1s-4s (the
# first game) or on 1s and North (the second).
SANMA_RIICHI = ("123p456p789p2344s", "4z199m2358p2358s6z", "1m37p37s66z77z555z2z")
SANMA_NORTH_WAIT = ("123p456p789p11s44z", *SANMA_RIICHI[1:])


def _sanma(ruleset: str, breaks: bool = True) -> GameState:
    """A sanma state; ``breaks=False`` a house rule in which a North breaks nothing."""
    return GameState(get_ruleset(ruleset).replace(kita_breaks_first_turn=breaks))


def _riichi_then_north(hands: tuple[str, ...], ruleset: str, breaks: bool = True) -> GameState:
    state = _sanma(ruleset, breaks)
    state.start_round(make_round(hands, scores=(35000, 35000, 35000), dora="1p"))
    play(
        state,
        Draw(0, T("9m")),
        RiichiDeclared(0),
        Discard(0, T("9m"), tsumogiri=True),
        RiichiAccepted(0),
        Draw(1, T("9s")),
        NorthExtraction(1, T("4z")),
    )
    return state


def _ippatsu(state: GameState) -> bool:
    assert state.result is not None
    return any(y.name == "ippatsu" for y in state.result.wins[0].score.yaku)


SANMA_CASES = [("tenhou-3p", True, False), ("majsoul-3p", True, False), ("tenhou-3p", False, True)]


@pytest.mark.parametrize(("ruleset", "breaks", "kept"), SANMA_CASES)
def test_a_north_extraction_breaks_ippatsu_on_tenhou_and_mahjong_soul(
    ruleset: str, breaks: bool, kept: bool
) -> None:
    state = _riichi_then_north(SANMA_RIICHI, ruleset, breaks)
    play(
        state,
        Draw(1, T("9s")),
        Discard(1, T("9s"), tsumogiri=True),
        Draw(2, T("8s")),
        Discard(2, T("8s"), tsumogiri=True),
        Draw(0, T("1s")),
        Win(0, 0, T("1s")),
    )
    assert _ippatsu(state) is kept


@pytest.mark.parametrize("ruleset", ["tenhou-3p", "majsoul-3p"])
def test_a_ron_on_the_extracted_north_keeps_ippatsu(ruleset: str) -> None:
    # As with an added kan, the extraction breaks ippatsu only once nobody robs it.
    state = play(_riichi_then_north(SANMA_NORTH_WAIT, ruleset), Win(0, 1, T("4z")))
    assert _ippatsu(state)


@pytest.mark.parametrize(("ruleset", "breaks", "double"), SANMA_CASES)
def test_a_north_extraction_in_the_first_go_around_breaks_double_riichi(
    ruleset: str, breaks: bool, double: bool
) -> None:
    hands = (SANMA_RIICHI[2], SANMA_RIICHI[1], SANMA_RIICHI[0])  # seat 2 is the riichi hand
    state = _sanma(ruleset, breaks)
    state.start_round(make_round(hands, scores=(35000, 35000, 35000), dora="1p"))
    play(
        state,
        Draw(0, T("8s")),
        Discard(0, T("8s"), tsumogiri=True),
        Draw(1, T("9s")),
        NorthExtraction(1, T("4z")),
        Draw(1, T("9s")),
        Discard(1, T("9s"), tsumogiri=True),
        Draw(2, T("9m")),
        RiichiDeclared(2),
        Discard(2, T("9m"), tsumogiri=True),
    )
    assert state.seats[2].double_riichi is double


def test_another_players_closed_kan_of_a_riichi_wait_does_not_make_the_riichi_furiten() -> None:
    # Seat 0 waits on 1m-4m in riichi; seat 1 makes a closed kan of 4m, which only thirteen
    # orphans could rob: seat 0 still rons 1m (as a real 2021 Tenhou game records).
    hands = ("23m567m567p99s666z", "444m1357p1357s12z", "2468p2468s34567z", "19m19p19s123457z8m")
    state = play(
        started(make_round(hands, dora="1s")),
        Draw(0, T("9p")),
        RiichiDeclared(0),
        Discard(0, T("9p"), tsumogiri=True),
        RiichiAccepted(0),
        Draw(1, T("4m")),
        ClosedKan(1, (T("4m"),) * 4),
        DoraRevealed(T("8s")),
        Draw(1, T("7z")),
        Discard(1, T("7z"), tsumogiri=True),
        Draw(2, T("1m")),
        Discard(2, T("1m"), tsumogiri=True),
    )
    assert state.is_legal(Win(0, 2, T("1m")))


def test_a_north_extracted_instead_of_the_discard_turns_the_open_kans_dora_on_mahjong_soul() -> (
    None
):
    # Mahjong Soul turns an open kan's indicator after the kanner's discard; an extraction made
    # instead of that discard turns it, before the replacement draw or a ron on the North
    # (jansou's game flow and RiichiEnv's Mahjong Soul sanma agree; the referee found it).
    hands = ("123p456p789p2344s", "4z666z199m2358p25s", "1m37p37s77z555z2z11s")
    state = GameState(get_ruleset("majsoul-3p"))
    state.start_round(make_round(hands, scores=(35000, 35000, 35000), dora="1p"))
    play(
        state,
        Draw(0, T("6z")),
        Discard(0, T("6z"), tsumogiri=True),
        OpenKan(1, 0, T("6z"), tuple(parse_tiles("666z"))),
        Draw(1, T("4z")),  # the replacement: a second North
    )
    assert "no kan dora indicator is due" in refused(state, DoraRevealed(T("1s")))
    play(state, NorthExtraction(1, T("4z")))
    assert "before the replacement draw" in refused(state, Draw(1, T("9s")))
    play(state, DoraRevealed(T("1s")), Draw(1, T("9s")))
    assert [str(tile) for tile in state.dora_indicators] == ["1p", "1s"]
    play(state, Discard(1, T("9s"), tsumogiri=True))  # and the discard turns none again
    assert "no kan dora indicator is due" in refused(state, DoraRevealed(T("2s")))


@pytest.mark.parametrize(("ruleset", "fourth"), [("tenhou-4p-nored", "5p"), ("majsoul-4p", "0p")])
def test_a_riichi_hand_may_not_kan_the_kind_it_waits_on(ruleset: str, fourth: str) -> None:
    # Seat 0 waits on 5p, 8p and 9s (456m 55567888p 99s: 555p 678p 88p 99s and more). A kan
    # of the fourth 5p would keep "5p" among the shapes' waits, but no 5p is left: the hand
    # could no longer win on it, so its winning tiles change (riichi.wiki "Kan": Tenhou and
    # Mahjong Soul allow a kan in riichi only where they stay the same; libriichi's Tenhou
    # rule, "Cannot kan a waited tile"). The referee found our engine allowing it.
    hands = ("456m55567888p99s", "13p456s789s11z222z", "46p456m789s33z444z", "13p456s789p11z555z")
    state = started(make_round(hands, dora="1s"), ruleset)
    play(state, Draw(0, T("7z")), RiichiDeclared(0), Discard(0, T("7z"), tsumogiri=True))
    play(state, RiichiAccepted(0))
    for seat in (1, 2, 3):
        play(state, Draw(seat, T("9m")), Discard(seat, T("9m"), tsumogiri=True))
    play(state, Draw(0, T(fourth)))
    kan = ClosedKan(0, (*(T("5p"),) * 3, T(fourth)))
    assert "keep the waits" in refused(state, kan)
    assert not [e for e in state.legal_actions() if isinstance(e, ClosedKan)]


def test_a_riichi_hand_may_kan_a_kind_it_does_not_wait_on() -> None:
    # 222p 123m 456m 789m 9s waits on 9s alone; the fourth 2p changes nothing: allowed.
    hands = ("123m456m789m222p9s", "13p456s789s11z222z", "46p456m789s33z444z", "13p456s789p11z555z")
    state = started(make_round(hands, dora="1s"))
    play(state, Draw(0, T("7z")), RiichiDeclared(0), Discard(0, T("7z"), tsumogiri=True))
    play(state, RiichiAccepted(0))
    for seat in (1, 2, 3):
        play(state, Draw(seat, T("8m")), Discard(seat, T("8m"), tsumogiri=True))
    play(state, Draw(0, T("2p")))
    assert state.is_legal(ClosedKan(0, (T("2p"),) * 4))


def test_temporary_furiten_ends_with_the_seats_discard_after_a_call() -> None:
    # Seat 1 (23p 789m 123s 55z 111z) waits on 1p-4p and lets seat 3's 1p pass: temporarily
    # furiten. It then pons seat 0's haku and discards, with no draw between: that discard ends
    # the temporary furiten (riichi.wiki "Furiten": "until their next discard"; libriichi clears
    # it at the seat's own discard), so it may ron seat 2's 4p. The referee found our engine
    # keeping it until a draw (tenhou-4p seed 13141, round 9 (S4), event 155).
    hands = (
        "456m456p456s5z666z",
        "23p789m123s55z111z",
        "468p2468s3m4m7z777z",
        "1p3m5m7m2s4s6s8s9p1z2z3z4z",
    )
    state = started(make_round(hands, dora="9s"))
    play(
        state,
        Draw(0, T("9m")), Discard(0, T("9m"), tsumogiri=True),
        Draw(1, T("9p")), Discard(1, T("9p"), tsumogiri=True),
        Draw(2, T("8m")), Discard(2, T("8m"), tsumogiri=True),
        Draw(3, T("8p")), Discard(3, T("1p")),
        Draw(0, T("7p")), Discard(0, T("5z")),
    )  # fmt: skip
    assert state.furiten(1)
    play(state, Pon(1, 0, T("5z"), (T("5z"), T("5z"))), Discard(1, T("1z")))
    assert not state.furiten(1)
    play(state, Draw(2, T("9p")), Discard(2, T("4p")))
    assert state.is_legal(Win(1, 2, T("4p")))
