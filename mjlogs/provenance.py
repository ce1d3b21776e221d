"""Where a game was played and who sat in it: the platform a record's names belong to, the
room, and which seats are no one in particular (docs/stats.md, "Who is a player").

A name is a person only on the platform it was seen on: ``Ann`` on Tenhou and ``Ann`` on
Mahjong Soul are two players. Some seats are not a person at all:

- **anonymous** seats: Tenhou's ``NoName`` (a guest without an account), an empty name, an mjai
  seat without a name, and in a Tenhou record the names Tenhou writes when it hides them
  (``Aさん`` to ``Dさん`` in a tenhou.net/6 export with the names hidden). Everyone who plays as a
  guest, and every hidden player, shares that name, so such a seat becomes a player of its own,
  never matched to another seat by name, and is never ranked;
- **bots**: the seats of games our own self-play wrote (source and platform ``sim``, whatever
  the rule set: a self-played game under Mahjong Soul's rules seats no Mahjong Soul player).
  They are left out of leaderboards and player lists unless asked for.

Where a game was played is read from the format its file came in, never from what a record
says of itself: a canonical document's ``source`` (format, log id, room) is anyone's to write,
so a canonical record's names are players of the platform ``canonical`` and it names no room,
whatever its source claims (issue 40). The one claim taken is to be our own self-play: it makes
the seats bots, which are never ranked, so it can only lower a seat's standing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.events import GameHeader
from engine.formats.mjlog import DAN_LABELS
from engine.rules.majsoul import majsoul_room
from engine.rules.tenhou import tenhou_room
from mjlogs.models import PlayerKind

#: Names a platform gives to every player without an account. Compared after stripping blanks,
#: so an empty or blank name is anonymous too.
ANONYMOUS_NAMES: Final = frozenset({"", "NoName"})
#: The names Tenhou writes for the seats when it hides the players' names (a tenhou.net/6
#: export, mjx's among them): placeholders, anonymous on Tenhou only and only as written.
TENHOU_HIDDEN_NAMES: Final = frozenset({"Aさん", "Bさん", "Cさん", "Dさん"})

#: The platform of a record's names by the format it came in, when the format is one platform's.
_PLATFORM_OF_FORMAT: Final = {"mjlog": "tenhou", "tenhou6": "tenhou"}
#: Our own format: what its records say of their origin is a claim (module docstring).
CANONICAL: Final = "canonical"
#: Platforms whose every seat is a program: our self-play (``engine.sim``).
BOT_PLATFORMS: Final = frozenset({"sim"})

#: What pages call each platform.
PLATFORM_LABELS: Final = {
    "tenhou": "Tenhou",
    "majsoul": "Mahjong Soul",
    "mjai": "mjai",
    "sim": "self-play (bots)",
    "canonical": "canonical record",
}


def platform_of(header: GameHeader, read_format: str) -> str:
    """The platform whose names this record's players are, the record read in ``read_format``
    (``engine.formats``): a tenhou.net/6 record of a Mahjong Soul game (a converter's output,
    ``engine.rules.majsoul``) names Mahjong Soul players; a canonical record names its own,
    whatever its source claims (module docstring)."""
    if header.source.format in BOT_PLATFORMS:
        return header.source.format  # self-play under any rule set: our bots, no platform's
    if read_format == CANONICAL:
        return CANONICAL
    if header.ruleset.startswith("majsoul"):
        return "majsoul"
    return _PLATFORM_OF_FORMAT.get(read_format, read_format)


def seat_kind(platform: str, name: str) -> PlayerKind:
    """Whether a seat with this name on this platform is a person, anonymous, or a bot."""
    if name.strip() in ANONYMOUS_NAMES:
        return PlayerKind.ANONYMOUS
    if platform == "tenhou" and name in TENHOU_HIDDEN_NAMES:
        return PlayerKind.ANONYMOUS
    if platform in BOT_PLATFORMS:
        return PlayerKind.BOT
    return PlayerKind.PERSON


#: The formats whose source may say a Tenhou room (``engine.rules.tenhou.tenhou_room``).
_TENHOU_FORMATS: Final = frozenset({"mjlog", "tenhou6"})


def room_of(ruleset: str, read_format: str, extra: Mapping[str, str]) -> str:
    """The room a record says its game was played in, the record read in ``read_format``: a
    Tenhou room (``ippan`` ... ``houou``, ``custom``), a Mahjong Soul room (``bronze`` ...
    ``throne``), or ``""`` (a canonical record's claim is not taken: module docstring)."""
    if read_format == CANONICAL:
        return ""
    if ruleset.startswith("majsoul"):
        return majsoul_room([str(extra.get(key, "")) for key in ("disp", "title")])
    if read_format in _TENHOU_FORMATS:
        return tenhou_room(extra)
    return ""


def platform_label(platform: str) -> str:
    return PLATFORM_LABELS.get(platform, platform)


#: Mahjong Soul's ranks, lowest first, as converters write them (``雀豪★2``): Novice, Adept,
#: Expert, Master and Saint with three stars each, then Celestial.
MAJSOUL_RANKS: Final = (
    *(f"{rank}★{star}" for rank in ("初心", "雀士", "雀傑", "雀豪", "雀聖") for star in (1, 2, 3)),
    "魂天",
)

#: Each platform's ranks, lowest first, and what its records' rating is: Tenhou's R, or Mahjong
#: Soul's rank points (points within the rank, not comparable with R).
RANK_LADDERS: Final = {"tenhou": DAN_LABELS, "majsoul": MAJSOUL_RANKS}
RATING_NAMES: Final = {"tenhou": "R", "majsoul": "rank points"}


def rank_index(platform: str, rank: str) -> int | None:
    """A recorded rank's place on its platform's ladder (``None``: no rank, or not one of the
    platform's), for charting ranks over time."""
    ladder = RANK_LADDERS.get(platform, ())
    return ladder.index(rank) if rank in ladder else None


def rating_name(platform: str) -> str:
    """What a record of this platform calls the rating it gives a player."""
    return RATING_NAMES.get(platform, "rating")
