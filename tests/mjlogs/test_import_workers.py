"""A bulk import reads its files in worker processes (``import_files(jobs=N)``, ``import_logs
--jobs``; issue 21): the same outcomes in the same order, and the same games, seats, verdicts,
facts and statistics as an import in one process. Where the verifications run in the importing
process (Celery eager), the workers replay the games too and the importing process only stores
what they send."""

from __future__ import annotations

import gzip
import io
import multiprocessing
import os
import sys
import threading
import time
import zipfile
from collections.abc import Callable
from concurrent import futures
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

import mjlogs.importing
import mjlogs.reading
import mjlogs.verification_queue
import replay.services
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs import record_cache
from mjlogs.archives import Limits, UploadedFile
from mjlogs.importing import import_files
from mjlogs.models import Game, GameSeat, Player
from mjlogs.reading import StoredDigests, can_fork
from mjlogs.verification_queue import VerificationQueue
from replay.models import Verification
from replay.services import Replayed
from stats.models import PlayerSummary, RatingChange, RoundFact

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not can_fork(), reason="worker processes are forks of the importer"),
]

REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def uploads() -> list[UploadedFile]:
    """Records of every format, a game twice, an archive, a file that fails, one skipped."""
    paths = [
        *sorted((REAL / "mjlog_xml" / "Apricot-S__mahjax").iterdir())[:6],
        *sorted((REAL / "tenhou6_json").rglob("*.json"))[:4],
        *sorted((REAL / "mjai_jsonl").rglob("*"))[:2],
    ]
    files = [UploadedFile(path.name, path.read_bytes()) for path in paths if path.is_file()]
    played = list(simulate("tenhou-4p-east", 3, 4242))
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as bundle:
        for index, game in enumerate(played):
            bundle.writestr(f"inside/{index}.json.gz", gzip.compress(canonical.write([game])))
        bundle.writestr("inside/broken.mjlog", b"<mjloggm ver='2.3'><GO type='169'/>")
    return [
        *files[:5],
        UploadedFile("again.json", canonical.write(played[:1])),
        UploadedFile("games.zip", archive.getvalue()),
        UploadedFile("notes.txt", b"", skipped="not a game record"),
        UploadedFile("empty.json", b"[]"),
        *files[5:],
    ]


def stored() -> dict[str, Any]:
    """Everything an import stored, by game identity (ids differ from one import to another)."""
    by_id = dict(Game.objects.values_list("pk", "content_hash"))
    games = Game.objects.order_by("content_hash").values(
        "content_hash", "source_format", "raw", "raw_name", "document", "ruleset", "room",
        "players_count", "rounds_count", "complete", "started_at", "source_id",
    )  # fmt: skip
    seats = GameSeat.objects.values_list(
        "game_id", "seat", "player__names__name", "start_score", "final_score", "placement",
        "points", "recorded_rank",
    )  # fmt: skip
    verdicts = Verification.objects.values_list(
        "game_id", "verdict", "message", "events", "complete", "report", "frames_index",
        "discrepancy", "engine_version",
    )  # fmt: skip
    facts = RoundFact.objects.values_list(
        "game_id", "round_index", "seat", "won", "dealt_in", "delta", "score_after", "yaku"
    )
    summaries = PlayerSummary.objects.values_list("player__names__name", "games", "hands")
    return {
        "games": list(games),
        "seats": sorted((by_id[row[0]], *row[1:]) for row in seats),
        "verdicts": sorted((by_id[row[0]], *row[1:]) for row in verdicts),
        "facts": sorted((by_id[row[0]], *row[1:]) for row in facts),
        "summaries": sorted(summaries),
        "ratings": RatingChange.objects.count(),
    }


def outcomes_of(summary: mjlogs.importing.ImportSummary) -> list[tuple[Any, ...]]:
    ids = dict(Game.objects.values_list("pk", "content_hash"))
    return [
        (o.file, o.status, o.index, ids.get(o.game_id), o.source_format, o.error)
        for o in summary.outcomes
    ]


def forget_everything() -> None:
    Game.objects.all().delete()
    Player.objects.all().delete()
    PlayerSummary.objects.all().delete()
    RatingChange.objects.all().delete()


