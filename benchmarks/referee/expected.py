"""How often each rare situation and each disagreement class is expected, and the check that a
run's counts stay in range.

A bug does not always make the peers disagree: it can make something stop happening. Remove
chankan from the engine and the bots simply never rob an added kan; let our engine refuse what a
peer's rules also refuse, and an explained class falls silent. So every name the referee counts
(a rare situation, a disagreement class of a peer) has an expected rate, learnt from a long run
on code the referee found clean, for each rule set and kind of game (``greedy``, ``mixed``,
``scenario:<name>``): the share of games in which it occurs. A run whose count of games with
the name is improbable under those rates, too few or too many, fails like an unexplained
disagreement.

The rates are ``benchmarks/referee/expected.json``, written by::

    .venv/bin/python -m benchmarks.referee.expected benchmarks/referee/runs/<run>
    .venv/bin/python -m benchmarks.referee.expected --table     # as Markdown, per 1,000 games

from the part files of a run (``Figures.seen``: in how many games of each rule set and kind
each name occurred).

The bound: a count is out of range when the chance of a count at least that far out, given the
expected rates, is below :data:`IMPROBABLE` (one in ten million: a 100,000-game run checks some
10,000 counts, and must not fail by chance). The rates are taken at the edge of what the
learning run allows (three standard deviations of its count, toward the count being judged), so
that the learning run's own chance does not fail a later one, and a name a rule set and kind
never showed still has a high bound (one occurrence in a short run is not improbable, a dozen
are). Counts of games are sums of binomials, one per kind of game, worked out exactly, or by the
normal approximation where many are expected (:data:`NORMAL_FROM`).
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXPECTED_FILE = Path(__file__).with_name("expected.json")
IMPROBABLE = 1e-7
#: Above this expected count (on the rarer side) the normal approximation is used.
NORMAL_FROM = 60


@dataclass(frozen=True)
class OutOfRange:
    ruleset: str
    name: str
    observed: int
    games: int
    expected: float
    #: The chance of a count at least this far out, given the rates.
    chance: float

    def line(self) -> str:
        side = "few" if self.observed < self.expected else "many"
        return (
            f"expected range | {self.ruleset} | {self.name}: in {self.observed} of {self.games} "
            f"games, expected "
            f"{self.expected:.1f} (too {side}: chance {self.chance:.1e}) OUT OF RANGE"
        )


def rates_from(seen: Counter[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{ruleset: {kind: {"games": n, "seen": {name: games with it}}}}`` from the counts."""
    out: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for key, count in seen.items():
        ruleset, kind, name = key.split("\t", 2)
        entry = out[ruleset].setdefault(kind, {"games": 0, "seen": {}})
        if name:
            entry["seen"][name] = entry["seen"].get(name, 0) + count
        else:
            entry["games"] += count
    for kinds in out.values():
        for entry in kinds.values():
            entry["seen"] = dict(sorted(entry["seen"].items()))
    return {ruleset: dict(sorted(kinds.items())) for ruleset, kinds in sorted(out.items())}


def load(path: Path = EXPECTED_FILE) -> dict[str, Any]:
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def check(
    seen: Counter[str],
    expected: dict[str, Any] | None = None,
    judges: Iterable[str] | None = None,
) -> list[OutOfRange]:
    """Every count of ``seen`` (and every expected name the run did not meet) whose number of
    games is improbable under the expected rates. Rule sets or kinds of game the rates do not
    know are not checked, nor the classes of a judge that did not run (``judges``: the names
    the run's checks are counted under, as ``Figures.checks``)."""
    rates = load() if expected is None else expected
    rates = rates.get("rates", rates)
    run = rates_from(seen)
    out: list[OutOfRange] = []
    for ruleset, kinds in run.items():
        known = rates.get(ruleset)
        if not known:
            continue
        played = {kind: entry["games"] for kind, entry in kinds.items() if kind in known}
        if not played:
            continue
        names = {name for kind in played for name in known[kind]["seen"]}
        names |= {name for kind in played for name in kinds[kind]["seen"]}
        if judges is not None:
            ran = {judge.split(" ", 1)[0] for judge in judges}
            names = {n for n in names if not n.startswith("class: ") or _judge(n) in ran}
        for name in sorted(names):
            observed = sum(kinds[kind]["seen"].get(name, 0) for kind in played)
            rates = {kind: _rates(known[kind], name) for kind in played}
            mean = sum(games * rates[kind][1] for kind, games in played.items())
            # Judged at the rate least against the count: the low bound for a count below the
            # estimate, the high bound for one above.
            below = observed < mean
            trials = [(games, rates[kind][0 if below else 2]) for kind, games in played.items()]
            chance = _tail(trials, observed, below)
            if chance < IMPROBABLE:
                total = sum(played.values())
                out.append(OutOfRange(ruleset, name, observed, total, mean, chance))
    return out


def _rates(entry: dict[str, Any], name: str) -> tuple[float, float, float]:
    """A name's rate in a kind of game, as learnt: (low bound, estimate, high bound). The bounds
    are three standard deviations of the learnt count either side (a run as long as the one
    learnt from may differ from it by chance too)."""
    hits = entry["seen"].get(name, 0)
    games = entry["games"] + 1
    spread = 3 * math.sqrt(hits + 1)
    estimate = hits / games
    low = max(0.0, hits - spread) / games
    high = min(1.0, (hits + spread + 1) / games)
    return low, min(estimate, 1.0), high


