"""Small display helpers of the site's pages: points, placements, verdict badges, the game
table's cache key."""

from __future__ import annotations

import hashlib
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from mjlogs.models import Player
from mjlogs.provenance import platform_label

register = template.Library()

_WINDS = ("East", "South", "West", "North")
_ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
MINUS = "\N{MINUS SIGN}"


@register.filter
def points(value: Any) -> str:
    """``25000`` as ``25,000``; a dash for a missing value."""
    if value is None or value == "":
        return "—"
    return f"{int(value):,}"


@register.filter
def signed(value: Any) -> str:
    """A score change with its sign: ``+8,000``, ``\N{MINUS SIGN}8,000`` (a real minus sign, as
    wide as the plus), ``0``."""
    if value is None or value == "":
        return "—"
    number = int(value)
    if number > 0:
        return f"+{number:,}"
    if number < 0:
        return f"{MINUS}{-number:,}"
    return "0"


@register.filter
def ordinal(value: Any) -> str:
    """A placement: ``1st``, ``2nd``, ``3rd``, ``4th``; a dash when unknown."""
    if value is None or value == "":
        return "—"
    number = int(value)
    suffix = "th" if 10 <= number % 100 <= 20 else _ORDINAL_SUFFIXES.get(number % 10, "th")
    return f"{number}{suffix}"


@register.filter
def seat_wind(seat: int) -> str:
    """The seat's wind in the first hand (seat 0 deals first: East)."""
    return _WINDS[seat] if 0 <= seat < len(_WINDS) else f"Seat {seat + 1}"


@register.filter
def words(name: str) -> str:
    """An engine name in words: ``round_wind_east`` as ``round wind east``."""
    return str(name).replace("_", " ")


@register.simple_tag
def badge(verdict: str, label: str) -> SafeString:
    return format_html('<span class="badge badge-{}">{}</span>', verdict, label)


@register.filter
def rows_digest(rows: list[dict[str, Any]]) -> str:
    """A digest of plain rows (``mjlogs.views.common.paginate_games``), everything the game
    table shows of them: the key of the table's HTML in the cache (``{% cache %}`` in
    ``mjlogs/_games_table.html``). Rendering 50 rows cost more than reading them; a page
    whose rows have not changed is rendered once. Keyed by content, the cached HTML cannot be
    stale: a new verdict, a game gone, another page all make other rows, so another key."""
    return hashlib.blake2b(repr(rows).encode(), digest_size=16).hexdigest()


@register.filter
def platform(name: str) -> str:
    """A platform's name for a page (``majsoul``: Mahjong Soul)."""
    return platform_label(name)


@register.inclusion_tag("mjlogs/_player_marks.html")
def player_marks(player: Player) -> dict[str, Any]:
    """The marks beside a player's name: where the name comes from, and whether the player is
    a bot or an anonymous seat (``mjlogs.provenance``)."""
    shown = platform_label(player.platform) if player.platform else ""
    return {"player": player, "platform": shown}
