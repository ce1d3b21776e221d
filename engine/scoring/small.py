"""Small mahjong scoring (``seeds/004``): the winning conditions, their points, the payments.

Small mahjong has no han, fu or limits: a win is worth the sum of the points of the conditions
it meets, and the five special conditions (16 points each) replace the ordinary ones. The winner
is paid that total per opponent: on a ron the discarder alone pays ``points x (players - 1)``,
on a tsumo every other player pays ``points``.

Each condition carries the name of the riichi yaku it is (:mod:`engine.scoring.yaku`), so game
records, the viewer and the statistics speak of it as of any yaku; :data:`CONDITIONS` gives the
document's own English name. For a 13-tile hand the conditions and their points are the closed
riichi yaku and their han (a yakuman is 16 instead of 13), but for three copies of one run (Two
Pure Double Sequences here, iipeikou in riichi); the definitions below extend them to the
smaller hands (a pair and one, two or three melds for 4, 7 or 10 dealt tiles).

The conditions, for a complete hand of ``dealt_tiles + 1`` tiles (all concealed: small mahjong
has no calls and no kans):

* of the win: Reach (``riichi``, 1) or Double Reach (``double_riichi``: declared on the first
  draw of an uninterrupted first go-around, 2); One Shot (``ippatsu``: won before the reacher's
  next discard, 1); Last Stock (``haitei``: tsumo on the last tile of the stock, 1); Last Discard
  (``houtei``: ron on the discard after it, 1); Win from Stock (``menzen_tsumo``: any tsumo, 1).
* of the tiles: All Middles (``tanyao``: no 1 or 9, 1); Full Flush (``chinitsu``: one suit,
  ``2 + dealt_tiles // 3`` points: 3, 4, 5, 6 for 4, 7, 10, 13 dealt tiles).
* of a reading (the pair and melds the tiles are read as, and the group the winning tile
  completed): All Sequences (``pinfu``: every meld a run *and* the winning tile completed a
  two-sided wait, 1; riichi's pinfu, which is also what the original program counts: a pair
  wait or a closed or edge wait gives a hand of runs nothing); Pure Double Sequences
  (``iipeikou``: two identical runs, 1); Two Pure Double Sequences (``ryanpeikou``: two pairs of
  identical runs, three or four copies of one run included as the original program counts them,
  3; it replaces Pure Double Sequences);
  Mixed Triple Sequences (``sanshoku``: the same run in the three suits, 2); Mixed Triple
  Triplets (``sanshoku_doukou``, 2); Pure Straight (``ittsu``: 123, 456 and 789 of one suit, 2);
  All Triplets (``toitoi``: every meld a triplet, so 4 dealt tiles need one triplet, 2); Three
  Closed Triplets (``sanankou``: exactly three triplets not completed by a ron, 2); All Outside
  (``junchan``: a 1 or 9 in every meld and in the pair, at least one run, 3); Seven Twins
  (``chiitoitsu``: seven different pairs, with 13 dealt tiles only, 2).
* special, 16 points each, replacing every ordinary condition, several adding up: Blessing of
  Heaven (``tenhou``: the dealer's tsumo on their first draw), Blessing of Earth (``chiihou``:
  another player's tsumo on their first draw, in the uninterrupted first go-around), All
  Terminals (``chinroutou``: only 1s and 9s), Four Closed Triplets (``suuankou``: four triplets
  not completed by a ron), Nine Gates (``chuuren``: 1112345678999 of one suit and one more of
  it, 13 dealt tiles).

A hand that can be read in several ways is valued by its best reading: a reading with a special
condition first (as the original program does), then the most points; among readings worth the
same the first found is kept (:func:`small_readings` lists them all).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from engine.errors import (
    InvalidConditionsError,
    InvalidHandError,
    NotAgariError,
    NoYakuError,
)
from engine.hand.decompose import WaitShape, packed_decompositions, run_wait_shape
from engine.hand.win import WinningHand
from engine.rules.ruleset import Ruleset
from engine.scoring.payments import DISCARDER, Payment
from engine.scoring.values import FuItem, HandScore, YakuHan, yaku_han
from engine.tiles import EAST, KINDS, WIND_LETTERS, format_counts, format_kind

__all__ = [
    "CONDITIONS",
    "SPECIAL_POINTS",
    "Condition",
    "SmallReading",
    "full_flush_points",
    "score_small_hand",
    "small_readings",
]

#: What each special condition is worth.
SPECIAL_POINTS: Final = 16


@dataclass(frozen=True, slots=True)
class Condition:
    """One winning condition of small mahjong."""

    #: The riichi yaku it is (:mod:`engine.scoring.yaku`): the name records and results use.
    name: str
    #: The document's English name.
    title: str
    #: Its points (Full Flush: :func:`full_flush_points`, by the number of dealt tiles).
    points: int
    #: A special condition: 16 points, replacing the ordinary ones.
    special: bool = False


#: Every condition, in the document's order (results list them in this order).
CONDITIONS: Final[dict[str, Condition]] = {
    condition.name: condition
    for condition in (
        Condition("riichi", "Reach", 1),
        Condition("ippatsu", "One Shot", 1),
        Condition("haitei", "Last Stock", 1),
        Condition("houtei", "Last Discard", 1),
        Condition("menzen_tsumo", "Win from Stock", 1),
        Condition("tanyao", "All Middles", 1),
        Condition("pinfu", "All Sequences", 1),
        Condition("iipeikou", "Pure Double Sequences", 1),
        Condition("double_riichi", "Double Reach", 2),
        Condition("sanshoku", "Mixed Triple Sequences", 2),
        Condition("sanshoku_doukou", "Mixed Triple Triplets", 2),
        Condition("ittsu", "Pure Straight", 2),
        Condition("chiitoitsu", "Seven Twins", 2),
        Condition("toitoi", "All Triplets", 2),
        Condition("sanankou", "Three Closed Triplets", 2),
        Condition("junchan", "All Outside", 3),
        Condition("ryanpeikou", "Two Pure Double Sequences", 3),
        Condition("chinitsu", "Full Flush", 0),
        Condition("tenhou", "Blessing of Heaven", SPECIAL_POINTS, special=True),
        Condition("chiihou", "Blessing of Earth", SPECIAL_POINTS, special=True),
        Condition("chinroutou", "All Terminals", SPECIAL_POINTS, special=True),
        Condition("suuankou", "Four Closed Triplets", SPECIAL_POINTS, special=True),
        Condition("chuuren", "Nine Gates", SPECIAL_POINTS, special=True),
    )
}
_ORDER: Final = {name: index for index, name in enumerate(CONDITIONS)}
#: Kinds of the number tiles (small mahjong has no honours).
_NUMBER_KINDS: Final = EAST


def full_flush_points(dealt_tiles: int) -> int:
    """Full Flush's points: 3, 4, 5 and 6 for 4, 7, 10 and 13 dealt tiles."""
    return 2 + dealt_tiles // 3


