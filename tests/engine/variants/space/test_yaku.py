"""Yaku on the space shapes beyond the document's own hands (docs/variants/space.md, "Yaku").

Points are worked out by hand in the comments: a ron by South (a non-dealer) on East's discard,
East round, no dora.
"""

from __future__ import annotations

from tests.engine.variants.space.helpers import ron, yaku_of


def test_sanshoku_of_wrapped_runs() -> None:
    # 891m 891p 891s 456m 55p, closed, ron on 6m (45m waited on 3m and 6m): sanshoku 2 + pinfu
    # 1 = 3 han 30 fu = 30 * 2^5 * 4 = 3840 -> 3900.
    result = ron("891m891p891s45m55p6m", "6m")
    assert yaku_of(result) == {"pinfu": 1, "sanshoku": 2}
    assert result["total"] == 3900


def test_iipeikou_of_wrapped_runs() -> None:
    # 912m twice, 345p, 678s, 55s, closed, ron on 3p (45p: two-sided): iipeikou 1 + pinfu 1 =
    # 2 han 30 fu = 30 * 2^4 * 4 = 1920 -> 2000.
    result = ron("112299m45p678s55s3p", "3p")
    assert yaku_of(result) == {"pinfu": 1, "iipeikou": 1}
    assert result["total"] == 2000


def test_all_honours_may_hold_honour_runs() -> None:
    # 123z 234z 567z 555z 66z, won on 7z: every tile an honour, so tsuuiisou (a yakuman by its
    # tiles: docs/variants/space.md), 32000.
    result = ron("123z234z56z555z66z7z", "7z")
    assert yaku_of(result) == {"tsuuiisou": 13}
    assert result["total"] == 32000


def test_an_honour_run_is_no_value_set() -> None:
    # 567z 123z are runs: no dragon or wind yaku, no fu. 234m 456p 567z 123z 99s, closed, ron on
    # 1z (23z waited on 1z and 4z, two-sided): pinfu alone, 1000.
    result = ron("234m456p567z23z99s1z", "1z")
    assert yaku_of(result) == {"pinfu": 1}
    assert (result["fu"], result["total"]) == (30, 1000)
    # The same with 555z a triplet instead: haku, and no pinfu (a triplet). 20 + 10 (closed
    # ron) + 8 (closed honour triplet) = 38 -> 40 fu; 1 han 40 fu = 1280 -> 1300.
    result = ron("234m456p555z23z99s1z", "1z")
    assert yaku_of(result) == {"haku": 1}
    assert (result["fu"], result["total"]) == (40, 1300)


def test_open_kokushi_adds_dora_and_situational_yaku_but_not_honroutou() -> None:
    # seeds/000 line 64's hand won on the last discard (houtei) with 1z as the dora (indicator
    # 4z): open_kokushi 3 + houtei 1 + dora 1 = 5 han, mangan, 8000.
    melds = (("chi", "234z"), ("chi", "657z"))
    result = ron("19m19p119s1z", "1z", melds=melds, houtei=True, dora="4z")
    assert yaku_of(result) == {"open_kokushi": 3, "houtei": 1, "dora": 1}
    assert result["total"] == 8000
