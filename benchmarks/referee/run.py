"""The referee's run: parts of seeds, judged in worker processes, figures added up.

Work is split into **parts**: one rule set and a range of seeds (``--part-size`` games, 1,000 by
default). A part is cut into chunks of a few games, which the worker processes judge
(:func:`judge_chunk`); when every chunk of a part is back, its figures (games, wall and CPU
seconds, checks made per peer, disagreements by class with the first example, rare situations,
kinds of game) are written to ``<parts-dir>/<ruleset>_<start>-<stop>.json``. A rerun skips the
parts whose file exists, so a long run can be stopped and resumed; the summary adds up every part
of the requested range, finished now or before.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from tqdm import tqdm

from benchmarks.referee import expected, rare
from benchmarks.referee.explained import explanation
from benchmarks.referee.findings import Finding
from benchmarks.referee.games import kind_of, make_game
from benchmarks.referee.judging import PEERS, judge_game

DEFAULT_RULESETS = ("tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p")
CHUNK = 10


def class_key(peer: str, what: str, ruleset: str) -> str:
    return f"{peer}\t{what}\t{ruleset}"


def situation_name(situation: str) -> str:
    """A rare situation's name among the counts of :attr:`Figures.seen`."""
    return f"situation: {situation.strip()}"


def class_name(peer: str, what: str) -> str:
    """A disagreement class's name among the counts of :attr:`Figures.seen`."""
    return f"class: {peer} | {what}"


