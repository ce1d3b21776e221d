"""Every hand written out in ``seeds/000`` (space mahjong), with the shape, waits and value the
document states; each test cites its line of ``../shared/seeds/000_277951dae5ac668f.txt``.

The document gives shapes and waits, and for the yaku which yaku a hand shows (it never gives
points). Where a test checks points, the comment works them out by hand from the yaku and fu
(a ron by South, a non-dealer, on East's discard, no dora): none is copied from the engine.
"""

from __future__ import annotations

import pytest

from engine.errors import InvalidHandError
from engine.hand.melds import Meld
from engine.hand.shapes import SPACE, STANDARD
from engine.rules import get_ruleset
from engine.tiles import parse_counts
from tests.engine.variants.space.helpers import (
    KANCHAN,
    KOKUSHI,
    RYANMEN,
    SHANPON,
    TANKI,
    kinds,
    ron,
    waits_of,
    yaku_of,
)

SPACE_4P = get_ruleset("space-4p")

# -- tile groupings (lines 9-36) ------------------------------------------------------------------


@pytest.mark.parametrize("run", ["123z", "234z", "341z", "412z", "567z"])
def test_any_three_different_winds_or_dragons_are_a_run(run: str) -> None:
    # seeds/000 line 26: {{< t 123z >}}, {{< t 234z >}}, {{< t 341z >}}, {{< t 412z >}},
    # {{< t 567z >}} are valid shuntsu.
    assert SPACE.run_start(kinds(run)) is not None
    assert Meld.parse("chi", run, SPACE).is_run
    assert STANDARD.run_start(kinds(run)) is None  # not in the regular rules
    # The four winds' runs are the four ways to leave one wind out.
    assert SPACE.run_start(kinds("123z")) != SPACE.run_start(kinds("412z"))


@pytest.mark.parametrize("tiles", ["115z", "125z", "56z7m", "135z", "4z56z", "1234z"])
def test_other_honour_triples_are_no_run(tiles: str) -> None:
    # seeds/000 lines 23-24: only three *different* tiles of the winds, or of the dragons.
    with pytest.raises(InvalidHandError, match="chi"):
        Meld.parse("chi", tiles, SPACE)


@pytest.mark.parametrize("run", ["891m", "912p", "789s", "123m"])
def test_number_runs_wrap_around(run: str) -> None:
    # seeds/000 lines 9-10 (the number sequence wraps around) and line 47: "891 and 912".
    meld = Meld.parse("chi", run, SPACE)
    assert meld.is_run
    # 891m starts at 8m, 912m at 9m: a wrapped run keeps the run order, not the lowest tile.
    assert meld.kind == {"891m": 7, "912p": 17, "789s": 24, "123m": 0}[run]


def test_12z_is_a_two_sided_wait_on_3z_and_4z() -> None:
    # seeds/000 line 30: 12z, ryanmen waiting for both 3z and 4z.
    assert waits_of(SPACE, "234m456p678s99s12z") == {"3z": {RYANMEN}, "4z": {RYANMEN}}


def test_13z_is_a_closed_wait_on_2z_and_4z() -> None:
    # seeds/000 line 31: 13z, kanchan waiting for both 2z and 4z.
    assert waits_of(SPACE, "234m456p678s99s13z") == {"2z": {KANCHAN}, "4z": {KANCHAN}}


def test_56z_waits_on_7z_as_either_shape() -> None:
    # seeds/000 line 32: 56z, waiting for 7z, can be interpreted as either kanchan or ryanmen.
    assert waits_of(SPACE, "234m456p678s99s56z") == {"7z": {RYANMEN, KANCHAN}}


def test_the_two_dragon_wait_scores_as_the_better_shape() -> None:
    # seeds/000 line 32 again: "either kanchan or ryanmen" - scoring takes the better one. A
    # closed hand of runs only, a plain pair, won on 7z: as ryanmen it is pinfu (1 han, 30 fu,
    # 1000 on a ron); as kanchan it would have no yaku at all.
    result = ron("234m456p678s99s56z7z", "7z")
    assert yaku_of(result) == {"pinfu": 1}
    assert (result["han"], result["fu"], result["wait"], result["total"]) == (
        1,
        30,
        "ryanmen",
        1000,
    )
    # 13z + 2z is only a kanchan: no pinfu, no yaku at all without riichi.
    assert ron("234m456p678s99s13z2z", "2z")["error"] == "no_yaku"
    # ... and with riichi: riichi 1 han, 20 + 10 (closed ron) + 2 (kanchan) = 32 -> 40 fu:
    # 1 han 40 fu = 40 * 2^3 * 4 = 1280 -> 1300.
    riichi = ron("234m456p678s99s13z2z", "2z", riichi=True)
    assert yaku_of(riichi) == {"riichi": 1}
    assert (riichi["fu"], riichi["wait"], riichi["total"]) == (40, "kanchan", 1300)


