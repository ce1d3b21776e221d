"""The rules between hands, written down again for the referee from the platforms' own pages.

Nothing here is read from ``engine/rules``: the whole-game judge
(:mod:`benchmarks.referee.judge_game_flow`) must catch a wrong uma, a wrong count of honba or a
wrong end of the game in our engine, so it cannot take those values from the engine. Each value
cites where it comes from; where the two platforms agree, one entry says so.

Sources:

* Tenhou: its English rule page, "Rules for 4-player Ranking Match" (https://www.mjstars.net/
  rules-for): "25000 point start with 30000 point return", "10-20 uma", "Sudden death rule if all
  players are below 30000 points after the last round ... hanchan can go into west round. Game
  ends if a player exceeds 30000 points or if the extra round ends", "A player going into
  negative points (busting out) ends the game", "Automatic agariyame and tenpaiyame for last
  dealer who ends in 1st place", "1st place player gets any riichi sticks left on the table at the
  end of the game", ties "determined by dealer order", "All abortive draws result in renchan",
  "Nagashi mangan ... Tenpai payments are changed to a mangan payment. Dealer renchan if tenpai",
  "If one of the two players who won by double ron is dealer, there is renchan". The translation
  of Tenhou's manual at arcturus.su ("Tenhou.net rules") says the same.
* Tenhou's final points: rounded to thousands until 2021 and to the hundred since 2022 (real
  records: every ``owari`` up to 2021-07-01 in whole thousands, every one from 2022-06-01 on to
  the hundred); a score's thousands round half away from zero and first place takes what makes
  the points add up to zero (real records: 5,500 gives -24 before uma, -500 gives -31). A game of
  unknown date may be either.
* Tenhou sanma: 35,000 start, 40,000 return and target, uma 20/0/-20 (real 2014-2024 records'
  ``owari``), two noten payers paying 2,000 in all (a real draw records +1,000/-2,000/+1,000:
  ``shared/corpus/tenhou6_json/SoliDeoGloria000__sanma-engine/2024010120gm-00b9-0000-ef5da89f
  .json``, ``log[3]``).
* Mahjong Soul: riichi.wiki "Majsoul" (Mahjong Soul's rules): "Bankruptcy: Applied for negative
  points; Not applied for zero point", "Dealership on multiple rons: Dealer keeps", "Seat wind
  tie-breaker: Applied", ranked uma 15/5/-5/-15 (3-player 15/0/-15), "No-ten penalty: 2000
  points" in 3-player; the final points of Mahjong Soul games as converters write them count from
  the starting 25,000 (35,000 in sanma) with no oka, to the hundred.
* The abortive draws: Tenhou has "kyuushuukyuuhai, suucha riichi, sanchahou, suukaikan,
  suufuurenda" (its rule page above); Mahjong Soul four winds, four kans, nine terminals and four
  riichi but not the triple ron (riichi.wiki "Majsoul": "Three-player Ron: No"); three players
  cannot discard four winds, declare four riichi or ron three times. Nine terminals: nine kinds of
  terminals and honours on one's uninterrupted first draw; four winds: the first four discards
  one wind, no call before; four riichi: the fourth riichi stick down; four kans: the discard after
  a fourth kan by two or more players, not won on (riichi.wiki "Tochuu ryuukyoku").
* The noten payments: 3,000 in all among four players, split between the tenpai and the noten
  seats, nothing when all or none are tenpai (riichi.wiki "Ryuukyoku"); a hand waiting only on a
  kind it holds all four of in its concealed tiles is not tenpai, while four copies in its own
  kan do not stop a wait (riichi.wiki "Karaten": "On Tenhou, there have been reports of a hand
  containing 12s44466688p with a kan of 3s, scored as in tenpai. Likewise ... Mahjong Soul").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableRules:
    players: int
    starting: int
    #: What first place needs to end the game after the last scheduled hand (and the extra wind).
    target: int
    #: The return: final points count from here, in thousands.
    base: int
    #: The placement's uma, first place first, in whole points.
    uma: tuple[int, ...]
    #: Ways of rounding final points the platform's records allow: ``exact`` (to the hundred),
    #: ``thousands``.
    roundings: tuple[str, ...]
    #: 0 East only, 1 East-South: the wind of the last scheduled hand.
    last_wind: int
    #: The noten payments of an exhaustive draw, in all.
    noten_pool: int
    #: An all-last dealer in first place with the target ends the game after a win or tenpai.
    dealer_stop: bool = True
    #: The game ends when a score goes below zero.
    bust: bool = True
    #: The abortive draws the platform has beside nine terminals and four kans (which every
    #: rule set here has): four winds, four riichi and the triple ron, 4-player only.
    four_winds: bool = False
    four_riichi: bool = False
    triple_ron: bool = False


_TENHOU_4P = TableRules(
    players=4,
    starting=25000,
    target=30000,
    base=30000,
    uma=(20, 10, -10, -20),
    roundings=("exact", "thousands"),
    last_wind=1,
    noten_pool=3000,
    four_winds=True,
    four_riichi=True,
    triple_ron=True,
)
_TENHOU_3P = TableRules(
    players=3,
    starting=35000,
    target=40000,
    base=40000,
    uma=(20, 0, -20),
    roundings=("exact", "thousands"),
    last_wind=1,
    noten_pool=2000,
)
_MAJSOUL_4P = TableRules(
    players=4,
    starting=25000,
    target=30000,
    base=25000,
    uma=(15, 5, -5, -15),
    roundings=("exact",),
    last_wind=1,
    noten_pool=3000,
    four_winds=True,
    four_riichi=True,
)
_MAJSOUL_3P = TableRules(
    players=3,
    starting=35000,
    target=40000,
    base=35000,
    uma=(15, 0, -15),
    roundings=("exact",),
    last_wind=1,
    noten_pool=2000,
)

TABLE_RULES: dict[str, TableRules] = {
    "tenhou-4p": _TENHOU_4P,
    "tenhou-3p": _TENHOU_3P,
    "majsoul-4p": _MAJSOUL_4P,
    "majsoul-3p": _MAJSOUL_3P,
    "tenhou-4p-east": TableRules(**{**_TENHOU_4P.__dict__, "last_wind": 0}),
    "tenhou-3p-east": TableRules(**{**_TENHOU_3P.__dict__, "last_wind": 0}),
    "majsoul-4p-east": TableRules(**{**_MAJSOUL_4P.__dict__, "last_wind": 0}),
    "majsoul-3p-east": TableRules(**{**_MAJSOUL_3P.__dict__, "last_wind": 0}),
}


def placements(scores: list[int], first_dealer: int) -> list[int]:
    """Each seat's place (1 = first); equal scores ranked by seat order from the first dealer."""
    players = len(scores)
    order = sorted(range(players), key=lambda s: (-scores[s], (s - first_dealer) % players))
    places = [0] * players
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places


def final_points(
    scores: list[int], rules: TableRules, first_dealer: int, rounding: str
) -> list[float]:
    """Each seat's final points: the score less the return, in thousands, the placement's uma,
    and for first place the oka (what the table started with below the return)."""
    places = placements(scores, first_dealer)
    players = len(scores)
    oka = (rules.base - rules.starting) * players
    top = places.index(1)
    if rounding == "exact":
        hundreds = [
            (score - rules.base) // 100 + 10 * rules.uma[places[seat] - 1]
            for seat, score in enumerate(scores)
        ]
        hundreds[top] += oka // 100
        return [h / 10 for h in hundreds]
    points = [0] * players
    for seat, score in enumerate(scores):
        if seat == top:
            continue
        magnitude = (abs(score) + 500) // 1000  # half away from zero
        thousands = magnitude if score >= 0 else -magnitude
        points[seat] = thousands - rules.base // 1000 + rules.uma[places[seat] - 1]
    points[top] = -sum(points)
    return [float(p) for p in points]
