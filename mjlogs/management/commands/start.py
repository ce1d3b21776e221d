"""``manage.py start``: prepare the database and serve the site, in one command.

This is how a newcomer starts the service on the embedded defaults (SQLite, eager Celery):
it applies every migration, imports a dozen self-played demo games when no game is stored yet
(``--no-demo`` to skip), then runs Django's development server on ``127.0.0.1:8000``
or on the address and port given, for example ``manage.py start 127.0.0.1:8080``.
Production runs ``manage.py migrate`` and a WSGI server such as gunicorn instead.
"""

import os
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from mjlogs.demo import import_demo_games
from mjlogs.models import Game

DEFAULT_ADDRPORT = "127.0.0.1:8000"


class Command(BaseCommand):
    help = "Prepare the database (migrate) and serve the site (runserver)."

    # runserver runs the system checks itself; running them twice only slows the start.
    requires_system_checks: tuple[str, ...] = ()

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "addrport",
            nargs="?",
            default=DEFAULT_ADDRPORT,
            help=f"Address and port to serve on (default {DEFAULT_ADDRPORT}).",
        )
        parser.add_argument(
            "--noreload",
            action="store_false",
            dest="use_reloader",
            help="Do not restart the server when the code changes.",
        )
        parser.add_argument(
            "--no-demo",
            action="store_false",
            dest="demo",
            help="Do not import the demo games into an empty database.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # runserver's auto-reloader starts this command again in a child process with
        # RUN_MAIN=true; the parent has already migrated, so the child only serves.
        if os.environ.get("RUN_MAIN") != "true":
            self.stdout.write("Preparing the database (migrate)...")
            call_command("migrate", interactive=False, verbosity=options["verbosity"])
            if options["demo"] and not Game.objects.exists():
                self.stdout.write("Importing demo games (self-played)...")
                counts = import_demo_games().counts
                self.stdout.write(f"{counts['imported']} demo games imported")
        call_command(
            "runserver",
            options["addrport"],
            use_reloader=options["use_reloader"],
            verbosity=options["verbosity"],
        )
