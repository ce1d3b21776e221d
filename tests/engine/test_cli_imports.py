"""What a command imports: only what it uses (issue 21, a fast cold start).

Each command runs in a fresh interpreter, which then lists the engine modules it imported. A
verification of Tenhou logs loads no other format's reader, no other game family and none of
the viewer's modules; scoring one hand loads no replayer. The formats, Ùzje and the frame types
were imported on those paths before the imports became lazy; the viewer's frames and study aids
are listed so that they stay out.
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
if status != 0:
    sys.exit(status)
print(json.dumps([name for name in sys.modules if name.startswith("engine")]))
"""


def imported_by(*args: str) -> set[str]:
    """The engine modules a command imported; it must have succeeded (every game verified, the
    hand scored), so that the whole path ran."""
    done = subprocess.run(
        [sys.executable, "-c", LIST_IMPORTS, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_verifying_tenhou_logs_loads_no_other_format_family_or_viewer_module() -> None:
    modules = imported_by("verify", str(MJLOGS), "--jobs", "1", "--json")

    assert "engine.formats.mjlog" in modules
    assert "engine.replay" in modules
    assert "engine.variants.riichi.replay" in modules
    unwanted = {
        "engine.formats.tenhou6",
        "engine.formats.tenhou6.reader",
        "engine.formats.mjai",
        "engine.variants.uzje",
        "engine.variants.uzje.rules",
        "engine.frame_types",
        "engine.frames",
        "engine.variants.riichi.frames",
        "engine.study",
    }
    assert not modules & unwanted


def test_scoring_one_hand_loads_no_replayer_and_no_other_family() -> None:
    modules = imported_by(
        "score", "--ruleset", "tenhou-4p", "--hand", "123m456p789s11z234m", "--win", "4m", "--tsumo"
    )

    # Scored by the riichi family, which the command line imports only to score.
    assert "engine.variants.riichi.family" in modules
    unwanted = {
        "engine.replay",
        "engine.variants.riichi.replay",
        "engine.state",
        "engine.formats.canonical",
        "engine.formats.mjlog",
        "engine.variants.uzje",
        "engine.frame_types",
    }
    assert not modules & unwanted
