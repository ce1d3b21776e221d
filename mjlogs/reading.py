"""Reading an import's files into games ready to store, in this process or in worker processes.

Reading a file (its format sniffed, its games read, the upload's rule modifiers applied, checked
for storing) and preparing each game for the database (its canonical document, its identity,
its row's values, its raw bytes compressed) needs the engine and no database. A bulk import
(``manage.py import_logs``) does it in worker processes, several files ahead of the process that
stores them, so that storing overlaps reading (issue 21); where the import's verifications run
in its own process (Celery eager, the default setup), the workers also replay each game for its
verification, and the importing process only writes what they send (``replay.services``).

What crosses between processes is plain data: documents, row values and the replay's values,
never the engine's records (their interned tiles are not meant to be pickled).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent import futures
from dataclasses import dataclass
from typing import Any

import orjson

from config import compression
from engine.errors import EngineError
from engine.events import Game as EngineGame
from engine.families import with_modifiers
from engine.formats import MAX_RECORD_ITEMS, canonical, decompress, read_games
from engine.game_flow import whole_points
from mjlogs.game_end import game_end, record_end
from mjlogs.identity import identities
from mjlogs.provenance import platform_of, room_of
from mjlogs.replayed import ReplayAhead, Replayed
from mjlogs.storable import NotStorable, check_storable, start_time


class StoredDigests:
    """The identity hashes (:mod:`mjlogs.identity`) of the games an import's uploader already
    has stored, as they were when its workers were forked: a worker does not replay ahead a
    game it finds here, which the importer will only count as a duplicate (a folder imported
    again replayed every game for nothing).

    Kept as the hashes' first 64 bits (about 60 bytes a game, shared with the forked workers).
    A game found here that is new after all (a 64-bit collision, or its stored copy deleted
    meanwhile) is stored as any other, and its verification replays it from its document."""

    def __init__(self, digests: Iterable[str] = ()) -> None:
        prefixes = (_prefix(digest) for digest in digests)
        self._prefixes = frozenset(prefix for prefix in prefixes if prefix is not None)

    def __contains__(self, digest: object) -> bool:
        return isinstance(digest, str) and _prefix(digest) in self._prefixes

    def __len__(self) -> int:
        return len(self._prefixes)


def _prefix(digest: str) -> int | None:
    """A SHA-256 hex digest's first 64 bits; ``None`` for text that is no such digest."""
    try:
        return int(digest[:16], 16) if len(digest) >= 16 else None
    except ValueError:
        return None


#: In a worker process: the games already stored when it was forked (:class:`StoredDigests`).
_stored_at_fork = StoredDigests()


@dataclass(frozen=True, slots=True)
class PreparedGame:
    """One game of a file, read, checked and encoded for storing."""

    #: Its canonical document (what is stored), its record's identity and its play identity
    #: (:mod:`mjlogs.identity`: the same record, and the same game in any record).
    document: dict[str, Any]
    digest: str
    play: str
    #: The game row's values that come from the record (``mjlogs.models.Game`` fields).
    row: dict[str, Any]
    #: Its platform (``mjlogs.provenance.platform_of``) and its seats' names, in seat order.
    platform: str
    names: tuple[str, ...]
    #: Each seat's values that come from the record (``mjlogs.models.GameSeat`` fields).
    seats: tuple[dict[str, Any], ...]
    #: The engine record, kept where the game was read in this process (its verification here
    #: replays it instead of decoding the document again); ``None`` from a worker process.
    record: EngineGame | None = None
    #: Its verification's replay, made ahead by the worker that read it; ``None`` if not made.
    replayed: Replayed | None = None


@dataclass(frozen=True, slots=True)
class ReadFile:
    """A file's games, read and checked, waiting to be stored."""

    name: str
    source_format: str
    games: list[PreparedGame]
    #: The file's bytes, compressed (:mod:`config.compression`), and its size uncompressed.
    raw: bytes
    raw_size: int


@dataclass(frozen=True, slots=True)
class ReadFailure:
    """Why a file's games cannot be stored: the message names the problem."""

    name: str
    error: str
    #: The file's format, when it was told before the problem was found; else empty.
    source_format: str = ""


