"""Scoring a winning hand: yaku, fu, han, limits and payments, for the best reading of the hand.

:func:`score_hand` reads the concealed tiles in every way they form a complete hand (each
standard decomposition with each group the winning tile may have completed, seven pairs,
thirteen orphans), values each reading, and keeps the most valuable one, as every platform does:
the highest payment, then a real yakuman over a counted one, then more han, then more fu.

This is the engine's hot path (a replay scores every win, the statistics re-score many), so it
works on kind counts and bit masks of kinds rather than on tile objects, and builds the result's
objects only for the reading it keeps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from engine.errors import InvalidConditionsError, InvalidHandError, NotAgariError, NoYakuError
from engine.hand.decompose import TRIPLET, WaitShape, raw_decompositions
from engine.hand.melds import Meld, MeldType
from engine.rules.ruleset import Renhou, Ruleset, SanmaTsumo
from engine.scoring.limits import base_points, yakuman_limit
from engine.scoring.payments import Payment, win_payments
from engine.scoring.yaku import DRAGON_YAKU, ROUND_WIND_YAKU, SEAT_WIND_YAKU, YAKU
from engine.tiles import (
    EAST,
    GREENS,
    HAKU,
    KINDS,
    NORTH,
    YAOCHUU,
    Tile,
    dora_from_indicator,
    format_kind,
    format_tiles,
)


def _mask(kinds: object) -> int:
    return sum(1 << kind for kind in kinds)  # type: ignore[attr-defined]


_ALL: Final = (1 << KINDS) - 1
_YAOCHUU_MASK: Final = _mask(YAOCHUU)
_SIMPLE_MASK: Final = _ALL & ~_YAOCHUU_MASK
_HONOR_MASK: Final = _mask(range(EAST, KINDS))
_NUMBER_MASK: Final = _ALL & ~_HONOR_MASK
_NOT_GREEN_MASK: Final = _ALL & ~_mask(GREENS)
_SUIT_MASKS: Final = (_mask(range(0, 9)), _mask(range(9, 18)), _mask(range(18, 27)))
_SANMA_MISSING_MASK: Final = _mask(range(1, 8))
_BITS: Final = tuple(1 << kind for kind in range(KINDS))
#: The dora each indicator points at, for 4 and 3 players (1m <-> 9m in 3-player).
_DORA_OF: Final = {
    players: tuple(dora_from_indicator(kind, three_player=players == 3) for kind in range(KINDS))
    for players in (3, 4)
}
_IS_YAOCHUU: Final = tuple(bool(_YAOCHUU_MASK >> kind & 1) for kind in range(KINDS))


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


class YakuHan(NamedTuple):
    """A yaku (or dora entry) with the han it gives; yakuman give 13 per yakuman."""

    name: str
    han: int


class FuItem(NamedTuple):
    """One line of the fu count."""

    name: str
    fu: int


class HandScore(NamedTuple):
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


_Yaku = tuple[tuple[str, int], ...]
# A valued reading: (rank key, han, fu, base, limit, multiplier, yaku, fu items, wait).
_FuItems = tuple[tuple[str, int], ...]
# A valued reading: (rank key, han, fu, base, limit, multiplier, yaku, fu items, wait).
_Valued = tuple[
    tuple[int, bool, int, int], int, int, int, str | None, int, _Yaku, _FuItems, WaitShape
]

_TSUMO_FU: Final = (("tsumo", 2),)
_PINFU_TSUMO_FU: Final = (("base", 20),)
_PINFU_RON_FU: Final = (("base", 20), ("menzen_ron", 10))
_CHIITOITSU_FU: Final = (("chiitoitsu", 25),)


def _triplet_item(kind: int, concealed: bool, kan: bool) -> tuple[str, int]:
    fu = (4 if _IS_YAOCHUU[kind] else 2) * (2 if concealed else 1) * (4 if kan else 1)
    state = "closed" if concealed else "open"
    return f"{state}_{'kan' if kan else 'triplet'}_{format_kind(kind)}", fu


#: Fu items of every triplet, by [kind][concealed][kan]: built once, looked up on the hot path.
_TRIPLET_ITEMS: Final = tuple(
    tuple(tuple(_triplet_item(kind, bool(c), bool(k)) for k in (0, 1)) for c in (0, 1))
    for kind in range(KINDS)
)


def score_hand(hand: WinningHand, ruleset: Ruleset) -> HandScore:
    """Score a winning hand under a rule set, choosing its most valuable reading.

    :raises InvalidHandError: impossible tiles (counts, red fives, tiles absent in 3-player).
    :raises InvalidConditionsError: contradictory win conditions.
    :raises NotAgariError: the tiles do not form a complete hand.
    :raises NoYakuError: the hand is complete but has no yaku.
    """
    c = hand.conditions
    melds = hand.melds
    concealed = [0] * KINDS
    reds = [0, 0, 0, 0]
    mask = 0
    bits = _BITS
    for tile in hand.tiles:
        kind = tile.kind
        concealed[kind] += 1
        mask |= bits[kind]
        if tile.red:
            reds[kind // 9] += 1
    all_counts = concealed[:]
    closed = True
    for meld in melds:
        if meld.type is not MeldType.ANKAN:
            closed = False
        for tile in meld.tiles:
            kind = tile.kind
            all_counts[kind] += 1
            mask |= bits[kind]
            if tile.red:
                reds[kind // 9] += 1
    _check_tiles(hand, ruleset, concealed, all_counts, reds, mask)
    _check_conditions(hand, ruleset, closed)

    reader = _Reader(hand, ruleset, all_counts, mask, closed, sum(reds))
    best: _Valued | None = None
    found = False
    win = hand.win_tile.kind
    if not melds:
        if mask & _YAOCHUU_MASK == mask and mask.bit_count() == 13:
            found = True
            best = reader.kokushi(concealed[win] == 2)
        elif mask.bit_count() == 7 and max(concealed) == 2:
            found = True
            best = reader.chiitoitsu()
    for pair, groups in raw_decompositions(concealed):
        found = True
        for valued in reader.standard(pair, groups):
            if valued is not None and (best is None or valued[0] > best[0]):
                best = valued
    if not found:
        raise NotAgariError(
            f"{format_tiles(hand.tiles, sort=True)} with {len(melds)} called meld(s) "
            "is not a complete hand"
        )
    if c.renhou and ruleset.renhou is Renhou.MANGAN:
        # Renhou as a strict mangan: worth a mangan on its own, or the hand's own value.
        renhou = reader.value((("renhou_mangan", 5),), (), 30, (), WaitShape.TANKI, dora=False)
        if renhou is not None and (best is None or renhou[0] > best[0]):
            best = renhou
    if best is None:
        raise NoYakuError(f"{format_tiles(hand.tiles, sort=True)} has no yaku")
    return _finish(best, hand, ruleset)


def _finish(best: _Valued, hand: WinningHand, ruleset: Ruleset) -> HandScore:
    _, han, fu, base, limit, multiplier, yaku, fu_items, wait = best
    c = hand.conditions
    liable_base = 0
    if hand.liable is not None:
        pao_multiplier = sum(h // 13 for name, h in yaku if name in ruleset.pao)
        if not pao_multiplier:
            raise InvalidConditionsError(
                "a liable player (pao) was named, but the hand has no yakuman with liability "
                f"in {ruleset.name} ({', '.join(sorted(ruleset.pao)) or 'none'})"
            )
        liable_base = min(base, 8000 * pao_multiplier) if ruleset.pao_only_liable_yakuman else base
    payments = win_payments(
        base,
        winner=c.seat_wind,
        tsumo=c.tsumo,
        honba=c.honba,
        ruleset=ruleset,
        discarder=hand.discarder,
        liable=hand.liable,
        liable_base=liable_base,
    )
    sticks = 1000 * c.sticks
    new = tuple.__new__
    return HandScore(
        han=han,
        fu=fu,
        fu_items=tuple([new(FuItem, item) for item in fu_items]),
        yaku=tuple([new(YakuHan, item) for item in yaku]),
        limit=limit,
        yakuman=multiplier,
        base_points=base,
        payments=tuple(payments),
        sticks_won=sticks,
        total=sum([payment.amount for payment in payments]) + sticks,
        wait=wait,
    )


def _check_tiles(
    hand: WinningHand,
    ruleset: Ruleset,
    concealed: list[int],
    all_counts: list[int],
    reds: list[int],
    mask: int,
) -> None:
    expected = 14 - 3 * len(hand.melds)
    if len(hand.tiles) != expected:
        raise InvalidHandError(
            f"with {len(hand.melds)} called meld(s) the hand holds {expected} concealed tiles "
            f"(winning tile included), got {len(hand.tiles)}"
        )
    win = hand.win_tile
    if concealed[win.kind] == 0 or (win.red and win not in hand.tiles):
        raise InvalidHandError(f"the winning tile {win} is not among the hand's tiles")
    if max(all_counts) > 4:
        kind = max(range(KINDS), key=all_counts.__getitem__)
        raise InvalidHandError(
            f"{all_counts[kind]} copies of {format_kind(kind)}; there are only 4"
        )
    if ruleset.players == 3 and mask & _SANMA_MISSING_MASK:
        kind = (mask & _SANMA_MISSING_MASK).bit_length() - 1
        raise InvalidHandError(f"{format_kind(kind)} is not used in 3-player mahjong")
    for suit_index, allowed in enumerate(ruleset.red_fives):
        if reds[suit_index] > allowed:
            raise InvalidHandError(
                f"{reds[suit_index]} red five(s) of {'mps'[suit_index]}; "
                f"rule set {ruleset.name} has {allowed}"
            )


def _check_conditions(hand: WinningHand, ruleset: Ruleset, closed: bool) -> None:
    c = hand.conditions
    riichi = c.riichi or c.double_riichi
    first_turn = c.tenhou or c.chiihou or c.renhou
    # Fast path: the common, consistent case is decided by one expression.
    if not (
        (riichi and not closed)
        or (c.ippatsu and not (riichi and ruleset.ippatsu))
        or (c.tsumo and (c.chankan or c.houtei or c.renhou))
        or (not c.tsumo and (c.rinshan or c.haitei or c.tenhou or c.chiihou))
        or (c.rinshan and c.haitei)
        or (c.houtei and c.chankan)
        or (first_turn and (bool(hand.melds) or riichi))
        or (c.tenhou and c.seat_wind != EAST)
        or ((c.chiihou or c.renhou) and c.seat_wind == EAST)
        or (c.renhou and ruleset.renhou is Renhou.NONE)
        or not EAST <= c.seat_wind < EAST + ruleset.players
        or not EAST <= c.round_wind <= NORTH
        or c.honba < 0
        or c.sticks < 0
        or c.kita < 0
        or (c.kita and not ruleset.kita)
        or (c.rinshan and not c.kita and not any(meld.is_kan for meld in hand.melds))
        or hand.discarder is not None
        or hand.liable is not None
        or c.kita
    ):
        return
    problems = _condition_problems(hand, ruleset, closed)
    if problems:
        raise InvalidConditionsError("; ".join(problems))


def _condition_problems(hand: WinningHand, ruleset: Ruleset, closed: bool) -> list[str]:
    c = hand.conditions
    riichi = c.riichi or c.double_riichi
    has_kan = any(meld.is_kan for meld in hand.melds)
    seats = range(EAST, EAST + ruleset.players)
    first_turn = c.tenhou or c.chiihou or c.renhou
    norths = sum(tile.kind == NORTH for tile in hand.tiles) + sum(
        tile.kind == NORTH for meld in hand.melds for tile in meld.tiles
    )
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
        (c.tenhou and c.seat_wind != EAST, "tenhou is the dealer's"),
        (c.chiihou and c.seat_wind == EAST, "chiihou is a non-dealer's"),
        ((c.tenhou or c.chiihou) and not c.tsumo, "tenhou and chiihou are tsumo wins"),
        (c.renhou and (c.seat_wind == EAST or c.tsumo), "renhou is a non-dealer's ron"),
        (c.renhou and ruleset.renhou is Renhou.NONE, f"rule set {ruleset.name} has no renhou"),
        (first_turn and bool(hand.melds), "a first-turn win has no calls"),
        (first_turn and riichi, "a first-turn win comes before any riichi"),
        (c.seat_wind not in seats, f"seat wind must be one of the {ruleset.players} seats"),
        (not EAST <= c.round_wind <= NORTH, "round wind must be a wind"),
        (c.honba < 0 or c.sticks < 0 or c.kita < 0, "honba, sticks and kita are not negative"),
        (bool(c.kita) and not ruleset.kita, f"rule set {ruleset.name} has no North extraction"),
        (c.kita + norths > 4, f"{c.kita} North extraction(s) plus {norths} North(s) held > 4"),
        (
            hand.discarder is not None and (c.tsumo or hand.discarder not in seats),
            "a discarder is named only for a ron, and must be a seat at the table",
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
    return [message for failed, message in checks if failed]


class _Reader:
    """Facts about the whole hand that do not depend on how it is read, and the readings."""

    __slots__ = (
        "all_counts",
        "closed",
        "dealer",
        "dora",
        "has_honor",
        "honroutou",
        "kans",
        "kiriage",
        "split_tsumo",
        "tsumo_payers",
        "meld_ankou",
        "meld_items",
        "meld_runs",
        "meld_triplets",
        "no_melds",
        "round_wind",
        "ruleset",
        "seat_wind",
        "situational",
        "situational_yakuman",
        "tsumo",
        "win",
    )

    def __init__(
        self,
        hand: WinningHand,
        ruleset: Ruleset,
        all_counts: list[int],
        mask: int,
        closed: bool,
        reds: int,
    ) -> None:
        c = hand.conditions
        self.ruleset = ruleset
        self.all_counts = all_counts
        self.closed = closed
        self.win = hand.win_tile.kind
        self.tsumo = c.tsumo
        self.dealer = c.seat_wind == EAST
        self.seat_wind = c.seat_wind
        self.round_wind = c.round_wind
        self.no_melds = not hand.melds
        self.kiriage = ruleset.kiriage
        self.tsumo_payers = ruleset.players - 1
        self.split_tsumo = ruleset.players == 3 and ruleset.sanma_tsumo is SanmaTsumo.SPLIT

        # Called melds: run starts, triplet kinds, closed-kan count, and their fu items.
        meld_runs: list[int] = []
        meld_triplets: list[int] = []
        meld_items: list[tuple[str, int]] = []
        kans = 0
        meld_ankou = 0
        for meld in hand.melds:
            if meld.type is MeldType.CHI:
                meld_runs.append(min(tile.kind for tile in meld.tiles))
            else:
                kind = meld.tiles[0].kind
                meld_triplets.append(kind)
                is_kan = meld.type is not MeldType.PON
                concealed = meld.type is MeldType.ANKAN
                kans += is_kan
                meld_ankou += concealed
                meld_items.append(_TRIPLET_ITEMS[kind][concealed][is_kan])
        self.meld_runs = meld_runs
        self.meld_triplets = meld_triplets
        self.meld_items = tuple(meld_items)
        self.kans = kans
        self.meld_ankou = meld_ankou

        has_honor = bool(mask & _HONOR_MASK)
        all_yaochuu = not mask & _SIMPLE_MASK
        all_honors = not mask & _NUMBER_MASK
        self.has_honor = has_honor
        self.honroutou = all_yaochuu and has_honor and not all_honors
        suits = (
            bool(mask & _SUIT_MASKS[0]) + bool(mask & _SUIT_MASKS[1]) + bool(mask & _SUIT_MASKS[2])
        )

        situational: list[tuple[str, int]] = []
        if c.double_riichi:
            situational.append(("double_riichi", 2))
        elif c.riichi:
            situational.append(("riichi", 1))
        if c.ippatsu:
            situational.append(("ippatsu", 1))
        if closed and c.tsumo:
            situational.append(("menzen_tsumo", 1))
        if c.chankan:
            situational.append(("chankan", 1))
        if c.rinshan:
            situational.append(("rinshan", 1))
        if c.haitei:
            situational.append(("haitei", 1))
        if c.houtei:
            situational.append(("houtei", 1))
        if not mask & _YAOCHUU_MASK and (closed or ruleset.kuitan):
            situational.append(("tanyao", 1))
        if suits == 1:
            flush = "honitsu" if has_honor else "chinitsu"
            info = YAKU[flush]
            situational.append((flush, info.closed_han if closed else info.open_han))
        self.situational = tuple(situational)

        yakuman: list[tuple[str, int]] = []
        if c.tenhou:
            yakuman.append(("tenhou", 13))
        if c.chiihou:
            yakuman.append(("chiihou", 13))
        if c.renhou and ruleset.renhou is Renhou.YAKUMAN:
            yakuman.append(("renhou", 13))
        if all_honors:
            yakuman.append(("tsuuiisou", 13))
        elif all_yaochuu and not has_honor:
            yakuman.append(("chinroutou", 13))
        if not mask & _NOT_GREEN_MASK:
            yakuman.append(("ryuuiisou", 13))
        if self.no_melds and suits == 1 and not has_honor:
            # Nine gates: one suit 1112345678999 plus one tile, no calls at all.
            base = self.win - self.win % 9
            suit = all_counts[base : base + 9]
            if suit[0] >= 3 and suit[8] >= 3 and min(suit) >= 1:
                if all_counts[self.win] in (2, 4):
                    yakuman.append(("junsei_chuuren", self.double("junsei_chuuren")))
                else:
                    yakuman.append(("chuuren", 13))
        self.situational_yakuman = tuple(yakuman)
        self.dora = self._dora_entries(hand, reds)

    def double(self, name: str) -> int:
        """13 or 26 han for a yakuman that some rule sets count double."""
        return 26 if name in self.ruleset.double_yakuman else 13

    def _dora_entries(self, hand: WinningHand, reds: int) -> _Yaku:
        """Dora, red fives, ura dora and North extractions, as yaku entries."""
        counts = self.all_counts
        c = hand.conditions
        kita = c.kita
        dora_of = _DORA_OF[self.ruleset.players]
        entries: list[tuple[str, int]] = []
        dora = 0
        for indicator in hand.dora_indicators:
            kind = dora_of[indicator.kind]
            dora += counts[kind] + (kita if kind == NORTH else 0)
        if dora:
            entries.append(("dora", dora))
        if reds:
            entries.append(("aka_dora", reds))
        if (c.riichi or c.double_riichi) and self.ruleset.ura_dora:
            ura = 0
            for indicator in hand.ura_indicators:
                kind = dora_of[indicator.kind]
                ura += counts[kind] + (kita if kind == NORTH else 0)
            if ura:
                entries.append(("ura_dora", ura))
        if kita:
            entries.append(("kita", kita))
        return tuple(entries)

    # -- readings ------------------------------------------------------------------------------

    def value(
        self,
        yaku: _Yaku,
        yakuman: _Yaku,
        fu: int,
        fu_items: tuple[tuple[str, int], ...],
        wait: WaitShape,
        *,
        dora: bool = True,
    ) -> _Valued | None:
        """Han, base points, limit and rank key of a reading; None if it has no yaku."""
        ruleset = self.ruleset
        limit: str | None
        if yakuman:
            if ruleset.stacked_yakuman:
                multiplier = sum(han for _, han in yakuman) // 13
            else:
                multiplier = max(han for _, han in yakuman) // 13
            base, limit = yakuman_limit(multiplier)
            han = 13 * multiplier
            yaku = yakuman
        elif not yaku:
            return None
        else:
            multiplier = 0
            if dora:
                yaku = yaku + self.dora
            han = 0
            for _, value in yaku:
                han += value
            base = fu << (han + 2) if han < 5 else 2001
            if base > 2000 or self.kiriage:
                base, limit = base_points(han, fu, ruleset)
            else:
                limit = None
        if self.tsumo:
            if self.split_tsumo and self.dealer:
                total = 2 * (-(-base * 3 // 100) * 100)
            elif self.dealer:
                total = self.tsumo_payers * (-(-base // 50) * 100)
            elif self.split_tsumo:
                total = -(-base * 5 // 200) * 100 + -(-base * 3 // 200) * 100
            else:
                total = -(-base // 50) * 100 + (self.tsumo_payers - 1) * (-(-base // 100) * 100)
        else:
            total = -(-base * (6 if self.dealer else 4) // 100) * 100
        return ((total, multiplier > 0, han, fu), han, fu, base, limit, multiplier, yaku,
                fu_items, wait)  # fmt: skip

    def kokushi(self, thirteen_wait: bool) -> _Valued | None:
        name = "kokushi_13" if thirteen_wait else "kokushi"
        wait = WaitShape.KOKUSHI_13 if thirteen_wait else WaitShape.KOKUSHI
        yakuman = (*self.situational_yakuman, (name, self.double(name)))
        return self.value((), yakuman, 0, (), wait)

    def chiitoitsu(self) -> _Valued | None:
        yaku = (*self.situational, ("chiitoitsu", 2))
        if self.honroutou:
            yaku = (*yaku, ("honroutou", 2))
        return self.value(yaku, self.situational_yakuman, 25, _CHIITOITSU_FU, WaitShape.CHIITOITSU)

    def standard(self, pair: int, groups: tuple[int, ...]) -> list[_Valued | None]:
        """Every valued reading of one decomposition: one per group the winning tile may
        have completed."""
        win = self.win
        runs = self.meld_runs
        concealed_triplets: list[int] = []
        choices: list[WaitShape] = []
        if pair == win:
            choices.append(WaitShape.TANKI)
        last_run = -1
        for group in groups:
            if group >= TRIPLET:
                concealed_triplets.append(group - TRIPLET)
            else:
                runs = [*runs, group]
                if group <= win <= group + 2 and group != last_run:
                    last_run = group
                    position = win - group
                    if position == 1:
                        choices.append(WaitShape.KANCHAN)
                    elif (position == 2 and group % 9 == 0) or (position == 0 and group % 9 == 6):
                        choices.append(WaitShape.PENCHAN)
                    else:
                        choices.append(WaitShape.RYANMEN)
        if win in concealed_triplets:
            choices.append(WaitShape.SHANPON)
        yaku, yakuman = self._groups_yaku(pair, runs, concealed_triplets + self.meld_triplets)
        return [
            self._with_wait(pair, runs, concealed_triplets, yaku, yakuman, shape)
            for shape in dict.fromkeys(choices)
        ]

    def _groups_yaku(self, pair: int, runs: list[int], triplets: list[int]) -> tuple[_Yaku, _Yaku]:
        """Yaku that depend on the groups but not on the wait."""
        yaku = list(self.situational)
        yakuman = list(self.situational_yakuman)
        opened = not self.closed

        # Value triplets and the big hands of dragons and winds.
        dragons = 0
        winds = 0
        for kind in triplets:
            if kind >= HAKU:
                dragons += 1
                yaku.append((DRAGON_YAKU[kind - HAKU], 1))
            elif kind >= EAST:
                winds += 1
                if kind == self.seat_wind:
                    yaku.append((SEAT_WIND_YAKU[kind - EAST], 1))
                if kind == self.round_wind:
                    yaku.append((ROUND_WIND_YAKU[kind - EAST], 1))
        if dragons == 3:
            yakuman.append(("daisangen", 13))
        elif dragons == 2 and pair >= HAKU:
            yaku.append(("shousangen", 2))
        if winds == 4:
            yakuman.append(("daisuushii", self.double("daisuushii")))
        elif winds == 3 and EAST <= pair <= NORTH:
            yakuman.append(("shousuushii", 13))
        if len(triplets) == 4:
            yaku.append(("toitoi", 2))
        if self.kans == 4:
            yakuman.append(("suukantsu", 13))
        elif self.kans == 3:
            yaku.append(("sankantsu", 2))
        if len(triplets) >= 3:
            for kind in triplets:
                if kind < 9 and kind + 9 in triplets and kind + 18 in triplets:
                    yaku.append(("sanshoku_doukou", 2))
                    break

        if runs:
            if self.closed and len(runs) >= 2:
                repeats = len(runs) - len(set(runs))
                if repeats >= 2:
                    # Exact count only when needed: 1112 of a run is one repeat, not two.
                    repeats = sum(runs.count(start) // 2 for start in set(runs))
                if repeats >= 2:
                    yaku.append(("ryanpeikou", 3))
                elif repeats:
                    yaku.append(("iipeikou", 1))
            if len(runs) >= 3:
                for start in runs:
                    if start < 9 and start + 9 in runs and start + 18 in runs:
                        yaku.append(("sanshoku", 1 if opened else 2))
                        break
                for base in (0, 9, 18):
                    if base in runs and base + 3 in runs and base + 6 in runs:
                        yaku.append(("ittsu", 1 if opened else 2))
                        break
            # Outside hands: every group and the pair hold a terminal or honour.
            if (
                _IS_YAOCHUU[pair]
                and all(start % 9 in (0, 6) for start in runs)
                and all(_IS_YAOCHUU[kind] for kind in triplets)
            ):
                if self.has_honor:
                    yaku.append(("chanta", 1 if opened else 2))
                else:
                    yaku.append(("junchan", 2 if opened else 3))
        elif self.honroutou:
            yaku.append(("honroutou", 2))
        return tuple(yaku), tuple(yakuman)

    def _with_wait(
        self,
        pair: int,
        runs: list[int],
        concealed_triplets: list[int],
        yaku: _Yaku,
        yakuman: _Yaku,
        shape: WaitShape,
    ) -> _Valued | None:
        """Complete and value a reading once the group the winning tile completed is chosen."""
        tsumo = self.tsumo
        win = self.win

        # Concealed triplets: a triplet completed by a ron counts as open.
        ron_shanpon = shape is WaitShape.SHANPON and not tsumo
        ankou = len(concealed_triplets) - ron_shanpon + self.meld_ankou
        if ankou == 4:
            if shape is WaitShape.TANKI:
                yakuman = (*yakuman, ("suuankou_tanki", self.double("suuankou_tanki")))
            else:
                yakuman = (*yakuman, ("suuankou", 13))
        elif ankou == 3:
            yaku = (*yaku, ("sanankou", 2))

        pair_fu = 0
        if pair >= HAKU:
            pair_fu = 2
        elif pair >= EAST:
            if pair == self.seat_wind:
                pair_fu = self.ruleset.double_wind_fu if pair == self.round_wind else 2
            elif pair == self.round_wind:
                pair_fu = 2

        if self.no_melds and len(runs) == 4 and not pair_fu and shape is WaitShape.RYANMEN:
            yaku = (*yaku, ("pinfu", 1))
            if tsumo:
                return self.value(yaku, yakuman, 20, _PINFU_TSUMO_FU, shape)
            return self.value(yaku, yakuman, 30, _PINFU_RON_FU, shape)

        items = [("base", 20)]
        if self.closed and not tsumo:
            items.append(("menzen_ron", 10))
        for kind in concealed_triplets:
            items.append(_TRIPLET_ITEMS[kind][not (ron_shanpon and kind == win)][False])
        items.extend(self.meld_items)
        if pair_fu:
            items.append(("pair", pair_fu))
        if shape is not WaitShape.RYANMEN and shape is not WaitShape.SHANPON:
            items.append((shape.value, 2))
        if tsumo:
            items.append(("tsumo", 2))
        total = 0
        for _, fu in items:
            total += fu
        if total == 20:
            # An open hand without fu is still 30 fu.
            items.append(("open_pinfu", 10))
            total = 30
        return self.value(yaku, yakuman, -(-total // 10) * 10, tuple(items), shape)