def test_an_import_in_workers_stores_what_one_process_stores() -> None:
    files = uploads()
    alone = import_files(files, jobs=1, study_after=False)
    outcomes, rows = outcomes_of(alone), stored()
    forget_everything()

    shared = import_files(files, jobs=2, study_after=False)

    assert outcomes_of(shared) == outcomes
    assert stored() == rows
    statuses = [outcome[1] for outcome in outcomes]
    assert {"imported", "duplicate", "failed", "skipped"} <= set(statuses)
    assert rows["verdicts"] and rows["facts"]


def test_workers_replay_ahead_and_the_importer_only_stores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    remembered: list[record_cache.StoredRecord] = []
    real = record_cache.remember

    def spy(game_id: int, record: record_cache.StoredRecord) -> None:
        remembered.append(record)
        real(game_id, record)

    monkeypatch.setattr(record_cache, "remember", spy)
    summary = import_files(uploads(), jobs=2, study_after=False)

    imported = [o for o in summary.outcomes if o.status == "imported"]
    assert len(remembered) == len(imported) > 5
    # Read in a worker (no engine record crossed over), replayed there.
    assert all(stored.record is None for stored in remembered)
    assert all(isinstance(stored.replayed, Replayed) for stored in remembered)
    assert Verification.objects.count() == len(imported)


def test_in_one_process_the_verification_replays_the_record_it_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    remembered: list[record_cache.StoredRecord] = []
    monkeypatch.setattr(record_cache, "remember", lambda _, record: remembered.append(record))
    import_files(uploads()[:3], jobs=1, study_after=False)
    assert remembered
    assert all(stored.record is not None and stored.replayed is None for stored in remembered)


def test_with_a_broker_the_workers_only_read(settings: Any) -> None:
    # The queue reads the setting Celery's app is configured from (without importing Celery).
    assert VerificationQueue().replay_ahead() is not None  # eager in the tests
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert VerificationQueue().replay_ahead() is None


@pytest.mark.parametrize(
    ("files", "archive", "asked", "workers"),
    [(1, False, 4, None), (2, False, 4, 2), (3, False, 2, 2), (3, True, 2, 2), (3, True, 4, 4)],
)
def test_the_command_starts_no_more_workers_than_files(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    files: int,
    archive: bool,
    asked: int,
    workers: int | None,
) -> None:
    """As many as asked for an archive's members, which are read one a worker like files."""
    started: list[int] = []
    real = mjlogs.importing.PooledFileReader

    def spy(jobs: int, *args: Any, **kwargs: Any) -> mjlogs.importing.PooledFileReader:
        started.append(jobs)
        return real(jobs, *args, **kwargs)

    monkeypatch.setattr(mjlogs.importing, "PooledFileReader", spy)
    paths = sorted((REAL / "mjlog_xml" / "Apricot-S__mahjax").iterdir())[:files]
    if archive:
        with zipfile.ZipFile(tmp_path / "games.zip", "w") as bundle:
            for path in paths:
                bundle.writestr(path.name, path.read_bytes())
    else:
        for path in paths:
            (tmp_path / path.name).write_bytes(path.read_bytes())
    call_command("import_logs", str(tmp_path), "--quiet", "--jobs", str(asked))
    assert started == ([] if workers is None else [workers])
    assert Game.objects.count() == files


def _dies_on_poison(name: str, data: bytes, *args: Any, **kwargs: Any) -> Any:
    """mjlogs.reading.read_file, but the worker reading a file named ``poison...`` dies (as
    one killed or out of memory would: no exception, no cleanup)."""
    if Path(name).name.startswith("poison"):
        os._exit(9)
    return _real_read_file(name, data, *args, **kwargs)


_real_read_file = mjlogs.reading.read_file


def _dies_on_poison_later(name: str, data: bytes, *args: Any, **kwargs: Any) -> Any:
    """:func:`_dies_on_poison`, the worker dying a moment after it takes the file."""
    if Path(name).name.startswith("poison"):
        time.sleep(0.1)
        os._exit(9)
    return _real_read_file(name, data, *args, **kwargs)


