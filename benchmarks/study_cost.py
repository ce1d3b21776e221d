"""What the study aids cost (tile acceptance of every discard decision, ``engine.study``), against
the replay of the same games (issue 42: no more than the replay's own cost again).

Usage, from the repository root::

    python benchmarks/study_cost.py [CORPUS] [--repeat 5] [--plain 300]

``CORPUS`` (default ``../shared/corpus``) is read whole (every game of every file the engine
reads). In one process, with the collector's settings of a worker (``engine.gc_settings``),
timed in CPU seconds of the process, ``--repeat`` rounds of three passes, taking turns so that
the machine's drift weighs on each alike (the replay's first pass starts cold: a fresh
worker's; the best of each is the warm figure): the replay of every game
(``engine.replay.replay``, what ``python -m engine verify`` does after reading); the study
alone of every riichi game (``engine.study.riichi_study``, what the study catch-up runs: its
own replay of each round and the valuing of every decision); the verification with the study
in its own pass (``engine.replay.replay_and_study``, what a worker's verification runs). The
study's cost is the last less the replay, best against best;
the time spent valuing the decisions (``StudyContext.outcomes``) is given apart (not on a
compiled engine, whose study calls that method directly). Then
``--plain`` decisions of the corpus worked out by the plain definition (every discard, every
draw, ``engine.hand.shanten.shanten``) against the one-by-one table
(``engine.hand.shanten.discard_acceptance``), to show what the table saves; the two must agree
(exit status 1 otherwise).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.events import Game  # noqa: E402
from engine.families import GameFamily, family_of  # noqa: E402
from engine.formats import read_games  # noqa: E402
from engine.gc_settings import settle_for_batch_work  # noqa: E402
from engine.hand.acceptance import Decision  # noqa: E402
from engine.hand.shanten import acceptance_by_draws, discard_acceptance  # noqa: E402
from engine.replay import replay, replay_and_study  # noqa: E402
from engine.rules.presets import ruleset_of  # noqa: E402
from engine.study import StudyContext, riichi_study  # noqa: E402

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
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--plain", type=int, default=300, help="decisions compared with the plain definition"
    )
    args = parser.parse_args(argv)
    settle_for_batch_work(skip_exit_collection=False)  # the collector as a worker runs it
    games = games_of(args.corpus)
    if not games:
        print("no games", file=sys.stderr)
        return 2
    riichi = [game for game in games if _studied(game)]
    passes = max(1, args.repeat)
    valuing = _ValuingClock()
    hands: list[tuple[list[int], bool]] = []

    def replay_all() -> None:
        for game in games:
            replay(game)

    def study_all() -> None:
        for game in riichi:
            riichi_study(game)

    def verify_all() -> None:
        for game in games:
            replay_and_study(game)

    # The three take turns, pass after pass, so that the machine's speed drifting during the run
    # (it does, by tens of percent) weighs on each alike; the valuing is clocked in the
    # verification's passes only.
    timings: dict[str, list[float]] = {"replay": [], "study": [], "verify": []}
    with valuing.watching(hands, args.plain):
        for _ in range(passes):
            timings["replay"].append(_cpu_seconds(replay_all))
            valuing.clocking = False
            timings["study"].append(_cpu_seconds(study_all))
            valuing.clocking = True
            timings["verify"].append(_cpu_seconds(verify_all))
    per_game = {name: [1000 * took / len(games) for took in runs] for name, runs in timings.items()}
    per_game["study"] = [1000 * took / len(riichi) for took in timings["study"]]
    decisions = valuing.decisions // passes
    replay_ms, study_ms, verify_ms = (min(per_game[name]) for name in ("replay", "study", "verify"))
    # Compiled, the study calls its own method directly: the clock never sees a decision.
    counted = f"{decisions} decisions" if decisions else "decisions not counted: compiled"
    print(
        f"{len(games)} games ({len(riichi)} riichi, {counted}); ms a game, "
        f"first pass and best of {passes}:"
    )
    for name, words in (
        ("replay", "replay (engine.replay.replay)"),
        ("study", "study alone (engine.study.riichi_study, its own replay)"),
        ("verify", "replay with the study in its pass (engine.replay.replay_and_study)"),
    ):
        print(f"  {words}: {per_game[name][0]:.2f}, {min(per_game[name]):.2f}")
    extra = verify_ms - replay_ms
    valued = (
        f"valuing the decisions {1000 * valuing.seconds / passes / len(games):.2f} ms a game, "
        f"{1e6 * valuing.seconds / passes / decisions:.1f} us a decision"
        if decisions
        else "valuing the decisions not timed (compiled)"
    )
    print(
        f"the study aids in the verification's pass: {extra:.2f} ms a game more than the "
        f"replay, {extra / replay_ms:.2f}x the replay (alone: {study_ms / replay_ms:.2f}x); "
        f"{valued}"
    )
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


def _studied(game: Game) -> bool:
    try:
        ruleset_of(game)
    except EngineError:
        return False
    return type(family_of(game.header.ruleset)).study is not GameFamily.study


def _cpu_seconds(run: Callable[[], None]) -> float:
    """CPU seconds of the process for one pass of ``run``."""
    start = time.process_time()
    run()
    return time.process_time() - start


class _ValuingClock:
    """The time the study spends valuing the decisions it gathered
    (:meth:`engine.study.StudyContext.outcomes`), and the first hands it valued."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.decisions = 0
        #: Whether the time and the decisions count now.
        self.clocking = True

    @contextlib.contextmanager
    def watching(self, hands: list[tuple[list[int], bool]], keep: int) -> Iterator[None]:
        original = StudyContext.outcomes

        def timed(context: StudyContext, inputs: Any) -> Any:
            for decision in inputs:
                if len(hands) < keep and isinstance(decision, Decision):
                    hands.append((list(decision.counts), context.three_player))
            start = time.process_time()
            found = original(context, inputs)
            if self.clocking:
                self.seconds += time.process_time() - start
                self.decisions += len(inputs)
            return found

        StudyContext.outcomes = timed  # type: ignore[method-assign, assignment]
        try:
            yield
        finally:
            StudyContext.outcomes = original  # type: ignore[method-assign]


if __name__ == "__main__":
    sys.exit(main())
