"""Serve the site for the integration tests: ``python -m tests.integration.serve HOST:PORT``.

Django's development server (threaded), without ``runserver``'s start-up checks: those query
the database, and a fault test starts the site while the database is down.
"""

from __future__ import annotations

import os
import sys

from django.core.servers.basehttp import run
from django.core.wsgi import get_wsgi_application


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    host, _, port = sys.argv[1].rpartition(":")
    run(host, int(port), get_wsgi_application(), threading=True)


if __name__ == "__main__":
    main()
