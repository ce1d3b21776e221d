"""Importing game records: formats sniffed, every game stored once, bad files refused whole with a
reason while the rest of the batch goes in, archives opened within limits, and each new game
verified after it commits (Celery runs eagerly in the tests)."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tarfile
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.models import Count

from config import compression
from engine.events import Game as EngineGame
from engine.formats import canonical, read_games
from engine.sim.selfplay import simulate
from mjlogs.archives import ArchiveError, Limits, UploadedFile, expand, is_archive
from mjlogs.identity import play_hash
from mjlogs.importing import Outcome, Status, import_file, import_files
from mjlogs.models import Game, GameSeat, Player, PlayerName, Visibility
from mjlogs.storing import content_hash
from replay.models import Verdict, Verification
from replay.services import game_verify
from tests.engine.corpus import CORPUS, corpus_dir

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[[str, bytes], list[Outcome]]:
    """``import_file`` followed by what it queues after commit (the verification task): a
    test's transaction never commits, so Django would otherwise never run it."""

    def run(name: str, data: bytes) -> list[Outcome]:
        with django_capture_on_commit_callbacks(execute=True):
            return import_file(name, data)

    return run


Importer = Callable[[str, bytes], list[Outcome]]
MJLOG = "mjlog_xml/mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.mjlog"


def corpus_file(relative: str) -> UploadedFile:
    corpus_dir()
    path = CORPUS / relative
    return UploadedFile(path.name, path.read_bytes())


def self_played(count: int, seed: int = 7, ruleset: str = "tenhou-4p-east") -> list[EngineGame]:
    return list(simulate(ruleset, count, seed))


def canonical_file(games: list[EngineGame], name: str = "games.jsonl") -> UploadedFile:
    return UploadedFile(name, canonical.write(games))


def test_a_game_is_stored_with_its_seats_players_and_raw_original() -> None:
    upload = corpus_file(MJLOG)
    (outcome,) = import_file(upload.name, upload.data)
    assert outcome.status is Status.IMPORTED and outcome.source_format == "mjlog"
    game = Game.objects.get(pk=outcome.game_id)
    assert game.source_id == "2010081709gm-00a9-0000-fe3371ad"
    assert (game.ruleset, game.players_count, game.complete) == ("tenhou-4p", 4, True)
    assert compression.decompress(game.raw) == upload.data
    (engine_game,) = canonical.loads(canonical.dumps(canonical.game_from_json(game.document)))
    assert engine_game.header.source.id == game.source_id
    seats = list(game.seats.order_by("seat"))
    assert [seat.placement for seat in seats].count(1) == 1
    assert sorted(seat.placement for seat in seats) == [1, 2, 3, 4]
    final = engine_game.recorded_final
    assert final is not None
    assert [seat.final_score for seat in seats] == list(final.scores)
    names = {name.platform for name in PlayerName.objects.filter(player__seats__game=game)}
    assert names == {"tenhou"}


def test_the_new_game_is_verified_after_it_commits(committed: Importer) -> None:
    upload = corpus_file(MJLOG)
    (outcome,) = committed(upload.name, upload.data)
    verification = Verification.objects.get(game_id=outcome.game_id)
    assert verification.verdict == Verdict.VERIFIED
    assert verification.complete and verification.events > 1000
    assert verification.engine_version and verification.duration_ms is not None
    assert verification.report is not None
    assert len(verification.report["rounds"]) == Game.objects.get().rounds_count


def test_the_same_file_twice_is_one_game() -> None:
    upload = corpus_file(MJLOG)
    (first,) = import_file(upload.name, upload.data)
    (second,) = import_file("renamed.mjlog", upload.data)
    assert second.status is Status.DUPLICATE and second.game_id == first.game_id
    assert Game.objects.count() == 1 and GameSeat.objects.count() == 4


def test_a_record_claiming_a_stored_source_id_with_other_names_is_another_game() -> None:
    (game,) = self_played(1)
    header = game.header
    renamed = game.__class__(
        header=header.__class__(
            ruleset=header.ruleset,
            rule_overrides=header.rule_overrides,
            players=tuple(player.__class__(player.name + "!") for player in header.players),
            source=header.source,
            started_at=header.started_at,
        ),
        rounds=game.rounds,
        recorded_final=game.recorded_final,
    )
    assert content_hash(renamed) != content_hash(game)
    (first,) = import_file("a.json", canonical.write([game]))
    (second,) = import_file("b.json", canonical.write([renamed]))
    # A source id is the record's claim, not the game's identity (mjlogs.identity).
    assert (first.status, second.status) == (Status.IMPORTED, Status.IMPORTED)
    assert Game.objects.filter(source_id=header.source.id).count() == 2