@dataclass
class Figures:
    """What judging some games gave; :meth:`merge` adds two up."""

    games: int = 0
    #: Wall seconds (a part: from its first chunk's start to its last chunk's end).
    seconds: float = 0.0
    #: Seconds of worker processes' time spent on the games.
    cpu_seconds: float = 0.0
    checks: Counter[str] = field(default_factory=Counter)
    #: Disagreement classes: key -> {peer, what, ruleset, count, first}.
    classes: dict[str, dict[str, Any]] = field(default_factory=dict)
    rare: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    #: In how many games each rare situation and each disagreement class occurred, by rule set
    #: and kind of game: ``"<ruleset>\t<kind>\t<name>"`` (``name`` ``""``: the games played),
    #: for the expected ranges (:mod:`benchmarks.referee.expected`).
    seen: Counter[str] = field(default_factory=Counter)
    started: float = 0.0
    ended: float = 0.0

    def add_finding(self, finding: Finding, ruleset: str, seed: int) -> None:
        key = class_key(finding.peer, finding.what, ruleset)
        entry = self.classes.get(key)
        example = finding.example(ruleset, seed)
        if entry is None:
            self.classes[key] = {
                "peer": finding.peer,
                "what": finding.what,
                "ruleset": ruleset,
                "count": 1,
                "first": example,
            }
            return
        entry["count"] += 1
        if seed < entry["first"]["seed"]:
            entry["first"] = example

    def merge(self, other: Figures) -> None:
        self.games += other.games
        self.cpu_seconds += other.cpu_seconds
        self.checks.update(other.checks)
        self.rare.update(other.rare)
        self.kinds.update(other.kinds)
        self.seen.update(other.seen)
        for key, entry in other.classes.items():
            mine = self.classes.get(key)
            if mine is None:
                self.classes[key] = {**entry, "first": dict(entry["first"])}
                continue
            mine["count"] += entry["count"]
            if entry["first"]["seed"] < mine["first"]["seed"]:
                mine["first"] = dict(entry["first"])
        if other.started and (not self.started or other.started < self.started):
            self.started = other.started
        self.ended = max(self.ended, other.ended)

    def unexplained(self) -> int:
        return sum(
            entry["count"]
            for entry in self.classes.values()
            if explanation(entry["peer"], entry["what"], entry["ruleset"]) is None
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "games_per_second": round(self.games / self.seconds, 3) if self.seconds else None,
            "checks": dict(sorted(self.checks.items())),
            "disagreements": sorted(
                self.classes.values(), key=lambda e: (e["peer"], e["what"], e["ruleset"])
            ),
            "unexplained": self.unexplained(),
            "rare": {name: self.rare[name] for name in rare.SITUATIONS if self.rare[name]},
            "kinds": dict(sorted(self.kinds.items())),
            "seen": dict(sorted(self.seen.items())),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Figures:
        figures = cls(
            games=data["games"],
            seconds=data["seconds"],
            cpu_seconds=data["cpu_seconds"],
            checks=Counter(data["checks"]),
            rare=Counter(data["rare"]),
            kinds=Counter(data["kinds"]),
            seen=Counter(data.get("seen", {})),
        )
        for entry in data["disagreements"]:
            figures.classes[class_key(entry["peer"], entry["what"], entry["ruleset"])] = entry
        return figures


# -- one chunk, in a worker -------------------------------------------------------------------


Task = tuple[str, int, int, tuple[str, ...], tuple[str, ...]]


def judge_chunk(task: Task) -> tuple[str, int, Figures]:
    """Self-play and judge the seeds ``start`` .. ``stop - 1`` of one rule set (only those of
    the given kinds of game, when some are given)."""
    ruleset, start, stop, peers, kinds = task
    figures = Figures(started=time.time())
    cpu = time.process_time()
    for seed in range(start, stop):
        kind = kind_of(ruleset, seed)
        if kinds and kind not in kinds:
            continue
        figures.kinds[kind] += 1
        figures.games += 1
        try:
            game = make_game(ruleset, seed)
        except Exception as error:  # a bug of self-play: a finding, and the run goes on
            figures.add_finding(_crash("self-play", error), ruleset, seed)
            continue
        verdicts = judge_game(game, frozenset(peers))
        for finding in verdicts.findings:
            figures.add_finding(finding, ruleset, seed)
        figures.checks.update(verdicts.checks)
        situations = rare.count(game)
        figures.rare.update(situations)
        names = {situation_name(name) for name, n in situations.items() if n}
        names |= {class_name(f.peer, f.what) for f in verdicts.findings}
        figures.seen.update(f"{ruleset}\t{kind}\t{name}" for name in ("", *names))
    figures.cpu_seconds = time.process_time() - cpu
    figures.ended = time.time()
    return ruleset, start, figures


def _crash(stage: str, error: Exception) -> Finding:
    return Finding("referee", f"{stage} crashed: {type(error).__name__}", "", None, "", str(error))


# -- parts ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    ruleset: str
    start: int
    stop: int
    #: Only games of these kinds (a targeted run); empty: every seed of the range.
    kinds: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        name = f"{self.ruleset}_{self.start:09d}-{self.stop:09d}"
        return name + "".join(f"_{kind.replace(':', '-')}" for kind in self.kinds)

    @property
    def games(self) -> int:
        if not self.kinds:
            return self.stop - self.start
        return sum(kind_of(self.ruleset, s) in self.kinds for s in range(self.start, self.stop))


def _stop_after(ruleset: str, start: int, games: int, kinds: tuple[str, ...]) -> int:
    """The seed after the ``games``-th one of the given kinds from ``start`` on."""
    seed, found = start, 0
    while found < games:
        if kind_of(ruleset, seed) in kinds:
            found += 1
        seed += 1
        if seed - start > 1000 * games + 1000:
            raise ValueError(f"no games of kinds {', '.join(kinds)} in {ruleset}")
    return seed


def parts_of(rulesets: Iterable[str], start: int, games: int, size: int) -> list[Part]:
    """The parts of a run, in seed order, the rule sets taking turns."""
    out = []
    for low in range(start, start + games, size):
        high = min(low + size, start + games)
        out.extend(Part(ruleset, low, high) for ruleset in rulesets)
    return out


def _load(path: Path) -> Figures | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return Figures.from_json(data["figures"])


def code_version() -> str:
    """The code a run judged with: the commit, and a digest of the uncommitted changes to the
    engine and the referee (others may be editing the checkout while a long run goes on; the
    processes keep what they imported at the start)."""
    root = Path(__file__).resolve().parent.parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        diff = subprocess.run(
            ["git", "diff", "HEAD", "--", "engine", "benchmarks/referee"],
            cwd=root,
            capture_output=True,
        ).stdout
    except OSError:
        return "unknown"
    return f"{head}+{hashlib.sha1(diff).hexdigest()[:10]}" if diff else head


def _save(path: Path, part: Part, figures: Figures, command: str, code: str) -> None:
    data = {
        "part": {"ruleset": part.ruleset, "start": part.start, "stop": part.stop},
        "command": command,
        "code": code,
        "finished_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "figures": figures.to_json(),
    }
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    os.replace(temporary, path)  # a part file is whole or absent, even if the run is killed


def run(
    *,
    games: int,
    rulesets: tuple[str, ...] = DEFAULT_RULESETS,
    seed_start: int = 0,
    jobs: int | None = None,
    parts_dir: Path | None = None,
    part_size: int = 1000,
    peers: tuple[str, ...] = PEERS,
    command: str = "",
    out: TextIO = sys.stdout,
    progress: bool | None = None,
    judge_missing: bool = True,
    kinds: tuple[str, ...] = (),
) -> Figures:
    """Judge ``games`` games per rule set (seeds ``seed_start`` on) and return the figures of the
    whole range, parts finished by earlier runs included; print a line per finished part.
    ``judge_missing=False`` judges nothing: the figures are those of the parts already finished
    in ``parts_dir`` (a long run's figures so far). With ``kinds`` (``greedy``, ``mixed``,
    ``scenario:<name>``), only games of those kinds are played: the first ``games`` of them
    from ``seed_start`` on, in one part per rule set (a targeted run, such as a mutation's)."""
    if kinds:
        parts = [
            Part(ruleset, seed_start, _stop_after(ruleset, seed_start, games, kinds), kinds)
            for ruleset in rulesets
        ]
    else:
        parts = parts_of(rulesets, seed_start, games, part_size)
    code = code_version()
    done: dict[Part, Figures] = {}
    if parts_dir is not None:
        parts_dir.mkdir(parents=True, exist_ok=True)
        for part in parts:
            loaded = _load(parts_dir / f"{part.name}.json")
            if loaded is not None:
                done[part] = loaded
    todo = [part for part in parts if part not in done]
    if not judge_missing:
        print(
            f"{len(done)} of {len(parts)} part(s) finished in {parts_dir}; the figures below "
            f"are theirs ({sum(p.games for p in todo):,} games not judged yet)",
            file=out,
        )
        parts, todo = [part for part in parts if part in done], []
    elif done:
        print(f"{len(done)} part(s) already finished in {parts_dir}: skipped", file=out)
    tasks: list[Task] = [
        (part.ruleset, low, min(low + CHUNK, part.stop), peers, part.kinds)
        for part in todo
        for low in range(part.start, part.stop, CHUNK)
    ]
    waiting = {part: (part.stop - part.start + CHUNK - 1) // CHUNK for part in todo}
    gathered = {part: Figures() for part in todo}
    owner = {
        (part.ruleset, low): part for part in todo for low in range(part.start, part.stop, CHUNK)
    }
    # Progress on a terminal (or when asked); a log file gets the part lines only.
    quiet = not sys.stderr.isatty() if progress is None else not progress
    bar = tqdm(
        total=sum(p.games for p in todo),
        unit="game",
        disable=quiet,
        file=sys.stderr,
        smoothing=0.05,
    )
    for ruleset, low, figures in _results(tasks, jobs):
        part = owner[(ruleset, low)]
        gathered[part].merge(figures)
        bar.update(figures.games)
        waiting[part] -= 1
        if waiting[part]:
            continue
        finished = gathered[part]
        finished.seconds = finished.ended - finished.started
        done[part] = finished
        if parts_dir is not None:
            _save(parts_dir / f"{part.name}.json", part, finished, command, code)
        bar.write(_part_line(part, finished), file=out)
        out.flush()
    bar.close()
    total = Figures()
    for part in parts:
        total.merge(done[part])
        total.seconds += done[part].seconds
    return total


def _results(tasks: list[Task], jobs: int | None) -> Iterator[tuple[str, int, Figures]]:
    if not tasks:
        return
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        for task in tasks:
            yield judge_chunk(task)
        return
    # fork: the workers inherit the imported peers and the engine's warm tables.
    with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=200) as pool:
        yield from pool.imap_unordered(judge_chunk, tasks)


def _part_line(part: Part, figures: Figures) -> str:
    rate = figures.games / figures.seconds if figures.seconds else 0.0
    per_core = figures.games / figures.cpu_seconds if figures.cpu_seconds else 0.0
    found = sum(e["count"] for e in figures.classes.values())
    outside = len(expected.check(figures.seen, judges=figures.checks))
    return (
        f"part {part.ruleset} seeds {part.start}-{part.stop - 1}: {figures.games} games in "
        f"{figures.seconds:.1f} s, {rate:.2f} games/s ({per_core:.2f} per core), "
        f"{found} disagreements ({figures.unexplained()} unexplained), "
        f"{outside} counts out of range"
    )


# -- the report -----------------------------------------------------------------------------------


def report(figures: Figures, out: TextIO = sys.stdout) -> Failures:
    """Print the summary; return the number of unexplained disagreements (the last line) and of
    counts out of their expected range (:mod:`benchmarks.referee.expected`)."""
    rate = figures.games / figures.seconds if figures.seconds else 0.0
    print(
        f"\n{figures.games} games judged in {figures.seconds:.1f} s of parts' wall time "
        f"({rate:.2f} games/s; {figures.cpu_seconds:.1f} s of worker time)",
        file=out,
    )
    print("games: " + ", ".join(f"{k} {v}" for k, v in sorted(figures.kinds.items())), file=out)
    print(
        "checks made: " + ", ".join(f"{k} {v}" for k, v in sorted(figures.checks.items())), file=out
    )
    entries = sorted(
        figures.classes.values(), key=lambda e: (-e["count"], e["peer"], e["what"], e["ruleset"])
    )
    unexplained = [e for e in entries if explanation(e["peer"], e["what"], e["ruleset"]) is None]
    explained = [e for e in entries if explanation(e["peer"], e["what"], e["ruleset"]) is not None]
    print(f"\ndisagreement classes ({len(unexplained)} unexplained):", file=out)
    for entry in unexplained:
        print("  " + _class_line(entry), file=out)
    if not unexplained:
        print("  (none)", file=out)
    print(f"\nexplained classes, the peer's fault ({len(explained)}; not counted):", file=out)
    for entry in explained:
        reason = explanation(entry["peer"], entry["what"], entry["ruleset"])
        assert reason is not None
        print("  " + _class_line(entry), file=out)
        print(f"      why: {reason.reason}", file=out)
    if not explained:
        print("  (none)", file=out)
    print("\nrare situations (occurrences):", file=out)
    width = max(len(name) for name in rare.SITUATIONS)
    for name in rare.SITUATIONS:
        print(f"  {name:<{width}}  {figures.rare[name]:>8}", file=out)
    ranges = expected.check(figures.seen, judges=figures.checks)
    print(f"\ncounts out of their expected range ({len(ranges)}):", file=out)
    for outside in ranges:
        print("  " + outside.line(), file=out)
    if not ranges:
        print("  (none)", file=out)
    count = sum(e["count"] for e in unexplained)
    print(f"\nunexplained disagreements: {count}", file=out)
    return Failures(count, len(ranges))


class Failures(NamedTuple):
    """What makes a run fail: unexplained disagreements, and counts out of their range."""

    unexplained: int
    out_of_range: int

    def __bool__(self) -> bool:
        return bool(self.unexplained or self.out_of_range)


def _class_line(entry: dict[str, Any]) -> str:
    first = entry["first"]
    where = f"seed {first['seed']}"
    if first["round"]:
        where += f", round {first['round']}"
    if first["event"] is not None:
        where += f", event {first['event']}"
    return (
        f"{entry['peer']} | {entry['what']} | {entry['ruleset']}: {entry['count']} "
        f"(first: {first['ruleset']} {where}: ours {first['ours']}; theirs {first['theirs']})"
    )
