"""Deliberate bugs in the engine that the referee must each report: the check of the checker.

A referee is only as good as the bugs it catches. Each :class:`Mutation` changes one piece of
the engine's source (a value, a condition, a line), the way a real bug would; the referee then
self-plays games *with the mutated engine* (its bots, its state machine, its writers, its
replay), and must report at least one unexplained disagreement, or a rare situation or an
explained class outside its expected range. A mutation that survives is a hole in the proof.

Each mutation runs in a process of its own, with a copy of ``engine/`` (the ``.py`` files and
data, never a compiled build) edited in a temporary folder placed first on ``sys.path``; the
rest of the referee (its judges, its own rule tables) is the repository's. An edit whose text
is not found exactly once is an error of this table (the engine changed under it), not a
caught mutation.

::

    .venv/bin/python -m benchmarks.referee.mutations            # every mutation, a table
    .venv/bin/python -m benchmarks.referee.mutations --only uma --keep /tmp/m

``tests/benchmarks/test_referee_mutations.py`` runs every one in CI.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Mutation:
    name: str
    #: The bug, in words.
    bug: str
    #: The engine file, relative to the repository.
    path: str
    old: str
    new: str
    rulesets: tuple[str, ...]
    #: Games per rule set, and the kinds of game to play (``greedy``, ``mixed``,
    #: ``scenario:<name>``; empty: every kind), enough for the bug to show.
    games: int = 12
    kinds: tuple[str, ...] = ()
    #: Which judge is expected to report it (a word of its report line), for the table.
    caught_by: str = ""


MUTATIONS: tuple[Mutation, ...] = (
    Mutation(
        name="uma",
        bug="Mahjong Soul's uma is Tenhou's 20/10",
        path="engine/rules/presets.py",
        old='name="majsoul-4p",\n    uma=(15, 5, -5, -15),',
        new='name="majsoul-4p",\n    uma=(20, 10, -10, -20),',
        rulesets=("majsoul-4p",),
        games=4,
        kinds=("greedy",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="honba-after-draw",
        bug="the honba resets after a draw where the dealer was noten",
        path="engine/game_flow.py",
        old="honba = position.honba + 1 if dealer_keeps or not outcome.won else 0",
        new="honba = position.honba + 1 if dealer_keeps else 0",
        rulesets=("tenhou-4p",),
        games=8,
        kinds=("greedy",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="sanma-noten-pool",
        bug="Tenhou sanma pools the noten payments at 3,000",
        path="engine/rules/presets.py",
        old="# records +1,000 / -2,000 / +1,000).\n    noten_payment_total=2000,",
        new="# records +1,000 / -2,000 / +1,000).\n    noten_payment_total=3000,",
        rulesets=("tenhou-3p",),
        games=8,
        kinds=("greedy",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="no-chankan",
        bug="nobody may rob an added kan (chankan removed)",
        path="engine/state/legal.py",
        old="                candidates.extend(self._ron_candidates(self.rob_tile, self.turn))\n",
        new="                pass\n",
        rulesets=("tenhou-4p",),
        games=8,
        kinds=("scenario:chankan",),
        caught_by="(choices)",
    ),
    Mutation(
        name="no-kokushi-ankan",
        bug="thirteen orphans may not rob a closed kan on Mahjong Soul",
        path="engine/rules/presets.py",
        old="    kokushi_robs_ankan=True,\n",
        new="    kokushi_robs_ankan=False,\n",
        rulesets=("majsoul-4p",),
        games=12,
        kinds=("scenario:kokushi_ankan",),
        caught_by="riichienv (choices)",
    ),
    Mutation(
        name="dealer-tenpai-passes",
        bug="a dealer tenpai at the exhaustive draw passes the deal",
        path="engine/state/game.py",
        old="            dealer_keeps = self.dealer in result.tenpai\n",
        new="            dealer_keeps = False\n",
        rulesets=("tenhou-4p",),
        games=8,
        kinds=("greedy",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="no-agari-yame",
        bug="the all-last dealer in first place plays on after a win",
        path="engine/game_flow.py",
        old="stops = ruleset.agari_yame if outcome.won else ruleset.tenpai_yame",
        new="stops = False if outcome.won else ruleset.tenpai_yame",
        rulesets=("tenhou-4p", "majsoul-4p"),
        games=24,
        kinds=("greedy",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="sticks-stay",
        bug="riichi sticks left at the end do not go to first place",
        path="engine/game_flow.py",
        old="if sticks and ruleset.leftover_sticks_to_first:",
        new="if False:",
        rulesets=("tenhou-4p", "majsoul-4p"),
        games=24,
        kinds=("greedy",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="no-bust",
        bug="the game goes on below zero",
        path="engine/game_flow.py",
        old="if ruleset.tobi and any(score < 0 for score in scores):",
        new="if False:",
        rulesets=("tenhou-4p",),
        games=12,
        kinds=("mixed",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="no-extra-round",
        bug="the game ends after the last scheduled hand whoever leads",
        path="engine/game_flow.py",
        old="if reached or not ruleset.sudden_death or last_extra:",
        new="if True:",
        rulesets=("tenhou-4p", "tenhou-3p"),
        games=24,
        kinds=("greedy",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="kuikae",
        bug="a swap call's discard is allowed right after the call",
        path="engine/state/legal.py",
        old="forbidden = frozenset() if self.ruleset.kuikae else data.forbidden",
        new="forbidden = frozenset()",
        rulesets=("tenhou-4p",),
        games=8,
        kinds=("greedy",),
        caught_by="libriichi",
    ),
    Mutation(
        name="riichi-last-draw",
        bug="riichi may be declared with no draw left",
        path="engine/state/riichi.py",
        old="if ruleset.riichi_needs_draw and self.tiles_left < self.players:",
        new="if ruleset.riichi_needs_draw and self.tiles_left < 0:",
        rulesets=("tenhou-4p",),
        games=12,
        kinds=("greedy",),
        caught_by="(choices)",
    ),
    Mutation(
        name="furiten-ron",
        bug="a furiten hand may ron",
        path="engine/state/wins.py",
        old="            if self.furiten(seat):\n",
        new="            if False:\n",
        rulesets=("tenhou-4p",),
        games=12,
        kinds=("greedy",),
        caught_by="(choices)",
    ),
    Mutation(
        name="ippatsu-survives-calls",
        bug="a call does not end ippatsu",
        path="engine/state/base.py",
        old="        self.first_turn = False\n        for data in self.seats:\n"
        "            data.ippatsu = False\n",
        new="        self.first_turn = False\n",
        rulesets=("tenhou-4p", "majsoul-4p"),
        games=40,
        kinds=("mixed",),
        caught_by="mahjong",
    ),
    Mutation(
        name="nagashi-payments",
        bug="nagashi mangan pays a haneman",
        path="engine/state/hand_ends.py",
        old="_MANGAN_BASE = 2000",
        new="_MANGAN_BASE = 3000",
        rulesets=("tenhou-4p",),
        games=6,
        kinds=("scenario:nagashi",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="four-winds-play-on",
        bug="four winds discarded at the start do not end the hand",
        path="engine/state/draw_discard.py",
        old="            self.forced_abort = AbortKind.FOUR_WINDS\n",
        new="            pass\n",
        rulesets=("tenhou-4p",),
        games=8,
        kinds=("scenario:suufon",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="four-riichi-play-on",
        bug="a fourth riichi does not end the hand",
        path="engine/state/riichi.py",
        old="            self.forced_abort = AbortKind.FOUR_RIICHI\n",
        new="            pass\n",
        rulesets=("majsoul-4p",),
        games=8,
        kinds=("scenario:suucha",),
        caught_by="referee (game)",
    ),
    Mutation(
        name="nine-terminals-of-eight",
        bug="nine terminals may be declared with eight kinds",
        path="engine/state/hand_ends.py",
        old="            if distinct < 9:\n",
        new="            if distinct < 8:\n",
        rulesets=("tenhou-4p", "tenhou-3p"),
        games=24,
        kinds=("mixed", "scenario:kyuushu"),
        caught_by="(choices)",
    ),
    Mutation(
        name="open-kan-dora-at-once",
        bug="an open kan's indicator is turned at once on Tenhou",
        path="engine/rules/ruleset.py",
        old="open_kan_dora_timing: KanDoraTiming = KanDoraTiming.AFTER_REPLACEMENT",
        new="open_kan_dora_timing: KanDoraTiming = KanDoraTiming.IMMEDIATE",
        rulesets=("tenhou-4p",),
        games=12,
        kinds=("scenario:rinshan", "scenario:suukantsu"),
        caught_by="jansou",
    ),
    Mutation(
        name="no-suukaikan",
        bug="four kans by several players do not end the hand",
        path="engine/state/calls.py",
        old="if self.kans == 4 and len(self.kan_seats) > 1 and ruleset.suukaikan:",
        new="if False:",
        rulesets=("tenhou-4p",),
        games=8,
        kinds=("scenario:suukaikan",),
        caught_by="libriichi",
    ),
)


def by_name(name: str) -> Mutation:
    for mutation in MUTATIONS:
        if mutation.name == name:
            return mutation
    raise KeyError(f"no mutation {name!r}: {', '.join(m.name for m in MUTATIONS)}")


def mutated_engine(mutation: Mutation, folder: Path) -> Path:
    """A copy of ``engine/`` in ``folder`` with the mutation's edit made; ``folder`` goes first
    on ``sys.path``. Compiled modules and caches are left out (they would win over the edit).

    :raises ValueError: the edit's text is not in the file exactly once.
    """
    target = folder / "engine"
    shutil.copytree(
        ROOT / "engine",
        target,
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "build"),
    )
    path = folder / mutation.path
    text = path.read_text()
    found = text.count(mutation.old)
    if found != 1:
        raise ValueError(
            f"mutation {mutation.name}: its text is in {mutation.path} {found} times, not once "
            "(the engine changed: update benchmarks/referee/mutations.py)"
        )
    path.write_text(text.replace(mutation.old, mutation.new))
    return folder


@dataclass
class Outcome:
    mutation: Mutation
    caught: bool
    status: int
    seconds: float
    #: The report's lines naming what failed (unexplained classes, ranges left).
    reasons: list[str]
    output: str


def referee_command(folder: Path | None, mutation: Mutation, parts: Path, jobs: int) -> list[str]:
    path = [str(ROOT)] if folder is None else [str(folder), str(ROOT)]
    boot = (
        f"import sys; sys.path[:0] = {path!r}; "
        "from benchmarks.referee.cli import main; sys.exit(main())"
    )
    command = [
        sys.executable,
        "-c",
        boot,
        "--games",
        str(mutation.games),
        "--rulesets",
        ",".join(mutation.rulesets),
        "--jobs",
        str(jobs),
        "--part-size",
        str(mutation.games),
        "--parts-dir",
        str(parts),
        "--no-progress",
    ]
    if mutation.kinds:
        command += ["--kinds", ",".join(mutation.kinds)]
    return command


def run_mutation(
    mutation: Mutation, jobs: int = 1, keep: Path | None = None, mutate: bool = True
) -> Outcome:
    """Run the referee on the mutated engine; caught when it exits with status 1. With
    ``mutate=False``, the same run on the repository's engine: the control, which must pass
    (else a catch says nothing of the mutation)."""
    with tempfile.TemporaryDirectory(prefix=f"mutation-{mutation.name}-") as scratch:
        folder = Path(scratch) if keep is None else keep
        folder.mkdir(parents=True, exist_ok=True)
        if mutate:
            mutated_engine(mutation, folder)
        started = time.perf_counter()
        done = subprocess.run(
            referee_command(folder if mutate else None, mutation, folder / "parts", jobs),
            capture_output=True,
            text=True,
            cwd=folder,
            check=False,
        )
        seconds = time.perf_counter() - started
    output = done.stdout + done.stderr
    # Status 1 with the report's last line: the referee found something (a crash exits with
    # status 1 too, without the report, and is no catch: the table is wrong).
    reported = "\nunexplained disagreements: " in done.stdout
    return Outcome(
        mutation=mutation,
        caught=done.returncode == 1 and reported,
        status=done.returncode,
        seconds=seconds,
        reasons=failure_lines(done.stdout),
        output=output,
    )


def failure_lines(report: str) -> list[str]:
    """The report's lines that made the run fail: the unexplained classes and every count out
    of its expected range."""
    lines = report.splitlines()
    out: list[str] = []
    section = ""
    for line in lines:
        if line.startswith("disagreement classes ("):
            section = "unexplained"
            continue
        if line.startswith(("explained classes", "rare situations")):
            section = ""
        if section == "unexplained" and line.startswith("  ") and line.strip() != "(none)":
            out.append(line.strip())
        if "OUT OF RANGE" in line:
            out.append(line.strip())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.referee.mutations")
    parser.add_argument("--only", help="comma-separated mutation names (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes of each referee")
    parser.add_argument("--keep", type=Path, help="keep the mutated engine and parts here")
    args = parser.parse_args(argv)
    chosen = MUTATIONS if not args.only else tuple(by_name(n) for n in args.only.split(","))
    survived = 0
    print("| mutation | bug | rule sets | games | caught | by | seconds |")
    print("|---|---|---|---|---|---|---|")
    for mutation in chosen:
        keep = None if args.keep is None else args.keep / mutation.name
        outcome = run_mutation(mutation, jobs=args.jobs, keep=keep)
        if "\nunexplained disagreements: " not in outcome.output:
            print(outcome.output, file=sys.stderr)  # the referee did not finish: say why
        survived += not outcome.caught
        judges = dict.fromkeys(reason.split(" | ")[0] for reason in outcome.reasons)
        first = ", ".join(judges) if judges else "-"
        print(
            f"| {mutation.name} | {mutation.bug} | {', '.join(mutation.rulesets)} | "
            f"{mutation.games} x {', '.join(mutation.kinds) or 'all kinds'} | "
            f"{'yes' if outcome.caught else 'NO'} | {first} | {outcome.seconds:.1f} |"
        )
    print(f"\nmutations survived: {survived} of {len(chosen)}")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
