"""Small display helpers of the site's pages: points, placements, verdict badges, the game
table's cache key, the filters set."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from django import template
from django.forms import BoundField
from django.utils.html import format_html
from django.utils.safestring import SafeString

from mjlogs import terms
from mjlogs.engine_words import say
from mjlogs.models import Player

register = template.Library()

MINUS = "\N{MINUS SIGN}"


def _number(value: Any) -> int | float:
    """A figure as a number: whole points as an ``int``, a half point (Ùzje's exact self-draw
    payments, ``2.5``) as it is."""
    if isinstance(value, float) and not value.is_integer():
        return value
    return int(value)


@register.filter
def points(value: Any) -> str:
    """``25000`` as ``25,000``, ``7.5`` as it is; a dash for a missing value."""
    if value is None or value == "":
        return "—"
    return f"{_number(value):,}"


@register.filter
def signed(value: Any) -> str:
    """A score change with its sign: ``+8,000``, ``\N{MINUS SIGN}8,000`` (a real minus sign, as
    wide as the plus), ``+2.5``, ``0``."""
    if value is None or value == "":
        return "—"
    number = _number(value)
    if number > 0:
        return f"+{number:,}"
    if number < 0:
        return f"{MINUS}{-number:,}"
    return "0"


@register.filter
def ordinal(value: Any) -> str:
    """A placement: ``1st``, ``2nd``, ``3rd``, ``4th`` (``1位`` in Japanese); a dash when
    unknown."""
    if value is None or value == "":
        return "—"
    return terms.ordinal(int(value))


@register.filter
def seat_wind(seat: int) -> str:
    """The seat's wind in the first hand (seat 0 deals first: East)."""
    return terms.seat_wind(seat)


@register.filter
def words(name: str) -> str:
    """An engine name in words: ``round_wind_east`` as ``round wind east``."""
    return terms.words(name)


@register.filter
def yaku_name(name: str) -> str:
    """A yaku in the page's language: ``round wind east``, ``場風 東`` (``mjlogs.terms``)."""
    return terms.yaku_name(name)


@register.filter
def limit_name(limit: str) -> str:
    """A limit in the page's language: ``double yakuman``, ``ダブル役満``."""
    return terms.limit_name(limit)


@register.filter
def hand_name(name: str) -> str:
    """A hand's name in the page's language: ``E1``, ``東1局``."""
    return terms.hand_name(name)


@register.filter
def honba(count: int) -> str:
    """A hand's counters after its name: ``-1``, ``1本場``."""
    return terms.honba(count)


@register.filter
def claims_words(labels: list[str]) -> str:
    """What a copy of a game claims otherwise, in the page's language: ``the final scores``."""
    return terms.claims_words(list(labels))


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
def engine_words(message: str) -> SafeString:
    """A message of the engine or the import (an upload's failure, a fetch's error) in the
    page's language; shown in English and marked when it has no translation
    (:mod:`mjlogs.engine_words`)."""
    return say(str(message)).html


@register.filter
def platform(name: str) -> str:
    """A platform's name for a page (``majsoul``: Mahjong Soul)."""
    return terms.platform_name(name)


@register.inclusion_tag("mjlogs/_player_marks.html")
def player_marks(player: Player) -> dict[str, Any]:
    """The marks beside a player's name: where the name comes from, and whether the player is
    a bot or an anonymous seat (``mjlogs.provenance``)."""
    shown = terms.platform_name(player.platform) if player.platform else ""
    return {"player": player, "platform": shown}


@register.simple_tag
def filters_chosen(fields: Iterable[BoundField], *skip: str) -> int:
    """How many fields of a bound filter form the query sets (a value that is not empty),
    leaving out the fields named in ``skip``: a page folds its filters while none is set
    (``_filters_summary.html``)."""
    return sum(
        1 for field in fields if field.name not in skip and field.data not in (None, "", [], False)
    )
