"""Project configuration: settings, URLs, WSGI/ASGI entry points and the Celery app.

The Celery app is imported here so that it is set up whenever Django starts, and so that
``@shared_task`` functions in the apps bind to it (the standard Django + Celery layout).
"""

from config.celery import app as celery_app

__all__ = ("celery_app",)
