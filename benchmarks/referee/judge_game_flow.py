"""The whole game, judged above the single hand: what each hand carries into the next, when the
game ends, its final scores and its final points.

The peers judge one hand at a time (every action, every win's value and payments, jansou a
hand's settlement). Nothing of theirs looks at what lies between hands, so this judge computes it
again from the record's events, with the rules written down apart from the engine
(:mod:`benchmarks.referee.table_rules`) and a tenpai test of the ``mahjong`` package:

* each hand's own payments where they follow from the rules alone: the noten payments of an
  exhaustive draw (tenpai judged again from the seats' tiles), nagashi mangan's mangan payments,
  nothing on an abortive draw, and a win's payments adding up to the riichi sticks the winner
  collects (the payments themselves are the peers' to judge: riichienv and jansou);
* what the next hand starts with: its round and dealer (the dealer keeps the deal after a win of
  theirs, tenpai at a draw or an abortive draw), its honba (one more after a dealer's win or any
  draw, none after another seat's win), its riichi sticks (none after a win, the hand's new ones
  added after a draw), its scores (the hand's payments and the riichi sticks paid);
* the abortive draws: each has its condition (nine terminals on an uninterrupted first draw with
  nine kinds of terminals and honours; four winds, four riichi, four kans when due), and each
  forced one that is due happens;
* when the game ends: a score below zero, the last scheduled hand without the dealer keeping the
  deal and first place at the target, the all-last dealer first with the target after a win or
  tenpai, the extra wind ending at the target or at its last hand;
* the final scores (sticks left on the table to first place) and final points (uma, oka, the
  platform's rounding), against what our replay reports.

Each hand is judged from the record's own start, so one wrong counter is one finding, not one per
hand after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mahjong.agari import Agari

from benchmarks.referee.findings import Verdicts, round_label
from benchmarks.referee.hand_shapes import ORPHANS as _ORPHANS
from benchmarks.referee.hand_shapes import hands_before
from benchmarks.referee.situation import hands_at_end
from benchmarks.referee.table_rules import TABLE_RULES, TableRules, final_points, placements
from engine.events import (
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    ExhaustiveDraw,
    Game,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    Round,
    Win,
)
from engine.report import ReplayReport

PEER = "referee (game)"
_AGARI = Agari()
#: A mangan's payments in a tsumo: each payer's share, by whether the winner and the payer deal.
_MANGAN_FROM_DEALER = 4000
_MANGAN_FROM_OTHER = 2000
_MANGAN_DEALER_EACH = 4000


@dataclass
class Position:
    wind: int
    number: int
    dealer: int
    honba: int
    sticks: int
    scores: list[int] = field(default_factory=list)


@dataclass
class Outcome:
    """What a hand's events say happened, as far as the game between hands needs."""

    winners: list[int]
    exhaustive: bool
    nagashi: list[int]
    aborted: bool
    riichi: list[int]
    #: The hand's recorded payments, added up over its wins (or its draw); ``None`` when the
    #: record gives none.
    deltas: list[int] | None


def judge(game: Game, report: ReplayReport, verdicts: Verdicts) -> None:
    """Judge every hand's carried state, the end of the game, and its final scores and points
    (against ``report``, our replay of the record)."""
    rules = TABLE_RULES.get(game.header.ruleset)
    if rules is None or game.header.rule_overrides or not game.rounds:
        return
    rounds = game.rounds
    first_dealer = rounds[0].dealer
    expected: Position | None = Position(0, 1, first_dealer, 0, 0, [rules.starting] * game.players)
    after: list[int] = []
    sticks_left = 0
    for index, round_ in enumerate(rounds):
        label = round_label(index, round_.name)
        verdicts.checks[PEER] += 1
        if expected is None:
            verdicts.add(PEER, "the game goes on after its end", label, None, "ended", "a hand")
            return
        _compare_start(round_, expected, label, verdicts)
        outcome = _outcome(round_)
        tenpai = _tenpai_seats(round_) if outcome.exhaustive or outcome.nagashi else []
        _judge_payments(round_, outcome, tenpai, rules, label, verdicts)
        _judge_aborts(round_, rules, label, verdicts)
        after = scores_after(round_, outcome)
        sticks_left = 0 if outcome.winners else round_.sticks + len(outcome.riichi)
        expected = _next(round_, outcome, tenpai, after, sticks_left, rules, first_dealer)
    if expected is not None:
        verdicts.checks[PEER] += 1
        verdicts.add(
            PEER,
            "the game ends before the rules end it",
            round_label(len(rounds) - 1, rounds[-1].name),
            None,
            "ended",
            f"next {'ESWN'[expected.wind]}{expected.number}",
        )
        return
    _judge_final(game, report, rules, after, sticks_left, first_dealer, verdicts)


