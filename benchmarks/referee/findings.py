"""What a judge reports: one :class:`Finding` per disagreement, and the checks it made.

A finding names the peer, *what* differs (a short phrase without tiles or numbers, so that
findings of the same kind fall into one class), where (round and event index in the canonical
record), and both values. The runner adds the rule set and the seed. A disagreement class is
``(peer, what, rule set)``; :mod:`benchmarks.referee.explained` lists the classes that are the
peer's fault.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Finding:
    peer: str
    what: str
    round: str  # "3 (E4)": the round's index in the game and its name
    event: int | None  # the event's index in the canonical round, when the peer names one
    ours: str
    theirs: str

    def example(self, ruleset: str, seed: int) -> dict[str, object]:
        return {
            "ruleset": ruleset,
            "seed": seed,
            "round": self.round,
            "event": self.event,
            "ours": self.ours,
            "theirs": self.theirs,
        }


@dataclass
class Verdicts:
    """What judging one game gave: the findings and how many checks each peer made."""

    findings: list[Finding] = field(default_factory=list)
    checks: Counter[str] = field(default_factory=Counter)

    def add(
        self, peer: str, what: str, round_: str, event: int | None, ours: object, theirs: object
    ) -> None:
        self.findings.append(Finding(peer, what, round_, event, str(ours), str(theirs)))


def round_label(index: int, name: str) -> str:
    return f"{index} ({name})"
