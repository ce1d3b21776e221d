"""Scenarios: self-play steered into the rare situations of the rules, on purpose.

Greedy bots on shuffled walls almost never meet a chankan, a triple ron, four kans, nagashi
mangan, pao or a four-winds abort. A :class:`Scenario` arranges the wall of a game's first hands
(:class:`Director`, the game's ``dealer``) so that one of them can happen, and gives each seat a
:class:`Role` for those hands, which its :class:`ScenarioBot` follows: feed a tile, keep a dealt
tenpai hand, call every kan, win only by robbing a kan, discard terminals for nagashi... Outside
the arranged hands (and for a seat without a role) the bot plays as :class:`GreedyBot`. Nothing
here bends a rule: every action is chosen among the state machine's legal ones, so the records
replay like any other self-played game. A scenario makes its situation likely, not certain (the
other seats' draws are random); counting what happened is the caller's job.

Seats in an arrangement are relative to the hand's dealer (0 the dealer, 1 the next seat...), and
live-wall draws are by index: with no call, relative seat ``r`` makes draws ``r``,
``r + players``, ... A kan or a North extraction draws from the dead wall and ends the hand one
live draw earlier (see :mod:`engine.sim.wall`); calls change whose turn comes next, so the
arrangements only count on draws before the first call they cause.

>>> from engine.sim.scenarios import scenario_game
>>> game = scenario_game("tenhou-4p", "chankan", random.Random(1))  # doctest: +SKIP
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from engine.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Event,
    Game,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiDeclared,
    Wall,
    Win,
)
from engine.game_flow import RoundPosition
from engine.rules.presets import get_ruleset
from engine.rules.ruleset import Ruleset
from engine.sim.bots import GreedyBot, is_claim
from engine.sim.selfplay import play_game
from engine.sim.wall import dead_wall_replacements, deal, indicator_stacks, tile_set
from engine.state import GameState, Phase
from engine.tiles import DRAGONS, EAST, NORTH, SANMA_MISSING, WINDS, YAOCHUU, Tile

_YAOCHUU = frozenset(YAOCHUU)

Dealt = tuple[tuple[tuple[Tile, ...], ...], Tile | None, Wall]


@dataclass(frozen=True)
class Role:
    """How a seat plays an arranged hand. ``None`` in a tri-state field leaves the choice to
    :class:`GreedyBot`."""

    #: Kinds discarded as soon as held (a feeder's tiles).
    discard_first: frozenset[int] = frozenset()
    #: Kinds never discarded while another discard is possible.
    keep: frozenset[int] = frozenset()
    #: Discard the drawn tile: a dealt tenpai hand stays exactly as dealt.
    tsumogiri: bool = False
    #: Kinds always called (pon, or open kan when ``kans``), whoever discards them.
    call_kinds: frozenset[int] = frozenset()
    #: Other calls: ``None`` greedy, ``False`` never.
    calls: bool | None = None
    #: Kans: ``True`` every kan offered, ``False`` never, ``None`` greedy.
    kans: bool | None = None
    #: Wins taken: ``all``, ``none``, or ``rob`` (only a ron on a kan or a North).
    wins: str = "all"
    #: Discard terminals and honours first (nagashi mangan).
    yaochuu_first: bool = False
    riichi: bool | None = None
    #: North extraction (sanma): ``False`` keeps Norths as ordinary tiles.
    kita: bool = True
    #: Nine terminals: ``False`` never declared.
    abort: bool = True


#: A seat that stays out of the way: no call, no win, no abort.
PASSIVE = Role(calls=False, kans=False, wins="none", abort=False)


class ShortOfTiles(Exception):
    """The arrangement asks for more copies of a kind than are left; the hand is dealt as
    usual instead."""


class Rig:
    """A wall under construction: tiles placed where an arrangement wants them, the rest
    shuffled into the other places at :meth:`build`, in :func:`engine.sim.wall.deal`'s layout."""

    def __init__(self, ruleset: Ruleset, rng: random.Random, dealer: int) -> None:
        self.ruleset = ruleset
        self.rng = rng
        self.dealer = dealer
        self.players = ruleset.players
        self.pool: list[Tile] = tile_set(ruleset)
        rng.shuffle(self.pool)
        self.hands: list[list[Tile]] = [[] for _ in range(self.players)]
        self.live: dict[int, Tile] = {}
        self.replacements: dict[int, Tile] = {}

    def seat(self, rel: int) -> int:
        """The absolute seat of relative seat ``rel`` (0: the dealer)."""
        return (self.dealer + rel) % self.players

    def kinds(self) -> list[int]:
        """Every kind of the rule set's tile set."""
        return sorted({tile.kind for tile in tile_set(self.ruleset)})

    def left(self, kind: int) -> int:
        return sum(tile.kind == kind for tile in self.pool)

    def take(self, kind: int) -> Tile:
        """A tile of ``kind`` out of the pool (a plain one when there is one)."""
        found = None
        for index, tile in enumerate(self.pool):
            if tile.kind == kind:
                found = index
                if not tile.red:
                    break
        if found is None:
            raise ShortOfTiles(f"no tile of kind {kind} left")
        return self.pool.pop(found)

    def give(self, rel: int, kinds: Iterable[int]) -> None:
        hand = self.hands[self.seat(rel)]
        for kind in kinds:
            hand.append(self.take(kind))
        if len(hand) > self.ruleset.dealt_tiles:
            raise ShortOfTiles("a hand was given too many tiles")

    def draw_at(self, index: int, kind: int) -> None:
        """Live draw number ``index`` (from 0) is a tile of ``kind``."""
        if index in self.live or not 0 <= index < self.ruleset.live_wall:
            raise ShortOfTiles(f"live draw {index} cannot be placed")
        self.live[index] = self.take(kind)

    def replacement_at(self, index: int, kind: int) -> None:
        """Replacement draw number ``index`` (from 0, dead wall only) is a tile of ``kind``."""
        if index in self.replacements or index >= dead_wall_replacements(self.ruleset):
            raise ShortOfTiles(f"replacement {index} cannot be placed")
        self.replacements[index] = self.take(kind)

    def build(self) -> Dealt:
        """The hands, the opening indicator and the wall, every unplaced tile at random."""
        ruleset = self.ruleset
        pool = self.pool
        self.rng.shuffle(pool)
        hands = []
        for hand in self.hands:
            while len(hand) < ruleset.dealt_tiles:
                hand.append(pool.pop())
            hands.append(tuple(sorted(hand)))
        live = [self.live.get(index) or pool.pop() for index in range(ruleset.live_wall)]
        in_dead_wall = dead_wall_replacements(ruleset)
        dead = [self.replacements.get(index) or pool.pop() for index in range(in_dead_wall)]
        stacks = indicator_stacks(ruleset)
        dora = tuple(pool.pop() for _ in range(stacks))
        ura = tuple(pool.pop() for _ in range(stacks))
        if pool:
            raise ShortOfTiles(f"{len(pool)} tiles left over")  # a layout this does not know
        from_live = ruleset.rinshan_tiles - in_dead_wall
        replacements = (*dead, *live[::-1][:from_live])
        wall = Wall(
            live=tuple(live),
            replacements=replacements,
            dora_indicators=dora,
            ura_indicators=ura,
        )
        return tuple(hands), (dora[0] if dora else None), wall