def read_file(
    name: str,
    data: bytes,
    modifiers: Sequence[str] = (),
    *,
    in_process: bool = True,
    replay_ahead: ReplayAhead | None = None,
) -> ReadFile | ReadFailure:
    """A file's games read, given the ``modifiers``, checked for storing and prepared; or the
    file's failure. ``in_process``: keep each game's engine record (not for a worker, whose
    results are pickled). ``replay_ahead``: also replay each game for its verification."""
    try:
        plain = decompress(data)
        games, fmt = read_games(plain, file_name=name, max_items=MAX_RECORD_ITEMS)
    except EngineError as error:
        return ReadFailure(name, str(error))
    if not games:
        return ReadFailure(name, "the file holds no game")
    for index, game in enumerate(games):
        where = f"game {index + 1} of {len(games)}: " if len(games) > 1 else ""
        try:
            games[index] = game = with_modifiers(game, modifiers)
            check_storable(game)
        except (EngineError, NotStorable) as error:
            return ReadFailure(name, f"{where}{error}", fmt.name)
    documents = [canonical.game_to_json(game) for game in games]
    if padding := _mostly_padding(len(plain), documents):
        return ReadFailure(name, padding, fmt.name)
    prepared = []
    for index, (game, document) in enumerate(zip(games, documents, strict=True)):
        label = f"game {index + 1} of {name}"
        prepared.append(_prepared(game, document, fmt.name, label, in_process, replay_ahead))
    return ReadFile(
        name=name,
        source_format=fmt.name,
        games=prepared,
        raw=compression.compress(data),
        raw_size=len(data),
    )


#: A file may be this many times the size of its games' canonical records (JSON without
#: blanks), or :data:`PADDING_FLOOR` bytes, whichever is more, before it is refused as mostly
#: padding: the raw file is kept as it came, so 21 MB of junk around a 21 KB game would be kept
#: too. The real records read here are at most 1.4 times theirs, but for mjai logs carrying a
#: bot's notes on every move (up to 20 times: Apricot-S/mjai-manue-go's).
PADDING_RATIO = 64
PADDING_FLOOR = 1024 * 1024


def _mostly_padding(size: int, documents: Sequence[dict[str, Any]]) -> str:
    """Why a file of ``size`` bytes (uncompressed) holding these games is refused as mostly
    padding, or ``""`` (:data:`PADDING_RATIO`)."""
    if size <= PADDING_FLOOR:
        return ""
    record = sum(len(orjson.dumps(document)) for document in documents)
    if size <= PADDING_RATIO * record:
        return ""
    return (
        f"the file is {size:,} bytes, {size // max(record, 1):,} times its games' record "
        f"({record:,} bytes): mostly bytes that are no part of any game; a file of more than "
        f"{PADDING_FLOOR:,} bytes may be at most {PADDING_RATIO} times its record"
    )


def _prepared(
    game: EngineGame,
    document: dict[str, Any],
    read_format: str,
    label: str,
    in_process: bool,
    replay_ahead: ReplayAhead | None,
) -> PreparedGame:
    play, digest = identities(document)
    if digest in _stored_at_fork:
        replay_ahead = None  # a duplicate: nothing of it will be verified
    header = game.header
    start = game.rounds[0].scores if game.rounds else (0,) * game.players
    # What the record alone says of its end; its verification says it again (mjlogs.game_end).
    end = game_end(record_end(document))
    seats = tuple(
        {
            "start_score": whole_points(start[seat]),
            "final_score": end.seat(seat)[0],
            "placement": end.seat(seat)[1],
            "recorded_rank": player.rank or "",
            "recorded_rating": player.rating,
        }
        for seat, player in enumerate(header.players)
    )
    row = {
        "ruleset": header.ruleset,
        "rule_overrides": dict(header.rule_overrides),
        "players_count": game.players,
        "rounds_count": len(game.rounds),
        "complete": end.complete,
        "source_id": header.source.id,
        "started_at": start_time(header.started_at),
        "room": room_of(header.ruleset, read_format, header.source.extra),
    }
    return PreparedGame(
        document=document,
        digest=digest,
        play=play,
        row=row,
        platform=platform_of(header, read_format),
        names=tuple(player.name for player in header.players),
        seats=seats,
        record=game if in_process else None,
        replayed=None if replay_ahead is None else replay_ahead(document, game, label),
    )


