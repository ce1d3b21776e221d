"""Score JSON lines with the ``mahjong`` package: the peer of ``python -m engine score``.

Usage, from the repository root::

    python benchmarks/mahjong_score_lines.py < requests.jsonl > results.jsonl

What a user's script would do to score the requests of ``python -m engine score`` (the schema of
docs/scoring.md) with ``mahjong`` (2.1.0): read one JSON request per line of standard input,
turn it into mahjong's inputs (``tests/engine/scoring/mahjong_adapter.py``: 136-ids, ``Meld``
objects, a ``HandConfig`` with the rule set's options), score it with
``HandCalculator.estimate_hand_value`` and write one JSON result per line, in our schema and in
the same order. It reads and writes JSON with orjson when installed, as ``engine score`` does,
so that the two processes differ by their scoring, not their JSON library. A request the
adapter cannot turn into inputs gets ``{"error": "bad_request", ...}`` and the batch goes on.

It never imports the engine. ``benchmarks/score_vs_mahjong.py`` runs it and ``engine score`` as
fresh processes on the same file, and compares their results line by line.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TextIO

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.engine.scoring.mahjong_adapter import (  # noqa: E402
    build_inputs,
    estimate,
    response_to_dict,
)


def _json_functions() -> tuple[Callable[[bytes], Any], Callable[[Any], str]]:
    """orjson's reading and writing when installed, else the standard library's."""
    try:
        import orjson
    except ImportError:
        return json.loads, json.dumps
    return orjson.loads, lambda value: orjson.dumps(value).decode()


def score_line(request: Any) -> dict[str, Any]:
    """mahjong's result for one request, in our result schema."""
    try:
        inputs = build_inputs(request)
    except (ValueError, KeyError, TypeError, StopIteration) as error:
        return {"error": "bad_request", "message": f"{type(error).__name__}: {error}"}
    return response_to_dict(estimate(inputs), inputs)


def score_lines(lines: BinaryIO, out: TextIO) -> int:
    """One JSON result per input line, in order."""
    loads, dumps = _json_functions()
    for raw in lines:
        out.write(dumps(score_line(loads(raw))) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(score_lines(sys.stdin.buffer, sys.stdout))