def scores_after(round_: Round, outcome: Outcome | None = None) -> list[int]:
    """The scores after a hand: its start, its recorded payments, the riichi sticks paid."""
    outcome = outcome or _outcome(round_)
    after = list(round_.scores)
    for seat, delta in enumerate(outcome.deltas or ()):
        after[seat] += delta
    for seat in outcome.riichi:
        after[seat] -= 1000
    return after


def _compare_start(round_: Round, expected: Position, label: str, verdicts: Verdicts) -> None:
    fields = (
        ("round", (round_.wind, round_.number), (expected.wind, expected.number)),
        ("dealer", round_.dealer, expected.dealer),
        ("honba", round_.honba, expected.honba),
        ("riichi sticks", round_.sticks, expected.sticks),
        ("scores", list(round_.scores), expected.scores),
    )
    for name, ours, rules in fields:
        if ours != rules:
            verdicts.add(PEER, f"hand starts with other {name}", label, None, ours, rules)


def _outcome(round_: Round) -> Outcome:
    winners: list[int] = []
    riichi: list[int] = []
    deltas: list[int] | None = None
    exhaustive = aborted = False
    nagashi: list[int] = []
    for event in round_.events:
        recorded: tuple[int, ...] | None = None
        if isinstance(event, Win):
            winners.append(event.seat)
            recorded = None if event.recorded is None else event.recorded.deltas
        elif isinstance(event, RiichiAccepted):
            riichi.append(event.seat)
        elif isinstance(event, ExhaustiveDraw):
            exhaustive = True
            recorded = event.recorded_deltas
        elif isinstance(event, NagashiMangan):
            nagashi = list(event.seats)
            recorded = event.recorded_deltas
        elif isinstance(event, AbortiveDraw):
            aborted = True
            recorded = event.recorded_deltas
        if recorded is not None:
            base = deltas or [0] * len(recorded)
            deltas = [a + b for a, b in zip(base, recorded, strict=True)]
    return Outcome(winners, exhaustive, nagashi, aborted, riichi, deltas)


def _tenpai_seats(round_: Round) -> list[int]:
    """The seats tenpai at the end of the hand: some kind completes the hand, a kind the
    concealed tiles hold all four of never being a wait (the module docstring of
    :mod:`benchmarks.referee.table_rules`: riichi.wiki, "Karaten")."""
    seats = []
    for seat, (tiles, _melds) in enumerate(hands_at_end(round_)):
        counts = [0] * 34
        for tile in tiles:
            counts[tile.kind] += 1
        for kind in range(34):
            if counts[kind] >= 4:
                continue
            counts[kind] += 1
            complete = _AGARI.is_agari(counts)
            counts[kind] -= 1
            if complete:
                seats.append(seat)
                break
    return seats