def _judge(name: str) -> str:
    """The judge a class name belongs to: the first word of its peer."""
    return name.removeprefix("class: ").split(" ", 1)[0]


def _tail(trials: list[tuple[int, float]], observed: int, below: bool) -> float:
    """P(X <= observed) when ``below``, else P(X >= observed), for X a sum of binomials (n, p):
    exactly where the count on the rarer side (games with the name, or without it) is expected
    below :data:`NORMAL_FROM`, by the normal approximation above."""
    games = sum(n for n, _ in trials)
    mean = sum(n * p for n, p in trials)
    if mean > games - mean:  # count the games without the name: the rarer side
        trials = [(n, 1.0 - p) for n, p in trials]
        observed, mean, below = games - observed, games - mean, not below
    if (below and observed >= mean) or (not below and observed <= mean):
        return 1.0  # (not out on the side asked about)
    if mean >= NORMAL_FROM:
        variance = sum(n * p * (1 - p) for n, p in trials)
        z = (abs(observed - mean) - 0.5) / math.sqrt(variance)
        return 0.5 * math.erfc(max(z, 0.0) / math.sqrt(2))
    last = observed if below else observed - 1
    distribution = [1.0]
    for n, p in trials:
        distribution = _convolve(distribution, _binomial(n, p, last + 1))[: last + 1]
    at_most = min(1.0, sum(distribution))
    return at_most if below else max(0.0, 1.0 - at_most)


def _binomial(n: int, p: float, length: int) -> list[float]:
    """The first ``length`` terms of the binomial (n, p) distribution."""
    if p <= 0.0:
        return [1.0]
    if p >= 1.0:
        return [0.0] * min(n, length) + ([1.0] if n < length else [])
    log_p, log_q = math.log(p), math.log1p(-p)
    return [
        math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                 + k * log_p + (n - k) * log_q)
        for k in range(min(n, length - 1) + 1)
    ]  # fmt: skip


def _convolve(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x == 0.0:
            continue
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def build(parts_dirs: Iterable[Path]) -> dict[str, Any]:
    """The rates of every part file in the folders: of the rare situations and the explained
    classes (an unexplained class fails a run whatever its count)."""
    from benchmarks.referee.explained import explanation

    seen: Counter[str] = Counter()
    sources = []
    for folder in parts_dirs:
        files = sorted(folder.glob("*.json"))
        for path in files:
            data = json.loads(path.read_text())
            for key, count in data["figures"].get("seen", {}).items():
                ruleset, _, name = key.split("\t", 2)
                if name.startswith("class: "):
                    peer, _, what = name.removeprefix("class: ").partition(" | ")
                    if explanation(peer, what, ruleset) is None:
                        continue  # (an unexplained class is a failure, not a rate)
                seen[key] += count
        codes = sorted({json.loads(p.read_text()).get("code", "") for p in files})
        sources.append({"folder": str(folder), "parts": len(files), "code": codes})
    return {
        "command": "python -m benchmarks.referee.expected " + " ".join(str(f) for f in parts_dirs),
        "from": sources,
        "rates": rates_from(seen),
    }


def per_thousand(rates: dict[str, Any], ruleset: str, name: str) -> float | None:
    """Games in 1,000 of the rule set's whole mix (every kind of game) that show the name, or
    ``None`` when the rates do not know the rule set."""
    kinds = rates.get(ruleset)
    if not kinds:
        return None
    games = sum(entry["games"] for entry in kinds.values())
    hits = sum(entry["seen"].get(name, 0) for entry in kinds.values())
    return 1000 * hits / games if games else None


def table(expected: dict[str, Any] | None = None) -> str:
    """The expected rates as Markdown: every explained class (with its reason) and every rare
    situation, in games per 1,000 of each rule set's mix (docs/replay.md)."""
    from benchmarks.referee.explained import EXPLAINED
    from benchmarks.referee.rare import SITUATIONS

    data = load() if expected is None else expected
    rates = data.get("rates", data)
    rulesets = [r for r in ("tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p") if r in rates]
    head = "| " + " | ".join(rulesets) + " |"
    lines = ["| peer | class | " + head[2:], "|---|---|" + "---:|" * len(rulesets)]
    for entry in EXPLAINED:
        cells = []
        for ruleset in rulesets:
            value = per_thousand(rates, ruleset, f"class: {entry.peer} | {entry.what}")
            cells.append("" if ruleset not in entry.rulesets or value is None else f"{value:.1f}")
        lines.append(f"| {entry.peer} | {entry.what} | " + " | ".join(cells) + " |")
    lines += ["", "| situation | " + head[2:], "|---|" + "---:|" * len(rulesets)]
    for situation in SITUATIONS:
        cells = []
        for ruleset in rulesets:
            value = per_thousand(rates, ruleset, f"situation: {situation.strip()}")
            cells.append("" if value is None else f"{value:.1f}")
        lines.append(f"| {situation.strip()} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(argv if argv is not None else sys.argv[1:])
    if args == ["--table"]:
        print(table())
        return 0
    folders = [Path(arg) for arg in args]
    if not folders:
        print("usage: python -m benchmarks.referee.expected PARTS_DIR [PARTS_DIR ...] | --table")
        return 2
    data = build(folders)
    if not data["rates"]:
        print("no counts in those parts (written before the referee kept them?)", file=sys.stderr)
        return 1
    EXPECTED_FILE.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    games = sum(e["games"] for kinds in data["rates"].values() for e in kinds.values())
    print(f"wrote {EXPECTED_FILE} from {games:,} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
