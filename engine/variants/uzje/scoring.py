"""Ùzje fan, points and payments (seeds/002 "Scoring", lines 109-135, and the patterns of lines
173-298).

Fan are counted in **tenths** (integers): the document's values move in steps of 0.2 fan, and a
half-integer minimum (2.5 f) can then never be met exactly. A hand wins if it has a limit-hand
pattern or at least the minimum fan.

**Points.** The bare minimum is worth 2 points; each whole fan above the minimum moves one step up
the 1-2-5 sequence (2, 5, 10, 20, 50, ...). The step at ``limit_fan`` (13 f: step 10, 5,000
points) is one *limit*; every third step beyond it adds a limit, the rest are dropped. A hand with
a limit-hand pattern ignores fan altogether and is worth its patterns' limits, added up.

**Payments.** On a win from another player's tile, that player pays the amount (to each winner
separately if several win on it). On a self-draw, every other player pays half the amount:
exactly, or rounded to whole points, as :attr:`UzjeRules.self_draw_rounding` says.

**Amounts in halves.** Paid exactly, half of an odd amount is a half point (2.5 of a 5-point
hand), and so scores may be too. An amount of points (a payment, a score change, a score) is a
:data:`Points`: an ``int`` when whole and a ``float`` only when it is a half, which :func:`normal`
keeps so (``5``, never ``5.0``, as a record writes whole points). Floats hold every half of a
whole number exactly, and sums and differences of them too, far beyond any score a match can
reach, so nothing is ever rounded. A hand's value (:attr:`HandValue.points`) is always whole.
The shared record, report and frame types say ``int`` (every riichi figure is whole):
:func:`as_recorded` hands them an amount as a :data:`~engine.dialect.PointsOrHalf`, halves
included; ``engine.game_flow.whole_points`` rounds one for the statistics' rows, which count
whole points (docs/variants/uzje.md, "Payments").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, TypeAlias, cast

from engine.dialect import PointsOrHalf
from engine.variants.uzje.rules import Rounding, UzjeRules
from engine.variants.uzje.shapes import Decomposition, Form, Meld, Shape, decompositions
from engine.variants.uzje.tiles import (
    ARROWS,
    FIRST_FLOWER,
    FLOWER_SETS,
    FULL_WINDS,
    HORIZONTAL,
    VERTICAL,
    ZERO,
    number_kind,
    suit_of,
)

# Fixed values of the document, in tenths (the open ones are options of UzjeRules).
SELF_DRAW = 10  # line 181 (= 1 f)
CLOSED_HAND = 26  # line 186
SEA_SCOOP = 18  # line 194
POND_SCOOP = 12  # line 198
QUAD_DRAW = 16  # line 202
MULTI_QUAD_DRAW = 50  # line 207
QUAD_ROB = 20  # line 214
LUCKY_TILE_EXTRA = 30  # "+ 3 f if the tile is ..." (lines 195, 199, 203, 208-209, 215)
BONUS_TILE = 6  # line 224, each
ORCHARD = 30  # line 232
IVIES = 80  # line 243
HONOUR_TRIP = 10  # lines 253, 256: seat wind, round wind, each arrow
SINGLE_DIFFERENCES = 14  # line 274
CROSSING_THE_SEA_LIMITS = 1  # line 247

#: The tiles of the "+ 3 f" bonuses: sea-scoop on 1t, pond-scoop on 3m, quad draw on 5t,
#: quad rob on 2s.
ONE_TONG = number_kind(0, 1)
THREE_MAN = number_kind(2, 3)
FIVE_TONG = number_kind(0, 5)
TWO_SOCK = number_kind(1, 2)


class SpecialWin(StrEnum):
    """Flower wins, which do not need a winning hand (lines 234-248)."""

    SIX_FLOWERS = "six_flowers"
    CROSSING_THE_SEA = "crossing_the_sea"
    IVIES_ON_THE_WALL = "ivies_on_the_wall"


#: Every pattern name a hand's value may list (a win's ``recorded.yaku`` in the canonical
#: format): the score table's patterns in the order of the document, the limit patterns, and
#: the flower wins. The JSON Schema's Ùzje ``yaku_name`` is this list.
PATTERN_NAMES: Final = (
    # luck (lines 181-215)
    "self_draw", "closed_hand", "sea_scoop", "sea_scoop_1t", "pond_scoop", "pond_scoop_3m",
    "quad_draw", "quad_draw_5t", "multi_quad_draw", "multi_quad_draw_extra", "multi_quad_draw_5t",
    "quad_rob", "quad_rob_2s",
    # lucky tiles and flowers (lines 224-232)
    "bonus_tile", "orchard", "seat_flower",
    # suits, honours and melds (lines 249-286)
    "purity", "clean_tongs", "clean", "seat_wind", "round_wind", "arrow", "single_differences",
    "all_powers", "all_gems", "rock_field", "stutter", "archery_class", "seven_pairs",
    # limit patterns (lines 287-298)
    "thirteen_orphans", "fourteen_orphans", "ultra_long_straight", "globetrotter", "journeyman",
    "honourable",
    *(special.value for special in SpecialWin),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class WinConditions:
    """What, besides the tiles, a win's value depends on."""

    #: Seat wind 0-3 (E S W N); ``None`` for the fifth and sixth seats, which have none.
    seat_wind: int | None
    #: Round wind 0-3: the set orientation.
    round_wind: int
    self_draw: bool
    #: Won on the last tile of the wall (self-draw) / on the last discard.
    sea_scoop: bool = False
    pond_scoop: bool = False
    #: Quads declared one after another before winning on the replacement tile: 0 not a quad
    #: draw, 1 a quad draw, 2 or more a multi-quad draw.
    quad_chain: int = 0
    #: Won on a tile another player added to their trip (or, for orphans, any quad).
    quad_rob: bool = False
    #: Bonus tiles (kinds) in force, one entry per shown bonus tile.
    bonus: tuple[int, ...] = ()
    #: The winner's exposed flowers (kinds).
    flowers: tuple[int, ...] = ()
    special: SpecialWin | None = None


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a win: its patterns, fan, limits and points."""

    #: ``(pattern, tenths of fan)`` pairs, or ``(pattern, limits)`` for limit-hand patterns.
    patterns: tuple[tuple[str, int], ...]
    #: Total fan in tenths (0 when limit-hand patterns decide).
    fan: int
    #: Limits the hand is worth (by patterns, or reached by fan); 0 below the limit.
    limits: int
    points: int
    #: The reading that gives this value (``None`` for flower wins).
    decomposition: Decomposition | None = None
    limit_patterns: bool = False

    @property
    def wins(self) -> bool:
        return self.points > 0


@dataclass(slots=True)
class _Tally:
    patterns: list[tuple[str, int]] = field(default_factory=list)

    def add(self, name: str, value: int) -> None:
        if value:
            self.patterns.append((name, value))

    @property
    def total(self) -> int:
        return sum(value for _, value in self.patterns)


# -- points -------------------------------------------------------------------------------------


def sequence_value(step: int) -> int:
    """The 1-2-5 sequence from 2: step 0 is 2, then 5, 10, 20, 50, 100, ..."""
    value = (2, 5, 10)[step % 3]
    for _ in range(step // 3):
        value *= 10
    return value


def limit_step(rules: UzjeRules) -> int:
    """The step that is one limit (13 f above 2.5 f: step 10)."""
    return (10 * rules.limit_fan - rules.min_tenths) // 10


def limit_value(rules: UzjeRules) -> int:
    """Points of one limit hand (5,000 by default)."""
    return sequence_value(limit_step(rules))


def limits_for_fan(fan: int, rules: UzjeRules) -> int:
    """Limits reached by ``fan`` tenths: 0 below the limit, then one more every third step."""
    step = (fan - rules.min_tenths) // 10
    if step < limit_step(rules):
        return 0
    return 1 + (step - limit_step(rules)) // 3


def points_for(fan: int, limits: int, rules: UzjeRules) -> int:
    """Points of a hand: ``limits`` limit hands if a limit pattern decides, else by its fan (0
    when below the minimum)."""
    if limits:
        return limits * limit_value(rules)
    if fan < rules.min_tenths:
        return 0
    reached = limits_for_fan(fan, rules)
    if reached:
        return reached * limit_value(rules)
    return sequence_value((fan - rules.min_tenths) // 10)


# -- amounts of points (see "Amounts in halves" above) ------------------------------------------


#: An amount of points: a payment, a score change, a score. Whole points are an ``int``; a half
#: (only under :attr:`~engine.variants.uzje.rules.Rounding.EXACT`) is a ``float`` (``2.5``), in
#: the form :func:`normal` gives. (The rules' fan are floats too; amounts of points are these.)
Points: TypeAlias = float


def normal(amount: Points) -> Points:
    """An amount of points in its normal form: an ``int`` when whole (``5.0`` is ``5``), else the
    half as it is (``2.5``)."""
    whole = int(amount)
    return whole if whole == amount else amount


def as_recorded(amount: Points) -> PointsOrHalf:
    """An amount as the shared record, report and frame types hold it (``Round.scores``,
    ``RecordedWin.deltas``, ``RoundSummary.deltas``, ``SeatFrame.score``, ...): they say ``int``,
    as every riichi figure is, and an Ùzje half is the one value that is not: it stays ``2.5``
    (a float; JSON writes it so), a :data:`~engine.dialect.PointsOrHalf`. Whole amounts are
    ints."""
    return cast(PointsOrHalf, normal(amount))


def as_recorded_all(amounts: Iterable[Points]) -> tuple[PointsOrHalf, ...]:
    """:func:`as_recorded` of every amount."""
    return tuple(as_recorded(amount) for amount in amounts)


def half(amount: int, rounding: Rounding) -> Points:
    """Half of an amount: exactly (``2.5`` of 5), or rounded up or down to whole points."""
    if rounding is Rounding.EXACT:
        return normal(amount / 2)
    return (amount + 1) // 2 if rounding is Rounding.UP else amount // 2


def payments(
    points: int, winner: int, payer: int | None, players: int, rules: UzjeRules
) -> list[Points]:
    """Score changes of one win: ``payer`` pays ``points``, or on a self-draw (``payer`` is
    ``None``) everyone else pays half (a half point only under ``exact``)."""
    deltas: list[Points] = [0] * players
    if payer is None:
        share = half(points, rules.self_draw_rounding)
        for seat in range(players):
            if seat != winner:
                deltas[seat] = -share
        deltas[winner] = normal(share * (players - 1))
    else:
        deltas[payer] = -points
        deltas[winner] = points
    return deltas


# -- patterns -------------------------------------------------------------------------------------


#: The winds a compressed wind tile stands for (line 16): H East and West, V South and North.
COMPRESSED_STANDS_FOR: Final = {HORIZONTAL: (0, 2), VERTICAL: (1, 3)}


def _wind_trips(
    trips: Sequence[int], seat: int | None, round_: int, full_winds: bool
) -> tuple[int, int]:
    """How many of the trips are the seat wind and how many the round wind.

    A compressed trip "will become the most useful one of the two" winds it stands for (line 16):
    it is one wind, so it counts for both the seat and the round wind only when they are the
    same wind (H in the East seat of the East set), and for one of them when they differ (H in
    the East seat of the West set: 1 f, not 2)."""
    seat_count = round_count = 0
    for kind in trips:
        if full_winds:
            if kind in FULL_WINDS:
                wind = FULL_WINDS.index(kind)
                seat_count += wind == seat
                round_count += wind == round_
            continue
        stands_for = COMPRESSED_STANDS_FOR.get(kind)
        if stands_for is None:
            continue
        # The most useful wind: the one worth most, the seat wind on a tie.
        wind = max(stands_for, key=lambda w: ((w == seat) + (w == round_), w == seat))
        seat_count += wind == seat
        round_count += wind == round_
    return seat_count, round_count


def _luck(
    tally: _Tally, win_kind: int, closed: bool, conditions: WinConditions, rules: UzjeRules
) -> None:
    """Luck-based wins (lines 177-219)."""
    if conditions.self_draw:
        tally.add("self_draw", SELF_DRAW)
    if closed:
        tally.add("closed_hand", CLOSED_HAND)
    if conditions.sea_scoop:
        tally.add("sea_scoop", SEA_SCOOP)
        tally.add("sea_scoop_1t", LUCKY_TILE_EXTRA * (win_kind == ONE_TONG))
    if conditions.pond_scoop:
        tally.add("pond_scoop", POND_SCOOP)
        tally.add("pond_scoop_3m", LUCKY_TILE_EXTRA * (win_kind == THREE_MAN))
    five_tong = win_kind == FIVE_TONG and rules.all_tongs  # "and the 5t is in play"
    if conditions.quad_chain == 1:
        tally.add("quad_draw", QUAD_DRAW)
        tally.add("quad_draw_5t", LUCKY_TILE_EXTRA * five_tong)
    elif conditions.quad_chain >= 2:
        tally.add("multi_quad_draw", MULTI_QUAD_DRAW)
        tally.add("multi_quad_draw_extra", LUCKY_TILE_EXTRA * (conditions.quad_chain - 2))
        tally.add("multi_quad_draw_5t", LUCKY_TILE_EXTRA * five_tong)
    if conditions.quad_rob:
        tally.add("quad_rob", QUAD_ROB)
        tally.add("quad_rob_2s", LUCKY_TILE_EXTRA * (win_kind == TWO_SOCK))


def _lucky_tiles(
    tally: _Tally, tiles: Sequence[int], conditions: WinConditions, rules: UzjeRules
) -> None:
    """Bonus tiles and flowers (lines 220-233)."""
    own = [*tiles, *conditions.flowers]
    tally.add("bonus_tile", BONUS_TILE * sum(own.count(kind) for kind in conditions.bonus))
    seat = conditions.seat_wind
    flowers = set(conditions.flowers)
    orchards = [flowers.issuperset(flower_set) for flower_set in FLOWER_SETS]
    tally.add("orchard", ORCHARD * sum(orchards))
    # An orchard supersedes the seat flower of its own set only.
    seat_flowers = sum(
        1
        for flower_set, orchard in zip(FLOWER_SETS, orchards, strict=True)
        if not orchard and seat is not None and seat < 4 and flower_set[seat] in flowers
    )
    tally.add("seat_flower", rules.tenths(rules.seat_flower_fan) * seat_flowers)


def _suit_patterns(tally: _Tally, tiles: Sequence[int], rules: UzjeRules) -> None:
    """Clean, clean tongs and purity (lines 258-271). The zero counts for whichever reading
    helps: a number of the hand's suit or an honour."""
    suits = {suit_of(kind) for kind in tiles if kind < ZERO}
    if len(suits) != 1:
        return
    (suit,) = suits
    honours = any(ZERO < kind < FIRST_FLOWER for kind in tiles)
    if not honours:
        tally.add("purity", rules.tenths(rules.purity_fan))
    elif suit == 0 and not rules.all_tongs:
        tally.add("clean_tongs", rules.tenths(rules.clean_tongs_fan))
    else:
        tally.add("clean", rules.tenths(rules.clean_fan))


