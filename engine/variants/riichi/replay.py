"""Riichi's replayer: riichi's table, comparisons of a finished hand, facts, and the game's final
scores and points, in the loop every family shares.

:func:`replay` applies every event of a :class:`~engine.events.Game` through
:class:`~engine.state.GameState`. An event the rules do not allow stops the replay with the verdict
``illegal_action``. Where the record states a value (a win's han, fu, yaku and points, the score
changes of a hand, the counters and scores each hand starts with, the final scores), the engine's
own value is compared with it; the first difference gives the verdict ``score_mismatch``, and the
replay goes on (the next hand starts from the scores the record gives) so that every difference is
listed. The report also carries each hand's result and one row of facts per player per hand, the
raw material of the statistics. A record that does not fit the rules its header names is tried
under the older eras of its platform's rules that its date does not rule out.

The loop, hand after hand, is the one every family shares (:class:`engine.report.ReplayDriver`,
over the :class:`~engine.table.Table` protocol); this module gives it riichi's table, riichi's
comparisons of a finished hand, its facts, and the game's final scores and points. The riichi
family (:mod:`engine.variants.riichi.family`) hands it riichi games; everyone else asks
:func:`engine.replay.replay`, which finds a game's family.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError
from engine.events import (
    AbortiveDraw,
    ExhaustiveDraw,
    Game,
    NagashiMangan,
    RecordedWin,
    Round,
    Win,
)
from engine.game_flow import final_points, final_scores, first_position
from engine.report import (
    ReplayDriver,
    ReplayReport,
    RoundFact,
    RoundFollower,
    RoundSummary,
    Verdict,
    WinSummary,
    check_table,
    is_limit_hand,
    position_of,
    refused_report,
)
from engine.rules.modifiers import modifier_of_entry
from engine.rules.presets import ruleset_of
from engine.rules.ruleset import PointsRounding, Ruleset
from engine.rules.tenhou import log_date, rule_eras
from engine.state import GameState, HandResult, WinResult
from engine.tiles import FOREIGN_SHIFT, Tile, format_tiles

#: Dora-like entries: Tenhou folds north extraction (kita) into ``dora``, so they are compared as
#: one sum.
_DORA_FAMILY = ("dora", "kita")

__all__ = ["replay"]


class _Replay(ReplayDriver[GameState, HandResult]):
    """One riichi replay: the shared loop (:class:`~engine.report.ReplayDriver`) over a
    :class:`~engine.state.GameState`, with riichi's comparisons, facts and final points."""

    def __init__(self, game: Game, ruleset: Ruleset, stop_at_first: bool) -> None:
        super().__init__(game, ruleset.name, stop_at_first)
        self.ruleset = ruleset

    def prepare(self, first_dealer: int) -> None:
        if self.game.rounds:
            self._other_starting_points(self.game.rounds[0], first_dealer)

    def new_table(self, first_dealer: int) -> GameState:
        return GameState(self.ruleset, first_dealer=first_dealer)

    def starting_scores(self) -> list[int]:
        return [self.ruleset.starting_points] * self.ruleset.players

    def scores_as_recorded(self, table: GameState) -> list[int]:
        return list(table.scores)

    def check_hand(self, index: int, round_: Round, result: HandResult, table: GameState) -> None:
        self._compare_wins(round_, result, table)
        self._check_end(round_, result)
        self.rounds.append(_summarise(index, round_, result, table))
        self.facts.extend(_facts(index, round_, result, table))

    def final_scores(self, table: GameState, first_dealer: int) -> list[int]:
        return final_scores(table.scores, table.sticks, self.ruleset, first_dealer)

    def check_game(self, report: ReplayReport, final: list[int] | None, first_dealer: int) -> None:
        if final is not None:
            self._check_final_points(report, final, first_dealer)

    def _check_final_points(
        self, report: ReplayReport, final: list[int], first_dealer: int
    ) -> None:
        """Give the report the game's final points, and compare them with the record's (Tenhou's
        ``owari``, a tenhou.net/6 ``sc``). They are computed from the record's final scores
        when it has them, so that a difference in the scores is not counted twice."""
        recorded = self.game.recorded_final
        scores = (
            list(recorded.scores)
            if recorded is not None and len(recorded.scores) == len(final)
            else final
        )
        ways = final_points(scores, self.ruleset, first_dealer)
        if not ways:  # points by rules the record does not state
            return
        theirs = (
            None
            if recorded is None or recorded.results is None or len(recorded.results) != len(final)
            else tuple(round(result * 10) for result in recorded.results)
        )
        ours = next((way for way in ways if way == theirs), ways[0])
        report.points = [tenths / 10 for tenths in ours]
        if theirs is None or ours == theirs:
            return
        self.round_index, self.round_name = len(self.game.rounds) - 1, self.game.rounds[-1].name
        self.differ(
            Verdict.SCORE_MISMATCH,
            None,
            "final points",
            [tenths / 10 for tenths in ours],
            [tenths / 10 for tenths in theirs],
        )
        first = self.discrepancies[0]
        report.verdict, report.discrepancy = first.verdict, first

    def _other_starting_points(self, first: Round, first_dealer: int) -> None:
        """A record that starts at the first hand, every seat with the same score, holds a
        whole game, whatever points it started with (a tournament room's 30,000, a custom
        lobby's): the replay plays it from them and checks its end. Where the rule set does not
        say what first place then needs to end the game, nor where its points count from, the
        starting points are taken for the target, the final points are left unchecked, and the
        report says so."""
        ruleset = self.ruleset
        start = first.scores[0] if first.scores else ruleset.starting_points
        if (
            start == ruleset.starting_points
            or position_of(first) != first_position(first_dealer)
            or any(score != start for score in first.scores)
            or start <= 0
        ):
            return
        target = max(ruleset.target_points, start)
        self.ruleset = ruleset.replace(
            starting_points=start,
            target_points=target,
            points_rounding=PointsRounding.UNCHECKED,
        )
        self.notes.append(
            f"the game starts at {start:,} points a seat, not {ruleset.name}'s "
            f"{ruleset.starting_points:,}: replayed as a whole game from {start:,}, first place "
            f"needing {target:,} to end it; its final points, which count by rules the record "
            "does not state, are not checked"
        )

    def _compare_wins(self, round_: Round, result: HandResult, state: GameState) -> None:
        """Compare each recorded win with the engine's, once the hand is settled (the sticks of
        a multiple ron may move to another winner at the end)."""
        events = round_.events
        # Start at the first win, found by a scan in C (most events are draws and discards).
        try:
            first = list(map(type, events)).index(Win)
        except ValueError:
            return
        wins = iter(result.wins)
        for number in range(first, len(events)):
            event = events[number]
            if type(event) is Win:
                computed = next(wins)
                if event.recorded is not None:
                    self._compare_win(number, event, event.recorded, computed, state)

    def _compare_win(
        self,
        number: int,
        event: Win,
        recorded: RecordedWin,
        computed: WinResult,
        state: GameState,
    ) -> None:
        score = computed.score
        yakuman = score.yakuman > 0
        checks: list[tuple[str, Any, Any]] = []
        if recorded.yaku is not None:
            checks.extend(_foreign_entries(recorded.yaku, computed.seat, state))
        if recorded.hand is not None:
            # After a tsumo the drawn tile is already in the hand; a ron tile is not.
            mine = state.seats[computed.seat].tiles()
            if not event.tsumo:
                mine.append(event.tile)
            if not _same_tiles(mine, recorded.hand):
                checks.append(
                    (
                        "winning hand",
                        format_tiles(mine, sort=True),
                        format_tiles(recorded.hand, sort=True),
                    )
                )
        if recorded.yaku is not None:
            ours = _normalise_yaku(tuple((y.name, y.han) for y in score.yaku))
            theirs = _normalise_yaku(recorded.yaku)
            if ours != theirs:
                checks.append(("yaku", _yaku_words(ours), _yaku_words(theirs)))
        if recorded.han is not None and recorded.han != score.han:
            checks.append(("han", score.han, recorded.han))
        if recorded.fu is not None and not yakuman and recorded.fu != score.fu:
            checks.append(("fu", score.fu, recorded.fu))
        if recorded.limit is not None:
            ours_limit = _normalise_limit(score.limit)
            if _normalise_limit(recorded.limit) != ours_limit:
                checks.append(("limit", ours_limit or "no limit", recorded.limit or "no limit"))
        if recorded.points is not None and recorded.points != computed.points:
            checks.append(("points", computed.points, recorded.points))
        if recorded.deltas is not None and tuple(recorded.deltas) != computed.deltas:
            checks.append(("score changes", list(computed.deltas), list(recorded.deltas)))
        if recorded.liable is not None and recorded.liable != computed.liable:
            checks.append(("liable player (pao)", computed.liable, recorded.liable))
        self.differ_in_win(number, computed.seat, checks)

    def _check_end(self, round_: Round, result: HandResult) -> None:
        end = round_.events[-1] if round_.events else None
        index = len(round_.events) - 1
        if isinstance(end, ExhaustiveDraw | NagashiMangan):
            if end.recorded_deltas is not None and list(end.recorded_deltas) != result.deltas:
                self.differ(
                    Verdict.SCORE_MISMATCH,
                    index,
                    "draw payments",
                    result.deltas,
                    list(end.recorded_deltas),
                )
            tenpai = end.recorded_tenpai if isinstance(end, ExhaustiveDraw) else None
            if tenpai is not None and sorted(tenpai) != list(result.tenpai):
                self.differ(
                    Verdict.SCORE_MISMATCH,
                    index,
                    "tenpai players",
                    list(result.tenpai),
                    sorted(tenpai),
                )
        elif isinstance(end, AbortiveDraw) and end.recorded_deltas and any(end.recorded_deltas):
            self.differ(
                Verdict.SCORE_MISMATCH,
                index,
                "abortive draw payments",
                "none",
                list(end.recorded_deltas),
            )