class SmallReading(NamedTuple):
    """One reading of a winning hand and what it is worth."""

    #: The conditions met, each with its points, in the document's order.
    conditions: tuple[YakuHan, ...]
    points: int
    #: Whether the reading is valued by special conditions.
    special: bool
    #: The group the winning tile completed.
    wait: WaitShape


def _entry(name: str, dealt_tiles: int) -> YakuHan:
    condition = CONDITIONS[name]
    if name == "chinitsu":
        return yaku_han(name, full_flush_points(dealt_tiles))
    return yaku_han(name, condition.points)


def small_readings(hand: WinningHand, ruleset: Ruleset) -> list[SmallReading]:
    """Every reading of a winning hand under small mahjong scoring, with its conditions.

    :raises InvalidHandError: impossible tiles (an honour, a red five, a fifth copy, the wrong
        number of tiles, the winning tile missing).
    :raises InvalidConditionsError: contradictory win conditions, or any call or dora.
    :raises NotAgariError: the tiles do not form a complete hand.
    """
    problems = _condition_problems(hand, ruleset)
    if problems:
        raise InvalidConditionsError("; ".join(problems))
    counts = _check_tiles(hand, ruleset)
    c = hand.conditions
    dealt = ruleset.dealt_tiles
    win = hand.win_tile.kind

    # -- the conditions of the win and of the tiles, whatever the reading -----------------------
    ordinary: list[str] = []
    special: list[str] = []
    if c.double_riichi:
        ordinary.append("double_riichi")
    elif c.riichi:
        ordinary.append("riichi")
    if c.ippatsu:
        ordinary.append("ippatsu")
    if c.haitei:
        ordinary.append("haitei")
    if c.houtei:
        ordinary.append("houtei")
    if c.tsumo:
        ordinary.append("menzen_tsumo")
    held = [kind for kind in range(_NUMBER_KINDS) if counts[kind]]
    if all(kind % 9 not in (0, 8) for kind in held):
        ordinary.append("tanyao")
    if all(kind % 9 in (0, 8) for kind in held):
        special.append("chinroutou")
    if len({kind // 9 for kind in held}) == 1:
        ordinary.append("chinitsu")
        first = held[0] - held[0] % 9
        suit = counts[first : first + 9]
        if suit[0] >= 3 and suit[8] >= 3 and min(suit) >= 1:
            special.append("chuuren")
    if c.tenhou:
        special.append("tenhou")
    if c.chiihou:
        special.append("chiihou")

    # -- each reading: the pair and melds, and the group the winning tile completed ------------
    readings: list[SmallReading] = []
    packed = int.from_bytes(bytes(counts), "little")
    for pair, runs, triplets in packed_decompositions(packed):
        groups = _group_conditions(runs, triplets, pair)
        waits: list[WaitShape] = []
        if pair == win:
            waits.append(WaitShape.TANKI)
        if win in triplets:
            waits.append(WaitShape.SHANPON)
        for start in sorted(set(runs)):
            if start <= win <= start + 2:
                waits.append(run_wait_shape(start, win))
        for shape in waits:
            own = list(groups)
            if not triplets and shape is WaitShape.RYANMEN:
                own.append("pinfu")
            closed = len(triplets) - (shape is WaitShape.SHANPON and not c.tsumo)
            if closed == 4:
                readings.append(_valued(ordinary + own, [*special, "suuankou"], shape, dealt))
                continue
            if closed == 3:
                own.append("sanankou")
            readings.append(_valued(ordinary + own, special, shape, dealt))
    if dealt == 13 and sorted(count for count in counts if count) == [2] * 7:
        readings.append(_valued([*ordinary, "chiitoitsu"], special, WaitShape.CHIITOITSU, dealt))
    if not readings:
        raise NotAgariError(f"{format_counts(counts)} is not a complete hand")
    return readings


def _group_conditions(runs: tuple[int, ...], triplets: tuple[int, ...], pair: int) -> list[str]:
    """The conditions of a reading's melds and pair, whatever the wait."""
    found: list[str] = []
    if len(runs) >= 2:
        # Identical runs side by side, as the original program counts them (the melds sorted,
        # each one equal to the next): two copies of a run are one, three copies two (Two Pure
        # Double Sequences: 123m 123m 123m is 123m 123m twice over), four three.
        repeats = sum(runs.count(start) - 1 for start in set(runs))
        if repeats >= 2:
            found.append("ryanpeikou")
        elif repeats:
            found.append("iipeikou")
    if len(runs) >= 3:
        if any(start < 9 and start + 9 in runs and start + 18 in runs for start in runs):
            found.append("sanshoku")
        if any(base in runs and base + 3 in runs and base + 6 in runs for base in (0, 9, 18)):
            found.append("ittsu")
    if len(triplets) >= 3 and any(
        kind < 9 and kind + 9 in triplets and kind + 18 in triplets for kind in triplets
    ):
        found.append("sanshoku_doukou")
    if not runs:
        found.append("toitoi")
    if (
        runs
        and pair % 9 in (0, 8)
        and all(start % 9 in (0, 6) for start in runs)
        and all(kind % 9 in (0, 8) for kind in triplets)
    ):
        found.append("junchan")
    return found


def _valued(ordinary: list[str], special: list[str], wait: WaitShape, dealt: int) -> SmallReading:
    names = special if special else ordinary
    entries = tuple(_entry(name, dealt) for name in sorted(names, key=_ORDER.__getitem__))
    points = 0
    for entry in entries:
        points += entry.han
    return SmallReading(entries, points, bool(special), wait)


def score_small_hand(hand: WinningHand, ruleset: Ruleset) -> HandScore:
    """Score a winning hand by small mahjong's conditions (see the module docstring), as a
    :class:`HandScore`: ``han`` holds the points, ``yaku`` the conditions with their points,
    ``yakuman`` the number of special conditions; there are no fu and no limit.

    :raises InvalidHandError, InvalidConditionsError, NotAgariError: see :func:`small_readings`.
    :raises NoYakuError: the hand meets no condition (a ron without riichi, where the rule set
        allows one at all).
    """
    best: SmallReading | None = None
    for reading in small_readings(hand, ruleset):
        if best is None or (reading.special, reading.points) > (best.special, best.points):
            best = reading
    assert best is not None  # small_readings raises rather than return nothing
    if not best.points:
        raise NoYakuError("the hand meets no condition of small mahjong")
    c = hand.conditions
    points = best.points
    winner = c.seat_wind
    payments: tuple[Payment, ...]
    if c.tsumo:
        each = points + ruleset.honba_tsumo_each * c.honba
        payments = tuple(
            Payment(WIND_LETTERS[seat - EAST], each)
            for seat in range(EAST, EAST + ruleset.players)
            if seat != winner
        )
    else:
        payer = DISCARDER if hand.discarder is None else WIND_LETTERS[hand.discarder - EAST]
        amount = points * (ruleset.players - 1) + ruleset.honba_ron * c.honba
        payments = (Payment(payer, amount),)
    sticks = 1000 * c.sticks
    total = sticks
    for payment in payments:
        total += payment.amount
    no_fu: tuple[FuItem, ...] = ()
    specials = sum(1 for entry in best.conditions if CONDITIONS[entry.name].special)
    return HandScore(
        han=points,
        fu=0,
        fu_items=no_fu,
        yaku=best.conditions,
        limit=None,
        yakuman=specials,
        base_points=points,
        payments=payments,
        sticks_won=sticks,
        total=total,
        wait=best.wait,
    )


# -- checks --------------------------------------------------------------------------------------


def _check_tiles(hand: WinningHand, ruleset: Ruleset) -> list[int]:
    """The hand's counts of the 34 kinds, after refusing what cannot be: honours, red fives, a
    fifth copy, a winning tile not among the tiles, the wrong number of tiles."""
    dealt = ruleset.dealt_tiles
    if dealt % 3 != 1 or not 1 <= dealt <= 13:
        raise InvalidHandError(f"{ruleset.name} deals {dealt} tiles; small mahjong deals 4-13")
    if len(hand.tiles) != dealt + 1:
        raise InvalidHandError(
            f"a winning hand of {ruleset.name} ({dealt} dealt tiles) holds {dealt + 1} tiles, "
            f"winning tile included; got {len(hand.tiles)}"
        )
    counts = [0] * KINDS
    for tile in (*hand.tiles, hand.win_tile):
        if not 0 <= tile.kind < _NUMBER_KINDS:
            raise InvalidHandError(f"{tile}: small mahjong has only number tiles (m, p, s)")
        if tile.red:
            raise InvalidHandError(f"{tile}: small mahjong has no red fives")
    for tile in hand.tiles:
        counts[tile.kind] += 1
    if counts[hand.win_tile.kind] == 0:
        raise InvalidHandError(f"the winning tile {hand.win_tile} is not among the hand's tiles")
    most = max(counts)
    if most > 4:
        kind = counts.index(most)
        raise InvalidHandError(f"{most} copies of {format_kind(kind)}; there are only 4")
    return counts


def _condition_problems(hand: WinningHand, ruleset: Ruleset) -> list[str]:
    """What contradicts the win conditions, or small mahjong itself (calls, kans, dora)."""
    c = hand.conditions
    riichi = c.riichi or c.double_riichi
    seats = range(EAST, EAST + ruleset.players)
    first_turn = c.tenhou or c.chiihou
    checks = (
        (bool(hand.melds), "small mahjong has no calls and no kans: every tile is concealed"),
        (
            bool(hand.dora_indicators or hand.ura_indicators),
            "small mahjong has no dora indicators",
        ),
        (
            c.rinshan or c.chankan or c.renhou or c.kita != 0,
            "small mahjong has no kans, robbing, renhou or North extraction",
        ),
        (hand.liable is not None, "small mahjong has no liability (pao)"),
        (
            not c.tsumo and not riichi and ruleset.ron_needs_riichi,
            f"only a player in riichi may ron in {ruleset.name}",
        ),
        (c.ippatsu and not riichi, "ippatsu (One Shot) needs riichi"),
        (c.haitei and not c.tsumo, "haitei (Last Stock) is a tsumo"),
        (c.houtei and c.tsumo, "houtei (Last Discard) is a ron"),
        (first_turn and not c.tsumo, "tenhou and chiihou (Blessings) are tsumo wins"),
        (first_turn and riichi, "a first-draw win comes before any riichi"),
        (c.tenhou and c.seat_wind != EAST, "tenhou (Blessing of Heaven) is the dealer's"),
        (c.chiihou and c.seat_wind == EAST, "chiihou (Blessing of Earth) is a non-dealer's"),
        (c.seat_wind not in seats, f"seat wind must be one of the {ruleset.players} seats"),
        (c.honba < 0 or c.sticks < 0, "honba and sticks are not negative"),
        (
            hand.discarder is not None and (c.tsumo or hand.discarder not in seats),
            "a discarder is named only for a ron, and must be a seat at the table",
        ),
        (hand.discarder == c.seat_wind, "the winner cannot be the discarder"),
    )
    return [message for failed, message in checks if failed]
