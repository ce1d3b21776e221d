"""Benchmark the mjai reader against the mjlog reader, on the same games, and its share of a verify.

Usage, from the repository root::

    python benchmarks/read_mjai_vs_mjlog.py [CORPUS] [--repeat 5] [--cold 3] [--simulate 200]

``CORPUS`` (default ``../shared/corpus``) is searched for Tenhou mjlog files (the files the mjlog
format sniffs as its own, whatever their names). Each is read once and written as mjai JSON
lines by the engine's writer (untimed): both readers then get the same games, as bytes held in
memory, and do the whole job from bytes to :class:`~engine.events.Game` values (``read`` of
``engine.formats.mjai`` and of ``engine.formats.mjlog``). The script prints, in CPU seconds of
the process (other load on the machine does not count):

- **warm**: passes alternating the two readers in this process; the best pass of each, per game,
  and the ratio (how many times the mjlog reader's time the mjai reader takes);
- **cold**: a fresh process for each reader (``--cold`` of each, alternated), which imports the
  engine, then times its first pass over the games; the best of each, and the ratio;
- **the share of reading in a verify** of the mjai games, as ``python -m engine verify`` does it
  (``read_games``, then ``engine.replay.replay`` of each game): reading's part of read and replay,
  warm (best passes) and cold (the fresh process's first passes);
- the corpus's own mjai files (``mjai_jsonl``: other tools' dialects), warm, per game;
- with ``--simulate N``: N self-played tenhou-4p games (seed 7; mjlog has no writer, so mjai
  only), read once after the passes above (games the process has not seen) and replayed, per
  game, and reading's share.

The collector runs with ``engine verify``'s settings (``engine.gc_settings``), in every process.
Exit status 1 if the mjai reader gives back games that do not verify (a benchmark of wrong answers
is useless), 2 if no mjlog file is found.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.events import Game  # noqa: E402
from engine.gc_settings import settle_for_batch_work  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
SIMULATE_SEED = 7

#: The child process of a cold pass: argv[1] the format, argv[2] a folder of its files
#: (``NNNN.<format>``); prints the CPU seconds of the import, the first read pass and, for mjai,
#: the first replay pass, as JSON.
COLD_CHILD = """
import json, sys, time
from pathlib import Path
from engine.gc_settings import settle_for_batch_work
settle_for_batch_work(skip_exit_collection=False)
name, folder = sys.argv[1], Path(sys.argv[2])
datas = [path.read_bytes() for path in sorted(folder.glob("*." + name))]
start = time.process_time()
from engine.formats import get_format
read = get_format(name).read
imported = time.process_time()
games = [game for data in datas for game in read(data)]
done = time.process_time()
out = {"import": imported - start, "read": done - imported, "games": len(games)}
if name == "mjai":
    from engine.replay import replay
    start = time.process_time()
    for game in games:
        replay(game)
    out["replay"] = time.process_time() - start
import engine
out["compiled"] = engine.is_compiled()
print(json.dumps(out))
"""


def mjlog_files(corpus: Path) -> list[bytes]:
    """The bytes of every mjlog file under ``corpus``, in path order."""
    from engine.formats.mjlog import FORMAT as MJLOG

    paths = sorted(path for path in corpus.rglob("*") if path.is_file())
    datas = (path.read_bytes() for path in paths)
    return [data for data in datas if MJLOG.sniff(data)]


def mjai_files(corpus: Path) -> list[bytes]:
    """The bytes of the corpus's own mjai files (the ``mjai_jsonl`` folder), in path order."""
    from engine.formats.mjai import FORMAT as MJAI

    paths = sorted(path for path in (corpus / "mjai_jsonl").rglob("*") if path.is_file())
    datas = (path.read_bytes() for path in paths)
    return [data for data in datas if MJAI.sniff(data)]


def timed(run: Callable[[list[bytes]], object], datas: list[bytes]) -> float:
    """Seconds of this process's CPU time for ``run(datas)``."""
    gc.collect()  # each side starts from a clean heap, not the other side's garbage
    start = time.process_time()
    run(datas)
    return time.process_time() - start


def read_all(read: Callable[[bytes], list[Game]]) -> Callable[[list[bytes]], list[Game]]:
    def run(datas: list[bytes]) -> list[Game]:
        return [game for data in datas for game in read(data)]

    return run


def replay_seconds(games: list[Game]) -> tuple[float, int]:
    """CPU seconds to replay ``games``, and how many did not verify."""
    from engine.replay import Verdict, replay

    agreeing = (Verdict.VERIFIED, Verdict.VERIFIED_FRAGMENT)
    gc.collect()
    start = time.process_time()
    reports = [replay(game) for game in games]
    seconds = time.process_time() - start
    return seconds, sum(report.verdict not in agreeing for report in reports)


