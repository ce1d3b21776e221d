"""Named rule-set presets.

Each preset is a :class:`Ruleset` value; ``docs/rules.md`` lists every option with each preset's
value and the source of every difference. Look presets up with :func:`get_ruleset`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import UnknownRulesetError
from engine.events import Game
from engine.rules.ruleset import (
    DOUBLE_YAKUMAN_FORMS,
    KanDoraTiming,
    KazoeLimit,
    PointsRounding,
    Renhou,
    Ruleset,
    Scoring,
    Shapes,
    StickWinner,
)

# Tenhou, 4 players, red fives, open tanyao, East-South: the phoenix-room default.
# Tenhou has no double yakuman forms but adds up several yakuman; kokushi cannot rob an ankan;
# open-kan dora is turned after the replacement draw (Tenhou manual, quoted in Mortal).
# Its final points were rounded to thousands until 2021 and are to the hundred today; a record
# of unknown date may be either (a dated one gets its day's: engine/rules/tenhou.py).
TENHOU_4P = Ruleset(
    name="tenhou-4p", kokushi_robs_ankan=False, points_rounding=PointsRounding.EITHER
)

# Tenhou sanma: 35,000 start, 40,000 target, North extraction, tsumo loss, honba 200 on a ron
# (the mahjong package, validated on 8.4 M Tenhou sanma wins). No chi; suufon renda, suucha
# riichi and sanchahou cannot happen or are off (jansou's tenhou-3p preset).
TENHOU_3P = TENHOU_4P.replace(
    name="tenhou-3p",
    players=3,
    red_fives=(0, 1, 1),
    rinshan_tiles=8,
    kita=True,
    # An extraction breaks ippatsu and double riichi (real 2025 Tenhou sanma games, and
    # jansou's Tenhou replay; docs/rules.md gives the evidence).
    kita_breaks_first_turn=True,
    chi=False,
    starting_points=35000,
    target_points=40000,
    points_base=40000,
    # The final points of real games (2014-2024): 20 for first, 20 off for third.
    uma=(20, 0, -20),
    honba_ron=200,
    # Two payers: the noten players pay 2,000 in all (a 3-player exhaustive draw in the corpus
    # records +1,000 / -2,000 / +1,000).
    noten_payment_total=2000,
    suufon_renda=False,
    suucha_riichi=False,
    sanchahou=False,
)

# Mahjong Soul ranked: double yakuman forms, pao only for the liable
# yakuman, open-kan dora after the discard, kokushi may rob an ankan, triple ron pays all three.
MAJSOUL_4P = TENHOU_4P.replace(
    name="majsoul-4p",
    uma=(15, 5, -5, -15),
    points_rounding=PointsRounding.EXACT,
    # Final points count from the starting 25,000 (no oka), as the records of Mahjong Soul
    # games converted by tensoul-like tools show, though a game needs 30,000 to end.
    points_base=25000,
    kokushi_robs_ankan=True,
    open_kan_dora_timing=KanDoraTiming.AFTER_DISCARD,
    double_yakuman=DOUBLE_YAKUMAN_FORMS,
    # Pao for daisangen and daisuushii only, not four kans: riichi.wiki's Mahjong Soul rules
    # ("Responsibility payment (Pao): Apply for: Big Three Dragons, Four Big Winds"), RiichiEnv's
    # docs/RULES.md; the referee's 100,000 games found jansou agreeing, and we had it wrong.
    pao=frozenset({"daisangen", "daisuushii"}),
    pao_only_liable_yakuman=True,
    max_ron_winners=3,
    sanchahou=False,
)

MAJSOUL_3P = MAJSOUL_4P.replace(
    name="majsoul-3p",
    players=3,
    red_fives=(0, 1, 1),
    rinshan_tiles=8,
    kita=True,
    # "North replacing is similar to a calling action, thus this can nullify Ippatsu, Blessing
    # of Earth (Chiihou), Nine Different Terminals and Honors and Double Riichi" (riichi.wiki,
    # Mahjong Soul's 3-player rules; riichienv and jansou play it so).
    kita_breaks_first_turn=True,
    chi=False,
    starting_points=35000,
    target_points=40000,
    points_base=35000,
    uma=(15, 0, -15),
    honba_ron=200,
    noten_payment_total=2000,
    max_ron_winners=2,
    suufon_renda=False,
    suucha_riichi=False,
)

# The mini-game of seeds/001 (its rule list, line by line, is in docs/rules.md).
MINIGAME_4P = MAJSOUL_4P.replace(
    name="minigame-4p",
    uma=(0, 0, 0, 0),
    pao=frozenset({"daisangen", "daisuushii"}),
    pao_only_liable_yakuman=False,
    nagashi_mangan=False,
    agari_yame=False,
    tenpai_yame=False,
    # "The game ends once the player in first place reaches or exceeds the required points":
    # in the extra wind, after a dealer's repeat too.
    sudden_death_on_repeat=True,
    # "the player closest to the dealer (clockwise) receives the point sticks/deposit": the
    # game deals counterclockwise ("Starting from the dealer and going counterclockwise, the
    # players are referred to as East, South, West, and North"), so clockwise is against turn
    # order.
    multi_ron_sticks=StickWinner.NEAREST_DEALER_CLOCKWISE,
)

MINIGAME_3P = MINIGAME_4P.replace(
    name="minigame-3p",
    players=3,
    red_fives=(0, 1, 1),
    rinshan_tiles=8,
    kita=True,
    kita_breaks_first_turn=True,
    chi=False,
    starting_points=35000,
    target_points=40000,
    points_base=35000,
    uma=(0, 0, 0),
    honba_ron=200,
    # "The total Noten penalty amounts to 3000 points" is a shared rule; the 3-player list
    # changes nothing about it (Tenhou and Mahjong Soul sanma pay 2,000).
    noten_payment_total=3000,
    # "Extracted North tiles are not considered discards and do not result in Furiten."
    kita_pass_furiten=False,
    max_ron_winners=2,
    suufon_renda=False,
    suucha_riichi=False,
)

# EMA Riichi Competition Rules 2016: no red fives, 30,000 start and target, uma 15/5, kuikae
# forbidden, double-wind pair 2 fu, one yakuman at most, no counted yakuman, renhou a mangan,
# every kan turns its dora at once, no abortive draws, double and triple ron pay each winner
# the hand and the counters ("Each winner receives the value of the hand including the value of
# counters in play", RCR 2016 4.1), and on a ron with pao the discarder pays the counters.
EMA_2016 = Ruleset(
    name="ema-2016",
    red_fives=(0, 0, 0),
    starting_points=30000,
    target_points=30000,
    uma=(15, 5, -5, -15),
    tobi=False,
    sudden_death=False,
    agari_yame=False,
    tenpai_yame=False,
    max_ron_winners=3,
    open_kan_dora_timing=KanDoraTiming.IMMEDIATE,
    double_wind_fu=2,
    kazoe=KazoeLimit.SANBAIMAN,
    stacked_yakuman=False,
    renhou=Renhou.MANGAN,
    pao_honba_by_liable=False,
    honba_to_each_winner=True,
    kyuushu_kyuuhai=False,
    suufon_renda=False,
    suucha_riichi=False,
    suukaikan=False,
    sanchahou=False,
)

# World Riichi Championship rules 2015: as EMA 2016, but a negative score ends the game, there
# is neither renhou nor nagashi mangan, and there is no double ron: WRC 2015 5.7.6 gives a win
# claimed by several players on one discard to the player nearest the discarder in turn order
# alone ("Each hand can have only one winner"): head bump. So no rule of it gives honba to
# several winners either: the platforms' value is kept.
WRC = EMA_2016.replace(
    name="wrc",
    tobi=True,
    renhou=Renhou.NONE,
    nagashi_mangan=False,
    max_ron_winners=1,
    honba_to_each_winner=False,
)


# M.League (the professional league, from 2018): Tenhou-like tiles and yaku with red fives,
# 25,000 start and 30,000 return, uma 30/10 (first +50 with the oka); no bust, no extra rounds,
# no all-last stop; head bump (no double ron); no abortive draws; riichi without a draw to come
# and at any score; kan dora turned at once; 7,700 rounded up to mangan; no counted yakuman and no
# double yakuman forms; thirteen orphans cannot rob a closed kan. Sources in docs/rules.md.
MLEAGUE = Ruleset(
    name="mleague",
    uma=(30, 10, -10, -30),
    tobi=False,
    sudden_death=False,
    agari_yame=False,
    tenpai_yame=False,
    riichi_min_points=None,
    riichi_needs_draw=False,
    max_ron_winners=1,
    kokushi_robs_ankan=False,
    open_kan_dora_timing=KanDoraTiming.IMMEDIATE,
    kiriage=True,
    kazoe=KazoeLimit.SANBAIMAN,
    kyuushu_kyuuhai=False,
    suufon_renda=False,
    suucha_riichi=False,
    suukaikan=False,
    sanchahou=False,
)

# The Japan Professional Mahjong League's official rules (JPML A): no red fives, no ippatsu,
# no ura or kan dora; swap calls allowed but for the called tile itself; head bump; no all-last
# stop; riichi without a draw to come; riichi sticks left at the end stay on the table; the four
# abortive draws. Sources, and what is still unchecked, in docs/rules.md.
JPML_A = EMA_2016.replace(
    name="jpml-a",
    uma=(15, 5, -5, -15),
    tobi=False,
    ippatsu=False,
    ura_dora=False,
    kan_dora=False,
    kan_ura=False,
    kuikae_suji=True,
    max_ron_winners=1,
    riichi_needs_draw=False,
    leftover_sticks_to_first=False,
    double_wind_fu=4,
    renhou=Renhou.NONE,
    kyuushu_kyuuhai=True,
    suufon_renda=True,
    suucha_riichi=True,
    suukaikan=True,
    sanchahou=False,
    pao_honba_by_liable=True,
    honba_to_each_winner=False,  # head bump: one winner (アガリは上家優先)
)


def tenhou_ruleset(
    *, three_player: bool = False, east_only: bool = False, red: bool = True, kuitan: bool = True
) -> Ruleset:
    """The Tenhou rule set for a lobby's flags (the GO tag's bits in an mjlog)."""
    base = TENHOU_3P if three_player else TENHOU_4P
    name = base.name
    changes: dict[str, object] = {}
    if east_only:
        name += "-east"
        changes["length"] = "east"
    if not red:
        name += "-nored"
        changes["red_fives"] = (0, 0, 0)
    if not kuitan:
        name += "-nokuitan"
        changes["kuitan"] = False
    return base.replace(name=name, **changes) if changes else base


PRESETS: dict[str, Ruleset] = {
    ruleset.name: ruleset
    for ruleset in (
        TENHOU_4P,
        tenhou_ruleset(east_only=True),
        tenhou_ruleset(red=False),
        tenhou_ruleset(kuitan=False),
        tenhou_ruleset(red=False, kuitan=False),
        tenhou_ruleset(east_only=True, red=False),
        tenhou_ruleset(east_only=True, kuitan=False),
        tenhou_ruleset(east_only=True, red=False, kuitan=False),
        TENHOU_3P,
        tenhou_ruleset(three_player=True, east_only=True),
        MAJSOUL_4P,
        MAJSOUL_4P.replace(name="majsoul-4p-east", length="east"),
        MAJSOUL_3P,
        MAJSOUL_3P.replace(name="majsoul-3p-east", length="east"),
        MINIGAME_4P,
        MINIGAME_3P,
        EMA_2016,
        WRC,
        MLEAGUE,
        JPML_A,
    )
}


def get_ruleset(name: str) -> Ruleset:
    """The preset of this name; raises :class:`UnknownRulesetError` listing the known names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown rule set {name!r}; known presets: {', '.join(sorted(PRESETS))}"
        ) from None


