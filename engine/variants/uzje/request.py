"""Score one Ùzje hand given as text: what ``python -m engine score --ruleset uzje-4p`` runs.

The request names the concealed tiles (winning tile included) and the declared melds in UJMJ
notation, the winning tile, and the win's conditions; the answer is a plain dict (patterns with
their fan or limits, total fan, limits, points, payments) or an ``error`` and a ``message``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError, NotAgariError
from engine.variants.uzje.rules import get_rules
from engine.variants.uzje.scoring import WinConditions, best_value, half, normal
from engine.variants.uzje.shapes import Meld, classify
from engine.variants.uzje.tiles import KINDS, format_kinds, parse_kinds

_WINDS = "ESWN"


def _melds(texts: Sequence[str]) -> tuple[Meld, ...]:
    """Declared melds written ``open:369s`` (claimed) or ``closed:ffff`` (a closed quad)."""
    melds = []
    for text in texts:
        state, _, tiles = text.partition(":")
        if state not in ("open", "closed") or not tiles:
            raise EngineError(f"a meld is open:TILES or closed:TILES, got {text!r}")
        meld = classify(sorted(parse_kinds(tiles)), open=state == "open")
        if meld is None:
            raise EngineError(f"{tiles!r} is not a trip, quad, arith, gem or power")
        melds.append(meld)
    return tuple(melds)


def score_text(
    ruleset: str,
    hand: str,
    win: str,
    *,
    melds: Sequence[str] = (),
    self_draw: bool = False,
    seat_wind: str = "E",
    round_wind: str = "E",
    bonus: str = "",
) -> dict[str, Any]:
    """The value of one Ùzje win, as a JSON-ready dict (see the module docstring)."""
    try:
        rules = get_rules(ruleset)
        concealed = parse_kinds(hand)
        wins = parse_kinds(win)
        if len(wins) != 1 or wins[0] not in concealed:
            raise EngineError(f"the winning tile {win!r} must be one of the hand's tiles")
        win_kind = wins[0]
        counts = [0] * KINDS
        for kind in concealed:
            counts[kind] += 1
        conditions = WinConditions(
            seat_wind=_WINDS.index(seat_wind),
            round_wind=_WINDS.index(round_wind),
            self_draw=self_draw,
            bonus=tuple(parse_kinds(bonus)),
        )
        value = best_value(counts, _melds(melds), win_kind, conditions, rules)
        if value is None or not value.wins:
            raise NotAgariError(
                f"{format_kinds(concealed)} is no winning hand worth "
                f"{rules.min_fan:g} fan under {rules.name}"
            )
    except EngineError as error:
        return {"error": type(error).__name__, "message": str(error)}
    others = rules.players - 1
    each = half(value.points, rules.self_draw_rounding) if self_draw else value.points
    return {
        "patterns": [{"name": name, "value": amount} for name, amount in value.patterns],
        "fan": value.fan / 10,
        "limits": value.limits,
        "points": value.points,
        "paid": {"each": each, "payers": others if self_draw else 1},
        "total": normal(each * others) if self_draw else value.points,
    }


def describe(result: dict[str, Any]) -> str:
    """The result as a few lines for people."""
    lines = [f"{result['fan']:g} fan, {result['limits']} limit(s), {result['points']} points"]
    lines += [f"  {p['name']:<24} {p['value']:>4}" for p in result["patterns"]]
    paid = result["paid"]
    lines.append(f"paid: {paid['each']} by each of {paid['payers']}; total {result['total']}")
    return "\n".join(lines)
