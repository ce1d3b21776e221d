"""The shared corpus of real game records (``../shared/corpus``), for tests that replay them.

Tests that need it call :func:`corpus_dir`, which skips them with a visible reason when the folder
is absent (a laptop without the shared data).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.events import Game
from engine.formats import read_games

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


@dataclass(frozen=True)
class CorpusFile:
    """One row of ``MANIFEST.tsv``."""

    path: Path
    format: str
    players: int
    rounds: int
    complete: bool
    #: What the manifest says of the game's kind (``GO type=169 (4p,hanchan,...,houou)``).
    game_type: str = ""

    @property
    def name(self) -> str:
        return self.path.name


def corpus_games(step: int = 1) -> list[Game]:
    """Every game of every ``step``-th corpus file the engine reads (skips without the
    corpus)."""
    games: list[Game] = []
    for path in sorted(p for p in corpus_dir().rglob("*") if p.is_file())[::step]:
        try:
            games += read_games(path.read_bytes(), file_name=path.name)[0]
        except ValueError:  # EngineError: a file the engine does not read
            continue
    return games


def corpus_dir() -> Path:
    """The corpus folder; skips the calling test when it is absent."""
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"corpus not found at {CORPUS}: corpus tests need ../shared/corpus")
    return CORPUS


def manifest() -> list[CorpusFile]:
    """Every file of the corpus (empty when the corpus is absent)."""
    if not (CORPUS / "MANIFEST.tsv").is_file():
        return []
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [
        CorpusFile(
            path=CORPUS / row["path"],
            format=row["format"],
            players=int(row["players"]),
            rounds=int(row["n_rounds"]),
            complete=row["complete_game"] == "yes",
            game_type=row.get("game_type", ""),
        )
        for row in rows
    ]