def _meld_patterns(
    tally: _Tally, melds: Sequence[Meld], pair: int, conditions: WinConditions, rules: UzjeRules
) -> None:
    """Patterns of the four melds (lines 249-257, 272-286)."""
    trips = [meld.kinds[0] for meld in melds if meld.shape in (Shape.TRIP, Shape.QUAD)]
    seat_trips, round_trips = _wind_trips(
        trips, conditions.seat_wind, conditions.round_wind, rules.full_winds
    )
    tally.add("seat_wind", HONOUR_TRIP * seat_trips)
    tally.add("round_wind", HONOUR_TRIP * round_trips)
    arrow_trips = [kind for kind in trips if kind in ARROWS]
    tally.add("arrow", HONOUR_TRIP * len(arrow_trips))
    shapes = {meld.shape for meld in melds}
    if shapes == {Shape.ARITH} and len({meld.difference for meld in melds}) == 1:
        tally.add("single_differences", SINGLE_DIFFERENCES)
    if shapes == {Shape.POWER}:
        tally.add("all_powers", rules.tenths(rules.all_powers_fan))
    if shapes == {Shape.GEM}:
        tally.add("all_gems", rules.tenths(rules.all_gems_fan))
    if shapes <= {Shape.TRIP, Shape.QUAD}:
        tally.add("rock_field", rules.tenths(rules.rock_field_fan))
    keys = [meld.key for meld in melds]
    if len(set(keys)) < len(keys):
        tally.add("stutter", rules.tenths(rules.stutter_fan))
    if len(arrow_trips) == 2 and pair in ARROWS:
        tally.add("archery_class", rules.tenths(rules.archery_fan))


