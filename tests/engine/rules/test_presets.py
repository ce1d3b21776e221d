"""Rule-set presets: every named preset exists and carries the rules of its platform.

The expected values come from the platforms' published rules (Tenhou's manual, Mahjong Soul's
ranked rules, EMA Riichi Competition Rules 2016, WRC 2015) and the mini-game's rule list in
``seeds/001`` -- one test per difference, so a preset that drifts fails by name.
"""

from __future__ import annotations

import json

import pytest

from engine.errors import UnknownRulesetError
from engine.rules import (
    DOUBLE_YAKUMAN_FORMS,
    PRESETS,
    KanDoraTiming,
    KazoeLimit,
    Renhou,
    Ruleset,
    StickWinner,
    get_ruleset,
    tenhou_ruleset,
)
from engine.rules.presets import with_overrides

NAMES = [
    "tenhou-4p",
    "tenhou-4p-east",
    "tenhou-4p-nored",
    "tenhou-4p-nokuitan",
    "tenhou-4p-nored-nokuitan",
    "tenhou-4p-east-nored",
    "tenhou-4p-east-nokuitan",
    "tenhou-4p-east-nored-nokuitan",
    "tenhou-3p",
    "tenhou-3p-east",
    "majsoul-4p",
    "majsoul-4p-east",
    "majsoul-3p",
    "majsoul-3p-east",
    "minigame-4p",
    "minigame-3p",
    "ema-2016",
    "wrc",
    "mleague",
    "jpml-a",
]
THREE_PLAYER = [name for name in NAMES if "-3p" in name]
FOUR_PLAYER = [name for name in NAMES if name not in THREE_PLAYER]
ALL_DOUBLES = {"suuankou_tanki", "kokushi_13", "junsei_chuuren", "daisuushii"}


@pytest.mark.parametrize("name", NAMES)
def test_preset_exists_under_its_name(name: str) -> None:
    ruleset = get_ruleset(name)
    assert isinstance(ruleset, Ruleset)
    assert ruleset.name == name
    assert PRESETS[name] is ruleset


#: The variants' presets (space and small mahjong; docs/variants/), tested in tests/engine/variants.
VARIANT_NAMES = ["space-4p", "small-4p", "small-4p-10", "small-4p-7", "small-4p-4", "small-3p"]
VARIANT_NAMES += ["small-2p"]


