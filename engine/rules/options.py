"""Rule options read into their declared types: the one reader every way of setting them uses.

An option's value arrives as a Python value (code), a JSON value (a record's ``rule_overrides``:
lists for tuples and sets, strings for enumerations, ``null``) or a word (a command-line option).
:meth:`engine.rules.ruleset.Ruleset.replace` and
:meth:`engine.variants.uzje.rules.UzjeRules.replace` read every change through
:func:`read_options`, and every other path (a record's overrides, the command line's options,
the upload page's and the API's choices, which become a record's overrides) goes through them.
A value is read into the type the option's field declares, or refused with an
:class:`~engine.errors.UnknownRulesetError` naming the option, the value and what the option
takes; it is never stored as it came. (A string left in an enumeration's place was misread:
``kazoe="yakuman"`` is not ``KazoeLimit.YAKUMAN`` to an ``is`` test, so it scored as
sanbaiman.)

What each declared type takes:

* an enumeration: a member, or a string naming one by value or by member name, in any case
  (``"yakuman"``, ``"YAKUMAN"``);
* ``bool``: ``True``/``False``, or ``"true"``/``"false"`` in any case (not ``1``, ``"yes"``:
  a record that says so is wrong, not a way of writing a switch);
* ``int``: an integer (not a bool), or a string of digits with an optional sign;
* ``float``: an integer or a finite float, or a string of one;
* ``str``: a string, one of the field's ``choices`` when it declares them;
* ``X | None``: ``None``, or ``"none"``/``"null"`` (``""`` too where ``X`` is ``str``), or an
  ``X``;
* ``tuple[X, ...]``, ``tuple[X, Y, Z]``, ``frozenset[X]``: a list, tuple or set of ``X`` (the
  fixed tuple: that many items), or a string of items separated by commas (an empty string is
  no items).

A field may list the values its strings (or its items' strings) may take as
``field(metadata={"choices": (...)})``.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Any, Final

from engine.errors import UnknownRulesetError

#: The longest value a refusal quotes in full.
_SHOWN: Final = 80
_INTEGER: Final = re.compile(r"[+-]?\d{1,30}")


class _Refused(Exception):
    """A value (or an item of it) the type cannot take."""


@cache
def _fields(cls: type) -> dict[str, tuple[Any, tuple[str, ...]]]:
    """Each option of a dataclass of options: its declared type and its ``choices``."""
    hints = typing.get_type_hints(cls)
    return {
        spec.name: (hints[spec.name], tuple(spec.metadata.get("choices", ())))
        for spec in dataclasses.fields(cls)
    }


def read_options(
    cls: type, changes: Mapping[str, object], *, what: str, rules: str
) -> dict[str, Any]:
    """Each change read into the type of its option in ``cls`` (a dataclass of options).

    ``what`` names the options in a refusal (``"rule option"``), ``rules`` the rule set being
    changed.

    :raises UnknownRulesetError: an option ``cls`` does not have (with the nearest names), or a
        value its option cannot take, naming the option, the value and what it takes.
    """
    fields = _fields(cls)
    unknown = [option for option in changes if option not in fields]
    if unknown:
        near = sorted(
            {match for option in unknown for match in difflib.get_close_matches(option, fields)}
        )
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        raise UnknownRulesetError(f"unknown {what} {', '.join(map(repr, unknown))}{hint}")
    return {
        option: read_option(cls, option, value, what=what, rules=rules)
        for option, value in changes.items()
    }


def read_option(cls: type, option: str, value: object, *, what: str, rules: str) -> Any:
    """One option's value read into its declared type (see :func:`read_options`).

    :raises UnknownRulesetError: see :func:`read_options`.
    """
    hint, choices = _fields(cls)[option]
    try:
        return _read(value, hint, choices)
    except _Refused:
        shown = repr(value)
        if len(shown) > _SHOWN:
            shown = shown[: _SHOWN - 3] + "..."
        raise UnknownRulesetError(
            f"{what} {option!r} cannot be {shown} (in {rules}): it takes {_takes(hint, choices)}"
        ) from None


def _read(value: object, hint: Any, choices: tuple[str, ...]) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        inner = _optional(args)
        if value is None:
            return None
        if isinstance(value, str) and (
            value.strip().lower() in ("none", "null") or (inner is str and not value.strip())
        ):
            return None
        return _read(value, inner, choices)
    if origin is tuple:
        items = _items(value)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(item, args[0], choices) for item in items)
        if len(items) != len(args):
            raise _Refused
        return tuple(_read(item, arg, choices) for item, arg in zip(items, args, strict=True))
    if origin is frozenset:
        return frozenset(_read(item, args[0], choices) for item in _items(value))
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _enum(value, hint)
    reader = _SCALARS.get(hint)
    if reader is None:
        raise TypeError(f"no reader for options of type {hint!r}")
    result = reader(value)
    if choices and result not in choices:
        raise _Refused
    return result


def _optional(args: tuple[Any, ...]) -> Any:
    others = [arg for arg in args if arg is not type(None)]
    if len(others) != 1 or len(args) != 2:
        raise TypeError(f"options may be X | None, not a union of {args!r}")
    return others[0]


def _items(value: object) -> list[object]:
    if isinstance(value, str):
        return [item.strip() for item in value.split(",")] if value.strip() else []
    if isinstance(value, list | tuple | set | frozenset):
        # A set's items in a stable order, so that a refusal does not depend on hashing.
        return sorted(value, key=repr) if isinstance(value, set | frozenset) else list(value)
    raise _Refused


def _enum(value: object, enum: type[Enum]) -> Enum:
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        for member in enum:
            if word in (str(member.value).lower(), member.name.lower()):
                return member
    raise _Refused


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise _Refused


def _int(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        return int(value)
    raise _Refused


def _float(value: object) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            raise _Refused from None
    else:
        raise _Refused
    if not math.isfinite(number):
        raise _Refused
    return number


def _str(value: object) -> str:
    if isinstance(value, str):
        return value
    raise _Refused


_SCALARS: Final[dict[Any, Callable[[object], Any]]] = {
    bool: _bool,
    int: _int,
    float: _float,
    str: _str,
}


def _takes(hint: Any, choices: tuple[str, ...]) -> str:
    """What an option of this type takes, in words."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return f"{_takes(_optional(args), choices)}, or none"
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return f"a list (or words separated by commas), each {_takes(args[0], choices)}"
    if origin is tuple:
        return f"{len(args)} items (a list, or words separated by commas), each " + _takes(
            args[0], choices
        )
    if origin is frozenset:
        return f"a set (a list, or words separated by commas), each {_takes(args[0], choices)}"
    if isinstance(hint, type) and issubclass(hint, Enum):
        return "one of " + ", ".join(str(member.value) for member in hint)
    if choices:
        return "one of " + ", ".join(choices)
    return {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}.get(
        hint, repr(hint)
    )