def test_a_worker_that_dies_fails_its_file_alone_and_the_import_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(mjlogs.reading, "read_file", _dies_on_poison)
    files = uploads()
    poison = UploadedFile("poison.mjlog", files[0].data)
    summary = import_files([files[1], poison, *files[2:]], jobs=2, study_after=False)

    died = [outcome for outcome in summary.outcomes if outcome.file == "poison.mjlog"]
    assert [(o.status, o.error) for o in died] == [("failed", mjlogs.reading.WORKER_DIED)]
    # Every other file, read ahead beside it in the pool that died, is read again and stored:
    # the same outcomes as an import without it.
    others = [o for o in summary.outcomes if o.file != "poison.mjlog"]
    monkeypatch.undo()
    Game.objects.all().delete()
    without = import_files([files[1], *files[2:]], jobs=2, study_after=False).outcomes
    assert [(o.file, o.status, o.error) for o in others] == [
        (o.file, o.status, o.error) for o in without
    ]
    assert sum(o.status == "imported" for o in others) > 5


#: Where _logged_replay notes each replay: which process made it (set before the workers fork).
_replay_log: Path | None = None
_real_replayed = replay.services.replayed


def _logged_replay(*args: Any, **kwargs: Any) -> Any:
    """replay.services.replayed, noting the process that called it (a worker or the importer)."""
    assert _replay_log is not None
    with _replay_log.open("a") as log:
        log.write(f"{os.getpid()}\n")
    return _real_replayed(*args, **kwargs)


def replays(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[], tuple[int, int]]:
    """Count the replays from now on: (in the workers, in this process)."""
    global _replay_log
    monkeypatch.setattr(replay.services, "replayed", _logged_replay)
    monkeypatch.setattr(sys.modules[__name__], "_replay_log", tmp_path / "replays.log")
    assert _replay_log is not None
    _replay_log.write_text("")

    def counted() -> tuple[int, int]:
        assert _replay_log is not None
        pids = _replay_log.read_text().split()
        here = pids.count(str(os.getpid()))
        _replay_log.write_text("")
        return len(pids) - here, here

    return counted


def test_the_workers_do_not_replay_games_already_stored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    counted = replays(monkeypatch, tmp_path)
    first = import_files(uploads(), jobs=2, study_after=False)
    imported = sum(o.status == "imported" for o in first.outcomes)
    # A game twice in one import is replayed twice: the workers know what was stored when
    # they were forked.
    twice = sum(o.status == "duplicate" for o in first.outcomes)
    assert twice == 1
    assert counted() == (imported + twice, 0)

    again = import_files(uploads(), jobs=2, study_after=False)  # a folder imported again
    assert {o.status for o in again.outcomes} == {"duplicate", "failed", "skipped"}
    assert counted() == (0, 0)

    Game.objects.filter(pk=first.outcomes[0].game_id).delete()  # one of them is new again
    import_files(uploads(), jobs=2, study_after=False)
    assert counted() == (1, 0)


