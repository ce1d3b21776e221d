"""The :class:`Ruleset`: every option that changes play or scoring, as one frozen value.

Each field is documented in ``docs/rules.md`` with the presets' values and the source of each
difference. Space and small mahjong are options here too (``shapes`` selects the hand shapes of
``engine/hand/shapes.py``; ``scoring``, ``dealt_tiles`` ... small mahjong's table); Ùzje mahjong
has its own options value in ``engine/variants/uzje/rules.py``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

from engine.rules.options import read_options


class KanDoraTiming(StrEnum):
    """When the indicator of a new kan dora is turned over."""

    #: At once, before the replacement draw: the new dora counts for a rinshan win.
    IMMEDIATE = "immediate"
    #: After the replacement draw, before the discard (Tenhou, open kans).
    AFTER_REPLACEMENT = "after_replacement"
    #: After the kan player's discard (Mahjong Soul, open kans).
    AFTER_DISCARD = "after_discard"


class SanmaTsumo(StrEnum):
    """How a tsumo win is paid in 3-player mahjong, where the North seat is empty."""

    #: Tsumo loss: the payers pay as in 4-player and the absent North's share is lost.
    LOSS = "loss"
    #: The absent North's share is split between the two payers (no tsumo loss).
    SPLIT = "split"


class StickWinner(StrEnum):
    """Who collects the riichi sticks (and honba) when several players ron the same discard."""

    #: The first winner in turn order after the discarder (Tenhou, Mahjong Soul, EMA, WRC).
    FIRST_FROM_DISCARDER = "first_from_discarder"
    #: The winner nearest the dealer counting in turn order (the dealer, then the dealer's
    #: right-hand neighbour, ...).
    NEAREST_DEALER = "nearest_dealer"
    #: The winner nearest the dealer counting clockwise, against the turn order of a game dealt
    #: counterclockwise (the dealer, then the dealer's left-hand neighbour, ...): the mini-game
    #: of ``seeds/001``, "the player closest to the dealer (clockwise)".
    NEAREST_DEALER_CLOCKWISE = "nearest_dealer_clockwise"


class Renhou(StrEnum):
    """How a non-dealer's ron before their first draw (renhou) is valued."""

    NONE = "none"
    MANGAN = "mangan"
    YAKUMAN = "yakuman"


class KazoeLimit(StrEnum):
    """What 13 or more han from ordinary yaku and dora are worth."""

    #: Counted yakuman.
    YAKUMAN = "yakuman"
    #: Capped at sanbaiman (no counted yakuman).
    SANBAIMAN = "sanbaiman"


class PointsRounding(StrEnum):
    """How a game's final points (score less the return, in thousands, plus uma and oka) are
    rounded."""

    #: To the hundred points the scores are counted in (one decimal: ``+23.8``).
    EXACT = "exact"
    #: Every seat but the first: its final score rounded to whole thousands, 500 away from
    #: zero (四捨五入: 5,500 is 6, -500 is -1), less the return; first place gets what makes the
    #: points add up to zero (Tenhou until 2021-2022).
    THOUSANDS = "thousands"
    #: Either of the two: the record is from the months in which a platform changed from one to
    #: the other, on a day not known.
    EITHER = "either"
    #: Not known: the game's points count by rules of their own that the record does not state
    #: (a Tenhou custom lobby's floating uma, a room with other starting points). The final
    #: points are neither compared nor reported.
    UNCHECKED = "unchecked"


class Scoring(StrEnum):
    """How a win is valued."""

    #: Yaku, fu, han and limits.
    RIICHI = "riichi"
    #: The points of small mahjong's conditions (``engine/scoring/small.py``).
    SMALL = "small"


class Shapes(StrEnum):
    """Which tiles form runs (``engine/hand/shapes.py``)."""

    #: Three consecutive ranks of one number suit.
    STANDARD = "standard"
    #: Space mahjong (``seeds/000``): ranks wrap around (8-9-1, 9-1-2), and any three different
    #: winds or the three dragons are runs too.
    SPACE = "space"


#: Yakuman that some rule sets count double when the option lists them.
DOUBLE_YAKUMAN_FORMS = frozenset({"suuankou_tanki", "kokushi_13", "junsei_chuuren", "daisuushii"})
#: The yakuman a rule set may make liable (pao): the feeder of the last meld pays.
PAO_YAKUMAN = ("daisangen", "daisuushii", "suukantsu")


