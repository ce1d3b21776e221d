"""The rule modifiers' play hooks and the example powers (``second_chance``, ``swap``, ``peek``),
each tested from its one-line rule, in self-play that replays as verified, and against records
that use a power where it is not allowed (the replayer names that event first); and the refusal
of a modifier that a game cannot apply.

The rules (``engine/rules/modifiers.py``, ``docs/rules.md``; our own design):

* ``second_chance``: once per hand, a seat not in riichi whose discard nobody claims may draw
  again at once instead of passing the turn.
* ``swap``: once per hand, after a draw, a seat not in riichi may swap a concealed tile with a
  dora indicator; then it discards.
* ``peek``: every seat sees the concealed hand of the next player in turn order.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from engine.errors import IllegalActionError, UnknownRulesetError
from engine.events import (
    Chi,
    Discard,
    Draw,
    Event,
    Game,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Swap,
    Wall,
    Win,
)
from engine.families import family_of, with_modifiers
from engine.formats import canonical
from engine.replay import Verdict, replay
from engine.rules import get_ruleset
from engine.rules.modifiers import (
    HOOKS,
    MODIFIERS,
    PLAY_HOOKS,
    PlayView,
    RuleModifier,
    register,
)
from engine.rules.presets import with_overrides
from engine.scoring.request import score_request
from engine.sim.bots import GreedyBot, RandomBot
from engine.sim.selfplay import play_game, simulate
from engine.state import GameState, Phase
from engine.tiles import parse_tile, parse_tiles
from tests.engine.test_state import play

T = parse_tile

# Seat 0 (the dealer) holds 1m-9m 23p 55s: tenpai on 1p-4p. The others hold honours and
# terminals that none of the tests calls.
HANDS = (
    "123m456m789m23p55s",
    "111z222z333z444z5z",
    "19m19p19s1234567z",
    "223344s6679p567z",
)
#: The live wall: seat 0 draws 9s, seat 1 would draw 8s next, ...
LIVE = "9s8s7s6s1p5p6p8m"


def make_round(hands: tuple[str, ...] = HANDS, live: str = LIVE, dora: str = "3s") -> Round:
    wall = Wall(
        live=tuple(parse_tiles(live)),
        replacements=(),
        dora_indicators=tuple(parse_tiles(dora)),
        ura_indicators=(),
    )
    return Round(
        wind=0,
        number=1,
        dealer=0,
        honba=0,
        sticks=0,
        scores=(25000,) * 4,
        hands=tuple(tuple(parse_tiles(hand)) for hand in hands),
        dora_indicators=tuple(parse_tiles(dora)),
        events=(),
        wall=wall,
    )


def started(
    *modifiers: str, preset: str = "tenhou-4p-nored", round_: Round | None = None
) -> GameState:
    state = GameState(get_ruleset(preset).replace(modifiers=modifiers))
    state.start_round(round_ or make_round())
    return state


def refused(state: GameState, event: Event) -> str:
    reason = state.why_illegal(event)
    assert reason is not None, f"{event} should be illegal"
    with pytest.raises(IllegalActionError):
        state.apply(event)
    return reason


# -- the plug-in point ------------------------------------------------------------------------


def test_every_hook_defaults_to_no_change() -> None:
    class Plain(RuleModifier):
        name = "test_plain"
        description = "overrides nothing"

    plain = Plain()
    state = started()
    assert Plain.hooks() == frozenset()
    assert plain.redraw(state, 0) is False
    assert plain.may_call(state, 1, 0, "chi") is None
    assert plain.visible(state, 0) == frozenset()
    assert plain.swap(state, 0) is False
    assert set(HOOKS) == {"bonus", *PLAY_HOOKS}


def test_each_example_power_declares_the_hooks_it_overrides() -> None:
    assert MODIFIERS["lucky_sevens"].hooks() == {"bonus"}
    assert MODIFIERS["second_chance"].hooks() == {"redraw"}
    assert MODIFIERS["swap"].hooks() == {"swap"}
    assert MODIFIERS["peek"].hooks() == {"visible"}


def test_the_state_machine_is_a_play_view() -> None:
    view: PlayView = started()
    assert view.players == 4
    assert [str(tile) for tile in view.dora_indicators] == ["3s"]
    assert not view.in_riichi(0)
    assert view.concealed(0) == list(parse_tiles(HANDS[0]))
    assert view.power_uses(0, "second_chance") == 0


# -- second_chance ------------------------------------------------------------------------------


def test_second_chance_a_seat_whose_discard_nobody_claims_draws_again_at_once() -> None:
    state = started("second_chance")
    play(state, Draw(0, T("9s")), Discard(0, T("9s"), tsumogiri=True))
    assert Draw(0, T("8s")) in state.legal_actions()
    play(state, Draw(0, T("8s")))  # the wall's next tile: the one seat 1 would have drawn
    assert state.phase is Phase.ACT and state.turn == 0
    assert state.power_uses(0, "second_chance") == 1
    play(state, Discard(0, T("8s"), tsumogiri=True))
    # Then the turn passes on as usual.
    assert "seat 1 draws next" in refused(state, Draw(2, T("7s")))
    play(state, Draw(1, T("7s")))


def test_second_chance_draws_the_recorded_walls_next_tile() -> None:
    state = started("second_chance")
    play(state, Draw(0, T("9s")), Discard(0, T("9s"), tsumogiri=True))
    assert "the wall gives 8s" in refused(state, Draw(0, T("7s")))


def test_second_chance_is_once_per_hand() -> None:
    state = started("second_chance")
    play(state, Draw(0, T("9s")), Discard(0, T("9s"), tsumogiri=True), Draw(0, T("8s")))
    play(state, Discard(0, T("8s"), tsumogiri=True))
    assert "no redraw is left to seat 0" in refused(state, Draw(0, T("7s")))
    # Another seat still has its own.
    play(state, Draw(1, T("7s")), Discard(1, T("7s"), tsumogiri=True), Draw(1, T("6s")))
    # A new hand gives it back.
    state.start_round(make_round())
    play(state, Draw(0, T("9s")), Discard(0, T("9s"), tsumogiri=True), Draw(0, T("8s")))


def test_second_chance_not_in_riichi() -> None:
    # Seat 0 is tenpai (1p-4p): riichi, discard, accepted; no second chance after it.
    state = started("second_chance")
    play(state, Draw(0, T("9s")), RiichiDeclared(0), Discard(0, T("9s"), tsumogiri=True))
    play(state, RiichiAccepted(0))
    assert "no redraw is left" in refused(state, Draw(0, T("8s")))


def test_second_chance_only_when_nobody_claims_the_discard() -> None:
    # Seat 1 pons seat 0's discard: the turn is seat 1's, and seat 0 has nothing to redraw.
    hands = ("123m456m789m23p55s", "1p1p5z5z2z2z3z3z4z4z6z6z7z", *HANDS[2:])
    state = started("second_chance", round_=make_round(hands, live="1p8s7s6s"))
    play(state, Draw(0, T("1p")), Discard(0, T("1p"), tsumogiri=True))
    play(state, Pon(1, 0, T("1p"), tuple(parse_tiles("1p1p"))))
    assert "no draw now" in refused(state, Draw(0, T("8s")))


def test_second_chance_ends_the_first_go_around() -> None:
    state = started("second_chance")
    assert state.first_turn
    play(state, Draw(0, T("9s")), Discard(0, T("9s"), tsumogiri=True), Draw(0, T("8s")))
    assert not state.first_turn


def test_without_second_chance_the_discarder_cannot_draw_again() -> None:
    state = started()
    play(state, Draw(0, T("9s")), Discard(0, T("9s"), tsumogiri=True))
    reason = refused(state, Draw(0, T("8s")))
    assert reason == "seat 1 draws next, not seat 0"
    assert Draw(0, T("8s")) not in state.legal_actions()


# -- swap ---------------------------------------------------------------------------------------


def test_swap_after_a_draw_the_tile_becomes_the_indicator_the_indicator_joins_the_hand() -> None:
    state = started("swap")
    play(state, Draw(0, T("9s")))
    assert Swap(0, T("9s"), T("3s")) in state.legal_actions()
    play(state, Swap(0, T("5s"), T("3s")))
    assert [str(tile) for tile in state.dora_indicators] == ["5s"]  # the dora is now 6s
    held = state.concealed(0)
    assert T("3s") in held and held.count(T("5s")) == 1
    assert state.power_uses(0, "swap") == 1


def test_after_a_swap_the_seat_discards_no_tsumo_riichi_or_tsumogiri() -> None:
    state = started("swap")
    play(state, Draw(0, T("9s")), Swap(0, T("9s"), T("3s")))
    assert "only after a draw" in refused(state, RiichiDeclared(0))
    assert "cannot win by tsumo now" in refused(state, Win(0, 0, T("3s")))
    assert "not" in refused(state, Discard(0, T("3s"), tsumogiri=True))
    assert all(
        isinstance(action, Discard) and not action.tsumogiri for action in state.legal_actions()
    )
    play(state, Discard(0, T("3s")))


def test_swap_is_once_per_hand() -> None:
    state = started("swap")
    play(state, Draw(0, T("9s")), Swap(0, T("9s"), T("3s")), Discard(0, T("3s")))
    for seat, tile in ((1, "8s"), (2, "7s"), (3, "6s")):
        play(state, Draw(seat, T(tile)), Discard(seat, T(tile), tsumogiri=True))
    play(state, Draw(0, T("1p")))
    assert "no swap left to it" in refused(state, Swap(0, T("1p"), T("9s")))


def test_swap_only_after_a_draw_not_after_a_call() -> None:
    hands = ("123m456m789m23p55s", "1p1p5z5z2z2z3z3z4z4z6z6z7z", *HANDS[2:])
    state = started("swap", round_=make_round(hands, live="1p8s7s6s"))
    play(state, Draw(0, T("1p")), Discard(0, T("1p"), tsumogiri=True))
    play(state, Pon(1, 0, T("1p"), tuple(parse_tiles("1p1p"))))
    assert "only after a draw" in refused(state, Swap(1, T("7z"), T("3s")))


def test_swap_not_in_riichi() -> None:
    state = started("swap")
    play(state, Draw(0, T("9s")), RiichiDeclared(0), Discard(0, T("9s"), tsumogiri=True))
    play(state, RiichiAccepted(0))
    for seat, tile in ((1, "8s"), (2, "7s"), (3, "6s")):
        play(state, Draw(seat, T(tile)), Discard(seat, T(tile), tsumogiri=True))
    play(state, Draw(0, T("1p")))
    assert "in riichi" in refused(state, Swap(0, T("1p"), T("3s")))


def test_swap_needs_a_held_tile_and_a_showing_indicator() -> None:
    state = started("swap")
    play(state, Draw(0, T("9s")))
    assert "do not hold" in refused(state, Swap(0, T("1z"), T("3s")))
    assert "is not a dora indicator showing" in refused(state, Swap(0, T("9s"), T("4s")))


def test_without_swap_no_swap_is_legal() -> None:
    state = started()
    play(state, Draw(0, T("9s")))
    assert "no rule modifier in force has one" in refused(state, Swap(0, T("9s"), T("3s")))
    assert not any(isinstance(action, Swap) for action in state.legal_actions())


def test_a_swapped_indicator_changes_the_dora_of_a_win() -> None:
    # Seat 0 draws 4s and swaps it for the 3s indicator: 4s shows, so the dora is 5s (its pair)
    # instead of 4s; it discards the 3s taken, and wins on 1p by tsumo.
    state = started("swap", round_=make_round(live="4s8s7s6s1p"))
    play(state, Draw(0, T("4s")), Swap(0, T("4s"), T("3s")), Discard(0, T("3s")))
    for seat, tile in ((1, "8s"), (2, "7s"), (3, "6s")):
        play(state, Draw(seat, T(tile)), Discard(seat, T(tile), tsumogiri=True))
    play(state, Draw(0, T("1p")), Win(0, 0, T("1p")))
    assert state.result is not None
    yaku = {yaku.name: yaku.han for yaku in state.result.wins[0].score.yaku}
    assert yaku["dora"] == 2  # the 55s pair, by the swapped-in 4s indicator


# -- peek -----------------------------------------------------------------------------------------


def test_peek_every_seat_sees_the_next_players_concealed_hand() -> None:
    state = started("peek")
    assert state.visible_hands(0) == {1: state.concealed(1)}
    assert state.visible_hands(3) == {0: state.concealed(0)}
    assert started().visible_hands(0) == {}


def test_a_greedy_bot_with_peek_keeps_out_of_the_wait_it_sees() -> None:
    # Seat 3 holds 23p 55s beside three runs: tenpai on 1p-4p. Seat 2, to play after drawing 9s,
    # may drop 1p or 9s alike (each leaves it as near to tenpai; the 1p comes first). Seeing
    # seat 3's hand, it keeps the 1p that seat 3 waits on.
    hands = (
        "19m19p19s1234567z",
        "2468m2468p2468s1z",
        "1p567p345s33z66z77z",
        "123m456m789m23p55s",
    )
    round_ = dataclasses.replace(make_round(hands, live="9s"), dealer=2, number=3)
    for peeking in (False, True):
        state = started(*(("peek",) if peeking else ()), round_=round_)
        play(state, Draw(2, T("9s")))
        options = [action for action in state.legal_actions() if getattr(action, "seat", 2) == 2]
        choice = GreedyBot().choose(state, 2, options)
        assert isinstance(choice, Discard)
        assert (choice.tile.kind == T("1p").kind) is not peeking, choice


# -- self-play: every power used, every game verified ---------------------------------------------


def _power_uses(game: Game) -> dict[str, int]:
    """How often the game uses each power that leaves a mark in the record."""
    counts = {"swap": 0, "second_chance": 0}
    for round_ in game.rounds:
        previous: Event | None = None
        for event in round_.events:
            if isinstance(event, Swap):
                counts["swap"] += 1
            if isinstance(previous, Discard) and isinstance(event, Draw):
                counts["second_chance"] += event.seat == previous.seat
            previous = event
    return counts


@pytest.mark.parametrize(
    "modifiers",
    [("second_chance",), ("swap",), ("peek",), ("second_chance", "swap", "peek", "lucky_sevens")],
)
def test_self_played_games_with_each_power_use_it_and_replay_as_verified(
    modifiers: tuple[str, ...],
) -> None:
    games = list(simulate("minigame-4p", 4, 3, modifiers=modifiers))
    uses = {"swap": 0, "second_chance": 0}
    for game in games:
        assert game.header.rule_overrides == {"modifiers": list(modifiers)}
        again = canonical.loads(canonical.dumps(game))[0]
        assert again == game
        report = replay(again)
        assert report.verdict is Verdict.VERIFIED, report.discrepancy
        for power, count in _power_uses(game).items():
            uses[power] += count
    for power in ("swap", "second_chance"):
        assert (uses[power] > 0) is (power in modifiers), uses


def test_random_bots_use_the_powers_and_their_games_verify() -> None:
    ruleset = get_ruleset("tenhou-4p").replace(modifiers=("second_chance", "swap"))
    rng = random.Random(11)
    uses = {"swap": 0, "second_chance": 0}
    for _ in range(3):
        game = play_game(ruleset, [RandomBot(rng) for _ in range(4)], rng)
        report = replay(canonical.loads(canonical.dumps(game))[0])
        assert report.verdict is Verdict.VERIFIED, report.discrepancy
        for power, count in _power_uses(game).items():
            uses[power] += count
    assert all(uses.values()), uses


def test_peek_changes_how_the_bots_play() -> None:
    plain = list(simulate("tenhou-4p", 3, 5))
    peeking = list(simulate("tenhou-4p", 3, 5, modifiers=("peek",)))
    assert [game.rounds for game in plain] != [game.rounds for game in peeking]
    assert peeking[0].header.source.id == "tenhou-4p+peek-seed-5-0"


# -- an illegal use is the first event the replayer names -----------------------------------------


def _self_played(modifiers: tuple[str, ...]) -> Game:
    return next(iter(simulate("tenhou-4p", 1, 3, modifiers=modifiers)))


def _first(game: Game, found: type[Event] | None = None) -> tuple[int, int]:
    """(round, event) of the first swap (``found`` Swap) or second-chance draw."""
    for round_index, round_ in enumerate(game.rounds):
        for index, event in enumerate(round_.events):
            if found is not None and isinstance(event, found):
                return round_index, index
            previous = round_.events[index - 1] if index else None
            if (
                found is None
                and isinstance(event, Draw)
                and isinstance(previous, Discard)
                and previous.seat == event.seat
            ):
                return round_index, index
    raise AssertionError("the power was never used")


def _without_modifiers(game: Game) -> Game:
    return dataclasses.replace(game, header=dataclasses.replace(game.header, rule_overrides={}))


def _with_events(game: Game, round_index: int, events: list[Event]) -> Game:
    rounds = list(game.rounds)
    rounds[round_index] = dataclasses.replace(rounds[round_index], events=tuple(events))
    return dataclasses.replace(game, rounds=tuple(rounds))


@pytest.mark.parametrize(("power", "found"), [("swap", Swap), ("second_chance", None)])
def test_a_power_used_without_the_modifier_is_the_first_disagreeing_event(
    power: str, found: type[Event] | None
) -> None:
    game = _self_played((power,))
    round_index, index = _first(game, found)
    report = replay(_without_modifiers(game))
    assert report.verdict is Verdict.ILLEGAL_ACTION
    assert report.discrepancy is not None
    assert (report.discrepancy.round, report.discrepancy.event) == (round_index, index)
    expected = "no rule modifier in force" if power == "swap" else "draws next, not seat"
    assert expected in report.discrepancy.expected


def _state_before(game: Game, round_index: int, index: int) -> GameState:
    """The state of a round (played on its own) just before its event ``index``."""
    round_ = game.rounds[round_index]
    state = GameState(with_overrides(game.header.ruleset, game.header.rule_overrides))
    state.start_round(round_)
    assert state.push_events(round_.events[:index]) is None
    return state


def _turns_of(events: tuple[Event, ...], seat: int, after: int) -> Iterator[int]:
    """Indexes of the seat's draws after event ``after``."""
    for index in range(after + 1, len(events)):
        event = events[index]
        if isinstance(event, Draw) and event.seat == seat:
            yield index