def test_no_unexpected_presets() -> None:
    assert set(PRESETS) == set(NAMES) | set(VARIANT_NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_riichi_presets_are_no_variant(name: str) -> None:
    assert PRESETS[name].variant is None


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_variant_presets_say_what_they_are(name: str) -> None:
    assert PRESETS[name].variant == (
        "space mahjong (hand shapes)" if "space" in name else "small mahjong"
    )


@pytest.mark.parametrize("name", NAMES)
def test_options_are_json_serialisable(name: str) -> None:
    options = get_ruleset(name).options()
    assert json.loads(json.dumps(options)) == options
    assert options["name"] == name
    assert isinstance(options["double_yakuman"], list)
    assert isinstance(options["red_fives"], list)


def test_options_cover_every_field() -> None:
    options = get_ruleset("tenhou-4p").options()
    for field in ("players", "kuitan", "double_wind_fu", "kazoe", "pao", "honba_ron"):
        assert field in options
    assert options["kazoe"] == "yakuman"
    assert options["pao"] == ["daisangen", "daisuushii"]


# -- table size and tiles ------------------------------------------------------------------------


@pytest.mark.parametrize("name", THREE_PLAYER)
def test_three_player_presets(name: str) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.players == 3
    assert ruleset.three_player
    assert not ruleset.chi
    assert ruleset.kita
    assert ruleset.starting_points == 35000
    assert ruleset.honba_ron == 200
    assert ruleset.red_fives[0] == 0  # 2m-8m (so the red 5m too) are not in the set
    assert ruleset.rinshan_tiles == 8


@pytest.mark.parametrize("name", FOUR_PLAYER)
def test_four_player_presets(name: str) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.players == 4
    assert not ruleset.three_player
    assert ruleset.chi
    assert not ruleset.kita
    assert ruleset.honba_ron == 300
    assert ruleset.honba_tsumo_each == 100
    assert ruleset.noten_payment_total == 3000


NO_RED = [name for name in NAMES if "nored" in name] + ["ema-2016", "wrc", "jpml-a"]


@pytest.mark.parametrize("name", [name for name in NAMES if name not in NO_RED])
def test_red_five_presets_have_reds(name: str) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.aka
    if ruleset.players == 4:
        assert ruleset.red_fives == (1, 1, 1)


@pytest.mark.parametrize("name", NO_RED)
def test_no_red_presets(name: str) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.red_fives == (0, 0, 0)
    assert not ruleset.aka


@pytest.mark.parametrize("name", NAMES)
def test_length_follows_the_name(name: str) -> None:
    expected = "east" if "-east" in name else "east_south"
    assert get_ruleset(name).length == expected


@pytest.mark.parametrize("name", NAMES)
def test_kuitan_follows_the_name(name: str) -> None:
    assert get_ruleset(name).kuitan is ("nokuitan" not in name)


# -- Tenhou --------------------------------------------------------------------------------------


def test_tenhou_has_no_double_yakuman_but_stacks_yakuman() -> None:
    tenhou = get_ruleset("tenhou-4p")
    assert tenhou.double_yakuman == frozenset()
    assert tenhou.stacked_yakuman
    assert tenhou.kazoe is KazoeLimit.YAKUMAN
    assert tenhou.renhou is Renhou.NONE
    assert tenhou.double_wind_fu == 4
    assert not tenhou.kiriage


def test_tenhou_pao_covers_the_whole_hand_for_daisangen_and_daisuushii() -> None:
    tenhou = get_ruleset("tenhou-4p")
    assert tenhou.pao == {"daisangen", "daisuushii"}
    assert not tenhou.pao_only_liable_yakuman
    assert tenhou.pao_honba_by_liable  # "積み棒は包": the liable player pays the honba


def test_tenhou_multiple_ron_and_draws() -> None:
    tenhou = get_ruleset("tenhou-4p")
    assert tenhou.max_ron_winners == 2
    assert tenhou.sanchahou  # a triple ron is an abortive draw
    assert tenhou.kyuushu_kyuuhai and tenhou.suufon_renda and tenhou.suucha_riichi
    assert tenhou.suukaikan
    assert not tenhou.kokushi_robs_ankan
    assert tenhou.nagashi_mangan
    assert tenhou.starting_points == 25000
    assert tenhou.target_points == 30000
    assert tenhou.multi_ron_sticks is StickWinner.FIRST_FROM_DISCARDER


def test_tenhou_ruleset_flags_map_to_presets() -> None:
    assert tenhou_ruleset() is get_ruleset("tenhou-4p")
    assert tenhou_ruleset(three_player=True) is get_ruleset("tenhou-3p")
    assert tenhou_ruleset(east_only=True, red=False, kuitan=False) == get_ruleset(
        "tenhou-4p-east-nored-nokuitan"
    )
    assert tenhou_ruleset(three_player=True, east_only=True) == get_ruleset("tenhou-3p-east")


def test_tenhou_3p_specifics() -> None:
    sanma = get_ruleset("tenhou-3p")
    assert sanma.target_points == 40000
    assert sanma.honba_tsumo_each == 100
    assert not sanma.suufon_renda
    assert not sanma.suucha_riichi
    assert sanma.double_yakuman == frozenset()


# -- Mahjong Soul --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["majsoul-4p", "majsoul-4p-east", "majsoul-3p", "majsoul-3p-east"])
def test_majsoul_double_yakuman_forms(name: str) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.double_yakuman == ALL_DOUBLES
    assert ruleset.stacked_yakuman
    assert ruleset.kokushi_robs_ankan
    assert ruleset.pao_only_liable_yakuman
    assert ruleset.pao == {"daisangen", "daisuushii"}  # not suukantsu (riichi.wiki, RiichiEnv)
    assert ruleset.kazoe is KazoeLimit.YAKUMAN
    assert not ruleset.kiriage
    assert ruleset.double_wind_fu == 4


def test_majsoul_allows_triple_ron() -> None:
    assert get_ruleset("majsoul-4p").max_ron_winners == 3
    assert not get_ruleset("majsoul-4p").sanchahou


def test_double_yakuman_forms_constant() -> None:
    assert DOUBLE_YAKUMAN_FORMS == ALL_DOUBLES


# -- the mini-game (seeds/001) -------------------------------------------------------------------


def test_minigame_4p_rule_list() -> None:
    game = get_ruleset("minigame-4p")
    assert not game.nagashi_mangan  # "No Nagashi Mangan"
    assert not game.agari_yame  # "No auto-win if the last dealer is in first place"
    # "the player closest to the dealer (clockwise)": against turn order.
    assert game.multi_ron_sticks is StickWinner.NEAREST_DEALER_CLOCKWISE
    assert game.double_yakuman == ALL_DOUBLES  # the four double yakuman forms
    assert game.stacked_yakuman  # "Multiple Yakuman allowed"
    assert game.kazoe is KazoeLimit.YAKUMAN  # "Counted Yakuman allowed"
    assert game.pao == {"daisangen", "daisuushii"}  # "for Big Three Dragons or Four Big Winds only"
    assert not game.pao_only_liable_yakuman  # "Tsumo: Full amount"
    assert game.kokushi_robs_ankan
    assert game.kuitan
    assert not game.kuikae
    assert game.red_fives == (1, 1, 1)
    assert game.max_ron_winners == 3  # "Double Ron, Triple Ron allowed"
    assert game.noten_payment_total == 3000
    assert game.tobi
    assert game.riichi_min_points == 1000 and game.riichi_needs_draw
    assert game.kan_dora and game.kan_ura


def test_minigame_3p_rule_list() -> None:
    game = get_ruleset("minigame-3p")
    assert game.players == 3
    # "With North removed, Ippatsu, Double Riichi, and Nine Terminal Draw do not apply."
    assert game.kita_breaks_first_turn
    assert game.ron_on_kita  # "Robbing a Kan when North is extracted is allowed"
    assert game.rinshan_tiles == 8
    assert not game.chi
    assert game.max_ron_winners == 2  # "Double Ron allowed"
    assert not game.suufon_renda and not game.suucha_riichi  # Nine Terminal / Four Kan only
    assert game.kyuushu_kyuuhai and game.suukaikan
    assert game.multi_ron_sticks is StickWinner.NEAREST_DEALER_CLOCKWISE
    assert game.noten_payment_total == 3000  # the shared rule, unchanged for 3 players
    assert not game.kita_pass_furiten  # "do not result in Furiten"
    assert not game.nagashi_mangan
    assert game.double_yakuman == ALL_DOUBLES


def test_every_sanma_preset_breaks_the_first_turn_with_kita() -> None:
    breaking = [n for n in NAMES if get_ruleset(n).kita_breaks_first_turn]
    assert breaking == [n for n in NAMES if get_ruleset(n).kita]


# -- EMA and WRC ---------------------------------------------------------------------------------


def test_ema_2016() -> None:
    ema = get_ruleset("ema-2016")
    assert ema.red_fives == (0, 0, 0)
    assert ema.double_wind_fu == 2
    assert not ema.stacked_yakuman
    assert ema.double_yakuman == frozenset()
    assert ema.kazoe is KazoeLimit.SANBAIMAN
    assert ema.renhou is Renhou.MANGAN
    assert not ema.kuikae
    assert ema.starting_points == 30000
    assert not ema.pao_honba_by_liable  # on a ron with pao the discarder pays the counters
    # no abortive draws at all
    assert not ema.kyuushu_kyuuhai
    assert not ema.suufon_renda
    assert not ema.suucha_riichi
    assert not ema.suukaikan
    assert not ema.sanchahou
    assert not ema.agari_yame


def test_wrc() -> None:
    wrc = get_ruleset("wrc")
    ema = get_ruleset("ema-2016")
    assert wrc.tobi
    assert wrc.renhou is Renhou.NONE
    assert not wrc.nagashi_mangan
    assert wrc.kazoe is KazoeLimit.SANBAIMAN
    assert not wrc.stacked_yakuman
    assert wrc.double_wind_fu == 2
    assert wrc.red_fives == (0, 0, 0)
    assert wrc.starting_points == 30000
    assert not wrc.agari_yame
    assert wrc.kyuushu_kyuuhai is ema.kyuushu_kyuuhai is False  # no abortive draws
    assert not wrc.suucha_riichi and not wrc.suukaikan and not wrc.sanchahou


def test_wrc_has_head_bump_not_double_ron() -> None:
    # WRC 2015 5.7.6 (ooyamaneko.net/en/mahjong/bookcmp, book WRC_2015): "If two or three
    # players declare a win on the same discarded tile, only the player closer to the
    # discarder, according to the turn order, will win ... Each hand can have only one winner."
    # EMA 2016, the preset it is built on, pays every winner of a multiple ron.
    assert get_ruleset("wrc").max_ron_winners == 1
    assert get_ruleset("ema-2016").max_ron_winners == 3


# -- replace() and lookup errors -----------------------------------------------------------------


def test_replace_changes_one_option_and_keeps_the_rest() -> None:
    tenhou = get_ruleset("tenhou-4p")
    kiriage = tenhou.replace(kiriage=True)
    assert kiriage.kiriage
    assert not tenhou.kiriage  # frozen original unchanged
    assert {k for k, v in kiriage.options().items() if tenhou.options()[k] != v} == {"kiriage"}


def test_replace_rejects_unknown_options_by_name() -> None:
    with pytest.raises(UnknownRulesetError) as caught:
        get_ruleset("tenhou-4p").replace(kiriage=True, no_such_rule=1, other_bad=2)
    message = str(caught.value)
    assert "no_such_rule" in message
    assert "other_bad" in message
    assert "kiriage" not in message


def test_unknown_preset_error_lists_presets() -> None:
    with pytest.raises(UnknownRulesetError) as caught:
        get_ruleset("tenhou-5p")
    message = str(caught.value)
    assert "'tenhou-5p'" in message
    for name in NAMES:
        assert name in message
    assert caught.value.code == "unknown_ruleset"


def test_an_unknown_scoring_is_refused_by_name() -> None:
    with pytest.raises(UnknownRulesetError, match="'scoring' cannot be 'nonsense'"):
        with_overrides("small-4p", {"scoring": "nonsense"})
    assert with_overrides("tenhou-4p", {"scoring": "small"}).variant == "small mahjong"


# -- professional leagues (sources in docs/rules.md) ----------------------------------------------


def test_mleague_rule_list() -> None:
    m = get_ruleset("mleague")
    # 25,000 start, 30,000 return: first place +50 (uma 30 and the oka), then 10, -10, -30.
    assert (m.starting_points, m.points_base, m.uma) == (25000, 30000, (30, 10, -10, -30))
    assert m.red_fives == (1, 1, 1) and m.ippatsu and m.ura_dora and m.kan_dora and m.kan_ura
    assert not m.tobi and m.riichi_min_points is None  # no bust; riichi at any score
    assert m.max_ron_winners == 1  # no double ron: head bump
    assert not m.agari_yame and not m.tenpai_yame  # the all-last dealer plays on
    aborts = (m.kyuushu_kyuuhai, m.suufon_renda, m.suucha_riichi, m.suukaikan, m.sanchahou)
    assert not any(aborts)  # 途中流局なし
    assert not m.riichi_needs_draw  # ツモ番なしリーチあり
    assert m.open_kan_dora_timing is KanDoraTiming.IMMEDIATE  # 即めくり
    assert m.kiriage  # 7,700 rounded up
    assert m.kazoe is KazoeLimit.SANBAIMAN and not m.double_yakuman  # 数え役満なし
    assert not m.kokushi_robs_ankan  # 暗カンに対する槍槓は認められない(国士無双を含む)


def test_jpml_a_rule_list() -> None:
    j = get_ruleset("jpml-a")
    assert not (j.ippatsu or j.ura_dora or j.kan_dora or j.kan_ura)  # 一発、裏ドラ、槓ドラなし
    assert j.red_fives == (0, 0, 0)
    assert not j.kuikae and j.kuikae_suji  # 現物以外の喰い替えを認める
    assert j.noten_payment_total == 3000  # "ノーテンは場に3000点"  # noqa: RUF003
    assert j.max_ron_winners == 1  # アガリは上家優先
    assert not j.agari_yame and not j.tenpai_yame  # アガリやめなし
    assert not j.riichi_needs_draw  # ツモ番がなくてもリーチをかけることができる
    assert not j.leftover_sticks_to_first  # オーラス終了時のリーチ棒は供託
    assert j.kyuushu_kyuuhai and j.suufon_renda and j.suucha_riichi and j.suukaikan
