"""Self-played games as people's games, for tests that need named players.

Our self-play writes its records with the source ``sim``: every seat of such a record is a bot
(``mjlogs.provenance``), left out of leaderboards. A test that stands a self-played game in for
people's game renames the seats and says the record is no longer self-play's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def played_by(document: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """The canonical document with these names in its seats and a source that is not our
    self-play (a canonical record of someone's game); changed in place and returned."""
    document["players"] = [{"name": name} for name in names]
    source = dict(document["source"])
    source["format"] = "canonical"
    extra = {key: value for key, value in (source.get("extra") or {}).items() if key != "bots"}
    if extra:
        source["extra"] = extra
    else:
        source.pop("extra", None)
    document["source"] = source
    return document