def test_a_second_swap_in_a_hand_is_the_first_disagreeing_event() -> None:
    game = _self_played(("swap",))
    round_index, index = _first(game, Swap)
    events = list(game.rounds[round_index].events)
    seat = events[index].seat  # type: ignore[union-attr]
    # At the seat's next draw (not in riichi, or any seat would do), a second swap.
    for draw in _turns_of(tuple(events), seat, index):
        state = _state_before(game, round_index, draw + 1)
        if state.phase is Phase.ACT and not state.in_riichi(seat) and not state.dora_due:
            break
    else:
        pytest.skip("the seat had no later turn in that hand")
    second = Swap(seat, state.concealed(seat)[0], state.dora_indicators[0])
    events.insert(draw + 1, second)
    report = replay(_with_events(game, round_index, events))
    assert report.verdict is Verdict.ILLEGAL_ACTION
    assert report.discrepancy is not None
    assert (report.discrepancy.round, report.discrepancy.event) == (round_index, draw + 1)
    assert "no swap left to it this hand" in report.discrepancy.expected


def test_a_second_redraw_in_a_hand_is_the_first_disagreeing_event() -> None:
    game = _self_played(("second_chance",))
    round_index, index = _first(game)
    events = list(game.rounds[round_index].events)
    seat = events[index].seat  # type: ignore[union-attr]
    # A later discard of the seat followed by the next seat's draw: the seat draws instead.
    for later in range(index + 1, len(events) - 1):
        discard, draw = events[later], events[later + 1]
        if (
            isinstance(discard, Discard)
            and discard.seat == seat
            and isinstance(draw, Draw)
            and draw.seat != seat
        ):
            break
    else:
        pytest.skip("the seat made no later unclaimed discard in that hand")
    events[later + 1] = Draw(seat, draw.tile)
    report = replay(_with_events(game, round_index, events))
    assert report.verdict is Verdict.ILLEGAL_ACTION
    assert report.discrepancy is not None
    assert (report.discrepancy.round, report.discrepancy.event) == (round_index, later + 1)
    assert f"no redraw is left to seat {seat}" in report.discrepancy.expected


