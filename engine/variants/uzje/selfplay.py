"""Ùzje self-play: bots play whole matches through the state machine, recorded as games.

Each hand is dealt from a shuffled wall (:func:`deal`): the dealer's 14 and everyone's 13 tiles
from the front, then the 16-tile dead wall (its first tile shown as the bonus tile), the rest
the live wall, drawn from the front and, for replacements, from the back. The loop asks
:meth:`UzjeState.legal_actions`, lets the bots choose and applies the choice with the *checked*
:meth:`UzjeState.apply` (a refusal there is a bug, never a bot's fault). Claims on a discard are
settled in the document's order: every player who may win is asked first (all who accept win,
in turn order from the discarder); then trips and quads, in turn order; then an arith by the next
player; then the next draw. The record carries the engine's own values as the ``recorded``
ones, so a generated game replays as verified (:func:`engine.variants.uzje.replay.replay`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import cast

from engine.errors import SimulationError
from engine.events import (
    Draw,
    Event,
    ExhaustiveDraw,
    FinalResult,
    Game,
    GameHeader,
    OpenKan,
    Player,
    Pon,
    RecordedWin,
    Round,
    Source,
    Wall,
    Win,
)
from engine.game_flow import RoundPosition
from engine.variants.uzje.bots import ClaimingBot, GreedyBot, UzjeBot
from engine.variants.uzje.events import BonusRevealed, Chow, UzjeEvent
from engine.variants.uzje.flow import first_position
from engine.variants.uzje.rules import UzjeRules, as_preset, get_rules
from engine.variants.uzje.scoring import Points, as_recorded_all
from engine.variants.uzje.state import UzjeHandResult, UzjePhase, UzjeState, UzjeWin
from engine.variants.uzje.tiles import sort_key, tile

#: Events one hand may take before the loop gives up (a hand has a few hundred at most).
MAX_EVENTS_PER_HAND = 3000
#: Hands one match may take (the dealer keeps the deal on draws, so matches can be long).
MAX_HANDS = 400

#: A function giving the bots of one match, seat by seat, from the match's random generator.
BotFactory = Callable[[random.Random], Sequence[UzjeBot]]


def deal(
    rules: UzjeRules, position: RoundPosition, scores: Sequence[Points], rng: random.Random
) -> Round:
    """A shuffled wall dealt for a hand at ``position``: the dealer 14 tiles, the others 13."""
    tiles = [tile(kind) for kind in rules.tiles()]
    rng.shuffle(tiles)
    players = rules.players
    hands = []
    start = 0
    for offset in range(players):
        seat = (position.dealer + offset) % players
        size = 14 if offset == 0 else 13
        hands.append((seat, tuple(tiles[start : start + size])))
        start += size
    dead = tuple(tiles[start : start + rules.dead_wall])
    live = tuple(tiles[start + rules.dead_wall :])
    return Round(
        wind=position.wind,
        number=position.number,
        dealer=position.dealer,
        honba=position.honba,
        sticks=0,
        scores=as_recorded_all(scores),
        hands=tuple(hand for _, hand in sorted(hands)),
        dora_indicators=dead[:1],
        events=(),
        wall=Wall(live=live, replacements=(), dora_indicators=dead, ura_indicators=()),
    )


def recorded_win(win: UzjeWin, state: UzjeState) -> RecordedWin:
    """What a record states about a win: fan in tenths as ``han``, the patterns as ``yaku``
    (tenths of fan, or limits for limit-hand patterns), ``limit`` as ``"<n>l"``, the points,
    the score changes and the winner's hand (winning tile included)."""
    value = win.value
    data = state.seats[win.seat]
    hand = [tile(kind) for kind, count in enumerate(data.counts) for _ in range(count)]
    if win.special is None and win.seat != win.from_seat:
        hand.append(tile(win.tile))
    return RecordedWin(
        han=None if value.limit_patterns else value.fan,
        yaku=value.patterns,
        points=value.points,
        limit=f"{value.limits}l" if value.limits else None,
        deltas=as_recorded_all(win.deltas),
        hand=tuple(sorted(hand, key=sort_key)),
    )


