"""The space shapes as a description (engine/hand/shapes.py) and as the state machine uses them:
wrapped partial waits, chi validity and chi options, swap calls, seats' waits, frames."""

from __future__ import annotations

import pytest

import engine
from engine.errors import InvalidHandError, UnknownRulesetError
from engine.events import Chi, Discard, Draw, Win
from engine.frames import round_frames
from engine.hand.decompose import WaitShape
from engine.hand.melds import Meld, called_honour_runs
from engine.hand.shapes import SPACE, SPACE_WITHOUT_OPEN_KOKUSHI, STANDARD, shapes_for
from engine.rules import get_ruleset
from engine.scoring.request import score_request
from engine.scoring.score import WinningHand, score_hand
from engine.sim.selfplay import simulate
from engine.state import GameState, Phase
from engine.tiles import KINDS, format_kind, parse_tile, parse_tiles
from tests.engine.dealt import dealt_state
from tests.engine.variants.space.helpers import KANCHAN, PENCHAN, RYANMEN, kind, kinds, waits_of

# Three triplets and a pair that join no run with the partials below.
REST = "111p555s777z22z"


@pytest.mark.parametrize(
    ("partial", "expected"),
    [
        ("91m", {"8m": {RYANMEN}, "2m": {RYANMEN}}),  # 891 and 912: both ends
        ("12m", {"9m": {RYANMEN}, "3m": {RYANMEN}}),  # 912 and 123
        ("89m", {"7m": {RYANMEN}, "1m": {RYANMEN}}),  # no edge wait in a cycle
        ("13m", {"2m": {KANCHAN}}),
        ("92m", {"1m": {KANCHAN}}),  # the middle of 912
        ("81m", {"9m": {KANCHAN}}),  # the middle of 891
    ],
)
def test_wrapped_partial_runs_and_their_wait_shapes(
    partial: str, expected: dict[str, set[WaitShape]]
) -> None:
    # The brief's reading of seeds/000 lines 9-14: the ranks form a cycle, so 9-1 and 1-2 are
    # two-sided partials, and 1-3, 9-2, 8-1 closed ones.
    assert waits_of(SPACE, partial + REST) == expected


def test_the_standard_shapes_keep_edge_waits() -> None:
    assert waits_of(STANDARD, "89m" + REST) == {"7m": {PENCHAN}}
    assert waits_of(STANDARD, "91m" + REST) == {}


def test_every_rank_starts_one_run_and_no_wait_is_an_edge() -> None:
    # 9 runs per suit, 4 wind runs, 1 dragon run; standard: 7 per suit, none of honours.
    assert sum(run is not None for run in SPACE.run_kinds) == 27 + 4 + 1
    assert sum(run is not None for run in STANDARD.run_kinds) == 21
    for holding in SPACE.runs_holding:
        assert all(shape is not WaitShape.PENCHAN for _, shape in holding)
    # Each number kind is in three runs, each wind in three of the four wind runs, each dragon
    # in the one dragon run (listed twice: as ryanmen and as kanchan).
    assert [len(SPACE.runs_with[k]) for k in range(KINDS)] == [3] * 27 + [3] * 4 + [1] * 3
    assert {shape for _, shape in SPACE.runs_holding[kind("6z")]} == {RYANMEN, KANCHAN}


def test_parts_are_the_suits_the_winds_and_the_dragons() -> None:
    assert [part.kinds for part in SPACE.parts] == [
        tuple(range(0, 9)),
        tuple(range(9, 18)),
        tuple(range(18, 27)),
        tuple(range(27, 31)),
        tuple(range(31, 34)),
    ]
    # Standard: the suits and each honour alone.
    assert len(STANDARD.parts) == 3 + 7


def test_outside_runs_hold_a_terminal_or_an_honour() -> None:
    outside = {start for start in range(KINDS) if SPACE.outside_run[start]}
    # 123 (0), 789 (6), 891 (7), 912 (8) of each suit, every honour run.
    assert outside == {base + rank for base in (0, 9, 18) for rank in (0, 6, 7, 8)} | set(
        range(27, 32)
    )


