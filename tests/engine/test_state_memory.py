"""A replayed game's state is freed as soon as the replay ends (issue 42).

The state kept its dispatch tables as bound methods of itself: a reference cycle, freed only by
the cycle collector, which the batch processes run rarely (``engine.gc_settings``), so every
replayed game stayed in memory until then (about 20 KB a game, 160 KB with the study aids; one
compiled worker reached 461 MB after 2,000 games). Now the tables are the class's, of plain
functions (``engine.state.game``). With the cycle collector off, replaying, studying or framing
many games must leave nothing behind.

Compiled (``engine.compile.TESTED`` runs this file on the build too), a function nested in
another is a cycle at every call: mypyc keeps the nested function in an environment object
that the function refers back to. ``engine.study.yaku_in_reach`` had one, and the framer left
5,587 objects for the collector after these games (a replay with its study 127): its helper is
now a module-level function. Keep hot functions free of nested named functions.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.events import Game
from engine.formats import read_games
from engine.frames import round_frames
from engine.replay import replay
from engine.study import riichi_study

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "mjlog_xml"
GAMES = [read_games(path.read_bytes())[0][0] for path in sorted(REAL.rglob("*.xml"))[:8]]


@pytest.fixture
def no_cycle_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


WORK: dict[str, Callable[[Game], object]] = {
    "replay": replay,
    "study": riichi_study,
    "frames": lambda game: round_frames(game, 0),
}


@pytest.mark.parametrize("work", list(WORK), ids=list(WORK))
@pytest.mark.usefixtures("no_cycle_collector")
def test_nothing_of_a_game_waits_for_the_cycle_collector(work: str) -> None:
    for game in GAMES:
        WORK[work](game)
    assert gc.collect() == 0


@pytest.mark.usefixtures("no_cycle_collector")
def test_many_replays_hold_no_more_memory() -> None:
    """Games replayed and studied again and again hold no more memory than after the first
    pass: nothing for the cycle collector to find, and once it has emptied Python's free lists
    (which keep freed tuples for reuse, and which tracemalloc counts), what is left is the
    engine's bounded caches."""
    assert GAMES
    for game in GAMES:  # warm: the engine's tables and caches are built once
        replay(game)
        riichi_study(game)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(REPEAT):
            for game in GAMES:
                replay(game)
                riichi_study(game)
        assert gc.collect() == 0  # no cycle: every state went with its replay
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # At the 160 KB a game that the cycles held, this would be several megabytes.
    games = REPEAT * len(GAMES)
    assert grown < 1024 * 1024, f"{grown:,} bytes more after {games} games"


REPEAT = 4