# -- complete and tenpai hands --------------------------------------------------------------


def _number(kind: int) -> bool:
    return kind < EAST


def complete_kinds(
    rig: Rig,
    sets: int,
    *,
    allowed: Callable[[int], bool] = lambda kind: True,
    extra: Sequence[int] = (),
) -> list[int]:
    """The kinds of a random complete hand (``sets`` sets and a pair) that the pool can still
    give, every kind ``allowed``; ``extra`` kinds are already taken out elsewhere and count
    against the copies. The tiles stay in the pool (:meth:`Rig.give` takes them).

    :raises ShortOfTiles: after many tries without one.
    """
    kinds = [k for k in rig.kinds() if allowed(k)]
    for _ in range(200):
        used: dict[int, int] = {}
        for kind in extra:
            used[kind] = used.get(kind, 0) + 1
        chosen: list[int] = []
        pair = rig.rng.choice(kinds)
        if not _fits(rig, used, (pair, pair)):
            continue
        _add(used, chosen, (pair, pair))
        for _ in range(sets):
            for _ in range(20):
                start = rig.rng.choice(kinds)
                if rig.rng.random() < 0.6 and _number(start) and start % 9 <= 6:
                    group: tuple[int, ...] = (start, start + 1, start + 2)
                    if not all(_usable(rig, k) and allowed(k) for k in group):
                        continue
                else:
                    group = (start, start, start)
                if _fits(rig, used, group):
                    _add(used, chosen, group)
                    break
            else:
                break
        if len(chosen) == 2 + 3 * sets:
            return chosen
    raise ShortOfTiles("no complete hand found")


