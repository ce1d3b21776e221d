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

Self-play is the dearest step (40-160 ms of a core a game here, by the day: about as much as
importing and verifying it together, or more), so a run may self-play only its first
``self_played`` games and fill the rest with *replays*: game ``g`` beyond them replays the
tiles and actions of game ``g mod self_played`` under the names and start time of number
``g`` and a source id of its own. A replay is a new record for the service, imported, stored
and replayed by the verifier; but its play is not new, so it is a copy of the game it replays
(``mjlogs.copies``, by ``engine.identity``'s play hash) and the statistics count that game
once: a run with replays measures the import and verification of every record, and the
statistics of the self-played games only.
"""

from __future__ import annotations

import argparse
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


#: Where the cache is kept: beside the repository, so that every checkout shares it.
DEFAULT_CACHE = Path(__file__).resolve().parents[3] / "loadbench-cache"


def add_cache_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say which cache of games a benchmark reads (and makes if missing):
    ``--players``, ``--chunk-games`` and ``--cache``."""
    parser.add_argument("--players", type=int, default=2000, help="player pool size (2000)")
    parser.add_argument(
        "--chunk-games",
        type=int,
        default=CHUNK_GAMES,
        help=f"games per cache file ({CHUNK_GAMES}); part of the cache's file names",
    )
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="game cache folder")


def chunk_ruleset(index: int) -> str:
    return RULESET_CYCLE[index % len(RULESET_CYCLE)]


def chunk_path(cache: Path, index: int, size: int, played_chunks: int | None = None) -> Path:
    """Chunk ``index``'s file: self-played, or, at or beyond ``played_chunks``, replaying
    chunk ``index mod played_chunks``."""
    if played_chunks is None or index < played_chunks:
        return cache / f"chunk-{size}-{index:05d}.jsonl.gz"
    return cache / f"chunk-{size}-{index:05d}-replays-{index % played_chunks:05d}.jsonl.gz"


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
        yield _as_number(game_to_json(game), index * size + number, pool)


def _replayed_games(
    cache: Path, index: int, size: int, pool: int, played_chunks: int
) -> Iterator[dict[str, Any]]:
    """Chunk ``index``'s games as replays of the self-played chunk ``index mod
    played_chunks`` (already in the cache)."""
    source = chunk_path(cache, index % played_chunks, size)
    with gzip.open(source, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines):
            global_number = index * size + number
            document = _as_number(json.loads(line), global_number, pool)
            document["source"]["id"] += f"-replayed-as-{global_number}"
            yield document


def _as_number(document: dict[str, Any], global_number: int, pool: int) -> dict[str, Any]:
    """Seat names from the pool and a start time, both following from the game's number."""
    rng = random.Random(f"names-{global_number}")
    names = seat_names(rng, len(document["players"]), pool)
    document["players"] = [{"name": name} for name in names]
    started = FIRST_START + global_number * GAME_SPACING
    document["started_at"] = started.isoformat()
    return document


def write_chunk(
    cache: Path, index: int, size: int, pool: int, played_chunks: int | None = None
) -> int:
    """Generate chunk ``index`` into the cache (self-played, or replays when ``index`` is at or
    beyond ``played_chunks``); return its size in bytes."""
    target = chunk_path(cache, index, size, played_chunks)
    partial = target.with_name(target.name + f".{os.getpid()}.part")
    if played_chunks is None or index < played_chunks:
        documents = _chunk_games(index, size, pool)
    else:
        documents = _replayed_games(cache, index, size, pool, played_chunks)
    with gzip.open(partial, "wt", encoding="utf-8", compresslevel=6) as out:
        for document in documents:
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
    self_played: int | None = None,
) -> list[Path]:
    """Make sure the cache holds the chunks of the first ``games`` games, self-playing the
    first ``self_played`` (all when ``None``) and replaying them for the rest; return the
    chunks' paths."""
    cache.mkdir(parents=True, exist_ok=True)
    wanted = chunks_for(games, size)
    played = wanted if self_played is None else min(wanted, chunks_for(self_played, size))
    if played < wanted and self_played is not None and self_played % size:
        raise ValueError(f"self-played games ({self_played}) must be whole chunks of {size}")
    # The self-played chunks first: the replays read them.
    _make(cache, range(played), size, pool, None, workers, log, "self-playing")
    _make(cache, range(played, wanted), size, pool, played, workers, log, "replaying")
    return [chunk_path(cache, index, size, played) for index in range(wanted)]


def _make(
    cache: Path,
    indexes: range,
    size: int,
    pool: int,
    played_chunks: int | None,
    workers: int,
    log: Callable[[str], None],
    verb: str,
) -> None:
    missing = [i for i in indexes if not chunk_path(cache, i, size, played_chunks).exists()]
    if not missing:
        return
    log(
        f"{verb} {len(missing)} of {len(indexes)} chunks ({size} games each) "
        f"with {workers} processes into {cache}"
    )
    done = 0
    with ProcessPoolExecutor(max_workers=workers) as pool_executor:
        futures = [
            pool_executor.submit(write_chunk, cache, index, size, pool, played_chunks)
            for index in missing
        ]
        for future in as_completed(futures):
            future.result()
            done += 1
            if done % max(1, len(missing) // 50) == 0 or done == len(missing):
                log(f"  {verb}: {done}/{len(missing)} chunks")


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
