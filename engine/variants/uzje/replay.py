"""Replay an Ùzje game through the rules and compare what the record claims with what the rules
give, in the same report as the riichi replayer (:class:`engine.report.ReplayReport`).

The replay is the loop every family shares (:class:`engine.report.ReplayDriver`) driving an
:class:`~engine.variants.uzje.state.UzjeState` (Ùzje's :class:`~engine.table.Table`): every
event goes through :meth:`UzjeState.apply`; the first one the rules refuse stops the replay with
``illegal_action``, naming the hand (a *game* in the messages, the document's word), the event
(its tiles in UJMJ notation) and the reason. Recorded figures (each win's fan, patterns, limit,
points, score changes and hand; an exhaustive draw's payments, which are none; each hand's
starting position and scores; the final scores) are compared with the engine's; a difference is
a ``score_mismatch`` and the replay goes on from the record's scores.

In the report a win's ``han`` is its fan in tenths, ``yaku`` its patterns (tenths, or limits
for limit-hand patterns), ``limit`` ``"<n>l"``, and ``fu`` is 0. The per-player facts fill what
makes sense in Ùzje (turns, wins, self-draws, deal-ins, points, patterns, claims, open hands,
outcome, score changes); the riichi facts stay at their defaults.

Scores and payments are compared and reported exactly, halves included (``exact``: 2.5 from
each payer of a 5-point self-draw, see :mod:`engine.variants.uzje.scoring`); only the facts,
the statistics' rows, count whole points (a half rounded away from zero).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from engine.errors import EngineError
from engine.events import Event, ExhaustiveDraw, Game, RecordedWin, Round, Win
from engine.game_flow import RoundPosition, whole_points
from engine.report import (
    ReplayDriver,
    ReplayReport,
    RoundFact,
    RoundSummary,
    Verdict,
    WinSummary,
    check_table,
    refused_report,
)
from engine.tiles import Tile
from engine.variants.uzje.events import UzjeEvent
from engine.variants.uzje.rules import UzjeRules, with_overrides
from engine.variants.uzje.scoring import as_recorded_all
from engine.variants.uzje.state import UzjeHandResult, UzjeState, UzjeWin
from engine.variants.uzje.tiles import format_kinds, format_tiles, kind_of


def rules_of(game: Game) -> UzjeRules:
    """The game's rules: its preset with its overrides (:class:`UnknownRulesetError`)."""
    return with_overrides(game.header.ruleset, game.header.rule_overrides)


class _Replay(ReplayDriver[UzjeState, UzjeHandResult]):
    """One Ùzje replay: the shared loop (:class:`~engine.report.ReplayDriver`) over an
    :class:`~engine.variants.uzje.state.UzjeState`. In Ùzje's words a hand is a *game* and a
    whole game a *match*."""

    HAND = "game"
    GAME = "match"

    def __init__(self, game: Game, rules: UzjeRules, stop_at_first: bool) -> None:
        super().__init__(game, rules.name, stop_at_first)
        self.rules = rules

    @staticmethod
    def position_words(position: RoundPosition) -> str:
        return (
            f"{position.name} dealt by seat {position.dealer} ({position.honba} game(s) in a "
            f"row), {position.sticks} stick(s)"
        )

    def new_table(self, first_dealer: int) -> UzjeState:
        return UzjeState(self.rules, first_dealer)

    def starting_scores(self) -> list[int]:
        return [self.rules.starting_points] * self.rules.players

    def scores_as_recorded(self, table: UzjeState) -> list[int]:
        return list(as_recorded_all(table.scores))

    def check_hand(
        self, index: int, round_: Round, result: UzjeHandResult, table: UzjeState
    ) -> None:
        self._compare(round_, result, table)
        self.facts.extend(_facts(index, round_, table, result))
        self.rounds.append(_summary(index, round_, result, table))

    def final_scores(self, table: UzjeState, first_dealer: int) -> list[int]:
        return list(as_recorded_all(table.scores))

    def event_words(self, event: Event) -> str:
        return _event_words(cast(UzjeEvent, event))

    def _compare(self, round_: Round, result: UzjeHandResult, state: UzjeState) -> None:
        wins = iter(result.wins)
        for number, event in enumerate(round_.events):
            if isinstance(event, Win):
                computed = next(wins)
                if event.recorded is not None:
                    self._compare_win(number, event, event.recorded, computed, state)
            elif (
                isinstance(event, ExhaustiveDraw)
                and event.recorded_deltas is not None
                and list(event.recorded_deltas) != list(result.deltas)
            ):
                self.differ(
                    Verdict.SCORE_MISMATCH,
                    number,
                    "draw payments",
                    list(result.deltas),
                    list(event.recorded_deltas),
                )

    def _compare_win(
        self, number: int, event: Win, recorded: RecordedWin, computed: UzjeWin, state: UzjeState
    ) -> None:
        value = computed.value
        checks: list[tuple[str, Any, Any]] = []
        if recorded.hand is not None:
            data = state.seats[computed.seat]
            mine = [kind for kind, count in enumerate(data.counts) for _ in range(count)]
            if computed.special is None and not event.tsumo:
                mine.append(computed.tile)
            theirs = sorted(kind_of(value) for value in recorded.hand)
            if sorted(mine) != theirs:
                checks.append(("winning hand", format_kinds(mine), format_kinds(theirs)))
        if recorded.yaku is not None and sorted(recorded.yaku) != sorted(value.patterns):
            checks.append(("patterns", _patterns(value.patterns), _patterns(recorded.yaku)))
        fan = None if value.limit_patterns else value.fan
        if recorded.han is not None and recorded.han != fan:
            checks.append(("fan (tenths)", fan, recorded.han))
        if recorded.limit is not None:
            ours = f"{value.limits}l" if value.limits else None
            if recorded.limit != ours:
                checks.append(("limit", ours or "no limit", recorded.limit))
        if recorded.points is not None and recorded.points != value.points:
            checks.append(("points", value.points, recorded.points))
        if recorded.deltas is not None and tuple(recorded.deltas) != computed.deltas:
            checks.append(("score changes", list(computed.deltas), list(recorded.deltas)))
        self.differ_in_win(number, computed.seat, checks)