class FileReader:
    """Reads an import's files in this process, each when asked: :meth:`submit` gives a
    function that returns the file's games."""

    def __init__(self, modifiers: Sequence[str] = ()) -> None:
        self._modifiers = tuple(modifiers)

    def submit(self, name: str, data: bytes) -> Callable[[], ReadFile | ReadFailure]:
        read = read_file(name, data, self._modifiers)
        return lambda: read

    def full(self, waiting: int) -> bool:
        """Whether, with ``waiting`` files handed over and not yet taken back, the next file
        must wait until one is taken back. Here none is read ahead: each is taken at once."""
        return waiting > 0

    def close(self) -> None:
        """Stop the workers (none here)."""


class PooledFileReader(FileReader):
    """Reads an import's files in ``jobs`` worker processes, ahead of the one being stored
    (:meth:`full`), each worker taking the next file as soon as it is free.

    The workers are forks of this process (the modules it has imported need no second start;
    a format met first in a worker is imported there) and never use the database: they read,
    encode and replay. ``before_fork`` is called before each pool's workers are forked, at its
    first file (the caller closes its database connections there, where it can: no worker
    must hold one), and ``after_fork`` once they are forked (the caller loads there what only
    it needs, while the workers read their first files). A worker stops when the importing
    process dies, however it dies. Their results come back in the order the files were given.
    About :data:`AHEAD_PER_WORKER` files a worker are held at once with their results, and no
    further file is handed over while those held are over :data:`AHEAD_BYTES` (:meth:`full`).

    A worker that dies (killed, out of memory, a crash in a C library) takes the pool with it,
    and with it every file the pool held: those that may have been in a worker then are read
    again, each alone in a worker of its own, so that only a file that ends its worker again
    fails (:data:`WORKER_DIED`); the others, and the rest of the import, go on in a new pool."""

    def __init__(
        self,
        jobs: int,
        modifiers: Sequence[str] = (),
        replay_ahead: ReplayAhead | None = None,
        before_fork: Callable[[], None] = lambda: None,
        stored: StoredDigests | None = None,
        after_fork: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(modifiers)
        self._jobs = jobs
        #: Bytes of the files handed over and not yet taken back.
        self._bytes_out = 0
        #: For each pool that broke, how many more of its files are read again alone.
        self._suspects: dict[futures.ProcessPoolExecutor, int] = {}
        self._replay_ahead = replay_ahead
        self._before_fork = before_fork
        self._after_fork = after_fork
        self._stored = StoredDigests() if stored is None else stored
        self._not_forked: set[futures.ProcessPoolExecutor] = set()
        self._pool = self._new_pool(jobs)

    def _new_pool(self, jobs: int) -> futures.ProcessPoolExecutor:
        # A fork's initializer arguments are not pickled: the workers share the digests' pages.
        pool = futures.ProcessPoolExecutor(
            jobs,
            mp_context=multiprocessing.get_context("fork"),
            initializer=_worker_start,
            initargs=(self._stored,),
        )
        self._not_forked.add(pool)
        return pool

    def _submit(
        self, pool: futures.ProcessPoolExecutor, name: str, data: bytes
    ) -> futures.Future[ReadFile | ReadFailure]:
        forks = pool in self._not_forked
        if forks:
            # A pool forks all its workers at its first file (the fork start method).
            self._not_forked.discard(pool)
            self._before_fork()
        future = pool.submit(
            read_file,
            name,
            data,
            self._modifiers,
            in_process=False,
            replay_ahead=self._replay_ahead,
        )
        if forks:
            self._after_fork()
        return future

    def full(self, waiting: int) -> bool:
        return waiting > self._jobs * AHEAD_PER_WORKER or self._bytes_out > AHEAD_BYTES

    def submit(self, name: str, data: bytes) -> Callable[[], ReadFile | ReadFailure]:
        pool, future = self._handed_over(name, data)
        self._bytes_out += len(data)

        def result() -> ReadFile | ReadFailure:
            nonlocal pool, future
            try:
                while True:
                    try:
                        return future.result(timeout=STALL_CHECK_SECONDS)
                    except TimeoutError:
                        if future.done():  # the read itself raised TimeoutError
                            return future.result()
                        if not _broke(pool):
                            continue  # a long file: its worker is still at it
                    except futures.process.BrokenProcessPool:
                        pass
                    self._replaced(pool)
                    if self._may_have_ended(pool):
                        return self._read_alone(name, data)
                    # Never in a worker of the pool that broke: read in the new one.
                    pool, future = self._handed_over(name, data)
            finally:
                self._bytes_out -= len(data)

        return result

    def _handed_over(
        self, name: str, data: bytes
    ) -> tuple[futures.ProcessPoolExecutor, futures.Future[ReadFile | ReadFailure]]:
        """The file handed to the current pool (a new one if it broke since the last file)."""
        pool = self._pool
        try:
            return pool, self._submit(pool, name, data)
        except futures.process.BrokenProcessPool:  # a worker died since the last file
            pool = self._replaced(pool)
            return pool, self._submit(pool, name, data)

    def _may_have_ended(self, broken: futures.ProcessPoolExecutor) -> bool:
        """Whether the next of ``broken``'s files to be taken back may have been in one of its
        workers when one died. A pool's files reach its workers in the order they were handed
        over, through a queue of ``jobs + 1`` besides the ``jobs`` being read, and are taken
        back in that order: only the first ``2 * jobs + 1`` of its files that failed may have
        ended it, and are read again alone; the others go to the new pool."""
        suspects = self._suspects.setdefault(broken, 2 * self._jobs + 1)
        self._suspects[broken] = suspects - 1
        return suspects > 0

    def _replaced(self, broken: futures.ProcessPoolExecutor) -> futures.ProcessPoolExecutor:
        """The pool that reads the next files once ``broken`` broke: a new one, made once. The
        broken one's thread is waited for, so that no fork happens while it cleans up."""
        if broken is self._pool:
            broken.shutdown(wait=True, cancel_futures=True)
            self._pool = self._new_pool(self._jobs)
        return self._pool

    def _read_alone(self, name: str, data: bytes) -> ReadFile | ReadFailure:
        """Read a file again in a worker of its own: if that one dies too, the file did it."""
        alone = self._new_pool(1)
        try:
            return self._submit(alone, name, data).result()
        except futures.process.BrokenProcessPool:
            return ReadFailure(name, WORKER_DIED)
        finally:
            alone.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)


