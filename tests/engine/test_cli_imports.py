"""What a command imports: only what it uses (issue 21, a fast cold start).

Each command runs in a fresh interpreter, which then lists the engine modules it imported. A
verification of Tenhou logs loads no other format's reader, no other game family and none of
the viewer's modules; scoring one hand loads no replayer. Each module named here was imported
on that path before the imports became lazy.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MJLOGS = ROOT / "tests" / "data" / "real" / "mjlog_xml"

LIST_IMPORTS = """
import json, sys
from engine.cli import main
status = main(sys.argv[1:])
print(json.dumps([name for name in sys.modules if name.startswith("engine")]))
"""


def imported_by(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", LIST_IMPORTS, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_verifying_tenhou_logs_loads_no_other_format_family_or_viewer_module() -> None:
    modules = imported_by("verify", str(MJLOGS), "--jobs", "1", "--json")

    assert "engine.formats.mjlog" in modules
    assert "engine.replay" in modules
    unwanted = {
        "engine.formats.tenhou6",
        "engine.formats.tenhou6.reader",
        "engine.formats.mjai",
        "engine.variants.uzje",
        "engine.variants.uzje.rules",
        "engine.frame_types",
        "engine.frames",
        "engine.study",
    }
    assert not modules & unwanted


def test_scoring_one_hand_loads_no_replayer_and_no_other_family() -> None:
    modules = imported_by("score", "--hand", "123m456p789s11z234m", "--win", "4m", "--tsumo")

    assert "engine.scoring.score" in modules
    unwanted = {
        "engine.replay",
        "engine.state",
        "engine.formats.canonical",
        "engine.formats.mjlog",
        "engine.variants.uzje",
        "engine.frame_types",
    }
    assert not modules & unwanted
