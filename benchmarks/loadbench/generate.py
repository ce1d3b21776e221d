"""Step 1: self-played games, in parallel processes, into a compressed cache directory.

The cache is a folder of gzip-compressed JSON-lines chunks, one canonical game per line. Chunk
``i`` always holds the same games (its rule set and seed follow from ``i`` alone), so a cache
built for 100,000 games serves every smaller run as a prefix, and an interrupted run resumes
where it stopped: chunks already on disk are skipped, and a chunk is written under a temporary
name and renamed only when complete.

The games are the engine's own self-play (:func:`engine.sim.selfplay.simulate`, what
``python -m engine simulate`` runs), changed in two ways that make the service's statistics
meaningful: the seats get names from a pool of players (self-play calls every seat
"GreedyBot n"), drawn with a skew so that some players play far more than others, as on a real
server; and every game gets a start time, spread over two years, so that period filters select
something. Renaming changes the game's content hash, which is fine: the source id
(``{preset}-seed-{chunk}-{n}``) stays unique, so no two games are duplicates.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

#: Games per cache chunk by default: about 10 s of one core, small enough to resume cheaply.
CHUNK_GAMES = 250

#: The rule-set mix, in chunks out of every 20: mostly Tenhou's four-player hanchan and its
#: east-only variant, as on Tenhou's lobbies, and some three-player games.
RULESET_CYCLE: tuple[str, ...] = (
    ("tenhou-4p-east",) * 9 + ("tenhou-4p",) * 7 + ("tenhou-3p-east",) * 3 + ("tenhou-3p",) * 1
)

#: The first game starts here; each later game starts ``GAME_SPACING`` after the one before
#: (100,000 games then cover about two years).
FIRST_START = dt.datetime(2023, 1, 1, tzinfo=dt.UTC)
GAME_SPACING = dt.timedelta(minutes=10)


def chunk_ruleset(index: int) -> str:
    return RULESET_CYCLE[index % len(RULESET_CYCLE)]


def chunk_path(cache: Path, index: int, size: int) -> Path:
    return cache / f"chunk-{size}-{index:05d}.jsonl.gz"


def chunks_for(games: int, size: int) -> int:
    return -(-games // size)


def player_name(number: int) -> str:
    return f"Player {number:05d}"


def seat_names(rng: random.Random, seats: int, pool: int) -> list[str]:
    """``seats`` distinct names from a pool of ``pool`` players.

    Player ``k`` is drawn with weight ``1 / sqrt(k + 1)``: the most active players play about
    ten times as often as the median one and forty times as often as the least active (with
    2,000 players), a long tail like a real lobby's rather than everyone playing equally."""
    if seats > pool:
        raise ValueError(f"a pool of {pool} players cannot fill {seats} seats")
    chosen: list[int] = []
    while len(chosen) < seats:
        # Inverse-CDF sampling of the 1/sqrt(k+1) weights: k + 1 ~ ((sqrt(pool+1)-1) u + 1)^2.
        u = rng.random()
        k = int((((pool + 1) ** 0.5 - 1) * u + 1) ** 2) - 1
        k = min(max(k, 0), pool - 1)
        if k not in chosen:
            chosen.append(k)
    return [player_name(k) for k in chosen]


def _chunk_games(index: int, size: int, pool: int) -> Iterator[dict[str, Any]]:
    # Imported here so the parent process stays light; the workers import the engine once each.
    from engine.formats.canonical import game_to_json
    from engine.sim.selfplay import simulate

    ruleset = chunk_ruleset(index)
    for number, game in enumerate(simulate(ruleset, size, seed=index)):
        document = game_to_json(game)
        global_number = index * size + number
        rng = random.Random(f"names-{global_number}")
        names = seat_names(rng, len(document["players"]), pool)
        document["players"] = [{"name": name} for name in names]
        started = FIRST_START + global_number * GAME_SPACING
        document["started_at"] = started.isoformat()
        yield document


def write_chunk(cache: Path, index: int, size: int, pool: int) -> int:
    """Generate chunk ``index`` into the cache; return its size in bytes."""
    target = chunk_path(cache, index, size)
    partial = target.with_name(target.name + f".{os.getpid()}.part")
    with gzip.open(partial, "wt", encoding="utf-8", compresslevel=6) as out:
        for document in _chunk_games(index, size, pool):
            out.write(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n")
    partial.replace(target)
    return target.stat().st_size


def generate(
    cache: Path,
    games: int,
    workers: int,
    pool: int,
    size: int = CHUNK_GAMES,
    log: Callable[[str], None] = print,
) -> list[Path]:
    """Make sure the cache holds the chunks of the first ``games`` games; return their paths."""
    cache.mkdir(parents=True, exist_ok=True)
    wanted = range(chunks_for(games, size))
    missing = [index for index in wanted if not chunk_path(cache, index, size).exists()]
    if missing:
        log(
            f"generating {len(missing)} of {len(wanted)} chunks ({size} games each) "
            f"with {workers} processes into {cache}"
        )
        done = 0
        with ProcessPoolExecutor(max_workers=workers) as pool_executor:
            futures = [
                pool_executor.submit(write_chunk, cache, index, size, pool) for index in missing
            ]
            for future in as_completed(futures):
                future.result()
                done += 1
                if done % max(1, len(missing) // 50) == 0 or done == len(missing):
                    log(f"  generated {done}/{len(missing)} chunks")
    return [chunk_path(cache, index, size) for index in wanted]


def iter_games(paths: list[Path], games: int) -> Iterator[str]:
    """The first ``games`` games of the cache, one JSON line each (without the newline)."""
    remaining = games
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                if remaining <= 0:
                    return
                yield line.rstrip("\n")
                remaining -= 1
