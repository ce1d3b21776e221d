"""What the health endpoint reports: can we reach the database, and how Celery runs.

Kept out of the view so the view stays thin and these checks can be reused (by a management
command or a monitoring task later). Nothing here reveals a host name or a password.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connections

from config.env import url_scheme
from mjlogs import pipeline

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DatabaseHealth:
    """Whether a query on the database succeeded, and which backend it is."""

    reachable: bool
    vendor: str


@dataclass(frozen=True)
class CeleryHealth:
    """How tasks run: ``"eager"`` (in-process) or ``"broker"`` with the broker's scheme."""

    mode: str
    broker: str | None


def database_health(alias: str = "default") -> DatabaseHealth:
    """Run ``SELECT 1`` on the database; a failure is logged and reported, never raised."""
    connection = connections[alias]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        # One line, no traceback: monitors call this every few seconds while it is down.
        logger.warning("Health check: database %r is not reachable: %s", alias, exc)
        return DatabaseHealth(reachable=False, vendor=connection.vendor)
    return DatabaseHealth(reachable=True, vendor=connection.vendor)


def celery_health() -> CeleryHealth:
    """Report the configured Celery mode; the broker itself is not contacted."""
    if pipeline.tasks_run_here():
        return CeleryHealth(mode="eager", broker=None)
    # (A str: config/settings.py sets memory:// when none is configured.)
    return CeleryHealth(mode="broker", broker=url_scheme(str(settings.CELERY_BROKER_URL)))