def _limit_patterns(
    decomposition: Decomposition, tiles: Sequence[int], rules: UzjeRules
) -> list[tuple[str, int]]:
    """Limit-hand patterns (lines 287-298), with the special forms valued as limits."""
    found: list[tuple[str, int]] = []
    form = decomposition.form
    if form is Form.THIRTEEN_ORPHANS:
        found.append(("thirteen_orphans", rules.thirteen_orphans_limits))
    elif form is Form.FOURTEEN_ORPHANS:
        found.append(("fourteen_orphans", rules.fourteen_orphans_limits))
    elif form is Form.ULTRA_LONG:
        found.append(("ultra_long_straight", rules.ultra_long_limits))
    if form is Form.STANDARD:
        wind_trips = {
            meld.kinds[0]
            for meld in decomposition.melds
            if meld.shape in (Shape.TRIP, Shape.QUAD) and meld.kinds[0] in FULL_WINDS
        }
        if len(wind_trips) == 4:
            found.append(("globetrotter", rules.globetrotter_limits))  # supersedes journeyman
        elif len(wind_trips) == 3:
            found.append(("journeyman", rules.journeyman_limits))
    if all(ZERO <= kind < FIRST_FLOWER for kind in tiles):
        found.append(("honourable", rules.honourable_limits))
    return [(name, limits) for name, limits in found if limits]