# -- the call hook, with a modifier of the test's own ------------------------------------------


@pytest.fixture
def chi_from_anyone() -> Iterator[str]:
    @register
    class ChiFromAnyone(RuleModifier):
        name = "test_chi_from_anyone"
        description = "any seat may chi any discard; nobody may open kan"

        def may_call(self, view: PlayView, seat: int, discarder: int, call: str) -> bool | None:
            return {"chi": True, "open_kan": False}.get(call)

    try:
        yield ChiFromAnyone.name
    finally:
        del MODIFIERS[ChiFromAnyone.name]


def test_the_call_hook_allows_a_chi_from_any_seat_and_forbids_open_kans(
    chi_from_anyone: str,
) -> None:
    hands = ("123m456m789m23p55s", "111z222z333z444z5z", "45p19m9p19s123456z", HANDS[3])
    chi = Chi(2, 0, T("3p"), tuple(parse_tiles("45p")))
    plain = started(round_=make_round(hands, live="3p"))
    play(plain, Draw(0, T("3p")), Discard(0, T("3p"), tsumogiri=True))
    assert "only allowed on the discard of the player to the left" in refused(plain, chi)
    state = started(chi_from_anyone, round_=make_round(hands, live="3p"))
    play(state, Draw(0, T("3p")), Discard(0, T("3p"), tsumogiri=True))
    assert chi in state.legal_actions()
    play(state, chi)
    assert state.turn == 2 and state.power_uses(2, chi_from_anyone) == 1