def test_the_play_ignores_the_source_and_the_record_does_not() -> None:
    """The play identity (engine.identity) leaves out what a record claims, its source and date
    among it; the record's identity keeps them: another log id claimed is another record of
    the same game (a copy, mjlogs.copies), never another game."""
    (game,) = self_played(1)
    moved = game.__class__(
        header=game.header.__class__(
            ruleset=game.header.ruleset,
            rule_overrides=game.header.rule_overrides,
            players=game.header.players,
            source=game.header.source.__class__(format="mjai", id="elsewhere"),
            started_at=None,
        ),
        rounds=game.rounds,
        recorded_final=game.recorded_final,
    )
    assert play_of(moved) == play_of(game)
    assert content_hash(moved) != content_hash(game)
    changed = canonical.game_from_json(
        canonical.game_to_json(game) | {"rounds": canonical.game_to_json(game)["rounds"][:-1]}
    )
    assert play_of(changed) != play_of(game)
    assert content_hash(changed) != content_hash(game)


def play_of(game: EngineGame) -> str:
    return play_hash(canonical.game_to_json(game))


def test_a_bad_file_stores_nothing_and_the_rest_of_the_batch_goes_in() -> None:
    games = self_played(3)
    good = canonical_file(games)
    broken = UploadedFile("broken.mjlog", corpus_file(MJLOG).data[:-200])
    summary = import_files([broken, good])
    assert summary.counts == {"imported": 3, "duplicate": 0, "failed": 1}
    failure = summary.outcomes[0]
    assert failure.file == "broken.mjlog" and failure.status is Status.FAILED
    assert "XML" in failure.error
    assert Game.objects.count() == 3
    assert sorted(Game.objects.values_list("rounds_count", flat=True)) == sorted(
        len(game.rounds) for game in games
    )


def test_a_file_with_one_bad_game_stores_none_of_its_games() -> None:
    games = self_played(2)
    lines = [canonical.dumps(game) for game in games]  # JSON lines
    lines[1] = lines[1].replace('"wind": 0', '"wind": 9', 1)
    (outcome,) = import_file("two.jsonl", "\n".join(lines).encode())
    assert outcome.status is Status.FAILED
    assert "line 2" in outcome.error and "wind" in outcome.error
    assert Game.objects.count() == 0 and Player.objects.count() == 0


def test_an_empty_or_unknown_file_is_a_clear_failure() -> None:
    for data in (b"", b"hello", b"\x00\x01\x02"):
        (outcome,) = import_file("x.bin", data)
        assert outcome.status is Status.FAILED and outcome.error
    assert Game.objects.count() == 0


def test_players_are_the_same_person_across_games_of_a_platform() -> None:
    games = self_played(2)
    import_files([canonical_file(games)])
    assert Player.objects.count() == len({p.name for g in games for p in g.header.players})
    # The same names in both games: each player sits once in each.
    seats = GameSeat.objects.values("player").annotate(n=Count("pk"))
    assert sorted(row["n"] for row in seats) == [len(games)] * Player.objects.count()


def test_a_zip_archive_is_opened_and_its_members_named() -> None:
    games = self_played(2, seed=11)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("logs/one.json", canonical.write(games[:1]))
        archive.writestr("logs/two.json", canonical.write(games[1:]))
        archive.writestr("logs/bad.json", b"{not json")
        archive.writestr("logs/", b"")
    summary = import_files([UploadedFile("upload.zip", buffer.getvalue())])
    by_file = {outcome.file: outcome.status for outcome in summary.outcomes}
    assert by_file == {
        "upload.zip/logs/one.json": Status.IMPORTED,
        "upload.zip/logs/two.json": Status.IMPORTED,
        "upload.zip/logs/bad.json": Status.FAILED,
    }


def _tar_of(games: list[Any], compression: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=f"w:{compression}") as archive:
        for index, game in enumerate(games):
            data = canonical.write([game])
            info = tarfile.TarInfo(f"g{index}.json")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _legacy_lzma(data: bytes) -> bytes:
    """``data`` as a legacy .lzma stream (what ``lzma --format=lzma`` writes)."""
    return lzma.compress(data, format=lzma.FORMAT_ALONE)


