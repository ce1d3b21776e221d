"""Bounds of the integers a request may carry: query parameters and parts of URLs.

PostgreSQL's ``bigint`` and SQLite's integer hold -2^63 to 2^63 - 1. A larger number in a query
fails it (``bigint out of range`` on PostgreSQL, ``OverflowError`` on SQLite): a 500. And Python
refuses to convert a string of more than 4,300 digits, in words about its own settings
("Exceeds the limit (4300 digits) for integer string conversion"). So every integer a request
gives is read against these bounds first, and refused in the request's own terms: a 400 naming
the parameter, a form error, or a URL no route takes (404).

Forms and serializers use :data:`DB_INT_MIN` and :data:`DB_INT_MAX` as their ``min_value`` and
``max_value`` (``mjlogs.filters.IntegerFilter`` does by default), code that reads a parameter
itself uses :func:`parse_int`, and URLs take ids with ``<id:name>`` (:class:`IdConverter`,
registered when this module is imported: every URL module that uses it imports it).
"""

from __future__ import annotations

from typing import Final

from django.urls import register_converter

#: The integers the database holds (PostgreSQL bigint, SQLite integer).
DB_INT_MIN: Final = -(2**63)
DB_INT_MAX: Final = 2**63 - 1
#: Characters of the longest integer :func:`parse_int` converts (a sign and 19 digits): any
#: longer text is out of range, and is refused before Python converts it.
_MAX_INT_TEXT: Final = len(str(DB_INT_MIN))


def parse_int(text: str | None, low: int = DB_INT_MIN, high: int = DB_INT_MAX) -> int | None:
    """``text`` as a whole number in ``low..high``, else ``None`` (empty, not a number, out of
    range). Surrounding spaces are allowed; digits are ASCII only."""
    text = (text or "").strip()
    digits = text[1:] if text[:1] in ("-", "+") else text
    if not (digits.isascii() and digits.isdigit()) or len(text) > _MAX_INT_TEXT:
        return None
    number = int(text)
    return number if low <= number <= high else None


class IdConverter:
    """``<id:name>`` in a URL: an id, digits up to :data:`DB_INT_MAX`. A larger number takes no
    route (a 404), as ``<int:name>`` would for letters, before any query sees it."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = parse_int(value, 0, DB_INT_MAX)
        if number is None:
            # What a converter raises when the URL is not one of its values.
            raise ValueError(f"not an id: {value[:30]}")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
