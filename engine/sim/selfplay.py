"""Self-play: bots play whole games through the state machine, recorded as canonical games.

Each hand is dealt from a shuffled wall (:func:`engine.sim.wall.deal`) and played event by event:
the loop asks :meth:`GameState.legal_actions`, lets the bots choose, resolves competing claims and
applies the result with the *checked* :meth:`GameState.apply` (a refusal there is a bug of the
state machine or of this loop, never of a bot). The record carries the engine's own values as the
``recorded`` ones (win values, draw payments, final scores), so replaying a generated game
(:func:`engine.replay.replay`) must give the verdict ``verified``.

Claims are resolved as the rules rank them: every seat that may ron is asked first; rons are kept
in turn order from the discarder, at most ``max_ron_winners`` of them, and three rons abort the
hand where the rules have sanchahou. If nobody rons, a pending riichi is accepted, then the calls
are asked for: a pon or open kan beats a chi. If nobody calls and a rule modifier lets the
discarder draw again (``second_chance``), the discarder is asked whether it does. Otherwise the
hand goes on with the one event that follows (a forced abortive draw, nagashi mangan or the
exhaustive draw, or the next draw). A new kan dora indicator is turned over as soon as it is
due, except that a win on the replacement tile of an open kan comes before it (Tenhou turns that
indicator at the discard).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Sequence

from engine.errors import SimulationError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    Chi,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    FinalResult,
    Game,
    GameHeader,
    NagashiMangan,
    OpenKan,
    Player,
    Pon,
    RecordedWin,
    RiichiAccepted,
    Round,
    Source,
    Wall,
    Win,
)
from engine.game_flow import RoundPosition, final_scores, first_position
from engine.rules.presets import PRESETS, as_preset, get_ruleset
from engine.rules.ruleset import Ruleset
from engine.sim.bots import GreedyBot, RiichiBot
from engine.sim.wall import deal
from engine.state import GameState, HandResult, Phase
from engine.tiles import Tile

#: Events one hand may take before the loop gives up (a hand has at most a few hundred).
MAX_EVENTS_PER_ROUND = 2000
#: Hands one game may take before the loop gives up (renchan makes games long, not endless).
MAX_ROUNDS = 200

#: A function giving the bots of one game, seat by seat, from the game's random generator.
BotFactory = Callable[[random.Random], Sequence[RiichiBot]]
#: A function dealing one hand (as :func:`engine.sim.wall.deal` does) for the hand's position:
#: the seats' tiles, the opening indicator and the wall. Scenarios use it to arrange walls.
Dealer = Callable[
    [Ruleset, random.Random, RoundPosition], tuple[tuple[tuple[Tile, ...], ...], Tile | None, Wall]
]


def play_game(
    ruleset: Ruleset,
    bots: Sequence[RiichiBot],
    rng: random.Random,
    *,
    players: Sequence[str] | None = None,
    game_id: str | None = None,
    dealer: Dealer | None = None,
) -> Game:
    """Play one game with one bot per seat and return its record.

    ``rng`` shuffles every wall (a random bot may draw from it too: :func:`simulate` gives the
    bots the game's generator, which keeps a game reproducible from its seed alone). The header
    names the rule set's preset and the options that differ from it; ``ruleset.name`` must be
    a preset name. ``players`` are the seats' names (default: each bot's class and seat).
    ``dealer`` deals each hand (default: :func:`engine.sim.wall.deal`, a shuffled wall).

    :raises SimulationError: see :class:`SimulationError`.
    :raises ValueError: the number of bots or names is not the number of players, or the rule
        set is not named after a preset.
    """
    seats = ruleset.players
    if len(bots) != seats:
        raise ValueError(f"{ruleset.name} needs {seats} bots, got {len(bots)}")
    names = (
        list(players)
        if players is not None
        else [f"{type(bot).__name__} {seat}" for seat, bot in enumerate(bots)]
    )
    if len(names) != seats:
        raise ValueError(f"{ruleset.name} needs {seats} player names, got {len(names)}")
    header = GameHeader(
        ruleset=ruleset.name,
        rule_overrides=_overrides(ruleset),
        players=tuple(Player(name) for name in names),
        source=Source(
            format="sim",
            id=game_id,
            extra={"bots": ",".join(type(bot).__name__ for bot in bots)},
        ),
    )
    state = GameState(ruleset)
    position: RoundPosition | None = first_position()
    rounds: list[Round] = []
    while position is not None:
        if len(rounds) >= MAX_ROUNDS:
            raise SimulationError(f"the game has not ended after {MAX_ROUNDS} hands")
        round_, position = _play_round(state, position, bots, rng, dealer)
        rounds.append(round_)
    final = final_scores(state.scores, state.sticks, ruleset, state.first_dealer)
    return Game(header=header, rounds=tuple(rounds), recorded_final=FinalResult(tuple(final)))


def simulate(
    ruleset_name: str,
    games: int,
    seed: int,
    *,
    bots: BotFactory | None = None,
    modifiers: Sequence[str] = (),
    seat_powers: Sequence[str | None] = (),
) -> Iterator[Game]:
    """``games`` self-played games under a preset, each reproducible from ``seed`` and its
    number ``n`` alone (its generator is seeded with ``f"{seed}-{n}"``; the game's id is
    ``{preset}-seed-{seed}-{n}``, unique across presets, with ``+{modifier}`` after the preset
    for each rule modifier and ``+{power}@{seat}`` for each seat's power). ``bots`` makes each
    game's bots (default: all :class:`GreedyBot`); ``modifiers`` are the names of rule modifiers
    in force for every seat (:mod:`engine.rules.modifiers`), ``seat_powers`` the power each seat
    chose, in seat order (``None`` for none: ``Ruleset.seat_powers``).

    :raises UnknownRulesetError: an unknown preset or modifier, or a modifier the rule set
        cannot apply, or seat powers not one per seat (before any game is played).
    """
    ruleset = get_ruleset(ruleset_name)
    chosen = tuple(seat_powers) if any(seat_powers) else ()
    if modifiers or chosen:
        ruleset = ruleset.replace(modifiers=tuple(modifiers), seat_powers=chosen)
    label = "".join(
        [
            ruleset_name,
            *(f"+{name}" for name in modifiers),
            *(f"+{name}@{seat}" for seat, name in enumerate(chosen) if name),
        ]
    )
    return _games(ruleset, label, games, seed, bots)


def _games(
    ruleset: Ruleset, label: str, games: int, seed: int, bots: BotFactory | None
) -> Iterator[Game]:
    for number in range(games):
        rng = random.Random(f"{seed}-{number}")
        players = (
            list(bots(rng)) if bots is not None else [GreedyBot() for _ in range(ruleset.players)]
        )
        yield play_game(ruleset, players, rng, game_id=f"{label}-seed-{seed}-{number}")


def _overrides(ruleset: Ruleset) -> dict[str, object]:
    """The options that differ from the preset the rule set is named after."""
    preset = PRESETS.get(ruleset.name)
    if preset is None:
        raise ValueError(f"{ruleset.name!r} is not a preset name; name variants after their preset")
    return as_preset(ruleset, preset)[1]


# -- one hand --------------------------------------------------------------------------------


def _play_round(
    state: GameState,
    position: RoundPosition,
    bots: Sequence[RiichiBot],
    rng: random.Random,
    dealer: Dealer | None = None,
) -> tuple[Round, RoundPosition | None]:
    """Deal and play one hand; the finished record and the next hand's position."""
    ruleset = state.ruleset
    if dealer is None:
        hands, indicator, wall = deal(ruleset, rng)
    else:
        hands, indicator, wall = dealer(ruleset, rng, position)
    round_ = Round(
        wind=position.wind,
        number=position.number,
        dealer=position.dealer,
        honba=position.honba,
        sticks=position.sticks,
        scores=tuple(state.scores),
        hands=hands,
        dora_indicators=() if indicator is None else (indicator,),
        events=(),
        wall=wall,
    )
    state.start_round(round_)
    hand = _Hand(state, bots)
    hand.play()
    result = state.result
    if result is None:
        raise SimulationError(f"{round_.name}: the hand ended without a result")
    winners_in_riichi = any(state.seats[win.seat].riichi for win in result.wins)
    ura: tuple[Tile, ...] = ()
    if winners_in_riichi and ruleset.ura_dora:
        count = len(state.dora_indicators) if ruleset.kan_ura else 1
        ura = wall.ura_indicators[:count]
    following = state.end_round()
    # After end_round: multiple-ron sticks have moved where the rules give them.
    events = hand.recorded_events(result)
    return dataclasses.replace(round_, events=events, ura_indicators=ura), following


class _Hand:
    """The play of one hand: the event loop and the events applied."""

    def __init__(self, state: GameState, bots: Sequence[RiichiBot]) -> None:
        self.state = state
        self.bots = bots
        self.events: list[Event] = []
        #: The winners' concealed tiles (winning tile included), by index of their Win event.
        self.win_hands: dict[int, tuple[Tile, ...]] = {}
        #: The player to act passed a tsumo before a kan indicator was turned: not offered again
        #: until the next draw.
        self.tsumo_declined = False

    def apply(self, event: Event) -> None:
        if len(self.events) >= MAX_EVENTS_PER_ROUND:
            raise SimulationError(f"the hand has not ended after {MAX_EVENTS_PER_ROUND} events")
        state = self.state
        state.apply(event)
        if isinstance(event, Win):
            tiles = state.seats[event.seat].tiles()
            if not event.tsumo:
                tiles.append(event.tile)
            self.win_hands[len(self.events)] = tuple(tiles)
        self.events.append(event)
        if isinstance(event, Draw):
            self.tsumo_declined = False

    def play(self) -> None:
        """Play until the hand is over (a win, or a draw of any kind)."""
        state = self.state
        while state.phase is not Phase.OVER and state.phase is not Phase.WON:
            actions = state.legal_actions()
            if not actions:
                raise SimulationError(
                    f"nothing is legal in phase {state.phase.name} (seat {state.turn})"
                )
            phase = state.phase
            dora = _first(actions, DoraRevealed)
            if dora is not None:
                if phase is Phase.ACT and self.rinshan_tsumo(actions):
                    continue
                self.apply(dora)
                continue
            if phase is Phase.ACT or phase is Phase.RIICHI:
                self.turn(actions)
            elif phase is Phase.DRAW:
                draw = _first(actions, Draw)
                if draw is None:
                    raise SimulationError(f"no draw among {actions}")
                self.apply(draw)
            else:
                self.claim_window(actions)

    def rinshan_tsumo(self, actions: list[Event]) -> bool:
        """Before the indicator of an open kan is turned (Tenhou: after the replacement draw,
        before the discard), ask whether the replacement tile wins: a win comes first and
        the indicator is never turned. Whether the tsumo was taken."""
        seat = self.state.turn
        wins: list[Event] = [a for a in actions if isinstance(a, Win) and a.seat == seat]
        if not wins:
            return False
        if isinstance(self.ask(seat, wins), Win):
            self.apply(wins[0])
            return True
        self.tsumo_declined = True
        return False

    def turn(self, actions: list[Event]) -> None:
        seat = self.state.turn
        options = [action for action in actions if getattr(action, "seat", None) == seat]
        if self.tsumo_declined:
            options = [option for option in options if not isinstance(option, Win)]
        choice = self.bots[seat].choose(self.state, seat, options)
        if choice is None or choice not in options:
            raise SimulationError(f"seat {seat} chose {choice!r}, not one of {options}")
        self.apply(choice)

    def ask(self, seat: int, options: list[Event]) -> Event | None:
        choice = self.bots[seat].choose(self.state, seat, options)
        if choice is not None and choice not in options:
            raise SimulationError(f"seat {seat} chose {choice!r}, not one of {options}")
        return choice

    def claim_window(self, actions: list[Event]) -> None:
        """A discard (CLAIM) or a kan or kita (ROB) may be claimed: rons, then calls, else the
        hand goes on."""
        state = self.state
        players = state.players
        source = state.last_discarder if state.phase is Phase.CLAIM else state.turn
        order = [(source + step) % players for step in range(1, players)]
        rons: list[Win] = []
        for seat in order:
            options: list[Event] = [a for a in actions if isinstance(a, Win) and a.seat == seat]
            if options:
                choice = self.ask(seat, options)
                if isinstance(choice, Win):
                    rons.append(choice)
        if rons:
            self.resolve_rons(rons, source, actions)
            return
        accepted = _first(actions, RiichiAccepted)
        if accepted is not None:
            self.apply(accepted)
            actions = state.legal_actions()
            # Nothing reveals a dora between a discard and its acceptance, but stay general.
            dora = _first(actions, DoraRevealed)
            while dora is not None:
                self.apply(dora)
                actions = state.legal_actions()
                dora = _first(actions, DoraRevealed)
        chosen: dict[int, Event] = {}
        for seat in order:
            options = [a for a in actions if isinstance(a, Chi | Pon | OpenKan) and a.seat == seat]
            if options:
                choice = self.ask(seat, options)
                if choice is not None:
                    chosen[seat] = choice
        for seat in order:  # pon and kan beat chi
            if isinstance(chosen.get(seat), Pon | OpenKan):
                self.apply(chosen[seat])
                return
        if chosen:
            self.apply(next(iter(chosen.values())))
            return
        if state.phase is Phase.CLAIM:
            # A rule modifier's redraw (engine.rules.modifiers): the discarder may draw again.
            redraws: list[Event] = [a for a in actions if isinstance(a, Draw) and a.seat == source]
            if redraws:
                if self.ask(source, redraws) is not None:
                    self.apply(redraws[0])
                    return
                actions = [action for action in actions if action not in redraws]
        self.apply(_continuation(actions))

    def resolve_rons(self, rons: list[Win], source: int, actions: list[Event]) -> None:
        ruleset = self.state.ruleset
        if len(rons) >= 3 and ruleset.sanchahou:
            abort = AbortiveDraw(AbortKind.TRIPLE_RON, source)
            if abort not in actions:
                raise SimulationError(f"three rons but no triple-ron abort among {actions}")
            self.apply(abort)
            return
        for win in rons[: ruleset.max_ron_winners]:
            self.apply(win)

    def recorded_events(self, result: HandResult) -> tuple[Event, ...]:
        """The events with the engine's values as the recorded ones (call after end_round)."""
        events = list(self.events)
        wins = iter(result.wins)
        for index, event in enumerate(events):
            if isinstance(event, Win):
                win = next(wins)
                score = win.score
                limit = "yakuman" if score.limit == "kazoe_yakuman" else score.limit
                events[index] = dataclasses.replace(
                    event,
                    recorded=RecordedWin(
                        han=score.han,
                        fu=score.fu,
                        yaku=tuple((yaku.name, yaku.han) for yaku in score.yaku if yaku.han),
                        points=win.points,
                        limit=limit,
                        deltas=win.deltas,
                        liable=win.liable,
                        hand=self.win_hands[index],
                    ),
                )
        end = events[-1]
        deltas = tuple(result.deltas)
        if isinstance(end, ExhaustiveDraw):
            events[-1] = ExhaustiveDraw(recorded_tenpai=result.tenpai, recorded_deltas=deltas)
        elif isinstance(end, NagashiMangan):
            events[-1] = NagashiMangan(end.seats, recorded_deltas=deltas)
        elif isinstance(end, AbortiveDraw):
            events[-1] = AbortiveDraw(end.kind, end.seat, recorded_deltas=deltas)
        return tuple(events)


def _first(actions: list[Event], kind: type[Event] | tuple[type[Event], ...]) -> Event | None:
    for action in actions:
        if isinstance(action, kind):
            return action
    return None


def _continuation(actions: list[Event]) -> Event:
    """The event that follows an unclaimed discard or kan: a forced abortive draw, nagashi
    mangan, the exhaustive draw, or the next draw."""
    for action in actions:
        if isinstance(action, AbortiveDraw) and action.kind is not AbortKind.TRIPLE_RON:
            return action
    for kind in (NagashiMangan, ExhaustiveDraw, Draw):
        found = _first(actions, kind)
        if found is not None:
            return found
    raise SimulationError(f"nothing follows the claim window: {actions}")
