"""Demo games: a few self-played games per rule set, so a newcomer's fresh site has something to
browse (``manage.py start`` imports them into an empty database)."""

from __future__ import annotations

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.archives import UploadedFile
from mjlogs.importing import ImportSummary, import_files

#: One 4-player and one sanma game per preset, East-only where it exists to keep the start quick.
DEMO_PRESETS = ("tenhou-4p-east", "tenhou-3p-east", "majsoul-4p-east", "ema-2016")
#: Fixed, so every fresh site shows the same games (and a second import finds them stored).
#: Each preset plays from a seed of its own (this one, plus its place): the bots seeded alike
#: under Tenhou's and Mahjong Soul's East-only rules deal and play alike, and the same moves
#: are one game, whatever the rules (engine.identity), so they would show one game twice.
DEMO_SEED = 20260101


def import_demo_games(per_preset: int = 3) -> ImportSummary:
    """Self-play ``per_preset`` games under each demo preset and import them."""
    files = [
        UploadedFile(
            f"demo/{preset}.json",
            canonical.write(list(simulate(preset, per_preset, DEMO_SEED + place))),
        )
        for place, preset in enumerate(DEMO_PRESETS)
    ]
    return import_files(files)
