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

from mjai.mlibriichi.state import PlayerState

from benchmarks.referee.findings import Verdicts
from benchmarks.referee.mjai_lines import Line

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


def judge(lines: list[Line], verdicts: Verdicts) -> None:
    """Check every action of one 4-player game (see the module docstring)."""
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
            _check(states, line, previous, verdicts)
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


def _check(states: list[PlayerState], line: Line, previous: str, verdicts: Verdicts) -> None:
    event = line.event
    kind = event["type"]
    actor = event["actor"]
    state = states[actor]
    verdicts.checks[PEER] += 1
    try:
        state.validate_reaction(line.text)
    except Exception as error:  # anyhow errors arrive as plain exceptions
        if kind == "hora" and previous == "ankan":
            # libriichi plays Tenhou's rule: nobody may ron a closed kan, not even with
            # thirteen orphans (its update of an ankan never offers a ron).
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
