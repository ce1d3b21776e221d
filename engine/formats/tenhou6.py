"""tenhou.net/6 JSON reader and writer (format ``tenhou6``).

A tenhou.net/6 object (spec: ``../shared/docs/reference/log-formats.md`` section B) holds a game's
header (``name``, ``dan``, ``rate``, ``rule``, the final ``sc``...) and its rounds in ``log``.
A round is 17 elements: ``[kyoku, honba, sticks]``, the start scores, the dora and ura
indicators, then per seat its starting hand, its *takes* (draws; chi/pon/open-kan strings) and
its *discards* (tiles; ``60`` tsumogiri; ``0`` after an open kan; riichi, closed-kan, added-kan
and north strings), and last the result.

**Reading.** A file holds one whole-game object or several objects (JSON lines, or a JSON
array). Consecutive objects are rounds of one game while their ``ref`` (without one: their
player names) stays the same and their rounds go forward: the mjx files hold one round per
line. The record never says how the seats' takes and discards interleave; :class:`_Interleaver`
rebuilds it by playing the turns (the dealer draws first; after a discard, a seat whose next
take calls that very tile from that seat calls it, else the next seat draws) and backtracks
when a choice leads nowhere, as when a pon was of the second of two identical discards
(mjai-reviewer's "confusing_nakis"). Kan dora go where Tenhou's mjlog puts them: a closed kan's
right after the kan; an open or added kan's before the kanner's discard, or after their next
kan or north once it is not robbed. Sanma drops the empty North seat everywhere but counts call
directions over four seats, as Tenhou does.

**Writing** gives Tenhou's structure (``ver`` 2.3, ``ref``, ``log``, ``ratingc``, ``rule``,
``lobby``, ``dan``, ``rate``, ``sx``, ``sc``, ``name``), one object per game and line, with hands
and meld tiles in Tenhou's order. Only Tenhou rule sets can be written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, TypeAlias

from engine.errors import MalformedLogError, UnsupportedLogError
from engine.events import (
    AbortiveDraw,
    AbortKind,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    FinalResult,
    Game,
    GameHeader,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Player,
    Pon,
    RecordedWin,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    ScoreChange,
    Source,
    Win,
)
from engine.formats import Format
from engine.rules.presets import PRESETS, as_preset, tenhou_ruleset
from engine.scoring.limits import yakuman_limit
from engine.scoring.yaku import ROUND_WIND_YAKU, SEAT_WIND_YAKU, YAKU
from engine.tiles import Tile, is_yaochuu, tile_of

NAME: Final = "tenhou6"

# -- tiles and call strings -----------------------------------------------------------------------

#: 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N haku hatsu chun, 51-53 red 5m/5p/5s.
TILE_OF_CODE: Final[dict[int, Tile]] = {
    **{
        10 * s + 10 + rank: tile_of(suit, rank)
        for s, suit in enumerate("mps")
        for rank in range(1, 10)
    },
    **{40 + rank: tile_of("z", rank) for rank in range(1, 8)},
    **{51 + s: tile_of(suit, 5, red=True) for s, suit in enumerate("mps")},
}
CODE_OF_TILE: Final = {tile: code for code, tile in TILE_OF_CODE.items()}
#: In a discard array: the tile just drawn was discarded.
TSUMOGIRI: Final = 60
#: In a discard array: the slot of an open kan's caller, who draws instead of discarding.
DUMMY: Final = 0

_KINDS: Final = {
    "c": "chi",
    "p": "pon",
    "m": "open_kan",
    "k": "added_kan",
    "a": "closed_kan",
    "r": "riichi",
    "f": "north",
}
_LETTERS: Final = {kind: letter for letter, kind in _KINDS.items()}
#: Letter -> {its position: the seat offset the called tile came from (3 left, 2 across,
#: 1 right)}. The letter stands right before the called tile; where it stands says who gave it.
_POSITIONS: Final[dict[str, dict[int, int]]] = {
    "c": {0: 3},
    "p": {0: 3, 2: 2, 4: 1},
    "m": {0: 3, 2: 2, 6: 1},
    "k": {0: 3, 2: 2, 4: 1},
    "a": {6: 0},
    "r": {0: 0},
    "f": {0: 0},
}
_SIZES: Final = {"c": 3, "p": 3, "m": 4, "k": 4, "a": 4, "r": 1, "f": 1}
_DIGITS: Final = frozenset("0123456789")
#: Call kinds that are takes (the rest are in the discard arrays).
_TAKE_KINDS: Final = frozenset({"chi", "pon", "open_kan"})


@dataclass(frozen=True, slots=True)
class CallString:
    """One decoded call string (``"c275226"``, ``"12p1212"``, ``"k16161616"``, ``"r60"``...).

    ``kind``: ``chi``, ``pon``, ``open_kan``, ``added_kan``, ``closed_kan``, ``riichi``,
    ``north``. ``tile``: the tile after the letter: the called tile, the added tile (added kan),
    the riichi discard (``None`` for ``r60``, a tsumogiri), the North, a closed kan's 4th tile.
    ``others``: the rest in written order: the caller's own tiles (chi, pon, open kan), the pon
    being extended (added kan, its called tile included), all four tiles (closed kan).
    ``offset``: where the called tile came from, counted over four seats from the caller
    (3 left/kamicha, 2 across, 1 right; 0 for the caller's own tiles).
    """

    kind: str
    tile: Tile | None
    others: tuple[Tile, ...]
    offset: int


def parse_call(text: str, where: str | None = None) -> CallString:
    """Decode a call string, checking that its tiles form what its letter says.

    :raises MalformedLogError: anything else (at ``where``).
    """
    found = [i for i, char in enumerate(text) if char not in _DIGITS]
    if len(found) != 1 or text[found[0]] not in _KINDS:
        raise MalformedLogError(
            f"call string {text!r} is not 2-digit tile codes and one letter of {''.join(_KINDS)}",
            where,
        )
    position = found[0]
    letter = text[position]
    kind = _KINDS[letter]
    offset = _POSITIONS[letter].get(position)
    digits = text[:position] + text[position + 1 :]
    if offset is None or len(digits) != 2 * _SIZES[letter]:
        places = " or ".join(map(str, _POSITIONS[letter]))
        raise MalformedLogError(
            f"call string {text!r}: a {kind} is {_SIZES[letter]} tile codes with {letter!r} "
            f"at index {places}",
            where,
        )
    codes = [int(digits[i : i + 2]) for i in range(0, len(digits), 2)]
    if letter == "r" and codes[0] == TSUMOGIRI:
        return CallString(kind, None, (), 0)
    if any(code not in TILE_OF_CODE for code in codes):
        raise MalformedLogError(f"call string {text!r} holds a code that is no tile", where)
    tiles = [TILE_OF_CODE[code] for code in codes]
    if letter == "a":
        call = CallString(kind, tiles[3], tuple(tiles), 0)
    else:
        at = position // 2
        call = CallString(kind, tiles[at], (*tiles[:at], *tiles[at + 1 :]), offset)
    kinds = sorted(tile.kind for tile in (tiles if letter != "r" else ()))
    if kind == "chi":
        ok = kinds[2] < 27 and kinds == list(range(kinds[0], kinds[0] + 3)) and kinds[0] % 9 < 7
    elif kind == "north":
        ok = kinds == [30]
    else:
        ok = not kinds or kinds[0] == kinds[-1]
    if not ok:
        raise MalformedLogError(f"call string {text!r}: its tiles do not form a {kind}", where)
    return call


@lru_cache(maxsize=4096)
def _cached_call(text: str) -> CallString | str:
    """:func:`parse_call` remembered (a game repeats its strings), or the error's text."""
    try:
        return parse_call(text)
    except MalformedLogError as error:
        return str(error)


def format_call(call: CallString) -> str:
    """The call string of a :class:`CallString` (the inverse of :func:`parse_call`)."""
    if call.tile is None:
        return f"r{TSUMOGIRI}"
    if call.kind == "closed_kan":
        return "".join(map(_text, call.others[:3])) + "a" + _text(call.others[3])
    letter = _LETTERS[call.kind]
    where = {offset: at for at, offset in _POSITIONS[letter].items()}.get(call.offset)
    if where is None:
        raise MalformedLogError(f"a {call.kind} from seat offset {call.offset} has no string")
    parts = [_text(tile) for tile in call.others]
    parts.insert(where // 2, letter + _text(call.tile))
    return "".join(parts)


def _code(tile: Tile) -> int:
    try:
        return CODE_OF_TILE[tile]
    except KeyError:
        raise MalformedLogError(f"tile {tile} has no tenhou.net/6 code") from None


def _text(tile: Tile) -> str:
    return str(_code(tile))


def _tenhou_order(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """Tiles as Tenhou lists a hand or a meld's own tiles: by kind, a red five after the plain
    ones (``"151515a51"``, ``"2552p25"``)."""
    return tuple(sorted(tiles, key=lambda tile: (tile.kind, tile.red)))


# -- score strings --------------------------------------------------------------------------------

#: Limit words of score strings: Tenhou's, and the romanised ones of Mahjong Soul converters.
_LIMIT_WORDS: Final = {
    "満貫": "mangan",
    "切り上げ満貫": "mangan",
    "跳満": "haneman",
    "倍満": "baiman",
    "三倍満": "sanbaiman",
    "役満": "yakuman",
    "数え役満": "yakuman",  # Tenhou's own files write counted yakuman as 役満 (limit code 5)
    **{
        word: word.split()[-1].lower()
        for word in (
            *("Mangan", "Kiriage Mangan", "Rounded Mangan", "Haneman", "Baiman"),
            *("Sanbaiman", "Yakuman", "Kazoe Yakuman", "Counted Yakuman"),
        )
    },
}
_LIMIT_LABELS: Final = {
    "mangan": "満貫",
    "haneman": "跳満",
    "baiman": "倍満",
    "sanbaiman": "三倍満",
}
_SCORE: Final = re.compile(
    r"(?:(\d+)(?:符|Fu)(\d+)(?:飜|Han))?\s*("
    + "|".join(sorted(map(re.escape, _LIMIT_WORDS), key=len, reverse=True))
    + r")?\s*(\d+)(?:-(\d+))?\s*(?:点|Points)(∀)?"
)


@dataclass(frozen=True, slots=True)
class ScoreString:
    """A decoded score string: ``"30符4飜7700点"`` (ron), ``"30符1飜300-500点"`` (non-dealer
    tsumo: a non-dealer's share, then the dealer's), ``"満貫4000点∀"`` (dealer tsumo: what each
    payer pays). Tenhou gives limit hands no fu and han."""

    fu: int | None
    han: int | None
    #: ``mangan`` ... ``yakuman``; ``None`` below mangan.
    limit: str | None
    #: The ron payment, a non-dealer's share of a tsumo, or each payer's share (dealer tsumo).
    share: int
    #: The dealer's share of a non-dealer tsumo.
    dealer_share: int | None
    #: A dealer tsumo (``∀``: every other seat pays :attr:`share`).
    all_pay: bool

    @property
    def tsumo(self) -> bool:
        """Whether this is a tsumo's score."""
        return self.all_pay or self.dealer_share is not None

    def points(self, players: int) -> int:
        """The hand's value before honba and sticks with ``players`` seats (sanma has no North
        seat to pay a tsumo: tsumo loss)."""
        if self.dealer_share is not None:
            return self.share * (players - 2) + self.dealer_share
        return self.share * (players - 1) if self.all_pay else self.share


def parse_score(text: str, where: str | None = None) -> ScoreString:
    """Decode a score string.

    :raises MalformedLogError: text that is not one (at ``where``).
    """
    found = _SCORE.fullmatch(text.strip())
    if found is None or (found[5] and found[6]):
        raise MalformedLogError(
            f"score {text!r} is not like '30符4飜7700点', '満貫2000-4000点' or '跳満6000点∀'", where
        )
    fu, han, word, share, dealer, every = found.groups()
    return ScoreString(
        fu=int(fu) if fu else None,
        han=int(han) if han else None,
        limit=_LIMIT_WORDS[word] if word else None,
        share=int(share),
        dealer_share=int(dealer) if dealer else None,
        all_pay=bool(every),
    )


def format_score(recorded: RecordedWin, *, tsumo: bool, dealer: bool, players: int) -> str:
    """Tenhou's score string of a win with ``recorded.points`` (the inverse of
    :func:`parse_score`): ``fu``/``han`` below mangan, the limit's word above."""
    points = recorded.points
    assert points is not None
    limit = recorded.limit
    if limit is None:
        prefix = f"{recorded.fu}符{recorded.han}飜" if recorded.fu and recorded.han else ""
    elif limit.endswith("yakuman"):  # Tenhou has one word for any number of yakuman
        prefix = "役満"
    elif limit in _LIMIT_LABELS:
        prefix = _LIMIT_LABELS[limit]
    else:
        raise MalformedLogError(f"limit {limit!r} has no Tenhou name")
    if not tsumo:
        return f"{prefix}{points}点"
    if dealer:
        if points % (players - 1):
            raise MalformedLogError(f"a dealer tsumo of {points} points is not equal shares")
        return f"{prefix}{points // (players - 1)}点∀"
    share, dealer_share = _tsumo_shares(points, players)
    return f"{prefix}{share}-{dealer_share}点"


def _tsumo_shares(points: int, players: int) -> tuple[int, int]:
    """(a non-dealer's share, the dealer's) of a non-dealer tsumo worth ``points`` in all.

    A non-dealer pays the base rounded up to 100 (``s``), the dealer twice the base rounded up:
    ``2s`` or ``2s - 100``. The total is then ``players * s`` or that less 100; ``s`` being a
    multiple of 100, the remainder modulo ``100 * players`` tells the two apart.
    """
    step = 100 * players
    if points > 0 and points % step == 0:
        return points // players, 2 * points // players
    if points > 0 and (points + 100) % step == 0:
        share = (points + 100) // players
        return share, 2 * share - 100
    raise MalformedLogError(f"a non-dealer tsumo of {points} points is not Tenhou's shares")


# -- yaku strings ---------------------------------------------------------------------------------


def _key(label: str) -> str:
    return " ".join(label.split()).lower()


def _yaku_by_label() -> dict[str, str]:
    labels: dict[str, str] = {}
    for info in YAKU.values():
        labels.setdefault(_key(info.japanese), info.name)
        labels.setdefault(_key(info.english), info.name)
    aliases = {
        "kokushi_13": ("国士無双１３面", "国士無双13面", "国士無双十三面"),  # Tenhou: full-width 13
        "haku": ("白",),
        "hatsu": ("發", "発", "役牌 発"),
        "chun": ("中",),
        # The English of Mahjong Soul converters where it differs from engine.scoring.yaku's
        "menzen_tsumo": ("fully concealed hand", "self-draw", "menzen tsumo"),
        "tanyao": ("all simples", "tanyao"),
        "ura_dora": ("ura dora", "uradora"),
        "aka_dora": ("red five", "red fives", "aka dora", "akadora"),
        "kita": ("north",),
        "rinshan": ("rinshan kaihou",),
        "sankantsu": ("three quads",),
        "suukantsu": ("four quads",),
        "tsuuiisou": ("all honors",),
        "honroutou": ("all terminals and honors",),
        "renhou_mangan": ("人和", "blessing of man"),  # 人和(役満) is renhou: see parse_yaku
    }
    for name, texts in aliases.items():
        labels.update((_key(text), name) for text in texts)
    return labels


_YAKU_BY_LABEL: Final = _yaku_by_label()
#: Labels that say "seat wind" or "round wind" without which wind.
_SEAT_WIND: Final = frozenset({"自風", "seat wind"})
_ROUND_WIND: Final = frozenset({"場風", "prevalent wind", "round wind"})
_TENHOU_LABELS: Final = {
    **{name: info.japanese for name, info in YAKU.items()},
    "kokushi_13": "国士無双１３面",
    "renhou_mangan": "人和",
}


def parse_yaku(
    text: str, *, seat_wind: int, round_wind: int, where: str | None = None
) -> tuple[str, int]:
    """``(our yaku name, han)`` of a yaku string: ``"立直(1飜)"``, ``"大三元(役満)"`` (13 han a
    yakuman), ``"Riichi(1飜)"``. ``seat_wind``/``round_wind`` (0-3, East-North) name the wind
    of a label that only says "seat wind" or "round wind".

    :raises MalformedLogError: an unknown label or value (at ``where``).
    """
    opening = text.rfind("(")
    value = text[opening + 1 : -1].strip()
    if opening <= 0 or not text.endswith(")"):
        raise MalformedLogError(f"yaku {text!r} is not like '立直(1飜)'", where)
    yakuman = value in ("役満", "Yakuman")
    if not yakuman and not (value.endswith("飜") and value[:-1].isascii() and value[:-1].isdigit()):
        raise MalformedLogError(f"yaku {text!r}: {value!r} is neither 'n飜' nor '役満'", where)
    han = 13 if yakuman else int(value[:-1])
    label = _key(text[:opening])
    if label in _SEAT_WIND:
        return SEAT_WIND_YAKU[seat_wind], han
    if label in _ROUND_WIND:
        return ROUND_WIND_YAKU[round_wind], han
    name = _YAKU_BY_LABEL.get(label)
    if name is None:
        raise MalformedLogError(f"unknown yaku {text[:opening]!r}", where)
    return ("renhou" if name == "renhou_mangan" and yakuman else name), han


def format_yaku(name: str, han: int) -> str:
    """Tenhou's string of a yaku (the inverse of :func:`parse_yaku`)."""
    if name not in _TENHOU_LABELS:
        raise MalformedLogError(f"yaku {name!r} has no Tenhou name")
    return f"{_TENHOU_LABELS[name]}({'役満' if YAKU[name].yakuman else f'{han}飜'})"


# -- JSON values ----------------------------------------------------------------------------------


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value[:20]!r}"
    if isinstance(value, dict):
        return "an object"
    return "an array" if isinstance(value, list) else "null"


def _int(value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():  # 25000.0; not NaN or infinity
        return int(value)
    raise MalformedLogError(f"expected an integer, got {_kind(value)}", where)


def _number(value: Any, where: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise MalformedLogError(f"expected a number, got {_kind(value)}", where)


def _str(value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    raise MalformedLogError(f"expected a string, got {_kind(value)}", where)


def _array(value: Any, where: str) -> list[Any]:
    if isinstance(value, list):
        return value
    raise MalformedLogError(f"expected an array, got {_kind(value)}", where)


def _ints(value: Any, where: str) -> list[int]:
    return [_int(item, f"{where}[{i}]") for i, item in enumerate(_array(value, where))]


def _tiles(value: Any, where: str) -> tuple[Tile, ...]:
    items = _array(value, where)
    try:
        return tuple([TILE_OF_CODE[code] for code in items])
    except (KeyError, TypeError):  # find the culprit only now: errors are rare
        for i, code in enumerate(items):
            if code.__class__ not in (int, float) or code not in TILE_OF_CODE:
                raise MalformedLogError(
                    f"{_kind(code)} is not a tile code", f"{where}[{i}]"
                ) from None
        raise


def _per_seat(value: Any, players: int, where: str) -> tuple[int, ...]:
    """One value per seat: a sanma array has a 4th entry, 0, for the empty North seat."""
    values = _ints(value, where)
    if players == 3 and len(values) == 4 and values[3] == 0:
        values.pop()
    if len(values) != players:
        raise MalformedLogError(f"{len(values)} values for {players} seats", where)
    return tuple(values)


def _seat(value: Any, players: int, where: str) -> int:
    seat = _int(value, where)
    if not 0 <= seat < players:
        raise MalformedLogError(f"{seat} is not a seat of this {players}-player game", where)
    return seat


# -- one round ------------------------------------------------------------------------------------

_ABORTS: Final = {
    "九種九牌": AbortKind.NINE_TERMINALS,
    "四風連打": AbortKind.FOUR_WINDS,
    "四家立直": AbortKind.FOUR_RIICHI,
    "四槓散了": AbortKind.FOUR_KANS,
    "四開槓": AbortKind.FOUR_KANS,  # tensoul's word
    "三家和了": AbortKind.TRIPLE_RON,
    "三家和": AbortKind.TRIPLE_RON,  # Mahjong Soul converters' word
}
#: Each kind's first label above (Tenhou's): reversed, so that it is the one kept.
_ABORT_LABELS: Final = {kind: label for label, kind in reversed(_ABORTS.items())}
_DRAWN: Final = frozenset({"流局", "全員聴牌", "全員不聴"})
_NAGASHI: Final = "流し満貫"
_WON: Final = "和了"

#: A take (a drawn tile, or a chi/pon/open-kan string) or a discard slot (a tile, a riichi,
#: closed-kan, added-kan or north string, 60 or 0), decoded.
Slot: TypeAlias = Tile | CallString | int
_DISCARD_CODES: Final[dict[int, Slot]] = {**TILE_OF_CODE, TSUMOGIRI: TSUMOGIRI, DUMMY: DUMMY}


@dataclass(frozen=True, slots=True)
class _WinRecord:
    seat: int
    from_seat: int
    recorded: RecordedWin


class _RoundData:
    """One round's 17 elements, decoded and checked, before the turns are interleaved."""

    def __init__(self, raw: list[Any], players: int, place: str) -> None:
        self.players, self.place = players, place
        head = _ints(raw[0], self.at(0))
        if len(head) != 3 or not 0 <= head[0] < 16 or min(head) < 0:
            raise MalformedLogError(f"{head} is not [kyoku 0-15, honba, sticks]", self.at(0))
        kyoku, self.honba, self.sticks = head
        self.wind, self.number, self.dealer = kyoku // 4, kyoku % 4 + 1, kyoku % 4
        if self.dealer >= players:
            raise MalformedLogError(f"kyoku {kyoku}: sanma has no seat {self.dealer}", self.at(0))
        self.scores = _per_seat(raw[1], players, self.at(1))
        self.indicators = _tiles(raw[2], self.at(2))
        if not self.indicators:
            raise MalformedLogError("no dora indicator", self.at(2))
        self.ura = _tiles(raw[3], self.at(3))
        self.hands: list[tuple[Tile, ...]] = []
        self.takes: list[list[Slot]] = []
        self.discards: list[list[Slot]] = []
        for seat in range(players):
            hand = _tiles(raw[4 + 3 * seat], self.at(4 + 3 * seat))
            if len(hand) != 13:
                raise MalformedLogError(
                    f"a starting hand of {len(hand)} tiles", self.at(4 + 3 * seat)
                )
            self.hands.append(hand)
            self.takes.append(self.items(raw, 5 + 3 * seat, TILE_OF_CODE, True))
            self.discards.append(self.items(raw, 6 + 3 * seat, _DISCARD_CODES, False))
        self.wins: tuple[_WinRecord, ...] = ()
        self.label, self.deltas = self.result(raw[16], self.at(16))

    def at(self, index: int) -> str:
        return f"{self.place}[{index}]"

    def items(
        self, raw: list[Any], index: int, codes: Mapping[int, Slot], takes: bool
    ) -> list[Slot]:
        """A takes or discards array: codes through ``codes``, strings as call strings."""
        out: list[Slot] = []
        for i, item in enumerate(_array(raw[index], self.at(index))):
            if item.__class__ is str:
                call = _cached_call(item)
                if isinstance(call, str):
                    raise MalformedLogError(call, f"{self.at(index)}[{i}]")
                if (call.kind in _TAKE_KINDS) != takes:
                    other = "takes" if call.kind in _TAKE_KINDS else "discards"
                    raise MalformedLogError(
                        f"a {call.kind} belongs in the {other}", f"{self.at(index)}[{i}]"
                    )
                out.append(call)
            elif item.__class__ in (int, float) and item in codes:
                out.append(codes[int(item)])
            else:
                raise MalformedLogError(
                    f"{_kind(item)} is not a tile code", f"{self.at(index)}[{i}]"
                )
        return out

    def result(self, value: Any, where: str) -> tuple[str, tuple[int, ...] | None]:
        """The result's label and payments; a win's (deltas, detail) pairs go to ``wins``."""
        items = _array(value, where)
        label = _str(items[0], f"{where}[0]") if items else ""
        if label == _WON:
            if len(items) < 3 or len(items) % 2 == 0:
                raise MalformedLogError("'和了' is followed by (deltas, detail) pairs", where)
            self.wins = tuple(self.win(items, i, where) for i in range(1, len(items), 2))
            return label, None
        if label not in _DRAWN and label != _NAGASHI and label not in _ABORTS:
            raise MalformedLogError(f"unknown result {label!r}", f"{where}[0]")
        deltas = None
        if len(items) > 1 and items[1] != []:
            deltas = _per_seat(items[1], self.players, f"{where}[1]")
        if label == _NAGASHI and deltas is None:
            raise MalformedLogError("流し満貫 without its payments", where)
        return label, deltas

    def win(self, items: list[Any], index: int, where: str) -> _WinRecord:
        """One winner: ``deltas`` then ``[who, fromWho, paoWho, score, yaku...]`` (a converter
        may stop after paoWho)."""
        players = self.players
        deltas = _per_seat(items[index], players, f"{where}[{index}]")
        at = f"{where}[{index + 1}]"
        detail = _array(items[index + 1], at)
        if len(detail) < 3:
            raise MalformedLogError("a win's detail starts [who, fromWho, paoWho]", at)
        seat, from_seat, liable = (_seat(detail[i], players, f"{at}[{i}]") for i in range(3))
        recorded = RecordedWin(deltas=deltas, liable=None if liable == seat else liable)
        if len(detail) == 3:
            return _WinRecord(seat, from_seat, recorded)
        score = parse_score(_str(detail[3], f"{at}[3]"), f"{at}[3]")
        if score.tsumo != (seat == from_seat):
            raise MalformedLogError(
                f"{detail[3]!r} is not a {'tsumo' if seat == from_seat else 'ron'}'s score",
                f"{at}[3]",
            )
        winds = {"seat_wind": (seat - self.dealer) % players, "round_wind": self.wind}
        pairs = (
            parse_yaku(_str(text, f"{at}[{i}]"), **winds, where=f"{at}[{i}]")
            for i, text in enumerate(detail[4:], 4)
        )
        yaku = tuple(pair for pair in pairs if pair[1])  # "裏ドラ(0飜)": none found, no yaku
        points = score.points(players)
        limit = score.limit
        if limit == "yakuman" and any(YAKU[name].yakuman for name, _ in yaku):
            limit = self.yakuman_limit(seat, from_seat, points)
        han = score.han if score.han is not None else sum(h for _, h in yaku) or None
        return _WinRecord(
            seat,
            from_seat,
            RecordedWin(
                han=han,
                fu=score.fu,
                yaku=yaku,
                points=points,
                limit=limit,
                deltas=deltas,
                liable=recorded.liable,
            ),
        )

    def yakuman_limit(self, seat: int, from_seat: int, points: int) -> str:
        """``yakuman``, or ``double_yakuman``... when the points are a multiple of one yakuman
        (base 8000; 6 bases to a dealer, 4 to others; a sanma tsumo loses the North seat's
        share: 4 and 3), named as the mjlog reader names them."""
        dealer = seat == self.dealer
        factor = (
            (6 if dealer else 4) if seat != from_seat or self.players == 4 else (4 if dealer else 3)
        )
        single = 8000 * factor
        if points > single and points % single == 0:
            return yakuman_limit(points // single)[1]
        return "yakuman"

    def read(self) -> Round:
        return Round(
            wind=self.wind,
            number=self.number,
            dealer=self.dealer,
            honba=self.honba,
            sticks=self.sticks,
            scores=self.scores,
            hands=tuple(self.hands),
            dora_indicators=self.indicators[:1],
            events=tuple(_Interleaver(self).run()),
            ura_indicators=self.ura,
        )


class _Mismatch(Exception):
    """This interleaving of the takes and discards does not work out (the reader backtracks)."""

    def __init__(self, message: str, where: str, progress: int) -> None:
        super().__init__(message)
        self.message, self.where, self.progress = message, where, progress


#: Phases of the turn loop.
_DRAW, _ACT, _CALLS, _RETRY, _END = range(5)
#: Options the search may try before giving up on a round (real logs need a handful).
_MAX_RETRIES: Final = 2000


class _Interleaver:
    """Plays a round's turns to put every seat's takes and discards in one event sequence.

    The state is a few counters and the event list. A discard that some seat's next take can
    call is a choice point (the calls, pon and kan before chi, then the next seat's draw): it
    saves a snapshot, and a :class:`_Mismatch` further on restores the latest one and tries its
    next option (depth first). The error finally raised is the one that got furthest.
    """

    def __init__(self, data: _RoundData) -> None:
        self.data = data
        self.n = data.players
        self.takes, self.discards = data.takes, data.discards
        self.ti = [0] * self.n
        self.di = [0] * self.n
        self.events: list[Event] = []
        self.last_draw: list[Tile | None] = [None] * self.n
        self.last_discard: Tile | None = None
        self.dora_used = 1
        #: The seat whose riichi discard waits to be accepted (before what comes next) or ronned.
        self.accept: int | None = None
        #: An open or added kan's dora waits for the kanner's discard or next kan.
        self.kan_dora = False

    def snapshot(self) -> tuple[Any, ...]:
        return (
            self.ti[:],
            self.di[:],
            len(self.events),
            self.last_draw[:],
            self.last_discard,
            self.dora_used,
            self.accept,
            self.kan_dora,
        )

    def restore(self, state: tuple[Any, ...]) -> None:
        ti, di, length, last_draw, self.last_discard, self.dora_used, self.accept, self.kan_dora = (
            state
        )
        self.ti, self.di, self.last_draw = ti[:], di[:], last_draw[:]
        del self.events[length:]

    def run(self) -> list[Event]:
        phase, seat = _DRAW, self.data.dealer
        choices: list[list[Any]] = []  # [snapshot, discarder, options, index of the next]
        best: _Mismatch | None = None
        for _ in range(_MAX_RETRIES):
            try:
                while phase != _END:
                    if phase == _DRAW:
                        phase, seat = self.draw(seat)
                    elif phase == _ACT:
                        phase, seat = self.act(seat)
                    elif phase == _CALLS:
                        options = self.options(seat)
                        if len(options) > 1:
                            choices.append([self.snapshot(), seat, options, 1])
                        phase, seat = self.apply(seat, options[0])
                    else:
                        choice = choices[-1]
                        choice[3] += 1
                        phase, seat = self.apply(choice[1], choice[2][choice[3] - 1])
                self.finish()
                return self.events
            except _Mismatch as mismatch:
                if best is None or mismatch.progress >= best.progress:
                    best = mismatch
                while choices and choices[-1][3] >= len(choices[-1][2]):
                    choices.pop()
                if not choices:
                    break
                self.restore(choices[-1][0])
                phase = _RETRY
        assert best is not None
        raise MalformedLogError(best.message, best.where)

    def fail(self, message: str, where: str) -> _Mismatch:
        return _Mismatch(message, where, len(self.events))

    def slot_at(self, element: int, seat: int, index: int) -> str:
        """The place of a seat's take (element 5) or discard slot (element 6)."""
        return f"{self.data.at(element + 3 * seat)}[{index}]"

    def draw(self, seat: int) -> tuple[int, int]:
        """``seat`` draws its next take; a round whose next drawer has none left is over."""
        index = self.ti[seat]
        if index >= len(self.takes[seat]):
            return _END, seat
        tile = self.takes[seat][index]
        if tile.__class__ is not Tile:
            raise self.fail(
                f"seat {seat} is to draw, but its next take is a call no discard before it matches",
                self.slot_at(5, seat, index),
            )
        assert isinstance(tile, Tile)
        self.ti[seat] = index + 1
        self.flush_accept()
        self.events.append(Draw(seat, tile))
        self.last_draw[seat] = tile
        return _ACT, seat

    def act(self, seat: int) -> tuple[int, int]:
        """``seat`` plays its next discard slot (a discard, riichi or not, a kan, a kita); a
        seat with no slot left ends the round (tsumo, nine terminals)."""
        index = self.di[seat]
        if index >= len(self.discards[seat]):
            return _END, seat
        slot = self.discards[seat][index]
        self.di[seat] = index + 1
        if isinstance(slot, CallString) and slot.kind != "riichi":
            return self.kan_or_north(seat, slot)
        if slot == DUMMY:
            where = self.slot_at(6, seat, index)
            raise self.fail(f"an open kan's 0 where seat {seat} is to discard", where)
        if self.kan_dora:
            self.reveal()
        riichi = isinstance(slot, CallString)
        if riichi:
            self.events.append(RiichiDeclared(seat))
            self.accept = seat
        tile = slot.tile if isinstance(slot, CallString) else slot
        tsumogiri = tile is None or tile == TSUMOGIRI
        if tsumogiri:
            tile = self.last_draw[seat]
            if tile is None:
                where = self.slot_at(6, seat, index)
                raise self.fail(f"seat {seat} discards the tile it drew (60) but drew none", where)
        assert isinstance(tile, Tile)
        self.events.append(Discard(seat, tile, tsumogiri))
        self.last_draw[seat] = None
        self.last_discard = tile
        return _CALLS, seat

    def kan_or_north(self, seat: int, slot: CallString) -> tuple[int, int]:
        """A closed kan, added kan or kita, then the replacement draw. Without one the round
        ended there (robbed: chankan, or a ron on the North), and no dora is turned."""
        tile = slot.tile
        assert tile is not None
        if slot.kind == "closed_kan":
            self.events.append(ClosedKan(seat, slot.others))
        elif slot.kind == "added_kan":
            self.events.append(AddedKan(seat, tile))
        else:
            self.events.append(NorthExtraction(seat, tile))
        self.last_draw[seat] = self.last_discard = None
        if self.ti[seat] >= len(self.takes[seat]):
            self.kan_dora = False
            return _END, seat
        if self.kan_dora:  # Tenhou turns a pending open kan's dora as the next kan stands
            self.reveal()
        if slot.kind == "closed_kan":
            self.reveal()
        self.kan_dora = slot.kind == "added_kan"
        return _DRAW, seat

    def options(self, discarder: int) -> list[int]:
        """Who may take the last discard: the seats whose next take calls exactly that tile
        from the discarder (pon and kan before chi), then -1, the next seat's draw."""
        calls: list[int] = []
        chi: list[int] = []
        for step in range(1, self.n):
            seat = (discarder + step) % self.n
            index = self.ti[seat]
            if index < len(self.takes[seat]):
                take = self.takes[seat][index]
                if (
                    isinstance(take, CallString)
                    and take.tile == self.last_discard
                    and (seat + take.offset) % 4 == discarder
                ):
                    (chi if take.kind == "chi" else calls).append(seat)
        return [*calls, *chi, -1]

    def apply(self, discarder: int, caller: int) -> tuple[int, int]:
        """Play one option of :meth:`options`."""
        if caller < 0:
            return _DRAW, (discarder + 1) % self.n
        index = self.ti[caller]
        call = self.takes[caller][index]
        assert isinstance(call, CallString) and call.tile is not None
        self.ti[caller] = index + 1
        self.flush_accept()
        if call.kind != "open_kan":
            meld = Chi if call.kind == "chi" else Pon
            self.events.append(meld(caller, discarder, call.tile, call.others))
            return _ACT, caller
        self.events.append(OpenKan(caller, discarder, call.tile, call.others))
        slot = self.di[caller]
        if slot >= len(self.discards[caller]) or self.discards[caller][slot] != DUMMY:
            where = self.slot_at(6, caller, slot)
            raise self.fail(f"seat {caller}'s open kan has no 0 in its discards", where)
        if index + 1 >= len(self.takes[caller]):
            where = self.slot_at(5, caller, index)
            raise self.fail(f"seat {caller}'s open kan has no replacement draw", where)
        self.di[caller] = slot + 1
        self.kan_dora = True
        return _DRAW, caller

    def flush_accept(self) -> None:
        """The pending riichi discard passed: its stick goes down before whatever comes next."""
        if self.accept is not None:
            self.events.append(RiichiAccepted(self.accept))
            self.accept = None

    def reveal(self) -> None:
        indicators = self.data.indicators
        if self.dora_used >= len(indicators):
            raise self.fail(
                f"a kan turns a dora, but only {len(indicators)} indicator(s) are listed",
                self.data.at(2),
            )
        self.events.append(DoraRevealed(indicators[self.dora_used]))
        self.dora_used += 1
        self.kan_dora = False

    def finish(self) -> None:
        """Check that every take and discard was played and that the end fits the result; add
        the end events."""
        data = self.data
        for player in range(self.n):
            if self.ti[player] < len(self.takes[player]):
                where = self.slot_at(5, player, self.ti[player])
                raise self.fail(f"the round ended with seat {player}'s takes unplayed", where)
            if self.di[player] < len(self.discards[player]):
                where = self.slot_at(6, player, self.di[player])
                raise self.fail(f"the round ended with seat {player}'s discards unplayed", where)
        if self.dora_used < len(data.indicators):
            message = f"{len(data.indicators)} dora indicators, but the kans turn {self.dora_used}"
            raise self.fail(message, data.at(2))
        last = self.events[-1] if self.events else None
        if data.wins:
            for win in data.wins:
                self.events.append(
                    Win(win.seat, win.from_seat, self.won_tile(win, last), win.recorded)
                )
            return
        kind = _ABORTS.get(data.label)
        seat: int | None = None
        if kind is AbortKind.NINE_TERMINALS:
            if not isinstance(last, Draw):
                raise self.fail("nine terminals, but the last play is no draw", data.at(16))
            seat = last.seat
        elif kind is AbortKind.TRIPLE_RON:
            offered = self.offered(last)
            if offered is None:
                raise self.fail("a triple ron, but no tile was just offered", data.at(16))
            seat = offered[0]
        else:
            self.flush_accept()
        if kind is not None:
            self.events.append(AbortiveDraw(kind, seat=seat, recorded_deltas=data.deltas))
        elif data.label == _NAGASHI:
            assert data.deltas is not None
            self.events.append(NagashiMangan(self.nagashi_seats(data.deltas), data.deltas))
        else:
            self.events.append(self.exhaustive(data.label, data.deltas))

    def won_tile(self, win: _WinRecord, last: Event | None) -> Tile:
        """The winning tile: the winner's own draw (tsumo), or the loser's offered tile."""
        if win.seat == win.from_seat:
            if isinstance(last, Draw) and last.seat == win.seat and len(self.data.wins) == 1:
                return last.tile
            message = f"seat {win.seat}'s tsumo does not follow its own draw"
            raise self.fail(message, self.data.at(16))
        offered = self.offered(last)
        if offered is None or offered[0] != win.from_seat:
            message = f"a ron on seat {win.from_seat}, which offered no tile"
            raise self.fail(message, self.data.at(16))
        return offered[1]

    @staticmethod
    def offered(last: Event | None) -> tuple[int, Tile] | None:
        """The seat and tile a ron can take: a discard, an added kan (chankan), a North, a
        closed kan (kokushi, where the rules allow it)."""
        if isinstance(last, ClosedKan):
            return last.seat, last.tiles[-1]
        if isinstance(last, Discard | AddedKan | NorthExtraction):
            return last.seat, last.tile
        return None

    def exhaustive(self, label: str, deltas: tuple[int, ...] | None) -> ExhaustiveDraw:
        """The wall ran out. Tenhou shows who was tenpai through the payments: the tenpai seats
        gain. 全員聴牌/全員不聴 say it in words, and nobody pays."""
        everyone = tuple(range(self.n))
        if label != "流局":
            return ExhaustiveDraw(everyone if label == "全員聴牌" else (), deltas or (0,) * self.n)
        if deltas is None or not any(deltas):
            return ExhaustiveDraw(None, deltas)  # no payment: everyone or no one, unsaid
        return ExhaustiveDraw(tuple(s for s in everyone if deltas[s] > 0), deltas)

    def nagashi_seats(self, deltas: tuple[int, ...]) -> tuple[int, ...]:
        """The seats paid for nagashi mangan: those that gain and discarded only terminals and
        honours, none of them called (all that gain when that leaves nobody)."""
        gaining = [seat for seat in range(self.n) if deltas[seat] > 0]
        clean = set(gaining)
        for event in self.events:
            if isinstance(event, Discard) and not is_yaochuu(event.tile.kind):
                clean.discard(event.seat)
            elif isinstance(event, Chi | Pon | OpenKan):
                clean.discard(event.from_seat)
        return tuple(seat for seat in gaining if seat in clean) or tuple(gaining)


# -- games ----------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Part:
    """One tenhou.net/6 object, decoded: its rounds, and the object for its header values."""

    obj: dict[str, Any]
    place: str
    players: int
    rounds: list[Round]

    @property
    def key(self) -> object:
        """What objects of one game share: the log id, else the player names."""
        ref = self.obj.get("ref")
        return ref if isinstance(ref, str) and ref else repr(self.obj.get("name"))


def _load(data: bytes) -> list[tuple[Any, str]]:
    """Every top-level JSON value (one, an array's items, or JSON lines), each with the prefix
    that names its place in error messages."""
    try:
        text = data.decode("utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig")
    except UnicodeDecodeError as error:
        raise MalformedLogError(f"not UTF-8 text ({error.reason} at byte {error.start})") from None
    try:
        value = _json(text)
    except MalformedLogError:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise
        return [(_json(line, f"line {n}"), f"line {n}: ") for n, line in lines]
    if isinstance(value, list):
        return [(item, f"[{i}].") for i, item in enumerate(value)]
    return [(value, "")]


def _json(text: str, where: str | None = None) -> Any:
    """Parse JSON, refusing what Python's parser accepts beyond it (NaN, Infinity)."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        place = where or f"line {error.lineno}"
        raise MalformedLogError(
            f"not valid JSON ({error.msg}, column {error.colno})", place
        ) from None
    except RecursionError:
        raise MalformedLogError("JSON nested too deeply", where) from None
    except ValueError as error:
        raise MalformedLogError(str(error), where) from None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _part(obj: Any, prefix: str) -> _Part:
    """Decode one object's rounds. Sanma: ``三`` in ``rule.disp`` (or ``ratingc`` PF3), or
    seat 3 without a hand in every round."""
    if not isinstance(obj, dict):
        raise MalformedLogError(
            f"expected a tenhou.net/6 object, got {_kind(obj)}", prefix.rstrip(".: ") or None
        )
    log = _array(obj.get("log"), f"{prefix}log")
    for r, raw in enumerate(log):
        if len(_array(raw, f"{prefix}log[{r}]")) != 17:
            raise MalformedLogError(f"a round has 17 elements, not {len(raw)}", f"{prefix}log[{r}]")
    rule = obj.get("rule", {})
    if not isinstance(rule, dict):
        raise MalformedLogError(f"expected an object, got {_kind(rule)}", f"{prefix}rule")
    disp = _str(rule.get("disp", ""), f"{prefix}rule.disp")
    said_sanma = "三" in disp or obj.get("ratingc") == "PF3"
    no_north = [raw[13] == [] for raw in log]
    if any(no_north) and not all(no_north):
        raise MalformedLogError("seat 3 has a starting hand in some rounds only", f"{prefix}log")
    players = 3 if (log and all(no_north)) or (said_sanma and not log) else 4
    if said_sanma and players == 4:
        raise MalformedLogError(
            f"rule {disp!r} is sanma, but seat 3 has a hand", f"{prefix}log[0][13]"
        )
    rounds = [_RoundData(raw, players, f"{prefix}log[{r}]").read() for r, raw in enumerate(log)]
    return _Part(obj, prefix, players, rounds)


def _games(parts: list[_Part]) -> list[list[_Part]]:
    """Group consecutive parts of one game: same key and seats, rounds going forward (a game's
    (wind, hand, honba) only grows: a repeated hand has one more honba)."""
    games: list[list[_Part]] = []
    for part in parts:
        before = games[-1][-1] if games else None
        if (
            before is not None
            and (part.key, part.players) == (before.key, before.players)
            and (
                not part.rounds
                or not before.rounds
                or _order(part.rounds[0]) > _order(before.rounds[-1])
            )
        ):
            games[-1].append(part)
        else:
            games.append([part])
    return games


def _order(round_: Round) -> tuple[int, int, int]:
    return round_.wind, round_.number, round_.honba


def _game(parts: list[_Part]) -> Game:
    first, last = parts[0], parts[-1]
    obj, prefix, players = first.obj, first.place, first.players
    rounds = tuple(round_ for part in parts for round_ in part.rounds)
    rule: dict[str, Any] = obj.get("rule", {})  # checked by _part
    disp = rule.get("disp", "")
    _, east_only, kuitan, red = _disp_rules(disp)
    if not _is_tenhou_disp(disp):  # a converter's text: the aka flags say, else yes
        flags = [rule[key] for key in ("aka", "aka51", "aka52", "aka53") if key in rule]
        red = any(flags) if flags else True
    red = red or any(_shows_red(round_) for round_ in rounds)
    ruleset = tenhou_ruleset(three_player=players == 3, east_only=east_only, red=red, kuitan=kuitan)
    # Not every flag combination is a preset: the nearest one (seats and length) with options.
    nearest = tenhou_ruleset(three_player=players == 3, east_only=east_only)
    ruleset_name, overrides = as_preset(ruleset, nearest)
    ref = (_str(obj["ref"], f"{prefix}ref") or None) if "ref" in obj else None
    header = GameHeader(
        ruleset=ruleset_name,
        rule_overrides=overrides,
        players=_players(obj, players, prefix),
        source=Source(format=NAME, id=ref, extra=_extra(obj, rule)),
        started_at=_started_at(ref),
    )
    final = _final(last.obj.get("sc"), rounds[-1] if rounds else None, players, f"{last.place}sc")
    return Game(header=header, rounds=rounds, recorded_final=final)


def _is_tenhou_disp(disp: str) -> bool:
    """Tenhou's lobby text names the length: 東 (east only) or 南 (hanchan)."""
    return "東" in disp or "南" in disp


def _disp_rules(disp: str) -> tuple[bool, bool, bool, bool]:
    """(sanma, east only, open tanyao, red fives) as ``rule.disp`` says them: Tenhou's 三, 東,
    喰, 赤. Another text (a converter's English, or none) means a hanchan with open tanyao and
    red fives unless it says "East"."""
    if _is_tenhou_disp(disp):
        return "三" in disp, "東" in disp, "喰" in disp, "赤" in disp
    return "三" in disp, "east" in disp.lower().split(), True, True


def _shows_red(round_: Round) -> bool:
    """Whether a red five shows: every tile of a round is dealt, drawn or an indicator."""
    return any(tile.red for hand in round_.hands for tile in hand) or any(
        event.tile.red for event in round_.events if isinstance(event, Draw)
    )


def _players(obj: dict[str, Any], players: int, prefix: str) -> tuple[Player, ...]:
    names, dans, rates = (_array(obj.get(key, []), prefix + key) for key in ("name", "dan", "rate"))
    return tuple(
        Player(
            _str(names[seat], f"{prefix}name[{seat}]") if seat < len(names) else "",
            (_str(dans[seat], f"{prefix}dan[{seat}]") if seat < len(dans) else "") or None,
            _number(rates[seat], f"{prefix}rate[{seat}]") if seat < len(rates) else None,
        )
        for seat in range(players)
    )


def _extra(obj: dict[str, Any], rule: dict[str, Any]) -> dict[str, str]:
    """Header values with no field of their own, as strings (the title as its JSON)."""
    extra = {"disp": str(rule["disp"])} if "disp" in rule else {}
    if "lobby" in obj:
        extra["lobby"] = str(obj["lobby"])
    if isinstance(obj.get("title"), list) and any(obj["title"]):
        extra["title"] = json.dumps(obj["title"], ensure_ascii=False)
    if isinstance(obj.get("sx"), list):
        extra["sx"] = ",".join(map(str, obj["sx"]))
    return extra


def _started_at(ref: str | None) -> str | None:
    """Tenhou ids start with the game's date and hour in Japan time (``YYYYMMDDHHgm-``)."""
    if not ref or not ref[:10].isdigit() or ref[10:13] != "gm-":
        return None
    return f"{ref[:4]}-{ref[4:6]}-{ref[6:8]}T{ref[8:10]}:00:00+09:00"


def _final(value: Any, last: Round | None, players: int, where: str) -> FinalResult | None:
    """The final ``sc`` (points, result pairs) when the log's last round ends the game: its end
    scores are the final points but for the leftover riichi sticks, which go to one seat (first
    place). A trimmed log (a few rounds of a game) keeps the whole game's ``sc``: no match."""
    if value is None or last is None:
        return None
    values = _array(value, where)
    if len(values) < 2 * players:
        raise MalformedLogError(f"{len(values)} values, not (points, result) per seat", where)
    points = tuple(_int(values[2 * s], f"{where}[{2 * s}]") for s in range(players))
    results = tuple(_number(values[2 * s + 1], f"{where}[{2 * s + 1}]") for s in range(players))
    end = list(last.scores)
    sticks = last.sticks
    for event in last.events:
        deltas: tuple[int, ...] | None = None
        if isinstance(event, RiichiAccepted):
            end[event.seat] -= 1000
            sticks += 1
        elif isinstance(event, Win):
            deltas = event.recorded.deltas if event.recorded else None
            sticks = 0
        elif isinstance(event, ExhaustiveDraw | AbortiveDraw | NagashiMangan):
            deltas = event.recorded_deltas
        for seat, delta in enumerate(deltas or ()):
            end[seat] += delta
    off = [p - e for p, e in zip(points, end, strict=True) if p != e]
    return FinalResult(points, results) if off in ([], [1000 * sticks]) else None


def read(data: bytes) -> list[Game]:
    """Every game in a tenhou.net/6 file (see the module docstring).

    :raises MalformedLogError: anything that is not tenhou.net/6 JSON, naming the place:
        ``line 3: log[0][11][4]`` is the 5th take of seat 2 in the round on line 3.
    """
    return [_game(group) for group in _games([_part(obj, at) for obj, at in _load(data)])]


def sniff(data: bytes) -> bool:
    """A JSON object (or lines, or an array of them) with a ``log`` member near the start."""
    head = data[:16384]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        head = head.decode("utf-16", "ignore").encode()
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n[")
    return head.startswith(b"{") and b'"log"' in head and b"mjlogs-canonical" not in head


# -- writing --------------------------------------------------------------------------------------


def write(games: Sequence[Game]) -> bytes:
    """Games as tenhou.net/6: one object per game, one game per line.

    :raises UnsupportedLogError: what tenhou.net/6 cannot express: a rule set not Tenhou's, a
        first dealer other than seat 0, a score change outside play.
    :raises MalformedLogError: a record at odds with itself (an added kan with no pon...).
    """
    lines = [
        json.dumps(game_to_json(game), ensure_ascii=False, separators=(",", ":")) for game in games
    ]
    return "".join(line + "\n" for line in lines).encode()


def game_to_json(game: Game) -> dict[str, Any]:
    """The tenhou.net/6 object of one game."""
    header, players = game.header, game.players
    rules = _writable_rules(header, players)
    _, east_only, kuitan, red = rules
    extra = header.source.extra
    disp = extra.get("disp")
    if disp is None or _disp_rules(disp) != rules:  # keep the source's text when it is right
        room, fast = _room(extra.get("go_type", ""))
        disp = ("三" if players == 3 else "") + room + ("東" if east_only else "南")
        disp += ("喰" if kuitan else "") + ("赤" if red else "") + ("速" if fast else "")
    lobby = extra.get("lobby", "0")
    obj: dict[str, Any] = {
        "ver": 2.3,
        "ref": header.source.id or "",
        "log": [_round_to_json(round_, players, i) for i, round_ in enumerate(game.rounds)],
        "ratingc": f"PF{players}",
        "rule": {"disp": disp, "aka53": int(red), "aka52": int(red), "aka51": int(red)},
        "lobby": int(lobby) if lobby.isdigit() else lobby,
    }
    people = header.players
    if any(p.rank is not None for p in people):
        obj["dan"] = _pad([p.rank or "" for p in people], "")
    if any(p.rating is not None for p in people):
        obj["rate"] = _pad([_plain(p.rating or 0.0) for p in people], 0)
    if len(extra.get("sx", "").split(",")) == 4:  # M, F or C (computer): only if the source said
        obj["sx"] = extra["sx"].split(",")
    final = game.recorded_final
    if final is not None:  # (points, result) per seat, the empty sanma seat included
        points = _pad(list(final.scores), 0)
        results = _pad([_plain(result) for result in final.results or (0.0,) * players], 0)
        obj["sc"] = [value for pair in zip(points, results, strict=True) for value in pair]
    obj["name"] = _pad([p.name for p in people], "")
    title = _title(extra.get("title"))
    if title:
        obj["title"] = title
    return obj


def _title(text: str | None) -> list[str] | None:
    """The ``title`` the reader kept as JSON text (a list of strings), if it is one."""
    try:
        title = json.loads(text) if text else None
    except ValueError:
        return None
    return title if isinstance(title, list) and all(isinstance(t, str) for t in title) else None


def _room(go_type: str) -> tuple[str, bool]:
    """The room's mark (般 上 特 鳳) and whether the game was fast, from an mjlog's GO type
    (bits 0x20 tokujou, 0x80 joukyuu, both houou; 0x40 fast); 般 when unknown."""
    bits = int(go_type) if go_type.isdigit() else 0
    return "般上特鳳"[(2 if bits & 0x20 else 0) + (1 if bits & 0x80 else 0)], bool(bits & 0x40)


def _writable_rules(header: GameHeader, players: int) -> tuple[bool, bool, bool, bool]:
    """(sanma, east only, open tanyao, red fives) of a Tenhou rule set; others are refused."""
    preset = PRESETS.get(header.ruleset)
    options = dict(header.rule_overrides)
    red_fives = options.pop("red_fives", preset.red_fives if preset else None)
    kuitan = options.pop("kuitan", preset.kuitan if preset else None)
    if (
        preset is None
        or not preset.name.startswith("tenhou-")
        or options
        or players != preset.players
    ):
        raise UnsupportedLogError(
            f"tenhou.net/6 holds Tenhou games: rule set {header.ruleset!r} with options "
            f"{sorted(header.rule_overrides)} and {players} players is not one"
        )
    if not isinstance(red_fives, list | tuple):
        raise UnsupportedLogError(f"rule option red_fives={red_fives!r} is not three counts")
    return players == 3, preset.length == "east", bool(kuitan), any(red_fives)


def _plain(value: float) -> float | int:
    """Integral floats as integers, as Tenhou writes them (``-19``, ``70.7``)."""
    return int(value) if float(value).is_integer() else value


def _pad(values: list[Any], filler: Any) -> list[Any]:
    """Four entries: sanma arrays keep the empty North seat."""
    return values + [filler] * (4 - len(values))


def _round_to_json(round_: Round, players: int, index: int) -> list[Any]:
    place = f"rounds[{index}] ({round_.name})"
    if round_.dealer != round_.number - 1:
        raise UnsupportedLogError(
            f"{place}: dealer seat {round_.dealer} in hand {round_.number}; Tenhou's first "
            "dealer is seat 0"
        )
    takes: list[list[Any]] = [[] for _ in range(4)]
    discards: list[list[Any]] = [[] for _ in range(4)]
    dora = [_code(tile) for tile in round_.dora_indicators]
    last_draw: list[Tile | None] = [None] * players
    riichi = [False] * players
    pons: dict[tuple[int, int], str] = {}
    wins: list[Win] = []
    end: Event | None = None
    for number, event in enumerate(round_.events):
        where = f"{place} events[{number}]"
        if isinstance(event, Draw):
            takes[event.seat].append(_code(event.tile))
            last_draw[event.seat] = event.tile
            continue
        if isinstance(
            event, Discard | Chi | Pon | OpenKan | ClosedKan | AddedKan | NorthExtraction
        ):
            # the tile just drawn (60) is the seat's own draw right before: nothing between
            drawn, last_draw[event.seat] = last_draw[event.seat], None
        if isinstance(event, Discard):
            tsumogiri = event.tsumogiri and drawn == event.tile
            code = TSUMOGIRI if tsumogiri else _code(event.tile)
            discards[event.seat].append(f"r{code}" if riichi[event.seat] else code)
            riichi[event.seat] = False
        elif isinstance(event, RiichiDeclared):
            riichi[event.seat] = True
        elif isinstance(event, Chi | Pon | OpenKan):
            kind = event.type  # chi, pon, open_kan: CallString's kinds
            offset = (event.from_seat - event.seat) % 4
            if kind == "chi" and offset != 3:
                raise MalformedLogError("a chi from another seat than the left one", where)
            text = format_call(CallString(kind, event.tile, _tenhou_order(event.consumed), offset))
            takes[event.seat].append(text)
            if kind == "pon":
                pons[event.seat, event.tile.kind] = text
            elif kind == "open_kan":
                discards[event.seat].append(DUMMY)
        elif isinstance(event, ClosedKan):
            if len(event.tiles) != 4:
                raise MalformedLogError(f"a closed kan of {len(event.tiles)} tiles", where)
            quad = _tenhou_order(event.tiles)
            discards[event.seat].append(format_call(CallString("closed_kan", quad[3], quad, 0)))
        elif isinstance(event, AddedKan):
            pon = pons.get((event.seat, event.tile.kind))
            if pon is None:
                raise MalformedLogError(f"seat {event.seat} adds {event.tile} to no pon", where)
            discards[event.seat].append(pon.replace("p", "k" + _text(event.tile), 1))
        elif isinstance(event, NorthExtraction):
            discards[event.seat].append("f" + _text(event.tile))
        elif isinstance(event, DoraRevealed):
            dora.append(_code(event.indicator))
        elif isinstance(event, Win):
            wins.append(event)
        elif isinstance(event, ExhaustiveDraw | AbortiveDraw | NagashiMangan):
            end = event
        elif isinstance(event, ScoreChange):
            raise UnsupportedLogError(f"{where}: tenhou.net/6 has no place for a score change")
    out: list[Any] = [
        [4 * round_.wind + round_.number - 1, round_.honba, round_.sticks],
        _pad(list(round_.scores), 0),
        dora,
        [_code(tile) for tile in round_.ura_indicators],
    ]
    for seat in range(4):
        hand = [_code(tile) for tile in _tenhou_order(round_.hands[seat])] if seat < players else []
        out += [hand, takes[seat], discards[seat]]
    return [*out, _result_to_json(round_, wins, end, players, place)]


def _result_to_json(
    round_: Round, wins: list[Win], end: Event | None, players: int, place: str
) -> list[Any]:
    if wins:
        result: list[Any] = [_WON]
        for win in wins:
            recorded = win.recorded or RecordedWin()
            liable = win.seat if recorded.liable is None else recorded.liable
            detail: list[Any] = [win.seat, win.from_seat, liable]
            if recorded.points is not None:
                dealer = win.seat == round_.dealer
                detail.append(
                    format_score(recorded, tsumo=win.tsumo, dealer=dealer, players=players)
                )
                detail += [format_yaku(name, han) for name, han in recorded.yaku or ()]
            result += [_pad(list(recorded.deltas or (0,) * players), 0), detail]
        return result
    if isinstance(end, NagashiMangan):
        return [_NAGASHI, _pad(list(end.recorded_deltas or (0,) * players), 0)]
    if isinstance(end, AbortiveDraw):
        paid = end.recorded_deltas if end.recorded_deltas and any(end.recorded_deltas) else None
        return [_ABORT_LABELS[end.kind], *([_pad(list(paid), 0)] if paid else [])]
    if isinstance(end, ExhaustiveDraw):
        deltas = end.recorded_deltas
        if not (deltas and any(deltas)) and end.recorded_tenpai in ((), tuple(range(players))):
            return ["全員不聴" if end.recorded_tenpai == () else "全員聴牌"]
        return ["流局", _pad(list(deltas), 0)] if deltas is not None else ["流局"]
    raise MalformedLogError(
        f"{place}: the round has no end (a win or a draw); tenhou.net/6 needs one"
    )


FORMAT = Format(
    name=NAME,
    title="tenhou.net/6 JSON",
    extensions=(".json",),
    sniff=sniff,
    read=read,
    write=write,
)
