"""Scoring a winning hand: yaku, fu, han, limits and payments, for the best reading of the hand.

:func:`score_hand` reads the concealed tiles in every way they form a complete hand (each
standard decomposition with each group the winning tile may have completed, seven pairs,
thirteen orphans), values each reading (:mod:`engine.scoring.readings`), and keeps the most
valuable one, as every platform does: the highest payment, then a real yakuman over a counted
one, then more han, then more fu.
"""

from __future__ import annotations

from typing import Final

from engine.errors import (
    InvalidConditionsError,
    InvalidHandError,
    LazyMessage,
    NotAgariError,
    NoYakuError,
)
from engine.hand.melds import ANKAN, CHI
from engine.hand.win import WinConditions, WinningHand
from engine.rules.ruleset import Renhou, Ruleset, Scoring
from engine.scoring.payments import plain_payments, win_payments
from engine.scoring.readings import SIMPLES_MASK, Reader, Valued
from engine.scoring.rule_tables import RuleTables, rule_tables
from engine.scoring.small import score_small_hand
from engine.scoring.values import FuItem, HandScore, YakuHan
from engine.tiles import (
    EAST,
    FOREIGN_SHIFT,
    KINDS,
    NORTH,
    PACKED_BYTES,
    RED_BYTE,
    SANMA_MISSING,
    WINDS,
    format_counts,
    format_kind,
    kinds_mask,
)

# Masks and addends over packed counts (engine.tiles.PACKED_BYTES). Adding ``0x80 - n`` to a
# count byte sets its top bit exactly when the count is ``n`` or more (counts stay below 0x80).
_KINDS_MASK: Final = kinds_mask(range(KINDS))
_COUNT_TOPS: Final = sum(0x80 << 8 * kind for kind in range(KINDS))
_ONE_OR_MORE_ADD: Final = sum(0x7F << 8 * kind for kind in range(KINDS))
_FIVE_OR_MORE_ADD: Final = sum(0x7B << 8 * kind for kind in range(KINDS))
#: Top bits of the count bytes and of the red bytes (see RuleTables.count_check_add).
_COUNT_CHECK_TOPS: Final = sum(0x80 << 8 * byte for byte in range(PACKED_BYTES))
_SANMA_MISSING_MASK: Final = kinds_mask(SANMA_MISSING)
_WINDS: Final = frozenset(WINDS)
_new_tuple: Final = tuple.__new__  # HandScore without NamedTuple's Python-level __new__

__all__ = ["FuItem", "HandScore", "WinConditions", "WinningHand", "YakuHan", "score_hand"]


def score_hand(hand: WinningHand, ruleset: Ruleset) -> HandScore:
    """Score a winning hand under a rule set, choosing its most valuable reading.

    :raises InvalidHandError: impossible tiles (counts, red fives, tiles absent in 3-player).
    :raises InvalidConditionsError: contradictory win conditions.
    :raises NotAgariError: the tiles do not form a complete hand.
    :raises NoYakuError: the hand is complete but has no yaku.
    """
    if ruleset.scoring is Scoring.SMALL:
        # Small mahjong sums its conditions' points instead. The one place both the state
        # machine and the API score through.
        return score_small_hand(hand, ruleset)
    c = hand.conditions
    melds = hand.melds
    # Count the tiles as packed counts (engine.tiles.PACKED_BYTES): one addition per tile.
    concealed = 0
    for tile in hand.tiles:
        concealed += tile.packed
    held = concealed  # all the winner's tiles: concealed and called
    closed = True
    tables = rule_tables(ruleset)
    shapes = tables.shapes
    for meld in melds:
        held += meld.packed
        if meld.type is not ANKAN:
            closed = False
            if meld.type is CHI:
                if not ruleset.chi:
                    raise InvalidHandError(f"{meld}: rule set {ruleset.name} has no chi")
                if shapes.run_kinds[meld.kind] is None:
                    raise InvalidHandError(
                        f"{meld}: not a run with the {shapes.name} shapes of {ruleset.name}"
                    )
    _check_tiles(hand, tables, concealed, held)
    rare_flags = _check_conditions(hand, tables, closed)
    counts = held.to_bytes(PACKED_BYTES, "little")

    reader = Reader.of_hand(hand, tables, held, counts, closed, rare_flags)
    best: Valued | None = None
    found = False
    if not melds:
        present = (concealed + _ONE_OR_MORE_ADD) & _COUNT_TOPS  # a count's top bit: held
        kinds = present.bit_count()
        if kinds == 13 and not concealed & SIMPLES_MASK:
            found = True
            best = reader.kokushi(counts[hand.win_tile.kind] == 2)
        elif kinds == 7 and concealed & _KINDS_MASK == present >> 6:
            # Each of the seven kinds held exactly twice (top bit 0x80 shifted to 0x02).
            found = True
            best = reader.chiitoitsu()
    elif shapes.open_kokushi and all(meld.type is CHI and meld.kind >= EAST for meld in melds):
        # Space mahjong: thirteen orphans with honours called as honour runs (14 tiles in all,
        # no kan among the melds, so 13 kinds means one of them twice).
        present = (held + _ONE_OR_MORE_ADD) & _COUNT_TOPS
        if present.bit_count() == 13 and not held & SIMPLES_MASK:
            found = True
            best = reader.open_kokushi(held >> 8 * hand.win_tile.kind & 0xFF == 2)
    for pair, runs, triplets in shapes.packed_decompositions(concealed):
        found = True
        valued = reader.standard(pair, runs, triplets)
        if valued is not None and (best is None or valued[0] > best[0]):
            best = valued
    if not found:
        raise NotAgariError(LazyMessage(_not_agari_message, concealed, len(melds)))
    if c.renhou and ruleset.renhou is Renhou.MANGAN:
        # Renhou as a strict mangan: worth a mangan on its own, or the hand's own value.
        renhou = reader.renhou_mangan()
        if renhou is not None and (best is None or renhou[0] > best[0]):
            best = renhou
    if best is None:
        raise NoYakuError(LazyMessage(_no_yaku_message, concealed))
    return _finish(best, hand, ruleset)