def value_of(
    decomposition: Decomposition,
    tiles: Sequence[int],
    win_kind: int,
    conditions: WinConditions,
    rules: UzjeRules,
) -> HandValue:
    """The value of one reading of a complete hand (``tiles``: all 14 of it as kinds, a quad's
    fourth tile included; flowers are in ``conditions``)."""
    limit_patterns = _limit_patterns(decomposition, tiles, rules)
    if limit_patterns:
        limits = sum(limits for _, limits in limit_patterns)
        return HandValue(
            tuple(limit_patterns),
            0,
            limits,
            points_for(0, limits, rules),
            decomposition,
            limit_patterns=True,
        )
    tally = _Tally()
    closed = not any(meld.open for meld in decomposition.melds)
    _luck(tally, win_kind, closed, conditions, rules)
    _lucky_tiles(tally, tiles, conditions, rules)
    if decomposition.form is Form.SEVEN_PAIRS:
        tally.add("seven_pairs", rules.tenths(rules.seven_pairs_fan))
    _suit_patterns(tally, tiles, rules)
    if decomposition.form is Form.STANDARD:
        assert decomposition.pair is not None
        _meld_patterns(tally, decomposition.melds, decomposition.pair, conditions, rules)
    fan = tally.total
    return HandValue(
        tuple(tally.patterns),
        fan,
        limits_for_fan(fan, rules) if fan >= rules.min_tenths else 0,
        points_for(fan, 0, rules),
        decomposition,
    )


