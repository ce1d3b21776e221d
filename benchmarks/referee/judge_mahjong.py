"""The ``mahjong`` package (PyPI, 2.1.0): scores every win and compares han, fu, yaku and points.

Each win's situation (hand, melds, indicators, how it was won) comes from
:mod:`benchmarks.referee.situation`, which reads the canonical record with a tracker of its own,
and is turned into a scoring request; ``tests/engine/scoring/mahjong_adapter.py`` (the adapter of
our differential tests) builds mahjong's ``HandConfig`` with the rule set's ``OptionalRules``
(red fives, open tanyao, double yakuman on Mahjong Soul only, kazoe yakuman, no kiriage, 3-player)
and calls ``HandCalculator.estimate_hand_value``. Points are compared before honba and sticks
(the request has none) and fu only below yakuman (a yakuman's value does not depend on fu, and
the two scorers give different fu there).
"""

from __future__ import annotations

from typing import Any

from benchmarks.referee.findings import Verdicts, round_label
from benchmarks.referee.situation import WinSituation, win_situations
from engine.events import Game
from engine.rules.presets import get_ruleset
from engine.tiles import Tile
from tests.engine.scoring.mahjong_adapter import normalise, score_with_mahjong

PEER = "mahjong"


def _mpsz(tiles: list[Tile]) -> str:
    return "".join(str(tile) for tile in tiles)


def request_of(situation: WinSituation, ruleset: str) -> dict[str, Any]:
    """The scoring request (docs/scoring.md) of one win, honba and sticks left out."""
    request: dict[str, Any] = {
        "ruleset": ruleset,
        "hand": _mpsz(situation.hand),
        "win": str(situation.tile),
        "melds": [{"type": m.kind, "tiles": _mpsz(m.tiles)} for m in situation.melds],
        "dora": _mpsz(situation.dora),
        "ura": _mpsz(situation.ura),
        "seat_wind": situation.seat_wind,
        "round_wind": situation.round_wind,
    }
    request.update({flag: True for flag, on in situation.flags.items() if on})
    if situation.kita:
        request["kita"] = situation.kita
    return request


def judge(game: Game, verdicts: Verdicts) -> None:
    ruleset = game.header.ruleset
    rules = get_ruleset(ruleset)
    for index, round_ in enumerate(game.rounds):
        label = round_label(index, round_.name)
        events = round_.events
        for situation in win_situations(round_, game.players, rules.live_wall):
            recorded = events[situation.index].recorded  # type: ignore[union-attr]
            if recorded is None:
                continue
            verdicts.checks[PEER] += 1
            result = score_with_mahjong(request_of(situation, ruleset))
            if "error" in result:
                verdicts.add(
                    PEER,
                    f"cannot score: {result['error']}",
                    label,
                    situation.index,
                    recorded.han,
                    result.get("message", result["error"]),
                )
                continue
            theirs = normalise(result)
            ours_yaku: dict[str, int] = {}
            for name, han in recorded.yaku or ():
                key = "dora" if name == "kita" else name
                ours_yaku[key] = ours_yaku.get(key, 0) + han
            if sorted(ours_yaku.items()) != theirs["yaku"]:
                verdicts.add(
                    PEER,
                    "win yaku",
                    label,
                    situation.index,
                    sorted(ours_yaku.items()),
                    theirs["yaku"],
                )
            if recorded.han != theirs["han"]:
                verdicts.add(PEER, "win han", label, situation.index, recorded.han, theirs["han"])
            if not theirs["yakuman"] and recorded.fu != theirs["fu"]:
                verdicts.add(PEER, "win fu", label, situation.index, recorded.fu, theirs["fu"])
            points = sum(amount for _, amount in theirs["payments"])
            if recorded.points != points:
                verdicts.add(PEER, "win points", label, situation.index, recorded.points, points)
