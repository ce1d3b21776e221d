"""What a replay reports, the bookkeeping every family's replayer shares, and the replay loop.

The report types (:class:`ReplayReport`, :class:`Discrepancy`, :class:`RoundSummary`,
:class:`RoundFact`, ...) and :class:`ReplayLedger` are the contract between the replayers
(riichi's in :mod:`engine.variants.riichi.replay`, each game family's own, found through
:mod:`engine.families`) and their readers (the service's verification, the statistics, the
viewer). They live here, below every replayer, so that a family's replayer never imports another
family's.

:class:`ReplayDriver` is the replay loop itself, hand after hand, written once against the
table protocol (:class:`engine.table.Table`); a family's replayer subclasses it and supplies
only what differs (its table, how it compares a finished hand with the record, its facts).
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from engine.errors import IllegalActionError
from engine.events import Event, Game, Round
from engine.game_flow import RoundPosition, first_position, placements
from engine.table import Table


class Verdict(StrEnum):
    """The outcome of a replay."""

    #: A whole game, from its first hand to its end: every action legal, every recorded figure
    #: (the end of the game and the final scores included) equal to the engine's.
    VERIFIED = "verified"
    #: Part of a game (a record that starts after the first hand, or stops before the end):
    #: every action and figure it holds agrees, but the whole game was not checked.
    VERIFIED_FRAGMENT = "verified_fragment"
    #: Every action legal, but a recorded figure differs from the engine's.
    SCORE_MISMATCH = "score_mismatch"
    #: An event the rules do not allow at that point.
    ILLEGAL_ACTION = "illegal_action"
    #: The record uses rules or features the engine does not support.
    UNSUPPORTED = "unsupported"
    #: The record could not be read.
    MALFORMED = "malformed"


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """Where and how the record and the rules disagree."""

    verdict: Verdict
    #: Index of the hand in the game (``None``: about the whole game), and its name (``E3``).
    round: int | None
    round_name: str | None
    #: Index of the event within the hand (``None``: about the hand's start or end).
    event: int | None
    #: What was compared (``han``, ``deltas``, ``action``, ``start scores``, ...).
    what: str
    expected: str
    found: str

    @property
    def message(self) -> str:
        """The discrepancy in words."""
        where = "game"
        if self.round is not None:
            where = f"round {self.round + 1} ({self.round_name})"
            if self.event is not None:
                where += f", event {self.event}"
        if self.verdict is Verdict.ILLEGAL_ACTION:
            return f"{where}: illegal {self.what}: {self.expected}; the record has {self.found}"
        return f"{where}: {self.what}: the rules give {self.expected}, the record says {self.found}"

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "round": self.round,
            "round_name": self.round_name,
            "event": self.event,
            "what": self.what,
            "expected": self.expected,
            "found": self.found,
            "message": self.message,
        }


@dataclass(slots=True)
class WinSummary:
    """One win as the engine values it."""

    seat: int
    from_seat: int
    han: int
    fu: int
    yaku: list[tuple[str, int]]
    limit: str | None
    points: int
    deltas: list[int]
    liable: int | None


@dataclass(slots=True)
class RoundSummary:
    """One hand's result as the engine computes it."""

    index: int
    name: str
    honba: int
    #: ``win``, ``exhaustive_draw``, ``nagashi_mangan``, ``abortive_draw``, or ``unfinished``.
    result: str
    wins: list[WinSummary] = field(default_factory=list)
    deltas: list[int] = field(default_factory=list)
    tenpai: list[int] = field(default_factory=list)
    abort: str | None = None
    scores_after: list[int] = field(default_factory=list)


