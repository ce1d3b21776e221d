"""The JSON form of a scoring request and its result (``python -m engine score``, the API).

The schema is documented in ``docs/scoring.md``. :func:`score_request` never raises on bad input:
it returns ``{"error": code, "message": words}`` instead, so a batch keeps going.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from engine.errors import EngineError, InvalidConditionsError
from engine.hand.melds import Meld
from engine.hand.shapes import HandShapes, shapes_for
from engine.rules import Ruleset, get_ruleset
from engine.scoring.score import HandScore, WinConditions, WinningHand, score_hand
from engine.tiles import Tile, parse_tile, parse_tiles, wind_kind

FLAGS: Final = (
    "tsumo",
    "riichi",
    "double_riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "tenhou",
    "chiihou",
    "renhou",
)
_COUNTERS: Final = ("honba", "sticks", "kita")
#: Generous bounds: no real table gets near them, and they keep every total a small number.
_COUNTER_LIMITS: Final = {"honba": 1000, "sticks": 1000, "kita": 4}
_FIELDS: Final = frozenset(
    {
        "ruleset",
        "hand",
        "win",
        "melds",
        "dora",
        "ura",
        "seat_wind",
        "round_wind",
        "discarder",
        "pao",
        "id",
        "modifiers",
        *FLAGS,
        *_COUNTERS,
    }
)


def parse_request(data: Mapping[str, Any]) -> tuple[WinningHand, Ruleset]:
    """Build the hand and rule set of a request; raises :class:`EngineError` on bad input."""
    if not isinstance(data, Mapping):
        raise InvalidConditionsError("a request is a JSON object")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise InvalidConditionsError(f"unknown field(s): {', '.join(unknown)}")
    for required in ("ruleset", "hand", "win"):
        if required not in data:
            raise InvalidConditionsError(f"missing field {required!r}")
    ruleset = get_ruleset(_string(data, "ruleset"))
    modifiers = data.get("modifiers", [])
    if not isinstance(modifiers, list) or not all(isinstance(name, str) for name in modifiers):
        raise InvalidConditionsError(
            f"modifiers must be a list of rule modifier names, got {modifiers!r}"
        )
    if modifiers:
        # Refuses an unknown name (listing the known ones) and one the rule set cannot apply.
        ruleset = ruleset.replace(modifiers=tuple(modifiers))
    flags: dict[str, Any] = {}
    for name in FLAGS:
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise InvalidConditionsError(f"{name} must be true or false, got {value!r}")
        flags[name] = value
    counters: dict[str, Any] = {}
    for name in _COUNTERS:
        value = data.get(name, 0)
        limit = _COUNTER_LIMITS[name]
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= limit:
            shown = value if not isinstance(value, int) or abs(value) < 10**12 else "a huge number"
            raise InvalidConditionsError(f"{name} must be a whole number 0-{limit}, got {shown!r}")
        counters[name] = value
    melds_data = data.get("melds", [])
    if not isinstance(melds_data, list):
        raise InvalidConditionsError("melds must be a list of {type, tiles} objects")
    melds = []
    for item in melds_data:
        if not isinstance(item, Mapping) or set(item) - {"type", "tiles", "from"}:
            raise InvalidConditionsError(f"a meld is an object with type and tiles, got {item!r}")
        melds.append(_meld(_string(item, "type"), _string(item, "tiles"), shapes_for(ruleset)))
    conditions = WinConditions(
        seat_wind=wind_kind(_string(data, "seat_wind", "E")),
        round_wind=wind_kind(_string(data, "round_wind", "E")),
        **flags,
        **counters,
    )
    hand = WinningHand(
        tiles=_tiles(_string(data, "hand")),
        win_tile=_tile(_string(data, "win")),
        melds=tuple(melds),
        dora_indicators=_tiles(_string(data, "dora", "")),
        ura_indicators=_tiles(_string(data, "ura", "")),
        conditions=conditions,
        discarder=_optional_wind(data, "discarder"),
        liable=_optional_wind(data, "pao"),
    )
    return hand, ruleset


# A batch of requests spells the same tiles, indicators and melds again and again, and reading
# the notation cost more than scoring (issue 21); tiles and melds are immutable, so the ones read
# are kept. Errors are not kept (a bad spelling raises each time), nor texts longer than any hand
# is spelled (a hostile request must not fill the memo with megabytes).
_MEMO_TEXT = 64


def _tiles(text: str) -> tuple[Tile, ...]:
    return _tiles_memo(text) if len(text) <= _MEMO_TEXT else tuple(parse_tiles(text))


@lru_cache(maxsize=4096)
def _tiles_memo(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


def _tile(text: str) -> Tile:
    return _tile_memo(text) if len(text) <= _MEMO_TEXT else parse_tile(text)


@lru_cache(maxsize=256)
def _tile_memo(text: str) -> Tile:
    return parse_tile(text)


def _meld(meld_type: str, tiles: str, shapes: HandShapes) -> Meld:
    if len(meld_type) + len(tiles) > _MEMO_TEXT:
        return Meld.parse(meld_type, tiles, shapes)
    return _meld_memo(meld_type, tiles, shapes)


@lru_cache(maxsize=1024)
def _meld_memo(meld_type: str, tiles: str, shapes: HandShapes) -> Meld:
    return Meld.parse(meld_type, tiles, shapes)


def _string(data: Mapping[str, Any], name: str, default: str | None = None) -> str:
    value = data.get(name, default)
    if not isinstance(value, str):
        raise InvalidConditionsError(f"{name} must be a string, got {value!r}")
    return value


def _optional_wind(data: Mapping[str, Any], name: str) -> int | None:
    if data.get(name) is None:
        return None
    return wind_kind(_string(data, name))


def result_to_dict(score: HandScore) -> dict[str, Any]:
    """The JSON form of a result."""
    return {
        "han": score.han,
        "fu": score.fu,
        "fu_items": [{"name": item.name, "fu": item.fu} for item in score.fu_items],
        "yaku": [{"name": yaku.name, "han": yaku.han} for yaku in score.yaku],
        "limit": score.limit,
        "yakuman": score.yakuman,
        "wait": score.wait.value,
        "payments": [{"payer": p.payer, "amount": p.amount} for p in score.payments],
        "sticks": score.sticks_won,
        "total": score.total,
    }


def score_request(data: Any) -> dict[str, Any]:
    """Score one JSON request; bad input gives ``{"error": code, "message": words}``."""
    try:
        hand, ruleset = parse_request(data)
        result = result_to_dict(score_hand(hand, ruleset))
    except EngineError as error:
        result = {"error": error.code, "message": str(error)}
    if isinstance(data, Mapping) and "id" in data:
        result = {"id": data["id"], **result}
    return result
