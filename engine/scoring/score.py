"""Scoring a winning hand: yaku, fu, han, limits and payments, for the best reading of the hand.

:func:`score_hand` reads the concealed tiles in every way they form a complete hand (each
standard decomposition with each group the winning tile may have completed, seven pairs,
thirteen orphans), values each reading, and keeps the most valuable one, as every platform does:
the highest payment, then a real yakuman over a counted one, then more han, then more fu.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import (
    InvalidConditionsError,
    InvalidHandError,
    NotAgariError,
    NoYakuError,
)
from engine.hand.decompose import (
    TRIPLET,
    WaitShape,
    decompositions,
    is_chiitoitsu,
    is_kokushi,
    run_wait_shape,
)
from engine.hand.melds import Meld, MeldType
from engine.rules.ruleset import Renhou, Ruleset
from engine.scoring.limits import base_points, yakuman_limit
from engine.scoring.payments import Payment, tsumo_shares, win_payments
from engine.scoring.yaku import DRAGON_YAKU, ROUND_WIND_YAKU, SEAT_WIND_YAKU, YAKU
from engine.tiles import (
    EAST,
    GREENS,
    HAKU,
    KINDS,
    NORTH,
    SANMA_MISSING,
    Tile,
    dora_from_indicator,
    format_kind,
    format_tiles,
)

_YAOCHUU_FLAGS = tuple(kind >= EAST or kind % 9 in (0, 8) for kind in range(KINDS))
_GREEN_FLAGS = tuple(kind in GREENS for kind in range(KINDS))


@dataclass(frozen=True, slots=True)
class WinConditions:
    """How and when the hand was won, and the table's counters."""

    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    #: Seat and round wind as kinds (``EAST`` ... ``NORTH``).
    seat_wind: int = EAST
    round_wind: int = EAST
    honba: int = 0
    #: Riichi sticks on the table, won by this winner.
    sticks: int = 0
    #: 3-player: North tiles extracted by the winner.
    kita: int = 0

    @property
    def dealer(self) -> bool:
        """Whether the winner is the dealer (East seat)."""
        return self.seat_wind == EAST


@dataclass(frozen=True, slots=True)
class WinningHand:
    """Everything needed to score a win.

    ``tiles`` are the concealed tiles, winning tile included; ``melds`` the called melds (closed
    kans too). ``discarder`` and ``liable`` (pao) are seat wind kinds and only shape payments.
    """

    tiles: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...] = ()
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    conditions: WinConditions = field(default_factory=WinConditions)
    discarder: int | None = None
    liable: int | None = None


@dataclass(frozen=True, slots=True)
class YakuHan:
    """A yaku (or dora entry) with the han it gives; yakuman give 13 per yakuman."""

    name: str
    han: int


@dataclass(frozen=True, slots=True)
class FuItem:
    """One line of the fu count."""

    name: str
    fu: int


@dataclass(frozen=True, slots=True)
class HandScore:
    """The value of a win and who pays it."""

    han: int
    fu: int
    fu_items: tuple[FuItem, ...]
    yaku: tuple[YakuHan, ...]
    #: Limit name (``mangan`` ... ``kazoe_yakuman``, ``yakuman``, ``double_yakuman``...) or None.
    limit: str | None
    #: Number of yakuman (0 for an ordinary hand; a counted yakuman is 0 too).
    yakuman: int
    base_points: int
    payments: tuple[Payment, ...]
    #: Points from riichi sticks on the table.
    sticks_won: int
    #: Everything the winner receives: payments plus sticks.
    total: int
    #: The shape of the wait in the chosen reading.
    wait: WaitShape


# A reading's value before payments: (yaku, yakuman, fu items, wait shape).
_Yaku = list[tuple[str, int]]
_FuItems = list[tuple[str, int]]