def _fits(rig: Rig, used: dict[int, int], group: Sequence[int]) -> bool:
    """Whether the pool still holds ``group`` beyond the ``used`` copies."""
    need: dict[int, int] = {}
    for kind in group:
        need[kind] = need.get(kind, 0) + 1
    return all(rig.left(k) - used.get(k, 0) >= n for k, n in need.items())


def _add(used: dict[int, int], chosen: list[int], group: Sequence[int]) -> None:
    for kind in group:
        used[kind] = used.get(kind, 0) + 1
    chosen.extend(group)


def _simple(kind: int) -> bool:
    return kind not in _YAOCHUU


def _usable(rig: Rig, kind: int) -> bool:
    """Whether the rule set's tile set has the kind (sanma has no 2m-8m)."""
    return not (rig.ruleset.sanma and kind in SANMA_MISSING)


# -- scenarios -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """A named arrangement: ``arrange(rig)`` places tiles and returns the roles by relative
    seat. ``players`` are the table sizes it applies to."""

    name: str
    arrange: Callable[[Rig], dict[int, Role]]
    players: tuple[int, ...] = (3, 4)
    #: What it aims at, in words.
    aim: str = ""


def _tenhou(rig: Rig) -> dict[int, Role]:
    kinds = complete_kinds(rig, 4)
    drawn = kinds.pop(rig.rng.randrange(len(kinds)))
    rig.give(0, kinds)
    rig.draw_at(0, drawn)
    return {}


def _chiihou(rig: Rig) -> dict[int, Role]:
    kinds = complete_kinds(rig, 4)
    drawn = kinds.pop(rig.rng.randrange(len(kinds)))
    rig.give(1, kinds)
    rig.draw_at(1, drawn)
    # Nobody calls the dealer's first discard (a call ends the first go-around).
    return dict.fromkeys(range(2, rig.players), PASSIVE) | {0: Role(calls=False)}


def _waiting_on(rig: Rig, rels: Sequence[int], target: int) -> dict[int, Role]:
    """Seats ``rels`` each get a closed all-simples hand waiting on ``target``."""
    roles = {}
    for rel in rels:
        kinds = complete_kinds(rig, 4, allowed=_simple, extra=(target,))
        if target not in kinds:
            # Put the target in: a run through it or a pair of it, rebuilt until it fits.
            kinds = _with_kind(rig, target, _simple)
        kinds.remove(target)
        rig.give(rel, kinds)
        roles[rel] = Role(tsumogiri=True, calls=False, kans=False, riichi=False)
    return roles


def _with_kind(rig: Rig, target: int, allowed: Callable[[int], bool]) -> list[int]:
    for _ in range(50):
        kinds = complete_kinds(rig, 4, allowed=allowed, extra=(target,))
        if target in kinds:
            return kinds
    raise ShortOfTiles("no complete hand with the target")


def _ron_on_first_discard(winners: int) -> Callable[[Rig], dict[int, Role]]:
    def arrange(rig: Rig) -> dict[int, Role]:
        target = rig.rng.choice([k for k in rig.kinds() if _simple(k)])
        rig.give(0, (target,))
        rels = sorted(rig.rng.sample(range(1, rig.players), winners))
        roles = _waiting_on(rig, rels, target)
        roles[0] = Role(discard_first=frozenset((target,)), calls=False)
        for rel in range(1, rig.players):
            roles.setdefault(rel, PASSIVE)
        return roles

    return arrange


def _chankan(rig: Rig) -> dict[int, Role]:
    # The dealer feeds T, seat 1 pons it and draws the fourth T (its first live draw after the
    # pon is live draw 4, or 3 with three players), seat 2 waits on T and robs the added kan.
    players = rig.players
    target = rig.rng.choice([k for k in rig.kinds() if _simple(k) and k % 9 not in (0, 8)])
    rig.give(0, (target,))
    rig.give(1, (target, target))
    rig.draw_at(players, target)
    # Seat 2's hand: a complete hand with a run through the target, the target taken out.
    for _ in range(50):
        run_start = target - rig.rng.randrange(3)
        if run_start // 9 != target // 9 or (run_start + 2) // 9 != target // 9:
            continue
        run = [run_start, run_start + 1, run_start + 2]
        if not all(_usable(rig, k) for k in run):
            continue
        rest = complete_kinds(rig, 3, allowed=lambda k: k != target, extra=run)
        kinds = [k for k in run if k != target] + rest
        break
    else:
        raise ShortOfTiles("no hand waiting on the target")
    rig.give(2, kinds)
    roles = {
        0: Role(discard_first=frozenset((target,)), calls=False, kans=False),
        1: Role(call_kinds=frozenset((target,)), kans=True, keep=frozenset((target,)), wins="none"),
        2: Role(tsumogiri=True, calls=False, kans=False, wins="rob", riichi=False),
    }
    for rel in range(3, players):
        roles[rel] = PASSIVE
    return roles


def _kokushi_robs_ankan(rig: Rig) -> dict[int, Role]:
    target = rig.rng.choice(YAOCHUU)
    rig.give(0, (target,) * 4)
    others = [k for k in YAOCHUU if k != target]
    pair = rig.rng.choice(others)
    rig.give(1, [*others, pair])
    roles = {
        0: Role(kans=True, calls=False, wins="none"),
        1: Role(tsumogiri=True, calls=False, kans=False, wins="rob", riichi=False),
    }
    for rel in range(2, rig.players):
        roles[rel] = PASSIVE
    return roles


def _kita_ron(rig: Rig) -> dict[int, Role]:
    # Seat 1 waits on North alone (a dragon triplet for the yaku); seat 2 extracts a North.
    dragon = rig.rng.choice(DRAGONS)
    rest = complete_kinds(rig, 3, allowed=lambda k: k not in (NORTH, dragon))
    rig.give(1, [dragon] * 3 + rest[2:] + [NORTH])  # three sets, the dragons and a lone North
    rig.give(2, (NORTH,))
    return {
        0: PASSIVE,
        1: Role(tsumogiri=True, calls=False, kans=False, wins="rob", riichi=False, kita=False),
        2: Role(calls=False, wins="none", kita=True),
    }


def _rinshan(rig: Rig) -> dict[int, Role]:
    quad = rig.rng.choice(rig.kinds())
    rig.give(0, (quad,) * 4)
    kinds = complete_kinds(rig, 3, extra=(quad,) * 4)
    rig.rng.shuffle(kinds)
    rig.draw_at(0, kinds.pop())
    rig.replacement_at(0, kinds.pop())
    rig.give(0, kinds)
    return {0: Role(kans=True)}


def _suukantsu(rig: Rig) -> dict[int, Role]:
    # The dealer holds AAAA BBBB CCC E F, draws C, closes three kans drawing D D D, then the
    # seat after it feeds the fourth D: an open kan, the fourth, and its replacement E wins.
    # The feeder is liable only under a rule set whose ``pao`` lists suukantsu: no preset does
    # (Mahjong Soul's pao is daisangen and daisuushii only), so there it is a plain rinshan win.
    a, b, c, d, e, f = rig.rng.sample(rig.kinds(), 6)
    rig.give(0, (a,) * 4 + (b,) * 4 + (c,) * 3 + (e, f))
    rig.draw_at(0, c)
    for index in range(3):
        rig.replacement_at(index, d)
    rig.replacement_at(3, e)
    rig.give(1, (d,))
    roles = {
        0: Role(
            kans=True, call_kinds=frozenset((d,)), keep=frozenset((d, e)), kita=False, riichi=False
        ),
        1: Role(discard_first=frozenset((d,)), calls=False, wins="none", kita=False),
    }
    for rel in range(2, rig.players):
        roles[rel] = PASSIVE
    return roles


def _suukaikan(rig: Rig) -> dict[int, Role]:
    a, b, c, d = rig.rng.sample(rig.kinds(), 4)
    rig.give(0, (a,) * 4 + (b,) * 4)
    rig.give(1, (c,) * 4 + (d,) * 4)
    roles = {
        0: Role(kans=True, calls=False, wins="none"),
        1: Role(kans=True, calls=False, wins="none"),
    }
    for rel in range(2, rig.players):
        roles[rel] = PASSIVE
    return roles


def _nagashi(rig: Rig) -> dict[int, Role]:
    rel = rig.rng.randrange(rig.players)
    yaochuu = [k for k in YAOCHUU if k in rig.kinds()]
    for index in range(rel, rig.ruleset.live_wall, rig.players):
        choices = [k for k in yaochuu if rig.left(k)]
        rig.draw_at(index, rig.rng.choice(choices))
    roles = {
        other: Role(calls=False, kans=False, wins="none", abort=False, kita=False)
        for other in range(rig.players)
    }
    roles[rel] = Role(
        yaochuu_first=True,
        calls=False,
        kans=False,
        wins="none",
        riichi=False,
        abort=False,
        kita=False,
    )
    return roles


def _pao(kinds: Sequence[int]) -> Callable[[Rig], dict[int, Role]]:
    """The dealer holds a pair of each of ``kinds``; the other seats hold the third and fourth
    copies and feed them, so the dealer's last set of them is called (pao), never drawn."""

    def arrange(rig: Rig) -> dict[int, Role]:
        rig.give(0, [k for k in kinds for _ in range(2)])
        feeders = list(range(1, rig.players))
        roles: dict[int, Role] = {}
        fed: dict[int, list[int]] = {rel: [] for rel in feeders}
        for index, kind in enumerate(kinds):
            fed[feeders[index % len(feeders)]].extend((kind, kind))
        for rel, given in fed.items():
            rig.give(rel, given)
            roles[rel] = Role(discard_first=frozenset(given), calls=False, wins="none", kita=False)
        room = rig.ruleset.dealt_tiles - 2 * len(kinds)
        lone = [k for k in rig.kinds() if k not in kinds and k < EAST and k % 9 in (0, 4, 8)]
        if room >= 7:
            # A set beside the three pairs, and lone tiles: tenpai on a lone tile once the three
            # pons are made, and no other way to complete the hand before.
            run = complete_kinds(rig, 1, allowed=lambda k: k not in kinds and k not in lone)[2:]
            rig.give(0, run)
            room -= 3
        # Lone tiles (no seven pairs, no little four winds before the last pon): the hand
        # completes only as the big yakuman.
        rig.give(0, rig.rng.sample(lone, room))
        roles[0] = Role(
            call_kinds=frozenset(kinds), keep=frozenset(kinds), kita=False, kans=False, riichi=False
        )
        return roles

    return arrange