def as_preset(ruleset: Ruleset, base: Ruleset) -> tuple[str, dict[str, object]]:
    """How a game record names a rule set: by its own name when it is a preset, else by the
    ``base`` preset's name and the options that differ from it (as JSON values, the form
    :func:`with_overrides` reads back)."""
    if PRESETS.get(ruleset.name) == ruleset:
        return ruleset.name, {}
    base_options = base.options()
    changed = {
        option: value
        for option, value in ruleset.options().items()
        if option != "name" and value != base_options[option]
    }
    return base.name, changed


def with_overrides(name: str, overrides: Mapping[str, object]) -> Ruleset:
    """A preset with options changed, the options given as JSON values (lists for tuples and
    sets, strings for enumerations), as a game record stores them.

    :raises UnknownRulesetError: an unknown preset or option, or a value the option cannot take.
    """
    return apply_overrides(get_ruleset(name), overrides)


def ruleset_of(game: Game) -> Ruleset:
    """A riichi game's rule set: the preset its header names, with the header's overrides.

    :raises UnknownRulesetError: an unknown preset or option, or a value the option cannot take.
    """
    return with_overrides(game.header.ruleset, game.header.rule_overrides)


def apply_overrides(ruleset: Ruleset, overrides: Mapping[str, object]) -> Ruleset:
    """``ruleset`` with options changed, the options given as JSON values (see
    :func:`with_overrides`), read as :meth:`Ruleset.replace` reads every value.

    :raises UnknownRulesetError: an unknown option, or a value the option cannot take.
    """
    return ruleset.replace(**overrides) if overrides else ruleset


