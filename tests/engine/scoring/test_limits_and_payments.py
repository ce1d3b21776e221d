"""Base points and limits, and who pays what: ron and tsumo, dealer, honba, sticks, 3-player,
and liability (pao).

The point tables are the standard riichi tables (base = fu x 2^(han+2), mangan from 5 han or a
base of 2000, haneman 6-7, baiman 8-10, sanbaiman 11-12, yakuman 13+), the ron pays 4x base
(6x for the dealer) and a tsumo 1x from each non-dealer and 2x from the dealer, each rounded up
to 100. Unless a test says otherwise the winner sits South in an East round under tenhou-4p.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules import get_ruleset
from engine.scoring import result_to_dict, score_hand
from engine.scoring.limits import base_points, round_up_100, yakuman_limit
from engine.scoring.payments import win_payments
from engine.scoring.request import parse_request, score_request
from engine.tiles import EAST, NORTH, SOUTH, WEST
from tests.engine.scoring.requests import request
from tests.engine.scoring.requests import scored as score

TENHOU = get_ruleset("tenhou-4p")
EMA = get_ruleset("ema-2016")
KIRIAGE = TENHOU.replace(kiriage=True)


def paid(result: dict[str, Any]) -> dict[str, int]:
    """{payer: amount} of a result."""
    return {p["payer"]: p["amount"] for p in result["payments"]}


# -- base points and limits ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("han", "fu", "base"),
    [
        (1, 30, 240),
        (1, 40, 320),
        (1, 50, 400),
        (1, 110, 880),
        (2, 20, 320),
        (2, 25, 400),
        (2, 30, 480),
        (2, 70, 1120),
        (3, 30, 960),
        (3, 40, 1280),
        (3, 60, 1920),
        (4, 25, 1600),
        (4, 30, 1920),
    ],
)
def test_base_points_below_mangan(han: int, fu: int, base: int) -> None:
    assert base_points(han, fu, TENHOU) == (base, None)


@pytest.mark.parametrize(
    ("han", "fu"),
    [(3, 70), (3, 110), (4, 40), (4, 110), (2, 130), (5, 20), (5, 30), (5, 110)],
)
def test_mangan_from_the_2000_cap_or_5_han(han: int, fu: int) -> None:
    assert base_points(han, fu, TENHOU) == (2000, "mangan")


@pytest.mark.parametrize(
    ("han", "base", "limit"),
    [
        (6, 3000, "haneman"),
        (7, 3000, "haneman"),
        (8, 4000, "baiman"),
        (9, 4000, "baiman"),
        (10, 4000, "baiman"),
        (11, 6000, "sanbaiman"),
        (12, 6000, "sanbaiman"),
        (13, 8000, "kazoe_yakuman"),
        (20, 8000, "kazoe_yakuman"),
    ],
)
def test_limits_on_tenhou(han: int, base: int, limit: str) -> None:
    assert base_points(han, 30, TENHOU) == (base, limit)
    assert base_points(han, 110, TENHOU) == (base, limit)


@pytest.mark.parametrize("han", [13, 14, 26])
def test_ema_caps_counted_hands_at_sanbaiman(han: int) -> None:
    assert base_points(han, 40, EMA) == (6000, "sanbaiman")


def test_ema_below_13_is_as_tenhou() -> None:
    for han in range(1, 13):
        assert base_points(han, 40, EMA) == base_points(han, 40, TENHOU)


def test_kiriage_rounds_4h30_and_3h60_up_to_mangan() -> None:
    assert base_points(4, 30, KIRIAGE) == (2000, "mangan")
    assert base_points(3, 60, KIRIAGE) == (2000, "mangan")
    # and nothing else
    assert base_points(4, 25, KIRIAGE) == (1600, None)
    assert base_points(3, 50, KIRIAGE) == (1600, None)
    assert base_points(2, 110, KIRIAGE) == (1760, None)


def test_no_kiriage_by_default() -> None:
    assert base_points(4, 30, TENHOU) == (1920, None)
    assert base_points(3, 60, TENHOU) == (1920, None)


@pytest.mark.parametrize(
    ("multiplier", "base", "name"),
    [(1, 8000, "yakuman"), (2, 16000, "double_yakuman"), (3, 24000, "triple_yakuman")],
)
def test_yakuman_limits(multiplier: int, base: int, name: str) -> None:
    assert yakuman_limit(multiplier) == (base, name)


@pytest.mark.parametrize(("points", "rounded"), [(960, 1000), (1000, 1000), (1001, 1100), (0, 0)])
def test_round_up_100(points: int, rounded: int) -> None:
    assert round_up_100(points) == rounded


# -- the standard payment table ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("han", "fu", "ron", "dealer_ron", "tsumo", "dealer_tsumo"),
    [
        (1, 30, 1000, 1500, (300, 500), 500),
        (1, 40, 1300, 2000, (400, 700), 700),
        (1, 110, 3600, 5300, (900, 1800), 1800),
        (2, 25, 1600, 2400, (400, 800), 800),
        (2, 30, 2000, 2900, (500, 1000), 1000),
        (2, 70, 4500, 6800, (1200, 2300), 2300),
        (3, 30, 3900, 5800, (1000, 2000), 2000),
        (3, 40, 5200, 7700, (1300, 2600), 2600),
        (4, 30, 7700, 11600, (2000, 3900), 3900),
        (5, 30, 8000, 12000, (2000, 4000), 4000),
        (6, 30, 12000, 18000, (3000, 6000), 6000),
        (8, 30, 16000, 24000, (4000, 8000), 8000),
        (11, 30, 24000, 36000, (6000, 12000), 12000),
        (13, 30, 32000, 48000, (8000, 16000), 16000),
    ],
)
def test_payment_table(
    han: int,
    fu: int,
    ron: int,
    dealer_ron: int,
    tsumo: tuple[int, int],
    dealer_tsumo: int,
) -> None:
    base, _ = base_points(han, fu, TENHOU)

    def pays(winner: int, is_tsumo: bool) -> dict[str, int]:
        discarder = None if is_tsumo else (WEST if winner != WEST else NORTH)
        payments = win_payments(
            base, winner=winner, tsumo=is_tsumo, honba=0, ruleset=TENHOU, discarder=discarder
        )
        return {p.payer: p.amount for p in payments}

    assert pays(SOUTH, False) == {"W": ron}
    assert pays(EAST, False) == {"W": dealer_ron}
    assert pays(SOUTH, True) == {"E": tsumo[1], "W": tsumo[0], "N": tsumo[0]}
    assert pays(EAST, True) == {"S": dealer_tsumo, "W": dealer_tsumo, "N": dealer_tsumo}


# -- payments of scored hands --------------------------------------------------------------------

OPEN_TANYAO = ("45688p345678s", "5s", "chi:234m")  # 1 han 30 fu, ron or tsumo
PINFU_TANYAO = ("234m45688p345678s", "5s")  # closed: pinfu tanyao, 2 han 30 fu on a ron


def test_non_dealer_ron_1h30f_is_1000() -> None:
    result = score(*OPEN_TANYAO)
    assert (result["han"], result["fu"]) == (1, 30)
    assert result["payments"] == [{"payer": "discarder", "amount": 1000}]
    assert result["total"] == 1000


def test_dealer_ron_2h30f_is_2900() -> None:
    result = score(*PINFU_TANYAO, seat_wind="E")
    assert (result["han"], result["fu"]) == (2, 30)
    assert paid(result) == {"discarder": 2900}


def test_named_discarder_pays() -> None:
    result = score(*OPEN_TANYAO, discarder="W")
    assert result["payments"] == [{"payer": "W", "amount": 1000}]


def test_non_dealer_tsumo_1h30f_is_300_500() -> None:
    result = score(*OPEN_TANYAO, tsumo=True)
    assert (result["han"], result["fu"]) == (1, 30)
    assert paid(result) == {"E": 500, "W": 300, "N": 300}
    assert result["total"] == 1100


def test_dealer_tsumo_4h30f_is_3900_all() -> None:
    # Riichi, tsumo, tanyao, one dora (indicator 1m -> 2m); kanchan on 4s: 20 + 2 + 2 -> 30 fu.
    result = score("234m45688p345678s", "4s", seat_wind="E", tsumo=True, riichi=True, dora="1m")
    assert (result["han"], result["fu"]) == (4, 30)
    assert paid(result) == {"S": 3900, "W": 3900, "N": 3900}
    assert result["total"] == 11700


def test_dealer_tsumo_4h30f_with_kiriage_is_4000_all() -> None:
    data = request("234m45688p345678s", "4s", seat_wind="E", tsumo=True, riichi=True, dora="1m")
    hand, _ = parse_request(data)
    result = result_to_dict(score_hand(hand, KIRIAGE))
    assert result["limit"] == "mangan"
    assert paid(result) == {"S": 4000, "W": 4000, "N": 4000}


def test_non_dealer_mangan_tsumo_is_2000_4000() -> None:
    # Riichi, tsumo, pinfu, tanyao, one dora.
    result = score(*PINFU_TANYAO, tsumo=True, riichi=True, dora="1m")
    assert result["han"] == 5
    assert result["limit"] == "mangan"
    assert paid(result) == {"E": 4000, "W": 2000, "N": 2000}
    assert result["total"] == 8000


def test_honba_on_a_ron_is_300_each() -> None:
    assert score(*OPEN_TANYAO, honba=2)["total"] == 1600
    assert paid(score(*OPEN_TANYAO, honba=2, discarder="N")) == {"N": 1600}


def test_honba_on_a_tsumo_is_100_from_each_payer() -> None:
    result = score(*OPEN_TANYAO, tsumo=True, honba=2)
    assert paid(result) == {"E": 700, "W": 500, "N": 500}
    assert result["total"] == 1700


def test_riichi_sticks_go_to_the_winner_outside_the_payments() -> None:
    result = score(*OPEN_TANYAO, sticks=2)
    assert result["sticks"] == 2000
    assert paid(result) == {"discarder": 1000}
    assert result["total"] == 3000


def test_honba_and_sticks_together() -> None:
    result = score(*OPEN_TANYAO, tsumo=True, honba=1, sticks=1)
    assert paid(result) == {"E": 600, "W": 400, "N": 400}
    assert result["total"] == 1400 + 1000


# -- 3-player ------------------------------------------------------------------------------------

SANMA_PINFU = ("99m123456p345789s", "3s")  # pinfu on a ron (ryanmen 45s)
SANMA_KANCHAN = ("99m123456p345789s", "4s")  # tsumo: menzen tsumo, 1 han 30 fu


@pytest.mark.parametrize("ruleset", ["tenhou-3p", "majsoul-3p", "minigame-3p"])
def test_three_player_ron_honba_is_200(ruleset: str) -> None:
    result = score(*SANMA_PINFU, ruleset=ruleset, honba=2)
    assert (result["han"], result["fu"]) == (1, 30)
    assert result["total"] == 1000 + 400


@pytest.mark.parametrize("ruleset", ["tenhou-3p", "majsoul-3p"])
def test_three_player_tsumo_loss_non_dealer(ruleset: str) -> None:
    result = score(*SANMA_KANCHAN, ruleset=ruleset, tsumo=True)
    assert (result["han"], result["fu"]) == (1, 30)
    # Only East and West pay; the absent North's 300 is lost.
    assert paid(result) == {"E": 500, "W": 300}
    assert result["total"] == 800


def test_three_player_tsumo_loss_dealer() -> None:
    result = score(*SANMA_KANCHAN, ruleset="tenhou-3p", tsumo=True, seat_wind="E")
    assert paid(result) == {"S": 500, "W": 500}
    assert result["total"] == 1000


def test_three_player_tsumo_honba_is_100_from_each_of_two_payers() -> None:
    result = score(*SANMA_KANCHAN, ruleset="tenhou-3p", tsumo=True, honba=1)
    assert paid(result) == {"E": 600, "W": 400}


def test_three_player_mangan_tsumo() -> None:
    result = score(*SANMA_PINFU, ruleset="tenhou-3p", tsumo=True, riichi=True, kita=3)
    # riichi, tsumo, pinfu, three Norths: 6 han, haneman 3000/6000 from two payers.
    assert result["limit"] == "haneman"
    assert paid(result) == {"E": 6000, "W": 3000}


# -- pao (liability) -----------------------------------------------------------------------------

DAISANGEN = ("123m44p", "4p", "pon:555z", "pon:666z", "pon:777z")
DAISANGEN_TSUUIISOU = ("111z22z", "2z", "pon:555z", "pon:666z", "pon:777z")


def test_tenhou_pao_tsumo_liable_pays_everything_with_honba() -> None:
    result = score(*DAISANGEN, tsumo=True, pao="W", honba=1)
    assert paid(result) == {"W": 32300}
    assert result["total"] == 32300


def test_tenhou_pao_dealer_tsumo() -> None:
    result = score(*DAISANGEN, seat_wind="E", tsumo=True, pao="N")
    assert paid(result) == {"N": 48000}


def test_tenhou_pao_ron_is_split_with_the_discarder_and_honba_to_the_liable() -> None:
    result = score(*DAISANGEN, discarder="N", pao="W", honba=1)
    assert paid(result) == {"W": 16000 + 300, "N": 16000}
    assert result["total"] == 32300


def test_tenhou_pao_ron_by_the_liable_player_pays_all() -> None:
    result = score(*DAISANGEN, discarder="W", pao="W", honba=1)
    assert paid(result) == {"W": 32300}


def test_tenhou_pao_covers_a_stacked_yakuman_whole() -> None:
    tsumo = score(*DAISANGEN_TSUUIISOU, tsumo=True, pao="W")
    assert paid(tsumo) == {"W": 64000}
    ron = score(*DAISANGEN_TSUUIISOU, discarder="N", pao="W")
    assert paid(ron) == {"W": 32000, "N": 32000}


def test_majsoul_pao_covers_only_the_liable_yakuman_on_tsumo() -> None:
    result = score(*DAISANGEN_TSUUIISOU, ruleset="majsoul-4p", tsumo=True, pao="W")
    # daisangen (32000) from W; tsuuiisou as an ordinary yakuman tsumo: 16000/8000/8000.
    assert paid(result) == {"E": 16000, "W": 32000 + 8000, "N": 8000}
    assert result["total"] == 64000


def test_majsoul_pao_covers_only_the_liable_yakuman_on_ron() -> None:
    result = score(*DAISANGEN_TSUUIISOU, ruleset="majsoul-4p", discarder="N", pao="W")
    # half of daisangen from W; the other half and all of tsuuiisou from the discarder.
    assert paid(result) == {"W": 16000, "N": 16000 + 32000}
    assert result["total"] == 64000


def test_majsoul_single_pao_yakuman_is_as_tenhou() -> None:
    assert paid(score(*DAISANGEN, ruleset="majsoul-4p", tsumo=True, pao="W")) == {"W": 32000}
    assert paid(score(*DAISANGEN, ruleset="majsoul-4p", discarder="N", pao="W")) == {
        "W": 16000,
        "N": 16000,
    }


def test_daisuushii_pao() -> None:
    result = score("55m444z", "5m", "pon:111z", "pon:222z", "pon:333z", tsumo=True, pao="E")
    assert paid(result) == {"E": 32000}


SUUKANTSU = ("88p", "8p", "minkan:2222m", "minkan:3333p", "ankan:4444s", "minkan:6666s")


@pytest.mark.parametrize("ruleset", ["tenhou-4p", "majsoul-4p"])
def test_suukantsu_has_no_pao(ruleset: str) -> None:
    result = score_request(request(*SUUKANTSU, ruleset=ruleset, tsumo=True, pao="W"))
    assert result["error"] == "invalid_conditions"
    assert "pao" in result["message"]


def test_pao_needs_a_pao_yakuman() -> None:
    result = score_request(request("22233355566z", "6z", "pon:111z", tsumo=True, pao="W"))
    assert result["error"] == "invalid_conditions"
    assert "pao" in result["message"]
    result = score_request(request(*OPEN_TANYAO, tsumo=True, pao="W"))
    assert result["error"] == "invalid_conditions"


def test_pao_ron_must_name_the_discarder() -> None:
    result = score_request(request(*DAISANGEN, pao="W"))
    assert result["error"] == "invalid_conditions"
    assert "discarder" in result["message"]


def test_pao_cannot_be_the_winner() -> None:
    result = score_request(request(*DAISANGEN, tsumo=True, pao="S"))
    assert result["error"] == "invalid_conditions"


def test_ema_pao_ron_the_discarder_pays_the_counters() -> None:
    # EMA 2016: on a ron the liable player and the discarder split the hand, and the discarder
    # pays the counters (replay-checklist: "EMA: on ron, the discarder pays the counters").
    result = score(*DAISANGEN, ruleset="ema-2016", discarder="N", pao="W", honba=1)
    assert paid(result) == {"W": 16000, "N": 16000 + 300}


def test_minigame_pao_covers_the_whole_hand() -> None:
    result = score(*DAISANGEN_TSUUIISOU, ruleset="minigame-4p", tsumo=True, pao="W")
    assert paid(result) == {"W": 64000}


# -- tsumo arithmetic: one definition, checked against the per-seat shares ----------------------


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("players", [3, 4])
def test_tsumo_total_is_the_sum_of_the_shares(players: int, split: bool) -> None:
    from engine.rules import SanmaTsumo
    from engine.scoring.payments import tsumo_shares, tsumo_total

    ruleset = (get_ruleset("tenhou-3p") if players == 3 else TENHOU).replace(
        sanma_tsumo=SanmaTsumo.SPLIT if split else SanmaTsumo.LOSS
    )
    for base in (240, 320, 480, 960, 1280, 1920, 2000, 3000, 4000, 8000, 16000):
        for winner in range(EAST, EAST + players):
            shares = tsumo_shares(base, winner, ruleset)
            assert len(shares) == players - 1
            assert tsumo_total(base, winner == EAST, ruleset) == sum(shares.values())


def test_sanma_split_tsumo_shares_the_north_payment() -> None:
    from engine.rules import SanmaTsumo

    split = get_ruleset("tenhou-3p").replace(sanma_tsumo=SanmaTsumo.SPLIT)
    # Non-dealer mangan: 2000/4000 with four players; North's 2000 is split 1000/1000.
    payments = win_payments(2000, winner=SOUTH, tsumo=True, honba=0, ruleset=split)
    assert {p.payer: p.amount for p in payments} == {"E": 5000, "W": 3000}
    # Dealer mangan: 4000 all; North's 4000 is split 2000/2000.
    payments = win_payments(2000, winner=EAST, tsumo=True, honba=0, ruleset=split)
    assert {p.payer: p.amount for p in payments} == {"S": 6000, "W": 6000}


@pytest.mark.parametrize("ruleset", ["tenhou-3p", "majsoul-3p"])
def test_sanma_pao_tsumo_the_liable_player_pays_what_the_tsumo_is_worth(ruleset: str) -> None:
    # With tsumo loss a dealer's yakuman tsumo is 16,000 from each of two payers: the liable
    # player pays those 32,000 (not the 48,000 of a ron), and the honba as the payers would.
    hand = ("123p44s", "4s", "pon:555z", "pon:666z", "pon:777z")
    dealer = score(*hand, ruleset=ruleset, seat_wind="E", tsumo=True, pao="W", honba=1)
    assert paid(dealer) == {"W": 32000 + 200}
    other = score(*hand, ruleset=ruleset, seat_wind="S", tsumo=True, pao="W")
    assert paid(other) == {"W": 16000 + 8000}
