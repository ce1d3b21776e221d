"""The yaku and yakuman of riichi mahjong: names, han values and readable titles.

Names are stable identifiers (romanised Japanese, snake case) used in results, the canonical
format and statistics. Han values are ``(closed, open)``; an open value of 0 means the yaku needs
a closed hand. Yakuman have a multiplier instead of han (reported as 13 han per yakuman).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class YakuInfo:
    """Static facts about one yaku."""

    name: str
    closed_han: int
    open_han: int
    english: str
    japanese: str
    yakuman: bool = False


def _yaku(name: str, closed: int, opened: int, english: str, japanese: str) -> YakuInfo:
    return YakuInfo(name, closed, opened, english, japanese)


def _yakuman(name: str, english: str, japanese: str) -> YakuInfo:
    return YakuInfo(name, 13, 13, english, japanese, yakuman=True)


_TABLE: Final = (
    _yaku("menzen_tsumo", 1, 0, "Fully concealed hand", "門前清自摸和"),
    _yaku("riichi", 1, 0, "Riichi", "立直"),
    _yaku("ippatsu", 1, 0, "Ippatsu", "一発"),
    _yaku("chankan", 1, 1, "Robbing a kan", "槍槓"),
    _yaku("rinshan", 1, 1, "After a kan", "嶺上開花"),
    _yaku("haitei", 1, 1, "Under the sea", "海底摸月"),
    _yaku("houtei", 1, 1, "Under the river", "河底撈魚"),
    _yaku("pinfu", 1, 0, "Pinfu", "平和"),
    _yaku("tanyao", 1, 1, "All simples", "断幺九"),
    _yaku("iipeikou", 1, 0, "Pure double sequence", "一盃口"),
    _yaku("seat_wind_east", 1, 1, "Seat wind East", "自風 東"),
    _yaku("seat_wind_south", 1, 1, "Seat wind South", "自風 南"),
    _yaku("seat_wind_west", 1, 1, "Seat wind West", "自風 西"),
    _yaku("seat_wind_north", 1, 1, "Seat wind North", "自風 北"),
    _yaku("round_wind_east", 1, 1, "Round wind East", "場風 東"),
    _yaku("round_wind_south", 1, 1, "Round wind South", "場風 南"),
    _yaku("round_wind_west", 1, 1, "Round wind West", "場風 西"),
    _yaku("round_wind_north", 1, 1, "Round wind North", "場風 北"),
    _yaku("haku", 1, 1, "White dragon", "役牌 白"),
    _yaku("hatsu", 1, 1, "Green dragon", "役牌 發"),
    _yaku("chun", 1, 1, "Red dragon", "役牌 中"),
    _yaku("double_riichi", 2, 0, "Double riichi", "両立直"),
    _yaku("chiitoitsu", 2, 0, "Seven pairs", "七対子"),
    _yaku("chanta", 2, 1, "Half outside hand", "混全帯幺九"),
    _yaku("ittsu", 2, 1, "Pure straight", "一気通貫"),
    _yaku("sanshoku", 2, 1, "Mixed triple sequence", "三色同順"),
    _yaku("sanshoku_doukou", 2, 2, "Triple triplets", "三色同刻"),
    _yaku("sankantsu", 2, 2, "Three kans", "三槓子"),
    _yaku("toitoi", 2, 2, "All triplets", "対々和"),
    _yaku("sanankou", 2, 2, "Three concealed triplets", "三暗刻"),
    _yaku("shousangen", 2, 2, "Little three dragons", "小三元"),
    _yaku("honroutou", 2, 2, "All terminals and honours", "混老頭"),
    _yaku("ryanpeikou", 3, 0, "Twice pure double sequence", "二盃口"),
    _yaku("junchan", 3, 2, "Fully outside hand", "純全帯幺九"),
    _yaku("honitsu", 3, 2, "Half flush", "混一色"),
    _yaku("chinitsu", 6, 5, "Full flush", "清一色"),
    _yaku("renhou_mangan", 5, 0, "Blessing of man (mangan)", "人和"),
    # Space mahjong: honours called as honour runs; the han are the rule set's
    # open_kokushi_han (3 by default).
    _yaku("open_kokushi", 0, 3, "Open thirteen orphans", "鳴き国士無双"),
    _yaku("dora", 0, 0, "Dora", "ドラ"),
    _yaku("aka_dora", 0, 0, "Red fives", "赤ドラ"),
    _yaku("ura_dora", 0, 0, "Ura dora", "裏ドラ"),
    _yaku("kita", 0, 0, "North extraction", "抜きドラ"),
    _yakuman("kokushi", "Thirteen orphans", "国士無双"),
    _yakuman("kokushi_13", "Thirteen orphans, 13-sided wait", "国士無双十三面待ち"),
    _yakuman("suuankou", "Four concealed triplets", "四暗刻"),
    _yakuman("suuankou_tanki", "Four concealed triplets, single wait", "四暗刻単騎"),
    _yakuman("daisangen", "Big three dragons", "大三元"),
    _yakuman("shousuushii", "Little four winds", "小四喜"),
    _yakuman("daisuushii", "Big four winds", "大四喜"),
    _yakuman("tsuuiisou", "All honours", "字一色"),
    _yakuman("chinroutou", "All terminals", "清老頭"),
    _yakuman("ryuuiisou", "All green", "緑一色"),
    _yakuman("chuuren", "Nine gates", "九蓮宝燈"),
    _yakuman("junsei_chuuren", "Pure nine gates", "純正九蓮宝燈"),
    _yakuman("suukantsu", "Four kans", "四槓子"),
    _yakuman("tenhou", "Blessing of heaven", "天和"),
    _yakuman("chiihou", "Blessing of earth", "地和"),
    _yakuman("renhou", "Blessing of man", "人和"),
)

#: Every yaku by name.
YAKU: Final[dict[str, YakuInfo]] = {info.name: info for info in _TABLE}

#: Names of the dora-like entries: they add han but are not yaku (a hand needs a real yaku).
DORA_NAMES: Final = frozenset({"dora", "aka_dora", "ura_dora", "kita"})

SEAT_WIND_YAKU: Final = ("seat_wind_east", "seat_wind_south", "seat_wind_west", "seat_wind_north")
ROUND_WIND_YAKU: Final = (
    "round_wind_east",
    "round_wind_south",
    "round_wind_west",
    "round_wind_north",
)
DRAGON_YAKU: Final = ("haku", "hatsu", "chun")
