"""The rule-modifier plug-in point and its example modifier, ``lucky_sevens``."""

from __future__ import annotations

import random

import pytest

from engine.errors import NoYakuError, UnknownRulesetError
from engine.formats import canonical
from engine.hand.melds import Meld
from engine.replay import Verdict, replay
from engine.rules.modifiers import MODIFIERS, RuleModifier, get_modifiers, register
from engine.rules.presets import as_preset, get_ruleset, with_overrides
from engine.rules.ruleset import Ruleset
from engine.rules.yaku import YAKU
from engine.scoring.score import WinConditions, WinningHand, score_hand
from engine.sim.bots import GreedyBot
from engine.sim.selfplay import play_game
from engine.tiles import parse_tile, parse_tiles

MINIGAME = get_ruleset("minigame-4p")
LUCKY = MINIGAME.replace(modifiers=("lucky_sevens",))


def han_and_yaku(
    tsumo_hand: tuple[str, str, tuple[Meld, ...]], ruleset: Ruleset
) -> tuple[int, dict[str, int]]:
    """The han and yaku of a tsumo win: (concealed tiles, winning tile, called melds)."""
    tiles, win, melds = tsumo_hand
    hand = WinningHand(
        tiles=tuple(parse_tiles(tiles)),
        win_tile=parse_tile(win),
        melds=melds,
        conditions=WinConditions(tsumo=True),
    )
    score = score_hand(hand, ruleset)
    return score.han, dict(score.yaku)


def test_unknown_modifiers_are_refused_naming_the_known_ones() -> None:
    with pytest.raises(UnknownRulesetError, match=r"modifier\(s\): superpower; known.*lucky"):
        MINIGAME.replace(modifiers=("superpower",))
    with pytest.raises(UnknownRulesetError, match="listed twice"):
        MINIGAME.replace(modifiers=("lucky_sevens", "lucky_sevens"))


def test_lucky_sevens_gives_one_han_per_seven_held_concealed_or_called() -> None:
    # Closed tsumo, tanyao, sevens: 777p (3) in hand, 7s in a called run counts too (4 in all).
    hand = ("234m55m777p345s", "5m", (Meld.parse("chi", "678s"),))
    plain_han, plain_yaku = han_and_yaku(hand, MINIGAME)
    lucky_han, lucky_yaku = han_and_yaku(hand, LUCKY)
    assert lucky_yaku["lucky_seven"] == 4
    assert lucky_han == plain_han + 4
    assert "lucky_seven" not in plain_yaku


def test_lucky_sevens_alone_is_no_yaku() -> None:
    # Open hand, no yaku at all (a 1m pair, runs with terminals, a ron on an open hand), but 7s.
    hand = WinningHand(
        tiles=tuple(parse_tiles("123m11m777p")),
        win_tile=parse_tile("1m"),
        melds=(Meld.parse("chi", "789s"), Meld.parse("chi", "789m")),
        conditions=WinConditions(),
        discarder=28,
    )
    with pytest.raises(NoYakuError):
        score_hand(hand, LUCKY)


def test_a_modified_rule_set_is_stored_as_an_override_and_read_back() -> None:
    name, overrides = as_preset(LUCKY, MINIGAME)
    assert (name, overrides) == ("minigame-4p", {"modifiers": ["lucky_sevens"]})
    assert with_overrides(name, overrides) == LUCKY
    assert get_modifiers(LUCKY.modifiers) == (MODIFIERS["lucky_sevens"],)


def test_self_played_games_under_the_modifier_verify_and_use_it() -> None:
    rng = random.Random(7)
    games = [play_game(LUCKY, [GreedyBot() for _ in range(4)], rng) for _ in range(8)]
    lucky_wins = 0
    for game in games:
        again = canonical.loads(canonical.dumps(game))[0]
        assert again.header.rule_overrides == {"modifiers": ["lucky_sevens"]}
        report = replay(again)
        assert report.verdict is Verdict.VERIFIED, report.discrepancy
        wins = [win for summary in report.rounds for win in summary.wins]
        entries = {name for win in wins for name, _ in win.yaku}
        # Only declared entries (the schema lists them) beside the yaku.
        assert entries <= set(YAKU) | set(MODIFIERS["lucky_sevens"].entries)
        lucky_wins += sum(
            1
            for summary in report.rounds
            for win in summary.wins
            if any(name == "lucky_seven" for name, _ in win.yaku)
        )
    assert lucky_wins > 0


def test_a_new_modifier_registers_under_its_name() -> None:
    @register
    class NothingChanges(RuleModifier):
        name = "test_nothing_changes"
        description = "a modifier that keeps every default"

    try:
        ruleset = MINIGAME.replace(modifiers=("test_nothing_changes",))
        hand = ("234m55m777p345s", "5m", (Meld.parse("chi", "678s"),))
        assert han_and_yaku(hand, ruleset) == han_and_yaku(hand, MINIGAME)
        with pytest.raises(ValueError, match="already registered"):
            register(NothingChanges)
    finally:
        del MODIFIERS["test_nothing_changes"]


@pytest.mark.parametrize("entry", ["lucky_seven", "tanyao"])
def test_a_modifier_cannot_take_an_entry_name_in_use(entry: str) -> None:
    class Clashing(RuleModifier):
        name = "test_clashing"
        description = "adds an entry named like an existing one"
        entries = (entry,)

    with pytest.raises(ValueError, match=f"entry names already in use: \\['{entry}'\\]"):
        register(Clashing)
    assert "test_clashing" not in MODIFIERS
