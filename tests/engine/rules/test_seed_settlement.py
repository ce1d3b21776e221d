"""Settlement rules of the riichi presets checked against the words of the seeds: the mini-game's
3-player noten payments, who takes the sticks of its multiple ron, an extracted North let pass
(``seeds/001``), and the honba of a double ron (``seeds/003``). Each test quotes the sentence it
is written from."""

from __future__ import annotations

from engine.events import (
    Discard,
    Draw,
    ExhaustiveDraw,
    NorthExtraction,
    Round,
    Win,
)
from engine.rules import get_ruleset
from engine.rules.presets import as_preset, with_overrides
from engine.rules.ruleset import Ruleset, StickWinner
from engine.state import GameState
from engine.tiles import Tile, parse_tile, parse_tiles


def T(text: str) -> Tile:
    return parse_tile(text)


def deal(
    hands: tuple[str, ...], *, dealer: int = 0, honba: int = 0, sticks: int = 0, dora: str = "9s"
) -> Round:
    players = len(hands)
    return Round(
        wind=0,
        number=dealer + 1,
        dealer=dealer,
        honba=honba,
        sticks=sticks,
        scores=(25000 if players == 4 else 35000,) * players,
        hands=tuple(tuple(parse_tiles(hand)) for hand in hands),
        dora_indicators=tuple(parse_tiles(dora)),
        events=(),
    )


def started(ruleset: str, round_: Round) -> GameState:
    state = GameState(get_ruleset(ruleset))
    state.start_round(round_)
    return state


def play(state: GameState, *events: object) -> GameState:
    for event in events:
        state.apply(event)  # type: ignore[arg-type]
    return state


# -- the mini-game, 3 players: noten payments -----------------------------------------------------

# Sanma hands: seat 0 waits on 1s-4s; seats 1 and 2 are far from tenpai.
SANMA = ("123p456p789p2344s", "4z199m2358p2358s6z", "1m37p37s66z77z555z2z")


def test_minigame_3p_noten_payments_total_3000() -> None:
    """seeds/001: "The total Noten penalty amounts to 3000 points." The 3-player rule list
    changes nothing about it, so one tenpai player of three receives 3,000, 1,500 from each
    noten player (Tenhou and Mahjong Soul sanma pay 2,000)."""
    assert get_ruleset("minigame-3p").noten_payment_total == 3000
    state = started("minigame-3p", deal(SANMA, dora="1p"))
    state.tiles_left = 1
    play(state, Draw(0, T("5p")), Discard(0, T("5p"), tsumogiri=True), ExhaustiveDraw())
    assert state.result is not None
    assert state.result.tenpai == (0,)
    assert state.result.deltas == [3000, -1500, -1500]
    # The platforms' sanma keep their 2,000.
    state = started("tenhou-3p", deal(SANMA, dora="1p"))
    state.tiles_left = 1
    play(state, Draw(0, T("5p")), Discard(0, T("5p"), tsumogiri=True), ExhaustiveDraw())
    assert state.result is not None and state.result.deltas == [2000, -1000, -1000]


# -- the mini-game: an extracted North let pass --------------------------------------------------

# Seat 0 waits on 1s and North (ittsu either way).
NORTH_WAIT = ("123p456p789p11s44z", *SANMA[1:])


def _north_passed(ruleset: str) -> GameState:
    """Seat 1 extracts a North seat 0 could ron; seat 0 lets it pass, and seat 2 discards 1s
    before seat 0 draws again."""
    return play(
        started(ruleset, deal(NORTH_WAIT, dora="1p")),
        Draw(0, T("9m")),
        Discard(0, T("9m"), tsumogiri=True),
        Draw(1, T("9s")),
        NorthExtraction(1, T("4z")),
        Draw(1, T("9s")),  # the replacement: nobody robbed the North
        Discard(1, T("9s"), tsumogiri=True),
        Draw(2, T("1s")),
        Discard(2, T("1s"), tsumogiri=True),
    )


def test_minigame_3p_an_extracted_north_let_pass_makes_no_furiten() -> None:
    """seeds/001, 3-player rules: "Extracted North tiles are not considered discards and do not
    result in Furiten." Letting one pass leaves the player free to ron the next discard."""
    assert not get_ruleset("minigame-3p").kita_pass_furiten
    state = _north_passed("minigame-3p")
    assert not state.furiten(0)
    play(state, Win(0, 2, T("1s")))
    assert state.result is not None and state.result.wins[0].seat == 0


def test_platform_sanma_an_extracted_north_let_pass_is_temporary_furiten() -> None:
    # Tenhou and Mahjong Soul keep their rule (the option's default): a North let pass counts
    # as a passed winning tile until the player's next draw.
    for ruleset in ("tenhou-3p", "majsoul-3p"):
        assert get_ruleset(ruleset).kita_pass_furiten
        state = _north_passed(ruleset)
        assert state.furiten(0)
        assert not state.is_legal(Win(0, 2, T("1s")))


# -- multiple ron: sticks and honba --------------------------------------------------------------

# The dealer (seat 0) discards 4p; seats 1 and 3 both wait on 1p-4p (ittsu, pinfu).
DOUBLE_RON = ("2468m2468s13579p", "123m456m789m23p55s", "111z222z333z6677z", "123s456s789s23p55m")


