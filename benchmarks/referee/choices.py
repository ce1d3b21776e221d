"""Our legal actions at every decision of a record, in a form the peers' lists compare with.

The peers check that each *recorded* action is legal; but the self-play bots only ever choose
among the actions our state machine lists, so an action we wrongly leave out (a chankan, a
thirteen-orphans ron on a closed kan) never appears in a record and no such check can see it.
So the referee also compares, at every decision, the whole *set* of actions we allow with the set
each peer allows (:mod:`benchmarks.referee.judge_riichienv`, :mod:`benchmarks.referee.
judge_libriichi`): a legal action we refuse is as wrong as an illegal one we allow.

A decision is keyed by ``(event index, seat)``: the index in the canonical round of the event
after which the seat decides (the draw or call that gives it the turn, the riichi declaration
before its riichi discard, the discard, added kan, closed kan or North it may claim), and the
seat. Dora indicators, riichi acceptances and wins do not open a decision of their own: the
decisions after them belong to the event before (the acceptance of a riichi discard, or a first
ron, leaves the discard's claim window open to the other seats).

Actions are compared as :data:`Key` values: the mjai type, the tile (a discard's and a claimed
tile's with its red-five mark), and for calls the kinds of the tiles taken from the hand (which
copies, red or not, is the player's choice of one and the same call: our list names one, the
peers list each).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from benchmarks.referee.findings import Verdicts
from engine.events import (
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Event,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Win,
)
from engine.rules.ruleset import Ruleset
from engine.state import GameState, Phase
from engine.tiles import Tile

#: ``(mjai type, tile, kinds taken from the hand)``.
Key = tuple[str, str, tuple[str, ...]]
#: The events after which no new decision is keyed (see the module docstring).
TRANSPARENT = (DoraRevealed, RiichiAccepted, Win)

_HONOURS = "ESWNPFC"


def code(tile: Tile, red: bool = True) -> str:
    """A tile's mjai code (``5mr`` for a red five, unless ``red`` is false)."""
    if tile.suit == "z":
        return _HONOURS[tile.rank - 1]
    return f"{tile.rank}{tile.suit}" + ("r" if red and tile.red else "")


def key_of(event: Event) -> tuple[int, Key] | None:
    """The acting seat and the comparable form of one of our legal events, or ``None`` for the
    events nobody chooses (draws, indicators, acceptances, the ends of a hand)."""
    if isinstance(event, Discard):
        return event.seat, ("dahai", code(event.tile), ())
    if isinstance(event, Chi | Pon):
        kind = "chi" if isinstance(event, Chi) else "pon"
        taken = tuple(sorted(code(tile, red=False) for tile in event.consumed))
        return event.seat, (kind, code(event.tile), taken)
    if isinstance(event, OpenKan):
        return event.seat, ("daiminkan", code(event.tile), ())
    if isinstance(event, ClosedKan):
        return event.seat, ("ankan", code(event.tiles[0], red=False), ())
    if isinstance(event, AddedKan):
        return event.seat, ("kakan", code(event.tile, red=False), ())
    if isinstance(event, NorthExtraction):
        return event.seat, ("kita", "", ())
    if isinstance(event, RiichiDeclared):
        return event.seat, ("reach", "", ())
    if isinstance(event, Win):
        return event.seat, ("hora", "", ())
    if isinstance(event, AbortiveDraw) and event.kind is AbortKind.NINE_TERMINALS:
        if event.seat is None:
            return None
        return event.seat, ("ryukyoku", "", ())
    return None


def decision_key(events: Sequence[Event], index: int) -> int:
    """The decision a recorded action at ``index`` was taken in: the last event before it that
    opens a decision (for a claim, never an earlier claim's ron)."""
    position = index - 1
    while position >= 0 and isinstance(events[position], TRANSPARENT):
        position -= 1
    return position


