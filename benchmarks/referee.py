"""The referee: our self-played games judged by independent engines, at scale.

Self-plays N games per rule set (``engine.sim``: greedy games, games with random players, and
scenario games arranged for rare situations), regenerable from (rule set, seed); exports each
through our writers (mjai, and tenhou.net/6 for Tenhou rule sets), reads the exports back with
our readers and replays them (a round trip that does not verify is a disagreement too); and has
independent engines judge every game:

* Mortal's libriichi (PyPI ``mjai``): every action of every 4-player game;
* riichienv: every action, and every win's han, fu, yaku, points and payments (4 and 3 players);
* jansou: our mjai and our tenhou.net/6 replayed through its game flow, every win scored, and
  the game between hands by its own game loop;
* ``mahjong`` 2.1.0: every win scored with the rule set's options;
* the referee's own rules between hands (carried scores, honba, sticks, the dealer, aborts,
  the end of the game, final points), written down apart from the engine.

libriichi and riichienv also give, at every decision, the whole set of actions they allow,
compared with ours.

It prints one line per disagreement class (peer, what differs, rule set) with its count and
first example, the classes explained as the peer's fault separately (the table is
``benchmarks/referee/explained.py``, the evidence in docs/replay.md, "The referee"), how often
each rare situation occurred, the counts out of their expected range
(``benchmarks/referee/expected.py``), and ends with ``unexplained disagreements: K``.

Run it from the repository root::

    .venv/bin/python benchmarks/referee.py --games 100
    .venv/bin/python benchmarks/referee.py --games 25000 --parts-dir benchmarks/referee/runs/n100k
    .venv/bin/python benchmarks/referee.py --games 25000 --parts-dir benchmarks/referee/runs/n100k \
        --finished-only
    .venv/bin/python benchmarks/referee.py --show majsoul-3p:1234 --out /tmp/game

Options: ``--rulesets`` (default tenhou-4p,tenhou-3p,majsoul-4p,majsoul-3p), ``--seed-start``,
``--jobs`` (default: all cores), ``--parts-dir`` (each part of ``--part-size`` games per rule
set writes its figures there as it ends; a rerun skips finished parts and the summary adds up
all of them; ``--finished-only`` reports the finished parts and judges nothing), ``--peers`` (a
subset of ours,libriichi,riichienv,jansou,mahjong,game), ``--kinds`` (only games of these
kinds). The exit status is 0 when nothing is unexplained and every count is in its range, 1
otherwise, 2 when a peer is missing (the message names it). The code is in the
``benchmarks/referee/`` package.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.referee.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