def test_four_winds_are_a_four_sided_single_wait() -> None:
    # seeds/000 line 36: 1234z, tanki waiting for 1234z (each wind is the pair, the other three
    # a run).
    expected = {wind: {TANKI} for wind in ("1z", "2z", "3z", "4z")}
    assert waits_of(SPACE, "234m456p678s1234z") == expected
    assert waits_of(STANDARD, "234m456p678s1234z") == {}


# -- yaku (lines 38-80) ---------------------------------------------------------------------------


def test_tanyao_works_as_always() -> None:
    # seeds/000 line 42: tanyao: "Everything works as still": a run through 9 and 1 holds
    # terminals, so no all simples. 912m 345p 456s 678s 22p, riichi, ron on 2m (91m waited on
    # 8m and 2m): riichi, pinfu (runs, plain pair, two-sided), no tanyao.
    assert yaku_of(ron("91m345p456s678s22p2m", "2m", riichi=True)) == {"riichi": 1, "pinfu": 1}
    # The same hand with 234m instead keeps tanyao: riichi, pinfu, tanyao.
    assert yaku_of(ron("34m345p456s678s22p2m", "2m", riichi=True)) == {
        "riichi": 1,
        "pinfu": 1,
        "tanyao": 1,
    }


def test_the_chanta_hand_of_the_document() -> None:
    # seeds/000 line 49: 912m891p11s56z, -124z called, Agari: 7z. 912m and 891p hold a
    # terminal (line 47), 11s is a terminal pair, 567z and the called 412z are honour runs: an
    # outside hand with honours, chanta (open: 1 han), not junchan.
    melds = (("chi", "124z"),)
    assert waits_of(SPACE, "912m891p11s56z") == {"7z": {RYANMEN, KANCHAN}}
    result = ron("912m891p11s56z7z", "7z", melds=melds)
    assert yaku_of(result) == {"chanta": 1}
    # Open, no fu but the wait's (0 or 2): 20 or 22 -> 30 fu. 1 han 30 fu = 30 * 2^3 * 4 =
    # 960 -> 1000.
    assert (result["han"], result["fu"], result["total"]) == (1, 30, 1000)
    # Under the regular rules the called 124z is no run at all.
    assert ron("912m891p11s56z7z", "7z", melds=melds, ruleset="tenhou-4p")["error"] == (
        "invalid_hand"
    )


def test_junchan_with_wrapped_runs() -> None:
    # seeds/000 lines 46-47: 891 and 912 are outside runs, which makes junchan easier.
    # 912m 891p 789s 123s 11m, closed, ron on 7s (89s waited on 7s and 1s, two-sided):
    # junchan 3 + pinfu 1 = 4 han 30 fu = 30 * 2^6 * 4 = 7680 -> 7700.
    result = ron("912m891p89s123s11m7s", "7s")
    assert yaku_of(result) == {"pinfu": 1, "junchan": 3}
    assert (result["han"], result["fu"], result["total"]) == (4, 30, 7700)


def test_the_honroutou_hand_of_the_document() -> None:
    # seeds/000 line 58: 99m111p11s234z, 9-99p called, Agari: 9m1s; line 56: honroutou-nomi.
    melds = (("pon", "999p"),)
    assert waits_of(SPACE, "99m111p11s234z") == {"9m": {SHANPON}, "1s": {SHANPON}}
    for win in ("9m", "1s"):
        result = ron(f"99m111p11s234z{win}", win, melds=melds)
        # Only honroutou (every tile a terminal or an honour, with the honour run 234z);
        # not chanta as well, and no toitoi (a run).
        assert yaku_of(result) == {"honroutou": 2}, win
        # 20 + the ronned triplet (open terminal, 4) + 111p (closed terminal, 8) + 999p (open
        # terminal, 4) = 36 -> 40 fu; 2 han 40 fu = 40 * 2^4 * 4 = 2560 -> 2600.
        assert (result["han"], result["fu"], result["total"]) == (2, 40, 2600), win