@dataclass(frozen=True)
class Ruleset:
    """All options of one rule set. Build variants with :meth:`replace`."""

    name: str

    # -- table --------------------------------------------------------------------------------
    #: Number of players: 4, or 3 (sanma: 2m-8m removed, north extraction).
    players: int = 4
    #: Red fives per suit (characters, circles, bamboo).
    red_fives: tuple[int, int, int] = (1, 1, 1)
    #: Tiles in the dead wall; replacement draws it can give.
    dead_wall: int = 14
    rinshan_tiles: int = 4
    #: 3-player: North is extracted (kita) as a bonus dora with a replacement draw.
    kita: bool = False
    #: 3-player: an extracted North breaks ippatsu, double riichi and the first go-around.
    kita_breaks_first_turn: bool = False
    #: 3-player: a player waiting on North may ron an extracted North (no chankan yaku).
    ron_on_kita: bool = True
    #: 3-player: letting an extracted North pass makes a player waiting on it furiten, as a
    #: passed discard does (temporary, or for the rest of the hand in riichi). The mini-game:
    #: "Extracted North tiles are not considered discards and do not result in Furiten".
    kita_pass_furiten: bool = True

    # -- game length and points ---------------------------------------------------------------
    #: "east" (tonpuusen) or "east_south" (hanchan).
    length: str = field(default="east_south", metadata={"choices": ("east", "east_south")})
    starting_points: int = 25000
    #: Points returned at the end (the difference to the start is the oka for first place).
    target_points: int = 30000
    #: Placement bonus in thousands of points, first to last.
    uma: tuple[int, ...] = (20, 10, -10, -20)
    #: The score that counts as zero in the final points (the return, 返し). What the players
    #: started with below it goes to first place (the oka): 4 x 5,000 on Tenhou; none on Mahjong
    #: Soul, whose points count from the starting 25,000 although its games need 30,000 to end.
    points_base: int = 30000
    #: How the final points are rounded.
    points_rounding: PointsRounding = PointsRounding.EXACT
    #: The game ends when a score goes below zero.
    tobi: bool = True
    #: Extra rounds (West, or South after East-only) until someone reaches the target score.
    sudden_death: bool = True
    #: In the extra rounds, the game ends when first place has the target after a dealer's
    #: repeat too (the mini-game: "The game ends once the player in first place reaches or
    #: exceeds the required points"); without it a repeat plays on unless ``agari_yame`` or
    #: ``tenpai_yame`` stops it.
    sudden_death_on_repeat: bool = False
    #: All-last: a dealer who wins in first place with the target ends the game.
    agari_yame: bool = True
    #: All-last: a dealer who is tenpai at an exhaustive draw in first place with the target
    #: ends the game (Tenhou from June 2010; before, the dealer played on).
    tenpai_yame: bool = True
    #: Riichi sticks still on the table at game end go to first place.
    leftover_sticks_to_first: bool = True

    # -- calls and riichi ---------------------------------------------------------------------
    #: Chi is allowed (3-player rule sets forbid it).
    chi: bool = True
    #: Swap calls (discarding the called tile or its suji after chi/pon) are allowed.
    kuikae: bool = False
    #: Without ``kuikae``: after a chi the tile beyond the run's other end (the suji) may be
    #: discarded; only the called kind itself is a swap call (JPML: 現物以外の喰い替えを認める).
    kuikae_suji: bool = False
    #: Riichi needs at least this many points (the stick itself); ``None``: no minimum (a
    #: game without bust lets a player at or below zero declare).
    riichi_min_points: int | None = 1000
    #: Riichi needs at least one more draw for the player (4 tiles left in the live wall).
    riichi_needs_draw: bool = True
    #: Maximum winners on one discard: 1 = head bump, 2 = double ron, 3 = triple ron.
    max_ron_winners: int = 2
    #: Kokushi may rob a closed kan.
    kokushi_robs_ankan: bool = True
    kan_dora: bool = True
    kan_ura: bool = True
    ura_dora: bool = True
    ippatsu: bool = True
    open_kan_dora_timing: KanDoraTiming = KanDoraTiming.AFTER_REPLACEMENT
    closed_kan_dora_timing: KanDoraTiming = KanDoraTiming.IMMEDIATE

    # -- yaku and scoring ---------------------------------------------------------------------
    #: Tanyao counts on an open hand.
    kuitan: bool = True
    #: A pair of a wind that is both seat and round wind gives 4 fu (else 2).
    double_wind_fu: int = 4
    #: 4 han 30 fu and 3 han 60 fu are rounded up to mangan.
    kiriage: bool = False
    kazoe: KazoeLimit = KazoeLimit.YAKUMAN
    #: Yakuman forms that count double (see :data:`DOUBLE_YAKUMAN_FORMS`).
    double_yakuman: frozenset[str] = field(
        default_factory=frozenset, metadata={"choices": tuple(sorted(DOUBLE_YAKUMAN_FORMS))}
    )
    #: Several yakuman in one hand add up; otherwise a hand is worth one yakuman at most.
    stacked_yakuman: bool = True
    renhou: Renhou = Renhou.NONE
    nagashi_mangan: bool = True
    #: Yakuman with liability payment (pao): any of daisangen, daisuushii, suukantsu.
    pao: frozenset[str] = field(
        default_factory=lambda: frozenset({"daisangen", "daisuushii"}),
        metadata={"choices": PAO_YAKUMAN},
    )
    #: Pao covers only the liable yakuman's value (Mahjong Soul), not the whole hand (Tenhou).
    pao_only_liable_yakuman: bool = False
    #: On a ron with pao, the liable player pays the honba (Tenhou); else the discarder (EMA).
    pao_honba_by_liable: bool = True
    #: Honba value per counter on a ron (tsumo: a third of it from each payer in 4-player).
    honba_ron: int = 300
    honba_tsumo_each: int = 100
    sanma_tsumo: SanmaTsumo = SanmaTsumo.LOSS
    #: On a multiple ron, who collects the riichi sticks and the honba.
    multi_ron_sticks: StickWinner = StickWinner.FIRST_FROM_DISCARDER
    #: On a multiple ron, every winner is paid the honba (EMA; seeds/003: "honba applies for
    #: both of them as well"); otherwise only the winner who takes the sticks is (Tenhou,
    #: Mahjong Soul).
    honba_to_each_winner: bool = False

    # -- rules the engine does not model -----------------------------------------------------
    #: Rules a record says its game was played under that the engine cannot play or score, in
    #: words (a Tenhou one-hand lobby, a custom rule): a replay refuses such a game as
    #: ``unsupported``, naming them, instead of judging it by the wrong rules.
    unmodelled: tuple[str, ...] = ()

    # -- modifiers ----------------------------------------------------------------------------
    #: Names of registered rule modifiers (``engine/rules/modifiers.py``) in force, in order,
    #: for every seat.
    modifiers: tuple[str, ...] = ()
    #: The power each player chose (the mini-game: "Set the superpower to use", seeds/001 line
    #: 59): a registered modifier's name per seat, in seat order, or ``None`` for a seat that
    #: chose none; empty when nobody chose one. A seat's power applies to that seat alone (its
    #: draws, calls, sight, swaps and wins), beside ``modifiers``.
    seat_powers: tuple[str | None, ...] = ()

    # -- draws --------------------------------------------------------------------------------
    noten_payment_total: int = 3000
    kyuushu_kyuuhai: bool = True
    suufon_renda: bool = True
    suucha_riichi: bool = True
    suukaikan: bool = True
    #: Three players ron the same discard: abortive draw (Tenhou) instead of paying all three.
    sanchahou: bool = True

    # -- hand shapes (space mahjong) ----------------------------------------------------------
    # (seeds/000; the rules as implemented and each choice: docs/variants/space.md)
    #: Which tiles form runs: ``standard``, or ``space`` (wrap-around and honour runs).
    shapes: Shapes = Shapes.STANDARD
    #: Space mahjong: han of a thirteen orphans with honours called as honour runs (a fixed
    #: 30 fu); 0 = no such win. Standard shapes cannot call honour runs, so it never applies.
    open_kokushi_han: int = 3
    #: Space mahjong: nine gates may wrap around (4445678912333p and one more tile); read only
    #: with ``shapes`` space.
    space_wrap_chuuren: bool = False

    # -- small mahjong (seeds/004, docs/variants/small.md) ------------------------------------
    #: Honour tiles are in play. Without them the set is the 108 number tiles (four of each of
    #: 1-9 in three suits) for any number of players: sanma's removal of 2m-8m needs honours.
    honors: bool = True
    #: Tiles dealt to each player: 13, or 4, 7 or 10 in small mahjong. A complete hand holds one
    #: more: a pair and ``dealt_tiles // 3`` melds (or seven pairs, with 13).
    dealt_tiles: int = 13
    #: Live-wall draws per player (small mahjong's "stock": 14); 0 = every tile that is neither
    #: dealt nor in the dead wall. Tiles beyond the hands and the stock are not used.
    stock_per_player: int = 0
    #: Calls on a discard (chi, pon, open kan) exist at all (chi also needs ``chi``).
    calls: bool = True
    #: Kans exist at all (closed, added and open).
    kans: bool = True
    #: A ron needs the winner's riichi (a tsumo never does).
    ron_needs_riichi: bool = False
    #: Dora indicators are used at all: without them a hand starts with none (no kan or ura
    #: dora either).
    dora: bool = True
    #: A riichi puts a 1000-point stick on the table. Without it riichi costs nothing, so
    #: ``riichi_min_points`` does not apply either.
    riichi_deposit: bool = True
    #: The dealer keeps the deal after a win or tenpai, and counters (honba) are kept. Without
    #: it the deal passes after every hand and honba stays 0.
    renchan: bool = True
    #: How a win is valued: ``riichi`` (yaku, fu, han, limits) or ``small`` (the points of the
    #: small mahjong conditions, ``engine/scoring/small.py``).
    scoring: Scoring = Scoring.RIICHI

    @property
    def sanma(self) -> bool:
        """Whether 2m-8m are out of the set (3 players with honours: sanma)."""
        return self.players == 3 and self.honors

    @property
    def tile_count(self) -> int:
        """Tiles in the set: 136; 108 in sanma, or without honours."""
        return 108 if self.sanma or not self.honors else 136

    @property
    def live_wall(self) -> int:
        """Live-wall tiles at the start of a hand: what the state machine can draw."""
        if self.stock_per_player:
            return self.stock_per_player * self.players
        return self.tile_count - self.dealt_tiles * self.players - self.dead_wall

    @property
    def variant(self) -> str | None:
        """What makes this rule set more than an option change of riichi, in words, or None.

        Formats built for riichi (tenhou.net/6, mjai) cannot hold such games; their writers
        refuse them with this text.
        """
        if self.shapes != Shapes.STANDARD:
            return f"{self.shapes.value} mahjong (hand shapes)"
        if self.scoring != Scoring.RIICHI or not self.honors or self.dealt_tiles != 13:
            return "small mahjong"
        powers = [f"seat {seat} {power}" for seat, power in enumerate(self.seat_powers) if power]
        if self.modifiers or powers:
            return "rule modifiers " + "; ".join(
                filter(None, (", ".join(self.modifiers), ", ".join(powers)))
            )
        return None

    def __post_init__(self) -> None:
        if self.modifiers or self.seat_powers:
            # Imported here: the modifiers module is a plug-in point that may import scoring.
            from engine.rules.modifiers import check_applicable

            # Refuses unknown names, and modifiers this rule set cannot apply (small mahjong's
            # points have no place for a modifier's han), naming them: never ignored; and
            # seat powers that are not one per seat.
            check_applicable(self)

    def powers_of(self, seat: int) -> tuple[str, ...]:
        """The names of the rule modifiers in force for one seat: the table's ``modifiers``,
        then the power the seat chose, if any."""
        own = self.seat_powers[seat] if seat < len(self.seat_powers) else None
        return self.modifiers if own is None else (*self.modifiers, own)

    def for_seat(self, seat: int) -> Ruleset:
        """The rule set as it applies to one seat: its powers (:meth:`powers_of`) as the
        table's modifiers, and no seat powers (how a win of the seat is valued: a scorer applies
        the table's modifiers). The rule set itself when no seat chose a power."""
        if not any(self.seat_powers):
            return self
        return self.replace(modifiers=self.powers_of(seat), seat_powers=())

    @property
    def three_player(self) -> bool:
        """Whether this is a 3-player rule set."""
        return self.players == 3

    @property
    def aka(self) -> bool:
        """Whether red fives are in play at all."""
        return any(self.red_fives)

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with some options changed, each value read into its option's type (a string
        names an enumeration's member, ``"true"`` is a bool, ``[0, 1, 1]`` a tuple:
        :mod:`engine.rules.options`).

        :raises UnknownRulesetError: an unknown option, or a value its option cannot take,
            naming the option, the value and what it takes.
        """
        read = read_options(Ruleset, changes, what="rule option", rules=self.name)
        return dataclasses.replace(self, **read)

    def options(self) -> dict[str, Any]:
        """Every option as plain JSON-able values (enums as strings, sets as sorted lists)."""
        result: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, frozenset):
                value = sorted(value)
            elif isinstance(value, tuple):
                value = list(value)
            result[f.name] = value
        return result
