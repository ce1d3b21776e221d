"""``manage.py import_logs``: folders walked, archives opened, a summary with every failure's
reason and the verdicts, exit status 1 when a file failed, nothing stored twice."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from engine.formats import canonical
from engine.sim.selfplay import simulate
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
    from replay.models import Verdict, Verification
    from tests.engine.corpus import corpus_dir, manifest

    output, _ = run(str(corpus_dir()))
    rows = manifest()
    stored = Game.objects.count()
    # Every game file is stored or is a duplicate of a stored one (the same Tenhou game as
    # mjlog and as tenhou.net/6), and the manifest is the one file that is not a game.
    assert f"{len(rows) + 1} files: {stored} games imported" in output
    duplicates = len(rows) - stored
    assert f"{duplicates} duplicates, 1 failed" in output
    assert duplicates >= 31  # the pairs
    assert Verification.objects.count() == stored
    not_verified = Verification.objects.exclude(verdict=Verdict.VERIFIED)
    assert not not_verified.filter(game__complete=True).exists(), list(
        not_verified.values_list("game__source_id", "message")
    )
    assert Verification.objects.filter(verdict=Verdict.VERIFIED).count() >= stored - 2
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
