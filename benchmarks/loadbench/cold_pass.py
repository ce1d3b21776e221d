"""One cold pass of the engine over a sample of games, in a fresh process: what a worker's first
games cost it, before the engine's tables and memos are filled (``pipeline.study_vs_replay``).

    python -m benchmarks.loadbench.cold_pass GAMES.jsonl {replay,study}

reads the games (canonical JSON lines), then replays each once (``study``: with the study aids
in the same pass, as a worker verifies) and prints the pass's CPU seconds; the reading is not
timed.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, help="canonical JSON lines, a game each")
    parser.add_argument("what", choices=("replay", "study"))
    args = parser.parse_args(argv)

    from engine.formats import canonical
    from engine.replay import replay, replay_and_study

    lines = args.games.read_text(encoding="utf-8").splitlines()
    games = [canonical.game_from_json(json.loads(line)) for line in lines if line.strip()]
    run = replay_and_study if args.what == "study" else replay
    started = time.process_time()
    for game in games:
        run(game)
    print(f"{time.process_time() - started:.6f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
