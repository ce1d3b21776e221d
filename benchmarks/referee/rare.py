"""The rare situations a game went through, counted from its canonical record.

Each count is read off the events (and, for the kind of a win, the yaku the record gives, which
every peer then judged): how the game got there does not matter, so greedy games and scenario
games count alike.
"""

from __future__ import annotations

from collections import Counter

from engine.events import (
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Game,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    Win,
)
from engine.rules.presets import get_ruleset

#: Every situation counted, in the order of the report, with what it means.
SITUATIONS: dict[str, str] = {
    "chankan": "a ron on an added kan",
    "kokushi robs a closed kan": "thirteen orphans ron on a closed kan (Mahjong Soul)",
    "rinshan kaihou": "a tsumo on a replacement tile",
    "four kans abort (suukaikan)": "four kans by several players end the hand",
    "suukantsu": "four kans by one player, won",
    "triple ron abort (sanchahou)": "three rons on one discard end the hand (Tenhou)",
    "triple ron paid": "three rons on one discard, all paid (Mahjong Soul)",
    "double ron": "two rons on one discard",
    "nagashi mangan": "nagashi mangan at the end of the wall",
    "pao daisangen": "daisangen with a liable feeder",
    "pao daisuushii": "daisuushii with a liable feeder",
    "pao suukantsu": "suukantsu paid by a liable feeder (only a rule set whose pao includes it)",
    "kita": "a North extracted (sanma)",
    "ron on kita": "a ron on an extracted North",
    "first-turn ron (renhou-style)": "a ron before the winner's first draw, no call before it",
    "haitei": "a tsumo on the last tile",
    "houtei": "a ron on the last discard",
    "kan replacement is the last tile": "a kan's replacement draw empties the wall",
    "  won on it": "and the replacement tile wins",
    "nine terminals (kyuushu kyuuhai)": "an abort on nine terminals and honours",
    "four winds (suufon renda)": "an abort on four identical winds",
    "four riichi (suucha riichi)": "an abort on four riichi",
    "tenhou": "the dealer wins on the first draw",
    "chiihou": "a non-dealer wins on the first draw",
    "double riichi": "a riichi on the first discard, won",
    "double yakuman or more": "a win counted as two yakuman or more",
}

_ABORTS = {
    AbortKind.FOUR_KANS: "four kans abort (suukaikan)",
    AbortKind.TRIPLE_RON: "triple ron abort (sanchahou)",
    AbortKind.NINE_TERMINALS: "nine terminals (kyuushu kyuuhai)",
    AbortKind.FOUR_WINDS: "four winds (suufon renda)",
    AbortKind.FOUR_RIICHI: "four riichi (suucha riichi)",
}
_PAO = {"daisangen": "pao daisangen", "daisuushii": "pao daisuushii", "suukantsu": "pao suukantsu"}


def count(game: Game) -> Counter[str]:
    """How often each situation of :data:`SITUATIONS` happened in the game."""
    seen: Counter[str] = Counter()
    ruleset = get_ruleset(game.header.ruleset)
    live_wall = ruleset.live_wall
    pao = ruleset.pao
    for round_ in game.rounds:
        events = round_.events
        draws = 0
        drawn_by: set[int] = set()
        called = False
        last_action: object = None  # the last event that is not a draw or a dora
        replacement_last = False
        for event in events:
            if isinstance(event, Draw):
                draws += 1
                replacement = isinstance(last_action, ClosedKan | OpenKan | AddedKan)
                if replacement and draws >= live_wall:
                    seen["kan replacement is the last tile"] += 1
                    replacement_last = True
                drawn_by.add(event.seat)
                continue
            if isinstance(event, DoraRevealed):
                continue
            if isinstance(event, NorthExtraction):
                seen["kita"] += 1
            elif isinstance(event, Chi | Pon | OpenKan | ClosedKan | AddedKan):
                called = True
            elif isinstance(event, AbortiveDraw):
                seen[_ABORTS[event.kind]] += 1
            elif isinstance(event, NagashiMangan):
                seen["nagashi mangan"] += 1
            elif isinstance(event, Win):
                _win(event, last_action, drawn_by, called, replacement_last, pao, seen)
            if not isinstance(event, Win):
                last_action = event
        rons = [e for e in events if isinstance(e, Win) and not e.tsumo]
        if len(rons) == 2:
            seen["double ron"] += 1
        elif len(rons) == 3:
            seen["triple ron paid"] += 1
    return seen


def _win(
    event: Win,
    last_action: object,
    drawn_by: set[int],
    called: bool,
    replacement_last: bool,
    pao: frozenset[str],
    seen: Counter[str],
) -> None:
    yaku = dict(event.recorded.yaku or ()) if event.recorded else {}
    if not event.tsumo:
        if isinstance(last_action, AddedKan):
            seen["chankan"] += 1
        elif isinstance(last_action, ClosedKan):
            seen["kokushi robs a closed kan"] += 1
        elif isinstance(last_action, NorthExtraction):
            seen["ron on kita"] += 1
        elif isinstance(last_action, Discard) and event.seat not in drawn_by and not called:
            seen["first-turn ron (renhou-style)"] += 1
    elif replacement_last:
        seen["  won on it"] += 1
    for name, situation in (
        ("rinshan", "rinshan kaihou"),
        ("haitei", "haitei"),
        ("houtei", "houtei"),
        ("tenhou", "tenhou"),
        ("chiihou", "chiihou"),
        ("double_riichi", "double riichi"),
        ("suukantsu", "suukantsu"),
    ):
        if name in yaku:
            seen[situation] += 1
    if event.recorded is not None and event.recorded.han is not None and event.recorded.han >= 26:
        seen["double yakuman or more"] += 1
    liable = event.recorded.liable if event.recorded else None
    if liable is not None:
        # Only the yakuman the rule set makes liable: a composite with four kans whose
        # liability is for its dragons is a pao daisangen, not a four-kans pao.
        for name, situation in _PAO.items():
            if name in yaku and name in pao:
                seen[situation] += 1
