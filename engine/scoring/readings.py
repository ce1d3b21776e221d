"""The readings of a winning hand and their value: yaku, fu, han and base points.

A *reading* is one way to see the hand: a decomposition into groups and a pair together with the
group the winning tile completed (or seven pairs, or thirteen orphans). :class:`Reader` holds the
facts that do not depend on the reading (computed once per hand) and values each reading.

This is the engine's hot path: a replay scores every win, statistics re-score many. It works on
packed counts (:data:`engine.tiles.PACKED_BYTES`) and small tables, and every yaku entry and fu
item it hands out is an interned constant, so valuing a reading allocates little more than the
tuples that hold them.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from engine.hand.decompose import WaitShape
from engine.hand.melds import ANKAN, CHI, PON
from engine.hand.win import WinConditions, WinningHand
from engine.rules.ruleset import Renhou, Ruleset
from engine.rules.yaku import DRAGON_YAKU, ROUND_WIND_YAKU, SEAT_WIND_YAKU, YAKU
from engine.scoring.limits import base_points, yakuman_limit
from engine.scoring.rule_tables import RuleTables
from engine.scoring.values import Y13, FuItem, YakuHan, yaku_han
from engine.tiles import (
    EAST,
    GREENS,
    HAKU,
    KINDS,
    NORTH,
    PACKED_BYTES,
    RED_BYTE,
    YAOCHUU,
    format_kind,
    kinds_mask,
)

__all__ = ["SIMPLES_MASK", "FuItem", "Reader", "Valued", "YakuHan", "yaku_han"]

_HAN: Final = itemgetter(1)
# Masks of kinds in packed counts (engine.tiles.PACKED_BYTES): ``packed & mask`` is 0 when the
# tiles hold none of the kinds.
_YAOCHUU_MASK: Final = kinds_mask(YAOCHUU)
SIMPLES_MASK: Final = kinds_mask(set(range(KINDS)) - set(YAOCHUU))
_HONOR_MASK: Final = kinds_mask(range(EAST, KINDS))
_NUMBER_MASK: Final = kinds_mask(range(EAST))
_NOT_GREEN_MASK: Final = kinds_mask(set(range(KINDS)) - GREENS)
#: Packed counts shifted right by this hold only the red fives' bytes.
_RED_SHIFT: Final = 8 * RED_BYTE
_MAN_MASK: Final = kinds_mask(range(0, 9))
_PIN_MASK: Final = kinds_mask(range(9, 18))
_SOU_MASK: Final = kinds_mask(range(18, 27))
_IS_YAOCHUU: Final = tuple(kind in YAOCHUU for kind in range(KINDS))


def _closed_open(name: str) -> tuple[YakuHan, YakuHan]:
    info = YAKU[name]
    return yaku_han(name, info.closed_han), yaku_han(name, info.open_han)


_RIICHI: Final = yaku_han("riichi", 1)
_DOUBLE_RIICHI: Final = yaku_han("double_riichi", 2)
_IPPATSU: Final = yaku_han("ippatsu", 1)
_MENZEN_TSUMO: Final = yaku_han("menzen_tsumo", 1)
_CHANKAN: Final = yaku_han("chankan", 1)
_RINSHAN: Final = yaku_han("rinshan", 1)
_HAITEI: Final = yaku_han("haitei", 1)
_HOUTEI: Final = yaku_han("houtei", 1)
_TANYAO: Final = yaku_han("tanyao", 1)
_PINFU: Final = yaku_han("pinfu", 1)
_IIPEIKOU: Final = yaku_han("iipeikou", 1)
_RYANPEIKOU: Final = yaku_han("ryanpeikou", 3)
_CHIITOITSU: Final = yaku_han("chiitoitsu", 2)
_TOITOI: Final = yaku_han("toitoi", 2)
_SANANKOU: Final = yaku_han("sanankou", 2)
_SANKANTSU: Final = yaku_han("sankantsu", 2)
_SANSHOKU_DOUKOU: Final = yaku_han("sanshoku_doukou", 2)
_SHOUSANGEN: Final = yaku_han("shousangen", 2)
_HONROUTOU: Final = yaku_han("honroutou", 2)
_HONITSU: Final = _closed_open("honitsu")
_CHINITSU: Final = _closed_open("chinitsu")
_SANSHOKU: Final = _closed_open("sanshoku")
_ITTSU: Final = _closed_open("ittsu")
_CHANTA: Final = _closed_open("chanta")
_JUNCHAN: Final = _closed_open("junchan")
_DRAGONS: Final = tuple(yaku_han(name, 1) for name in DRAGON_YAKU)
_SEAT_WINDS: Final = tuple(yaku_han(name, 1) for name in SEAT_WIND_YAKU)
_ROUND_WINDS: Final = tuple(yaku_han(name, 1) for name in ROUND_WIND_YAKU)
RENHOU_MANGAN: Final = yaku_han("renhou_mangan", 5)
#: Dora-like entries by count. Counts stay small: at most 5 indicators of each kind, each
#: pointing at 4 tiles at most (extracted Norths included), and at most 4 Norths extracted.
_DORA: Final = tuple(yaku_han("dora", count) for count in range(21))
_URA_DORA: Final = tuple(yaku_han("ura_dora", count) for count in range(21))
_AKA_DORA: Final = tuple(yaku_han("aka_dora", count) for count in range(13))
_KITA: Final = tuple(yaku_han("kita", count) for count in range(5))

# Fu items; the fu of the common ones also as plain numbers, to total them as they are listed.
_BASE_FU: Final = 20
_MENZEN_RON_FU: Final = 10
_TSUMO_FU: Final = 2
_WAIT_FU: Final = 2
_BASE: Final = FuItem("base", _BASE_FU)
_MENZEN_RON: Final = FuItem("menzen_ron", _MENZEN_RON_FU)
_TSUMO_ITEM: Final = FuItem("tsumo", _TSUMO_FU)
_OPEN_PINFU: Final = FuItem("open_pinfu", 10)
_TWO_FU_WAITS: Final = (WaitShape.KANCHAN, WaitShape.PENCHAN, WaitShape.TANKI)
#: The fu item of each wait shape (for a closed, edge or single wait), or None.
_WAIT_ITEMS: Final[dict[WaitShape, FuItem | None]] = {
    shape: FuItem(shape.value, _WAIT_FU) if shape in _TWO_FU_WAITS else None for shape in WaitShape
}
_PAIR_FU: Final = {fu: FuItem("pair", fu) for fu in (2, 4)}
# Wait shapes as module constants (enum lookups on the class are slow in Python 3.11).
TANKI: Final = WaitShape.TANKI
SHANPON: Final = WaitShape.SHANPON
RYANMEN: Final = WaitShape.RYANMEN
_CHIITOITSU_WAIT: Final = WaitShape.CHIITOITSU
_KOKUSHI_WAITS: Final = (WaitShape.KOKUSHI, WaitShape.KOKUSHI_13)
_PINFU_TSUMO_ITEMS: Final = (_BASE,)
_PINFU_RON_ITEMS: Final = (_BASE, _MENZEN_RON)
CHIITOITSU_ITEMS: Final = (FuItem("chiitoitsu", 25),)
#: Space mahjong's open thirteen orphans: a fixed 30 fu (docs/variants/space.md).
OPEN_KOKUSHI_ITEMS: Final = (FuItem("open_kokushi", 30),)


def _triplet_item(kind: int, concealed: bool, kan: bool) -> FuItem:
    fu = (4 if _IS_YAOCHUU[kind] else 2) * (2 if concealed else 1) * (4 if kan else 1)
    state = "closed" if concealed else "open"
    return FuItem(f"{state}_{'kan' if kan else 'triplet'}_{format_kind(kind)}", fu)


#: Fu items of every triplet, by [kind][concealed][kan]: built once, looked up on the hot path.
_TRIPLET_ITEMS: Final = tuple(
    tuple(tuple(_triplet_item(kind, bool(c), bool(k)) for k in (0, 1)) for c in (0, 1))
    for kind in range(KINDS)
)


Yaku = tuple[YakuHan, ...]
FuItems = tuple[FuItem, ...]
#: A valued reading: (rank key, han, fu, base, limit, multiplier, yaku, fu items, wait, and what
#: payers pay before honba: the ron's value and 0, or a tsumo's share of the dealer and of each
#: other payer).
Valued = tuple[
    tuple[int, bool, int, int], int, int, int, str | None, int, Yaku, FuItems, WaitShape, int, int
]


class Reader:
    """Facts about the whole hand that do not depend on how it is read, and the readings.

    Built with :meth:`of_hand`.
    """

    __slots__ = (
        "closed",
        "conditions",
        "dealer",
        "dora",
        "has_honor",
        "honroutou",
        "kans",
        "meld_ankou",
        "meld_fu",
        "meld_items",
        "meld_runs",
        "meld_triplets",
        "outside_run",
        "ruleset",
        "runs_holding",
        "situational",
        "situational_yakuman",
        "tables",
        "tsumo",
        "win",
    )
    closed: bool
    conditions: WinConditions
    dealer: bool
    #: Dora, red fives, ura dora and North extractions: value() adds them to every reading.
    dora: list[YakuHan]
    has_honor: bool
    honroutou: bool
    kans: int
    #: Closed kans among the called melds.
    meld_ankou: int
    meld_items: FuItems
    meld_fu: int
    meld_runs: tuple[int, ...]
    meld_triplets: tuple[int, ...]
    #: Per run start: the run holds a terminal or an honour (the rule set's shapes).
    outside_run: tuple[bool, ...]
    ruleset: Ruleset
    #: Per kind: the runs holding it, with the wait shape when it completed them.
    runs_holding: tuple[tuple[tuple[int, WaitShape], ...], ...]
    #: Yaku and yakuman of the whole hand: value() adds them to every reading's own.
    situational: list[YakuHan]
    situational_yakuman: list[YakuHan]
    tables: RuleTables
    tsumo: bool
    win: int

    @classmethod
    def of_hand(
        cls,
        hand: WinningHand,
        tables: RuleTables,
        held: int,
        counts: bytes,
        closed: bool,
        rare_flags: bool,
    ) -> Reader:
        """The reader of a hand. ``held`` holds all the winner's tiles as packed counts,
        ``counts`` is its bytes; ``rare_flags`` tells whether any of the rarer win conditions is
        set (ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, renhou, kita): without
        it they are skipped.

        A constructor, not ``__init__``: Python 3.11 runs ``__init__`` of a class call in a
        nested interpreter loop, slower than this plain call.
        """
        # A call of the class without __init__, not object.__new__(cls), which mypyc's compiled
        # classes refuse (and which is no faster).
        self = cls()
        c = self.conditions = hand.conditions
        ruleset = self.ruleset = tables.ruleset
        self.tables = tables
        shapes = tables.shapes
        self.runs_holding = shapes.runs_holding
        self.outside_run = shapes.outside_run
        self.closed = closed
        win = self.win = hand.win_tile.kind
        self.tsumo = c.tsumo
        self.dealer = c.seat_wind == EAST
        melds = hand.melds

        # Called melds: run starts, triplet kinds, kan and closed-kan counts, their fu items.
        if melds:
            meld_runs: list[int] = []
            meld_triplets: list[int] = []
            meld_items: list[FuItem] = []
            kans = meld_ankou = meld_fu = 0
            for meld in melds:
                meld_type = meld.type
                if meld_type is CHI:
                    meld_runs.append(meld.kind)
                else:
                    kind = meld.kind
                    meld_triplets.append(kind)
                    is_kan = meld_type is not PON
                    concealed = meld_type is ANKAN
                    kans += is_kan
                    meld_ankou += concealed
                    item = _TRIPLET_ITEMS[kind][concealed][is_kan]
                    meld_items.append(item)
                    meld_fu += item[1]
            self.meld_runs = tuple(meld_runs)
            self.meld_triplets = tuple(meld_triplets)
            self.meld_items = tuple(meld_items)
            self.meld_fu = meld_fu
            self.kans = kans
            self.meld_ankou = meld_ankou
        else:
            self.meld_runs = self.meld_triplets = self.meld_items = ()
            self.kans = self.meld_ankou = self.meld_fu = 0

        has_honor = self.has_honor = held & _HONOR_MASK != 0
        all_yaochuu = not held & SIMPLES_MASK
        all_honors = not held & _NUMBER_MASK
        self.honroutou = all_yaochuu and has_honor and not all_honors
        suits = (held & _MAN_MASK != 0) + (held & _PIN_MASK != 0) + (held & _SOU_MASK != 0)

        # Yaku of the whole hand, in the order they are listed; value() adds them to each
        # reading's own.
        situational = self.situational = []
        if c.double_riichi:
            situational.append(_DOUBLE_RIICHI)
        elif c.riichi:
            situational.append(_RIICHI)
        if rare_flags and c.ippatsu:
            situational.append(_IPPATSU)
        if closed and c.tsumo:
            situational.append(_MENZEN_TSUMO)
        if rare_flags:
            if c.chankan:
                situational.append(_CHANKAN)
            if c.rinshan:
                situational.append(_RINSHAN)
            if c.haitei:
                situational.append(_HAITEI)
            if c.houtei:
                situational.append(_HOUTEI)
        if not held & _YAOCHUU_MASK and (closed or ruleset.kuitan):
            situational.append(_TANYAO)
        if suits == 1:
            situational.append((_HONITSU if has_honor else _CHINITSU)[not closed])

        yakuman = self.situational_yakuman = []
        if rare_flags:
            if c.tenhou:
                yakuman.append(Y13["tenhou"])
            if c.chiihou:
                yakuman.append(Y13["chiihou"])
            if c.renhou and ruleset.renhou is Renhou.YAKUMAN:
                yakuman.append(Y13["renhou"])
        if all_honors:
            yakuman.append(Y13["tsuuiisou"])
        elif all_yaochuu and not has_honor:
            yakuman.append(Y13["chinroutou"])
        if not held & _NOT_GREEN_MASK:
            yakuman.append(Y13["ryuuiisou"])
        if not melds and suits == 1 and not has_honor:
            # Nine gates: one suit 1112345678999 plus one tile, no calls at all.
            base = win - win % 9
            suit = counts[base : base + 9]
            if (suit[0] >= 3 and suit[8] >= 3 and min(suit) >= 1) or (
                ruleset.space_wrap_chuuren and not shapes.standard and _wrapped_gates(suit)
            ):
                if counts[win] in (2, 4):
                    yakuman.append(tables.yakuman["junsei_chuuren"])
                else:
                    yakuman.append(Y13["chuuren"])

        # Dora, red fives, ura dora and North extractions, as yaku entries.
        kita = c.kita
        held_counts = counts
        if kita:
            # Extracted Norths count as North tiles of the hand for the indicators.
            counts = (held + (kita << 8 * NORTH)).to_bytes(PACKED_BYTES, "little")
        dora_of = tables.dora_of
        dora = self.dora = []
        count = 0
        for indicator in hand.dora_indicators:
            count += counts[dora_of[indicator.kind]]
        if count:
            dora.append(_DORA[count])
        if held >> _RED_SHIFT:
            dora.append(_AKA_DORA[sum(counts[RED_BYTE:])])
        if (c.riichi or c.double_riichi) and ruleset.ura_dora:
            count = 0
            for indicator in hand.ura_indicators:
                count += counts[dora_of[indicator.kind]]
            if count:
                dora.append(_URA_DORA[count])
        if kita:
            dora.append(_KITA[kita])
        for modifier in tables.modifiers:
            dora.extend(yaku_han(name, han) for name, han in modifier.bonus(hand, held_counts))
        return self

    # -- valuing -------------------------------------------------------------------------------

    def value(
        self,
        yaku: Yaku | list[YakuHan],
        yakuman: Yaku | list[YakuHan],
        fu: int,
        fu_items: FuItems,
        wait: WaitShape,
        *,
        hand_wide: bool = True,
    ) -> Valued | None:
        """Han, base points, limit and rank key of a reading; None if it has no yaku.

        ``yaku`` and ``yakuman`` are the reading's own; with ``hand_wide`` the hand's situational
        yaku and yakuman come first, and its dora last.
        """
        limit: str | None
        if hand_wide and self.situational_yakuman:
            yakuman = (*self.situational_yakuman, *yakuman)
        if yakuman:
            if self.ruleset.stacked_yakuman:
                multiplier = sum([entry.han for entry in yakuman]) // 13
                yaku = tuple(yakuman)
            else:
                # One yakuman at most: the hand lists only the one it is paid for.
                yaku = (max(yakuman, key=_HAN),)
                multiplier = yaku[0].han // 13
            base, limit = yakuman_limit(multiplier)
            han = 13 * multiplier
        else:
            if hand_wide:
                if not yaku and not self.situational:
                    return None  # dora alone are no yaku
                yaku = (*self.situational, *yaku, *self.dora)
            else:
                yaku = tuple(yaku)
            multiplier = 0
            han = 0
            for entry in yaku:
                han += entry[1]
            base = fu << (han + 2) if han < 5 else 2001
            if base > 2000 or self.ruleset.kiriage:
                base, limit = base_points(han, fu, self.ruleset)
            else:
                limit = None
        # What each payer pays before honba (payments.plain_payments): the ron's value, or the
        # tsumo payments from the dealer and from each other payer, each rounded up to 100.
        # Readings rank by their total (honba and sticks are the same for every reading).
        if self.tsumo:
            from_dealer, from_other = self.tables.tsumo_halves[self.dealer]
            first = -(-(base * from_dealer // 2) // 100) * 100
            rest = -(-(base * from_other // 2) // 100) * 100
            total = first + self.tables.other_payers * rest
        else:
            total = first = -(-base * (6 if self.dealer else 4) // 100) * 100
            rest = 0
        return ((total, multiplier > 0, han, fu), han, fu, base, limit, multiplier, yaku,
                fu_items, wait, first, rest)  # fmt: skip

    def kokushi(self, thirteen_wait: bool) -> Valued | None:
        """Thirteen orphans (the 13-sided wait when the winning tile made the pair)."""
        entry = self.tables.yakuman["kokushi_13"] if thirteen_wait else Y13["kokushi"]
        return self.value((), (entry,), 0, (), _KOKUSHI_WAITS[thirteen_wait])

    def open_kokushi(self, thirteen_wait: bool) -> Valued | None:
        """Space mahjong's thirteen orphans with honour runs called: ``open_kokushi_han`` han
        at a fixed 30 fu. Honroutou, which every such hand is, does not add (the document's
        "reduced value ... 2 ~ 3 hans"); the situational yaku and dora do, as to any hand."""
        entry = yaku_han("open_kokushi", self.ruleset.open_kokushi_han)
        return self.value((entry,), (), 30, OPEN_KOKUSHI_ITEMS, _KOKUSHI_WAITS[thirteen_wait])

    def chiitoitsu(self) -> Valued | None:
        """Seven pairs: 25 fu, with the hand-wide yaku."""
        yaku = (_CHIITOITSU, _HONROUTOU) if self.honroutou else (_CHIITOITSU,)
        return self.value(yaku, (), 25, CHIITOITSU_ITEMS, _CHIITOITSU_WAIT)

    def renhou_mangan(self) -> Valued | None:
        """Renhou as a strict mangan: its own reading, without other yaku or dora."""
        # A mangan by rule: no fu are counted (0 fu, no fu items).
        return self.value((RENHOU_MANGAN,), (), 0, (), TANKI, hand_wide=False)

    def standard(
        self, pair: int, concealed_runs: tuple[int, ...], concealed_triplets: tuple[int, ...]
    ) -> Valued | None:
        """The best reading of one decomposition, over the groups the winning tile may have
        completed; None if none of them has a yaku."""
        meld_runs = self.meld_runs
        runs = meld_runs + concealed_runs if meld_runs else concealed_runs
        triplets = concealed_triplets + self.meld_triplets
        opened = not self.closed
        # The decomposition's own yaku and yakuman (value() adds the hand's).
        yaku: list[YakuHan] = []
        yakuman: list[YakuHan] = []

        # -- yaku of the groups, whatever the wait ---------------------------------------------
        if triplets:
            # Value triplets and the big hands of dragons and winds.
            dragons = 0
            winds = 0
            for kind in triplets:
                if kind >= HAKU:
                    dragons += 1
                    yaku.append(_DRAGONS[kind - HAKU])
                elif kind >= EAST:
                    winds += 1
                    if kind == self.conditions.seat_wind:
                        yaku.append(_SEAT_WINDS[kind - EAST])
                    if kind == self.conditions.round_wind:
                        yaku.append(_ROUND_WINDS[kind - EAST])
            if dragons == 3:
                yakuman.append(Y13["daisangen"])
            elif dragons == 2 and pair >= HAKU:
                yaku.append(_SHOUSANGEN)
            if winds == 4:
                yakuman.append(self.tables.yakuman["daisuushii"])
            elif winds == 3 and EAST <= pair <= NORTH:
                yakuman.append(Y13["shousuushii"])
            if len(triplets) == 4:
                yaku.append(_TOITOI)
            if self.kans == 4:
                yakuman.append(Y13["suukantsu"])
            elif self.kans == 3:
                yaku.append(_SANKANTSU)
            if len(triplets) >= 3:
                for kind in triplets:
                    if kind < 9 and kind + 9 in triplets and kind + 18 in triplets:
                        yaku.append(_SANSHOKU_DOUKOU)
                        break

        if runs:
            if not opened and len(runs) >= 2:
                repeats = len(runs) - len(set(runs))
                if repeats >= 2:
                    # Count exactly only when needed: three copies of a run are one repeat.
                    repeats = sum(runs.count(start) // 2 for start in set(runs))
                if repeats >= 2:
                    yaku.append(_RYANPEIKOU)
                elif repeats:
                    yaku.append(_IIPEIKOU)
            if len(runs) >= 3:
                # (Any run: space mahjong's 891m891p891s is a sanshoku too.)
                for start in runs:
                    if start < 9 and start + 9 in runs and start + 18 in runs:
                        yaku.append(_SANSHOKU[opened])
                        break
                for base in (0, 9, 18):
                    if base in runs and base + 3 in runs and base + 6 in runs:
                        yaku.append(_ITTSU[opened])
                        break
            # Outside hands: every group and the pair hold a terminal or honour (space mahjong:
            # 891 and 912 are outside runs, honour runs count as honour groups). A hand of
            # terminals and honours alone is honroutou instead (space mahjong's runs of honours
            # allow it with runs: seeds/000's "Honroutou-nomi").
            if (
                not self.honroutou
                and _IS_YAOCHUU[pair]
                and all(map(self.outside_run.__getitem__, runs))
                and all(map(_IS_YAOCHUU.__getitem__, triplets))
            ):
                yaku.append((_CHANTA if self.has_honor else _JUNCHAN)[opened])
        if self.honroutou:
            yaku.append(_HONROUTOU)

        # -- the pair's fu: a dragon, the seat wind, the round wind (a double wind per rules) --
        pair_fu = 0
        if pair >= HAKU:
            pair_fu = 2
        elif pair >= EAST:
            c = self.conditions
            if pair == c.seat_wind:
                pair_fu = self.ruleset.double_wind_fu if pair == c.round_wind else 2
            elif pair == c.round_wind:
                pair_fu = 2

        # -- one reading per group the winning tile may have completed (usually one) -----------
        win = self.win
        best: Valued | None = None
        if pair == win:
            best = self._with_wait(pair_fu, runs, concealed_triplets, yaku, yakuman, TANKI)
        if win in concealed_triplets:
            valued = self._with_wait(pair_fu, runs, concealed_triplets, yaku, yakuman, SHANPON)
            if valued is not None and (best is None or valued[0] > best[0]):
                best = valued
        for start, shape in self.runs_holding[win]:
            if start in concealed_runs:
                valued = self._with_wait(pair_fu, runs, concealed_triplets, yaku, yakuman, shape)
                if valued is not None and (best is None or valued[0] > best[0]):
                    best = valued
        return best

    def _with_wait(
        self,
        pair_fu: int,
        runs: tuple[int, ...],
        concealed_triplets: tuple[int, ...],
        yaku: list[YakuHan],
        yakuman: list[YakuHan],
        shape: WaitShape,
    ) -> Valued | None:
        """Complete and value a reading once the group the winning tile completed is chosen
        (``yaku`` and ``yakuman`` are the decomposition's, shared by its readings: not changed).
        """
        tsumo = self.tsumo

        # Concealed triplets: a triplet completed by a ron counts as open.
        ron_shanpon = shape is SHANPON and not tsumo
        ankou = len(concealed_triplets) - ron_shanpon + self.meld_ankou
        if ankou == 4:
            if shape is TANKI:
                yakuman = [*yakuman, self.tables.yakuman["suuankou_tanki"]]
            else:
                yakuman = [*yakuman, Y13["suuankou"]]
        elif ankou == 3:
            yaku = [*yaku, _SANANKOU]

        # Pinfu: four runs in a closed hand (so no kan either), no fu from the pair or the wait.
        if self.closed and len(runs) == 4 and not pair_fu and shape is RYANMEN:
            if tsumo:
                return self.value([*yaku, _PINFU], yakuman, 20, _PINFU_TSUMO_ITEMS, shape)
            return self.value([*yaku, _PINFU], yakuman, 30, _PINFU_RON_ITEMS, shape)

        # The fu items, and their total as they come.
        items = [_BASE]
        total = _BASE_FU
        if self.closed and not tsumo:
            items.append(_MENZEN_RON)
            total += _MENZEN_RON_FU
        win = self.win
        for kind in concealed_triplets:
            item = _TRIPLET_ITEMS[kind][not (ron_shanpon and kind == win)][False]
            items.append(item)
            total += item[1]
        if self.meld_items:
            items += self.meld_items
            total += self.meld_fu
        if pair_fu:
            items.append(_PAIR_FU[pair_fu])
            total += pair_fu
        wait_item = _WAIT_ITEMS[shape]
        if wait_item is not None:
            items.append(wait_item)
            total += _WAIT_FU
        if tsumo:
            items.append(_TSUMO_ITEM)
            total += _TSUMO_FU
        if total == 20:
            # An open hand without fu is still 30 fu.
            items.append(_OPEN_PINFU)
            total = 30
        return self.value(yaku, yakuman, -(-total // 10) * 10, tuple(items), shape)


def _wrapped_gates(suit: bytes) -> bool:
    """Nine gates with wrap-around (space mahjong's ``space_wrap_chuuren``): 14 tiles of one
    suit holding every rank, three or more of two cyclically adjacent ranks (4445678912333p and
    one more tile: 3p and 4p play the parts of 9 and 1)."""
    return min(suit) >= 1 and any(suit[rank - 1] >= 3 and suit[rank] >= 3 for rank in range(9))