@dataclass(slots=True)
class RoundFact:
    """What one player did in one hand: the row every statistic is computed from."""

    round: int
    round_name: str
    seat: int
    dealer: bool
    #: Turns (draws) the player had in the hand.
    turns: int = 0
    won: bool = False
    tsumo: bool = False
    dealt_in: bool = False
    #: Points the win brought (honba and sticks included), or that the deal-in cost.
    win_points: int = 0
    deal_in_points: int = 0
    han: int = 0
    fu: int = 0
    #: The win is a limit hand: a yakuman (counted ones included) or an Ùzje limit. ``han``
    #: cannot tell: it is points in small mahjong and fan tenths in Ùzje.
    limit_hand: bool = False
    yaku: list[str] = field(default_factory=list)
    ura: int = 0
    ippatsu: bool = False
    #: The turn of the win (the winner's draws so far).
    win_turn: int = 0
    riichi: bool = False
    riichi_turn: int = 0
    #: Another player declared riichi earlier in the hand (a chasing riichi).
    riichi_chasing: bool = False
    #: Number of kinds the riichi waited on.
    riichi_wait_kinds: int = 0
    #: Open melds called (closed kans are not calls).
    calls: int = 0
    #: The hand was open at the end.
    open_hand: bool = False
    #: Tenpai at an exhaustive draw (``None`` when the hand did not end that way).
    tenpai_at_draw: bool | None = None
    #: The winner's hand type when this player dealt in: ``riichi``, ``open`` or ``dama``.
    dealt_in_to: str | None = None
    #: How the hand ended for everyone: win, exhaustive_draw, nagashi_mangan, abortive_draw.
    outcome: str = ""
    #: Score change over the hand, the riichi stick included.
    delta: int = 0
    score_after: int = 0


