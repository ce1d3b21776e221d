"""What a bulk command (``import_logs``, ``reverify``) sets for its whole run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import reset_queries


@contextmanager
def queries_unlogged() -> Iterator[None]:
    """Run the block without Django's query log, even with ``DEBUG`` on (the default setup).

    With ``DEBUG`` on, Django writes out every query with its parameters and keeps the last
    9,000 (``connection.queries``): an import's query storing 50 games holds their documents
    and files, megabytes of text, so a large import kept gigabytes; and on SQLite each query
    cost a second one to quote its parameters. A command runs in a process of its own, with
    nothing that reads the log, so it is switched off for the run and back on after."""
    debug = settings.DEBUG
    settings.DEBUG = False
    try:
        yield
    finally:
        settings.DEBUG = debug
        reset_queries()
