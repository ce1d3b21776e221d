"""Our scoring and tenpai detection against RiichiEnv's fixtures (Mahjong Soul results).

The fixtures live outside the repository, in ``../shared/fixtures/riichienv/`` (copied from
RiichiEnv's ``riichienv-core/benches/data/``, Apache-2.0; see ``SOURCE.txt`` there); the tests
are skipped when the folder is absent.

* ``agari_4p.json`` (816 wins) and ``agari_3p.json`` (402 wins): 136-id hands with melds,
  indicators and conditions, and the expected han, fu and yaku as Mahjong Soul ids. Scored with
  the ``majsoul-4p`` / ``majsoul-3p`` presets. ``tsumo_first_turn`` is tenhou for the dealer and
  chiihou otherwise. A handful of hand-written cases (803-815 of the 4-player file) give 14
  tiles in ``tiles_136`` (the winning tile included) or reuse the winning tile's id; tiles are
  taken by kind, so both forms read the same.
* Fu of yakuman hands: the fixtures say 0 (Mahjong Soul shows no fu on a yakuman); we report
  the fu of the chosen reading, as the ``mahjong`` package does. Fu is compared on the other
  hands only; han is compared everywhere.
* Yaku: Mahjong Soul's fan ids, as below. The ids were checked against the data itself (for
  example every hand with ``ippatsu`` lists 30, every haitei 5, the hand-written yakuman cases
  name their yakuman). Dora, red fives, ura dora and North extractions are listed once whatever
  their count, so yaku are compared as sets of ids.
* ``hands_negative.json`` (200 13-tile hands): ``waits(counts)`` is non-empty exactly when
  ``is_tenpai``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.hand.decompose import waits
from engine.scoring.request import score_request
from tests.engine.scoring.hands import format_tiles

FIXTURES = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures" / "riichienv"

pytestmark = pytest.mark.skipif(
    not FIXTURES.is_dir(), reason=f"RiichiEnv fixtures not found in {FIXTURES.resolve()}"
)

#: Mahjong Soul fan ids of our yaku names.
MAJSOUL_YAKU_IDS: dict[str, int] = {
    "menzen_tsumo": 1,
    "riichi": 2,
    "chankan": 3,
    "rinshan": 4,
    "haitei": 5,
    "houtei": 6,
    "haku": 7,
    "hatsu": 8,
    "chun": 9,
    "seat_wind_east": 10,
    "seat_wind_south": 10,
    "seat_wind_west": 10,
    "seat_wind_north": 10,
    "round_wind_east": 11,
    "round_wind_south": 11,
    "round_wind_west": 11,
    "round_wind_north": 11,
    "tanyao": 12,
    "iipeikou": 13,
    "pinfu": 14,
    "chanta": 15,
    "ittsu": 16,
    "sanshoku": 17,
    "double_riichi": 18,
    "sanshoku_doukou": 19,
    "sankantsu": 20,
    "toitoi": 21,
    "sanankou": 22,
    "shousangen": 23,
    "honroutou": 24,
    "chiitoitsu": 25,
    "junchan": 26,
    "honitsu": 27,
    "ryanpeikou": 28,
    "chinitsu": 29,
    "ippatsu": 30,
    "dora": 31,
    "aka_dora": 32,
    "ura_dora": 33,
    "kita": 34,
    "tenhou": 35,
    "chiihou": 36,
    "daisangen": 37,
    "suuankou": 38,
    "tsuuiisou": 39,
    "ryuuiisou": 40,
    "chinroutou": 41,
    "kokushi": 42,
    "shousuushii": 43,
    "suukantsu": 44,
    "chuuren": 45,
    "junsei_chuuren": 47,
    "suuankou_tanki": 48,
    "kokushi_13": 49,
    "daisuushii": 50,
}

_MELD_TYPES = {
    "chi": "chi",
    "pon": "pon",
    "daiminkan": "minkan",
    "ankan": "ankan",
    "kakan": "kakan",
}
_RED_IDS = frozenset({16, 52, 88})
WIND_LETTERS = "ESWN"


def _mpsz(ids: list[int]) -> str:
    return format_tiles([(tile_id // 4, tile_id in _RED_IDS) for tile_id in ids])


def case_request(case: dict[str, Any]) -> dict[str, Any]:
    """Our scoring request for one fixture case."""
    conditions = case["conditions"]
    three_player = conditions["is_sanma"]
    tiles = list(case["tiles_136"])
    win = case["win_tile_136"]
    melds = case["melds"]
    if len(tiles) == 13 - 3 * len(melds):
        tiles.append(win)
    elif len(tiles) != 14 - 3 * len(melds):
        raise ValueError(f"{len(tiles)} tiles with {len(melds)} melds")
    seat = conditions["player_wind"]
    request: dict[str, Any] = {
        "ruleset": "majsoul-3p" if three_player else "majsoul-4p",
        "hand": _mpsz(tiles),
        "win": _mpsz([win]),
        "melds": [
            {"type": _MELD_TYPES[meld["meld_type"]], "tiles": _mpsz(meld["tiles"])}
            for meld in melds
        ],
        "dora": _mpsz(case["dora_indicators"]),
        "ura": _mpsz(case["ura_indicators"]),
        "seat_wind": WIND_LETTERS[seat],
        "round_wind": WIND_LETTERS[conditions["round_wind"]],
        "honba": conditions["honba"],
    }
    for flag in (
        "tsumo",
        "riichi",
        "double_riichi",
        "ippatsu",
        "haitei",
        "houtei",
        "rinshan",
        "chankan",
    ):
        if conditions[flag]:
            request[flag] = True
    if conditions["tsumo_first_turn"]:
        request["tenhou" if seat == 0 else "chiihou"] = True
    if conditions["kita_count"]:
        request["kita"] = conditions["kita_count"]
    return request


@cache
def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((FIXTURES / name).read_text())["cases"]
    return cases


def compare_case(case: dict[str, Any]) -> list[str]:
    """How our result differs from the expected one (empty when it matches)."""
    expected = case["expected"]
    ours = score_request(case_request(case))
    if "error" in ours:
        return [f"ours {ours['error']}: {ours['message']}; expected {expected}"]
    problems = []
    if ours["han"] != expected["han"]:
        problems.append(f"han {ours['han']} != {expected['han']}")
    if not ours["yakuman"] and ours["fu"] != expected["fu"]:
        problems.append(f"fu {ours['fu']} != {expected['fu']}")
    ids = {MAJSOUL_YAKU_IDS[item["name"]] for item in ours["yaku"]}
    if ids != set(expected["yaku"]):
        problems.append(f"yaku ids {sorted(ids)} != {sorted(expected['yaku'])}")
    return problems


def _report(name: str) -> list[str]:
    lines = []
    for index, case in enumerate(_cases(name)):
        problems = compare_case(case)
        if problems:
            request = json.dumps(case_request(case), separators=(",", ":"))
            lines.append(f"{name}[{index}]: {'; '.join(problems)}\n  {request}")
    return lines


@pytest.mark.parametrize(("name", "count"), [("agari_4p.json", 816), ("agari_3p.json", 402)])
def test_agari_fixtures(name: str, count: int) -> None:
    assert len(_cases(name)) == count
    mismatches = _report(name)
    assert not mismatches, f"{len(mismatches)} of {count} cases differ:\n" + "\n".join(mismatches)


def test_yaku_id_table_matches_the_data() -> None:
    """A few facts that pin the id table to the data, not to memory."""
    cases = _cases("agari_4p.json") + _cases("agari_3p.json")
    for case in cases:
        ids = set(case["expected"]["yaku"])
        conditions = case["conditions"]
        yakuman = case["expected"]["han"] >= 13 and case["expected"]["fu"] == 0
        if conditions["ippatsu"] and not yakuman:
            assert 30 in ids
        if conditions["haitei"] and not yakuman:
            assert 5 in ids
        if conditions["houtei"] and not yakuman:
            assert 6 in ids
        if conditions["kita_count"] and not yakuman:
            assert 34 in ids
        if 1 in ids:
            assert conditions["tsumo"]
        if 2 in ids:
            assert conditions["riichi"]


def test_tenpai_fixtures() -> None:
    cases = _cases("hands_negative.json")
    assert len(cases) == 200
    wrong = [
        (index, case["counts_34"], case["is_tenpai"])
        for index, case in enumerate(cases)
        if bool(waits(case["counts_34"])) != case["is_tenpai"]
    ]
    assert all(sum(case["counts_34"]) == 13 for case in cases)
    assert not wrong, f"{len(wrong)} of 200 differ: {wrong}"


@pytest.mark.parametrize("name", ["agari_4p.json", "agari_3p.json"])
def test_mahjong_package_agrees_on_fixtures(name: str) -> None:
    """Third opinion: the ``mahjong`` package scores every fixture as we do (every field)."""
    from tests.engine.scoring.mahjong_adapter import differences, score_with_mahjong

    mismatches = []
    for index, case in enumerate(_cases(name)):
        request = case_request(case)
        found = differences(score_request(request), score_with_mahjong(request))
        if found:
            mismatches.append(f"{name}[{index}]: {'; '.join(found)}")
    assert not mismatches, "\n".join(mismatches)
