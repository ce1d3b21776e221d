"""Score a request of ``engine.scoring.request`` with the ``mahjong`` package (2.1.0).

:func:`score_with_mahjong` turns a request into mahjong's inputs (136-ids, ``Meld``,
``HandConfig`` with the rule set's ``OptionalRules``), calls
``HandCalculator.estimate_hand_value`` and returns the result in our schema, so that
:func:`differences` can compare the two engines field by field. The request is parsed here, not
with the engine under test, so that a parsing bug cannot hide on both sides.

Conventions found while matching the two (see the test module for the evidence):

* mahjong lumps North extractions into its ``Dora`` entry (each extracted North is a dora, and
  counts again for each indicator pointing at North); we report ``dora`` (the indicator hits,
  extracted Norths included) and ``kita`` (the extraction count) apart. :func:`normalise`
  merges ours into one ``dora`` entry before comparing.
* mahjong has no liability (pao) and no "discarder" seat: a ron is paid by ``discarder`` unless
  the request names the discarder's seat, which is then used as the payer label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mahjong.constants import AKA_DORAS
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld

Tile = tuple[int, bool]  # (kind in the 34 layout, red five)

WIND_LETTERS = "ESWN"
EAST = 27

# mahjong's OptionalRules per rule set (the facts of engine/rules/presets.py).
_OPTIONS: dict[str, dict[str, Any]] = {
    "tenhou-4p": {"has_double_yakuman": False},
    "majsoul-4p": {"has_double_yakuman": True},
    "tenhou-3p": {"has_double_yakuman": False, "is_three_player": True},
    "majsoul-3p": {"has_double_yakuman": True, "is_three_player": True},
}


def optional_rules(ruleset: str) -> OptionalRules:
    """mahjong's options for one of our presets."""
    base = ruleset.removesuffix("-east")
    if base not in _OPTIONS:
        raise KeyError(f"no mahjong options for rule set {ruleset!r}")
    return OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=True,
        kazoe_limit=HandConstants.KAZOE_LIMITED,
        kiriage=False,
        **_OPTIONS[base],
    )


# mahjong's YakuConfig attribute -> our yaku name. Built from mahjong/hand_calculating/
# yaku_config.py; keyed below by yaku_id, which is what a response carries.
_YAKU_BY_ATTRIBUTE = {
    "tsumo": "menzen_tsumo",
    "riichi": "riichi",
    "ippatsu": "ippatsu",
    "chankan": "chankan",
    "rinshan": "rinshan",
    "haitei": "haitei",
    "houtei": "houtei",
    "daburu_riichi": "double_riichi",
    "renhou": "renhou_mangan",
    "pinfu": "pinfu",
    "tanyao": "tanyao",
    "iipeiko": "iipeikou",
    "haku": "haku",
    "hatsu": "hatsu",
    "chun": "chun",
    "seat_wind_east": "seat_wind_east",
    "seat_wind_south": "seat_wind_south",
    "seat_wind_west": "seat_wind_west",
    "seat_wind_north": "seat_wind_north",
    "round_wind_east": "round_wind_east",
    "round_wind_south": "round_wind_south",
    "round_wind_west": "round_wind_west",
    "round_wind_north": "round_wind_north",
    "sanshoku": "sanshoku",
    "ittsu": "ittsu",
    "chantai": "chanta",
    "honroto": "honroutou",
    "toitoi": "toitoi",
    "sanankou": "sanankou",
    "sankantsu": "sankantsu",
    "sanshoku_douko": "sanshoku_doukou",
    "chiitoitsu": "chiitoitsu",
    "shosangen": "shousangen",
    "honitsu": "honitsu",
    "junchan": "junchan",
    "ryanpeiko": "ryanpeikou",
    "chinitsu": "chinitsu",
    "kokushi": "kokushi",
    "chuuren_poutou": "chuuren",
    "suuankou": "suuankou",
    "daisangen": "daisangen",
    "shosuushi": "shousuushii",
    "ryuisou": "ryuuiisou",
    "suukantsu": "suukantsu",
    "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou",
    "daisuushi": "daisuushii",
    "daburu_kokushi": "kokushi_13",
    "suuankou_tanki": "suuankou_tanki",
    "daburu_chuuren_poutou": "junsei_chuuren",
    "tenhou": "tenhou",
    "chiihou": "chiihou",
    "renhou_yakuman": "renhou",
    "dora": "dora",
    "aka_dora": "aka_dora",
    "ura_dora": "ura_dora",
}
_YAKU_CONFIG = YakuConfig()
YAKU_BY_ID: dict[int, str] = {
    getattr(_YAKU_CONFIG, attribute).yaku_id: name for attribute, name in _YAKU_BY_ATTRIBUTE.items()
}