def _format_packed(packed: int) -> str:
    return format_counts(packed.to_bytes(PACKED_BYTES, "little")[:KINDS])


def _not_agari_message(concealed: int, melds: int) -> str:
    return f"{_format_packed(concealed)} with {melds} called meld(s) is not a complete hand"


def _no_yaku_message(concealed: int) -> str:
    return f"{_format_packed(concealed)} has no yaku"


def _finish(best: Valued, hand: WinningHand, ruleset: Ruleset) -> HandScore:
    _, han, fu, base, limit, multiplier, yaku, fu_items, wait, first, rest = best
    c = hand.conditions
    if hand.liable is None:
        payments = plain_payments(
            first, rest, c.seat_wind, c.tsumo, c.honba, ruleset, hand.discarder
        )
    else:
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
    total = sticks
    for payment in payments:
        total += payment[1]
    # The field order is HandScore's.
    return _new_tuple(
        HandScore,
        (han, fu, fu_items, yaku, limit, multiplier, base, tuple(payments), sticks, total, wait),
    )


def _check_tiles(hand: WinningHand, tables: RuleTables, concealed: int, held: int) -> None:
    """The tiles can exist: count, winning tile, four of a kind, red fives, 3-player kinds.

    ``concealed`` and ``held`` are packed counts (:data:`engine.tiles.PACKED_BYTES`) of the
    concealed tiles and of all the winner's tiles.
    """
    if len(hand.tiles) != 14 - 3 * len(hand.melds):
        raise InvalidHandError(
            f"with {len(hand.melds)} called meld(s) the hand holds "
            f"{14 - 3 * len(hand.melds)} concealed tiles (winning tile included), "
            f"got {len(hand.tiles)}"
        )
    win = hand.win_tile
    dora, ura = hand.dora_indicators, hand.ura_indicators
    # Indicators are tiles too: with the hand they cannot exceed four of a kind, a red five per
    # suit, or the kinds of the rule set.
    tiles = held
    for indicator in dora:
        tiles += indicator.packed
    for indicator in ura:
        tiles += indicator.packed
    if (tiles | win.packed) >> FOREIGN_SHIFT:
        raise InvalidHandError("a tile is not of the standard 34-kind set")
    win_shift = 8 * win.kind
    if not concealed >> win_shift & 0xFF or (
        # A red winning tile needs a red five of its suit among the tiles.
        win.red and not concealed >> 8 * (RED_BYTE + win.kind // 9) & 0xFF
    ):
        raise InvalidHandError(f"the winning tile {win} is not among the hand's tiles")
    if hand.conditions.chankan and held >> win_shift & 0xFF != 1:
        raise InvalidConditionsError(
            f"chankan robs the fourth {win} of another player's kan, so the winner holds no "
            f"other copy; this hand holds {held >> win_shift & 0xFF}"
        )
    if len(dora) > 5 or len(ura) > 5:
        raise InvalidHandError(
            f"{len(dora)} dora and {len(ura)} ura indicators; there are at most 5 of each "
            "(one plus one per kan)"
        )
    # One addition flags the counts to look at closely: five or more of a kind, and fives near
    # the rule set's limits (RuleTables.count_check_add); extracted Norths are tiles too.
    kita = hand.conditions.kita
    flagged = (tiles + tables.count_check_add) & _COUNT_CHECK_TOPS or (
        kita > 0 and (tiles >> 8 * NORTH & 0xFF) + kita > 4
    )
    if flagged:
        _check_copies(tiles, kita)
    ruleset = tables.ruleset
    if tiles & _SANMA_MISSING_MASK and ruleset.players == 3:
        kind = ((tiles & _SANMA_MISSING_MASK).bit_length() - 1) // 8
        raise InvalidHandError(f"{format_kind(kind)} is not used in 3-player mahjong")
    if flagged:
        _check_fives(ruleset, tiles.to_bytes(PACKED_BYTES, "little"))


def _check_copies(tiles: int, kita: int) -> None:
    """At most four of a kind, counting extracted Norths (a negative kita is refused with the
    conditions)."""
    if (tiles + _FIVE_OR_MORE_ADD) & _COUNT_TOPS or (
        kita > 0 and (tiles >> 8 * NORTH & 0xFF) + kita > 4
    ):
        counts = list(tiles.to_bytes(PACKED_BYTES, "little")[:KINDS])
        counts[NORTH] += kita
        kind = max(range(KINDS), key=counts.__getitem__)
        raise InvalidHandError(
            f"{counts[kind]} copies of {format_kind(kind)} in the hand, its melds, North "
            "extractions and the dora indicators; there are only 4"
        )


def _check_fives(ruleset: Ruleset, counts: bytes) -> None:
    """At most the rule set's red fives per suit, and the plain fives that are left."""
    for suit_index, allowed in enumerate(ruleset.red_fives):
        reds = counts[RED_BYTE + suit_index]
        if reds > allowed:
            raise InvalidHandError(
                f"{reds} red five(s) of {'mps'[suit_index]}; rule set {ruleset.name} has {allowed}"
            )
        plain = counts[suit_index * 9 + 4] - reds
        if plain > 4 - allowed:
            raise InvalidHandError(
                f"{plain} plain 5{'mps'[suit_index]}; with {allowed} red five(s) "
                f"rule set {ruleset.name} has {4 - allowed}"
            )


def _check_conditions(hand: WinningHand, tables: RuleTables, closed: bool) -> bool:
    """Refuse contradictory win conditions (see :func:`_condition_problems`).

    Returns whether any of the rarer flags is set (ippatsu, rinshan, chankan, haitei, houtei,
    tenhou, chiihou, renhou, kita): they are tested once, here, and the reader looks at them
    only when one is.
    """
    c = hand.conditions
    ruleset = tables.ruleset
    riichi = c.riichi or c.double_riichi
    rare = (
        c.ippatsu
        or c.rinshan
        or c.chankan
        or c.haitei
        or c.houtei
        or c.tenhou
        or c.chiihou
        or c.renhou
        or c.kita != 0
    )
    # Fast path: the common, consistent case is decided by one expression.
    if not (
        (riichi and not closed)
        or (
            rare
            and (
                (c.ippatsu and not (riichi and ruleset.ippatsu))
                or (c.ippatsu and c.rinshan)
                or (c.tsumo and (c.chankan or c.houtei or c.renhou))
                or (not c.tsumo and (c.rinshan or c.haitei or c.tenhou or c.chiihou))
                or (c.rinshan and c.haitei)
                or (c.houtei and c.chankan)
                or ((c.tenhou or c.chiihou or c.renhou) and (bool(hand.melds) or riichi))
                or (c.tenhou and c.seat_wind != EAST)
                or ((c.chiihou or c.renhou) and c.seat_wind == EAST)
                or (c.renhou and ruleset.renhou is Renhou.NONE)
                # North extractions (and a negative count) are judged by the full list.
                or c.kita != 0
                or (c.rinshan and not any(meld.is_kan for meld in hand.melds))
            )
        )
        or c.seat_wind not in tables.seats
        or c.round_wind not in _WINDS
        or c.honba < 0
        or c.sticks < 0
        or (
            hand.discarder is not None
            and (c.tsumo or hand.discarder == c.seat_wind or hand.discarder not in tables.seats)
        )
        or hand.liable is not None
    ):
        return rare
    problems = _condition_problems(hand, ruleset, closed)
    if problems:
        raise InvalidConditionsError("; ".join(problems))
    return rare


def _condition_problems(hand: WinningHand, ruleset: Ruleset, closed: bool) -> list[str]:
    c = hand.conditions
    riichi = c.riichi or c.double_riichi
    has_kan = any(meld.is_kan for meld in hand.melds)
    seats = range(EAST, EAST + ruleset.players)
    first_turn = c.tenhou or c.chiihou or c.renhou
    checks = (
        (riichi and not closed, "riichi needs a closed hand"),
        (c.ippatsu and not riichi, "ippatsu needs riichi"),
        (c.ippatsu and not ruleset.ippatsu, f"rule set {ruleset.name} has no ippatsu"),
        (
            c.ippatsu and c.rinshan and not (c.kita and not ruleset.kita_breaks_first_turn),
            "a rinshan win follows the winner's own kan (or a North extraction that breaks "
            "ippatsu in this rule set), which broke ippatsu",
        ),
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
