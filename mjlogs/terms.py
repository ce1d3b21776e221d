"""The game's own words in the page's language: yaku, limits, winds, hand names, placements.

English is the source language; Japanese pages use the standard mahjong terms. Yaku names come
from the engine's yaku table (``engine.rules.yaku.YAKU``: each has an English and a Japanese
name), everything else from the translation catalogue (``locale/ja/LC_MESSAGES/django.po``,
docs/development.md "Translations"). A name the tables do not know (an Ùzje pattern, a new
limit) is shown as the engine writes it, in words.
"""

from __future__ import annotations

from typing import Final

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, gettext_noop, pgettext, pgettext_lazy

from engine.rules.yaku import YAKU
from mjlogs.provenance import platform_label, rating_name

#: Seat winds by seat (seat 0 deals first: East).
WINDS: Final[tuple[Promise, ...]] = (
    pgettext_lazy("seat wind", "East"),
    pgettext_lazy("seat wind", "South"),
    pgettext_lazy("seat wind", "West"),
    pgettext_lazy("seat wind", "North"),
)

#: The limits a win may reach (``engine.scoring.limits``), in words.
LIMITS: Final[dict[str, Promise]] = {
    "mangan": pgettext_lazy("limit", "mangan"),
    "haneman": pgettext_lazy("limit", "haneman"),
    "baiman": pgettext_lazy("limit", "baiman"),
    "sanbaiman": pgettext_lazy("limit", "sanbaiman"),
    "yakuman": pgettext_lazy("limit", "yakuman"),
    "kazoe_yakuman": pgettext_lazy("limit", "kazoe yakuman"),
    "double_yakuman": pgettext_lazy("limit", "double yakuman"),
    "triple_yakuman": pgettext_lazy("limit", "triple yakuman"),
    "quadruple_yakuman": pgettext_lazy("limit", "quadruple yakuman"),
    "quintuple_yakuman": pgettext_lazy("limit", "quintuple yakuman"),
    "sextuple_yakuman": pgettext_lazy("limit", "sextuple yakuman"),
}


#: The words of ``mjlogs.provenance`` (platforms, ratings), marked for the catalogue here: they
#: are translated where a page shows them (:func:`platform_name`, :func:`rating_word`).
_PROVENANCE_WORDS: Final = (
    gettext_noop("Tenhou"),
    gettext_noop("Mahjong Soul"),
    gettext_noop("self-play (bots)"),
    gettext_noop("canonical record"),
    gettext_noop("rank points"),
    gettext_noop("rating"),
)

#: What a record of a game may claim otherwise than another copy of it, by the labels the API
#: gives them (``mjlogs.identity.CLAIM_LABELS``), in the words a page shows (:func:`claims_words`).
CLAIMS: Final[dict[str, Promise]] = {
    "names": pgettext_lazy("what a record claims", "the players' names"),
    "ranks": pgettext_lazy("what a record claims", "the players' ranks"),
    "ratings": pgettext_lazy("what a record claims", "the players' ratings"),
    "rule set": pgettext_lazy("what a record claims", "the rule set"),
    "log id": pgettext_lazy("what a record claims", "the log id"),
    "room": pgettext_lazy("what a record claims", "the room"),
    "date": pgettext_lazy("what a record claims", "the date"),
    "final scores": pgettext_lazy("what a record claims", "the final scores"),
    "final results": pgettext_lazy("what a record claims", "the final points"),
    "hands' starting scores": pgettext_lazy("what a record claims", "the hands' starting scores"),
    "ura indicators": pgettext_lazy("what a record claims", "the ura dora indicators"),
    "wins": pgettext_lazy("what a record claims", "the wins' figures"),
    "draws": pgettext_lazy("what a record claims", "the draws' payments"),
}


def japanese() -> bool:
    """Whether the page is being written in Japanese."""
    return (get_language() or "").split("-")[0] == "ja"


def words(name: str) -> str:
    """An engine name in words: ``round_wind_east`` as ``round wind east``."""
    return str(name).replace("_", " ")


def yaku_name(name: str) -> str:
    """A yaku by its engine name: the Japanese name on a Japanese page (``立直``), else the
    name in words (``riichi``, ``round wind east``)."""
    info = YAKU.get(str(name))
    if info is not None and japanese():
        return info.japanese
    return words(name)


def yaku_names() -> dict[str, str]:
    """Every yaku's name on a page in the current language, for the replay viewer: the
    Japanese names on a Japanese page, else none (the viewer writes the engine's names)."""
    return {name: info.japanese for name, info in YAKU.items()} if japanese() else {}


