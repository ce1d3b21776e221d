"""What ``manage.py import_logs`` imports before its first file: not the game list's and the
statistics' filters, whose choices import every game family and format reader, nor the list of
rule sets whose han is not riichi han (every family), nor the engine's command line (issue 21,
a fast cold start). Each was on that path before: checked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LIST_IMPORTS = """
import json, sys
import django
django.setup()
import stats.management.commands.import_logs
print(json.dumps(sorted(sys.modules)))
"""


def test_the_import_command_loads_no_filter_family_or_engine_command_line() -> None:
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", LIST_IMPORTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout.splitlines()[-1]))

    assert "mjlogs.importing" in modules
    unwanted = {
        "mjlogs.filters",
        "stats.filters",
        "engine.variants.uzje",
        "engine.formats.tenhou6",
        "engine.formats.mjai",
        "engine.cli_games",
    }
    assert not modules & unwanted