# -- small mahjong (seeds/004; every choice is explained in docs/variants/small.md) ------------
# 108 number tiles, no honours, no red fives, no dora; 13 tiles dealt (4, 7 or 10 in the
# variants) and a stock of 14 draws per player; no calls and no kans; riichi without a deposit,
# ron only after riichi; points summed from the conditions (engine/scoring/small.py); the deal
# passes after every hand, one round (each player deals once), 0 starting points, no bust.
SMALL_4P = Ruleset(
    name="small-4p",
    honors=False,
    red_fives=(0, 0, 0),
    dealt_tiles=13,
    stock_per_player=14,
    dead_wall=0,
    rinshan_tiles=0,
    calls=False,
    chi=False,
    kans=False,
    ron_needs_riichi=True,
    dora=False,
    kan_dora=False,
    kan_ura=False,
    ura_dora=False,
    riichi_deposit=False,
    riichi_min_points=0,
    renchan=False,
    scoring=Scoring.SMALL,
    length="east",
    starting_points=0,
    target_points=0,
    points_base=0,
    uma=(0, 0, 0, 0),
    tobi=False,
    sudden_death=False,
    agari_yame=False,
    tenpai_yame=False,
    max_ron_winners=1,
    kokushi_robs_ankan=False,
    pao=frozenset(),
    honba_ron=0,
    honba_tsumo_each=0,
    noten_payment_total=0,
    nagashi_mangan=False,
    kyuushu_kyuuhai=False,
    suufon_renda=False,
    suucha_riichi=False,
    suukaikan=False,
    sanchahou=False,
)
SMALL_3P = SMALL_4P.replace(name="small-3p", players=3, uma=(0, 0, 0))
SMALL_2P = SMALL_4P.replace(name="small-2p", players=2, uma=(0, 0))

PRESETS.update(
    (ruleset.name, ruleset)
    for ruleset in (
        SMALL_4P,
        SMALL_4P.replace(name="small-4p-10", dealt_tiles=10),
        SMALL_4P.replace(name="small-4p-7", dealt_tiles=7),
        SMALL_4P.replace(name="small-4p-4", dealt_tiles=4),
        SMALL_3P,
        SMALL_2P,
    )
)

# Space mahjong (seeds/000, docs/variants/space.md): Tenhou's 4-player rules with the space
# shapes (wrap-around runs 8-9-1 and 9-1-2, runs of any three winds or the three dragons).
# Open thirteen orphans 3 han (the document: "usually reduced ... e.g. 2 ~ 3 hans"); nine gates
# do not wrap around (the document leaves it open: the standard rule is kept).
SPACE_4P = TENHOU_4P.replace(name="space-4p", shapes=Shapes.SPACE)

PRESETS[SPACE_4P.name] = SPACE_4P
