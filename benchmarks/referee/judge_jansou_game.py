"""jansou's judgement of the game between hands: who deals next, the honba, and when the game
ends, by jansou's own game loop (``jansou.game.progression.advance``), from each hand's end as
jansou's flow replayed it (its winners, its kind of draw, the seats it counted tenpai).

A second judge, written by other people, beside the referee's own computation
(:mod:`benchmarks.referee.judge_game_flow`): jansou decides the next position from the outcome
it found, and the record must follow it. jansou has no all-last tenpai stop (Tenhou's and
Mahjong Soul's tenpai-yame): where our record ends the game on an all-last dealer tenpai in
first place with the target, jansou plays on, the class :data:`NO_TENPAI_STOP`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from jansou.core.tiles import Wind
from jansou.game.events import Ryuukyoku, RyuukyokuKind
from jansou.game.flow import DealOutcome, Position
from jansou.game.progression import advance, rank

from benchmarks.referee.findings import Verdicts, round_label
from benchmarks.referee.hand_shapes import kan_karaten
from benchmarks.referee.situation import hands_at_end
from engine.events import Game, Round

PEER = "jansou (game)"
#: jansou's game loop has no tenpai stop for the all-last dealer.
NO_TENPAI_STOP = "plays on after the all-last dealer's tenpai in first place (tenpai-yame)"
#: jansou counts a hand noten when every wait is a kind its own kans hold four of (its
#: settlement class "tenpai on a kind held four times in own kans counted noten"), so a dealer
#: with such a hand passes the deal.
KAN_KARATEN_DEAL = "deal passed on a dealer tenpai on a kind held four times in own kans"
_DRAWS_KEEPING_THE_DEAL = frozenset(
    (
        RyuukyokuKind.NINE_TERMINALS,
        RyuukyokuKind.FOUR_WINDS,
        RyuukyokuKind.FOUR_RIICHI,
        RyuukyokuKind.FOUR_KANS,
        RyuukyokuKind.TRIPLE_RON,
    )
)


@dataclass
class HandEnd:
    """How a hand ended in jansou's replay of it."""

    winners: list[int] = field(default_factory=list)
    draw: RyuukyokuKind | None = None
    ready: frozenset[int] = frozenset()
    #: jansou ended the hand with our waiting kan indicator (turned before a chankan) unplayed.
    unplayed_indicator: bool = False

    def observe(self, event: object) -> None:
        """Keep what a jansou event says of the hand's end (an ``observe`` callback)."""
        from jansou.game.events import Win

        if isinstance(event, Win):
            self.winners.append(event.seat)
        elif isinstance(event, Ryuukyoku):
            self.draw = event.kind
            self.ready = event.counted_ready


def judge(
    game: Game,
    ends: Sequence[HandEnd | None],
    scores_after: Sequence[list[int]],
    rules: object,
    verdicts: Verdicts,
) -> None:
    """Each hand's next position by jansou's ``advance`` against the record's next hand (or
    the record's end). ``ends`` are jansou's hand ends (``None`` where its replay stopped: the
    judgement ends there), ``scores_after`` each hand's scores after it, riichi sticks paid."""
    rounds = game.rounds
    last_wind = getattr(rules, "game_length", Wind.SOUTH)
    for index, round_ in enumerate(rounds):
        end = ends[index]
        if end is None:
            return
        verdicts.checks[PEER] += 1
        position = Position(round_.dealer, Wind(round_.wind), round_.number, round_.honba)
        abortive = end.draw in _DRAWS_KEEPING_THE_DEAL
        if end.winners:
            repeats = round_.dealer in end.winners
        elif abortive:
            repeats = True
        else:
            repeats = round_.dealer in end.ready
        outcome = DealOutcome(
            tuple(end.winners), repeats, is_draw=not end.winners, is_abortive=abortive
        )
        after = scores_after[index]
        following = advance(
            position,
            outcome,
            after,
            rules,
            in_extension=round_.wind > last_wind,  # type: ignore[arg-type]
        ).position
        label = round_label(index, round_.name)
        ends_here = index == len(rounds) - 1
        record_next = None if ends_here else rounds[index + 1]
        if _disagree(record_next, following) and _dealer_kan_karaten(round_, end):
            # jansou counted the dealer noten on a kan karaten (its settlement class): with
            # the dealer tenpai, as the platforms count it, its loop must agree with ours.
            kept = DealOutcome((), True, is_draw=True)
            again = advance(
                position,
                kept,
                after,
                rules,
                in_extension=round_.wind > last_wind,  # type: ignore[arg-type]
            ).position
            if not _disagree(record_next, again):
                ours = "dealer keeps" if record_next is not None else "ended"
                theirs = "ended" if following is None else _name(following)
                verdicts.add(PEER, KAN_KARATEN_DEAL, label, None, ours, theirs)
                continue
        if following is None:
            if not ends_here:
                verdicts.add(PEER, "the game ends here", label, None, "goes on", "ended")
            continue
        if ends_here:
            what = (
                NO_TENPAI_STOP
                if _tenpai_stop(round_, end, after, last_wind)
                else "the game goes on"
            )
            verdicts.add(PEER, what, label, None, "ended", _name(following))
            continue
        _compare(rounds[index + 1], following, label, verdicts)


def _tenpai_stop(round_: Round, end: HandEnd, scores: list[int], last_wind: int) -> bool:
    """Whether the game ended on the all-last dealer's tenpai at an exhaustive draw, the
    dealer first (jansou's ranking) with at least 30,000 (40,000 in sanma)."""
    players = len(scores)
    target = 30000 if players == 4 else 40000
    all_last = round_.wind > last_wind or (round_.wind == last_wind and round_.number == players)
    return (
        all_last
        and not end.winners
        and end.draw in (RyuukyokuKind.EXHAUSTIVE, RyuukyokuKind.NAGASHI)
        and round_.dealer in end.ready
        and rank(scores)[0] == round_.dealer
        and scores[round_.dealer] >= target
    )


def _dealer_kan_karaten(round_: Round, end: HandEnd) -> bool:
    """Whether jansou counted the dealer noten at an exhaustive draw where the dealer's hand
    waits only on kinds its own kans hold four of."""
    if end.winners or end.draw is not RyuukyokuKind.EXHAUSTIVE or round_.dealer in end.ready:
        return False
    tiles, melds = hands_at_end(round_)[round_.dealer]
    return kan_karaten(tiles, melds)


def _disagree(following: Round | None, theirs: Position | None) -> bool:
    """Whether the record's next hand (``None``: the game ended) is not jansou's."""
    if following is None or theirs is None:
        return following is not theirs
    return _differs(following, theirs)


def _differs(following: Round, theirs: Position) -> bool:
    return (following.dealer, following.wind, following.number, following.honba) != (
        theirs.dealer,
        int(theirs.round_wind),
        theirs.round_number,
        theirs.honba,
    )


def _compare(following: Round, theirs: Position, label: str, verdicts: Verdicts) -> None:
    ours = (following.dealer, following.wind, following.number, following.honba)
    expected = (theirs.dealer, int(theirs.round_wind), theirs.round_number, theirs.honba)
    for name, mine, other in zip(
        ("dealer", "round wind", "round number", "honba"), ours, expected, strict=True
    ):
        if mine != other:
            verdicts.add(PEER, f"next hand's {name}", label, None, mine, other)


def _name(position: Position) -> str:
    return f"{'ESWN'[int(position.round_wind)]}{position.round_number}-{position.honba}"
