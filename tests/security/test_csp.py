"""A Content-Security-Policy on every answer: scripts only from the site's own files (no inline
script, no ``eval``), no plug-ins, no framing; the pages still work under it in a real browser
(Chromium reports no violation), the API's Swagger UI and ReDoc pages included.

Issue 20, finding 10 (see docs/security.md).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.formats import canonical
from mjlogs.importing import Status, import_file
from mjlogs.models import Game
from tests.mjlogs.pages import engine_game

ROOT = Path(__file__).resolve().parents[2]


def policy(answer: Any) -> dict[str, list[str]]:
    header = answer["Content-Security-Policy"]
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.fixture
def game(db: None) -> Game:
    data = canonical.write([engine_game(seed=1, names=("Ann", "Ben", "Cat", "Dan"))])
    (outcome,) = import_file("game.json", data)
    assert outcome.status is Status.IMPORTED, outcome
    return Game.objects.get(pk=outcome.game_id)


def site_pages(game: Game) -> list[str]:
    player = game.seats.order_by("seat").first()
    assert player is not None
    return [
        "/",
        "/games/",
        f"/games/{game.pk}/",
        f"/replay/{game.pk}/",
        "/players/",
        f"/players/{player.player_id}/",
        f"/stats/players/{player.player_id}/",
        "/stats/leaderboard/",
        "/stats/compare/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/health/",
        "/no-such-page/",
        "/api/games/",
        "/api/schema/",
    ]


@pytest.mark.django_db
def test_every_answer_has_the_policy(game: Game) -> None:
    client = Client()
    for url in site_pages(game):
        answer = client.get(url)
        directives = policy(answer)
        assert directives["default-src"] == ["'self'"], url
        assert directives["script-src"] == ["'self'"], url
        assert directives["style-src"] == ["'self'"], url
        assert directives["object-src"] == ["'none'"], url
        assert directives["frame-ancestors"] == ["'none'"], url
        assert directives["base-uri"] == ["'self'"], url
        assert directives["form-action"] == ["'self'"], url


@pytest.mark.django_db
def test_the_api_docs_allow_inline_styles_only(db: None) -> None:
    for url in ("/api/docs/", "/api/redoc/"):
        answer = Client().get(url)
        directives = policy(answer)
        assert directives["script-src"] == ["'self'"], url
        assert "'unsafe-inline'" in directives["style-src"], url
        assert "'unsafe-eval'" not in answer["Content-Security-Policy"], url


def test_no_template_has_inline_script_or_event_handlers() -> None:
    templates = [
        path
        for folder in ("templates", "mjlogs/templates", "replay/templates", "stats/templates")
        for path in sorted((ROOT / folder).rglob("*.html"))
    ]
    assert templates
    for path in templates:
        html = path.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", html, flags=re.IGNORECASE):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"\son[a-z]+\s*=", html, flags=re.IGNORECASE), path
        assert "javascript:" not in html.lower(), path


# --- In Chromium --------------------------------------------------------------------------------

#: Collects the page's CSP violations, from before its first script runs.
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + event.blockedURI);
});
"""

#: The one load the policy refuses, knowingly: ReDoc's sidebar shows Redocly's logo from
#: Redocly's CDN, and hides it when it cannot load. The docs ask nothing of a third party.
ALLOWED_REFUSALS = {"img-src https://cdn.redoc.ly/redoc/logo-mini.svg"}

#: What shows that a page worked, beyond loading without a violation.
WORKS = {
    "/api/docs/": ".swagger-ui .opblock",
    "/api/redoc/": "[data-section-id]",
    "/stats/players/": "#charts[data-drawn]",
    "/replay/": "#step[data-step]",
}


@pytest.mark.django_db(transaction=True)
def test_the_pages_work_under_the_policy_in_a_browser(page: Any, live_server: Any) -> None:
    data = canonical.write([engine_game(seed=1, names=("Ann", "Ben", "Cat", "Dan"))])
    (outcome,) = import_file("game.json", data)
    game = Game.objects.get(pk=outcome.game_id)
    User.objects.create_user("alice", password="alice-secret-1")
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(WATCH_VIOLATIONS)

    # Logged in, through the login form, to see the upload page too.
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "alice-secret-1")
    page.click("form.account-form button[type=submit]")
    page.wait_for_url("**/games/")

    # (The schema, YAML, is a download for a browser: test_every_answer_has_the_policy.)
    pages = [url for url in site_pages(game) if url != "/api/schema/"]
    for url in [*pages, "/upload/", "/api/docs/", "/api/redoc/"]:
        response = page.goto(f"{live_server.url}{url}")
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"], url
        for prefix, selector in WORKS.items():
            if url.startswith(prefix):
                page.wait_for_selector(selector, state="attached")
        page.wait_for_load_state("networkidle")
        violations = set(page.evaluate("window.__violations")) - ALLOWED_REFUSALS
        assert violations == set(), (url, violations)

    # Used, not only loaded: the viewer steps through a hand, the upload page sends a file.
    page.goto(f"{live_server.url}/replay/{game.pk}/")
    step = page.wait_for_selector("#viewer:not(.loading) #step[data-step]", state="attached")
    first = step.get_attribute("data-step")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'#step:not([data-step="{first}"])', state="attached")
    assert page.evaluate("window.__violations") == []
    page.goto(f"{live_server.url}/upload/")
    page.set_input_files(
        'input[type="file"]',
        files=[{"name": "again.json", "mimeType": "application/json", "buffer": data}],
    )
    page.wait_for_selector("#upload-list .outcome", state="attached")
    assert page.evaluate("window.__violations") == []

    refused = [
        text
        for text in console
        if "Content Security Policy" in text and "cdn.redoc.ly/redoc/logo-mini.svg" not in text
    ]
    assert refused == []