@pytest.mark.parametrize("compression", ["", "gz", "bz2", "xz", "lzma"])
def test_a_tar_archive_is_opened_plain_or_compressed(compression: str) -> None:
    games = self_played(2, seed=12)
    if compression == "lzma":
        data = _legacy_lzma(_tar_of(games, ""))
    else:
        data = _tar_of(games, compression)
    assert is_archive(data)
    summary = import_files([UploadedFile(f"upload.tar.{compression}", data)])
    assert summary.counts["imported"] == 2


def test_a_game_file_is_no_archive_however_it_is_compressed() -> None:
    document = canonical.write(self_played(1, seed=13))
    for data in (
        document,
        gzip.compress(document),
        bz2.compress(document),
        lzma.compress(document),
    ):
        assert not is_archive(data)


def test_archive_limits_are_checked_before_reading() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(5):
            archive.writestr(f"{index}.json", b"0" * 1000)
    data = buffer.getvalue()
    with pytest.raises(ArchiveError, match="holds 5 files; the limit is 3"):
        list(expand("many.zip", data, Limits(max_files=3)))
    with pytest.raises(ArchiveError, match="the limit for one file is 999"):
        list(expand("big.zip", data, Limits(max_file_bytes=999)))
    with pytest.raises(ArchiveError, match="holds 5,000 bytes uncompressed; the limit is 4,000"):
        list(expand("total.zip", data, Limits(max_total_bytes=4000)))
    summary = import_files([UploadedFile("many.zip", data)], limits=Limits(max_files=3))
    (outcome,) = summary.outcomes
    assert outcome.status is Status.FAILED and "limit is 3" in outcome.error


def test_a_zip_bomb_member_is_refused_by_its_stated_size() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.json", b"\0" * (40 * 1024 * 1024))
    assert len(buffer.getvalue()) < 100_000
    with pytest.raises(ArchiveError, match=r"bomb\.json is 41,943,040 bytes"):
        list(expand("bomb.zip", buffer.getvalue()))


def test_a_corrupt_archive_is_one_clear_failure() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.json", b"x" * 100)
    corrupt = buffer.getvalue()[:60]
    summary = import_files([UploadedFile("corrupt.zip", corrupt)])
    (outcome,) = summary.outcomes
    assert outcome.status is Status.FAILED and "corrupt.zip" in outcome.error


def test_private_games_and_uploader(django_user_model: type) -> None:
    user = django_user_model.objects.create_user("alice", password="pw-alice-123")
    (outcome,) = import_files(
        [canonical_file(self_played(1))], uploader=user, visibility=Visibility.PRIVATE
    ).outcomes
    game = Game.objects.get(pk=outcome.game_id)
    assert (game.uploader, game.visibility) == (user, "private")
    with pytest.raises(ValueError, match="visibility must be one of"):
        import_file("x.json", canonical.write(self_played(1)), visibility="secret")


def test_verification_is_idempotent_and_reports_a_mismatch(committed: Importer) -> None:
    (game,) = self_played(1, seed=3)
    document = canonical.game_to_json(game)
    win = next(
        event
        for round_ in document["rounds"]
        for event in round_["events"]
        if event["type"] == "win" and "recorded" in event
    )
    win["recorded"]["points"] += 100
    (outcome,) = committed("changed.json", json.dumps(document).encode())
    assert outcome.game_id is not None
    first = Verification.objects.get(game_id=outcome.game_id)
    assert first.verdict == Verdict.SCORE_MISMATCH
    assert "points" in first.message
    again = game_verify(outcome.game_id)
    assert again is not None and Verification.objects.filter(game_id=outcome.game_id).count() == 1
    assert (again.verdict, again.message, again.discrepancy) == (
        first.verdict,
        first.message,
        first.discrepancy,
    )


def test_verifying_a_deleted_game_does_nothing() -> None:
    (outcome,) = import_file("g.json", canonical.write(self_played(1)))
    assert outcome.game_id is not None
    Game.objects.filter(pk=outcome.game_id).delete()
    assert game_verify(outcome.game_id) is None
    assert Verification.objects.count() == 0


@pytest.mark.corpus
def test_the_same_tenhou_game_as_mjlog_and_tenhou6_is_one_game() -> None:
    real = Path(__file__).resolve().parents[1] / "data" / "real"
    log_id = "2019103023gm-00a9-0000-f90e0fe9"  # Tenhou's mjlog, and mjlog2json's conversion
    mjlog = real / "mjlog_xml" / "tsubakisakura__mjlog2json" / f"{log_id}.xml"
    tenhou6 = real / "tenhou6_json" / "tsubakisakura__mjlog2json" / f"{log_id}.json"
    (first,) = import_file(mjlog.name, mjlog.read_bytes())
    (second,) = import_file(tenhou6.name, tenhou6.read_bytes())
    assert second.status is Status.DUPLICATE and second.game_id == first.game_id