def cold_pass(name: str, folder: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", COLD_CHILD, name, str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        sys.exit(f"the cold {name} pass exited {done.returncode}:\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def ms(seconds: float, count: int) -> str:
    return f"{1000 * seconds / count:6.2f} ms a game"


def share(read: float, replay: float) -> str:
    return f"{read / (read + replay):5.1%}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5, help="warm passes of each reader")
    parser.add_argument("--cold", type=int, default=3, help="fresh processes of each reader")
    parser.add_argument("--simulate", type=int, default=0, help="self-played games, unseen")
    args = parser.parse_args(argv)
    settle_for_batch_work(skip_exit_collection=False)

    import engine
    from engine.formats import mjai, mjlog

    print(f"engine: {'compiled' if engine.is_compiled() else 'pure Python'} ({engine.__file__})")
    mjlogs = mjlog_files(args.corpus)
    if not mjlogs:
        print(f"no mjlog files under {args.corpus}", file=sys.stderr)
        return 2
    sources = [game for data in mjlogs for game in mjlog.read(data)]
    mjais = [mjai.write([game]) for game in sources]
    count = len(mjais)
    size = sum(map(len, mjais)) / count / 1024
    print(f"{count} games from the mjlog files under {args.corpus}, as mjai {size:.0f} KiB each")

    read_mjai, read_mjlog = read_all(mjai.read), read_all(mjlog.read)
    games = read_mjai(mjais)
    if replay_seconds(games)[1]:
        print("games read from mjai do not verify", file=sys.stderr)
        return 1

    best_mjai = best_mjlog = best_replay = float("inf")
    for number in range(1, args.repeat + 1):
        mjai_seconds = timed(read_mjai, mjais)
        mjlog_seconds = timed(read_mjlog, mjlogs)
        best_mjai, best_mjlog = min(best_mjai, mjai_seconds), min(best_mjlog, mjlog_seconds)
        best_replay = min(best_replay, replay_seconds(games)[0])
        print(
            f"warm pass {number}: mjai {ms(mjai_seconds, count)}, "
            f"mjlog {ms(mjlog_seconds, count)}, ratio {mjai_seconds / mjlog_seconds:5.2f}"
        )
    print(
        f"warm, best passes:  mjai {ms(best_mjai, count)}, mjlog {ms(best_mjlog, count)}, "
        f"ratio mjai/mjlog {best_mjai / best_mjlog:5.2f}"
    )
    print(
        f"warm, mjai verify:  read {ms(best_mjai, count)}, replay {ms(best_replay, count)}, "
        f"reading {share(best_mjai, best_replay)} of it"
    )

    if args.cold:
        cold(mjais, mjlogs, args.cold, count)

    own = mjai_files(args.corpus)
    if own:
        own_games = read_mjai(own)
        own_best = min(timed(read_mjai, own) for _ in range(args.repeat))
        own_replay = min(replay_seconds(own_games)[0] for _ in range(args.repeat))
        print(
            f"corpus mjai files:  {len(own)} files, {len(own_games)} games: read "
            f"{ms(own_best, len(own_games))}, replay {ms(own_replay, len(own_games))}, "
            f"reading {share(own_best, own_replay)}"
        )

    if args.simulate:
        from engine.sim.selfplay import simulate

        played = list(simulate("tenhou-4p", args.simulate, SIMULATE_SEED))
        texts = [mjai.write([game]) for game in played]
        unseen = timed(read_mjai, texts)
        again = timed(read_mjai, texts)
        sim_replay, failures = replay_seconds(read_mjai(texts))
        print(
            f"self-played, unseen: {len(texts)} games: read {ms(unseen, len(texts))} "
            f"(again {ms(again, len(texts))}), replay {ms(sim_replay, len(texts))}, "
            f"reading {share(unseen, sim_replay)}"
        )
        if failures:
            print(f"{failures} self-played games read from mjai do not verify", file=sys.stderr)
            return 1
    return 0


def cold(mjais: list[bytes], mjlogs: list[bytes], repeat: int, count: int) -> None:
    """Fresh processes, alternated: each imports the engine's format and reads every game once."""
    with tempfile.TemporaryDirectory(prefix="read-mjai-vs-mjlog-") as temporary:
        folder = Path(temporary)
        for number, (text, data) in enumerate(zip(mjais, mjlogs, strict=True)):
            (folder / f"{number:04d}.mjai").write_bytes(text)
            (folder / f"{number:04d}.mjlog").write_bytes(data)
        runs: dict[str, list[dict[str, float]]] = {"mjai": [], "mjlog": []}
        for number in range(1, repeat + 1):
            for name in runs:
                runs[name].append(cold_pass(name, folder))
            mjai_run, mjlog_run = runs["mjai"][-1], runs["mjlog"][-1]
            print(
                f"cold pass {number}: mjai {ms(mjai_run['read'], count)}, "
                f"mjlog {ms(mjlog_run['read'], count)}, "
                f"ratio {mjai_run['read'] / mjlog_run['read']:5.2f}"
            )
    best = {name: min(run["read"] for run in found) for name, found in runs.items()}
    imports = {name: min(run["import"] for run in found) for name, found in runs.items()}
    replay = min(run["replay"] for run in runs["mjai"])
    print(
        f"cold, best passes:  mjai {ms(best['mjai'], count)}, mjlog {ms(best['mjlog'], count)}, "
        f"ratio mjai/mjlog {best['mjai'] / best['mjlog']:5.2f} (imports: mjai "
        f"{1000 * imports['mjai']:.0f} ms, mjlog {1000 * imports['mjlog']:.0f} ms)"
    )
    print(
        f"cold, mjai verify:  read {ms(best['mjai'], count)}, first replay {ms(replay, count)}, "
        f"reading {share(best['mjai'], replay)} of it"
    )


if __name__ == "__main__":
    sys.exit(main())
