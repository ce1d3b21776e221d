"""Bulk imports where tasks run in-process (Celery eager, the default setup) verify their games
in batches, from the records the import read (issue 21): the same verdicts, facts and
statistics as one game at a time, fewer writes, no second decoding of the stored document."""

from __future__ import annotations

import gc
import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.management import call_command

import mjlogs.importing
import mjlogs.verification_queue
import replay.services
from engine.events import Game as EngineGame
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs import record_cache
from mjlogs.archives import UploadedFile
from mjlogs.importing import import_files, upload_import
from mjlogs.models import Game, GameSeat
from replay.models import Verdict, Verification
from stats.models import PlayerSummary, RoundFact
from tests.engine.corpus import corpus_dir

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = list(simulate("tenhou-4p-east", 7, 2101))


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The batches verified, with a batch of 3 games."""
    seen: list[list[int]] = []
    real = replay.services.games_verify

    def spy(game_ids: Any) -> Any:
        seen.append(list(game_ids))
        return real(game_ids)

    monkeypatch.setattr(mjlogs.verification_queue, "VERIFY_BATCH", 3)
    monkeypatch.setattr(replay.services, "games_verify", spy)
    monkeypatch.setattr("replay.tasks.games_verify", spy)
    return seen


def files(games: list[EngineGame]) -> list[UploadedFile]:
    return [
        UploadedFile(name=f"{index}.json", data=canonical.write([game]))
        for index, game in enumerate(games)
    ]


def test_an_import_verifies_in_batches_and_the_rest_at_its_end(batches: list[list[int]]) -> None:
    summary = import_files(files(GAMES))

    stored = [outcome.game_id for outcome in summary.outcomes]
    assert [len(batch) for batch in batches] == [3, 3, 1]
    assert [game_id for batch in batches for game_id in batch] == stored
    verdicts = set(Verification.objects.values_list("verdict", flat=True))
    assert verdicts == {Verdict.VERIFIED}
    assert Verification.objects.count() == len(GAMES)
    # Every verified game has its facts and its seats' points, and the players their summaries.
    assert set(RoundFact.objects.values_list("game_id", flat=True)) == set(stored)
    assert not GameSeat.objects.filter(points__isnull=True).exists()
    assert PlayerSummary.objects.count() == len({p.name for g in GAMES for p in g.header.players})


def test_an_upload_all_or_nothing_verifies_in_batches_after_its_commit(
    batches: list[list[int]],
) -> None:
    upload_import(files(GAMES[:4]))
    assert [len(batch) for batch in batches] == [3, 1]
    assert Verification.objects.filter(verdict=Verdict.VERIFIED).count() == 4


def test_batched_verdicts_and_facts_equal_one_game_at_a_time() -> None:
    import_files(files(GAMES))
    batched = facts_and_verdicts()
    Verification.objects.all().delete()
    RoundFact.objects.all().delete()
    for game_id in Game.objects.values_list("pk", flat=True):
        replay.services.game_verify(game_id)  # from the stored document, one at a time
    assert facts_and_verdicts() == batched


def facts_and_verdicts() -> tuple[Any, ...]:
    facts = RoundFact.objects.order_by("game_id", "round_index", "seat").values_list(
        "game_id", "seat", "round_index", "won", "dealt_in", "delta", "score_after", "yaku"
    )
    verdicts = Verification.objects.order_by("game_id").values_list(
        "game_id", "verdict", "events", "complete", "report", "frames_index"
    )
    points = GameSeat.objects.order_by("game_id", "seat").values_list("points", flat=True)
    return list(facts), list(verdicts), list(points)


def test_a_verification_batch_replays_with_the_collector_paused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch's games are all alive until its verdicts are written: the cycle collector is off
    through each batch (engine.gc_settings.collector_paused), and on again after it."""
    collecting: list[bool] = []
    real = replay.services.replayed

    def spy(*args: Any, **kwargs: Any) -> Any:
        collecting.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(replay.services, "replayed", spy)
    assert gc.isenabled()
    import_files(files(GAMES[:2]))
    replay.services.game_verify(Game.objects.values_list("pk", flat=True)[0])

    assert collecting == [False, False, False]
    assert gc.isenabled()


def test_an_import_replays_the_records_it_read_not_the_stored_document(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_decoding(document: Any) -> Any:
        raise AssertionError("the stored document was decoded again")

    # Only the verification's decoding (the import reads these canonical files with it).
    monkeypatch.setattr(replay.services, "canonical", SimpleNamespace(game_from_json=no_decoding))
    import_files(files(GAMES[:2]))
    assert Verification.objects.filter(verdict=Verdict.VERIFIED).count() == 2


def test_a_remembered_record_is_used_only_for_the_same_stored_content() -> None:
    (game,) = simulate("tenhou-4p-east", 1, 2102)
    stored = record_cache.StoredRecord("hash-a", game, canonical.game_to_json(game))
    record_cache.remember(1, stored)
    assert record_cache.take(1, "hash-b") is None
    assert record_cache.take(1, "hash-a") is None  # taken (and dropped) by the failed try
    record_cache.remember(2, stored)
    assert record_cache.take(2, "hash-a") is stored
    assert record_cache.take(2, "hash-a") is None  # each record is taken once


def test_the_cache_keeps_at_most_its_capacity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record_cache, "CAPACITY", 2)
    (game,) = simulate("tenhou-4p-east", 1, 2103)
    for game_id in (1, 2, 3):
        record_cache.remember(game_id, record_cache.StoredRecord("h", game, {}))
    assert record_cache.take(1, "h") is None
    assert record_cache.take(3, "h") is not None


@pytest.mark.corpus
def test_every_corpus_game_reads_back_from_its_document_as_the_same_record() -> None:
    """What lets the import verify the record it read: decoding the stored document gives an
    equal record, so both replays agree."""
    paths = sorted(path for path in corpus_dir().rglob("*") if path.is_file())
    count = 0
    for path in paths:
        if path.name == "MANIFEST.tsv":
            continue
        for game in canonical_readable(path):
            assert canonical.game_from_json(canonical.game_to_json(game)) == game, path.name
            count += 1
    assert count > 100


def canonical_readable(path: Path) -> list[EngineGame]:
    from engine.formats import read_games

    games, _ = read_games(path.read_bytes(), file_name=path.name)
    return games


def test_the_import_command_reports_the_batched_verdicts(tmp_path: Path) -> None:
    for index, game in enumerate(GAMES[:4]):
        (tmp_path / f"{index}.json").write_bytes(canonical.write([game]))
    out = io.StringIO()
    call_command("import_logs", str(tmp_path), "--quiet", stdout=out)
    assert "verdicts of these games: 4 verified" in out.getvalue()
