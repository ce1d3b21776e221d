"""Mortal's libriichi (PyPI ``mjai``, module ``mjai.mlibriichi``): every action of a 4-player game.

This is libriichi's own ``validate_logs`` (Mortal, ``libriichi/src/bin/validate_logs.rs``) driven
from Python: one ``PlayerState`` per seat is fed every mjai event, and before each action the
actor's state must have offered it. The Python binding gives ``update`` (the candidates after an
event), ``validate_reaction`` (whether an action is one of the last candidates, with the tiles in
hand, tsumogiri on the drawn tile, chi from the left...), ``forbidden_tiles`` (swap calls) and
``shanten``; on top of ``validate_reaction`` this judge checks, as ``validate_logs`` does through
``discard_candidates_aka``, that no swap-call tile is discarded and that the riichi discard
leaves the hand tenpai, and that nine terminals are declared only when offered.

Two differences from the Rust tool, both forced by the binding:

* ``validate_logs`` updates the states with ``update_with_skip(event, true)``, which leaves the
  candidates untouched on announcements (``reach_accepted``, ``dora``, ``hora``); the binding's
  ``update`` resets them. So announcements are held back and fed just before the next action's
  update, after that action was validated (an announcement changes no legality: a riichi stick
  counts for the 1,000-point check at the next draw, which comes after it). ``hora`` is never
  fed, as in ``validate_logs``.
* ``agari_points`` is not exposed, so a win is checked for legality (``can_ron_agari`` /
  ``can_tsumo_agari``) but not for points; riichienv, jansou and ``mahjong`` check the points.

libriichi plays Tenhou's 4-player rules only (it cannot read a 3-player game).
"""

from __future__ import annotations

import os

# anyhow captures a Rust backtrace for every refused action when RUST_BACKTRACE is set; the
# text is never used and capturing costs milliseconds.
os.environ.setdefault("RUST_LIB_BACKTRACE", "0")

from collections.abc import Sequence

from mjai.mlibriichi.state import PlayerState

from benchmarks.referee.choices import TRANSPARENT, Key
from benchmarks.referee.findings import Verdicts
from benchmarks.referee.hand_shapes import hands_before, is_thirteen_orphans
from benchmarks.referee.mjai_lines import Line
from engine.events import (
    AddedKan,
    ClosedKan,
    Discard,
    Event,
    Game,
    NorthExtraction,
    OpenKan,
    Round,
    Win,
)

PEER = "libriichi"
ANKAN_RON = "ron on a closed kan refused (thirteen orphans)"

_ANNOUNCEMENTS = frozenset(("reach_accepted", "dora"))
_ACTIONS = frozenset(("dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora"))
_RED = {"5mr": 4, "5pr": 13, "5sr": 22}
_HONOURS = "ESWNPFC"


def tile_index(code: str) -> int:
    """libriichi's (and our) 34-kind index of an mjai tile code, red fives as plain fives."""
    if code in _RED:
        return _RED[code]
    if code in _HONOURS:
        return 27 + _HONOURS.index(code)
    return "mps".index(code[1]) * 9 + int(code[0]) - 1


def _reason(error: Exception) -> str:
    """The first line of libriichi's message, tiles taken out ("5m is not in hand" -> "tile is
    not in hand"), so that refusals of one kind form one class."""
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    words = text.split()
    if len(words) >= 2 and words[1] == "is":
        return "tile " + " ".join(words[1:])
    return " ".join(w for w in words if not any(ch.isdigit() for ch in w) or w == "non-kamicha")


def judge(
    lines: list[Line],
    verdicts: Verdicts,
    game: Game | None = None,
    choices: Sequence[dict[tuple[int, int], set[Key]]] | None = None,
) -> None:
    """Check every action of one 4-player game (see the module docstring); given ``game`` and
    ``choices`` (our legal actions at every decision of each round:
    :func:`benchmarks.referee.choices.our_choices`), also compare libriichi's candidates with
    ours after every event."""
    states: list[PlayerState] = []
    pending: list[str] = []
    previous = ""  # the last event that was not an announcement
    for line in lines:
        event = line.event
        kind = event["type"]
        if kind == "start_game":
            states = [PlayerState(seat) for seat in range(4)]
            continue
        if kind in ("end_game", "end_kyoku"):
            continue
        if kind in _ANNOUNCEMENTS:
            pending.append(line.text)
            continue
        if kind in _ACTIONS:
            orphans = (
                kind == "hora"
                and previous == "ankan"
                and game is not None
                and _robs_with_thirteen_orphans(game, line)
            )
            _check(states, line, previous, verdicts, orphans)
        elif kind == "ryukyoku" and "actor" in event:
            # Nine terminals (our writer names the declarer): it must have been offered.
            verdicts.checks[PEER] += 1
            actor = event["actor"]
            if not states[actor].last_cans.can_ryukyoku:
                verdicts.add(
                    PEER,
                    "nine terminals not offered",
                    line.round,
                    line.index,
                    "declared",
                    "cannot ryukyoku",
                )
        if kind == "hora":
            continue
        previous = kind
        for text in pending:
            for state in states:
                state.update(text)
        pending.clear()
        for state in states:
            state.update(line.text)
        if kind == "dahai":
            _after_discard(states[event["actor"]], line, verdicts)
        if game is not None and choices is not None and line.index is not None:
            number = int(line.round.split(" ", 1)[0])
            _compare_candidates(states, game.rounds[number], choices[number], line, verdicts)