def our_choices(
    round_: Round, ruleset: Ruleset, first_dealer: int
) -> dict[tuple[int, int], set[Key]]:
    """Every seat's legal actions at every decision of the round, by our state machine (stopping
    where the record does something our state refuses: that is the replay's finding)."""
    state = GameState(ruleset, first_dealer=first_dealer)
    state.start_round(round_)
    events = round_.events
    choices: dict[tuple[int, int], set[Key]] = {}
    opened = -1
    for index, event in enumerate(events):
        if state.push(event) is not None:
            break
        if not isinstance(event, TRANSPARENT):
            opened = index
        following = events[index + 1] if index + 1 < len(events) else None
        if isinstance(following, DoraRevealed) or state.phase is Phase.OVER:
            continue  # an indicator due first lists nothing else
        legal = state.legal_actions()
        # Our record turns some indicators and accepts a riichi discard as events of their
        # own, before the choices that follow them; where the record went another way (a ron on
        # the riichi discard, a win on an open kan's replacement tile, which Tenhou lets come
        # before that kan's indicator), the choices after them are listed by a second state,
        # played to here, that takes the event (rare, so replaying is cheap enough).
        due = [action for action in legal if isinstance(action, DoraRevealed)]
        pending = state.pending_riichi
        if due and not isinstance(following, DoraRevealed):
            legal += _after(round_, ruleset, first_dealer, index, due[0])
        elif pending is not None and not isinstance(following, RiichiAccepted):
            legal += _after(round_, ruleset, first_dealer, index, RiichiAccepted(pending))
        for action in legal:
            found = key_of(action)
            if found is not None:
                seat, key = found
                choices.setdefault((opened, seat), set()).add(key)
    return choices


def _after(
    round_: Round, ruleset: Ruleset, first_dealer: int, index: int, extra: Event
) -> list[Event]:
    """The legal actions once ``extra`` follows the round's events up to ``index``."""
    state = GameState(ruleset, first_dealer=first_dealer)
    state.start_round(round_)
    for event in round_.events[: index + 1]:
        state.push(event)
    if state.push(extra) is not None:
        return []
    return state.legal_actions()


#: Decides, for a decision where the sets differ, whether the peer's set there is not its whole
#: choice (a known limit of its replay: the decision is then not judged): ``(decision, ours,
#: theirs) -> bool``.
Skip = Callable[[tuple[int, int], set[Key], set[Key]], bool]
#: Names the class of one kind of action that differs, where it is a known difference of the
#: peer's rules (else ``None``, the generic class): ``(decision, kind, only ours, only
#: theirs) -> str | None``.
Classify = Callable[[tuple[int, int], str, set[Key], set[Key]], str | None]


def compare_choices(
    peer: str,
    ours: dict[tuple[int, int], set[Key]],
    theirs: dict[tuple[int, int], set[Key]],
    label: str,
    verdicts: Verdicts,
    skip: Skip | None = None,
    classify: Classify | None = None,
) -> None:
    """One finding per decision and kind of action where the two sets differ: an action only we
    allow, or only the peer. A decision only one side has (a claim window the peer never
    opened) compares with an empty set."""
    name = f"{peer} (choices)"
    for decision in sorted(set(ours) | set(theirs)):
        mine = ours.get(decision, set())
        other = theirs.get(decision, set())
        if mine == other:
            verdicts.checks[name] += 1
            continue
        if skip is not None and skip(decision, mine, other):
            verdicts.checks[f"{name} not judged"] += 1
            continue
        verdicts.checks[name] += 1
        index, seat = decision
        for kind in sorted({key[0] for key in mine ^ other}):
            only_ours = {k for k in mine - other if k[0] == kind}
            only_theirs = {k for k in other - mine if k[0] == kind}
            known = None if classify is None else classify(decision, kind, only_ours, only_theirs)
            if only_ours:
                verdicts.add(
                    name,
                    known or f"we allow {kind} that {peer} does not",
                    label,
                    index,
                    f"seat {seat}: {', '.join(sorted(map(_show, only_ours)))}",
                    "not allowed",
                )
            if only_theirs:
                verdicts.add(
                    name,
                    known or f"{peer} allows {kind} that we do not",
                    label,
                    index,
                    "not allowed",
                    f"seat {seat}: {', '.join(sorted(map(_show, only_theirs)))}",
                )


def swap_call_kinds(event: Event) -> set[str]:
    """The kinds a call forbids its caller to discard at once where swap calls are not allowed
    (kuikae): the called kind, and for a chi called at one end of its run the kind beyond the
    other end (a 3 called with 4-5 forbids 3 and 6)."""
    if isinstance(event, Pon):
        return {code(event.tile, red=False)}
    if not isinstance(event, Chi):
        return set()
    kinds = {code(event.tile, red=False)}
    rank = event.tile.rank
    ranks = sorted(tile.rank for tile in event.consumed)
    beyond = None
    if ranks[0] > rank:
        beyond = rank + 3
    elif ranks[1] < rank:
        beyond = rank - 3
    if beyond is not None and 1 <= beyond <= 9:
        kinds.add(f"{beyond}{event.tile.suit}")
    return kinds


def _show(key: Key) -> str:
    kind, tile, taken = key
    text = " ".join(part for part in (kind, tile) if part)
    return f"{text} with {'+'.join(taken)}" if taken else text
