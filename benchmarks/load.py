"""Scale benchmark: N self-played games into PostgreSQL, verified by K Celery workers, then
served by gunicorn under concurrent load. See docs/deploy.md for the figures and how to read them.

Usage, from the repository root::

    python benchmarks/load.py --games 100000 --workers 1 2
    python benchmarks/load.py --games 2000 --only generate

Steps (``--only`` runs some of them): ``generate`` self-plays the games into a compressed cache
(reused between runs), ``import`` loads them into a database of its own (``mjlogs_load`` by
default, dropped and re-created for each K so every K gets the same input) with K Celery workers
verifying, then brings every player's statistics up to date; ``serve`` runs gunicorn on the last
database and a headless locust load against the list, game, frames and stats endpoints. The
summary is printed as a table and written as JSON (``--output``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.loadbench.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
