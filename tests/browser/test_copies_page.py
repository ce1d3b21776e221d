"""The other records of a game on the game page (issue 39, mjlogs.copies), on a phone (390x844),
in English and in Japanese: the corpus's Tenhou game as mjx's tenhou.net/6 export (names
hidden) and as its mjlog (real names). The export's page says, in view and without sideways
scroll, that it is a copy of the mjlog's game and not counted in the statistics; its link leads
to the mjlog's page, which lists the export as its copy.

Screenshots (``MJ_ARTIFACTS``, default ``test-artifacts/``): ``copies-copy-<language>-390x844``
and ``copies-counted-<language>-390x844`` (the section alone).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mjlogs.models import Game
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_viewer import corpus_bytes, store
from tests.mjlogs.test_copies_page import PAIR

pytestmark = pytest.mark.django_db(transaction=True)


#: The copies section: its box, its words, where its links go, and the page's width.
READ_COPIES = """() => {
  const section = document.querySelector("section.copies");
  if (!section) return null;
  const r = section.getBoundingClientRect();
  return {
    pageWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    box: {left: r.left, right: r.right, width: r.width, height: r.height},
    text: section.innerText.replace(/\\s+/g, " "),
    links: Array.from(section.querySelectorAll("a")).map((a) => a.getAttribute("href")),
  };
}"""


def _fits(found: dict[str, Any]) -> bool:
    box = found["box"]
    return (
        found["pageWidth"] <= found["width"]
        and box["width"] > 0
        and box["height"] > 0
        and box["left"] >= 0
        and box["right"] <= found["width"]
    )


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("section.copies").screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_a_copy_and_the_copy_that_counts_say_so_on_a_phone(
    phone: tuple[str, Any], live_server: Any
) -> None:
    language, page = phone
    # The export first: stored after the mjlog it would add nothing, a duplicate not stored.
    mjlog_path, export_path = PAIR
    export = store(Path(export_path).name, corpus_bytes(export_path))
    mjlog = store(Path(mjlog_path).name, corpus_bytes(mjlog_path))
    assert Game.objects.get(pk=export.pk).copy_of_id == mjlog.pk

    page.goto(f"{live_server.url}/games/{export.pk}/")
    found = page.evaluate(READ_COPIES)
    assert found is not None and _fits(found), found
    assert page.locator("section.copies").is_visible()
    if language == "ja":
        assert found["text"].startswith("この対局の他の記録")
        assert f"この記録は対局 {mjlog.pk} の写しです。" in found["text"]
        assert f"統計には数えません。数えるのは対局 {mjlog.pk} です。" in found["text"]
    else:
        assert found["text"].startswith("Other records of this game")
        assert f"This record is a copy of game {mjlog.pk}:" in found["text"]
        assert f"It is not counted in the statistics; game {mjlog.pk} is." in found["text"]
    assert found["links"] == [f"/games/{mjlog.pk}/"]
    _shot(page, f"copies-copy-{language}-390x844")

    page.locator("section.copies a").click()
    page.wait_for_url(f"**/games/{mjlog.pk}/")
    found = page.evaluate(READ_COPIES)
    assert found is not None and _fits(found), found
    uploaded = export.uploaded_at.strftime("%Y-%m-%d")
    if language == "ja":
        assert "統計に数えるのはこの記録です。" in found["text"]
        assert (
            f"対局 {export.pk}（tenhou6、{uploaded} アップロード） — 統計には数えません。"  # noqa: RUF001
        ) in found["text"]
    else:
        assert "This record is the one counted in the statistics." in found["text"]
        assert f"game {export.pk} (tenhou6, uploaded {uploaded}) — not counted;" in found["text"]
    assert found["links"] == [f"/games/{export.pk}/"]
    _shot(page, f"copies-counted-{language}-390x844")
