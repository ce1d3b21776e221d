"""The player page, the statistics page, the game page and the leaderboard in a real browser,
on real Tenhou games of the corpus: what the records say of each player (dan, R), the points
with uma and oka, the platform, and the screenshots a reviewer looks at."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import F

from config import compression
from engine.formats.mjlog import read_mjlog
from mjlogs.importing import import_file
from mjlogs.models import Game, GameSeat, Player
from stats.selectors import leaderboard
from tests.browser.conftest import screenshot
from tests.browser.test_stats_page import PAINTED
from tests.engine.corpus import corpus_dir

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.corpus]

#: Two players of the corpus with many games between them.
REGULARS = ("CLS", "ASAPIN")


@pytest.fixture
def regulars(transactional_db: None) -> dict[str, Player]:
    """Every corpus mjlog that seats one of the regulars, imported as an upload is (the
    verification and the statistics run at the commit, tasks being eager)."""
    for path in sorted((corpus_dir() / "mjlog_xml").rglob("*.mjlog")):
        record = read_mjlog(path.read_bytes())
        if any(player.name in REGULARS for player in record.header.players):
            import_file(path.name, path.read_bytes())
    return {name: Player.objects.get(name=name, platform="tenhou") for name in REGULARS}


def test_a_regulars_pages_show_what_the_records_say_and_the_points(
    page: Any, live_server: Any, regulars: dict[str, Player]
) -> None:
    cls = regulars["CLS"]
    latest = (
        GameSeat.objects.filter(player=cls)
        .exclude(recorded_rank="")
        .order_by(F("game__started_at").desc(nulls_last=True), "-game_id")
        .first()
    )
    assert latest is not None
    page.goto(f"{live_server.url}/players/{cls.pk}/")
    assert "Tenhou" in page.locator(".player-origin").inner_text()
    assert page.locator('[data-recorded="rank"]').inner_text() == latest.recorded_rank
    assert page.locator('[data-recorded="rating"]').inner_text() == f"{latest.recorded_rating:.2f}"
    screenshot(page, "player-page")

    page.goto(f"{live_server.url}/stats/players/{cls.pk}/")
    page.wait_for_selector('#charts[data-drawn="5"]')  # the recorded dan chart too
    for chart in ("chart-points", "chart-rating", "chart-dan"):
        assert page.evaluate(PAINTED, chart)["painted"] > 500, chart
    seats = GameSeat.objects.filter(player=cls, points__isnull=False)
    total = round(sum(seat.points for seat in seats), 1)
    shown = page.locator('td[data-metric="total_points"]').inner_text()
    assert shown.replace("\N{MINUS SIGN}", "-") == f"{total:,.1f}"
    screenshot(page, "player-stats-page")

    game = Game.objects.filter(seats__player=cls, complete=True).order_by("started_at").first()
    assert game is not None
    page.goto(f"{live_server.url}/games/{game.pk}/")
    record = read_mjlog(compression.decompress(game.raw))
    for seat, player in enumerate(record.header.players):
        cell = page.locator(f'[data-recorded-rank="{seat}"]').inner_text()
        assert cell.startswith(player.rank or ""), (seat, cell)
    points = page.locator("table.players tbody tr td:last-child").all_inner_texts()
    assert record.recorded_final is not None and record.recorded_final.results is not None
    assert [float(text) for text in points] == list(record.recorded_final.results)
    screenshot(page, "game-page")


def test_the_leaderboard_ranks_by_total_points(
    page: Any, live_server: Any, regulars: dict[str, Player]
) -> None:
    expected = [row.player.name for row in leaderboard("total_points", 1)]
    assert expected[:1] and set(REGULARS) <= set(expected)
    page.goto(f"{live_server.url}/stats/leaderboard/?metric=total_points&min_games=1")
    names = page.locator("table.leaderboard tbody tr td:nth-child(2) a").all_inner_texts()
    assert names == expected[: len(names)]
    assert page.locator("table.leaderboard .player-platform").first.inner_text() == "Tenhou"
    screenshot(page, "leaderboard-total-points")
