#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

#: The commands that skip the interpreter's last collection (see engine/gc_settings.py).
BATCH_COMMANDS = frozenset({"import_logs", "reverify", "recompute_stats", "study_games"})


def main() -> None:
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from engine.gc_settings import settle_for_batch_work

    # Batch commands close what they write: they may skip the collection at exit too
    # (engine/gc_settings.py, docs/performance.md).
    command = sys.argv[1] if len(sys.argv) > 1 else None
    settle_for_batch_work(skip_exit_collection=command in BATCH_COMMANDS)
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Are you sure it's installed and "
            "available on your PYTHONPATH environment variable? Did you "
            "forget to activate a virtual environment?"
        ) from exc
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