#: Files a worker may be handed ahead of the one being stored: enough for it to go on reading
#: while the importing process stores a batch of games and writes their verdicts (0.1-0.2 s,
#: a dozen files of one game each). With two a worker, the workers ran out of files during
#: each batch: the machine's CPU use, sampled during an import of the corpus on two cores,
#: fell to one core for 0.1-0.2 s at every batch.
AHEAD_PER_WORKER = 16
#: Bytes of the files handed to the workers and not yet taken back (as given, compressed or
#: not) beyond which no other file is handed over: a soft limit on what the files read ahead
#: hold, one file over it at most (their results, and the files taken back waiting for their
#: batch, are not counted).
AHEAD_BYTES = 32 * 1024 * 1024

#: Seconds a file's result is waited for before asking whether its pool broke without saying
#: so to it: CPython 3.11 fails a broken pool's files outside the lock that handing a file over
#: takes, so a file handed over in the instant a worker dies may never be answered (3.12 takes
#: the lock). Such a file is then read again as any file of a broken pool.
STALL_CHECK_SECONDS = 2.0


def _broke(pool: futures.ProcessPoolExecutor) -> bool:
    """Whether ``pool`` is broken. Read from the flag its ``submit`` checks (CPython's, since
    3.8), not by handing it work: a probe withdrawn while queued makes 3.11's breaking pool
    fail on it and leave its other files and workers behind."""
    return bool(getattr(pool, "_broken", False))


#: Why a file that ended the worker reading it (twice) was not stored.
WORKER_DIED = (
    "reading this file ended the worker process that read it (killed, out of memory or "
    "crashed), twice; nothing of it was stored"
)


def can_fork() -> bool:
    """Whether worker processes can be forks of this one (not on Windows)."""
    return "fork" in multiprocessing.get_all_start_methods()


def _worker_start(stored: StoredDigests) -> None:
    """Ctrl-C reaches the workers too (the terminal signals the whole process group); the
    importing process alone acts on it, and stops the workers. A worker whose importing
    process is killed (SIGTERM, SIGKILL, out of memory) is sent SIGTERM by Linux
    (``PR_SET_PDEATHSIG``): the pool's workers would otherwise wait for work for ever. The
    games already ``stored`` are not replayed ahead."""
    global _stored_at_fork
    _stored_at_fork = stored
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):  # no C library to ask: the pool's shutdown still holds
            pass


#: prctl(2)'s option: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1
