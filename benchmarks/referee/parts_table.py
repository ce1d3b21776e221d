"""The finished parts of a long referee run as a Markdown table (docs/replay.md's "in parts").

Usage, from the repository root::

    python -m benchmarks.referee.parts_table benchmarks/referee/runs/n100k

One row a part, in seed order then rule-set order: the part, the commit it ran, its games, its
worker seconds (CPU of the judging process), games per core second, and its disagreements
unexplained and explained (counted with today's ``benchmarks.referee.explained``, so a class
explained since the part ran counts as explained). A last line sums them up.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from benchmarks.referee.explained import explanation

RULESET_ORDER = ("tenhou-4p", "tenhou-3p", "majsoul-4p", "majsoul-3p")


def _order(part: dict[str, object]) -> tuple[int, int]:
    ruleset = str(part["ruleset"])
    rank = RULESET_ORDER.index(ruleset) if ruleset in RULESET_ORDER else len(RULESET_ORDER)
    return int(str(part["start"])), rank


def rows(parts_dir: Path) -> list[dict[str, object]]:
    """Each finished part's figures, in the table's order."""
    found = []
    for path in parts_dir.glob("*.json"):
        data = json.loads(path.read_text())
        part, figures = data["part"], data["figures"]
        unexplained = explained = 0
        for entry in figures["disagreements"]:
            known = explanation(entry["peer"], entry["what"], entry.get("ruleset", part["ruleset"]))
            if known is None:
                unexplained += entry["count"]
            else:
                explained += entry["count"]
        found.append(
            {
                "ruleset": part["ruleset"],
                "start": part["start"],
                "stop": part["stop"],
                "code": data["code"],
                "games": figures["games"],
                "cpu": figures["cpu_seconds"],
                "unexplained": unexplained,
                "explained": explained,
            }
        )
    return sorted(found, key=_order)


def table(found: list[dict[str, object]]) -> str:
    lines = [
        "| part | code | games | worker s | per core | unexplained | explained |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in found:
        games, cpu = int(str(row["games"])), float(str(row["cpu"]))
        lines.append(
            f"| {row['ruleset']} {row['start']}-{int(str(row['stop'])) - 1} | {row['code']} "
            f"| {games:,} | {cpu:.1f} | {games / cpu:.2f} | {row['unexplained']} "
            f"| {int(str(row['explained'])):,} |"
        )
    games = sum(int(str(row["games"])) for row in found)
    cpu = sum(float(str(row["cpu"])) for row in found)
    unexplained = sum(int(str(row["unexplained"])) for row in found)
    lines.append("")
    lines.append(
        f"{len(found)} parts: {games:,} games, {cpu:,.1f} s of worker time "
        f"({games / cpu if cpu else 0:.2f} games/s per core), {unexplained} unexplained"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("parts_dir", type=Path)
    args = parser.parse_args(argv)
    print(table(rows(args.parts_dir)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