def test_swap_call_kinds_follow_the_cycle() -> None:
    # Chi 9m with 12m (912m): 9m itself and 3m (12m waited on 9m and 3m). Chi 3m with 12m:
    # 3m and 9m. Chi 1m with 92m (the middle): only 1m. Standard 789m with 7m called: 7m only.
    assert SPACE.swap_kinds(SPACE.run_start(kinds("912m")) or 0, kind("9m")) == {
        kind("9m"),
        kind("3m"),
    }
    assert SPACE.swap_kinds(0, kind("3m")) == {kind("3m"), kind("9m")}
    assert SPACE.swap_kinds(8, kind("1m")) == {kind("1m")}
    assert STANDARD.swap_kinds(6, kind("7m")) == {kind("7m")}
    assert STANDARD.swap_kinds(0, kind("1m")) == {kind("1m"), kind("4m")}
    # Winds: chi 1z with 23z -> 1z and 4z.
    assert SPACE.swap_kinds(27, kind("1z")) == {kind("1z"), kind("4z")}


def test_shapes_follow_the_rule_set() -> None:
    assert shapes_for(get_ruleset("tenhou-4p")) is STANDARD
    space = get_ruleset("space-4p")
    assert shapes_for(space) is SPACE
    assert shapes_for(space.replace(open_kokushi_han=0)) is SPACE_WITHOUT_OPEN_KOKUSHI
    # The compiled engine (python -m engine.compile) already refuses the ill-typed rule set.
    with pytest.raises(TypeError if engine.is_compiled() else UnknownRulesetError):
        shapes_for(space.replace(shapes="hexagonal"))


# -- the state machine ------------------------------------------------------------------------


def _state(ruleset_name: str, hands: tuple[str, str, str, str]) -> GameState:
    return dealt_state(hands, ruleset=ruleset_name, indicators="2s")


HANDS = (
    "9m2233p456s11234z",  # the dealer: discards 9m or 7z
    "123m5p789s555z66z9p",  # seat 1 (on the dealer's left): 12m, 56z
    "1122334455667s",
    "1199m1199p1199s7z",
)


def test_a_wrapped_chi_is_legal_only_with_the_space_shapes() -> None:
    chi = Chi(1, 0, parse_tile("9m"), tuple(parse_tiles("12m")))
    for name, legal in (("space-4p", True), ("tenhou-4p", False)):
        state = _state(name, HANDS)
        state.apply(Draw(0, parse_tile("8s")))
        state.apply(Discard(0, parse_tile("9m")))
        assert (chi in state.legal_actions()) is legal, name
        problem = state.why_illegal(chi)
        assert (problem is None) is legal, (name, problem)
        if not legal:
            assert problem is not None and "not a run" in problem
            continue
        state.apply(chi)
        meld = state.seats[1].melds[0]
        assert meld.kind == kind("9m") and meld.is_run
        assert state.phase is Phase.ACT
        # Swap calls: 12m waited on 9m and 3m, so 3m may not go now; 5p may.
        problem = state.why_illegal(Discard(1, parse_tile("3m")))
        assert problem is not None and "kuikae" in problem
        assert state.why_illegal(Discard(1, parse_tile("5p"))) is None


def test_honour_runs_are_offered_as_chi() -> None:
    for name, offered in (("space-4p", True), ("tenhou-4p", False)):
        state = _state(name, HANDS)
        state.apply(Draw(0, parse_tile("7z")))
        state.apply(Discard(0, parse_tile("7z"), tsumogiri=True))
        options = [event for event in state.legal_actions() if isinstance(event, Chi)]
        chi = Chi(1, 0, parse_tile("7z"), tuple(parse_tiles("56z")))
        assert options == ([chi] if offered else []), name


def test_seats_wait_with_the_space_shapes() -> None:
    # A seat holding 234m456p678s55m12z (a wind partial) waits on 3z and 4z in space mahjong,
    # on nothing in the standard rules.
    hands = ("234m456p678s55m12z", HANDS[1], HANDS[2], HANDS[3])
    assert _state("space-4p", hands).waits(0) == {kind("3z"), kind("4z")}
    assert _state("tenhou-4p", hands).waits(0) == frozenset()


