"""The other side of a discard decision (engine/study.py; docs/stats.md, "Value and defence"):
the yaku the hand kept can still reach, the safety of each discard against a riichi (genbutsu,
suji, kabe, one-chance), the trades the study names, and the defence counts of the statistics
(decisions facing a riichi, genbutsu discards, deal-ins pushing at two or more shanten). Hands
worked out by hand, then real corpus games checked against an independent reading of their
frames."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from engine.events import Discard, RiichiDeclared
from engine.formats import read_games
from engine.frame_types import DiscardOption
from engine.frames import round_frames
from engine.hand.melds import Meld
from engine.hand.shanten import shanten, shanten_regular
from engine.study import (
    DEFENCE,
    GENBUTSU,
    KABE,
    ONE_CHANCE,
    SUJI,
    VALUE,
    RiichiPasses,
    discard_safety,
    reach_shanten,
    riichi_study,
    trade_of,
    yaku_in_reach,
)
from engine.tiles import EAST, SOUTH, parse_tile, parse_tiles
from tests.engine.corpus import corpus_dir

#: A Tenhou hanchan of the corpus with two deal-ins pushing at two or more shanten.
PUSHES = "mjlog_xml/mjx-project__mjx/2010122717gm-00a9-0000-8e787e61.mjlog"


def counts(tiles: str) -> list[int]:
    out = [0] * 34
    for tile in parse_tiles(tiles):
        out[tile.kind] += 1
    return out


def kind(tile: str) -> int:
    return parse_tile(tile).kind


def reach(tiles: str, melds: tuple[Meld, ...] = (), **winds: int) -> tuple[str, ...]:
    hand = counts(tiles)
    return yaku_in_reach(
        hand,
        melds,
        shanten(hand),
        seat_wind=winds.get("seat_wind", SOUTH),
        round_wind=winds.get("round_wind", EAST),
    )


# -- the value kept ---------------------------------------------------------------------------


def test_reach_shanten_is_the_engines_regular_shanten_on_random_hands() -> None:
    rng = random.Random(7)
    wall = [kind for kind in range(34) for _ in range(4)]
    for _ in range(3000):
        called = rng.choice((0, 0, 1, 2, 3))
        hand = [0] * 34
        for tile in rng.sample(wall, 13 - 3 * called):
            hand[tile] += 1
        assert reach_shanten(hand, called) == shanten_regular(hand), (hand, called)


def test_tiles_a_yaku_forbids_are_tiles_to_exchange() -> None:
    # 234m 567p 345s 78s 2p 9p East: 1-shanten (three melds, a partial run, no pair). With
    # simples only (9p and East to exchange), still 1-shanten: tanyao costs nothing.
    hand = counts("234m567p345s78s29p1z")
    assert shanten_regular(hand) == 1
    simples = [count if 0 < k % 9 < 8 and k < EAST else 0 for k, count in enumerate(hand)]
    assert reach_shanten(simples, 0) == 1
    # Triplets only: thirteen singles, as far from tenpai as a hand can be.
    assert reach_shanten(hand, 0, runs=False) == 8


def test_a_closed_hand_of_simples_keeps_riichi_and_tanyao() -> None:
    assert reach("234m567p345s78s22p") == ("riichi", "tanyao")


def test_a_terminal_too_many_for_the_shanten_loses_tanyao() -> None:
    # Tenpai on 6s-9s with 123m: tanyao would need 123m changed, three exchanges more.
    assert reach("123m567p345s78s22p") == ("riichi",)


def test_an_open_hand_keeps_what_its_melds_allow() -> None:
    chi = (Meld.parse("chi", "234m"),)
    assert reach("567p345s78s22p", chi) == ("tanyao",)
    # The same without open tanyao.
    hand = counts("567p345s78s22p")
    assert (
        yaku_in_reach(hand, chi, shanten(hand), seat_wind=SOUTH, round_wind=EAST, open_tanyao=False)
        == ()
    )
    # A chi with a terminal: no tanyao, and nothing else judged here.
    assert reach("567p345s78s22p", (Meld.parse("chi", "789m"),)) == ()


def test_value_honours_held_or_paired() -> None:
    pon = (Meld.parse("pon", "555z"),)
    assert reach("567p345s78s22p", pon) == ("haku",)
    # The seat's and the round's wind: a pair of East for East's seat in an East round is both,
    # when the hand can make the triplet without a step more (its other pair is the head).
    assert reach("234m567p345s11z22p", seat_wind=EAST) == (
        "riichi",
        "seat_wind_east",
        "round_wind_east",
    )
    # A pair of South is not South's yaku in an East round for West's seat.
    assert "seat_wind_south" not in reach("234m567p345s22z22p", seat_wind=EAST + 2)


def test_flushes() -> None:
    assert reach("1234567m99m33z44z") == ("riichi", "honitsu")
    assert reach("1234567m99m5558m") == ("riichi", "chinitsu")
    # An open honitsu: the pon of East counts for it (and is a value honour here).
    assert reach("1234567m99m8m", (Meld.parse("pon", "111z"),), seat_wind=EAST) == (
        "seat_wind_east",
        "round_wind_east",
        "honitsu",
    )


def test_triplets_and_seven_pairs() -> None:
    pons = (Meld.parse("pon", "222m"), Meld.parse("pon", "888p"))
    assert "toitoi" in reach("555s99s33p1p", pons)
    assert reach("1199m2288p3377s5z") == ("riichi", "chiitoitsu")


# -- the safety against a riichi --------------------------------------------------------------


def mask(*tiles: str) -> int:
    return sum(1 << kind(tile) for tile in tiles)


def test_genbutsu_suji_kabe_one_chance() -> None:
    unseen = [4] * 34
    assert discard_safety(kind("5p"), mask("5p"), unseen) == GENBUTSU
    assert discard_safety(kind("1z"), mask("1z"), unseen) == GENBUTSU
    assert discard_safety(kind("1z"), 0, unseen) is None  # honours: genbutsu or nothing
    # 1 and 7 are the suji of 4; half of it is not suji.
    assert discard_safety(kind("4m"), mask("1m", "7m"), unseen) == SUJI
    assert discard_safety(kind("4m"), mask("7m"), unseen) is None
    assert discard_safety(kind("3s"), mask("6s"), unseen) == SUJI
    assert discard_safety(kind("9s"), mask("6s"), unseen) == SUJI
    # Kabe: no 8p left unseen, so no 78p waits on 9p.
    walled = list(unseen)
    walled[kind("8p")] = 0
    assert discard_safety(kind("9p"), 0, walled) == KABE
    # ... and 6p: its 78p side is impossible, its 45p side furiten (3p genbutsu).
    assert discard_safety(kind("6p"), mask("3p"), walled) == KABE
    assert discard_safety(kind("6p"), 0, walled) is None
    # 7p's only two-sided wait is 56p (89p is an edge wait): suji with 4p.
    assert discard_safety(kind("7p"), mask("4p"), walled) == SUJI
    # One copy of 8p left: one-chance.
    walled[kind("8p")] = 1
    assert discard_safety(kind("9p"), 0, walled) == ONE_CHANCE
    # Space mahjong's runs wrap around: genbutsu alone.
    assert discard_safety(kind("4m"), mask("1m", "7m"), unseen, shapes_known=False) is None


def test_tiles_passed_after_a_riichi_are_genbutsu() -> None:
    passes = RiichiPasses(4)
    passes.note(Discard(2, parse_tile("3m")))  # before any riichi: not passed
    passes.note(RiichiDeclared(1))
    passes.note(Discard(1, parse_tile("9s")))  # the riichi discard
    passes.note(Discard(2, parse_tile("5p")))
    passes.note(Discard(3, parse_tile("2z")))
    assert passes.passed[1] == mask("5p", "2z")
    assert passes.passed[0] is None


def option(tile: str, count: int, yaku: tuple[str, ...], safety: tuple[str | None, ...]) -> Any:
    return DiscardOption(tile, 1, count, (), yaku, safety)


def test_a_trade_is_what_every_best_discard_gives_up() -> None:
    options = [
        option("1z", 20, ("riichi",), (None,)),
        option("9m", 20, ("riichi",), (ONE_CHANCE,)),
        option("5p", 16, ("riichi", "tanyao"), (GENBUTSU,)),
        option("4s", 12, ("riichi",), (SUJI,)),
    ]
    assert trade_of(options, 1, 20, "5p") == (VALUE, DEFENCE)
    assert trade_of(options, 1, 20, "4s") == (DEFENCE,)
    assert trade_of(options, 1, 20, "9m") == ()  # it kept the most
    # Safer than only one of the best is no trade.
    options[1] = option("9m", 20, ("riichi",), (SUJI,))
    assert trade_of(options, 1, 20, "4s") == ()


# -- real games -------------------------------------------------------------------------------


@functools.cache
def corpus_game(path: str) -> Any:
    (game,) = read_games((corpus_dir() / path).read_bytes())[0]
    return game


def independent_genbutsu(frames: list[dict[str, Any]], step: int, seat: int) -> set[str]:
    """``seat``'s genbutsu at ``step``, read off the frames' actions: its own discards and
    every discard after its riichi discard."""
    out: set[str] = set()
    after = False
    for frame in frames[1 : step + 1]:
        action = frame["action"]
        if action["type"] != "discard":
            continue
        tile = action["tile"].replace("0", "5")
        if action["seat"] == seat:
            out.add(tile)
            after = after or action["riichi"]
        elif after:
            out.add(tile)
    return out


@pytest.mark.corpus
def test_the_frames_sides_and_the_tallies_agree_with_the_table() -> None:
    game = corpus_game(PUSHES)
    tallies = {(tally.round, tally.seat): tally for tally in riichi_study(game)}
    facing: dict[tuple[int, int], int] = {}
    safe: dict[tuple[int, int], int] = {}
    pushed: set[tuple[int, int]] = set()
    signs: set[str | None] = set()
    for index in range(len(game.rounds)):
        frames = round_frames(game, index).to_json()["frames"]
        last_push: tuple[int, bool] | None = None
        for step, frame in enumerate(frames):
            action = frame["action"]
            won_on = action and action["type"] == "win" and not action["tsumo"]
            if won_on and last_push and action["from"] == last_push[0] and last_push[1]:
                pushed.add((index, last_push[0]))
            study = frame["study"]
            if not study:
                continue
            seat = study["seat"]
            # The seats in riichi, from the frame's own seats.
            riichi = [s for s, view in enumerate(frame["seats"]) if view["riichi"] and s != seat]
            assert study["riichi"] == riichi
            chosen = next(o for o in study["options"] if o["tile"] == study["discard"])
            for choice in study["options"]:
                assert len(choice["safety"]) == len(riichi)
                assert choice["yaku"] is not None
                for other, sign in zip(riichi, choice["safety"], strict=True):
                    signs.add(sign)
                    genbutsu = choice["tile"] in independent_genbutsu(frames, step, other)
                    assert (sign == GENBUTSU) == genbutsu, (index, step, choice, other)
                # A closed hand keeps riichi in reach, an open one never.
                closed = all(m["from"] is None for m in frame["seats"][seat]["melds"])
                assert ("riichi" in choice["yaku"]) == closed
            if riichi:
                key = (index, seat)
                facing[key] = facing.get(key, 0) + 1
                is_safe = all(sign == GENBUTSU for sign in chosen["safety"])
                safe[key] = safe.get(key, 0) + is_safe
                last_push = (seat, chosen["shanten"] >= 2 and not is_safe)
            else:
                last_push = (seat, False)
    assert {GENBUTSU, SUJI, None} <= signs
    for key, tally in tallies.items():
        assert tally.riichi_decisions == facing.get(key, 0), key
        assert tally.genbutsu == safe.get(key, 0), key
        assert tally.push_deal_in == (key in pushed), key
    assert {key for key, tally in tallies.items() if tally.push_deal_in} == {(0, 1), (10, 1)}
    assert sum(tally.riichi_decisions for tally in tallies.values()) == 134
