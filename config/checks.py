"""System checks of our own, run by ``manage.py check`` (those tagged ``deploy`` by ``check
--deploy`` only, as Django's security checks are). Registered when the mjlogs app is ready
(``mjlogs.apps``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

#: Cache back ends private to each process: every web process keeps counts of its own.
PROCESS_LOCAL_CACHES: Final = frozenset(
    {
        "django.core.cache.backends.locmem.LocMemCache",
        "django.core.cache.backends.dummy.DummyCache",
    }
)

W001: Final = "config.W001"


@register(Tags.security, Tags.caches, deploy=True)
def check_shared_cache(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    """Without debug, a cache private to each process is a warning: every rate limit (log-in,
    sign-up, uploads, password resets: ``mjlogs.throttling``) counts in the default cache, and
    with several web processes (gunicorn's workers, several machines) each lets the whole
    budget through (docs/security.md, "Rate limits across processes")."""
    if settings.DEBUG:
        return []
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend not in PROCESS_LOCAL_CACHES:
        return []
    return [
        Warning(
            f"The default cache ({backend.rsplit('.', 1)[-1]}) is private to each process: "
            "with several web processes every rate limit (log-in, sign-up, uploads) lets "
            "each process's whole budget through.",
            hint="Set DJANGO_CACHE_URL=redis://HOST:6379/2, a Redis database every process "
            "shares (docs/deploy.md). A site served by one process alone may silence this "
            f"check (SILENCED_SYSTEM_CHECKS = ['{W001}']).",
            id=W001,
        )
    ]