#: The candidates libriichi's ``ActionCandidate`` reports, by attribute.
_CANS = (
    ("can_discard", "discard"),
    ("can_chi_low", "chi low"),
    ("can_chi_mid", "chi mid"),
    ("can_chi_high", "chi high"),
    ("can_pon", "pon"),
    ("can_daiminkan", "daiminkan"),
    ("can_riichi", "riichi"),
    ("can_tsumo_agari", "tsumo"),
    ("can_ron_agari", "ron"),
    ("can_ryukyoku", "nine terminals"),
)


def _compare_candidates(
    states: list[PlayerState],
    round_: Round,
    ours: dict[tuple[int, int], set[Key]],
    line: Line,
    verdicts: Verdicts,
) -> None:
    """libriichi's candidates for every seat after the event of ``line`` against ours at the
    same decision, projected onto libriichi's categories (chi by the called tile's place in
    the run; kans by kind)."""
    index = line.index
    assert index is not None
    events = round_.events
    if isinstance(events[index], TRANSPARENT):
        return  # (an announcement or a win: no decision of its own)
    peer = f"{PEER} (choices)"
    for seat, state in enumerate(states):
        cans = state.last_cans
        theirs = {name for attribute, name in _CANS if getattr(cans, attribute)}
        if cans.can_discard and not state.self_riichi_declared:
            # Which kinds: the hand's, less those a swap call forbids (libriichi's
            # forbidden_tiles). After a riichi declaration libriichi does not say which
            # discards keep the hand tenpai (the riichi discard is checked after it is made).
            theirs.discard("discard")
            forbidden = state.forbidden_tiles
            theirs.update(
                f"discard {_KIND_CODES[kind]}"
                for kind, count in enumerate(state.tehai)
                if count and not forbidden[kind]
            )
        if cans.can_ankan:
            theirs.update(f"ankan {_plain(tile)}" for tile in state.ankan_candidates())
        if cans.can_kakan:
            theirs.update(f"kakan {_plain(tile)}" for tile in state.kakan_candidates())
        by_kind = any(name.startswith("discard ") for name in theirs)
        mine = {_category(key, events, index, seat, by_kind) for key in ours.get((index, seat), ())}
        mine.discard("")
        if not mine and not theirs:
            continue
        verdicts.checks[peer] += 1
        known = _known_difference(round_, index, seat, mine - theirs, theirs - mine)
        for name in sorted(mine - theirs):
            kind = name.split(" ", 1)[0] if name.startswith(("ankan", "kakan")) else name
            verdicts.add(
                peer,
                known or f"we allow {kind} that {PEER} does not",
                line.round,
                index,
                f"seat {seat}: {name}",
                "not allowed",
            )
        for name in sorted(theirs - mine):
            kind = name.split(" ", 1)[0] if name.startswith(("ankan", "kakan")) else name
            verdicts.add(
                peer,
                known or f"{PEER} allows {kind} that we do not",
                line.round,
                index,
                "not allowed",
                f"seat {seat}: {name}",
            )


#: libriichi offers calls on the discard after a fourth kan by several players.
FOURTH_KAN_CALLS = "calls offered on the discard after a fourth kan by several players"
#: Mahjong Soul's thirteen orphans may rob a closed kan; libriichi plays Tenhou's rule.
ANKAN_RON_CHOICE = "ron on a closed kan not offered (thirteen orphans)"
_CALLS = frozenset(("chi low", "chi mid", "chi high", "pon", "daiminkan"))
_KANS = (ClosedKan, OpenKan, AddedKan)