def test_a_game_taken_for_stored_that_is_new_is_still_verified(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    files = uploads()
    summary = import_files(files, jobs=2, study_after=False)
    outcomes, rows = outcomes_of(summary), stored()
    digests = list(Game.objects.values_list("content_hash", flat=True))
    forget_everything()
    # The workers are told every game is stored already (as a hash collision would): none is.
    monkeypatch.setattr(
        mjlogs.importing, "_stored_digests", lambda uploader: StoredDigests(digests)
    )
    counted = replays(monkeypatch, tmp_path)

    again = import_files(files, jobs=2, study_after=False)

    assert counted() == (0, len(digests))  # replayed here, from their documents
    assert outcomes_of(again) == outcomes
    assert stored() == rows


def test_beyond_the_limit_the_workers_replay_every_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    first = import_files(uploads()[:4], jobs=2, study_after=False)
    monkeypatch.setattr(mjlogs.importing, "STORED_DIGESTS_LIMIT", 3)  # fewer than are stored
    counted = replays(monkeypatch, tmp_path)
    again = import_files(uploads()[:4], jobs=2, study_after=False)
    assert {o.status for o in again.outcomes} == {"duplicate"}
    assert counted() == (len(first.outcomes), 0)


@pytest.mark.parametrize(
    ("store_batch", "verify_batch", "max_files"), [(3, 2, 2000), (1, 1, 2000), (50, 50, 9)]
)
def test_batches_and_limits_end_alike_with_workers(
    monkeypatch: pytest.MonkeyPatch, store_batch: int, verify_batch: int, max_files: int
) -> None:
    """Batches that end inside a file, a file, or an archive, and a limit on files reached
    among the files read ahead: the same outcomes and rows in one process and with workers."""
    monkeypatch.setattr(mjlogs.importing, "STORE_BATCH", store_batch)
    monkeypatch.setattr(mjlogs.verification_queue, "VERIFY_BATCH", verify_batch)
    limits = Limits(max_files=max_files)
    files = uploads()
    alone = import_files(files, jobs=1, study_after=False, limits=limits)
    outcomes, rows = outcomes_of(alone), stored()
    forget_everything()

    shared = import_files(files, jobs=2, study_after=False, limits=limits)

    assert outcomes_of(shared) == outcomes
    assert stored() == rows
    if max_files < len(files):
        assert outcomes[-1][1] == "failed" and "more than 9 files" in outcomes[-1][5]


def test_a_worker_that_dies_while_the_importer_stores_fails_its_file_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool breaks while this process stores a batch: the next file handed over finds it
    broken (the pool refuses it), and goes to a new one."""
    monkeypatch.setattr(mjlogs.reading, "read_file", _dies_on_poison_later)
    monkeypatch.setattr(mjlogs.importing, "STORE_BATCH", 1)
    store = mjlogs.importing.games_store

    def slow_store(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return store(*args, **kwargs)

    monkeypatch.setattr(mjlogs.importing, "games_store", slow_store)
    paths = sorted((REAL / "mjlog_xml" / "Apricot-S__mahjax").iterdir())[:7]
    files = [UploadedFile(path.name, path.read_bytes()) for path in paths]
    poisoned = [*files[:4], UploadedFile("poison.mjlog", files[0].data), *files[4:]]
    summary = import_files(poisoned, jobs=2, study_after=False)

    died = [outcome for outcome in summary.outcomes if outcome.file == "poison.mjlog"]
    assert [(o.status, o.error) for o in died] == [("failed", mjlogs.reading.WORKER_DIED)]
    others = [(o.file, o.status) for o in summary.outcomes if o.file != "poison.mjlog"]
    assert others == [(file.name, "imported") for file in files]


def test_the_connections_are_closed_when_a_pool_forks_not_when_it_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pool forks its workers at its first file: that is when no connection may be open
    (the importer stores, and opens one, between a broken pool and the next file)."""
    forks: list[int] = []

    def before_fork() -> None:
        forks.append(len(multiprocessing.active_children()))

    monkeypatch.setattr(mjlogs.reading, "read_file", _dies_on_poison)
    data = uploads()[0].data
    reader = mjlogs.reading.PooledFileReader(2, before_fork=before_fork)
    try:
        assert forks == []
        assert isinstance(reader.submit("a.mjlog", data)(), mjlogs.reading.ReadFile)
        assert forks == [0]  # no worker yet when it was called
        died = reader.submit("poison.mjlog", data)()
        assert isinstance(died, mjlogs.reading.ReadFailure)
        assert len(forks) == 2  # the poisoned file read alone, in a pool of its own
        reader.submit("b.mjlog", data)()
        # The new pool, at its first file; each fork after the workers before it were gone.
        assert forks == [0, 0, 0]
    finally:
        reader.close()


def test_stored_digests_know_a_hash_by_its_first_64_bits_and_skip_what_is_no_hash() -> None:
    digest = "ab" * 32
    stored = StoredDigests([digest, "old-1", "", "zz" * 32])
    assert len(stored) == 1
    assert digest in stored
    assert "ab" * 8 + "00" * 24 in stored  # the same first 64 bits: taken for stored
    assert "cd" * 32 not in stored
    assert "old-1" not in stored and None not in stored


def test_a_pool_found_broken_when_the_next_file_is_handed_over_is_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool refuses a file once a worker died (the importer was storing meanwhile): the
    file goes to a new pool, and the file that killed the worker fails alone."""
    monkeypatch.setattr(mjlogs.reading, "read_file", _dies_on_poison)
    data = uploads()[0].data
    reader = mjlogs.reading.PooledFileReader(2)
    try:
        poisoned = reader.submit("poison.mjlog", data)
        broken = reader._pool
        deadline = time.monotonic() + 30
        while not getattr(broken, "_broken", False):  # (CPython's flag, set as the pool breaks)
            assert time.monotonic() < deadline, "the pool did not break"
            time.sleep(0.01)
        with pytest.raises(futures.process.BrokenProcessPool):
            broken.submit(int)  # what handing the next file to it does

        after = reader.submit("b.mjlog", data)

        assert reader._pool is not broken
        assert isinstance(after(), mjlogs.reading.ReadFile)
        failed = poisoned()
        assert isinstance(failed, mjlogs.reading.ReadFailure)
        assert failed.error == mjlogs.reading.WORKER_DIED
    finally:
        reader.close()


def test_a_file_its_broken_pool_never_answers_is_read_again_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CPython 3.11 can leave a file handed over as a worker dies unanswered for ever: the
    reader notices that its pool broke and reads it again alone."""
    monkeypatch.setattr(mjlogs.reading, "read_file", _dies_on_poison)
    monkeypatch.setattr(mjlogs.reading, "STALL_CHECK_SECONDS", 0.05)
    data = uploads()[0].data
    reader = mjlogs.reading.PooledFileReader(2)
    try:
        reader.submit("poison.mjlog", data)
        broken = reader._pool
        deadline = time.monotonic() + 30
        while not getattr(broken, "_broken", False):  # (CPython's flag, set as the pool breaks)
            assert time.monotonic() < deadline, "the pool did not break"
            time.sleep(0.01)
        # What the race leaves: a file taken by the broken pool, whose answer never comes.
        reader._submit = lambda *args: futures.Future()  # type: ignore[method-assign]
        lost = reader.submit("lost.mjlog", data)
        del reader._submit
        answered: list[Any] = []
        waiting = threading.Thread(target=lambda: answered.append(lost()), daemon=True)
        waiting.start()
        waiting.join(timeout=60)

        assert not waiting.is_alive(), "the lost file was never answered"
        assert isinstance(answered[0], mjlogs.reading.ReadFile)
        assert reader._pool is not broken
    finally:
        reader.close()


def calls_to(monkeypatch: pytest.MonkeyPatch, target: Any, name: str) -> list[tuple[Any, ...]]:
    """The arguments of each call to ``target.name`` from now on (it still runs)."""
    calls: list[tuple[Any, ...]] = []
    real = getattr(target, name)

    def noted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(target, name, noted)
    return calls


def _slow(name: str, data: bytes, *args: Any, **kwargs: Any) -> Any:
    """mjlogs.reading.read_file, taking longer than the stall check's interval (a long file)."""
    time.sleep(0.3)
    return _real_read_file(name, data, *args, **kwargs)


def test_a_long_file_on_a_healthy_pool_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file not back within the stall check's interval is asked about, not taken for lost:
    its pool did not break, so its worker's answer is awaited and the pool kept."""
    monkeypatch.setattr(mjlogs.reading, "read_file", _slow)
    monkeypatch.setattr(mjlogs.reading, "STALL_CHECK_SECONDS", 0.05)
    reader = mjlogs.reading.PooledFileReader(1)
    try:
        pool = reader._pool
        new_pools = calls_to(monkeypatch, reader, "_new_pool")

        read = reader.submit("long.mjlog", uploads()[0].data)()

        assert isinstance(read, mjlogs.reading.ReadFile)
        assert reader._pool is pool and new_pools == []  # none replaced, no file read alone
    finally:
        reader.close()


def test_the_workers_are_handed_files_ahead_up_to_a_count_and_a_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Files are handed to the workers ahead of the one being stored, so that they read on
    while the importer stores a batch: up to AHEAD_PER_WORKER a worker, and while the files
    handed over and not yet taken back hold no more than AHEAD_BYTES."""
    monkeypatch.setattr(mjlogs.reading, "AHEAD_BYTES", 1000)
    data = uploads()[0].data
    assert len(data) > 1000
    reader = mjlogs.reading.PooledFileReader(2)
    try:
        most = 2 * mjlogs.reading.AHEAD_PER_WORKER
        assert not reader.full(most) and reader.full(most + 1)

        reading = reader.submit("big.mjlog", data)
        assert reader.full(1)  # over the bytes held: the next file waits
        reading()
        assert not reader.full(1)  # taken back: its bytes no longer count
    finally:
        reader.close()
    assert mjlogs.reading.FileReader().full(1)  # in one process, nothing is read ahead


def test_an_import_hands_over_no_more_files_than_its_reader_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The importer hands a file over only while its reader is not full, and takes back the
    oldest first: never more out at once than the reader allows."""
    played = list(simulate("tenhou-4p-east", 5, 4343))
    out: list[int] = []

    class TakesThree(mjlogs.reading.FileReader):
        """Reads in this process, but takes up to three files before the first is taken back."""

        def submit(self, name: str, data: bytes) -> Callable[[], Any]:
            read = super().submit(name, data)
            out.append(out[-1] + 1 if out else 1)

            def taken_back() -> Any:
                out.append(out[-1] - 1)
                return read()

            return taken_back

        def full(self, waiting: int) -> bool:
            return waiting > 3

    monkeypatch.setattr(mjlogs.importing, "FileReader", TakesThree)
    files = [UploadedFile(f"{index}.json", canonical.write([g])) for index, g in enumerate(played)]

    assert import_files(files).counts["imported"] == 5
    assert max(out) == 4  # three waiting, and the one handed over as the oldest is taken back
    assert out[-1] == 0


def test_only_the_files_that_may_have_ended_a_worker_are_read_again_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When a worker dies, the files its pool held that never reached a worker (beyond the
    2 * jobs + 1 its workers and their queue hold) go to the new pool, not one fork each."""
    monkeypatch.setattr(mjlogs.reading, "read_file", _dies_on_poison)
    data = uploads()[0].data
    reader = mjlogs.reading.PooledFileReader(2)
    try:
        alone = calls_to(monkeypatch, reader, "_read_alone")
        readings = [reader.submit("poison.mjlog", data)]
        readings += [reader.submit(f"{index}.mjlog", data) for index in range(12)]

        reads = [reading() for reading in readings]

        assert isinstance(reads[0], mjlogs.reading.ReadFailure)
        assert reads[0].error == mjlogs.reading.WORKER_DIED
        assert all(isinstance(read, mjlogs.reading.ReadFile) for read in reads[1:])
        assert alone[0][0] == "poison.mjlog" and len(alone) <= 2 * 2 + 1
    finally:
        reader.close()


#: In a fresh process: an import of the files named on the command line into a new SQLite
#: database, with two workers; prints whether Celery was loaded when the workers were forked
#: (at the first file handed over), and after the import.
IMPORT_WATCHING_CELERY = """
import sys, django
django.setup()
from django.core.management import call_command
import mjlogs.reading
call_command("migrate", verbosity=0)
at_fork = []
submit = mjlogs.reading.PooledFileReader._submit
def watched(self, *args):
    at_fork.append("celery" in sys.modules)
    return submit(self, *args)
mjlogs.reading.PooledFileReader._submit = watched
call_command("import_logs", *sys.argv[1:], "--jobs", "2", "--quiet")
print(at_fork[0], "celery" in sys.modules)
"""


def test_the_workers_are_forked_before_celery_is_imported(tmp_path: Path) -> None:
    """Celery (a tenth of a second) is imported by the importer while its workers read their
    first files, not before it forks them (config/__init__.py); the games are still verified
    and counted as in any import."""
    from tests.config.processes import run

    paths = sorted((REAL / "mjlog_xml" / "Apricot-S__mahjax").iterdir())[:3]
    result = run(
        ["-c", IMPORT_WATCHING_CELERY, *map(str, paths)],
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )

    assert result.returncode == 0, result.stderr
    *report, watched = result.stdout.splitlines()
    assert watched.split() == ["False", "True"]
    assert report[0] == "3 files: 3 games imported, 0 duplicates, 0 failed"
    assert report[1] == "verdicts of these games: 3 verified"