def test_self_play_with_the_call_hook_replays_as_verified(chi_from_anyone: str) -> None:
    games = list(simulate("tenhou-4p", 3, 2, modifiers=(chi_from_anyone,)))
    far_chi = 0
    for game in games:
        report = replay(canonical.loads(canonical.dumps(game))[0])
        assert report.verdict is Verdict.VERIFIED, report.discrepancy
        far_chi += sum(
            isinstance(event, Chi) and event.seat != (event.from_seat + 1) % 4
            for round_ in game.rounds
            for event in round_.events
        )
    assert far_chi > 0


# -- refusing a modifier a game cannot apply ------------------------------------------------------


def test_small_mahjong_refuses_a_scoring_modifier_naming_it_and_the_game() -> None:
    with pytest.raises(UnknownRulesetError) as refusal:
        get_ruleset("small-4p").replace(modifiers=("lucky_sevens",))
    message = str(refusal.value)
    assert "lucky_sevens" in message and "small mahjong" in message and "small-4p" in message


def test_a_small_mahjong_record_naming_a_scoring_modifier_is_refused_not_ignored() -> None:
    game = next(iter(simulate("small-4p", 1, 1)))
    named = dataclasses.replace(
        game,
        header=dataclasses.replace(game.header, rule_overrides={"modifiers": ["lucky_sevens"]}),
    )
    report = replay(named)
    assert report.verdict is Verdict.UNSUPPORTED
    assert report.discrepancy is not None
    assert "lucky_sevens cannot apply to small mahjong" in report.discrepancy.message