_ERRORS = {
    HandCalculator.ERR_NO_YAKU: "no_yaku",
    HandCalculator.ERR_HAND_NOT_WINNING: "not_agari",
    HandCalculator.ERR_NO_WINNING_TILE: "invalid_hand",
}

_LIMITS = {
    "": None,
    "mangan": "mangan",
    "haneman": "haneman",
    "baiman": "baiman",
    "sanbaiman": "sanbaiman",
    "kazoe yakuman": "kazoe_yakuman",
    "kazoe sanbaiman": "sanbaiman",
    "yakuman": "yakuman",
    "2x yakuman": "double_yakuman",
    "3x yakuman": "triple_yakuman",
    "4x yakuman": "quadruple_yakuman",
    "5x yakuman": "quintuple_yakuman",
    "6x yakuman": "sextuple_yakuman",
}


def parse_mpsz(text: str) -> list[Tile]:
    """MPSZ notation to (kind, red) tiles, in the order written (0 = red five)."""
    tiles: list[Tile] = []
    digits: list[int] = []
    for char in text.replace(" ", ""):
        if char in "0123456789":
            digits.append(int(char))
            continue
        suit = "mpsz".index(char)
        for digit in digits:
            if suit == 3:
                tiles.append((27 + digit - 1, False))
            else:
                tiles.append((suit * 9 + (4 if digit == 0 else digit - 1), digit == 0))
        digits.clear()
    if digits:
        raise ValueError(f"digits without a suit in {text!r}")
    return tiles


class _Ids:
    """Hands out distinct 136-ids: copy 0 of a five is the red one (16, 52, 88)."""

    def __init__(self, aka: bool) -> None:
        self.aka = aka
        self.used: set[int] = set()

    def take(self, tile: Tile, *, strict: bool = True) -> int:
        kind, red = tile
        if red:
            order: Sequence[int] = (0,)
        elif self.aka and kind * 4 in AKA_DORAS:
            order = (1, 2, 3)
        else:
            order = (0, 1, 2, 3)
        for copy in order:
            tile_id = kind * 4 + copy
            if tile_id not in self.used:
                self.used.add(tile_id)
                return tile_id
        if strict:
            raise ValueError(f"no copy left of tile {tile}")
        # Indicators only matter by kind: reuse a plain copy.
        return kind * 4 + order[-1]


@dataclass
class MahjongInputs:
    """The arguments of ``HandCalculator.estimate_hand_value`` for one request."""

    tiles: list[int]
    win_tile: int
    melds: list[Meld]
    dora: list[int]
    ura: list[int]
    config: HandConfig
    #: Payer label of a ron (the request's discarder seat letter, or "discarder").
    ron_payer: str
    three_player: bool


_MELD_TYPES = {
    "chi": (Meld.CHI, True),
    "pon": (Meld.PON, True),
    "minkan": (Meld.KAN, True),
    "ankan": (Meld.KAN, False),
    "kakan": (Meld.SHOUMINKAN, True),
}


def build_inputs(request: Mapping[str, Any]) -> MahjongInputs:
    """mahjong's inputs for a request (hand tiles include every meld tile, kans with 4)."""
    options = optional_rules(request["ruleset"])
    ids = _Ids(options.has_aka_dora)
    concealed = parse_mpsz(request["hand"])
    concealed_ids = [ids.take(tile) for tile in concealed]
    (win,) = parse_mpsz(request["win"])
    win_id = next(i for tile, i in zip(concealed, concealed_ids, strict=True) if tile == win)
    tiles = list(concealed_ids)
    melds = []
    for meld in request.get("melds", []):
        meld_ids = [ids.take(tile) for tile in parse_mpsz(meld["tiles"])]
        meld_type, opened = _MELD_TYPES[meld["type"]]
        melds.append(Meld(meld_type=meld_type, tiles=meld_ids, opened=opened))
        tiles += meld_ids
    dora = [ids.take(tile, strict=False) for tile in parse_mpsz(request.get("dora", ""))]
    ura = [ids.take(tile, strict=False) for tile in parse_mpsz(request.get("ura", ""))]
    double = bool(request.get("double_riichi"))
    config = HandConfig(
        is_tsumo=bool(request.get("tsumo")),
        is_riichi=bool(request.get("riichi")) or double,
        is_daburu_riichi=double,
        is_ippatsu=bool(request.get("ippatsu")),
        is_rinshan=bool(request.get("rinshan")),
        is_chankan=bool(request.get("chankan")),
        is_haitei=bool(request.get("haitei")),
        is_houtei=bool(request.get("houtei")),
        is_tenhou=bool(request.get("tenhou")),
        is_chiihou=bool(request.get("chiihou")),
        is_renhou=bool(request.get("renhou")),
        player_wind=EAST + WIND_LETTERS.index(request.get("seat_wind", "E")),
        round_wind=EAST + WIND_LETTERS.index(request.get("round_wind", "E")),
        tsumi_number=request.get("honba", 0),
        kyoutaku_number=request.get("sticks", 0),
        num_nuki_dora=request.get("kita", 0),
        options=options,
    )
    return MahjongInputs(
        tiles=tiles,
        win_tile=win_id,
        melds=melds,
        dora=dora,
        ura=ura,
        config=config,
        ron_payer=request.get("discarder") or "discarder",
        three_player=options.is_three_player,
    )


