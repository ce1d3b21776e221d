"""Checked access to decoded JSON values, with errors that name the place."""

from __future__ import annotations

import math
from typing import Any

from engine.errors import MalformedLogError
from engine.formats.tenhou6.calls import TILE_OF_CODE
from engine.tiles import Tile

# -- JSON values ----------------------------------------------------------------------------------


def kind_name(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value[:20]!r}"
    if isinstance(value, dict):
        return "an object"
    return "an array" if isinstance(value, list) else "null"


def as_int(value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():  # 25000.0; not NaN or infinity
        return int(value)
    raise MalformedLogError(f"expected an integer, got {kind_name(value)}", where)


def as_number(value: Any, where: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an integer of 400 digits
            raise MalformedLogError(f"{kind_name(value)} is out of range", where) from None
        if math.isfinite(number):  # 1e999 reads as infinity, which no document can hold
            return number
        raise MalformedLogError(f"{kind_name(value)} is out of range", where)
    raise MalformedLogError(f"expected a number, got {kind_name(value)}", where)


def as_str(value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    raise MalformedLogError(f"expected a string, got {kind_name(value)}", where)


def as_array(value: Any, where: str) -> list[Any]:
    if isinstance(value, list):
        return value
    raise MalformedLogError(f"expected an array, got {kind_name(value)}", where)


def as_ints(value: Any, where: str) -> list[int]:
    return [as_int(item, f"{where}[{i}]") for i, item in enumerate(as_array(value, where))]


def as_tiles(value: Any, where: str) -> tuple[Tile, ...]:
    items = as_array(value, where)
    try:
        return tuple([TILE_OF_CODE[code] for code in items])
    except (KeyError, TypeError):  # find the culprit only now: errors are rare
        for i, code in enumerate(items):
            if code.__class__ not in (int, float) or code not in TILE_OF_CODE:
                raise MalformedLogError(
                    f"{kind_name(code)} is not a tile code", f"{where}[{i}]"
                ) from None
        raise


def per_seat(value: Any, players: int, where: str) -> tuple[int, ...]:
    """One value per seat: a sanma array has a 4th entry, 0, for the empty North seat."""
    values = as_ints(value, where)
    if players == 3 and len(values) == 4 and values[3] == 0:
        values.pop()
    if len(values) != players:
        raise MalformedLogError(f"{len(values)} values for {players} seats", where)
    return tuple(values)


def as_seat(value: Any, players: int, where: str) -> int:
    seat = as_int(value, where)
    if not 0 <= seat < players:
        raise MalformedLogError(f"{seat} is not a seat of this {players}-player game", where)
    return seat
