"""``manage.py import_logs``: folders walked, archives opened, a summary with every failure's
reason and the verdicts, exit status 1 when a file failed, nothing stored twice. Files are told
by their content: records under any name are imported, the rest skipped with the reason."""

from __future__ import annotations

import gzip
import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from pytest_django.fixtures import Settings

import stats.management.commands.import_logs as import_logs
from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.archives import Limits
from mjlogs.models import Game

# Transactions really commit here, so the verification queued after each commit runs (Celery
# is eager in the tests) as it does for a user of the command.
pytestmark = pytest.mark.django_db(transaction=True)


def run(*args: str) -> tuple[str, int]:
    out = io.StringIO()
    try:
        call_command("import_logs", *args, "--quiet", stdout=out)
    except SystemExit as exit_:
        return out.getvalue(), int(exit_.code or 0)
    return out.getvalue(), 0


def test_a_folder_is_imported_with_a_summary(tmp_path: Path) -> None:
    games = list(simulate("tenhou-4p-east", 3, 99))
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.json").write_bytes(canonical.write(games[:1]))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("b.json", canonical.write(games[1:]))
    (tmp_path / "sub" / "more.zip").write_bytes(buffer.getvalue())
    output, status = run(str(tmp_path))
    assert status == 0
    assert "2 files: 3 games imported, 0 duplicates, 0 failed" in output
    assert "verdicts of these games: 3 verified" in output
    again, status = run(str(tmp_path))
    assert status == 0 and "0 games imported, 3 duplicates" in again
    assert "verdicts of these games: 3 verified" in again  # the games the files hold
    assert Game.objects.count() == 3


def test_failures_are_listed_with_their_reasons_and_set_the_exit_status(tmp_path: Path) -> None:
    (tmp_path / "good.json").write_bytes(canonical.write(list(simulate("tenhou-3p-east", 1, 5))))
    (tmp_path / "bad.mjlog").write_bytes(b"<mjloggm ver='2.3'><INIT")
    output, status = run(str(tmp_path))
    assert status == 1
    assert "1 games imported, 0 duplicates, 1 failed" in output
    assert f"failed: {tmp_path / 'bad.mjlog'}: " in output and "XML" in output


def test_a_missing_path_or_user_is_a_command_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no such file or folder"):
        call_command("import_logs", str(tmp_path / "nothing"))
    with pytest.raises(CommandError, match="no user named 'nobody'"):
        call_command("import_logs", str(tmp_path), "--uploader", "nobody")


@pytest.mark.corpus
def test_the_corpus_stores_every_distinct_game_once_and_every_complete_game_verifies() -> None:
    from replay.models import AGREEING, Verdict, Verification
    from tests.engine.corpus import corpus_dir, manifest

    output, _ = run(str(corpus_dir()))
    rows = manifest()
    stored = Game.objects.count()
    # Every game file is stored or is a duplicate of a stored one (the same play, whatever the
    # format, saying nothing the stored record does not), and the manifest is the one file
    # that is not a game: skipped.
    assert f"{len(rows) + 1} files: {stored} games imported" in output
    duplicates = len(rows) - stored
    assert f"{duplicates} duplicates, 0 failed, 1 skipped (not game records)" in output
    assert "  skipped: " in output and "MANIFEST.tsv: not a game record" in output
    # Told apart by what was played, not by their log ids: mjx's tenhou.net/6 copies of its
    # mjlog games hide the names and say less (imported after them, by the folders' order),
    # so they are duplicates; two records of one log id are two plays (mjx's fragments).
    assert duplicates >= 32
    plays = list(Game.objects.values_list("play_hash", flat=True))
    assert len(set(plays)) == len(plays) == stored
    assert not Game.objects.filter(copy_of__isnull=False).exists()
    assert Verification.objects.count() == stored
    not_verified = Verification.objects.exclude(verdict=Verdict.VERIFIED)
    assert not not_verified.filter(game__complete=True).exists(), list(
        not_verified.values_list("game__source_id", "message")
    )
    # Every whole game verified whole; the fragments cut out of games as far as they go.
    agreeing = Verification.objects.filter(verdict__in=AGREEING)
    assert agreeing.count() >= stored - 2
    assert not agreeing.filter(verdict=Verdict.VERIFIED, complete=False).exists()
    # Each Tenhou game's room as its manifest row says it (the mjlog's GO type and lobby).
    said = {row.path.name: row for row in rows if row.format == "mjlog_xml"}
    tenhou = Game.objects.filter(source_format="mjlog")
    for raw_name, room in tenhou.values_list("raw_name", "room"):
        game_type = said[Path(raw_name).name].game_type
        assert room and (room in game_type or room == "custom"), (raw_name, room, game_type)
    houou = Client().get("/api/games/", {"room": "houou"}).json()
    assert houou["count"] == Game.objects.filter(room="houou").count() > 0
    # Statistics: the summaries and ratings kept up to date game by game during the import
    # equal a rebuild from scratch.
    from stats.models import PlayerSummary, RatingChange

    def snapshot() -> tuple[dict[int, Any], list[tuple[Any, ...]]]:
        summaries = {s.player_id: (s.games, s.hands, s.counts, s.metrics) for s in
                     PlayerSummary.objects.all()}  # fmt: skip
        ratings = list(
            RatingChange.objects.order_by("played_at", "game_id", "player_id").values_list(
                "game_id", "player_id", "games_before", "rating_before", "rating_after"
            )
        )
        return summaries, ratings

    incremental = snapshot()
    assert len(incremental[0]) > 50 and len(incremental[1]) > 200
    PlayerSummary.objects.all().delete()
    RatingChange.objects.all().delete()
    call_command("recompute_stats", "--quiet", stdout=io.StringIO())
    assert snapshot() == incremental


