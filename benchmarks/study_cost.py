"""What the study aids cost (tile acceptance of every discard decision, ``engine.study``), against
the replay of the same games: the figure behind keeping them off the verification (issue 24).

Usage, from the repository root::

    python benchmarks/study_cost.py [CORPUS] [--repeat 2] [--plain 300]

``CORPUS`` (default ``../shared/corpus``) is read whole (every game of every file the engine
reads). In one process, timed in CPU seconds of the process: the replay of every game
(``engine.replay.replay``, what ``python -m engine verify`` does after reading), then
``engine.study.riichi_study`` of every riichi game (what the statistics' study catch-up runs:
the replay of each round again and the acceptance of every decision), ``--repeat`` times: the
first pass starts with the acceptance's memos empty (as a fresh worker), the later ones warm.
Then ``--plain`` decisions of the corpus worked out by the plain definition (every discard,
every draw, ``engine.hand.shanten.shanten``) against the fast table
(``engine.hand.shanten.discard_acceptance``), to show what the table saves; the two must agree
(exit status 1 otherwise).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.events import Game  # noqa: E402
from engine.formats import read_games  # noqa: E402
from engine.hand import acceptance as acceptance_module  # noqa: E402
from engine.hand.shanten import acceptance_by_draws, discard_acceptance  # noqa: E402
from engine.replay import replay  # noqa: E402
from engine.study import riichi_study  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"


def games_of(folder: Path) -> list[Game]:
    games: list[Game] = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            try:
                games += read_games(path.read_bytes(), file_name=path.name)[0]
            except EngineError:
                continue
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument(
        "--plain", type=int, default=300, help="decisions compared with the plain definition"
    )
    args = parser.parse_args(argv)
    games = games_of(args.corpus)
    if not games:
        print("no games", file=sys.stderr)
        return 2
    start = time.process_time()
    for game in games:
        replay(game)
    replayed = time.process_time() - start
    print(f"{len(games)} games; replay: {1000 * replayed / len(games):.2f} ms a game")
    hands: list[tuple[list[int], bool]] = []
    original = acceptance_module.discard_acceptance

    def noted(counts: list[int], *, three_player: bool = False, lowest_only: bool = False) -> Any:
        if len(hands) < args.plain:
            hands.append((list(counts), three_player))
        return original(counts, three_player=three_player, lowest_only=lowest_only)

    for number in range(args.repeat):
        studied = decisions = 0
        chosen = noted if number == 0 else original
        acceptance_module.discard_acceptance = chosen  # type: ignore[assignment]
        start = time.process_time()
        for game in games:
            try:
                tallies = riichi_study(game)
            except EngineError:
                continue
            studied += 1
            decisions += sum(tally.decisions for tally in tallies)
        took = time.process_time() - start
        state = "cold" if number == 0 else "warm"
        print(
            f"study pass {number + 1} ({state}): {1000 * took / studied:.2f} ms a game "
            f"({studied} games, {decisions} decisions, {1e6 * took / decisions:.1f} us a "
            f"decision, replay included); {took / replayed:.1f}x the replay"
        )
    acceptance_module.discard_acceptance = original  # type: ignore[assignment]
    if not hands:  # --plain 0: the comparison with the plain definition is not asked for
        return 0
    start = time.process_time()
    slow = [acceptance_by_draws(list(counts), three) for counts, three in hands]
    plain_took = time.process_time() - start
    start = time.process_time()
    fast = [discard_acceptance(counts, three_player=three) for counts, three in hands]
    fast_took = time.process_time() - start
    print(
        f"{len(hands)} decisions: plain definition {1e6 * plain_took / len(hands):.0f} us, "
        f"fast table {1e6 * fast_took / len(hands):.0f} us a decision (every discard's draws)"
    )
    return 0 if slow == fast else 1


if __name__ == "__main__":
    sys.exit(main())