def _known_difference(
    round_: Round, index: int, seat: int, only_ours: set[str], only_theirs: set[str]
) -> str | None:
    """The class of a known difference of libriichi's rules, where it is exactly that:

    * it offers calls on the discard that follows a fourth kan made by several players, where
      Tenhou ends the hand once that discard is not won on (suukaikan: riichi.wiki "Tochuu
      ryuukyoku", "Most rules abort the hand when the following discard is not a winning
      tile");
    * it never offers a ron on a closed kan, where Mahjong Soul lets thirteen orphans rob one
      (checked: the robbing hand is thirteen orphans).
    """
    events = round_.events
    event = events[index]
    if not only_ours and only_theirs and only_theirs <= _CALLS and isinstance(event, Discard):
        kans = [(i, e) for i, e in enumerate(events[:index]) if isinstance(e, _KANS)]
        if len(kans) == 4 and len({e.seat for _, e in kans}) > 1:
            last_kan = kans[-1][0]
            if not any(isinstance(e, Discard) for e in events[last_kan + 1 : index]):
                return FOURTH_KAN_CALLS
    if only_ours == {"ron"} and not only_theirs and isinstance(event, ClosedKan):
        tiles, _melds = hands_before(round_, index + 1)[seat]
        if is_thirteen_orphans([*tiles, event.tiles[0]]):
            return ANKAN_RON_CHOICE
    return None


def _plain(code: str) -> str:
    return code.removesuffix("r")


_KIND_CODES = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)] + list("ESWNPFC")


def _pairs(keys: set[Key], events: Sequence[Event], index: int, seat: int) -> list[tuple[Key, str]]:
    return [(key, _category(key, events, index, seat)) for key in keys]


def _category(
    key: Key, events: Sequence[Event], index: int, seat: int, by_kind: bool = False
) -> str:
    """One of our actions as libriichi's category (a discard with its kind when ``by_kind``:
    which copy, red or not, is the player's choice of one and the same discard)."""
    kind, tile, taken = key
    if kind == "dahai":
        return f"discard {_plain(tile)}" if by_kind else "discard"
    if kind == "chi":
        rank = int(tile[0])
        ranks = sorted(int(code[0]) for code in taken)
        if ranks[0] > rank:
            return "chi low"
        if ranks[1] < rank:
            return "chi high"
        return "chi mid"
    if kind in ("pon", "daiminkan"):
        return kind
    if kind in ("ankan", "kakan"):
        return f"{kind} {tile}"
    if kind == "reach":
        return "riichi"
    if kind == "ryukyoku":
        return "nine terminals"
    if kind == "hora":
        own = getattr(events[index], "seat", None) == seat and not isinstance(
            events[index], Discard | AddedKan | ClosedKan | NorthExtraction
        )
        return "tsumo" if own else "ron"
    return ""  # (a North: libriichi plays 4-player games only)


def _robs_with_thirteen_orphans(game: Game, line: Line) -> bool:
    """Whether the ron of ``line`` completes thirteen orphans with the closed kan's tile."""
    events = game.rounds[int(line.round.split(" ", 1)[0])].events
    index = line.index
    assert index is not None
    kan = next((e for e in reversed(events[:index]) if isinstance(e, ClosedKan)), None)
    win = events[index]
    if kan is None or not isinstance(win, Win):
        return False
    round_ = game.rounds[int(line.round.split(" ", 1)[0])]
    tiles, _melds = hands_before(round_, index)[win.seat]
    return is_thirteen_orphans([*tiles, kan.tiles[0]])


def _check(
    states: list[PlayerState],
    line: Line,
    previous: str,
    verdicts: Verdicts,
    robs_with_orphans: bool = False,
) -> None:
    event = line.event
    kind = event["type"]
    actor = event["actor"]
    state = states[actor]
    verdicts.checks[PEER] += 1
    try:
        state.validate_reaction(line.text)
    except Exception as error:  # anyhow errors arrive as plain exceptions
        if kind == "hora" and previous == "ankan" and robs_with_orphans:
            # libriichi plays Tenhou's rule: nobody may ron a closed kan, not even with
            # thirteen orphans (its update of an ankan never offers a ron). Only a ron that
            # completes thirteen orphans is that rule; any other ron on a closed kan is ours.
            verdicts.add(PEER, ANKAN_RON, line.round, line.index, "legal", str(error))
            return
        verdicts.add(
            PEER,
            f"{kind} refused: {_reason(error)}",
            line.round,
            line.index,
            "legal",
            str(error).splitlines()[0],
        )
        return
    if kind == "dahai" and not state.self_riichi_accepted:
        index = tile_index(event["pai"])
        if state.forbidden_tiles[index]:
            verdicts.add(
                PEER,
                "dahai refused: swap call (kuikae)",
                line.round,
                line.index,
                "legal",
                f"{event['pai']} is forbidden after the call",
            )


def _after_discard(state: PlayerState, line: Line, verdicts: Verdicts) -> None:
    """The riichi discard must leave the hand tenpai (libriichi's discard candidates after a
    riichi declaration keep shanten 0)."""
    if state.self_riichi_declared and not state.self_riichi_accepted and state.shanten > 0:
        verdicts.add(
            PEER,
            "riichi discard leaves the hand not tenpai",
            line.round,
            line.index,
            "tenpai",
            f"shanten {state.shanten}",
        )
