"""ASGI entry point, for servers such as uvicorn: ``uvicorn config.asgi:application``."""

import os

from django.core.asgi import get_asgi_application

from engine.gc_settings import settle_for_serving

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()

# Loaded: what is alive now lives as long as the process (engine/gc_settings.py).
settle_for_serving()
