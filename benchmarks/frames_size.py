"""Measure what the replay viewer downloads: each round's frames, as sent and as JSON.

Usage, from the repository root::

    python benchmarks/frames_size.py [PATH ...] [--limit 60000]

PATH defaults to ``../shared/corpus``. The files are imported (``manage.py import_logs``) into
a new SQLite database; then every round of every game is asked for, as the viewer asks for it
(``GET /api/games/<id>/rounds/<n>/frames/`` with ``Accept-Encoding: gzip``), through the whole
middleware stack in this process. The script prints the largest rounds, the median and the
largest size of the JSON and of what went on the wire, their ratio, and how many rounds are over
``--limit`` bytes on the wire (issue 21's goal: none over 60 KB). Exit status 1 if any is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATHS = [ROOT.parent / "shared" / "corpus"]


def imported(paths: list[Path], database: Path) -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith("CELERY_")}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    for command in (["migrate", "-v0"], ["import_logs", *map(str, paths), "--quiet"]):
        done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env)
        if done.returncode not in (0, 1):  # 1: a file failed; the rest are in
            sys.exit(f"manage.py {command[0]} exited {done.returncode}")
    os.environ["DATABASE_URL"] = env["DATABASE_URL"]


def measured() -> list[tuple[int, int, int, int]]:
    """(game, round, JSON bytes, wire bytes) of every round."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test import Client

    from mjlogs.models import Game

    client = Client(HTTP_HOST="localhost")
    sizes = []
    for game_id in Game.objects.order_by("pk").values_list("pk", flat=True):
        index, count = 0, 1
        while index < count:
            url = f"/api/games/{game_id}/rounds/{index}/frames/"
            plain = client.get(url)
            if plain.status_code != 200:
                break  # a game whose frames cannot be shown says so; not a size
            count = len(plain.json()["rounds"])  # every answer lists the game's rounds
            wire = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
            sizes.append((game_id, index, len(plain.content), len(wire.content)))
            index += 1
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=DEFAULT_PATHS)
    parser.add_argument("--limit", type=int, default=60_000, help="bytes on the wire a round")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        imported(args.paths, Path(folder) / "db.sqlite3")
        sizes = measured()
    if not sizes:
        print("no rounds to measure", file=sys.stderr)
        return 2
    print(f"{len(sizes)} rounds of {len({game for game, *_ in sizes})} games")
    print("largest rounds (game, round: JSON bytes -> wire bytes):")
    for game, index, plain, wire in sorted(sizes, key=lambda size: -size[2])[:5]:
        print(f"  game {game}, round {index}: {plain:,} -> {wire:,}")
    plains = [plain for *_, plain, _ in sizes]
    wires = [wire for *_, wire in sizes]
    print(f"JSON: median {statistics.median(plains):,.0f} B, largest {max(plains):,} B")
    print(f"wire: median {statistics.median(wires):,.0f} B, largest {max(wires):,} B")
    print(f"wire / JSON: {sum(wires) / sum(plains):.3f}")
    over = sum(wire > args.limit for wire in wires)
    print(f"rounds over {args.limit:,} B on the wire: {over}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