@dataclass(slots=True)
class _Reading:
    yaku: _Yaku
    yakuman: _Yaku
    fu: int
    fu_items: _FuItems
    wait: WaitShape
    #: Dora do not add to this reading (renhou as a strict mangan).
    no_dora: bool = False
    han: int = 0
    base: int = 0
    limit: str | None = None
    multiplier: int = 0


def score_hand(hand: WinningHand, ruleset: Ruleset) -> HandScore:
    """Score a winning hand under a rule set, choosing its most valuable reading.

    :raises InvalidHandError: impossible tiles (counts, red fives, tiles absent in 3-player).
    :raises InvalidConditionsError: contradictory win conditions.
    :raises NotAgariError: the tiles do not form a complete hand.
    :raises NoYakuError: the hand is complete but has no yaku.
    """
    conditions = hand.conditions
    win = hand.win_tile.kind
    concealed, all_counts, reds = _count_tiles(hand, ruleset)
    melds = hand.melds
    closed = not any(meld.is_open for meld in melds)
    _check_conditions(hand, ruleset, closed)

    context = _Context(hand, ruleset, all_counts, closed)
    readings: list[_Reading] = []
    if not melds and sum(concealed) == 14:
        if is_kokushi(concealed):
            readings.append(context.kokushi(concealed[win] == 2))
        if is_chiitoitsu(concealed):
            readings.append(context.chiitoitsu())
    for decomposition in decompositions(concealed):
        readings.extend(context.standard(decomposition.pair, decomposition.groups))
    if readings and conditions.renhou and ruleset.renhou is Renhou.MANGAN:
        # Renhou as a strict mangan: worth a mangan on its own, or the hand's own value.
        first = readings[0]
        readings.append(
            _Reading([("renhou_mangan", 5)], [], first.fu, first.fu_items, first.wait, True)
        )
    if not readings:
        raise NotAgariError(
            f"{format_tiles(hand.tiles, sort=True)} with {len(melds)} called meld(s) "
            f"is not a complete hand"
        )

    dora = context.dora_entries(reds)
    best: _Reading | None = None
    best_key: tuple[int, bool, int, int] | None = None
    for reading in readings:
        if not _value(reading, dora, context):
            continue
        key = (context.hand_total(reading.base), reading.multiplier > 0, reading.han, reading.fu)
        if best_key is None or key > best_key:
            best, best_key = reading, key
    if best is None:
        raise NoYakuError(f"{format_tiles(hand.tiles, sort=True)} has no yaku")
    return _finish(best, hand, ruleset)


