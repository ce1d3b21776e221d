"""Benchmark and cross-check ``engine.hand.shanten`` against ``mahjong`` 2.1.0.

Usage, from the repository root::

    python benchmarks/shanten_vs_mahjong.py [--hands 200000] [--seed 1] [--three-player-share 0.1]

Deals random 13- and 14-tile hands (half each) from shuffled walls, a share of them three-player
hands (wall without 2m-8m), computes the shanten of every hand with ours and with mahjong's
``Shanten.calculate_shanten`` in the same process, and prints the disagreements (exit status 1
if there is any) and the speed of each: ours cold (first pass, memo tables empty), ours warm
(second pass over the same hands) and mahjong.

``random_hands`` and ``timed`` are meant to be imported by other benchmarks.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.hand.shanten import clear_tables, shanten  # noqa: E402

T = TypeVar("T")

WALL_4P = tuple(kind for kind in range(34) for _ in range(4))
WALL_3P = tuple(kind for kind in range(34) if not 1 <= kind <= 7 for _ in range(4))

Hand = tuple[list[int], bool]  # (34 counts, three_player)


def random_hands(n: int, seed: int, size: int, three_player: bool) -> list[list[int]]:
    """``n`` hands of ``size`` tiles, each dealt from a freshly shuffled 136-tile wall
    (108 tiles without 2m-8m when ``three_player``), as 34-count lists."""
    rng = random.Random(seed)
    wall = WALL_3P if three_player else WALL_4P
    sample = rng.sample
    hands = []
    for _ in range(n):
        counts = [0] * 34
        for kind in sample(wall, size):
            counts[kind] += 1
        hands.append(counts)
    return hands


def mixed_hands(n: int, seed: int, three_player_share: float) -> list[Hand]:
    """``n`` hands, half 13 and half 14 tiles, a share of them three-player, shuffled."""
    n3 = round(n * three_player_share)
    n4 = n - n3
    hands: list[Hand] = []
    for i, (count, size, three) in enumerate(
        (
            (n4 - n4 // 2, 13, False),
            (n4 // 2, 14, False),
            (n3 - n3 // 2, 13, True),
            (n3 // 2, 14, True),
        )
    ):
        hands.extend((h, three) for h in random_hands(count, seed * 10 + i, size, three))
    random.Random(seed).shuffle(hands)
    return hands


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    """Seconds taken by ``fn()`` (``time.perf_counter``), and what it returned."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def to_mpsz(counts: Sequence[int]) -> str:
    """``123m456p789s11z``-style text of a 34-count hand."""
    out = []
    for suit, start, end in (("m", 0, 9), ("p", 9, 18), ("s", 18, 27), ("z", 27, 34)):
        digits = "".join(str(i - start + 1) * counts[i] for i in range(start, end))
        if digits:
            out.append(digits + suit)
    return "".join(out)


def bench_shanten(hands: Sequence[Hand], cold: bool = True, repeat: int = 1) -> dict[str, Any]:
    """Time ours (cold then warm) and mahjong's shanten over ``hands``, and compare results.

    ``hands`` are ``(counts, three_player)`` pairs. With ``cold`` the memo tables are emptied
    first, so the first pass pays for learning every suit pattern it meets. The warm pass and
    mahjong's are each timed ``repeat`` times and the best time kept (for a busy machine).
    """
    from mahjong.shanten import Shanten

    calculate = Shanten.calculate_shanten

    def ours() -> list[int]:
        return [shanten(counts, three_player=three) for counts, three in hands]

    def theirs() -> list[int]:
        return [calculate(counts, is_three_player=three) for counts, three in hands]

    if cold:
        clear_tables()
    cold_s, ours_results = timed(ours)
    warm_s, warm_results = min(timed(ours) for _ in range(max(1, repeat)))
    mahjong_s, mahjong_results = min(timed(theirs) for _ in range(max(1, repeat)))
    disagreements = [
        (to_mpsz(h[0]) + (" (3p)" if h[1] else ""), a, b)
        for h, a, b in zip(hands, ours_results, mahjong_results, strict=True)
        if a != b
    ]
    n = len(hands)
    return {
        "hands": n,
        "disagreements": len(disagreements),
        "examples": disagreements[:5],
        "warm_differs_from_cold": sum(
            a != b for a, b in zip(ours_results, warm_results, strict=True)
        ),
        "ours_cold_s": cold_s,
        "ours_warm_s": warm_s,
        "mahjong_s": mahjong_s,
        "ours_cold_hps": n / cold_s,
        "ours_warm_hps": n / warm_s,
        "mahjong_hps": n / mahjong_s,
        "speedup_warm": mahjong_s / warm_s,
        "speedup_cold": mahjong_s / cold_s,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--three-player-share", type=float, default=0.1)
    parser.add_argument(
        "--repeat", type=int, default=1, help="time the warm and mahjong passes N times, keep best"
    )
    args = parser.parse_args(argv)

    hands = mixed_hands(args.hands, args.seed, args.three_player_share)
    n3 = sum(1 for _, three in hands if three)
    print(f"{len(hands)} hands (13/14 tiles, {n3} three-player), seed {args.seed}")
    r = bench_shanten(hands, repeat=args.repeat)
    print(f"disagreements with mahjong: {r['disagreements']}")
    for text, ours, theirs in r["examples"]:
        print(f"  {text}: ours {ours}, mahjong {theirs}")
    if r["warm_differs_from_cold"]:
        print(f"warm pass differs from cold pass on {r['warm_differs_from_cold']} hands")
    for label, key in (
        ("ours, cold", "ours_cold"),
        ("ours, warm", "ours_warm"),
        ("mahjong", "mahjong"),
    ):
        seconds = r[key + "_s"]
        print(
            f"{label:>11}: {r[key + '_hps']:>12,.0f} hands/s  "
            f"{seconds / r['hands'] * 1e6:6.2f} us/hand  ({seconds:.2f} s)"
        )
    print(f"ratio ours-warm/mahjong (hands/s): {r['speedup_warm']:.1f}")
    print(f"ratio ours-cold/mahjong (hands/s): {r['speedup_cold']:.1f}")
    return 1 if r["disagreements"] or r["warm_differs_from_cold"] else 0


if __name__ == "__main__":
    sys.exit(main())