def _same_tiles(mine: list[Tile], theirs: tuple[Tile, ...]) -> bool:
    """Whether two lists hold the same tiles, in any order: ``sorted(mine) ==
    sorted(theirs)``, without sorting when every tile is of the standard layout. The sum of the
    tiles' packed counts (:data:`engine.tiles.PACKED_BYTES`) then counts each kind and its red
    fives, which is what tells such tiles apart (fewer than 256 tiles carry no byte over)."""
    if len(mine) > 255 or len(theirs) > 255:
        return sorted(mine) == sorted(theirs)
    packed = 0
    for tile in mine:
        packed += tile.packed
    other = 0
    for tile in theirs:
        other += tile.packed
    if (packed | other) >> FOREIGN_SHIFT:  # a tile of another layout: compare the tiles
        return sorted(mine) == sorted(theirs)
    return packed == other


def _foreign_entries(
    yaku: Sequence[tuple[str, int]], seat: int, state: GameState
) -> list[tuple[str, Any, Any]]:
    """A check per recorded entry of a rule modifier (``lucky_seven``) that is not one of the
    winner's powers: the record gives the seat a power it did not choose (a seat's power
    applies to its own wins alone), said as such rather than only as other yaku."""
    powers = set(state.ruleset.powers_of(seat))
    checks: list[tuple[str, Any, Any]] = []
    for name, han in yaku:
        owner = modifier_of_entry(name)
        if owner is not None and owner not in powers:
            checks.append(
                (
                    f"{name} (an entry of the {owner} power)",
                    f"none: {owner} is not seat {seat}'s power ({state.powers_words(seat)})",
                    f"{name} {han}",
                )
            )
    return checks


