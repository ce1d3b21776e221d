"""Each player chooses a power (seeds/001 line 59: "Set the superpower to use"): the rule option
``seat_powers`` names one per seat (or none), a seat's power applies to that seat alone in play
and in scoring, self-play plays such matches, their records verify, and a record in which a seat
uses a power it did not choose is refused, saying so."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator

import pytest

from engine.errors import UnknownRulesetError
from engine.events import Chi, Discard, Draw, Event, Game, Round, Swap, Win
from engine.families import family_of
from engine.formats import canonical
from engine.replay import Verdict, replay
from engine.rules import get_ruleset
from engine.rules.modifiers import MODIFIERS, PlayView, RuleModifier, register
from engine.rules.presets import with_overrides
from engine.sim.selfplay import simulate
from engine.state import GameState
from engine.tiles import parse_tile, parse_tiles
from engine.variants.uzje import rules as uzje_rules
from tests.engine.rules.test_powers import HANDS, make_round
from tests.engine.test_state import play

T = parse_tile
MINIGAME = get_ruleset("minigame-4p")
#: Seat 0 swaps, seat 1 draws again, seat 2 chose nothing, seat 3's sevens are worth han.
CHOSEN = ("swap", "second_chance", None, "lucky_sevens")


def started(seat_powers: tuple[str | None, ...], round_: Round | None = None) -> GameState:
    state = GameState(get_ruleset("tenhou-4p-nored").replace(seat_powers=seat_powers))
    state.start_round(round_ or make_round())
    return state


# -- the option -----------------------------------------------------------------------------------


def test_a_power_per_seat_is_an_option_a_record_stores_and_reads_back() -> None:
    rules = MINIGAME.replace(seat_powers=CHOSEN)
    assert [rules.powers_of(seat) for seat in range(4)] == [
        ("swap",),
        ("second_chance",),
        (),
        ("lucky_sevens",),
    ]
    overrides = {"seat_powers": ["swap", "second_chance", None, "lucky_sevens"]}
    assert rules.options()["seat_powers"] == overrides["seat_powers"]
    assert with_overrides("minigame-4p", overrides) == rules
    # A command line's words: a name, or none (or nothing), per seat.
    assert MINIGAME.replace(seat_powers="swap, second_chance, none, lucky_sevens") == rules
    assert MINIGAME.replace(seat_powers="swap,second_chance,,lucky_sevens") == rules
    # Beside the table's modifiers, which every seat has.
    both = MINIGAME.replace(modifiers=("peek",), seat_powers=CHOSEN)
    assert both.powers_of(0) == ("peek", "swap") and both.powers_of(2) == ("peek",)
    # Formats that cannot state powers are told what the game has.
    assert rules.variant == "rule modifiers seat 0 swap, seat 1 second_chance, seat 3 lucky_sevens"


@pytest.mark.parametrize(
    ("seat_powers", "changes", "message"),
    [
        (("swap", None), {}, "minigame-4p has 4 seats, not 2 (seat 0 swap, seat 1 none)"),
        (("swap", "flying", None, None), {}, "unknown rule modifier(s): flying"),
        (
            ("swap", None, None, None),
            {"modifiers": ("swap",)},
            "seat 0's power swap is in force for every seat already",
        ),
    ],
)
def test_seat_powers_that_cannot_be_are_refused_naming_them(
    seat_powers: tuple[str | None, ...], changes: dict[str, object], message: str
) -> None:
    with pytest.raises(UnknownRulesetError) as refusal:
        MINIGAME.replace(seat_powers=seat_powers, **changes)
    assert message in str(refusal.value)


def test_a_seat_power_a_rule_set_cannot_apply_is_refused_as_a_table_wide_one_is() -> None:
    with pytest.raises(UnknownRulesetError, match="lucky_sevens cannot apply to small mahjong"):
        get_ruleset("small-4p").replace(seat_powers=(None, "lucky_sevens", None, None))
    with pytest.raises(UnknownRulesetError, match="swap needs dora indicators"):
        get_ruleset("small-4p").replace(seat_powers=("swap", None, None, None))


def test_uzje_refuses_seat_powers_as_it_refuses_modifiers() -> None:
    with pytest.raises(UnknownRulesetError, match="Ùzje mahjong applies no rule modifiers: peek"):
        uzje_rules.with_overrides("uzje-4p", {"seat_powers": [None, "peek", None, None]})
    assert uzje_rules.with_overrides("uzje-4p", {"seat_powers": [None] * 4}).name == "uzje-4p"
    uzje = family_of("uzje-4p")
    with pytest.raises(UnknownRulesetError, match="applies no rule modifiers: swap"):
        list(uzje.simulate("uzje-4p", 1, 0, seat_powers=("swap", None, None, None)))


# -- each seat's power applies to that seat alone -------------------------------------------------


def test_only_the_seat_that_chose_swap_may_swap() -> None:
    state = started(("peek", "swap", None, None))
    play(state, Draw(0, T("9s")))
    assert not any(isinstance(action, Swap) for action in state.legal_actions())
    reason = state.why_illegal(Swap(0, T("9s"), T("3s")))
    assert reason == (
        "seat 0 has no power to swap (it chose peek; the powers chosen: seat 0 peek, seat 1 swap)"
    )
    play(state, Discard(0, T("9s"), tsumogiri=True), Draw(1, T("8s")))
    assert Swap(1, T("8s"), T("3s")) in state.legal_actions()
    play(state, Swap(1, T("8s"), T("3s")))
    assert state.power_uses(1, "swap") == 1


def test_only_the_seat_that_chose_second_chance_draws_again() -> None:
    state = started((None, "second_chance", None, None))
    play(state, Draw(0, T("9s")), Discard(0, T("9s"), tsumogiri=True))
    assert Draw(0, T("8s")) not in state.legal_actions()
    assert state.why_illegal(Draw(0, T("8s"))) == (
        "seat 1 draws next, not seat 0: seat 0 has no power to draw again (it chose no power; "
        "the powers chosen: seat 1 second_chance)"
    )
    play(state, Draw(1, T("8s")), Discard(1, T("8s"), tsumogiri=True))
    assert Draw(1, T("7s")) in state.legal_actions()
    play(state, Draw(1, T("7s")))


def test_only_the_seat_that_chose_peek_sees_a_hand() -> None:
    state = started((None, None, "peek", None))
    assert state.visible_hands(2) == {3: state.concealed(3)}
    assert [state.visible_hands(seat) for seat in (0, 1, 3)] == [{}, {}, {}]


@pytest.fixture
def chi_from_anyone() -> Iterator[str]:
    @register
    class ChiFromAnySeat(RuleModifier):
        name = "test_seat_chi_from_anyone"
        description = "its seat may chi any seat's discard"

        def may_call(self, view: PlayView, seat: int, discarder: int, call: str) -> bool | None:
            return True if call == "chi" else None

    try:
        yield ChiFromAnySeat.name
    finally:
        del MODIFIERS[ChiFromAnySeat.name]


@pytest.mark.parametrize("caller_chose_it", [True, False])
def test_a_call_power_decides_the_calls_of_its_seat_only(
    chi_from_anyone: str, caller_chose_it: bool
) -> None:
    # Seat 2 holds 45p and may chi seat 0's 3p only by a power of its own (any seat may chi).
    hands = ("123m456m789m23p55s", "111z222z333z444z5z", "45p19m9p19s123456z", HANDS[3])
    powers: list[str | None] = [None] * 4
    powers[2 if caller_chose_it else 1] = chi_from_anyone
    state = started(tuple(powers), make_round(hands, live="3p"))
    play(state, Draw(0, T("3p")), Discard(0, T("3p"), tsumogiri=True))
    chi = Chi(2, 0, T("3p"), tuple(parse_tiles("45p")))
    assert (chi in state.legal_actions()) is caller_chose_it
    if caller_chose_it:
        play(state, chi)
        assert state.power_uses(2, chi_from_anyone) == 1
    else:
        reason = state.why_illegal(chi)
        assert reason == "chi is only allowed on the discard of the player to the left"


@pytest.mark.parametrize(("lucky_seat", "bonus"), [(0, 1), (1, 0)])
def test_a_scoring_power_counts_in_the_wins_of_its_seat_only(lucky_seat: int, bonus: int) -> None:
    # Seat 0 (1m-9m 23p 55s, the 7m among them) wins by tsumo on 1p in its second turn.
    powers: list[str | None] = [None] * 4
    powers[lucky_seat] = "lucky_sevens"
    state = GameState(get_ruleset("tenhou-4p-nored").replace(seat_powers=tuple(powers)))
    state.start_round(make_round())
    for seat, tile in enumerate(("9s", "8s", "7s", "6s")):
        play(state, Draw(seat, T(tile)), Discard(seat, T(tile), tsumogiri=True))
    play(state, Draw(0, T("1p")), Win(0, 0, T("1p")))
    assert state.result is not None
    yaku = {entry.name: entry.han for entry in state.result.wins[0].score.yaku}
    assert yaku.get("lucky_seven", 0) == bonus


# -- self-play with a power per seat, and records that lie about them ----------------------------


def _uses(game: Game) -> Counter[str]:
    """Which seat used which power: ``swap 0``, ``second_chance 1``, ``lucky_sevens 3``."""
    seen: Counter[str] = Counter()
    for round_ in game.rounds:
        previous: Event | None = None
        for event in round_.events:
            if isinstance(event, Swap):
                seen[f"swap {event.seat}"] += 1
            elif isinstance(event, Draw) and isinstance(previous, Discard):
                seen[f"second_chance {event.seat}"] += event.seat == previous.seat
            elif isinstance(event, Win) and event.recorded is not None:
                seen[f"lucky_sevens {event.seat}"] += "lucky_seven" in dict(
                    event.recorded.yaku or ()
                )
            previous = event
    return +seen


@pytest.fixture(scope="module")
def matches() -> list[Game]:
    return list(simulate("minigame-4p", 4, 3, seat_powers=CHOSEN))


def test_matches_where_players_chose_different_powers_use_each_at_its_seat_and_verify(
    matches: list[Game],
) -> None:
    seen: Counter[str] = Counter()
    for game in matches:
        assert game.header.rule_overrides == {"seat_powers": list(CHOSEN)}
        assert game.header.source.id is not None
        assert "+swap@0+second_chance@1+lucky_sevens@3" in game.header.source.id
        again = canonical.loads(canonical.dumps(game))[0]
        assert again == game
        report = replay(again)
        assert report.verdict is Verdict.VERIFIED, report.discrepancy
        seen += _uses(game)
    # Every power was used, each by the seat that chose it and no other.
    assert set(seen) == {"swap 0", "second_chance 1", "lucky_sevens 3"}, seen


def _with_powers(game: Game, seat_powers: list[str | None]) -> Game:
    header = dataclasses.replace(game.header, rule_overrides={"seat_powers": seat_powers})
    return dataclasses.replace(game, header=header)


def _first(game: Game, what: str) -> tuple[int, int]:
    for round_index, round_ in enumerate(game.rounds):
        previous: Event | None = None
        for index, event in enumerate(round_.events):
            if what == "swap" and isinstance(event, Swap):
                return round_index, index
            if (
                what == "second_chance"
                and isinstance(previous, Discard)
                and isinstance(event, Draw)
                and event.seat == previous.seat
            ):
                return round_index, index
            if (
                what == "lucky_sevens"
                and isinstance(event, Win)
                and event.recorded is not None
                and "lucky_seven" in dict(event.recorded.yaku or ())
            ):
                return round_index, index
            previous = event
    raise AssertionError(f"{what} was never used")


@pytest.mark.parametrize(
    ("seat", "power", "verdict", "words"),
    [
        (0, "swap", Verdict.ILLEGAL_ACTION, "seat 0 has no power to swap (it chose no power"),
        (1, "second_chance", Verdict.ILLEGAL_ACTION, "seat 1 has no power to draw again"),
        (3, "lucky_sevens", Verdict.SCORE_MISMATCH, "lucky_sevens is not seat 3's power"),
    ],
)
def test_a_seat_using_a_power_it_did_not_choose_is_refused_saying_so(
    matches: list[Game], seat: int, power: str, verdict: Verdict, words: str
) -> None:
    game = next(game for game in matches if f"{power} {seat}" in _uses(game))
    round_index, index = _first(game, power)
    # The same record, but the power is said to be another seat's (the seat itself chose none).
    lied = list(CHOSEN)
    lied[seat] = None
    lied[2] = power
    report = replay(_with_powers(game, lied))
    assert report.verdict is verdict
    assert report.discrepancy is not None
    assert (report.discrepancy.round, report.discrepancy.event) == (round_index, index)
    assert words in report.discrepancy.expected
    assert "the powers chosen: " in report.discrepancy.expected and f"seat 2 {power}" in (
        report.discrepancy.expected
    )


def test_a_table_wide_record_reads_and_verifies_as_before(matches: list[Game]) -> None:
    # A record of the table-wide option (every record before seat powers) keeps its meaning:
    # every seat has the modifiers, and its self-played games verify; the same games stated as
    # every seat choosing the power verify too.
    for game in simulate("minigame-4p", 2, 5, modifiers=("swap",)):
        assert game.header.rule_overrides == {"modifiers": ["swap"]}
        assert replay(game).verdict is Verdict.VERIFIED
        assert replay(_with_powers(game, ["swap"] * 4)).verdict is Verdict.VERIFIED
