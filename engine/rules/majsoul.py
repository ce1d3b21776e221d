"""Mahjong Soul games in other tools' formats: telling them from Tenhou's, and their rules.

Mahjong Soul's own records are not public; players bring its games converted to tenhou.net/6
by tools such as tensoul and MahjongSoul-review-supporter. Such a record looks like Tenhou's
but names a Mahjong Soul room in its rule text (``玉の間南喰赤``, ``玉の間四人南``, ``三金の間赤``)
and carries a Mahjong Soul paipu id as its ``ref`` (``241231-3f6f5904-aae2-...``). Its game was
played under Mahjong Soul's rules (kan dora after the discard, thirteen orphans robbing a closed
kan, double yakuman, pao for daisangen and daisuushii but not four kans, final points from
25,000 without oka: the presets ``majsoul-4p``, ``majsoul-3p`` and their East-only forms),
whatever the lobby text of Tenhou's it imitates says.
"""

from __future__ import annotations

import re
from typing import Final

#: The ranked rooms, in Japanese (as the converters write them) and English: Bronze, Silver,
#: Gold, Jade, Throne.
ROOMS: Final = ("銅の間", "銀の間", "金の間", "玉の間", "王座の間")
_ENGLISH_ROOMS: Final = ("bronze room", "silver room", "gold room", "jade room", "throne room")
#: A Mahjong Soul paipu id: the game's date (``YYMMDD``) and a UUID.
_PAIPU_ID: Final = re.compile(r"\d{6}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def is_majsoul_record(texts: list[str], ref: str | None) -> bool:
    """Whether a record's rule and title texts, or its id, name a Mahjong Soul game."""
    if ref and _PAIPU_ID.fullmatch(ref):
        return True
    for text in texts:
        lowered = text.lower()
        if "mahjong soul" in lowered or "雀魂" in text:
            return True
        if any(room in text for room in ROOMS) or any(room in lowered for room in _ENGLISH_ROOMS):
            return True
    return False


#: The rooms' names on our pages, in the order of :data:`ROOMS`.
ROOM_NAMES: Final = ("bronze", "silver", "gold", "jade", "throne")


def majsoul_room(texts: list[str]) -> str:
    """The ranked room the texts name (one of :data:`ROOM_NAMES`), else ``""`` (a friendly or
    tournament room, or a converter that does not say). Converters put the room inside the rule
    text (``三金の間赤`` is the gold room of sanma); no room's name holds another's."""
    for text in texts:
        lowered = text.lower()
        for room, english, name in zip(ROOMS, _ENGLISH_ROOMS, ROOM_NAMES, strict=True):
            if room in text or english in lowered:
                return name
    return ""


def majsoul_length(texts: list[str]) -> str | None:
    """``east``, ``east_south``, or ``None`` when the texts do not say (``三銀の間赤``)."""
    for text in texts:
        if "南" in text or "south" in text.lower().split():
            return "east_south"
        if "東" in text or "east" in text.lower().split():
            return "east"
    return None


def majsoul_preset(three_player: bool, east_only: bool) -> str:
    """The preset of a Mahjong Soul ranked game."""
    return f"majsoul-{3 if three_player else 4}p" + ("-east" if east_only else "")
