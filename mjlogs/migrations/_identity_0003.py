"""The game identity of migrations 0003 to 0008, kept as it was for the migrations that made or
undo it (0003, and 0009's reverse step): the rule set, the players' names and each round's deal
and moves, spellings left out (``mjlogs.identity`` before issue 39). Not a migration: Django's
loader passes over a module whose name starts with an underscore.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine.rules.tenhou import DATED_OPTIONS

_UNORDERED_TILE_FIELDS = ("consumed", "tiles")


def identity_hash_0003(document: dict[str, Any]) -> str:
    """SHA-256 (hex) of what the identity of migration 0003 took of a canonical document."""
    content = {
        "ruleset": document["ruleset"],
        "rule_overrides": {
            option: value
            for option, value in document.get("rule_overrides", {}).items()
            if option not in DATED_OPTIONS
        },
        "players": [player["name"] for player in document["players"]],
        "rounds": [_round_identity(round_) for round_ in document["rounds"]],
    }
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _round_identity(round_: dict[str, Any]) -> dict[str, Any]:
    identity = {key: value for key, value in round_.items() if key != "wall"}
    if "hands" in identity:
        identity["hands"] = [sorted(hand) for hand in identity["hands"]]
    kept: list[dict[str, Any]] = []
    shown = []
    for event in round_.get("events", ()):
        if event.get("type") == "dora":
            shown.append(event.get("indicator"))
            continue
        kept.append(
            {
                key: sorted(value) if key in _UNORDERED_TILE_FIELDS and isinstance(value, list)
                else value
                for key, value in event.items()
                if not key.startswith("recorded")
            }
        )  # fmt: skip
    identity["events"] = kept
    identity["dora_shown"] = shown
    return identity
