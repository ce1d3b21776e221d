"""The engine's command line: ``python -m engine <command>``.

Commands: ``score`` (one hand from arguments, or JSON lines on standard input), and the game
commands of :mod:`engine.cli_games`: ``verify``, ``convert`` and ``simulate``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, BinaryIO, TextIO

from engine.cli_games import add_commands, run_convert, run_simulate, run_verify
from engine.rules import PRESETS
from engine.rules.presets import get_ruleset
from engine.rules.ruleset import Scoring
from engine.scoring.request import FLAGS, score_request
from engine.variants.uzje import request as uzje_request
from engine.variants.uzje.rules import PRESETS as UZJE_PRESETS
from engine.variants.uzje.rules import is_uzje_preset


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
        choices=sorted(PRESETS) + sorted(UZJE_PRESETS),
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
    score.add_argument("--json", action="store_true", help="print the result as JSON")
    add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None, stdin: BinaryIO | None = None) -> int:
    """Run a command; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.command == "score":
        if args.hand is None:
            return _score_lines(stdin or sys.stdin.buffer, sys.stdout)
        return _score_one(args)
    if args.command == "verify":
        return run_verify(args, sys.stdout, sys.stderr)
    if args.command == "convert":
        return run_convert(args, sys.stdout, sys.stderr)
    if args.command == "simulate":
        return run_simulate(args, sys.stdout, sys.stderr)
    raise AssertionError(f"unhandled command {args.command}")  # argparse rejects others


def _score_lines(lines: BinaryIO, out: TextIO) -> int:
    """One JSON result per input line, in order; a bad line gets an error object, and the
    batch goes on."""
    for number, raw in enumerate(lines, start=1):
        result: dict[str, Any]
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
    if is_uzje_preset(args.ruleset):
        return _score_uzje(args)
    request: dict[str, Any] = {
        "ruleset": args.ruleset,
        "hand": args.hand,
        "win": args.win,
        "melds": [],
        "dora": args.dora,
        "ura": args.ura,
        "seat_wind": args.seat_wind,
        "round_wind": args.round_wind,
        "honba": args.honba,
        "sticks": args.sticks,
        "kita": args.kita,
    }
    if args.win is None:
        request["win"] = _last_tile(args.hand)
    for meld in args.meld:
        meld_type, _, tiles = meld.partition(":")
        request["melds"].append({"type": meld_type, "tiles": tiles})
    for flag in FLAGS:
        if getattr(args, flag):
            request[flag] = True
    if args.discarder:
        request["discarder"] = args.discarder
    if args.pao:
        request["pao"] = args.pao
    result = score_request(request)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    elif "error" in result:
        print(f"error ({result['error']}): {result['message']}", file=sys.stderr)
    else:
        small = get_ruleset(args.ruleset).scoring is Scoring.SMALL
        print(_describe_small(result) if small else _describe(result))
    return 1 if "error" in result else 0


def _score_uzje(args: argparse.Namespace) -> int:
    """An Ùzje hand: UJMJ tiles, melds as ``open:TILES`` or ``closed:TILES``, --dora as the
    bonus tiles shown, --tsumo for a self-draw."""
    if args.win is None:
        print("error: an Ùzje hand needs --win (the winning tile, UJMJ)", file=sys.stderr)
        return 2
    result = uzje_request.score_text(
        args.ruleset,
        args.hand,
        args.win,
        melds=args.meld,
        self_draw=args.tsumo,
        seat_wind=args.seat_wind,
        round_wind=args.round_wind,
        bonus=args.dora,
    )
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    elif "error" in result:
        print(f"error ({result['error']}): {result['message']}", file=sys.stderr)
    else:
        print(uzje_request.describe(result))
    return 1 if "error" in result else 0


def _last_tile(hand: str) -> str:
    """The last tile written in an MPSZ string (the usual place of the winning tile)."""
    suit = hand.rstrip()[-1:]
    digits = hand.rstrip()[:-1]
    return f"{digits[-1:]}{suit}"


def _payment_lines(result: dict[str, Any]) -> list[str]:
    lines = ["paid: " + ", ".join(f"{p['payer']} {p['amount']}" for p in result["payments"])]
    if result["sticks"]:
        lines.append(f"riichi sticks: {result['sticks']}")
    lines.append(f"total: {result['total']}")
    return lines


def _points(count: int) -> str:
    return f"{count} point" if count == 1 else f"{count} points"


def _describe_small(result: dict[str, Any]) -> str:
    """Small mahjong has no han, fu or limits: the conditions' points add up (the result's
    ``han`` member carries that sum, so the JSON stays one shape)."""
    lines = [_points(result["han"])]
    lines += [f"  {item['name']:<18} {_points(item['han']):>9}" for item in result["yaku"]]
    return "\n".join(lines + _payment_lines(result))


def _describe(result: dict[str, Any]) -> str:
    lines = [
        f"{result['han']} han {result['fu']} fu"
        + (f" ({result['limit'].replace('_', ' ')})" if result["limit"] else "")
    ]
    lines += [f"  {yaku['name']:<18} {yaku['han']:>2} han" for yaku in result["yaku"]]
    lines.append("fu: " + ", ".join(f"{item['name']} {item['fu']}" for item in result["fu_items"]))
    return "\n".join(lines + _payment_lines(result))
