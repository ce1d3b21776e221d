"""Python processes started on a clean environment, for the tests of what the settings do with
the environment they find at start (tests/config, tests/security)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]

#: Variables of ours, left out of the environment the process starts with unless given.
OUR_PREFIXES = ("DJANGO_", "CELERY_", "MJLOGS_", "DATABASE_")


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in the project with none of our variables but ``env``'s."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(OUR_PREFIXES)}
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    clean.update(env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=PROJECT_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
