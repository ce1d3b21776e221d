"""The engine's command line: ``python -m engine <command>``.

Commands: ``score`` (one hand from arguments, or JSON lines on standard input), and the game
commands of :mod:`engine.cli_games`: ``verify``, ``convert`` and ``simulate``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, BinaryIO, TextIO

from engine.cli_games import (
    LazyChoices,
    add_commands,
    modifier_names,
    run_convert,
    run_simulate,
    run_verify,
)
from engine.families import family_of, is_preset_name, preset_names
from engine.scoring.request import FLAGS, score_request


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")

    score = commands.add_parser(
        "score",
        help="score a winning hand",
        description=(
            "Score one hand given by options, or, without --hand, one JSON request per line "
            "of standard input, writing one JSON result per line in the same order. "
            "The JSON schema is in docs/scoring.md."
        ),
    )
    score.add_argument(
        "--ruleset",
        default="tenhou-4p",
        choices=LazyChoices(preset_names, is_preset_name),
        metavar="NAME",
    )
    score.add_argument(
        "--hand", help="concealed tiles, winning tile included (MPSZ; UJMJ for an Ùzje rule set)"
    )
    score.add_argument("--win", help="the winning tile (MPSZ)")
    score.add_argument(
        "--meld",
        action="append",
        default=[],
        metavar="TYPE:TILES",
        help="a called meld, e.g. pon:555z or ankan:1111m (repeatable)",
    )
    score.add_argument("--dora", default="", help="dora indicators (MPSZ)")
    score.add_argument("--ura", default="", help="ura dora indicators (MPSZ)")
    for flag in FLAGS:
        score.add_argument(f"--{flag.replace('_', '-')}", action="store_true", dest=flag)
    score.add_argument("--seat-wind", default="E", choices="ESWN")
    score.add_argument("--round-wind", default="E", choices="ESWN")
    score.add_argument("--discarder", choices="ESWN", help="the discarder's seat (ron)")
    score.add_argument("--pao", choices="ESWN", help="the liable player's seat")
    for counter in ("honba", "sticks", "kita"):
        score.add_argument(f"--{counter}", type=int, default=0)
    score.add_argument(
        "--modifiers",
        type=modifier_names,
        default=(),
        metavar="NAME,...",
        help="rule modifiers (superpowers) in force for the hand given by --hand, "
        "comma-separated; a bad name is refused with the list of known ones",
    )
    score.add_argument("--json", action="store_true", help="print the result as JSON")
    add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None, stdin: BinaryIO | None = None) -> int:
    """Run a command; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.command == "score":
        if args.hand is None:
            if args.modifiers:
                # Not ignored: each JSON request names its own (its "modifiers" field).
                print(
                    "error: --modifiers applies to a hand given by --hand; a JSON request on "
                    'standard input names its own in its "modifiers" field',
                    file=sys.stderr,
                )
                return 2
            return _score_lines(stdin or sys.stdin.buffer, sys.stdout)
        return _score_one(args)
    if args.command == "verify":
        return run_verify(args, sys.stdout, sys.stderr)
    if args.command == "convert":
        return run_convert(args, sys.stdout, sys.stderr)
    if args.command == "simulate":
        return run_simulate(args, sys.stdout, sys.stderr)
    raise AssertionError(f"unhandled command {args.command}")  # argparse rejects others


#: Nineteen digits in a row: maybe an integer beyond 64 bits.
_LONG_NUMBER = re.compile(rb"\d{19}")


def _orjson() -> ModuleType | None:
    """orjson, when it is installed (the service depends on it; the engine needs only the
    standard library): it reads and writes JSON lines several times faster than ``json``."""
    try:
        return importlib.import_module("orjson")
    except ImportError:
        return None


def _score_lines(lines: BinaryIO, out: TextIO) -> int:
    """One JSON result per input line, in order; a bad line gets an error object, and the
    batch goes on. A line orjson cannot read or may misread goes to ``json``, which reads what
    it reads (NaN, integers beyond 64 bits) and words what is wrong."""
    fast = _orjson()
    for number, raw in enumerate(lines, start=1):
        result: dict[str, Any]
        # orjson reads an integer beyond 64 bits as a float: json reads such lines.
        if fast is not None and _LONG_NUMBER.search(raw) is None:
            try:
                request = fast.loads(raw)
            except fast.JSONDecodeError:
                pass  # read again below, by json
            else:
                out.write(fast.dumps(score_request(request)).decode() + "\n")
                continue
        try:
            request = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:  # (a ValueError: caught before it)
            result = _bad_line(number, "is not UTF-8 text")
        except json.JSONDecodeError as error:  # (a ValueError too)
            result = _bad_line(number, f"is not JSON: {error.msg}")
        except (ValueError, RecursionError):
            result = _bad_line(number, "has a number too long or brackets nested too deep")
        else:
            result = score_request(request)
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return 0


def _bad_line(number: int, problem: str) -> dict[str, Any]:
    return {"error": "bad_json", "message": f"line {number} {problem}"}


def _score_one(args: argparse.Namespace) -> int:
    """One hand from the options, scored by the family of its rule set."""
    family = family_of(args.ruleset)
    try:
        family.check_modifiers(args.ruleset, args.modifiers)
        result = family.score_text(vars(args))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    elif "error" in result:
        print(f"error ({result['error']}): {result['message']}", file=sys.stderr)
    else:
        print(family.describe_score(args.ruleset, result))
    return 1 if "error" in result else 0