# -- files told by their content ---------------------------------------------------------------

#: Real Tenhou mjlogs kept in the repository (plain XML, saved as .txt).
MJLOGS = Path(__file__).resolve().parents[1] / "data" / "real" / "mjlog_xml" / "Agony5757__mahjong"


def mjlogs(count: int) -> list[bytes]:
    files = sorted(MJLOGS.glob("*gm-*"))[:count]
    if len(files) < count:
        pytest.skip(f"{MJLOGS} does not hold {count} mjlog files")
    return [path.read_bytes() for path in files]


def test_records_under_any_name_are_imported_and_the_rest_skipped(tmp_path: Path) -> None:
    first, second, third = mjlogs(3)
    (tmp_path / "sub").mkdir()
    (tmp_path / "2020010100gm-00a9-0000-41ec0486").write_bytes(first)  # no extension
    (tmp_path / "sub" / "game.html").write_bytes(second)
    (tmp_path / "sub" / "game.log").write_bytes(gzip.compress(third))
    (tmp_path / "README").write_text("My Tenhou games.\n")
    (tmp_path / "MANIFEST.tsv").write_text("path\tsha256\n")
    (tmp_path / ".git").mkdir()  # not walked
    (tmp_path / ".git" / "copy").write_bytes(first)
    (tmp_path / ".notes").write_text("hidden\n")
    output, status = run(str(tmp_path))
    assert status == 0, output
    assert "5 files: 3 games imported, 0 duplicates, 0 failed, 2 skipped (not game records)" in (
        output
    )
    assert f"  skipped: {tmp_path / 'README'}: not a game record in any known format" in output
    assert f"  skipped: {tmp_path / 'MANIFEST.tsv'}: not a game record" in output
    assert "verdicts of these games: 3 verified" in output
    assert Game.objects.filter(source_format="mjlog").count() == 3
    stored = Game.objects.get(raw_name=str(tmp_path / "2020010100gm-00a9-0000-41ec0486"))
    assert stored.source_id == "2020010100gm-00a9-0000-41ec0486"
    # The game's page names the file, not the folders of whoever imported it.
    page = Client().get(f"/games/{stored.pk}/").content.decode()
    assert "<dd>2020010100gm-00a9-0000-41ec0486, " in page and str(tmp_path) not in page
    answer = Client().get(f"/api/games/{stored.pk}/").json()
    assert answer["raw_name"] == "2020010100gm-00a9-0000-41ec0486"


def test_an_archive_member_that_is_no_record_is_skipped(tmp_path: Path) -> None:
    (record,) = mjlogs(1)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("logs/2020010100gm-00a9-0000-41ec0486", record)
        archive.writestr("logs/README.txt", "notes")
    (tmp_path / "logs.zip").write_bytes(buffer.getvalue())
    output, status = run(str(tmp_path))
    assert status == 0, output
    assert "1 files: 1 games imported, 0 duplicates, 0 failed, 1 skipped" in output
    assert f"  skipped: {tmp_path / 'logs.zip'}/logs/README.txt: not a game record" in output