def _facts(index: int, round_: Round, state: UzjeState, result: UzjeHandResult) -> list[RoundFact]:
    """Each player's facts of a hand that ended (``state`` after ``end_round``), in whole
    points."""
    facts = [
        RoundFact(round=index, round_name=round_.name, seat=seat, dealer=seat == round_.dealer)
        for seat in range(state.players)
    ]
    for fact in facts:
        data = state.seats[fact.seat]
        fact.turns = data.draws
        fact.calls = data.claims
        fact.open_hand = data.open
        fact.outcome = result.kind
        fact.score_after = whole_points(state.scores[fact.seat])
        fact.delta = whole_points(state.scores[fact.seat] - round_.scores[fact.seat])
    for win in result.wins:
        fact = facts[win.seat]
        fact.won = True
        fact.tsumo = win.seat == win.from_seat
        fact.win_points = whole_points(win.deltas[win.seat])
        fact.han = win.value.fan
        fact.limit_hand = win.value.limits > 0
        fact.yaku = [name for name, _ in win.value.patterns]
        fact.win_turn = state.seats[win.seat].draws
        if not fact.tsumo:
            loser = facts[win.from_seat]
            loser.dealt_in = True
            loser.deal_in_points += whole_points(-win.deltas[win.from_seat])
            loser.dealt_in_to = "open" if fact.open_hand else "dama"
    return facts


def _summary(index: int, round_: Round, result: UzjeHandResult, state: UzjeState) -> RoundSummary:
    summary = RoundSummary(
        index=index,
        name=round_.name,
        honba=round_.honba,
        result=result.kind,
        deltas=list(as_recorded_all(result.deltas)),
        scores_after=list(as_recorded_all(state.scores)),
    )
    for win in result.wins:
        value = win.value
        summary.wins.append(
            WinSummary(
                seat=win.seat,
                from_seat=win.from_seat,
                han=value.fan,
                fu=0,
                yaku=list(value.patterns),
                limit=f"{value.limits}l" if value.limits else None,
                points=value.points,
                deltas=list(as_recorded_all(win.deltas)),
                liable=None,
            )
        )
    return summary


def _patterns(patterns: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{name} {amount}" for name, amount in sorted(patterns)) or "none"


def _event_words(event: UzjeEvent) -> str:
    """An event in words, its tiles in UJMJ notation (``Discard(seat=1, tile=fs, ...)``)."""
    parts = []
    for name in getattr(event, "__dataclass_fields__", {}):
        value = getattr(event, name)
        if name != "recorded" and value is not None:
            parts.append(f"{name}={_value_words(value)}")
    return f"{type(event).__name__}({', '.join(parts)})"


def _value_words(value: object) -> str:
    tiles = value if isinstance(value, tuple) else (value,)
    if tiles and all(isinstance(item, Tile) for item in tiles):
        try:
            return format_tiles(cast(tuple[Tile, ...], tiles), sort=False)
        except EngineError:  # not an Ùzje tile: as the engine writes it
            pass
    return str(value)


def replay(game: Game, *, stop_at_first: bool = False) -> ReplayReport:
    """Replay an Ùzje game and compare the record with the rules. Never raises for a bad
    record: unknown rules give ``unsupported``, a wrong player count ``malformed``."""
    try:
        rules = rules_of(game)
    except EngineError as error:
        return refused_report(
            Verdict.UNSUPPORTED,
            "rule set",
            "a known Ùzje rule set",
            str(error),
            game.header.ruleset,
        )
    refusal = check_table(game, rules.players, rules.name)
    return refusal or _Replay(game, rules, stop_at_first).run()
