"""The compare page in a real browser (issue 22): typing part of a name fills the field's list
with the players the API finds, each shown with its platform; a suggestion picked and the form
sent, the page shows the two players' head-to-head. The world is
``tests/stats/names_data.py``'s ("Kim" and "Ben" are each on two platforms)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import screenshot
from tests.stats.names_data import NamesWorld, build_names_world

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def names(transactional_db: None, django_capture_on_commit_callbacks: Any) -> NamesWorld:
    return build_names_world(django_capture_on_commit_callbacks)


def suggestions(page: Any, field: str) -> dict[str, str]:
    """The field's list once filled from the API: each suggestion's text and value."""
    page.wait_for_selector(f"#id_{field}[data-suggested]")
    options = page.locator(f"#id_{field}_players option")
    return {
        options.nth(i).inner_text() or options.nth(i).get_attribute("label") or "": (
            options.nth(i).get_attribute("value") or ""
        )
        for i in range(options.count())
    }


def pick(page: Any, field: str, typed: str, shown: str) -> str:
    """Type part of a name, wait for the suggestion shown so, and pick it: the browser's own
    list is not part of the page, so the pick is made as the browser makes it, by putting the
    option's value in the field (an input event, as a pick fires)."""
    page.locator(f"#id_{field}").press_sequentially(typed, delay=30)
    offered = suggestions(page, field)
    assert shown in offered, offered
    page.locator(f"#id_{field}").fill(offered[shown])
    return offered[shown]


def test_a_typed_name_is_completed_and_the_head_to_head_shown(
    page: Any, live_server: Any, names: NamesWorld
) -> None:
    page.goto(f"{live_server.url}/stats/compare/")
    page.wait_for_load_state("networkidle")

    first = pick(page, "a", "ki", "Kim · Tenhou")
    assert first == "Kim@tenhou"
    offered = suggestions(page, "a")
    assert set(offered) == {"Kim · Tenhou", "Kim · Mahjong Soul"}, offered

    # Bots are offered, marked; guest seats never are.
    page.locator("#id_b").press_sequentially("e", delay=30)
    page.wait_for_function(
        "() => document.querySelector('#id_b_players option[value^=\"Lee\"]') !== null"
    )
    texts = set(suggestions(page, "b"))
    assert {"Lee · Tenhou (bot)", "Lee · Mahjong Soul (bot)"} <= texts, texts
    assert not any(text.startswith("NoName") for text in texts)
    page.locator("#id_b").fill("")

    second = pick(page, "b", "Be", "Ben · Tenhou")
    assert second == "Ben@tenhou"
    screenshot(page, "compare-completion")
    page.click("form.compare-players button[type=submit]")
    page.wait_for_url("**/stats/compare/?a=Kim*b=Ben*")
    assert page.locator("h1").inner_text() == "Kim and Ben"
    # Their one game: the Tenhou game.
    assert page.locator('[data-h2h="shared"]').inner_text() == "1"
    assert page.locator(".recent-games tbody tr").count() == 1
    row = page.locator(".recent-games tbody tr").first
    assert row.get_attribute("data-game") == str(names.games["tenhou"].pk)
    screenshot(page, "compare-by-name")
