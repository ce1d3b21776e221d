"""Project configuration: settings, URLs, WSGI/ASGI entry points and the Celery app.

The Celery app (``config.celery``) is not imported with the settings, unlike Django and
Celery's usual layout: Celery and its broker library take about a tenth of a second to import,
and a bulk import (``manage.py import_logs``) forks its workers, which never queue a task,
before it needs them (docs/performance.md). Every ``tasks.py`` imports ``config.celery`` before
it declares a task, so a task always binds to the project's app; ``celery -A config`` finds the
app in ``config.celery``, as does code that needs it (``from config.celery import app``).
"""