def estimate(inputs: MahjongInputs) -> HandResponse:
    """Run mahjong's calculator on prebuilt inputs."""
    return HandCalculator.estimate_hand_value(
        inputs.tiles,
        inputs.win_tile,
        melds=inputs.melds,
        dora_indicators=inputs.dora,
        config=inputs.config,
        ura_dora_indicators=inputs.ura,
    )


def response_to_dict(response: HandResponse, inputs: MahjongInputs) -> dict[str, Any]:
    """mahjong's response in our result schema (fields that mahjong has no notion of omitted).

    Read it right after :func:`estimate`: dora entries live in the config's yaku objects.
    """
    if response.error:
        return {
            "error": _ERRORS.get(response.error, "invalid_conditions"),
            "message": response.error,
        }
    config = inputs.config
    cost = response.cost
    assert cost is not None and response.yaku is not None
    yaku = []
    yakuman = 0
    for item in response.yaku:
        han = item.han_open if response.is_open_hand and item.han_open else item.han_closed
        yaku.append({"name": YAKU_BY_ID[item.yaku_id], "han": han})
        if item.is_yakuman:
            yakuman += han // 13
    limit = _LIMITS[cost["yaku_level"]]
    if limit == "yakuman" and not yakuman:
        # calculate_scores sets "kazoe yakuman", then its han >= 13 branch overwrites the label
        # with "yakuman": the points are the same, only the name is lost.
        limit = "kazoe_yakuman"
    main = cost["main"] + cost["main_bonus"]
    additional = cost["additional"] + cost["additional_bonus"]
    if config.is_tsumo:
        winner = config.player_wind - EAST
        seats = range(3 if inputs.three_player else 4)
        # The dealer pays main; the other payers pay additional (main too on a dealer's win).
        payments = [
            {"payer": WIND_LETTERS[seat], "amount": main if 0 in (seat, winner) else additional}
            for seat in seats
            if seat != winner
        ]
    else:
        payments = [{"payer": inputs.ron_payer, "amount": main}]
    return {
        "han": response.han,
        "fu": response.fu,
        "yaku": yaku,
        "limit": limit,
        "yakuman": yakuman,
        "payments": payments,
        "sticks": cost["kyoutaku_bonus"],
        "total": cost["total"],
    }


def score_with_mahjong(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score one request with the ``mahjong`` package; the result in our schema."""
    inputs = build_inputs(request)
    return response_to_dict(estimate(inputs), inputs)


def normalise(result: Mapping[str, Any]) -> dict[str, Any]:
    """The fields both engines give, in a comparable form.

    Errors compare by code only. Our ``kita`` entry is merged into ``dora`` as mahjong counts
    it; yaku become a sorted multiset of (name, han).
    """
    if "error" in result:
        return {"error": result["error"]}
    yaku: dict[str, int] = {}
    for item in result["yaku"]:
        name = "dora" if item["name"] == "kita" else item["name"]
        yaku[name] = yaku.get(name, 0) + item["han"]
    return {
        "han": result["han"],
        "fu": result["fu"],
        "yaku": sorted(yaku.items()),
        "limit": result["limit"],
        "yakuman": result["yakuman"],
        "payments": [(p["payer"], p["amount"]) for p in result["payments"]],
        "sticks": result["sticks"],
        "total": result["total"],
    }


#: Fields left out of the comparison for yakuman hands (see the test module): none so far.
YAKUMAN_SKIPPED: frozenset[str] = frozenset()


def differences(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[str]:
    """The fields on which two results (ours, mahjong's) disagree, as readable lines."""
    a, b = normalise(ours), normalise(theirs)
    if "error" in a or "error" in b:
        if a == b:
            return []
        return [f"outcome: ours {a.get('error', 'win')} mahjong {b.get('error', 'win')}"]
    skipped = YAKUMAN_SKIPPED if a["yakuman"] else frozenset()
    return [
        f"{name}: ours {a[name]} mahjong {b[name]}"
        for name in a
        if name not in skipped and a[name] != b[name]
    ]