@dataclass(slots=True)
class ReplayReport:
    """The result of :func:`replay`."""

    verdict: Verdict
    #: The first disagreement, or ``None`` when verified.
    discrepancy: Discrepancy | None
    #: Every disagreement found (a replay stops at an illegal action).
    discrepancies: list[Discrepancy]
    #: Whether the record reaches the end of the game.
    complete: bool
    rounds: list[RoundSummary]
    facts: list[RoundFact]
    ruleset: str
    #: Final scores and placements by the engine's count (``None`` for an unfinished game).
    final_scores: list[int] | None = None
    placements: list[int] | None = None
    events: int = 0
    #: Which part of a game the record holds, in words, when it is not a whole game (the
    #: verdict is then at best ``verified_fragment``).
    fragment: str | None = None
    #: Final points (score less the return, in thousands, with uma and oka) by the rules, of
    #: the record's final scores; ``None`` for an unfinished game.
    points: list[float] | None = None
    #: The reader's warnings about the record (``Game.warnings``); they never change the verdict.
    warnings: list[str] = field(default_factory=list)
    #: The older rules the record was judged by, in words, where the rules of its header (today's
    #: for a record of unknown date) do not fit it and its date does not rule those out (a
    #: platform's rule history, ``docs/rules.md``); ``None`` when the header's rules fit.
    era: str | None = None

    @property
    def agrees(self) -> bool:
        """Whether the record fits the rules it was judged by (``verified``, or
        ``verified_fragment`` for a part of a game): what its statistics and study count."""
        return self.verdict in (Verdict.VERIFIED, Verdict.VERIFIED_FRAGMENT)

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON values (facts left out: they are large)."""
        return {
            "verdict": self.verdict.value,
            "discrepancy": None if self.discrepancy is None else self.discrepancy.to_json(),
            "discrepancies": [d.to_json() for d in self.discrepancies],
            "complete": self.complete,
            "fragment": self.fragment,
            "ruleset": self.ruleset,
            "final_scores": self.final_scores,
            "placements": self.placements,
            "points": self.points,
            "events": self.events,
            "rounds": [round_json(summary) for summary in self.rounds],
            "warnings": self.warnings,
            "era": self.era,
        }


def round_json(summary: RoundSummary) -> dict[str, Any]:
    return {
        "index": summary.index,
        "name": summary.name,
        "honba": summary.honba,
        "result": summary.result,
        "wins": [
            {
                "seat": win.seat,
                "from_seat": win.from_seat,
                "han": win.han,
                "fu": win.fu,
                "yaku": [list(pair) for pair in win.yaku],
                "limit": win.limit,
                "points": win.points,
                "deltas": win.deltas,
                "liable": win.liable,
            }
            for win in summary.wins
        ],
        "deltas": summary.deltas,
        "tenpai": summary.tenpai,
        "abort": summary.abort,
        "scores_after": summary.scores_after,
    }


class ReplayLedger:
    """The bookkeeping every replayer shares (riichi's in :mod:`engine.variants.riichi.replay`,
    Ùzje's in :mod:`engine.variants.uzje.replay`): the discrepancies and where they are, when to
    stop, the checks at each hand's start and at the game's end, and the report.
    :class:`ReplayDriver` adds the replay loop.

    ``HAND`` and ``GAME`` name the units in messages (Ùzje calls a hand a game and a game a
    match); :meth:`position_words` says where a hand stands.
    """

    HAND = "hand"
    GAME = "game"

    def __init__(self, game: Game, ruleset_name: str, stop_at_first: bool) -> None:
        self.game = game
        self.ruleset_name = ruleset_name
        self.stop_at_first = stop_at_first
        self.discrepancies: list[Discrepancy] = []
        self.rounds: list[RoundSummary] = []
        self.facts: list[RoundFact] = []
        self.events = 0
        self.round_index = 0
        self.round_name = ""
        #: What the replay assumed where the record is silent, for the report's warnings.
        self.notes: list[str] = []
        #: The record starts after the game's first hand (set by the replayer).
        self.starts_late = False

    @staticmethod
    def position_words(position: RoundPosition) -> str:
        return (
            f"{position.name} dealt by seat {position.dealer}, {position.honba} honba, "
            f"{position.sticks} riichi stick(s)"
        )

    def differ(
        self, verdict: Verdict, event: int | None, what: str, expected: Any, found: Any
    ) -> None:
        self.discrepancies.append(
            Discrepancy(
                verdict,
                self.round_index,
                self.round_name,
                event,
                what,
                words(expected),
                words(found),
            )
        )

    def differ_in_win(self, number: int, seat: int, checks: list[tuple[str, Any, Any]]) -> None:
        """One score mismatch per ``(what, ours, theirs)`` check of seat's win at event number."""
        for what, ours, theirs in checks:
            self.differ(Verdict.SCORE_MISMATCH, number, f"seat {seat}'s win: {what}", ours, theirs)

    def stop(self) -> bool:
        return bool(self.discrepancies) and (
            self.stop_at_first or self.discrepancies[-1].verdict is Verdict.ILLEGAL_ACTION
        )

    def begin_round(
        self, index: int, round_: Round, expected: RoundPosition | None, scores: list[int]
    ) -> bool:
        """Enter a hand: whether it may be played (the game is not over, and it starts where
        and with the scores the previous hand left, or the differences are only noted)."""
        self.round_index, self.round_name = index, round_.name
        if expected is None:
            self.differ(
                Verdict.ILLEGAL_ACTION,
                None,
                self.HAND,
                f"the {self.GAME} is over",
                f"another {self.HAND} ({round_.name})",
            )
            return False
        if position_of(round_) != expected:
            self.differ(
                Verdict.SCORE_MISMATCH,
                None,
                f"{self.HAND} start",
                self.position_words(expected),
                self.position_words(position_of(round_)),
            )
        if list(round_.scores) != scores:
            self.differ(Verdict.SCORE_MISMATCH, None, "start scores", scores, list(round_.scores))
        return not self.stop()

    def report(
        self,
        complete: bool,
        final: list[int] | None,
        expected: RoundPosition | None,
        first_dealer: int,
    ) -> ReplayReport:
        """Check the game's end (``final``: the engine's final scores of a complete game) and
        report everything found."""
        game = self.game
        places = None if final is None else list(placements(final, first_dealer))
        if final is not None:
            recorded = game.recorded_final
            if recorded is not None and list(recorded.scores) != final:
                self.round_index, self.round_name = len(game.rounds) - 1, game.rounds[-1].name
                self.differ(
                    Verdict.SCORE_MISMATCH, None, "final scores", final, list(recorded.scores)
                )
        elif game.recorded_final is not None and not self.stop() and expected is not None:
            self.differ(
                Verdict.ILLEGAL_ACTION,
                None,
                f"{self.GAME} end",
                f"another {self.HAND} ({self.position_words(expected)})",
                f"the end of the {self.GAME}",
            )
        first = self.discrepancies[0] if self.discrepancies else None
        agrees = Verdict.VERIFIED if complete else Verdict.VERIFIED_FRAGMENT
        part = None
        stopped = first is not None and first.verdict is Verdict.ILLEGAL_ACTION
        if not complete and not stopped and game.rounds:
            count = len(game.rounds)
            hands = f"{count} {self.HAND}{'s' if count > 1 else ''}, {named_round(game.rounds[0])}"
            if count > 1:
                hands += f" to {named_round(game.rounds[-1])}"
            reason = (
                f"it starts after the {self.GAME}'s first {self.HAND}"
                if self.starts_late
                else f"it stops before the end of the {self.GAME}"
            )
            part = f"the record holds part of a {self.GAME} ({hands}): {reason}"
        return ReplayReport(
            verdict=agrees if first is None else first.verdict,
            discrepancy=first,
            discrepancies=self.discrepancies,
            complete=complete,
            rounds=self.rounds,
            facts=self.facts,
            ruleset=self.ruleset_name,
            final_scores=final,
            placements=places,
            events=self.events,
            warnings=[*game.warnings, *self.notes],
            fragment=part,
        )


#: A family's table (its state machine) and the result of one of its finished hands.
TableT = TypeVar("TableT", bound=Table[Any])
TableT_contra = TypeVar("TableT_contra", bound=Table[Any], contravariant=True)
ResultT = TypeVar("ResultT")


class RoundFollower(Protocol[TableT_contra]):
    """Pushes each hand's events into the table in a driver's stead, to follow the hand as
    it goes (the study aids, counted in the verification's own pass: :mod:`engine.study`)."""

    def push_round(self, index: int, round_: Round, table: TableT_contra) -> tuple[int, str] | None:
        """:meth:`~engine.table.Table.push_events` of ``round_``'s events on ``table`` (dealt),
        the ``index``-th hand of the record, following each."""


class ReplayDriver(ReplayLedger, ABC, Generic[TableT, ResultT]):
    """The replay loop, hand after hand, that every family's replayer shares: one
    :class:`~engine.table.Table` follows the whole game.

    :meth:`run` decides where the record starts (a record that starts after the game's first
    hand, or with other scores, is a fragment, replayed from its own first hand), and for each
    hand checks where and with which scores it starts (:meth:`ReplayLedger.begin_round`), deals
    it (a deal the table refuses is an ``illegal_action`` of the ``deal``), pushes its events in
    one call (:meth:`~engine.table.Table.push_events`: the per-event work stays in the family's
    table; the first refused event is an ``illegal_action`` named by :meth:`event_words`), and,
    once the hand has ended, settles it, ends it, and hands the result to :meth:`check_hand`.
    It stops where :meth:`ReplayLedger.stop` says, and reports, with the game's final scores
    when the record reaches the end of the game.

    A family supplies :meth:`new_table`, :meth:`starting_scores`, :meth:`scores_as_recorded`,
    :meth:`check_hand` and :meth:`final_scores`, and may override :meth:`prepare`,
    :meth:`first_position`, :meth:`event_words` and :meth:`check_game`.
    """

    #: Pushes each hand's events in the driver's stead, following them (``None``: the table's
    #: own loop, :meth:`~engine.table.Table.push_events`).
    follower: RoundFollower[TableT] | None = None

    def run(self) -> ReplayReport:
        """Replay the game and report."""
        rounds = self.game.rounds
        first_dealer = rounds[0].dealer if rounds else 0
        self.prepare(first_dealer)
        table = self.new_table(first_dealer)
        expected: RoundPosition | None = self.first_position(first_dealer)
        expected_scores = self.starting_scores()
        # A record that starts later than the first hand (a fragment: one hand cut out of a
        # game) is replayed from its own first hand; it cannot prove the whole game.
        fragment = bool(rounds) and (
            position_of(rounds[0]) != expected or list(rounds[0].scores) != expected_scores
        )
        if fragment:
            self.starts_late = True
            expected = position_of(rounds[0])
            expected_scores = list(rounds[0].scores)
        complete = False
        for index, round_ in enumerate(rounds):
            if not self.begin_round(index, round_, expected, expected_scores):
                break
            try:
                table.start_round(round_)
            except IllegalActionError as error:
                self.differ(Verdict.ILLEGAL_ACTION, None, "deal", str(error), "this deal")
                break
            events = round_.events
            follower = self.follower
            if follower is None:
                refused = table.push_events(events)
            else:
                refused = follower.push_round(index, round_, table)
            if refused is not None:
                number, problem = refused
                self.differ(
                    Verdict.ILLEGAL_ACTION,
                    number,
                    "action",
                    problem,
                    self.event_words(events[number]),
                )
                self.events += number
                break
            self.events += len(events)
            if not table.finished:
                break
            result: ResultT = table.settle()
            expected = table.end_round()
            expected_scores = self.scores_as_recorded(table)
            self.check_hand(index, round_, result, table)
            if self.stop():
                break
        else:
            complete = expected is None and not fragment
        final = self.final_scores(table, first_dealer) if complete else None
        report = self.report(complete, final, expected, first_dealer)
        self.check_game(report, final, first_dealer)
        return report

    # -- what each family supplies -----------------------------------------------------------

    def prepare(self, first_dealer: int) -> None:
        """Before the first hand: what the record's start says about the rules (riichi: a
        whole game from other starting points). Nothing by default."""

    @abstractmethod
    def new_table(self, first_dealer: int) -> TableT:
        """The family's table for the whole game."""

    def first_position(self, first_dealer: int) -> RoundPosition:
        """Where a whole game starts: East 1 with no counters."""
        return first_position(first_dealer)

    @abstractmethod
    def starting_scores(self) -> list[int]:
        """Every seat's score at the start of a whole game."""

    @abstractmethod
    def scores_as_recorded(self, table: TableT) -> list[int]:
        """The table's scores as a record writes them (the next hand's start scores)."""

    @abstractmethod
    def check_hand(self, index: int, round_: Round, result: ResultT, table: TableT) -> None:
        """A hand that ended (settled into the scores by ``end_round``): compare the record's
        figures with ``result`` (:meth:`ReplayLedger.differ`), and add its summary to
        :attr:`rounds` and its facts to :attr:`facts`."""

    @abstractmethod
    def final_scores(self, table: TableT, first_dealer: int) -> list[int]:
        """The engine's final scores of a game played to its end."""

    def event_words(self, event: Event) -> str:
        """A refused event in words (:func:`event_words`)."""
        return event_words(event)

    def check_game(self, report: ReplayReport, final: list[int] | None, first_dealer: int) -> None:
        """After the report: the family's checks of the game's end (riichi: the final
        points). Nothing by default."""


def event_words(event: Any) -> str:
    """An event in words, as a discrepancy names the refused one: its type and every field
    but the recorded figures (``Discard(seat=1, tile=5m, tsumogiri=False)``)."""
    parts = [
        f"{spec.name}={getattr(event, spec.name)}"
        for spec in dataclasses.fields(event)
        if spec.name != "recorded" and getattr(event, spec.name) is not None
    ]
    return f"{type(event).__name__}({', '.join(parts)})"


def named_round(round_: Round) -> str:
    """A hand's name with its counters: ``E1``, ``E1-2`` (two honba)."""
    return f"{round_.name}-{round_.honba}" if round_.honba else round_.name


def refused_report(
    verdict: Verdict, what: str, expected: str, found: str, ruleset: str
) -> ReplayReport:
    """The report of a game refused before its first hand (unknown rules, wrong players)."""
    discrepancy = Discrepancy(verdict, None, None, None, what, expected, found)
    return ReplayReport(verdict, discrepancy, [discrepancy], False, [], [], ruleset)


def check_table(game: Game, players: int, ruleset: str) -> ReplayReport | None:
    """A refusal when the game does not seat the rule set's number of players."""
    if game.players == players:
        return None
    return refused_report(
        Verdict.MALFORMED,
        "players",
        f"{players} players for {ruleset}",
        f"{game.players} players",
        ruleset,
    )


def is_limit_hand(limit: str | None) -> bool:
    """Whether a riichi limit is a limit hand: ``yakuman``, ``double_yakuman``,
    ``kazoe_yakuman`` ...; mangan to sanbaiman are not."""
    return limit is not None and limit.endswith("yakuman")


def position_of(round_: Round) -> RoundPosition:
    """Where a recorded hand says it stands in the game."""
    return RoundPosition(round_.wind, round_.number, round_.dealer, round_.honba, round_.sticks)


def words(value: Any) -> str:
    """A compared value as a discrepancy states it (lists as ``[1, 2]``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)
