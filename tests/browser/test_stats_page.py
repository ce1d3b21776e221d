"""The player statistics page in a real browser: the four charts are drawn (their canvases
have painted pixels), and every figure of the tables is the selector's, as a person reads it.
The hand-computed world of ``tests/stats/stats_data.py`` gives the games."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from stats.selectors import player_stats
from stats.services import ratings_recompute
from stats.templatetags.stats_pages import metric_display
from tests.browser.conftest import screenshot
from tests.stats.stats_data import World, build_world

pytestmark = pytest.mark.django_db(transaction=True)

#: How many pixels of a canvas are painted (not fully transparent).
PAINTED = """(id) => {
    const canvas = document.getElementById(id);
    const context = canvas.getContext("2d");
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) {
        if (pixels[i] > 0) painted += 1;
    }
    return {width: canvas.width, height: canvas.height, painted: painted};
}"""


@pytest.fixture
def world(transactional_db: None) -> World:
    built = build_world()
    ratings_recompute()  # the world's games are stored directly: rate them as the tasks would
    return built


def test_the_stats_page_draws_its_charts_and_shows_the_selectors_figures(
    page: Any, live_server: Any, world: World
) -> None:
    ann = world.players["Ann"]
    page.goto(f"{live_server.url}/stats/players/{ann.pk}/")
    page.wait_for_selector('#charts[data-drawn="4"]')
    for chart in ("chart-placement", "chart-rates", "chart-points", "chart-rating"):
        drawn = page.evaluate(PAINTED, chart)
        assert drawn["width"] > 100 and drawn["height"] > 100, chart
        assert drawn["painted"] > 500, chart  # axes, labels, lines and points

    stats = player_stats(AnonymousUser(), ann)
    cells = page.locator("td[data-metric]")
    assert cells.count() == len(stats.metrics)
    for index in range(cells.count()):
        cell = cells.nth(index)
        name = cell.get_attribute("data-metric")
        assert cell.inner_text() == metric_display(stats.metrics[name], name), name
    n = page.locator('td[data-n="win_rate"]').inner_text()
    assert n.split() == [str(stats.counts["hands"]), "hands"]
    assert page.locator('[data-count="hands"]').inner_text() == str(stats.counts["hands"])
    assert page.locator('[data-figure="win_rate"]').inner_text() == "25.0%"
    assert page.locator(".recent-games tbody tr").count() == 4
    screenshot(page, "stats-page")

    # Filtering by an opponent narrows the figures (g3 and g4 with Eve: 4 hands). The filters
    # are folded while none is set: open them first.
    page.click("form.filters summary")
    page.select_option("#id_opponent", str(world.id("Eve")))
    page.click("form.filters button[type=submit]")
    page.wait_for_url(f"**/stats/players/{ann.pk}/?*opponent={world.id('Eve')}*")
    page.wait_for_selector('#charts[data-drawn="4"]')
    assert page.locator('[data-count="hands"]').inner_text() == "4"
    assert page.locator(".recent-games tbody tr").count() == 2
