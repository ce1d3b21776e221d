"""The game commands of ``python -m engine``: ``verify``, ``convert`` and ``simulate``.

``verify`` reads game records in any supported format (files, or folders searched recursively),
replays every game and prints one verdict per game; it exits with 0 only if every game verifies.
Which files are game records is told by their content, whatever their names: a file that is no
record in any known format (a README, a manifest, an image) is listed as skipped, with the
reason, and counts neither as a game nor as a failure. Files are spread over worker processes
(``--jobs``), one file to a task, and reported in the order they were found, so the output is
the same whatever the number of workers. ``convert`` writes one file's games in another format.
``simulate`` writes self-played games as canonical JSON, one game per line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Generator, Iterable, Iterator
from concurrent import futures  # (its process pool is imported when first used)
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

# The replayer and the canonical writer are imported by the commands that use
# them, not here: `python -m engine score` builds this parser too, and would otherwise spend
# most of a one-hand request's time importing the state machine (issue 21).
from engine.errors import EngineError, UnsupportedLogError
from engine.events import Game
from engine.families import family_of, is_preset_name, preset_names
from engine.formats import (
    FORMATS,
    MAX_DECOMPRESSED_BYTES,
    NOT_A_RECORD,
    formats,
    get_format,
    read_games,
    sniff_file,
)
from engine.jobs import all_cores, job_count
from engine.report import Verdict
from engine.rules.modifiers import MODIFIERS
from engine.rules.options import read_option
from engine.rules.ruleset import Ruleset

#: The verdict line of a file that is no game record (it is not replayed: not a verdict of
#: the replayer, and no failure).
SKIPPED = "skipped"
#: The verdicts of games the rules agree with: whole, or as far as the record goes.
AGREES = (Verdict.VERIFIED.value, Verdict.VERIFIED_FRAGMENT.value)

#: With at least this many files, ``verify`` shows its progress on standard error.
PROGRESS_FROM = 20
#: The exit status after Ctrl-C: the shell's 128 + SIGINT.
INTERRUPTED = 130


class LazyChoices(Collection[str]):
    """An option's ``choices`` for argparse, listed when first asked for: when the option is
    given (argparse checks ``value in choices``) or its choices are shown (an error, ``--help``).
    Listing the rule sets imports every game family, and the writable formats every format
    module; a command that does not use the option should not pay for that at each start
    (``engine verify`` of Tenhou logs would import Ùzje's rules)."""

    def __init__(
        self, names: Callable[[], Iterable[str]], is_one: Callable[[str], bool] | None = None
    ) -> None:
        # is_one answers "is this a choice?" without the whole list, where that is cheaper.
        self._names = names
        self._is_one = is_one
        self._listed: tuple[str, ...] | None = None

    def _all(self) -> tuple[str, ...]:
        if self._listed is None:
            self._listed = tuple(self._names())
        return self._listed

    def __contains__(self, value: object) -> bool:
        if self._is_one is not None and self._listed is None:
            return isinstance(value, str) and self._is_one(value)
        return value in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def _writable_formats() -> list[str]:
    return sorted(name for name, fmt in formats().items() if fmt.write)


def add_commands(commands: Any) -> None:
    """Register the game commands on the command-line parser's subparsers."""
    verify = commands.add_parser(
        "verify",
        help="replay game records and check every action and score",
        description=(
            "Replay every game in the given files and folders (searched recursively, hidden "
            "files and folders left out), in any supported format told by the content, and "
            "report one verdict per game: verified, score_mismatch, illegal_action, unsupported "
            "or malformed. Files that are no game record are listed as skipped. Exit status 0 "
            "only if every game verifies (and there is one)."
        ),
    )
    verify.add_argument("paths", nargs="+", metavar="PATH")
    verify.add_argument(
        "--json", action="store_true", help="one JSON object per game (or skipped file) per line"
    )
    verify.add_argument(
        "--format",
        choices=sorted(FORMATS),
        help="read every file as this format (none is skipped)",
    )
    verify.add_argument(
        "--jobs",
        type=job_count,
        default=all_cores(),
        metavar="N",
        help=(
            "verify N files at a time in worker processes (default: every core, %(default)s "
            "here); 1 verifies in this process. The output is the same whatever N"
        ),
    )

    convert = commands.add_parser(
        "convert",
        help="convert a game record to another format",
        description="Read one file (format sniffed) and write its games in another format.",
    )
    convert.add_argument("path", metavar="PATH")
    convert.add_argument(
        "--to",
        required=True,
        choices=LazyChoices(_writable_formats),
        metavar="FORMAT",
        help="the format to write: %(choices)s",
    )
    convert.add_argument("-o", "--output", help="output file (default: standard output)")

    simulate = commands.add_parser(
        "simulate",
        help="play games between bots and write them as canonical JSON",
        description="Self-play: write N games, one canonical JSON game per line.",
    )
    simulate.add_argument(
        "--ruleset",
        default="tenhou-4p",
        choices=LazyChoices(preset_names, is_preset_name),
        metavar="NAME",
        help="the rule set (default %(default)s): %(choices)s",
    )
    simulate.add_argument("--games", type=int, default=1)
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument(
        "--modifiers",
        type=modifier_names,
        default=(),
        metavar="NAME,...",
        help="rule modifiers (superpowers) in force for every seat, comma-separated: "
        + ", ".join(sorted(MODIFIERS)),
    )
    simulate.add_argument(
        "--seat-powers",
        type=seat_power_names,
        default=(),
        metavar="NAME,...",
        help="the power (a rule modifier) each seat chose, in seat order, comma-separated; "
        "none or an empty item for a seat without one (swap,none,peek,none)",
    )
    simulate.add_argument("-o", "--output", help="output file (default: standard output)")


def record_files(paths: list[str]) -> Iterator[Path]:
    """The files named, and every file inside the folders named (sorted), whatever its name:
    which of them are game records is told from their content (:func:`_verify_file`). Hidden
    files and folders inside a folder (``.git``, ``.DS_Store``) are left out; special files
    (pipes, devices) too, as reading one could block."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                hidden = any(part.startswith(".") for part in found.relative_to(path).parts)
                if found.is_file() and not hidden:
                    yield found
        else:
            yield path


@dataclass
class _Tally:
    """What the lines printed so far add up to."""

    counts: Counter[str] = field(default_factory=Counter)
    skipped: int = 0
    warned: int = 0


def run_verify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    files = list(record_files(args.paths))
    # Progress goes to a terminal only: a log file gets the summary line alone.
    show_progress = len(files) >= PROGRESS_FROM and err.isatty()
    tally = _Tally()
    done = 0  # files reported to the end
    reported = 0  # lines reported of the file after those: some, if Ctrl-C cut it short
    interrupted = False
    # Wall-clock time, worker start-up included: the games/s shown is what the user waited for.
    started = time.perf_counter()
    try:
        with contextlib.closing(_verified_files(files, args.format, args.jobs)) as results:
            for lines in results:
                for line in lines:
                    reported += 1
                    _print_line(line, tally, args.json, show_progress, out, err)
                done, reported = done + 1, 0
                if show_progress:
                    err.write(f"\r{done}/{len(files)} files, {sum(tally.counts.values())} games")
                    err.flush()
    except KeyboardInterrupt:
        # The workers are stopped by now (closing the generator): report what was verified.
        interrupted = True
    elapsed = time.perf_counter() - started
    if show_progress:
        err.write("\n")
    if interrupted:
        err.write(f"interrupted: {done} of {len(files)} file(s) verified to the end\n")
    err.write(_summary(tally, done + bool(reported), elapsed) + "\n")
    if interrupted:
        return INTERRUPTED
    total = sum(tally.counts.values())
    return 0 if total and sum(tally.counts[verdict] for verdict in AGREES) == total else 1


def _verified_files(
    files: list[Path], format_name: str | None, jobs: int
) -> Generator[Iterable[dict[str, Any]], None, None]:
    """The lines of each file, in the order of ``files`` whichever worker finishes first.

    One worker (or one file) verifies in this process, line by line as it goes. More share the
    files out one at a time (a file of many games stays one task: splitting it would mean
    reading it in this process and sending its games over, which costs more than replaying
    them), the next file starting as soon as a worker is free."""
    workers = min(jobs, len(files))
    if workers <= 1:
        for path in files:
            yield _verify_file(path, format_name)
        return

    # Closing this generator (Ctrl-C in the caller) cancels the files not yet handed out, and
    # leaving the pool waits for the few being verified.
    with futures.ProcessPoolExecutor(workers, initializer=_ignore_interrupts) as pool:
        yield from pool.map(partial(_file_lines, format_name=format_name), files)


def _ignore_interrupts() -> None:
    """Ctrl-C reaches the workers too (the terminal signals the whole process group); the main
    process alone acts on it. A worker interrupted would print a traceback, and one that died
    would break the pool (every pending file failing with BrokenProcessPool), so each finishes
    the file it has and is shut down."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _file_lines(path: Path, format_name: str | None) -> list[dict[str, Any]]:
    """A worker's task: a file's lines, all at once (a generator cannot be sent back)."""
    return list(_verify_file(path, format_name))


def _print_line(
    line: dict[str, Any],
    tally: _Tally,
    as_json: bool,
    show_progress: bool,
    out: TextIO,
    err: TextIO,
) -> None:
    if line["verdict"] == SKIPPED:
        tally.skipped += 1
        # Listed on standard error: they are not verdicts (the progress line, if any, is
        # overwritten and comes back with the next file).
        err.write(("\r" if show_progress else "") + _skipped_text(line) + "\n")
        if as_json:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
        return
    tally.counts[line["verdict"]] += 1
    tally.warned += bool(line["warnings"])
    if as_json:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    elif line["verdict"] not in AGREES or line["warnings"] or not show_progress:
        out.write(_verdict_text(line) + "\n")


def _summary(tally: _Tally, files_done: int, elapsed: float) -> str:
    counts = tally.counts
    total = sum(counts.values())
    summary = ", ".join(f"{counts[v.value]} {v.value}" for v in Verdict if counts[v.value])
    if tally.warned:
        summary += f"; {tally.warned} with reader warnings"
    rate = f" ({total / elapsed:.0f} games/s)" if elapsed > 0 and total else ""
    others = f"; {tally.skipped} other file(s) skipped: not game records" if tally.skipped else ""
    return (
        f"{total} game(s) in {files_done - tally.skipped} file(s): {summary or 'nothing read'}"
        f"{rate}{others}"
    )


def _verify_file(path: Path, format_name: str | None) -> Iterator[dict[str, Any]]:
    """One line per game of the file, or one for the whole file when it cannot be read or is
    no game record (``skipped``). The format is told from the file's first bytes alone (gzip
    inflated as far as needed), so that a large file that is no record is never read whole;
    a record larger than the engine reads (:data:`MAX_DECOMPRESSED_BYTES`) is refused unread.
    With ``format_name``, every file is read as that format."""
    base: dict[str, Any] = {"path": str(path)}
    try:
        if format_name is None:
            fmt = sniff_file(path)
            if fmt is None:
                yield {**base, "verdict": SKIPPED, "reason": NOT_A_RECORD}
                return
            format_name = fmt.name
        size = path.stat().st_size
        if size > MAX_DECOMPRESSED_BYTES:
            raise OSError(
                f"{size:,} bytes, more than the {MAX_DECOMPRESSED_BYTES:,} a game record may "
                "have; not read"
            )
        games, fmt = read_games(path.read_bytes(), format_name, file_name=str(path))
    except (OSError, EngineError) as error:
        verdict = (
            Verdict.UNSUPPORTED if isinstance(error, UnsupportedLogError) else Verdict.MALFORMED
        )
        yield {**base, "game": None, "format": None, **_failure(verdict, str(error))}
        return
    from engine.replay import replay  # (imported once, on the first file)

    for index, game in enumerate(games):
        report = replay(game)
        yield {
            **base,
            "game": index,
            "format": fmt.name,
            "source_id": game.header.source.id,
            "ruleset": report.ruleset,
            "verdict": report.verdict.value,
            "complete": report.complete,
            "fragment": report.fragment,
            "rounds": len(report.rounds),
            "discrepancy": None if report.discrepancy is None else report.discrepancy.to_json(),
            "final_scores": report.final_scores,
            "points": report.points,
            "warnings": report.warnings,
            "era": report.era,
        }


def _failure(verdict: Verdict, message: str) -> dict[str, Any]:
    return {
        "verdict": verdict.value,
        "complete": False,
        "rounds": 0,
        "discrepancy": {"verdict": verdict.value, "message": message},
        "warnings": [],
    }


def _verdict_text(line: dict[str, Any]) -> str:
    where = line["path"] if line["game"] in (None, 0) else f"{line['path']} [game {line['game']}]"
    text = f"{where}: {line['verdict']}"
    if line.get("discrepancy"):
        text += f": {line['discrepancy']['message']}"
    elif line.get("fragment"):
        text += f": only part of a game was checked: {line['fragment']}"
    if line.get("era"):
        text += f" (by the rules of an older era: {line['era']})"
    return "".join([text, *(f"\n  warning: {warning}" for warning in line["warnings"])])


def _skipped_text(line: dict[str, Any]) -> str:
    return f"{line['path']}: {SKIPPED}: {line['reason']}"


def run_convert(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    target = get_format(args.to)
    assert target.write is not None
    try:
        games, _ = read_games(Path(args.path).read_bytes())
        data = target.write(games)
    except OSError as error:
        err.write(f"error: {error}\n")
        return 1
    except EngineError as error:
        err.write(f"error ({error.code}): {error}\n")
        return 1
    if args.output:
        Path(args.output).write_bytes(data)
    else:
        out.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    return 0


def modifier_names(text: str) -> tuple[str, ...]:
    """The value of ``--modifiers``: names separated by commas (spaces ignored), read as the
    rule option ``modifiers`` is (:mod:`engine.rules.options`). Whether each is known, and
    applies to the rule set, the game family says (its error lists the known ones)."""
    names: tuple[str, ...] = read_option(
        Ruleset, "modifiers", text, what="option --modifiers", rules="the command line"
    )
    return tuple(name for name in names if name)


def seat_power_names(text: str) -> tuple[str | None, ...]:
    """The value of ``--seat-powers``: a name or ``none`` (or nothing) per seat, separated by
    commas, read as the rule option ``seat_powers`` is (:mod:`engine.rules.options`). Whether
    each is known, one per seat, and applies to the rule set, the game family says."""
    powers: tuple[str | None, ...] = read_option(
        Ruleset, "seat_powers", text, what="option --seat-powers", rules="the command line"
    )
    return powers


def _simulated(
    ruleset: str,
    games: int,
    seed: int,
    modifiers: tuple[str, ...] = (),
    seat_powers: tuple[str | None, ...] = (),
) -> Iterable[Game]:
    """Self-played games of a preset, from the family that plays it.

    :raises UnknownRulesetError: a modifier the family cannot apply under the rule set, or seat
        powers that are not one per seat.
    """
    family = family_of(ruleset)
    if not any(seat_powers):
        family.check_modifiers(ruleset, modifiers)
        return family.simulate(ruleset, games, seed, modifiers)
    family.check_modifiers(ruleset, modifiers, seat_powers=seat_powers)
    return family.simulate(ruleset, games, seed, modifiers, seat_powers=seat_powers)


def run_simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.games < 0:
        err.write("error: --games must be 0 or more\n")
        return 2
    try:
        games = _simulated(args.ruleset, args.games, args.seed, args.modifiers, args.seat_powers)
    except EngineError as error:
        err.write(f"error: {error}\n")
        return 2
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        target = (
            stack.enter_context(Path(args.output).open("w", encoding="utf-8"))
            if args.output
            else out
        )
        from engine.formats.canonical import game_to_json

        for number, game in enumerate(games, start=1):
            target.write(json.dumps(game_to_json(game), ensure_ascii=False) + "\n")
            if args.games >= PROGRESS_FROM and number % 10 == 0 and err.isatty():
                err.write(f"\r{number}/{args.games} games")
                err.flush()
    elapsed = time.perf_counter() - started
    if args.games >= PROGRESS_FROM:
        err.write(f"\r{args.games} games in {elapsed:.1f} s\n")
    return 0
