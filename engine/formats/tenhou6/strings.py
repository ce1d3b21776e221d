"""tenhou.net/6 text: score strings, yaku strings, result labels and the lobby/rule text
(``rule.disp``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine.errors import MalformedLogError
from engine.events import AbortKind, RecordedWin
from engine.rules.yaku import ROUND_WIND_YAKU, SEAT_WIND_YAKU, YAKU

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
        # Tenhou: full-width 13; Mahjong Soul's English name last
        "kokushi_13": (
            "国士無双１３面",
            "国士無双13面",
            "国士無双十三面",
            "thirteen-wait thirteen orphans",
        ),
        "haku": ("白",),
        "hatsu": ("發", "発", "役牌 発"),
        "chun": ("中",),
        # The English of Mahjong Soul converters where it differs from engine.rules.yaku's
        "menzen_tsumo": ("fully concealed hand", "self-draw", "menzen tsumo"),
        "tanyao": ("all simples", "tanyao"),
        "ura_dora": ("ura dora", "uradora"),
        "aka_dora": ("red five", "red fives", "aka dora", "akadora"),
        "kita": ("north", "kita"),  # "Kita": Mahjong Soul's English name of 抜きドラ
        "rinshan": ("rinshan kaihou",),
        "sankantsu": ("three quads",),
        "suukantsu": ("four quads",),
        "tsuuiisou": ("all honors",),
        "honroutou": ("all terminals and honors",),
        # 人和(役満) is renhou: see parse_yaku. "Hand of Man": Mahjong Soul's English of its 人和.
        "renhou_mangan": ("人和", "blessing of man", "hand of man"),
        # Mahjong Soul's own names (its fan table's name_jp and name_en, which tensoul writes:
        # Equim-chan/tensoul data.json) where they differ from Tenhou's and the above.
        "double_riichi": ("ダブル立直",),
        "shousuushii": ("four little winds",),
        "daisuushii": ("four big winds",),
        "junsei_chuuren": ("true nine gates",),
        "suuankou_tanki": ("single-wait four concealed triplets",),
    }
    for name, texts in aliases.items():
        labels.update((_key(text), name) for text in texts)
    return labels


_YAKU_BY_LABEL: Final = _yaku_by_label()
#: Labels that say "seat wind" or "round wind" without which wind (Mahjong Soul converters
#: write them as Mahjong Soul names them: 役牌:自風牌, 役牌:場風牌).
_SEAT_WIND: Final = frozenset({"自風", "自風牌", "門風牌", "seat wind"})
_ROUND_WIND: Final = frozenset({"場風", "場風牌", "圏風牌", "prevalent wind", "round wind"})
#: The prefix Mahjong Soul gives every yakuhai (役牌:白, 役牌:場風牌), with either colon.
_YAKUHAI_PREFIXES: Final = ("役牌:", "役牌\uff1a", "役牌 ")  # (\uff1a: the full-width colon)
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
    for prefix in _YAKUHAI_PREFIXES:
        if label.startswith(prefix) and label not in _YAKU_BY_LABEL:
            label = label.removeprefix(prefix).strip()
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


# -- result labels --------------------------------------------------------------------------------

ABORTS: Final = {
    "九種九牌": AbortKind.NINE_TERMINALS,
    "四風連打": AbortKind.FOUR_WINDS,
    "四家立直": AbortKind.FOUR_RIICHI,
    "四槓散了": AbortKind.FOUR_KANS,
    "四開槓": AbortKind.FOUR_KANS,  # tensoul's word
    "三家和了": AbortKind.TRIPLE_RON,
    "三家和": AbortKind.TRIPLE_RON,  # Mahjong Soul converters' word
}
#: Each kind's first label above (Tenhou's): reversed, so that it is the one kept.
ABORT_LABELS: Final = {kind: label for label, kind in reversed(ABORTS.items())}
DRAWN: Final = frozenset({"流局", "全員聴牌", "全員不聴"})
NAGASHI: Final = "流し満貫"
WON: Final = "和了"
#: The English words Mahjong Soul converters write for the result labels, as Tenhou's word.
#: tensoul (Equim-chan/tensoul ``convert.js``, ``RUNES``: its romaji and English columns, chosen
#: by ``NAMEPREF``) and the converters copied from it write them in a round's result. Keys are
#: lower case with single spaces (:func:`result_label`).
ENGLISH_LABELS: Final = {
    "agari": WON,
    "ryuukyoku": "流局",
    "exhaustive draw": "流局",
    "nagashi mangan": NAGASHI,
    "mangan at draw": NAGASHI,
    "suukaikan": "四開槓",
    "four kan abortion": "四開槓",
    "sanchahou": "三家和",
    "three ron abortion": "三家和",
    "kyuushu kyuuhai": "九種九牌",
    "nine terminal abortion": "九種九牌",
    "suufon renda": "四風連打",
    "four wind abortion": "四風連打",
    "suucha riichi": "四家立直",
    "four riichi abortion": "四家立直",
}


def result_label(text: str) -> str:
    """A round result's label as Tenhou writes it: Tenhou's own words as they are, a
    converter's English (:data:`ENGLISH_LABELS`) as Tenhou's word of the same meaning."""
    return ENGLISH_LABELS.get(" ".join(text.split()).lower(), text)


# -- lobby and rule text --------------------------------------------------------------------------


def is_tenhou_disp(disp: str) -> bool:
    """Tenhou's lobby text names the length: 東 (east only) or 南 (hanchan)."""
    return "東" in disp or "南" in disp


def disp_rules(disp: str) -> tuple[bool, bool, bool, bool]:
    """(sanma, east only, open tanyao, red fives) as ``rule.disp`` says them: Tenhou's 三, 東,
    喰, 赤. Another text (a converter's English, or none) means a hanchan with open tanyao and
    red fives unless it says "East"."""
    if is_tenhou_disp(disp):
        return "三" in disp, "東" in disp, "喰" in disp, "赤" in disp
    return "三" in disp, "east" in disp.lower().split(), True, True


def room_of(go_type: str) -> tuple[str, bool]:
    """The room's mark (般 上 特 鳳) and whether the game was fast, from an mjlog's GO type
    (bits 0x20 tokujou, 0x80 joukyuu, both houou; 0x40 fast); 般 when unknown."""
    bits = int(go_type) if go_type.isdigit() else 0
    return "般上特鳳"[(2 if bits & 0x20 else 0) + (1 if bits & 0x80 else 0)], bool(bits & 0x40)