def test_a_broken_record_still_fails_among_skipped_files(tmp_path: Path) -> None:
    (record,) = mjlogs(1)
    (tmp_path / "broken").write_bytes(record[: record.index(b"<INIT") + 30])
    (tmp_path / "README").write_text("notes\n")
    output, status = run(str(tmp_path))
    assert status == 1
    assert "0 games imported, 0 duplicates, 1 failed, 1 skipped" in output
    assert f"  failed: {tmp_path / 'broken'}: " in output


def test_files_over_the_upload_limits_fail_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    (record,) = mjlogs(1)
    (tmp_path / "game").write_bytes(record)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("game", record)
    (tmp_path / "games.zip").write_bytes(buffer.getvalue())
    monkeypatch.setattr(import_logs, "DEFAULT_LIMITS", Limits(max_file_bytes=len(record) - 1))
    settings.MJLOGS_MAX_UPLOAD_BYTES = len(buffer.getvalue()) - 1
    read = Path.read_bytes
    monkeypatch.setattr(
        Path, "read_bytes", lambda self: pytest.fail(f"{self} was read") if self.parent == tmp_path
        else read(self)
    )  # fmt: skip
    output, status = run(str(tmp_path))
    assert status == 1
    assert "0 games imported, 0 duplicates, 2 failed" in output
    assert f"{tmp_path / 'game'} is {len(record):,} bytes; the limit for one game file" in output
    assert "the limit for an archive (one upload, MJLOGS_MAX_UPLOAD_BYTES)" in output


def test_the_statistics_catch_up_once_after_the_whole_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tasks run in-process here (the default setup): each verified game still marks its
    players, but their summaries and the ratings are recomputed once, when the import ends,
    and come out as a rebuild makes them."""
    from stats import catch_up
    from stats.models import PlayerSummary, RatingChange

    for index, game in enumerate(simulate("tenhou-4p-east", 4, 131)):
        (tmp_path / f"{index}.json").write_bytes(canonical.write([game]))
    passes = {"summaries": 0, "ratings": 0}
    summaries_catch_up, ratings_catch_up = (
        catch_up.player_summaries_catch_up,
        catch_up.ratings_catch_up,
    )

    def summaries_pass(*marked: Any) -> int:
        passes["summaries"] += 1
        return summaries_catch_up(*marked)

    def ratings_pass() -> int | None:
        passes["ratings"] += 1
        return ratings_catch_up()

    monkeypatch.setattr(catch_up, "player_summaries_catch_up", summaries_pass)
    monkeypatch.setattr(catch_up, "ratings_catch_up", ratings_pass)
    output, status = run(str(tmp_path))
    assert status == 0 and "4 games imported" in output
    assert passes == {"summaries": 1, "ratings": 1}

    def summaries() -> list[tuple[int, dict[str, int]]]:
        return list(PlayerSummary.objects.order_by("player").values_list("player", "counts"))

    def ratings() -> list[tuple[int, int, float]]:
        changes = RatingChange.objects.order_by("pk")
        return list(changes.values_list("player", "game", "rating_after"))

    caught_up, rated = summaries(), ratings()
    assert len(caught_up) == 4 and len(rated) == 16
    PlayerSummary.objects.all().delete()
    call_command("recompute_stats", "--quiet", stdout=io.StringIO())
    assert summaries() == caught_up and ratings() == rated


def test_games_left_for_the_study_aids_are_named_with_the_command(tmp_path: Path) -> None:
    """In-process, an import leaves every game's study aids to their own command, and names it;
    ``--study`` runs it before returning."""
    from stats.selectors import study_pending_count

    (tmp_path / "three.json").write_bytes(canonical.write(list(simulate("tenhou-4p-east", 3, 7))))
    output, status = run(str(tmp_path))
    assert status == 0 and "3 games imported" in output
    assert "3 games wait for their study aids' counts" in output
    assert "`manage.py study_games` counts them" in output
    assert study_pending_count() == 3
    call_command("study_games", stdout=io.StringIO())
    assert study_pending_count() == 0
    again, _ = run(str(tmp_path))
    assert "wait for their study aids" not in again


def test_import_with_study_counts_the_study_aids_before_returning(tmp_path: Path) -> None:
    from stats.models import RoundFact
    from stats.selectors import study_pending_count

    (tmp_path / "two.json").write_bytes(canonical.write(list(simulate("tenhou-4p-east", 2, 8))))
    output, status = run(str(tmp_path), "--study")
    assert status == 0 and "2 games imported" in output
    assert "2 games' study aids counted" in output
    assert "wait for their study aids" not in output
    assert study_pending_count() == 0
    assert not RoundFact.objects.filter(decisions__isnull=True).exists()