def limit_name(limit: str) -> str:
    """A limit (``mangan``, ``double_yakuman``) in words."""
    known = LIMITS.get(str(limit))
    return str(known) if known is not None else words(limit)


def platform_name(platform: str) -> str:
    """A platform's name for a page (``majsoul``: Mahjong Soul, 雀魂)."""
    return gettext(platform_label(platform))


def rating_word(platform: str) -> str:
    """What a record of this platform calls the rating it gives a player (R, rank points)."""
    return gettext(rating_name(platform))


def seat_wind(seat: int) -> str:
    """The seat's wind in the first hand (seat 0 deals first: East)."""
    if 0 <= seat < len(WINDS):
        return str(WINDS[seat])
    return gettext("Seat %(number)s") % {"number": seat + 1}


def hand_name(name: str) -> str:
    """A hand by its engine name (``E1``, ``S3``): ``E1`` in English, ``東1局`` in Japanese."""
    text = str(name)
    number = text[1:]
    if len(text) < 2 or not number.isdigit():
        return text
    letter = text[0]
    if letter == "E":
        return pgettext("hand name", "E%(number)s") % {"number": number}
    if letter == "S":
        return pgettext("hand name", "S%(number)s") % {"number": number}
    if letter == "W":
        return pgettext("hand name", "W%(number)s") % {"number": number}
    if letter == "N":
        return pgettext("hand name", "N%(number)s") % {"number": number}
    return text


def honba(count: int) -> str:
    """A hand's counters after its name: ``-1`` (``E1-1``), ``1本場`` in Japanese."""
    return pgettext("honba after a hand name", "-%(count)s") % {"count": count}


def ordinal(number: int) -> str:
    """A placement: ``1st`` ... ``4th`` (``1位`` in Japanese)."""
    if number == 1:
        return pgettext("placement", "1st")
    if number == 2:
        return pgettext("placement", "2nd")
    if number == 3:
        return pgettext("placement", "3rd")
    if number == 4:
        return pgettext("placement", "4th")
    if number == 5:
        return pgettext("placement", "5th")
    if number == 6:
        return pgettext("placement", "6th")
    # No game has more than six players (Ùzje): a placement past them is only ever a bad value.
    suffixes = {1: "st", 2: "nd", 3: "rd"}
    suffix = "th" if 10 <= number % 100 <= 20 else suffixes.get(number % 10, "th")
    return f"{number}{suffix}"


#: Tiles in words, MPSZ notation (``5m``, ``0p`` the red five, ``1z`` East): as the replay
#: viewer names them (``notation/mpsz.js``), "5 man", "red 5 pin", "East wind" in English and
#: 五萬, 赤五筒, 東 in Japanese.
_SUIT_WORDS: Final = {"m": "man", "p": "pin", "s": "sou"}
_JAPANESE_SUITS: Final = {"m": "萬", "p": "筒", "s": "索"}
_KANJI_RANKS: Final = "五一二三四五六七八九"
_HONOUR_WORDS: Final = (
    "East wind", "South wind", "West wind", "North wind",
    "White dragon", "Green dragon", "Red dragon",
)  # fmt: skip
_JAPANESE_HONOURS: Final = "東南西北白發中"


def tile_words(code: str) -> str:
    """A riichi tile in MPSZ notation in words, in the page's language; anything else (an Ùzje
    tile) as it is."""
    text = str(code)
    if len(text) != 2 or not text[0].isdigit():
        return text
    rank, suit = int(text[0]), text[1]
    if suit == "z" and 1 <= rank <= len(_HONOUR_WORDS):
        return _JAPANESE_HONOURS[rank - 1] if japanese() else _HONOUR_WORDS[rank - 1]
    if suit not in _SUIT_WORDS:
        return text
    if japanese():
        return ("赤" if rank == 0 else "") + _KANJI_RANKS[rank] + _JAPANESE_SUITS[suit]
    return f"red 5 {_SUIT_WORDS[suit]}" if rank == 0 else f"{rank} {_SUIT_WORDS[suit]}"


def tiles_words(codes: str) -> str:
    """Tiles written apart (``4m 6m``) in words: "4 man, 6 man" (四萬・六萬)."""
    return ("・" if japanese() else ", ").join(tile_words(code) for code in codes.split())


def names_words(names: list[str]) -> str:
    """Several players or things in a list: "Ann, Ben" (Ann、Ben)."""
    return ("、" if japanese() else ", ").join(names)


def claims_words(labels: list[str]) -> str:
    """What a copy of a game claims otherwise (``Game.copy_conflicts``), in words: "the final
    scores, the date" (最終持ち点、日時). A label the table does not know is shown as it is."""
    return names_words([str(CLAIMS.get(label, label)) for label in labels])