def _normalise_yaku(yaku: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Yaku with han, zero-han entries dropped and dora-like entries folded as Tenhou does."""
    folded: dict[str, int] = {}
    for name, han in yaku:
        if not han:
            continue
        key = "dora" if name in _DORA_FAMILY else name
        folded[key] = folded.get(key, 0) + han
    return tuple(sorted(folded.items()))


def _yaku_words(yaku: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{name} {han}" for name, han in yaku) or "none"


def _normalise_limit(limit: str | None) -> str | None:
    if limit == "kazoe_yakuman":
        return "yakuman"
    return limit


def _summarise(index: int, round_: Round, result: HandResult, state: GameState) -> RoundSummary:
    summary = RoundSummary(
        index=index,
        name=round_.name,
        honba=round_.honba,
        result=result.kind,
        deltas=list(result.deltas),
        tenpai=list(result.tenpai),
        abort=None if result.abort is None else result.abort.value,
        scores_after=list(state.scores),
    )
    for win in result.wins:
        score = win.score
        summary.wins.append(
            WinSummary(
                seat=win.seat,
                from_seat=win.from_seat,
                han=score.han,
                fu=score.fu,
                yaku=[(y.name, y.han) for y in score.yaku],
                limit=score.limit,
                points=win.points,
                deltas=list(win.deltas),
                liable=win.liable,
            )
        )
    return summary


def _facts(index: int, round_: Round, result: HandResult, state: GameState) -> list[RoundFact]:
    """Each player's facts of a hand that ended (``state`` after ``end_round``)."""
    name, dealer = round_.name, round_.dealer
    start_scores = round_.scores
    facts = [
        RoundFact(round=index, round_name=name, seat=seat, dealer=seat == dealer)
        for seat in range(state.players)
    ]
    for fact in facts:
        seat = fact.seat
        data = state.seats[seat]
        fact.open_hand = data.open
        fact.calls = len(data.meld_sources) - data.meld_sources.count(None)
        fact.turns = data.draws
        if data.riichi:
            fact.riichi = True
            fact.riichi_turn = data.riichi_turn
            fact.riichi_chasing = data.riichi_order > 0
            fact.riichi_wait_kinds = data.riichi_waits
        fact.outcome = result.kind
        fact.score_after = state.scores[seat]
        fact.delta = state.scores[seat] - start_scores[seat]
        if result.kind in ("exhaustive_draw", "nagashi_mangan"):
            fact.tenpai_at_draw = seat in result.tenpai
    for win in result.wins:
        fact = facts[win.seat]
        score = win.score
        fact.won = True
        fact.tsumo = win.seat == win.from_seat
        fact.win_points = win.deltas[win.seat]
        fact.han = score.han
        fact.fu = score.fu
        fact.limit_hand = is_limit_hand(score.limit)
        fact.yaku = [y.name for y in score.yaku if y.han]
        fact.ura = sum(y.han for y in score.yaku if y.name == "ura_dora")
        fact.ippatsu = any(y.name == "ippatsu" for y in score.yaku)
        fact.win_turn = state.seats[win.seat].draws
        if not fact.tsumo:
            loser = facts[win.from_seat]
            loser.dealt_in = True
            loser.deal_in_points += -win.deltas[win.from_seat]
            loser.dealt_in_to = "riichi" if fact.riichi else "open" if fact.open_hand else "dama"
    return facts


def replay(
    game: Game,
    *,
    stop_at_first: bool = False,
    follower: RoundFollower[GameState] | None = None,
) -> ReplayReport:
    """Replay a riichi game (any rule set of :mod:`engine.rules`) and compare the record with the
    rules (:func:`engine.replay.replay`, which finds a game's family, says what it gives).
    ``follower`` pushes each hand's events under the rule set the header names (not under an
    older era's, should the record need one: a report with an ``era`` was not followed)."""
    try:
        ruleset = ruleset_of(game)
    except EngineError as error:
        return refused_report(
            Verdict.UNSUPPORTED,
            "rule set",
            "a known rule set",
            str(error),
            game.header.ruleset,
        )
    if ruleset.unmodelled:
        return refused_report(
            Verdict.UNSUPPORTED,
            "rules",
            "rules the engine models",
            "; ".join(ruleset.unmodelled),
            ruleset.name,
        )
    refusal = check_table(game, ruleset.players, ruleset.name)
    if refusal is not None:
        return refusal
    judge = _Replay(game, ruleset, stop_at_first)
    judge.follower = follower
    report = judge.run()
    if report.agrees:
        return report
    return _older_era(game, ruleset, report, stop_at_first) or report


def _older_era(
    game: Game, ruleset: Ruleset, today: ReplayReport, stop_at_first: bool
) -> ReplayReport | None:
    """The report under the first older era of the platform's rules that the record fits
    (:func:`engine.rules.tenhou.rule_eras`: those its date, or its lack of one, does not rule
    out), naming it and what the header's rules found; ``None`` when none fits, and the
    header's rules judge the record."""
    header = game.header
    played_on = log_date(header.source.id)
    for era in rule_eras(header.ruleset, ruleset, played_on):
        report = _Replay(game, era.ruleset, stop_at_first).run()
        if report.agrees:
            report.era = era.name
            found = today.discrepancy.message if today.discrepancy else today.verdict.value
            report.warnings.append(
                f"judged by Tenhou's rules of an older era ({era.name}), which its date "
                f"({played_on or 'not known'}) does not rule out: it does not fit "
                f"{ruleset.name} as played today ({found})"
            )
            return report
    return None