def test_a_swap_is_refused_where_there_are_no_dora_indicators() -> None:
    with pytest.raises(UnknownRulesetError, match=r"swap .*small-4p.*needs dora indicators"):
        get_ruleset("small-4p").replace(modifiers=("swap",))


def test_small_mahjong_plays_with_a_play_power_and_its_games_verify() -> None:
    games = list(simulate("small-4p", 2, 1, modifiers=("second_chance", "peek")))
    for game in games:
        assert replay(game).verdict is Verdict.VERIFIED


def test_a_small_mahjong_score_request_with_a_scoring_modifier_is_refused() -> None:
    request = {"ruleset": "small-4p", "hand": "123456789m11p234s", "win": "4s", "tsumo": True}
    result = score_request({**request, "modifiers": ["lucky_sevens"]})
    assert result["error"] == "unknown_ruleset"
    assert "lucky_sevens" in result["message"] and "small mahjong" in result["message"]


def test_a_score_request_names_modifiers() -> None:
    request = {"ruleset": "minigame-4p", "hand": "234m55m777p345678s", "win": "5m", "tsumo": True}
    plain = score_request(request)
    lucky = score_request({**request, "modifiers": ["lucky_sevens"]})
    assert {"name": "lucky_seven", "han": 4} in lucky["yaku"]
    assert lucky["han"] == plain["han"] + 4
    unknown = score_request({**request, "modifiers": ["flying"]})
    assert (
        unknown["error"] == "unknown_ruleset"
        and "known modifiers: lucky_sevens" in unknown["message"]
    )
    assert score_request({**request, "modifiers": "lucky_sevens"})["error"] == "invalid_conditions"


