"""WSGI entry point, for servers such as gunicorn: ``gunicorn config.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

from engine.gc_settings import settle_for_serving

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# Loaded: what is alive now lives as long as the process (engine/gc_settings.py).
settle_for_serving()