def _kyuushu(rig: Rig) -> dict[int, Role]:
    rel = rig.rng.randrange(rig.players)
    yaochuu = [k for k in YAOCHUU if k in rig.kinds()]
    rig.give(rel, rig.rng.sample(yaochuu, 9))
    simples = [k for k in rig.kinds() if k not in _YAOCHUU]
    rig.give(rel, [rig.rng.choice(simples) for _ in range(4)])
    # Nobody calls before its first turn (a call ends the first go-around).
    return {
        other: Role(calls=False, kans=False, wins="none", abort=False)
        for other in range(rig.players)
        if other != rel
    } | {rel: Role(calls=False)}


def _suufon(rig: Rig) -> dict[int, Role]:
    wind = rig.rng.choice(WINDS)
    roles = {}
    for rel in range(rig.players):
        rig.give(rel, (wind,))
        roles[rel] = Role(
            discard_first=frozenset((wind,)),
            calls=False,
            kans=False,
            wins="none",
            abort=False,
            riichi=False,
        )
    return roles


def _suucha(rig: Rig) -> dict[int, Role]:
    roles = {}
    for rel in range(rig.players):
        kinds = complete_kinds(rig, 4)
        kinds.pop(rig.rng.randrange(len(kinds)))
        rig.give(rel, kinds)
        roles[rel] = Role(calls=False, kans=False, wins="none", riichi=True, abort=False)
    return roles