def test_uzje_refuses_every_modifier_naming_it_and_the_family() -> None:
    uzje = family_of("uzje-4p")
    with pytest.raises(UnknownRulesetError, match="Ùzje mahjong applies no rule modifiers: peek"):
        uzje.check_modifiers("uzje-4p", ["peek"])
    with pytest.raises(UnknownRulesetError, match="Ùzje mahjong applies no rule modifiers"):
        list(uzje.simulate("uzje-4p", 1, 0, ["second_chance"]))
    uzje.check_modifiers("uzje-4p", [])  # none is fine


def test_an_uzje_record_naming_a_modifier_is_not_judged_without_it() -> None:
    game = next(iter(family_of("uzje-4p").simulate("uzje-4p", 1, 0)))
    named = dataclasses.replace(
        game, header=dataclasses.replace(game.header, rule_overrides={"modifiers": ["swap"]})
    )
    report = replay(named)
    assert report.verdict is not Verdict.VERIFIED
    assert report.discrepancy is not None
    assert "Ùzje mahjong applies no rule modifiers: swap" in report.discrepancy.message


def test_with_modifiers_names_them_in_a_record_that_states_none() -> None:
    game = next(iter(simulate("tenhou-4p", 1, 0)))
    named = with_modifiers(game, ["peek"])
    assert named.header.rule_overrides == {"modifiers": ["peek"]}
    assert replay(named).verdict is Verdict.VERIFIED  # peek leaves no mark: the play is legal
    assert with_modifiers(named, ["peek"]) is named
    with pytest.raises(UnknownRulesetError, match="states rule modifiers peek, not the swap"):
        with_modifiers(named, ["swap"])
    with pytest.raises(UnknownRulesetError, match="unknown rule modifier"):
        with_modifiers(game, ["flying"])
    uzje_game = next(iter(family_of("uzje-4p").simulate("uzje-4p", 1, 0)))
    with pytest.raises(UnknownRulesetError, match="Ùzje mahjong applies no rule modifiers"):
        with_modifiers(uzje_game, ["peek"])
