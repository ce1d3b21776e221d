"""A Tenhou custom lobby's own rules (csrule), decoded where the public sources explain them and
named as not read where they do not (engine/rules/tenhou_csrule.py)."""

from __future__ import annotations

from engine.rules.presets import with_overrides
from engine.rules.ruleset import KanDoraTiming, KazoeLimit, PointsRounding
from engine.rules.tenhou import TenhouLobby, tenhou_game_rules
from engine.rules.tenhou_csrule import CustomRules, decode_csrule

#: The tournament manager's example lobby (its TenhouService test): the standard numbers written
#: out, and bit 0x40000000 of field 0, which neither source explains.
MANAGERS_EXAMPLE = (
    "40000000,00000000,,,25000,30000,30000,,,,1000,100,,,,,1000,1500,3000,,,10,-10,-20,10,-10,"
    "-20,10,-10,-20,10,-10,-20,10,-10,-20,6,16,5,7,17,6,8,18,7"
)


def test_the_standard_numbers_written_out_are_tenhous_rules() -> None:
    decoded = decode_csrule(MANAGERS_EXAMPLE, three_player=False)
    assert decoded is not None
    assert decoded.options == {
        "starting_points": 25000,
        "target_points": 30000,
        "points_base": 30000,
        "honba_tsumo_each": 100,
        "honba_ron": 300,
        "noten_payment_total": 3000,
        "uma": (20, 10, -10, -20),
    }
    # Thinking times (fields 36-44) change nothing; the unexplained bit is named, not guessed.
    assert decoded.unmodelled == ("csrule field 0, bit 0x40000000 (its meaning is not published)",)


def test_an_empty_csrule_is_the_lobbys_flags_alone() -> None:
    assert decode_csrule("00000000,00000000", three_player=False) == CustomRules()


def test_flags_both_sources_name_become_rule_options() -> None:
    # no nagashi, kiriage, no bust, kan dora at once, no ura, no four-winds abort, head bump,
    # no ippatsu, no extra rounds; no counted yakuman, sticks not given to first place
    flags = 0x1 | 0x2 | 0x4 | 0x8 | 0x40 | 0x100 | 0x2000 | 0x80000 | 0x200000
    decoded = decode_csrule(f"{flags:08x},00000014,,,30000,,30000", three_player=False)
    assert decoded is not None and decoded.unmodelled == ()
    assert decoded.options == {
        "nagashi_mangan": False,
        "kiriage": True,
        "tobi": False,
        "open_kan_dora_timing": KanDoraTiming.IMMEDIATE,
        "ura_dora": False,
        "suufon_renda": False,
        "max_ron_winners": 1,
        "ippatsu": False,
        "sudden_death": False,
        "leftover_sticks_to_first": False,
        "kazoe": KazoeLimit.SANBAIMAN,
        "starting_points": 30000,
        "points_base": 30000,
    }


def test_what_is_not_published_or_disputed_or_not_modelled_is_named() -> None:
    # field 1 bit 0x1: the bot reads 4 fu, the manager writes it for 2 fu; field 0 bit 0x10000:
    # no repeat after a dealer's win, which no option holds; field 3 and field 12: unexplained;
    # a riichi stick of 2,000.
    decoded = decode_csrule("00010000,00000001,,7,,,,,,,2000,,5", three_player=False)
    assert decoded is not None and decoded.options == {}
    assert decoded.unmodelled == (
        "no repeat after the dealer's win (csrule field 0, bit 0x10000)",
        "the fu of a double wind pair (csrule field 1, bit 0x1)",
        "csrule field 3 = 7 (its meaning is not published)",
        "a riichi stick of 2,000 points (csrule field 10)",
        "csrule field 12 = 5 (its meaning is not published)",
    )


def test_a_floating_uma_is_named_a_fixed_one_read() -> None:
    rows = ",".join(["10,-10,-20"] * 4 + ["30,-10,-50"])
    floating = decode_csrule(f"00000000,00000000{',' * 20}{rows}", three_player=False)
    assert floating is not None and "uma" not in floating.options
    assert floating.unmodelled[0].startswith("a floating uma, by rows")
    fixed = decode_csrule(
        f"00000000,00000000{',' * 20}{','.join(['5,-5,-15'] * 5)}", three_player=False
    )
    assert fixed is not None and fixed.options == {"uma": (15, 5, -5, -15)}


def test_sanma_payments_count_two_payers() -> None:
    decoded = decode_csrule("00000000,00000000,,,,,,,,,,200,,,,,1500,3000", three_player=True)
    assert decoded is not None
    assert decoded.options == {
        "honba_tsumo_each": 200,
        "honba_ron": 400,
        "noten_payment_total": 3000,
    }
    uneven = decode_csrule("00000000,00000000,,,,,,,,,,,,,,,1000,1000", three_player=False)
    assert uneven is not None and uneven.unmodelled[0].startswith("noten payments of")


def test_a_text_in_no_published_layout_is_not_decoded() -> None:
    for text in ("0,0,30,1,2", "", "0000000g,00000000", "00000000,00000000,abc"):
        assert decode_csrule(text, three_player=False) is None


def test_a_custom_lobbys_game_gets_its_decoded_rules() -> None:
    lobby = TenhouLobby.from_go_type(0x89, custom_rules="00000020,00000000,,,30000", number=1234)
    ruleset = with_overrides(*tenhou_game_rules(lobby, None))
    assert not ruleset.kan_dora and ruleset.starting_points == 30000 and not ruleset.unmodelled
    assert ruleset.points_rounding is PointsRounding.UNCHECKED  # its uma and rounding: its own
    unexplained = TenhouLobby.from_go_type(0x89, custom_rules=MANAGERS_EXAMPLE, number=1234)
    ruleset = with_overrides(*tenhou_game_rules(unexplained, None))
    assert ruleset.unmodelled == (
        "a Tenhou custom lobby's rule: csrule field 0, bit 0x40000000 (its meaning is not "
        "published)",
    )