def _haitei_kan(rig: Rig) -> dict[int, Role]:
    # The seat whose live draw is the second to last holds three of a kind and draws the
    # fourth there: its kan's replacement tile is the last tile of the hand.
    index = rig.ruleset.live_wall - 2
    rel = index % rig.players
    quad = rig.rng.choice(rig.kinds())
    rig.give(rel, (quad,) * 3)
    rig.draw_at(index, quad)
    roles = {
        other: Role(calls=False, kans=False, wins="none", abort=False, kita=False)
        for other in range(rig.players)
    }
    roles[rel] = Role(
        calls=False, kans=True, keep=frozenset((quad,)), abort=False, kita=False, riichi=False
    )
    return roles


SCENARIOS: dict[str, Scenario] = {
    scenario.name: scenario
    for scenario in (
        Scenario("tenhou", _tenhou, aim="the dealer wins on the first draw (tenhou)"),
        Scenario("chiihou", _chiihou, aim="a non-dealer wins on the first draw (chiihou)"),
        Scenario(
            "first_turn_ron",
            _ron_on_first_discard(1),
            aim="a ron on the dealer's first discard, before the winner's first draw",
        ),
        Scenario("double_ron", _ron_on_first_discard(2), aim="two rons on one discard"),
        Scenario(
            "triple_ron",
            _ron_on_first_discard(3),
            players=(4,),
            aim="three rons on one discard: Tenhou aborts (sanchahou), Mahjong Soul pays",
        ),
        Scenario("chankan", _chankan, aim="a ron on an added kan (chankan)"),
        Scenario(
            "kokushi_ankan",
            _kokushi_robs_ankan,
            aim="thirteen orphans robs a closed kan (Mahjong Soul only)",
        ),
        Scenario("kita_ron", _kita_ron, players=(3,), aim="a ron on an extracted North"),
        Scenario("rinshan", _rinshan, aim="a win on a kan's replacement tile"),
        Scenario(
            "suukantsu",
            _suukantsu,
            aim="four kans by one player, the fourth fed (pao only where `pao` lists suukantsu)",
        ),
        Scenario("suukaikan", _suukaikan, aim="four kans by two players abort the hand"),
        Scenario("nagashi", _nagashi, aim="nagashi mangan"),
        Scenario("pao_daisangen", _pao(DRAGONS), aim="daisangen fed by a discard: pao"),
        Scenario("pao_daisuushii", _pao(WINDS), aim="daisuushii fed by a discard: pao"),
        Scenario("kyuushu", _kyuushu, aim="nine terminals and honours abort the hand"),
        Scenario("suufon", _suufon, players=(4,), aim="four winds on the first go-around"),
        Scenario("suucha", _suucha, players=(4,), aim="four riichi"),
        Scenario(
            "haitei_kan", _haitei_kan, aim="a kan's replacement draw is the last tile of the hand"
        ),
    )
}