def test_the_open_kokushi_of_the_document() -> None:
    # seeds/000 line 64: 19m19p119s, -234z and -657z called, Agari: 1z.
    melds = (("chi", "234z"), ("chi", "657z"))
    result = ron("19m19p119s1z", "1z", melds=melds)
    # Lines 66-67: its value is reduced, "e.g. 2 ~ 3 hans": open_kokushi_han is 3 in space-4p,
    # at a fixed 30 fu: 3 han 30 fu = 30 * 2^5 * 4 = 3840 -> 3900.
    assert yaku_of(result) == {"open_kokushi": 3}
    assert (result["han"], result["fu"], result["wait"], result["total"]) == (
        3,
        30,
        "kokushi",
        3900,
    )
    # The option sets the han; 0 makes it no win.
    two = ron("19m19p119s1z", "1z", melds=melds, ruleset=SPACE_4P.replace(open_kokushi_han=2))
    assert (two["han"], two["total"]) == (2, 2000)  # 30 * 2^4 * 4 = 1920 -> 2000
    banned = ron("19m19p119s1z", "1z", melds=melds, ruleset=SPACE_4P.replace(open_kokushi_han=0))
    assert banned["error"] == "not_agari"


def test_the_open_kokushi_waits_in_play() -> None:
    # seeds/000 line 64: with 234z and 657z called, 19m19p119s waits on 1z alone (the
    # thirteenth orphan); the wait needs the melds (the concealed tiles alone are nothing).
    from engine.hand.melds import called_honour_runs

    called = called_honour_runs(
        [Meld.parse("chi", "234z", SPACE), Meld.parse("chi", "657z", SPACE)]
    )
    counts = parse_counts("19m19p119s")
    assert [(wait.kind, wait.shapes) for wait in SPACE.waits(counts, called)] == [
        (kinds("1z")[0], (KOKUSHI,))
    ]
    assert SPACE.shanten(counts, called) == 0
    assert SPACE.waits(counts) == []  # without the melds: no thirteen orphans


HAND = "1233344456789p"  # seeds/000 line 74; line 78 writes the same tiles as 4445678912333p


def test_the_nine_gates_hand_waits_on_three_tiles_in_regular_rules() -> None:
    # seeds/000 line 74: 1233344456789p, Agari: 347p (in regular rules).
    assert STANDARD.winning_kinds(parse_counts(HAND)) == kinds("347p")


def test_the_nine_gates_hand_waits_on_all_nine_in_space_mahjong() -> None:
    # seeds/000 line 78: 4445678912333p, Agari: 456789123p (in space mahjong rules).
    assert parse_counts("4445678912333p") == parse_counts(HAND)
    assert SPACE.winning_kinds(parse_counts(HAND)) == kinds("456789123p")


@pytest.mark.parametrize("win", list("456789123"))
def test_wrapped_nine_gates_is_an_option(win: str) -> None:
    # seeds/000 line 80: "depending on rule details this may be recognized as a valid chuuren,
    # or maybe not": space_wrap_chuuren. On, every one of the nine waits is the pure nine
    # gates (the 13 tiles are 1112345678999 shifted by three ranks): a yakuman, 32000 for a
    # non-dealer (space-4p counts no double yakuman, as Tenhou).
    hand = f"4445678912333p{win}p"
    wrapped = ron(hand, f"{win}p", ruleset=SPACE_4P.replace(space_wrap_chuuren=True))
    assert yaku_of(wrapped) == {"junsei_chuuren": 13}
    assert wrapped["total"] == 32000
    # Off (space-4p): no nine gates; the hand is still a full flush at least (6 han, closed).
    plain = yaku_of(ron(hand, f"{win}p"))
    assert "chinitsu" in plain and not {"chuuren", "junsei_chuuren"} & set(plain)


def test_wrapped_nine_gates_off_values_the_hand_by_its_best_reading() -> None:
    # seeds/000 line 78 with 4p won, the option off: 444 456 789 123 33 reads as a full flush
    # and a pure straight (the standard 123-456-789): 6 + 2 = 8 han, baiman, 16000.
    result = ron("4445678912333p4p", "4p")
    assert yaku_of(result) == {"chinitsu": 6, "ittsu": 2}
    assert result["total"] == 16000


def test_the_regular_nine_gates_stays_a_yakuman() -> None:
    # seeds/000 line 71: the regular form stays nine gates (wrap or not). 1112345678999p won
    # on 5p: the pure nine gates, 32000.
    result = ron("11123455678999p", "5p")
    assert yaku_of(result) == {"junsei_chuuren": 13}
    assert result["total"] == 32000