def _judge_payments(
    round_: Round,
    outcome: Outcome,
    tenpai: list[int],
    rules: TableRules,
    label: str,
    verdicts: Verdicts,
) -> None:
    players = rules.players
    end = len(round_.events) - 1
    if outcome.winners:
        if outcome.deltas is None:
            return
        collected = 1000 * (round_.sticks + len(outcome.riichi))
        verdicts.checks[PEER] += 1
        if sum(outcome.deltas) != collected:
            verdicts.add(
                PEER,
                "win payments do not add up to the riichi sticks collected",
                label,
                end,
                sum(outcome.deltas),
                collected,
            )
        return
    expected = [0] * players
    what = "abortive draw payments"
    if outcome.exhaustive and not outcome.nagashi:
        what = "noten payments"
        recorded_tenpai = _recorded_tenpai(round_)
        verdicts.checks[PEER] += 1
        if recorded_tenpai is not None and sorted(recorded_tenpai) != tenpai:
            verdicts.add(PEER, "tenpai at the draw", label, end, sorted(recorded_tenpai), tenpai)
        if 0 < len(tenpai) < players:
            noten = [seat for seat in range(players) if seat not in tenpai]
            for seat in tenpai:
                expected[seat] += rules.noten_pool // len(tenpai)
            for seat in noten:
                expected[seat] -= rules.noten_pool // len(noten)
    elif outcome.nagashi:
        what = "nagashi mangan payments"
        for seat in outcome.nagashi:
            for payer in range(players):
                if payer == seat:
                    continue
                if seat == round_.dealer:
                    amount = _MANGAN_DEALER_EACH
                elif payer == round_.dealer:
                    amount = _MANGAN_FROM_DEALER
                else:
                    amount = _MANGAN_FROM_OTHER
                expected[payer] -= amount
                expected[seat] += amount
    recorded = outcome.deltas or [0] * players
    verdicts.checks[PEER] += 1
    if list(recorded) != expected:
        verdicts.add(PEER, what, label, end, list(recorded), expected)


_CALLS = (Chi, Pon, OpenKan, ClosedKan, AddedKan, NorthExtraction)
_KANS = (OpenKan, ClosedKan, AddedKan)
_WINDS = frozenset(range(27, 31))
_ANNOUNCED = (DoraRevealed, RiichiAccepted)


def _judge_aborts(round_: Round, rules: TableRules, label: str, verdicts: Verdicts) -> None:
    """Every abortive draw has its condition, and every forced one that is due happens: four
    winds after the fourth discard, four riichi after the fourth riichi stick, four kans after
    the discard that follows a fourth kan by several players (unless won on)."""
    events = round_.events
    due: tuple[int, AbortKind] | None = None  # (event after which, kind)
    discards: list[Discard] = []
    called = False
    riichi = 0
    kans: list[int] = []
    after_fourth_kan = False
    for index, event in enumerate(events):
        if isinstance(event, _CALLS):
            called = True
        if isinstance(event, _KANS):
            kans.append(event.seat)
            after_fourth_kan = len(kans) == 4 and len(set(kans)) > 1
        if isinstance(event, RiichiAccepted):
            riichi += 1
            if rules.four_riichi and riichi == 4 and due is None:
                due = (index, AbortKind.FOUR_RIICHI)
        if isinstance(event, Discard):
            discards.append(event)
            if (
                rules.four_winds
                and len(discards) == 4
                and not called
                and len({d.seat for d in discards}) == 4
                and len({d.tile.kind for d in discards}) == 1
                and discards[0].tile.kind in _WINDS
                and due is None
            ):
                due = (index, AbortKind.FOUR_WINDS)
            if after_fourth_kan and due is None:
                due = (index, AbortKind.FOUR_KANS)
    aborts = [(i, e) for i, e in enumerate(events) if isinstance(e, AbortiveDraw)]
    won = any(isinstance(e, Win) for e in events)
    for index, abort in aborts:
        verdicts.checks[PEER] += 1
        problem = ""
        if abort.kind is AbortKind.NINE_TERMINALS:
            problem = _nine_terminals_problem(round_, index, abort.seat)
        elif abort.kind is AbortKind.TRIPLE_RON:
            problem = "" if rules.triple_ron else "the rules pay a triple ron"
        elif due is None or due[1] is not abort.kind:
            problem = "no such abort is due"
        if problem:
            what = f"{abort.kind.value} abort without its condition"
            verdicts.add(PEER, what, label, index, "aborted", problem)
    if due is not None and not won:
        verdicts.checks[PEER] += 1
        index, kind = due
        following = [e for e in events[index + 1 :] if not isinstance(e, _ANNOUNCED)]
        first = following[0] if following else None
        if not (isinstance(first, AbortiveDraw) and first.kind is kind):
            verdicts.add(PEER, f"{kind.value} abort missing", label, index, "played on", kind.value)