def scenarios_for(players: int) -> list[Scenario]:
    """The scenarios that apply to a table of ``players``."""
    return [s for s in SCENARIOS.values() if players in s.players]


# -- playing them ---------------------------------------------------------------------------------


@dataclass
class Director:
    """Deals a game's hands: the first ``hands`` arranged by the scenario, the rest shuffled;
    knows each seat's role in the hand being played (:meth:`role`)."""

    scenario: Scenario
    hands: int = 3
    dealt: int = 0
    roles: dict[int, Role] = field(default_factory=dict)
    #: How many hands were arranged (an arrangement short of tiles is dealt as usual).
    arranged: int = 0

    def deal(self, ruleset: Ruleset, rng: random.Random, position: RoundPosition) -> Dealt:
        number = self.dealt
        self.dealt += 1
        self.roles = {}
        if number < self.hands and ruleset.players in self.scenario.players:
            # A generator of its own, so that a failed arrangement leaves the game's as it was.
            rig = Rig(ruleset, random.Random(rng.random()), position.dealer)
            try:
                roles = self.scenario.arrange(rig)
                dealt = rig.build()
            except ShortOfTiles:
                return deal(ruleset, rng)
            self.roles = {rig.seat(rel): role for rel, role in roles.items()}
            self.arranged += 1
            return dealt
        return deal(ruleset, rng)

    def role(self, seat: int) -> Role | None:
        return self.roles.get(seat)


