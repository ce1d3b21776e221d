"""The referee's command line (``benchmarks/referee.py``): arguments, the run, the report."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

from benchmarks.referee.peers import JUDGES, missing

DEFAULT_RULESETS = ("tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="benchmarks/referee.py",
        description=(
            "Self-play games, export them through our writers, read them back, and have "
            "independent engines (Mortal's libriichi, riichienv, jansou, mahjong) judge every "
            "action and every win. Ends with 'unexplained disagreements: K' (exit status 1 when "
            "K > 0)."
        ),
    )
    p.add_argument("--games", type=int, help="games per rule set")
    p.add_argument(
        "--rulesets",
        default=",".join(DEFAULT_RULESETS),
        help="comma-separated presets (default: %(default)s)",
    )
    p.add_argument("--seed-start", type=int, default=0, help="first seed (default: 0)")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("--parts-dir", type=Path, help="write each part's figures here; skip parts done")
    p.add_argument("--part-size", type=int, default=1000, help="games per rule set per part")
    p.add_argument(
        "--finished-only",
        action="store_true",
        help="judge nothing: report the parts already finished in --parts-dir (a long run so far)",
    )
    p.add_argument(
        "--peers",
        default=",".join(JUDGES),
        help="judges to run (default: all): " + ", ".join(JUDGES),
    )
    p.add_argument(
        "--show",
        metavar="RULESET:SEED",
        help="regenerate one game, write its exports to --out and print what every peer says",
    )
    p.add_argument(
        "--kinds",
        default="",
        help="play only games of these kinds (comma-separated: greedy, mixed, "
        "scenario:<name>): the first --games of them per rule set, one part each",
    )
    p.add_argument("--out", type=Path, default=Path("."), help="where --show writes the game")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    problems = missing()
    if problems:
        for line in problems:
            print(f"referee: {line}", file=sys.stderr)
        return 2
    # The peers are present: only now import what imports them.
    from benchmarks.referee import run as running

    peers = tuple(p.strip() for p in args.peers.split(",") if p.strip())
    if args.show:
        return show(args.show, args.out, peers)
    if args.games is None:
        print("referee: --games is required (or --show RULESET:SEED)", file=sys.stderr)
        return 2
    if args.finished_only and args.parts_dir is None:
        print("referee: --finished-only reads --parts-dir, which is missing", file=sys.stderr)
        return 2
    rulesets = tuple(r.strip() for r in args.rulesets.split(",") if r.strip())
    command = "benchmarks/referee.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])
    )
    figures = running.run(
        games=args.games,
        rulesets=rulesets,
        seed_start=args.seed_start,
        jobs=args.jobs,
        parts_dir=args.parts_dir,
        part_size=args.part_size,
        peers=peers,
        command=command,
        progress=args.progress,
        judge_missing=not args.finished_only,
        kinds=tuple(k.strip() for k in args.kinds.split(",") if k.strip()),
    )
    failures = running.report(figures)
    return 1 if failures else 0


def show(which: str, out: Path, peers: tuple[str, ...]) -> int:
    """Regenerate one game, write it (canonical, mjai, tenhou6) and print every finding."""
    from benchmarks.referee.games import game_id, kind_of, make_game
    from benchmarks.referee.judge_ours import exports
    from benchmarks.referee.judging import judge_game
    from engine.formats import canonical

    ruleset, _, seed_text = which.rpartition(":")
    seed = int(seed_text)
    game = make_game(ruleset, seed)
    name = game_id(ruleset, seed)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(canonical.dumps(game, indent=1))
    for export, text in exports(game).items():
        suffix = ".mjai.jsonl" if export == "mjai" else ".tenhou6.json"
        (out / f"{name}{suffix}").write_text(text)
    print(f"{name}: {kind_of(ruleset, seed)}, {len(game.rounds)} hands; written to {out}{os.sep}")
    verdicts = judge_game(game, frozenset(peers))
    for finding in verdicts.findings:
        print(
            f"  {finding.peer} | {finding.what} | round {finding.round}, event {finding.event}: "
            f"ours {finding.ours}; theirs {finding.theirs}"
        )
    print(f"checks: {dict(verdicts.checks)}; {len(verdicts.findings)} finding(s)")
    return 0