def _double_ron(ruleset: str | Ruleset, *, honba: int = 1, sticks: int = 1) -> GameState:
    """One go-around of discarded 5z (the 7z indicator makes 5z the dora: nobody keeps one;
    the go-around rules out renhou), then the dealer discards 4p and seats 1 and 3 ron it."""
    state = GameState(get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset)
    state.start_round(deal(DOUBLE_RON, honba=honba, sticks=sticks, dora="7z"))
    for seat in range(4):
        play(state, Draw(seat, T("5z")), Discard(seat, T("5z"), tsumogiri=True))
    play(
        state,
        Draw(0, T("4p")),
        Discard(0, T("4p"), tsumogiri=True),
        Win(1, 0, T("4p")),
        Win(3, 0, T("4p")),
    )
    state.end_round()
    return state


def test_minigame_multi_ron_sticks_go_to_the_winner_nearest_the_dealer_clockwise() -> None:
    """seeds/001: "When multiple players win at the same time, the player closest to the dealer
    (clockwise) receives the point sticks/deposit." The game deals counterclockwise ("Starting
    from the dealer and going counterclockwise, the players are referred to as East, South,
    West, and North"), so clockwise from the dealer (seat 0) comes North (seat 3) first, then
    West, then South (seat 1): seat 3 takes the stick and the honba, although seat 1 is first
    from the discarder and first from the dealer in turn order."""
    for name in ("minigame-4p", "minigame-3p"):
        assert get_ruleset(name).multi_ron_sticks is StickWinner.NEAREST_DEALER_CLOCKWISE
    state = _double_ron("minigame-4p")
    assert state.result is not None
    first, second = state.result.wins
    assert (first.seat, second.seat) == (1, 3)
    assert first.points == second.points == 3900  # ittsu and pinfu, 30 fu
    # Seat 3 gets 3,900 + 300 (one honba) + 1,000 (the stick); seat 1 its hand alone.
    assert first.deltas == (-3900, 3900, 0, 0)
    assert second.deltas == (-4200, 0, 0, 5200)
    assert state.result.deltas == [-8100, 3900, 0, 5200]


def test_nearest_dealer_in_turn_order_is_still_an_option() -> None:
    # The earlier reading, counting in turn order from the dealer, stays available: seat 1.
    ruleset = get_ruleset("minigame-4p").replace(multi_ron_sticks=StickWinner.NEAREST_DEALER)
    state = _double_ron(ruleset)
    assert state.result is not None
    assert state.result.deltas == [-8100, 5200, 0, 3900]


def test_double_ron_honba_to_each_winner() -> None:
    """seeds/003: "In this case, the losing player must pay the winning players according to
    their respective hand values. Likewise, honba applies for both of them as well." EMA's rules
    say the same ("Each winner receives the value of the hand including the value of counters
    in play", RCR 2016 4.1): with ``honba_to_each_winner`` both winners get 300 a honba; the
    riichi stick still goes to one of them (the first from the discarder)."""
    ema = get_ruleset("ema-2016")
    assert ema.honba_to_each_winner
    state = _double_ron("ema-2016", honba=2)
    assert state.result is not None
    first, second = state.result.wins
    assert first.points == second.points == 3900
    assert first.deltas == (-4500, 5500, 0, 0)
    assert second.deltas == (-4500, 0, 0, 4500)
    assert state.result.deltas == [-9000, 5500, 0, 4500]
    # The same table with the option on a platform preset.
    house = get_ruleset("tenhou-4p").replace(name="house", honba_to_each_winner=True)
    state = _double_ron(house, honba=2)
    assert state.result is not None and state.result.deltas == [-9000, 5500, 0, 4500]


def test_platforms_give_the_honba_of_a_double_ron_to_one_winner() -> None:
    # Tenhou and Mahjong Soul (the default): the first winner from the discarder takes the
    # honba with the sticks (上家取り), the other winner is paid the hand alone.
    for name in ("tenhou-4p", "majsoul-4p", "tenhou-3p", "majsoul-3p", "wrc", "mleague", "jpml-a"):
        assert not get_ruleset(name).honba_to_each_winner
    state = _double_ron("tenhou-4p", honba=2)
    assert state.result is not None
    first, second = state.result.wins
    assert first.deltas == (-4500, 5500, 0, 0)
    assert second.deltas == (-3900, 0, 0, 3900)
    assert state.result.deltas == [-8400, 5500, 0, 3900]


def test_the_new_options_travel_in_rule_overrides() -> None:
    # A record names rules by a preset and the options that differ (docs/format.md); the new
    # options and value read back, and an older document's "nearest_dealer" keeps its meaning.
    house = get_ruleset("minigame-3p").replace(
        name="house",
        kita_pass_furiten=True,
        honba_to_each_winner=True,
        multi_ron_sticks=StickWinner.NEAREST_DEALER,
        noten_payment_total=2000,
    )
    name, overrides = as_preset(house, get_ruleset("minigame-3p"))
    assert name == "minigame-3p"
    assert overrides == {
        "kita_pass_furiten": True,
        "honba_to_each_winner": True,
        "multi_ron_sticks": "nearest_dealer",
        "noten_payment_total": 2000,
    }
    back = with_overrides(name, overrides)
    assert back.replace(name="house") == house
    assert with_overrides("minigame-4p", {}).multi_ron_sticks is (
        StickWinner.NEAREST_DEALER_CLOCKWISE
    )
