"""Our own side: the self-played record replays as verified, and so do its exports read back.

* ``replay`` of the canonical record (self-play writes the engine's own values as the recorded
  ones, so anything but ``verified`` is a bug of self-play or of the replayer);
* each export (mjai always, tenhou.net/6 for Tenhou rule sets: the writer refuses others, as
  tenhou.net/6 holds Tenhou games only) is read back by our reader and replayed: it must verify,
  and its actions (starting hands, indicators, every event without its recorded values) must be
  the original's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from benchmarks.referee.findings import Verdicts, round_label
from engine.events import DoraRevealed, Event, Game, Round
from engine.formats import mjai, tenhou6
from engine.replay import ReplayReport, Verdict, replay

PEER = "ours"
_STRIP = ("recorded", "recorded_deltas", "recorded_tenpai")


def exports(game: Game, verdicts: Verdicts | None = None) -> dict[str, str]:
    """Our exports of a game that the formats can hold: ``mjai`` always, ``tenhou6`` for Tenhou
    rule sets. A writer that refuses the game is a finding (when ``verdicts`` is given)."""
    writers = {"mjai": mjai.write}
    if game.header.ruleset.startswith("tenhou-"):
        writers["tenhou6"] = tenhou6.write
    out = {}
    for export, write in writers.items():
        try:
            out[export] = write([game]).decode()
        except Exception as error:  # a writer's refusal or crash: a finding, the rest goes on
            if verdicts is None:
                raise
            verdicts.add(
                f"{PEER} ({export})",
                "cannot write the export",
                "",
                None,
                "written",
                f"{type(error).__name__}: {error}",
            )
    return out


def judge(game: Game, texts: dict[str, str], verdicts: Verdicts) -> ReplayReport:
    """Replay the record and its exports read back; our replay of the record (for the judges
    that compare with what our engine reports)."""
    report = _verify(game, "self-played record", verdicts)
    readers = {"mjai": mjai.read, "tenhou6": tenhou6.read}
    for export, text in texts.items():
        verdicts.checks[f"{PEER} ({export})"] += 1
        try:
            (back,) = readers[export](text.encode())
        except Exception as error:  # any reader error is a finding
            verdicts.add(
                f"{PEER} ({export})",
                "cannot read our own export",
                "",
                None,
                "readable",
                f"{type(error).__name__}: {error}",
            )
            continue
        _verify(back, f"{export} round trip", verdicts)
        _same_actions(game, back, f"{PEER} ({export})", export == "mjai", verdicts)
    return report


def _verify(game: Game, what: str, verdicts: Verdicts) -> ReplayReport:
    peer = PEER if what == "self-played record" else f"{PEER} ({what.split()[0]})"
    verdicts.checks[peer] += 1
    report = replay(game)
    if report.verdict is Verdict.VERIFIED and report.complete:
        return report
    d = report.discrepancy
    if d is None:
        verdicts.add(peer, f"{what} stops before the end", "", None, "complete", "incomplete")
        return report
    label = "" if d.round is None else round_label(d.round, d.round_name or "")
    # ours: what our rules give (for an illegal action, why it is refused); theirs: the record.
    verdicts.add(
        peer,
        f"{what} does not verify: {d.verdict.value}: {d.what}",
        label,
        d.event,
        d.expected,
        d.found,
    )
    return report


def _actions(round_: Round, dora_moments: bool) -> tuple[object, ...]:
    """What an export must keep of a hand: its start and every event, recorded values left
    out. tenhou.net/6 keeps the kan dora indicators but not the moment each is turned (the
    reader puts them where Tenhou does, docs/format.md), so there only their order counts."""
    hands = tuple(tuple(sorted(hand)) for hand in round_.hands)
    events = tuple(
        _plain(event)
        for event in round_.events
        if dora_moments or not isinstance(event, DoraRevealed)
    )
    dora = tuple(e.indicator for e in round_.events if isinstance(e, DoraRevealed))
    return (
        round_.wind,
        round_.number,
        round_.dealer,
        round_.honba,
        round_.sticks,
        round_.scores,
        hands,
        round_.dora_indicators,
        dora,
        events,
    )


def _plain(event: Event) -> Event:
    changes = {name: None for name in _STRIP if hasattr(event, name)}
    return dataclasses.replace(event, **changes) if changes else event  # type: ignore[arg-type]


def _same_actions(
    game: Game, back: Game, peer: str, dora_moments: bool, verdicts: Verdicts
) -> None:
    rounds: Sequence[Round] = game.rounds
    if len(back.rounds) != len(rounds):
        verdicts.add(
            peer, "round trip changes the number of hands", "", None, len(rounds), len(back.rounds)
        )
        return
    for index, (mine, theirs) in enumerate(zip(rounds, back.rounds, strict=True)):
        a, b = _actions(mine, dora_moments), _actions(theirs, dora_moments)
        if a == b:
            continue
        event = None
        if a[-1] != b[-1]:
            event = next(
                (i for i, (x, y) in enumerate(zip(a[-1], b[-1], strict=False)) if x != y),
                min(len(a[-1]), len(b[-1])),
            )  # type: ignore[arg-type]
        verdicts.add(
            peer,
            "round trip changes the actions",
            round_label(index, mine.name),
            event,
            _describe(a, event),
            _describe(b, event),
        )
        return


def _describe(actions: tuple[object, ...], event: int | None) -> str:
    if event is None:
        return "the hand's start"
    events = actions[-1]
    assert isinstance(events, tuple)
    return repr(events[event]) if event < len(events) else "(no event)"
