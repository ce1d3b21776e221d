"""Differential test: our scoring against the ``mahjong`` package (2.1.0) on random hands.

``mahjong`` has been checked against some 26 million Tenhou wins; it is the reference here.
Hands come from the seeded generator in ``hands.py`` (valid tile sets, consistent conditions, a
small share of broken, incomplete hands). For every hand both engines must agree on the outcome
(a win, ``no_yaku`` or ``not_agari``) and, for a win, on han, fu, the multiset of (yaku, han),
the limit, the yakuman count, every payment, the sticks and the total.

Conventions reconciled in ``mahjong_adapter.py`` (they are naming, not scoring, differences):

* North extractions: mahjong counts them inside ``Dora``; ours in ``kita``. Compared merged.
* Counted yakuman: mahjong's ``yaku_level`` says "yakuman" for a kazoe yakuman (its label is
  overwritten), ours ``kazoe_yakuman``; the adapter restores the name from mahjong's yaku.
* Fu of yakuman hands: both report the fu of the chosen reading (kokushi 0, seven pairs 25,
  otherwise the standard count), so fu is compared for yakuman hands too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from engine.scoring.request import score_request
from tests.engine.scoring.hands import random_requests
from tests.engine.scoring.mahjong_adapter import differences, parse_mpsz, score_with_mahjong

# (rule set, hands, seed) for the default run: about 10,000 hands, a few seconds.
DEFAULT_RUNS = (
    ("tenhou-4p", 4000, 1),
    ("majsoul-4p", 2000, 2),
    ("tenhou-3p", 2000, 3),
    ("majsoul-3p", 2000, 4),
)
# The slow run: 100,000 hands.
SLOW_RUNS = (
    ("tenhou-4p", 40000, 101),
    ("majsoul-4p", 20000, 102),
    ("tenhou-3p", 20000, 103),
    ("majsoul-3p", 20000, 104),
)
NOT_AGARI_RATE = 0.02
SHOWN = 5


def _compact(result: dict[str, Any]) -> str:
    result = {key: value for key, value in result.items() if key not in ("fu_items", "message")}
    return json.dumps(result, separators=(",", ":"))


def disagreements(requests: Iterable[dict[str, Any]]) -> tuple[int, list[str], dict[str, int]]:
    """Score every request on both sides: (count, reports of the first few, outcome counts)."""
    count = 0
    reports: list[str] = []
    outcomes: dict[str, int] = {}
    for request in requests:
        ours = score_request(request)
        theirs = score_with_mahjong(request)
        outcome = ours.get("error", "win")
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        found = differences(ours, theirs)
        if not found:
            continue
        count += 1
        if len(reports) < SHOWN:
            reports.append(
                "\n".join(
                    [
                        f"request: {json.dumps(request, separators=(',', ':'))}",
                        *(f"  {line}" for line in found),
                        f"  ours:    {_compact(ours)}",
                        f"  mahjong: {_compact(theirs)}",
                    ]
                )
            )
    return count, reports, outcomes


def _check(ruleset: str, n: int, seed: int) -> None:
    requests = random_requests(n, seed, ruleset, not_agari_rate=NOT_AGARI_RATE)
    count, reports, outcomes = disagreements(requests)
    assert count == 0, (
        f"{count} of {n} {ruleset} hands disagree (seed {seed}); first {len(reports)}:\n"
        + "\n".join(reports)
    )
    # The generator must keep producing every outcome, or the comparison proves less.
    assert outcomes.get("win", 0) > n * 0.6, outcomes
    assert outcomes.get("no_yaku", 0) > 0, outcomes
    assert outcomes.get("not_agari", 0) > 0, outcomes


@pytest.mark.parametrize(("ruleset", "n", "seed"), DEFAULT_RUNS)
def test_scoring_agrees_with_mahjong(ruleset: str, n: int, seed: int) -> None:
    _check(ruleset, n, seed)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "n", "seed"), SLOW_RUNS)
def test_scoring_agrees_with_mahjong_100k(ruleset: str, n: int, seed: int) -> None:
    _check(ruleset, n, seed)


def test_generator_is_reproducible_and_valid() -> None:
    """Same seed, same hands; every tile within 4 copies and the rule set's red fives."""
    first = random_requests(300, 9, "tenhou-3p")
    assert first == random_requests(300, 9, "tenhou-3p")
    assert first != random_requests(300, 10, "tenhou-3p")
    for request in first + random_requests(300, 9, "tenhou-4p"):
        tiles = parse_mpsz(request["hand"] + request["dora"] + request.get("ura", ""))
        for meld in request["melds"]:
            tiles += parse_mpsz(meld["tiles"])
        counts = [0] * 34
        for kind, _ in tiles:
            counts[kind] += 1
        counts[30] += request.get("kita", 0)
        assert max(counts) <= 4, request
        reds = [sum(1 for kind, red in tiles if red and kind // 9 == suit) for suit in range(3)]
        assert max(reds) <= 1, request
        if request["ruleset"].endswith("3p"):
            assert not any(counts[1:8]), request
            assert reds[0] == 0, request
            assert all(meld["type"] != "chi" for meld in request["melds"]), request
        assert parse_mpsz(request["win"])[0] in parse_mpsz(request["hand"]), request
