"""The home page and the /health/ endpoint, through Django's test client."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client, override_settings


def test_home_page_says_what_the_service_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "<title>Mahjong logs: record, replay, verify, study</title>" in page
    for heading in ("Record", "Replay and verify", "Browse", "Study"):
        assert f"<h2>{heading}</h2>" in page
    assert "arriving step by step" in page
    # The page extends base.html: its stylesheet and navigation are there.
    assert "/static/mjlogs/site.css" in page
    assert 'href="/health/"' in page


def test_home_page_refuses_post(client: Client) -> None:
    assert client.post("/").status_code == 405


def test_stylesheet_is_found_by_staticfiles() -> None:
    from django.contrib.staticfiles import finders

    assert finders.find("mjlogs/site.css") is not None


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=True, CELERY_BROKER_URL="memory://")
def test_health_reports_database_and_celery(client: Client) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    assert response.json() == {
        "status": "ok",
        "database": {"reachable": True, "vendor": connection.vendor},
        "celery": {"mode": "eager", "broker": None},
    }
    assert connection.vendor in {"sqlite", "postgresql"}


@pytest.mark.django_db
def test_health_is_503_when_the_database_fails(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_cursor() -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["database"] == {"reachable": False, "vendor": connection.vendor}
    assert "connection refused" not in response.content.decode()


@pytest.mark.django_db
@override_settings(
    CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://:hunter2@cache.example:6379/0"
)
def test_health_names_only_the_broker_scheme(client: Client) -> None:
    response = client.get("/health/")
    assert response.json()["celery"] == {"mode": "broker", "broker": "redis"}
    assert "hunter2" not in response.content.decode()
    assert "cache.example" not in response.content.decode()