def special_value(special: SpecialWin, rules: UzjeRules) -> HandValue:
    """The value of a flower win: six flowers is worth the minimum (line 239), ivies on the
    wall 8 f (line 243), crossing the sea one limit (line 247)."""
    if special is SpecialWin.SIX_FLOWERS:
        fan = rules.min_tenths
        return HandValue(((special.value, fan),), fan, 0, points_for(fan, 0, rules))
    if special is SpecialWin.IVIES_ON_THE_WALL:
        return HandValue(
            ((special.value, IVIES),),
            IVIES,
            limits_for_fan(IVIES, rules),
            points_for(IVIES, 0, rules),
        )
    limits = CROSSING_THE_SEA_LIMITS
    return HandValue(
        ((special.value, limits),), 0, limits, points_for(0, limits, rules), limit_patterns=True
    )


def hand_tiles(counts: Sequence[int], declared: Sequence[Meld]) -> list[int]:
    """Every tile of a hand as kinds: the concealed ones and all of each declared meld's."""
    tiles = [kind for kind, count in enumerate(counts) for _ in range(count)]
    for meld in declared:
        tiles.extend(meld.kinds)
    return tiles


def best_value(
    counts: Sequence[int],
    declared: Sequence[Meld],
    win_kind: int,
    conditions: WinConditions,
    rules: UzjeRules,
) -> HandValue | None:
    """The best value over every reading of a complete hand (``counts``: the concealed tiles
    with the winning tile), or ``None`` if the tiles are no winning hand. A flower win
    (``conditions.special``) needs no hand."""
    if conditions.special is not None:
        return special_value(conditions.special, rules)
    readings = decompositions(counts, declared, full_winds=rules.full_winds)
    if not readings:
        return None
    tiles = hand_tiles(counts, declared)
    values = [value_of(reading, tiles, win_kind, conditions, rules) for reading in readings]
    return max(values, key=lambda value: (value.points, value.fan, value.limits))


def bonus_kind(shown: int, rules: UzjeRules) -> int:
    """The bonus tile a shown dead-wall tile makes: itself, or with ``bonus_is_next`` the next
    tile of its group as riichi dora indicators (ranks in play wrap 16 -> 1, the zero is its
    own successor, winds and arrows cycle, flowers cycle within their set)."""
    if not rules.bonus_is_next or shown == ZERO:
        return shown
    in_play = rules.kinds
    if shown < ZERO:
        suit = suit_of(shown)
        ranks = [kind for kind in in_play if kind < ZERO and suit_of(kind) == suit]
        return ranks[(ranks.index(shown) + 1) % len(ranks)]
    for group in (
        tuple(kind for kind in in_play if ZERO < kind < ARROWS[0]),
        ARROWS,
        *FLOWER_SETS,
    ):
        if shown in group:
            return group[(group.index(shown) + 1) % len(group)]
    raise ValueError(f"no bonus successor for kind {shown}")
