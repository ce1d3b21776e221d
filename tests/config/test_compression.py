"""config.compression writes Zstandard and reads what was stored before it (gzip, zlib): the
raw files, the packed documents and the queued files of a database written by an older
version are read as they were."""

from __future__ import annotations

import gzip
import json
import threading
import zlib
from typing import Any

import pytest
from django.db import connection

from config import compression
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.importing import import_file
from mjlogs.models import Game, QueuedFile, QueuedImport
from mjlogs.queued_imports import queued_batch_import
from mjlogs.selectors import game_original

TEXT = json.dumps({"東": "南 \u2028", "tiles": ["1m", "5mr"] * 500}).encode()


def test_writes_one_zstd_frame_smaller_than_the_text() -> None:
    data = compression.compress(TEXT)
    assert data[:4] == compression.ZSTD_MAGIC
    assert len(data) < len(TEXT) // 10
    assert compression.decompress(data) == TEXT
    assert compression.decompress(memoryview(data)) == TEXT  # as a database column gives it


@pytest.mark.parametrize(
    "stored",
    [
        gzip.compress(TEXT, compresslevel=4, mtime=0),  # Game.raw before
        zlib.compress(TEXT, 1),  # the packed columns and QueuedFile.data before
    ],
    ids=["gzip", "zlib"],
)
def test_reads_what_was_stored_before(stored: bytes) -> None:
    assert compression.decompress(stored) == TEXT


@pytest.mark.parametrize(
    "broken",
    [
        compression.compress(TEXT)[:-5],  # a frame cut short
        gzip.compress(TEXT)[:-5],
        b"\x78\x01not zlib",
        b"",
    ],
    ids=["zstd", "gzip", "zlib", "empty"],
)
def test_bytes_that_do_not_decompress_are_a_value_error(broken: bytes) -> None:
    with pytest.raises(ValueError, match="stored bytes that do not decompress"):
        compression.decompress(broken)


def test_threads_compress_and_decompress_at_once() -> None:
    texts = [TEXT + str(n).encode() * n for n in range(8)]
    results: dict[int, bytes] = {}

    def work(number: int) -> None:
        for _ in range(50):
            results[number] = compression.decompress(compression.compress(texts[number]))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == dict(enumerate(texts))


@pytest.mark.django_db
def test_a_game_stored_before_is_read_and_served_as_it_was() -> None:
    """A game whose raw file is gzip and whose document is zlib (an older version wrote them)
    gives back the same file and the same document."""
    (played,) = simulate("tenhou-4p-east", 1, 3)
    original = json.dumps(canonical.game_to_json(played)).encode()
    (outcome,) = import_file("old.json", original)
    game = Game.objects.get(pk=outcome.game_id)
    document = game.document
    assert bytes(Game.objects.values_list("raw", flat=True).get(pk=game.pk))[:4] == (
        compression.ZSTD_MAGIC
    )
    old_document = zlib.compress(json.dumps(document).encode(), 1)
    Game.objects.filter(pk=game.pk).update(raw=gzip.compress(original, mtime=0))
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE mjlogs_game SET document = %s WHERE id = %s", [old_document, game.pk]
        )
    again = Game.objects.get(pk=game.pk)
    assert game_original(again)[1] == original
    assert again.document == document


@pytest.mark.django_db
def test_a_file_queued_before_is_imported(django_capture_on_commit_callbacks: Any) -> None:
    """A file a queued import holds zlib-compressed (queued by an older version) imports."""
    (played,) = simulate("tenhou-4p-east", 1, 4)
    data = json.dumps(canonical.game_to_json(played)).encode()
    queued = QueuedImport.objects.create(files=1, batches=1, all_queued=True)
    QueuedFile.objects.create(
        queued_import=queued, batch=0, name="q.json", data=zlib.compress(data, 1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert queued_batch_import(queued.pk, 0) == 1
    queued.refresh_from_db()
    assert (queued.imported, queued.failed) == (1, 0)
    (game,) = Game.objects.all()
    assert game_original(game)[1] == data