def _nine_terminals_problem(round_: Round, index: int, seat: int | None) -> str:
    """Why a nine-terminals declaration at ``index`` is not allowed, or ``""``: on the seat's
    first draw, nothing called or declared before it in the hand, nine kinds of terminals and
    honours in the hand."""
    events = round_.events
    before = events[:index]
    if seat is None or not before or not isinstance(before[-1], Draw) or before[-1].seat != seat:
        return "not on the declarer's own draw"
    if any(isinstance(e, Discard) and e.seat == seat for e in before):
        return "not the declarer's first draw"
    if any(isinstance(e, _CALLS) for e in before):
        return "after a call"
    tiles, _melds = hands_before(round_, index)[seat]
    kinds = {tile.kind for tile in tiles} & _ORPHANS
    if len(kinds) < 9:
        return f"{len(kinds)} kinds of terminals and honours"
    return ""


def _recorded_tenpai(round_: Round) -> tuple[int, ...] | None:
    for event in round_.events:
        if isinstance(event, ExhaustiveDraw):
            return event.recorded_tenpai
    return None


def _next(
    round_: Round,
    outcome: Outcome,
    tenpai: list[int],
    scores: list[int],
    sticks: int,
    rules: TableRules,
    first_dealer: int,
) -> Position | None:
    """The next hand's start, or ``None`` when the game is over."""
    players = rules.players
    dealer = round_.dealer
    dealer_won = dealer in outcome.winners
    dealer_tenpai = (outcome.exhaustive or bool(outcome.nagashi)) and dealer in tenpai
    dealer_keeps = dealer_won or dealer_tenpai or (outcome.aborted and not outcome.winners)
    if rules.bust and any(score < 0 for score in scores):
        return None
    all_last = round_.wind > rules.last_wind or (
        round_.wind == rules.last_wind and round_.number == players
    )
    if all_last:
        first = placements(scores, first_dealer).index(1)
        if dealer_keeps:
            if (
                rules.dealer_stop
                and (dealer_won or dealer_tenpai)
                and first == dealer
                and scores[dealer] >= rules.target
            ):
                return None
        else:
            last_extra = round_.wind == rules.last_wind + 1 and round_.number == players
            if max(scores) >= rules.target or last_extra:
                return None
    honba = round_.honba + 1 if dealer_keeps or not outcome.winners else 0
    if dealer_keeps:
        return Position(round_.wind, round_.number, dealer, honba, sticks, scores)
    wind, number = round_.wind, round_.number + 1
    if number > players:
        wind, number = wind + 1, 1
    return Position(wind, number, (dealer + 1) % players, honba, sticks, scores)


def _judge_final(
    game: Game,
    report: ReplayReport,
    rules: TableRules,
    scores: list[int],
    sticks: int,
    first_dealer: int,
    verdicts: Verdicts,
) -> None:
    label = round_label(len(game.rounds) - 1, game.rounds[-1].name)
    final = list(scores)
    if sticks:
        final[placements(final, first_dealer).index(1)] += 1000 * sticks
    verdicts.checks[PEER] += 1
    if report.final_scores != final:
        verdicts.add(PEER, "final scores", label, None, report.final_scores, final)
    recorded = game.recorded_final
    if recorded is not None and list(recorded.scores) != final:
        verdicts.add(PEER, "recorded final scores", label, None, list(recorded.scores), final)
    ways = [final_points(final, rules, first_dealer, rounding) for rounding in rules.roundings]
    verdicts.checks[PEER] += 1
    if report.points not in ways:
        verdicts.add(PEER, "final points", label, None, report.points, ways[0])