def test_frames_show_space_shanten_and_waits() -> None:
    differs = 0
    for game in simulate("space-4p", 2, 3):
        for index in range(len(game.rounds)):
            frames = round_frames(game, index)
            assert frames.stopped is None
            state = GameState(get_ruleset("space-4p"))
            state.start_round(game.rounds[index])
            for step, frame in enumerate(frames.frames):
                if step:
                    state.apply(game.rounds[index].events[step - 1])
                for seat, shown in enumerate(frame.seats):
                    data = state.seats[seat]
                    called = called_honour_runs(data.melds)
                    assert shown.shanten == SPACE.shanten(data.counts, called), step
                    if sum(data.counts) % 3 == 1 and shown.shanten == 0:
                        waits = [format_kind(k) for k in SPACE.winning_kinds(data.counts, called)]
                        assert [wait.tile for wait in shown.waits] == waits, step
                    differs += shown.shanten != STANDARD.shanten(data.counts)
    # The frames are the space shapes', not the standard ones'.
    assert differs > 100


def test_a_space_meld_is_refused_under_the_standard_shapes_when_scored() -> None:
    # 345m 456s 777z 22p with 912m called, won on 2p: chun, 1 han, under space-4p.
    meld = {"type": "chi", "tiles": "912m"}
    request = {"hand": "345m456s777z22p", "win": "2p", "melds": [meld]}
    assert [y["name"] for y in score_request({"ruleset": "space-4p", **request})["yaku"]] == [
        "chun"
    ]
    # The request reads melds with the rule set's shapes: no such chi in tenhou-4p ...
    refused = score_request({"ruleset": "tenhou-4p", **request})
    assert refused["error"] == "invalid_hand" and "chi 912m" in refused["message"]
    # ... and a meld made with the space shapes is refused when scored under the standard ones.
    hand = WinningHand(
        tiles=tuple(parse_tiles("345m456s777z22p")),
        win_tile=parse_tile("2p"),
        melds=(Meld.parse("chi", "912m", SPACE),),
    )
    with pytest.raises(InvalidHandError, match="not a run"):
        score_hand(hand, get_ruleset("tenhou-4p"))
    assert score_hand(hand, get_ruleset("space-4p")).han == 1


def _open_kokushi_play(ruleset_name: str, **options: object) -> GameState:
    """Seat 1 calls 234z and 567z from the dealer and waits on 1z with 19m19p119s (seeds/000
    line 64's hand); seat 2 then draws and discards 1z."""
    hands = ("234p567p22s345s4z7z", "19m19p119s23z56z45m", "2345678m234567p", "2345678s345678p")
    ruleset = get_ruleset(ruleset_name).replace(**options)
    state = dealt_state(hands, ruleset=ruleset, indicators="3m")
    t = parse_tile
    for event in (
        Draw(0, t("6s")),
        Discard(0, t("4z")),
        Chi(1, 0, t("4z"), (t("2z"), t("3z"))),
        Discard(1, t("5m")),
        Draw(2, t("5s")),
        Discard(2, t("5s"), tsumogiri=True),
        Draw(3, t("6s")),
        Discard(3, t("6s"), tsumogiri=True),
        Draw(0, t("7s")),
        Discard(0, t("7z")),
        Chi(1, 0, t("7z"), (t("5z"), t("6z"))),
        Discard(1, t("4m")),
        Draw(2, t("1z")),
        Discard(2, t("1z"), tsumogiri=True),
    ):
        state.apply(event)
    return state


def test_an_open_kokushi_is_won_in_play() -> None:
    # seeds/000 line 64: with 234z and 567z called, 19m19p119s waits on 1z; seat 2's 1z is a
    # ron worth open_kokushi's 3 han, 30 fu: 3900 from seat 2.
    state = _open_kokushi_play("space-4p")
    assert state.waits(1) == {kind("1z")}
    win = Win(1, 2, parse_tile("1z"))
    assert win in state.legal_actions()
    state.apply(win)
    assert state.result is not None
    (result,) = state.result.wins
    assert [(y.name, y.han) for y in result.score.yaku] == [("open_kokushi", 3)]
    assert result.deltas == (0, 3900, -3900, 0)


def test_without_open_kokushi_the_same_hand_waits_on_nothing() -> None:
    state = _open_kokushi_play("space-4p", open_kokushi_han=0)
    assert state.waits(1) == frozenset()
    problem = state.why_illegal(Win(1, 2, parse_tile("1z")))
    assert problem is not None and "does not complete" in problem