def _value(reading: _Reading, dora: _Yaku, context: _Context) -> bool:
    """Fill in han, base points and limit; False if the reading has no yaku."""
    ruleset = context.ruleset
    if reading.yakuman:
        multipliers = [han // 13 for _, han in reading.yakuman]
        multiplier = sum(multipliers) if ruleset.stacked_yakuman else max(multipliers)
        reading.yaku = reading.yakuman
        reading.multiplier = multiplier
        reading.han = 13 * multiplier
        reading.base, reading.limit = yakuman_limit(multiplier)
        return True
    if not reading.yaku:
        return False
    if not reading.no_dora:
        reading.yaku = reading.yaku + dora
    reading.han = sum(han for _, han in reading.yaku)
    reading.base, reading.limit = base_points(reading.han, reading.fu, ruleset)
    return True


def _finish(reading: _Reading, hand: WinningHand, ruleset: Ruleset) -> HandScore:
    conditions = hand.conditions
    liable_base = 0
    if hand.liable is not None:
        pao_multiplier = sum(han // 13 for name, han in reading.yaku if name in ruleset.pao)
        if not pao_multiplier:
            raise InvalidConditionsError(
                "a liable player (pao) was named, but the hand has no yakuman with liability "
                f"in {ruleset.name} ({', '.join(sorted(ruleset.pao)) or 'none'})"
            )
        liable_base = (
            min(reading.base, 8000 * pao_multiplier)
            if ruleset.pao_only_liable_yakuman
            else reading.base
        )
    payments = win_payments(
        reading.base,
        winner=conditions.seat_wind,
        tsumo=conditions.tsumo,
        honba=conditions.honba,
        ruleset=ruleset,
        discarder=hand.discarder,
        liable=hand.liable,
        liable_base=liable_base,
    )
    sticks = 1000 * conditions.sticks
    return HandScore(
        han=reading.han,
        fu=reading.fu,
        fu_items=tuple(FuItem(name, fu) for name, fu in reading.fu_items),
        yaku=tuple(YakuHan(name, han) for name, han in reading.yaku),
        limit=reading.limit,
        yakuman=reading.multiplier,
        base_points=reading.base,
        payments=tuple(payments),
        sticks_won=sticks,
        total=sum(payment.amount for payment in payments) + sticks,
        wait=reading.wait,
    )


def _count_tiles(hand: WinningHand, ruleset: Ruleset) -> tuple[list[int], list[int], int]:
    """Concealed counts, counts of every tile the player holds, and the number of red fives."""
    concealed = [0] * KINDS
    reds_by_suit = [0, 0, 0]
    for tile in hand.tiles:
        concealed[tile.kind] += 1
        if tile.red:
            reds_by_suit["mps".index(tile.suit)] += 1
    all_counts = list(concealed)
    for meld in hand.melds:
        for tile in meld.tiles:
            all_counts[tile.kind] += 1
            if tile.red:
                reds_by_suit["mps".index(tile.suit)] += 1
    expected = 14 - 3 * len(hand.melds)
    if len(hand.tiles) != expected:
        raise InvalidHandError(
            f"with {len(hand.melds)} called meld(s) the hand holds {expected} concealed tiles "
            f"(winning tile included), got {len(hand.tiles)}"
        )
    if concealed[hand.win_tile.kind] == 0 or (
        hand.win_tile.red and hand.win_tile not in hand.tiles
    ):
        raise InvalidHandError(f"the winning tile {hand.win_tile} is not among the hand's tiles")
    for kind, count in enumerate(all_counts):
        if count > 4:
            raise InvalidHandError(f"{count} copies of {format_kind(kind)}; there are only 4")
        if count and ruleset.three_player and kind in SANMA_MISSING:
            raise InvalidHandError(f"{format_kind(kind)} is not used in 3-player mahjong")
    for suit_index, count in enumerate(reds_by_suit):
        allowed = ruleset.red_fives[suit_index]
        if count > allowed:
            raise InvalidHandError(
                f"{count} red five(s) of {'mps'[suit_index]}; rule set {ruleset.name} has {allowed}"
            )
    return concealed, all_counts, sum(reds_by_suit)


def _check_conditions(hand: WinningHand, ruleset: Ruleset, closed: bool) -> None:
    c = hand.conditions
    problems: list[str] = []
    riichi = c.riichi or c.double_riichi
    has_kan = any(meld.is_kan for meld in hand.melds)
    seats = range(EAST, EAST + ruleset.players)
    checks = (
        (riichi and not closed, "riichi needs a closed hand"),
        (c.ippatsu and not riichi, "ippatsu needs riichi"),
        (c.ippatsu and not ruleset.ippatsu, f"rule set {ruleset.name} has no ippatsu"),
        (c.chankan and c.tsumo, "chankan is a ron"),
        (c.rinshan and not c.tsumo, "rinshan is a tsumo"),
        (c.rinshan and not (has_kan or c.kita), "rinshan needs a kan (or a North extraction)"),
        (c.haitei and not c.tsumo, "haitei is a tsumo"),
        (c.houtei and c.tsumo, "houtei is a ron"),
        (c.haitei and c.rinshan, "haitei and rinshan exclude each other"),
        (c.houtei and c.chankan, "houtei and chankan exclude each other"),
        (c.tenhou and not c.dealer, "tenhou is the dealer's"),
        (c.chiihou and c.dealer, "chiihou is a non-dealer's"),
        ((c.tenhou or c.chiihou) and not c.tsumo, "tenhou and chiihou are tsumo wins"),
        (c.renhou and (c.dealer or c.tsumo), "renhou is a non-dealer's ron"),
        (
            c.renhou and ruleset.renhou is Renhou.NONE,
            f"rule set {ruleset.name} has no renhou",
        ),
        ((c.tenhou or c.chiihou or c.renhou) and bool(hand.melds), "a first-turn win has no calls"),
        ((c.tenhou or c.chiihou) and riichi, "a first-draw win comes before any riichi"),
        (c.seat_wind not in seats, f"seat wind must be one of the {ruleset.players} seats"),
        (c.round_wind not in range(EAST, NORTH + 1), "round wind must be a wind"),
        (c.honba < 0 or c.sticks < 0 or c.kita < 0, "honba, sticks and kita are not negative"),
        (bool(c.kita) and not ruleset.kita, f"rule set {ruleset.name} has no North extraction"),
        (
            hand.discarder is not None and (c.tsumo or hand.discarder not in seats),
            "a discarder is named only for a ron, and must be another seat",
        ),
        (hand.discarder == c.seat_wind, "the winner cannot be the discarder"),
        (
            hand.liable is not None and (hand.liable not in seats or hand.liable == c.seat_wind),
            "the liable player (pao) must be another seat",
        ),
        (
            hand.liable is not None and not c.tsumo and hand.discarder is None,
            "a ron with a liable player (pao) must name the discarder",
        ),
    )
    problems = [message for failed, message in checks if failed]
    if c.kita and c.kita + hand_count(hand, NORTH) > 4:
        problems.append(f"{c.kita} North extractions plus the Norths in hand exceed 4")
    if problems:
        raise InvalidConditionsError("; ".join(problems))


def hand_count(hand: WinningHand, kind: int) -> int:
    """How many tiles of a kind the hand holds, melds included."""
    return sum(tile.kind == kind for tile in hand.tiles) + sum(
        tile.kind == kind for meld in hand.melds for tile in meld.tiles
    )


class _Context:
    """Facts about the whole hand that do not depend on how it is read."""

    def __init__(
        self, hand: WinningHand, ruleset: Ruleset, all_counts: list[int], closed: bool
    ) -> None:
        c = hand.conditions
        self.hand = hand
        self.ruleset = ruleset
        self.conditions = c
        self.all_counts = all_counts
        self.closed = closed
        self.win = hand.win_tile.kind
        self.tsumo = c.tsumo
        self.dealer = c.dealer

        # Called melds as (kind, concealed, kan) triplets and run starts.
        self.meld_runs: list[int] = []
        self.meld_triplets: list[tuple[int, bool, bool]] = []
        for meld in hand.melds:
            if meld.type is MeldType.CHI:
                self.meld_runs.append(meld.kind)
            else:
                self.meld_triplets.append((meld.kind, meld.type is MeldType.ANKAN, meld.is_kan))
        self.kans = sum(1 for meld in hand.melds if meld.is_kan)

        present = [kind for kind in range(KINDS) if all_counts[kind]]
        suits = {kind // 9 for kind in present if kind < EAST}
        has_honor = present[-1] >= EAST
        self.all_yaochuu = all(_YAOCHUU_FLAGS[kind] for kind in present)
        self.no_yaochuu = not any(_YAOCHUU_FLAGS[kind] for kind in present)
        self.has_honor = has_honor
        self.all_honors = present[0] >= EAST
        self.all_green = all(_GREEN_FLAGS[kind] for kind in present)
        self.flush: str | None = None
        if len(suits) == 1:
            self.flush = "honitsu" if has_honor else "chinitsu"

        # Situational yaku that hold for every reading.
        situational: _Yaku = []
        if c.double_riichi:
            situational.append(("double_riichi", 2))
        elif c.riichi:
            situational.append(("riichi", 1))
        if c.ippatsu:
            situational.append(("ippatsu", 1))
        if closed and c.tsumo:
            situational.append(("menzen_tsumo", 1))
        for flag, name in (
            (c.chankan, "chankan"),
            (c.rinshan, "rinshan"),
            (c.haitei, "haitei"),
            (c.houtei, "houtei"),
        ):
            if flag:
                situational.append((name, 1))
        if self.no_yaochuu and (closed or ruleset.kuitan):
            situational.append(("tanyao", 1))
        if self.flush:
            info = YAKU[self.flush]
            situational.append((self.flush, info.closed_han if closed else info.open_han))
        self.situational = situational

        yakuman: _Yaku = []
        if c.tenhou:
            yakuman.append(("tenhou", 13))
        if c.chiihou:
            yakuman.append(("chiihou", 13))
        if c.renhou and ruleset.renhou is Renhou.YAKUMAN:
            yakuman.append(("renhou", 13))
        if self.all_honors:
            yakuman.append(("tsuuiisou", 13))
        elif self.all_yaochuu and not has_honor:
            yakuman.append(("chinroutou", 13))
        if self.all_green:
            yakuman.append(("ryuuiisou", 13))
        self.situational_yakuman = yakuman

        # Value tiles: dragons, seat wind and round wind.
        self.seat_wind = c.seat_wind
        self.round_wind = c.round_wind

    def double(self, name: str) -> int:
        """13 or 26 han for a yakuman that some rule sets count double."""
        return 26 if name in self.ruleset.double_yakuman else 13

    # -- readings ------------------------------------------------------------------------------

    def kokushi(self, thirteen_wait: bool) -> _Reading:
        name = "kokushi_13" if thirteen_wait else "kokushi"
        wait = WaitShape.KOKUSHI_13 if thirteen_wait else WaitShape.KOKUSHI
        yakuman = [*self.situational_yakuman, (name, self.double(name))]
        return _Reading([], yakuman, 0, [], wait)

    def chiitoitsu(self) -> _Reading:
        yaku = [*self.situational, ("chiitoitsu", 2)]
        if self.all_yaochuu and not self.all_honors:
            yaku.append(("honroutou", 2))
        return _Reading(
            yaku, list(self.situational_yakuman), 25, [("chiitoitsu", 25)], WaitShape.CHIITOITSU
        )

    def standard(self, pair: int, groups: tuple[int, ...]) -> list[_Reading]:
        """Every reading of one decomposition: one per group the winning tile may complete."""
        win = self.win
        runs = [group for group in groups if group < TRIPLET] + self.meld_runs
        concealed_triplets = [group - TRIPLET for group in groups if group >= TRIPLET]
        triplet_kinds = concealed_triplets + [kind for kind, _, _ in self.meld_triplets]

        yaku, yakuman = self._groups_yaku(pair, runs, triplet_kinds)

        # The groups the winning tile may have completed.
        choices: list[tuple[WaitShape, int]] = []
        if pair == win:
            choices.append((WaitShape.TANKI, pair))
        if win in concealed_triplets:
            choices.append((WaitShape.SHANPON, win))
        seen_runs: set[int] = set()
        for group in groups:
            if group < TRIPLET and group <= win <= group + 2 and group not in seen_runs:
                seen_runs.add(group)
                choices.append((run_wait_shape(group, win), group))

        readings: list[_Reading] = []
        for shape, _group in choices:
            readings.append(self._with_wait(pair, runs, concealed_triplets, yaku, yakuman, shape))
        return readings

    def _groups_yaku(
        self, pair: int, runs: list[int], triplet_kinds: list[int]
    ) -> tuple[_Yaku, _Yaku]:
        """Yaku that depend on the groups but not on the wait."""
        yaku = list(self.situational)
        yakuman = list(self.situational_yakuman)
        closed = self.closed
        open_han = not closed

        # Value triplets.
        seat, round_ = self.seat_wind, self.round_wind
        dragons = 0
        winds = 0
        for kind in triplet_kinds:
            if kind >= HAKU:
                dragons += 1
                yaku.append((DRAGON_YAKU[kind - HAKU], 1))
            elif kind >= EAST:
                winds += 1
                if kind == seat:
                    yaku.append((SEAT_WIND_YAKU[kind - EAST], 1))
                if kind == round_:
                    yaku.append((ROUND_WIND_YAKU[kind - EAST], 1))
        if dragons == 3:
            yakuman.append(("daisangen", 13))
        elif dragons == 2 and pair >= HAKU:
            yaku.append(("shousangen", 2))
        if winds == 4:
            yakuman.append(("daisuushii", self.double("daisuushii")))
        elif winds == 3 and EAST <= pair < HAKU:
            yakuman.append(("shousuushii", 13))
        if len(triplet_kinds) == 4:
            yaku.append(("toitoi", 2))
        if self.kans == 4:
            yakuman.append(("suukantsu", 13))
        elif self.kans == 3:
            yaku.append(("sankantsu", 2))

        if runs:
            # Sequences: peikou, sanshoku, ittsu.
            if closed and len(runs) >= 2:
                distinct = set(runs)
                repeats = sum(runs.count(start) // 2 for start in distinct)
                if repeats >= 2:
                    yaku.append(("ryanpeikou", 3))
                elif repeats == 1:
                    yaku.append(("iipeikou", 1))
            if len(runs) >= 3:
                starts = set(runs)
                for start in starts:
                    if start < 9 and start + 9 in starts and start + 18 in starts:
                        yaku.append(("sanshoku", 1 if open_han else 2))
                        break
                for base in (0, 9, 18):
                    if base in starts and base + 3 in starts and base + 6 in starts:
                        yaku.append(("ittsu", 1 if open_han else 2))
                        break
            # Outside hands: every group and the pair hold a terminal or honour.
            if (
                _YAOCHUU_FLAGS[pair]
                and all(start % 9 in (0, 6) for start in runs)
                and all(_YAOCHUU_FLAGS[kind] for kind in triplet_kinds)
            ):
                if self.has_honor:
                    yaku.append(("chanta", 1 if open_han else 2))
                else:
                    yaku.append(("junchan", 2 if open_han else 3))
        elif self.all_yaochuu and self.has_honor and not self.all_honors:
            yaku.append(("honroutou", 2))
        if len(triplet_kinds) >= 3:
            for kind in triplet_kinds:
                if kind < 9 and kind + 9 in triplet_kinds and kind + 18 in triplet_kinds:
                    yaku.append(("sanshoku_doukou", 2))
                    break

        # Nine gates: closed, no melds at all, one suit 1112345678999 plus one.
        if not self.hand.melds and self.flush == "chinitsu":
            counts = self.all_counts
            base = self.win - self.win % 9
            suit = counts[base : base + 9]
            if suit[0] >= 3 and suit[8] >= 3 and all(suit[1:8]):
                pure = counts[self.win] in (2, 4)
                name = "junsei_chuuren" if pure else "chuuren"
                yakuman.append((name, self.double(name) if pure else 13))
        return yaku, yakuman

    def _with_wait(
        self,
        pair: int,
        runs: list[int],
        concealed_triplets: list[int],
        yaku: _Yaku,
        yakuman: _Yaku,
        shape: WaitShape,
    ) -> _Reading:
        """Complete a reading once the group completed by the winning tile is chosen."""
        ruleset = self.ruleset
        tsumo = self.tsumo
        win = self.win
        yaku = list(yaku)
        yakuman = list(yakuman)

        # Concealed triplets: a triplet completed by a ron counts as open.
        ron_shanpon = shape is WaitShape.SHANPON and not tsumo
        ankou = (
            len(concealed_triplets)
            - ron_shanpon
            + sum(1 for _, concealed, _ in self.meld_triplets if concealed)
        )
        if ankou == 4:
            if shape is WaitShape.TANKI:
                yakuman.append(("suuankou_tanki", self.double("suuankou_tanki")))
            else:
                yakuman.append(("suuankou", 13))
        elif ankou == 3:
            yaku.append(("sanankou", 2))

        # Pair fu (also decides pinfu).
        pair_fu = 0
        if pair >= HAKU:
            pair_fu = 2
        elif pair >= EAST:
            if pair == self.seat_wind and pair == self.round_wind:
                pair_fu = ruleset.double_wind_fu
            elif pair == self.seat_wind or pair == self.round_wind:
                pair_fu = 2

        pinfu = (
            not self.hand.melds and len(runs) == 4 and pair_fu == 0 and shape is WaitShape.RYANMEN
        )
        if pinfu:
            yaku.append(("pinfu", 1))
            if tsumo:
                return _Reading(yaku, yakuman, 20, [("base", 20)], shape)
            return _Reading(yaku, yakuman, 30, [("base", 20), ("menzen_ron", 10)], shape)

        items: _FuItems = [("base", 20)]
        if self.closed and not tsumo:
            items.append(("menzen_ron", 10))
        for kind in concealed_triplets:
            opened = ron_shanpon and kind == win
            items.append(_triplet_fu(kind, not opened, False))
        for kind, concealed, kan in self.meld_triplets:
            items.append(_triplet_fu(kind, concealed, kan))
        if pair_fu:
            items.append(("pair", pair_fu))
        if shape in (WaitShape.KANCHAN, WaitShape.PENCHAN, WaitShape.TANKI):
            items.append((shape.value, 2))
        if tsumo:
            items.append(("tsumo", 2))
        total = sum(fu for _, fu in items)
        if total == 20:
            # An open hand without fu is still 30 fu.
            items.append(("open_pinfu", 10))
            total = 30
        return _Reading(yaku, yakuman, -(-total // 10) * 10, items, shape)

    # -- dora and totals -----------------------------------------------------------------------

    def dora_entries(self, reds: int) -> _Yaku:
        """Dora, red fives, ura dora and North extractions, as yaku entries."""
        ruleset = self.ruleset
        hand = self.hand
        counts = self.all_counts
        c = self.conditions
        entries: _Yaku = []
        three = ruleset.three_player

        def count(indicators: tuple[Tile, ...]) -> int:
            total = 0
            for indicator in indicators:
                dora = dora_from_indicator(indicator.kind, three_player=three)
                total += counts[dora] + (c.kita if dora == NORTH else 0)
            return total

        dora = count(hand.dora_indicators)
        if dora:
            entries.append(("dora", dora))
        if reds:
            entries.append(("aka_dora", reds))
        if (c.riichi or c.double_riichi) and ruleset.ura_dora:
            ura = count(hand.ura_indicators)
            if ura:
                entries.append(("ura_dora", ura))
        if c.kita:
            entries.append(("kita", c.kita))
        return entries

    def hand_total(self, base: int) -> int:
        """What the hand is worth to the winner before honba and sticks (to rank readings)."""
        if self.tsumo:
            return sum(tsumo_shares(base, self.seat_wind, self.ruleset).values())
        return -(-base * (6 if self.dealer else 4) // 100) * 100


def _triplet_fu(kind: int, concealed: bool, kan: bool) -> tuple[str, int]:
    fu = 2
    if _YAOCHUU_FLAGS[kind]:
        fu *= 2
    if concealed:
        fu *= 2
    if kan:
        fu *= 4
    name = f"{'closed' if concealed else 'open'}_{'kan' if kan else 'triplet'}_{format_kind(kind)}"
    return name, fu