def play_round(
    state: UzjeState, round_: Round, bots: Sequence[UzjeBot], rng: random.Random
) -> tuple[Round, UzjeHandResult]:
    """Play one dealt hand; the round with its events, and its result."""
    state.start_round(round_)
    events: list[UzjeEvent] = []

    def do(event: UzjeEvent) -> None:
        state.apply(event)
        events.append(event)

    while not state.finished:
        if len(events) > MAX_EVENTS_PER_HAND:
            raise SimulationError(f"a hand went past {MAX_EVENTS_PER_HAND} events")
        actions = state.legal_actions()
        if not actions:
            raise SimulationError(f"nothing is legal in phase {state.phase}")
        phase = state.phase
        if phase is UzjePhase.ACT:
            choice = bots[state.turn].choose(state, state.turn, actions)
            if choice is None or choice not in actions:
                raise SimulationError(f"seat {state.turn}'s bot chose {choice}, not offered")
            do(choice)
            continue
        wins = [action for action in actions if isinstance(action, Win)]
        taken = [win for win in wins if bots[win.seat].choose(state, win.seat, [win]) is win]
        if taken:
            for win in taken:
                do(win)
            continue
        if phase is UzjePhase.CLAIM:
            claims = [a for a in actions if isinstance(a, Pon | OpenKan | Chow)]
            claim = _claim(state, claims, bots)
            if claim is not None:
                do(claim)
                continue
        rest = [a for a in actions if isinstance(a, Draw | ExhaustiveDraw | BonusRevealed)]
        if len(rest) != 1:
            raise SimulationError(f"expected one way on in phase {phase}, got {rest}")
        do(rest[0])
    result = state.settle()
    final_events: list[UzjeEvent] = []
    computed = iter(result.wins)
    for event in events:
        if isinstance(event, Win):
            event = Win(
                event.seat, event.from_seat, event.tile, recorded_win(next(computed), state)
            )
        final_events.append(event)
    recorded = Round(
        wind=round_.wind,
        number=round_.number,
        dealer=round_.dealer,
        honba=round_.honba,
        sticks=0,
        scores=round_.scores,
        hands=round_.hands,
        dora_indicators=round_.dora_indicators,
        # An Ùzje round holds Ùzje events; engine.events.Event does not list the three of them.
        events=cast(tuple[Event, ...], tuple(final_events)),
        wall=round_.wall,
    )
    return recorded, result


def _claim(
    state: UzjeState, claims: Sequence[Pon | OpenKan | Chow], bots: Sequence[UzjeBot]
) -> UzjeEvent | None:
    """Trips and quads first, in turn order from the discarder; then the next player's arith."""
    assert state.discard is not None
    discarder = state.discard[0]
    order = sorted(
        {claim.seat for claim in claims},
        key=lambda seat: (
            isinstance(_first(claims, seat), Chow),
            (seat - discarder) % state.players,
        ),
    )
    for seat in order:
        mine = [
            claim for claim in claims if claim.seat == seat and isinstance(claim, Pon | OpenKan)
        ]
        if mine:
            choice = bots[seat].choose(state, seat, list(mine))
            if choice is not None:
                return choice
    nxt = (discarder + 1) % state.players
    chows = [claim for claim in claims if isinstance(claim, Chow) and claim.seat == nxt]
    if chows:
        return bots[nxt].choose(state, nxt, list(chows))
    return None


def _first(claims: Sequence[Pon | OpenKan | Chow], seat: int) -> Pon | OpenKan | Chow:
    return next(claim for claim in claims if claim.seat == seat)


def play_game(
    rules: UzjeRules,
    bots: Sequence[UzjeBot],
    rng: random.Random,
    *,
    game_id: str | None = None,
    players: Sequence[str] | None = None,
) -> Game:
    """Play a whole match and return its record."""
    state = UzjeState(rules, first_dealer=0)
    position: RoundPosition | None = first_position(0)
    rounds: list[Round] = []
    while position is not None:
        if len(rounds) >= MAX_HANDS:
            raise SimulationError(f"a match went past {MAX_HANDS} hands")
        round_ = deal(rules, position, state.scores, rng)
        recorded, _ = play_round(state, round_, bots, rng)
        rounds.append(recorded)
        position = state.end_round()
    preset, overrides = as_preset(rules)
    names = players or [f"bot{seat}" for seat in range(rules.players)]
    header = GameHeader(
        ruleset=preset,
        rule_overrides=overrides,
        players=tuple(Player(name) for name in names),
        source=Source("sim", game_id),
    )
    return Game(header, tuple(rounds), FinalResult(as_recorded_all(state.scores)))


def mixed_bots(players: int) -> BotFactory:
    """Greedy bots with none, one or two claiming bots among them (at random seats)."""

    def make(rng: random.Random) -> Sequence[UzjeBot]:
        claimers = set(rng.sample(range(players), rng.randrange(3)))
        return [
            ClaimingBot(rng, rate=rng.choice((0.3, 0.7, 1.0)))
            if seat in claimers
            else GreedyBot(rng)
            for seat in range(players)
        ]

    return make


def simulate(
    count: int,
    seed: int,
    rules: UzjeRules | str = "uzje-4p",
    *,
    bots: BotFactory | None = None,
) -> list[Game]:
    """``count`` self-played matches, reproducible from ``seed``."""
    table = get_rules(rules) if isinstance(rules, str) else rules
    factory = bots or mixed_bots(table.players)
    games = []
    for index in range(count):
        rng = random.Random(f"{seed}:{index}")
        games.append(play_game(table, factory(rng), rng, game_id=f"uzje-{seed}-{index}"))
    return games