def test_a_conversion_that_hid_the_players_names_is_a_duplicate() -> None:
    corpus_dir()
    stem = Path(MJLOG).stem
    json_path = CORPUS / "tenhou6_json" / "mjx-project__mjx" / f"{stem}.json"
    if not json_path.exists():
        pytest.skip(f"{json_path} is not in the corpus")
    # mjx's tenhou.net/6 files hide the names ("Aさん" to "Dさん") and say less than the mjlog
    # (no ranks, no final scores): the same play, adding nothing, so a duplicate of the mjlog,
    # and none of the hidden names seated.
    mjlog = corpus_file(MJLOG)
    (first,) = import_file(mjlog.name, mjlog.data)
    (second,) = import_file(json_path.name, json_path.read_bytes())
    assert first.status is Status.IMPORTED
    assert (second.status, second.game_id) == (Status.DUPLICATE, first.game_id)
    assert Game.objects.count() == 1
    assert not Player.objects.filter(name="Aさん").exists()


@pytest.mark.django_db(transaction=True)
def test_the_same_game_uploaded_concurrently_is_stored_once() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (SQLite serialises writers): set DATABASE_URL")
    data = canonical.write(self_played(1, seed=5))
    barrier = threading.Barrier(4)
    results: list[Status] = []

    def upload() -> None:
        try:
            barrier.wait()
            (outcome,) = import_file("race.json", data)
            results.append(outcome.status)
        finally:
            connection.close()

    threads = [threading.Thread(target=upload) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [Status.DUPLICATE] * 3 + [Status.IMPORTED]
    assert Game.objects.count() == 1


def test_read_games_and_import_agree_on_the_number_of_games() -> None:
    games = self_played(4, seed=21)
    data = canonical.write(games)
    read, _ = read_games(data)
    summary = import_files([UploadedFile("four.jsonl", data)])
    assert len(read) == summary.counts["imported"] == 4


def test_an_mjai_record_with_a_converter_quirk_is_stored_verified_with_its_warning(
    committed: Importer,
) -> None:
    # One round as gimite/mjai's Tenhou converter writes it: the discard right after the pon
    # is flagged tsumogiri (seat 1 discards the 1p it drew before the call).
    hands = [
        ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "S", "W"],
        ["P", "P", "F", "F", "2m", "3m", "4m", "6p", "7p", "8p", "9s", "9s", "N"],
        ["2m", "3m", "4m", "2p", "3p", "4p", "2s", "3s", "4s", "6m", "7m", "8m", "1p"],
        ["5m", "5m", "6p", "6p", "7p", "7p", "3s", "3s", "4s", "4s", "C", "C", "N"],
    ]
    events: list[dict[str, Any]] = [
        {"type": "start_game", "names": ["A", "B", "C", "D"],
         "uri": "http://tenhou.net/0/?log=2010081709gm-00a9-0000-fe3371ad&tw=0"},
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "oya": 0,
         "dora_marker": "9s", "tehais": hands},
    ]  # fmt: skip
    for seat, drawn, discarded in (
        (0, "9p", "S"), (1, "1p", "N"), (2, "9p", "9p"), (3, "1s", "N"), (0, "P", "P"),
    ):  # fmt: skip
        events.append({"type": "tsumo", "actor": seat, "pai": drawn})
        events.append({"type": "dahai", "actor": seat, "pai": discarded,
                       "tsumogiri": drawn == discarded})  # fmt: skip
    events.append({"type": "pon", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P"]})
    events.append({"type": "dahai", "actor": 1, "pai": "1p", "tsumogiri": True})
    data = "".join(json.dumps(event) + "\n" for event in events).encode()
    (outcome,) = committed("gimite.mjson", data)
    assert outcome.status is Status.IMPORTED, outcome
    stored = Game.objects.get(pk=outcome.game_id)
    assert stored.source_id == "2010081709gm-00a9-0000-fe3371ad"
    (warning,) = stored.document["warnings"]
    assert "line 14: dahai: tsumogiri true on the discard right after a chi or pon" in warning
    verification = Verification.objects.get(game=stored)
    assert verification.verdict == Verdict.VERIFIED_FRAGMENT  # one hand of a game
    assert verification.report is not None and verification.report["warnings"] == [warning]