class ScenarioBot:
    """Plays its seat's :class:`Role` in an arranged hand, and as :class:`GreedyBot` otherwise."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.greedy = GreedyBot()

    def choose(self, state: GameState, seat: int, options: list[Event]) -> Event | None:
        role = self.director.role(seat)
        if role is None or not options:
            return self.greedy.choose(state, seat, options)
        if is_claim(options):
            return self._claim(role, state, seat, options)
        return self._turn(role, state, seat, options)

    @staticmethod
    def _may_win(role: Role, state: GameState) -> bool:
        if role.wins == "all":
            return True
        return role.wins == "rob" and state.phase is Phase.ROB

    def _claim(self, role: Role, state: GameState, seat: int, options: list[Event]) -> Event | None:
        wins = [o for o in options if isinstance(o, Win)]
        if wins:
            return wins[0] if self._may_win(role, state) else None
        calls = [o for o in options if isinstance(o, Chi | Pon | OpenKan)]
        wanted = [o for o in calls if o.tile.kind in role.call_kinds and not isinstance(o, Chi)]
        if wanted:
            kans = [o for o in wanted if isinstance(o, OpenKan)]
            if kans and role.kans is not False:
                return kans[0]
            pons = [o for o in wanted if isinstance(o, Pon)]
            return pons[0] if pons else wanted[0]
        if role.kans is True:
            kans = [o for o in calls if isinstance(o, OpenKan)]
            if kans:
                return kans[0]
        if role.calls is False:
            return None
        offered: list[Event] = [
            o for o in calls if role.kans is not False or not isinstance(o, OpenKan)
        ]
        return self.greedy.claim(state, seat, offered) if offered else None

    def _turn(self, role: Role, state: GameState, seat: int, options: list[Event]) -> Event:
        for option in options:
            if isinstance(option, Win) and self._may_win(role, state):
                return option
        if role.kans is True:
            for option in options:
                if isinstance(option, ClosedKan | AddedKan):
                    return option
        kept: list[Event] = []
        for option in options:
            if isinstance(option, Win):
                continue
            if isinstance(option, AbortiveDraw) and not role.abort:
                continue
            if isinstance(option, NorthExtraction) and not role.kita:
                continue
            if isinstance(option, RiichiDeclared) and role.riichi is False:
                continue
            if isinstance(option, ClosedKan | AddedKan) and role.kans is False:
                continue
            kept.append(option)
        discards = [o for o in kept if isinstance(o, Discard)]
        if role.riichi is True:
            for option in kept:
                if isinstance(option, RiichiDeclared):
                    return option
        if discards:
            choice = self._discard(role, discards)
            if choice is not None:
                return choice
            if role.keep:
                others = [d for d in discards if d.tile.kind not in role.keep]
                if others:
                    kept = [o for o in kept if not isinstance(o, Discard) or o in others]
        return self.greedy.turn(state, seat, kept)

    @staticmethod
    def _discard(role: Role, discards: list[Discard]) -> Discard | None:
        """The discard the role dictates, or ``None`` to leave it to the greedy bot."""
        if role.tsumogiri:
            for option in discards:
                if option.tsumogiri:
                    return option
        for option in discards:
            if option.tile.kind in role.discard_first:
                return option
        if role.yaochuu_first:
            drawn = [o for o in discards if o.tsumogiri and o.tile.kind in _YAOCHUU]
            if drawn:
                return drawn[0]
            for option in discards:
                if option.tile.kind in _YAOCHUU:
                    return option
        return None


def scenario_game(
    rules: str | Ruleset,
    scenario: str,
    rng: random.Random,
    *,
    hands: int = 3,
    game_id: str | None = None,
) -> Game:
    """One self-played game whose first ``hands`` hands are arranged by ``scenario``, under a
    preset (by name) or any rule set (a situation some rule set's option decides, such as a
    fed fourth kan's pao, is played under the rule set that has it)."""
    ruleset = get_ruleset(rules) if isinstance(rules, str) else rules
    director = Director(SCENARIOS[scenario], hands=hands)
    bots = [ScenarioBot(director) for _ in range(ruleset.players)]
    return play_game(
        ruleset,
        bots,
        rng,
        players=[f"Scenario {scenario} {seat}" for seat in range(ruleset.players)],
        game_id=game_id,
        dealer=director.deal,
    )


__all__ = [
    "PASSIVE",
    "SCENARIOS",
    "Director",
    "Rig",
    "Role",
    "Scenario",
    "ScenarioBot",
    "ShortOfTiles",
    "complete_kinds",
    "scenario_game",
    "scenarios_for",
]
