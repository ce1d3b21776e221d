"""Benchmark and cross-check ``engine.hand.shanten`` against riichienv (and ``mahjong``).

Usage, from the repository root::

    python benchmarks/shanten_vs_riichienv.py [--hands 200000] [--seed 1] [--repeat 5]
        [--three-player-share 0.1] [--open-share 0] [--no-mahjong]

Deals the hands of ``benchmarks/shanten_vs_mahjong.py`` (random 13- and 14-tile hands, a share
of them three-player; with ``--open-share`` a share of open hands of 1-11 tiles), gives each
engine its own input made beforehand, afresh and in the order of the timed passes for both
(ours: 34 counts; riichienv: 136-tile ids, which its ``calculate_shanten`` /
``calculate_shanten_3p`` take), and times ``shanten(counts,
three_player=...)`` against riichienv in the same process on the same hands, the two passes
alternated ``--repeat`` times, the best of each kept (ours warm: the first, cold pass, with the
memos emptied, is timed apart). ``mahjong``'s ``Shanten.calculate_shanten`` is timed once on the
same hands unless ``--no-mahjong``. Every hand's number is compared between the engines; the exit
status is 1 if any disagrees.

riichienv is a benchmark peer only, never a dependency of the engine.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.shanten_vs_mahjong import Hand, mixed_hands, random_hands, timed, to_mpsz  # noqa: E402
from engine import is_compiled  # noqa: E402
from engine.hand.shanten import clear_tables, shanten  # noqa: E402

OPEN_SIZES = (1, 2, 4, 5, 7, 8, 10, 11)


def tile_ids(counts: Sequence[int]) -> list[int]:
    """riichienv's input: one 136-tile id per tile held (kind * 4 + copy)."""
    ids: list[int] = []
    for kind, count in enumerate(counts):
        ids.extend(range(kind * 4, kind * 4 + count))
    return ids


def benchmark_hands(n: int, seed: int, three_player_share: float, open_share: float) -> list[Hand]:
    """``n`` hands: those of ``shanten_vs_mahjong`` and a share of open ones (1-11 tiles, each
    size as often, a ``three_player_share`` of them three-player), shuffled."""
    n_open = round(n * open_share)
    hands = mixed_hands(n - n_open, seed, three_player_share)
    for i, size in enumerate(OPEN_SIZES):
        count = n_open // len(OPEN_SIZES) + (1 if i < n_open % len(OPEN_SIZES) else 0)
        n3 = round(count * three_player_share)
        hands += [(h, False) for h in random_hands(count - n3, seed * 100 + i, size, False)]
        hands += [(h, True) for h in random_hands(n3, seed * 100 + 50 + i, size, True)]
    random.Random(seed + 1).shuffle(hands)
    return hands


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="alternated passes, best kept")
    parser.add_argument("--three-player-share", type=float, default=0.1)
    parser.add_argument("--open-share", type=float, default=0.0)
    parser.add_argument("--no-mahjong", action="store_true", help="leave mahjong out")
    args = parser.parse_args(argv)

    from riichienv import calculate_shanten, calculate_shanten_3p

    dealt = benchmark_hands(args.hands, args.seed, args.three_player_share, args.open_share)
    # Each engine's inputs made afresh, in the order they are timed and interleaved, so that
    # neither side reads its hands scattered in memory (the dealt lists were shuffled).
    both = [((list(counts), three), (tile_ids(counts), three)) for counts, three in dealt]
    hands = [ours for ours, _ in both]
    inputs = [theirs for _, theirs in both]
    del dealt, both
    n = len(hands)
    n3 = sum(1 for _, three in hands if three)
    n_open = sum(1 for counts, _ in hands if sum(counts) < 13)
    print(
        f"{n} hands ({n3} three-player, {n_open} open), seed {args.seed}; "
        f"engine compiled: {is_compiled()}"
    )

    def ours() -> list[int]:
        return [shanten(counts, three_player=three) for counts, three in hands]

    def theirs() -> list[int]:
        return [
            calculate_shanten_3p(ids) if three else calculate_shanten(ids) for ids, three in inputs
        ]

    clear_tables()
    cold_s, ours_results = timed(ours)
    warm = []
    peer = []
    for _ in range(max(1, args.repeat)):
        warm.append(timed(ours))
        peer.append(timed(theirs))
    warm_s = min(s for s, _ in warm)
    peer_s = min(s for s, _ in peer)
    peer_results = peer[0][1]
    failed = 0
    differs = [i for i in range(n) if any(w[1][i] != ours_results[i] for w in warm)]
    if differs:
        print(f"warm passes differ from the cold pass on {len(differs)} hands")
        failed = 1
    columns = [("riichienv", peer_results)]
    seconds = [("ours, cold", cold_s), ("ours, warm", warm_s), ("riichienv", peer_s)]
    if not args.no_mahjong:
        from mahjong.shanten import Shanten

        calculate = Shanten.calculate_shanten
        mahjong_s, mahjong_results = timed(
            lambda: [calculate(counts, is_three_player=three) for counts, three in hands]
        )
        columns.append(("mahjong", mahjong_results))
        seconds.append(("mahjong", mahjong_s))
    for name, results in columns:
        bad = [i for i in range(n) if results[i] != ours_results[i]]
        print(f"disagreements with {name}: {len(bad)}")
        for i in bad[:5]:
            counts, three = hands[i]
            text = to_mpsz(counts) + (" (3p)" if three else "")
            print(f"  {text}: ours {ours_results[i]}, {name} {results[i]}")
        failed = failed or (1 if bad else 0)
    for label, s in seconds:
        print(f"{label:>11}: {n / s:>12,.0f} hands/s  {s / n * 1e6:6.3f} us/hand  ({s:.3f} s)")
    print(f"ours warm / riichienv (time): {warm_s / peer_s:.2f}x")
    print(f"ours cold / riichienv (time): {cold_s / peer_s:.2f}x")
    if not args.no_mahjong:
        print(f"mahjong / ours warm (time): {mahjong_s / warm_s:.2f}x")
    return failed


if __name__ == "__main__":
    sys.exit(main())
