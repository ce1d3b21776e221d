"""Tenhou's rules by lobby and by date (engine/rules/tenhou.py): the GO type bits, the rule
history, and the replay honouring what they choose."""

from __future__ import annotations

import dataclasses
import random
from datetime import date

import pytest

from engine.events import ExhaustiveDraw, Game
from engine.formats.mjlog import read_mjlog
from engine.game_flow import HandOutcome, RoundPosition, final_points, next_position
from engine.replay import Verdict, replay
from engine.rules import get_ruleset
from engine.rules.presets import apply_overrides, with_overrides
from engine.rules.ruleset import KanDoraTiming, PointsRounding
from engine.rules.tenhou import (
    TENHOU_CHANGES,
    TenhouLobby,
    log_date,
    rule_eras,
    rules_on,
    tenhou_game_rules,
    tenhou_room,
)
from engine.sim.bots import GreedyBot
from engine.sim.selfplay import play_game

# -- dates ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("log_id", "expected"),
    [
        ("2009061201gm-00a9-0000-fe3371ad", date(2009, 6, 12)),
        ("2010081709gm-00a9-0000-fe3371ad", date(2010, 8, 17)),
        ("2019139901gm-00a9-0000-fe3371ad", None),  # month 13: not a log id
        ("first-example", None),
        (None, None),
    ],
)
def test_log_date(log_id: str | None, expected: date | None) -> None:
    assert log_date(log_id) == expected


def test_every_change_cites_its_source_and_says_what_changed() -> None:
    for change in TENHOU_CHANGES:
        assert change.source and change.what
        assert change.before or change.after, "a change sets some options"
        apply_overrides(get_ruleset("tenhou-4p"), {**change.before, **change.after})


# -- the tenpai stop (June 2010) ------------------------------------------------------------------


def test_games_before_june_2010_have_no_tenpai_stop() -> None:
    tenhou = get_ruleset("tenhou-4p")
    assert not rules_on(tenhou, date(2010, 5, 31)).tenpai_yame
    assert rules_on(tenhou, date(2010, 5, 31)).agari_yame  # the win stop is older
    assert rules_on(tenhou, date(2010, 6, 1)).tenpai_yame
    # No date: the preset, today's play with the points rounded either way.
    assert rules_on(tenhou, None) is tenhou
    assert tenhou.points_rounding is PointsRounding.EITHER


def test_final_points_were_rounded_to_thousands_until_mid_2021() -> None:
    tenhou = get_ruleset("tenhou-4p")
    assert rules_on(tenhou, date(2021, 7, 1)).points_rounding is PointsRounding.THOUSANDS
    assert rules_on(tenhou, date(2021, 12, 1)).points_rounding is PointsRounding.EITHER
    assert rules_on(tenhou, date(2022, 6, 1)).points_rounding is PointsRounding.EXACT


def _all_last_tenpai(ruleset_name: str, **overrides: object) -> RoundPosition | None:
    """The position after an all-last exhaustive draw at which the dealer (first, above the
    target) is tenpai."""
    ruleset = with_overrides(ruleset_name, overrides)
    position = RoundPosition(wind=1, number=4, dealer=3, honba=0, sticks=0)
    scores = [20000, 20000, 20000, 40000]
    return next_position(position, HandOutcome(True, won=False), scores, 0, ruleset)


def test_the_tenpai_stop_ends_the_game_only_where_the_rules_have_it() -> None:
    assert _all_last_tenpai("tenhou-4p") is None
    kept = _all_last_tenpai("tenhou-4p", tenpai_yame=False)
    assert kept == RoundPosition(wind=1, number=4, dealer=3, honba=1, sticks=0)
    # A win still ends it: the win stop did not change.
    ruleset = with_overrides("tenhou-4p", {"tenpai_yame": False})
    position = RoundPosition(wind=1, number=4, dealer=3, honba=0, sticks=0)
    won = next_position(position, HandOutcome(True, won=True), [20000] * 3 + [40000], 0, ruleset)
    assert won is None


def _roster() -> str:
    return '<UN n0="A" n1="B" n2="C" n3="D" dan="9,9,9,9" rate="1500,1500,1500,1500"/>'


def _one_hand_record(log_id: str | None, go_type: int = 169, go_extra: str = "") -> Game:
    init = (
        '<INIT seed="0,0,0,1,2,60" ten="250,250,250,250" oya="0" '
        'hai0="0,4,8,12,16,20,24,28,32,36,40,44,48" hai1="1,5,9,13,17,21,25,29,33,37,41,45,49" '
        'hai2="2,6,10,14,18,22,26,30,34,38,42,46,50" '
        'hai3="3,7,11,15,19,23,27,31,35,39,43,47,51"/>'
    )
    go = f'<GO type="{go_type}" lobby="0"{go_extra}/>'
    body = f'<mjloggm ver="2.3">{go}{_roster()}{init}</mjloggm>'
    return read_mjlog(body.encode(), log_id)


def _header_of(log_id: str | None, go_type: int = 169) -> tuple[str, dict[str, object]]:
    header = _one_hand_record(log_id, go_type).header
    return header.ruleset, dict(header.rule_overrides)


def test_an_mjlog_is_read_with_the_rules_of_its_date() -> None:
    rounded = {"points_rounding": "thousands"}
    assert _header_of("2009121820gm-00a9-0000-ff1a8b72") == (
        "tenhou-4p",
        {"tenpai_yame": False, **rounded},
    )
    assert _header_of("2010060100gm-00a9-0000-ff1a8b72") == ("tenhou-4p", rounded)
    assert _header_of("2023060100gm-00a9-0000-ff1a8b72") == (
        "tenhou-4p",
        {"points_rounding": "exact"},
    )
    assert _header_of("2021120100gm-00a9-0000-ff1a8b72") == ("tenhou-4p", {})
    assert _header_of(None) == ("tenhou-4p", {})


def _played_on_after_tenpai_at_all_last() -> tuple[Game, int]:
    """A self-played East-only game under the pre-2010 rules in which the all-last dealer, first
    and above the target, was tenpai at an exhaustive draw and played on (and the hand index
    after which that happened)."""
    ruleset = get_ruleset("tenhou-4p-east").replace(tenpai_yame=False)
    for seed in range(400):
        rng = random.Random(f"tenpai-stop-{seed}")
        game = play_game(ruleset, [GreedyBot() for _ in range(4)], rng)
        for index, round_ in enumerate(game.rounds[:-1]):
            end = round_.events[-1]
            nxt = game.rounds[index + 1]
            if (
                round_.wind == 0
                and round_.number == 4
                and isinstance(end, ExhaustiveDraw)
                and round_.dealer in end.recorded_tenpai
                and nxt.dealer == round_.dealer
                and max(nxt.scores) == nxt.scores[round_.dealer] >= 30000
                and nxt.scores.count(nxt.scores[round_.dealer]) == 1
            ):
                return game, index
    raise AssertionError("no self-played game reached the situation in 400 seeds")


def test_a_pre_2010_game_that_plays_on_after_the_tenpai_verifies_only_under_its_rules() -> None:
    game, index = _played_on_after_tenpai_at_all_last()
    assert replay(game).verdict is Verdict.VERIFIED  # header: tenhou-4p-east, tenpai_yame off
    # Today's rules, for a game dated after the change (an undated one may fit the older era).
    report = replay(_dated(game, "2021010100gm-0041-0000-00000000"))
    assert report.verdict is Verdict.ILLEGAL_ACTION
    assert report.discrepancy is not None
    assert report.discrepancy.round == index + 1
    assert "is over" in report.discrepancy.expected


# -- windows of uncertainty and older eras ---------------------------------------------------------


def _dated(game: Game, log_id: str | None, **overrides: object) -> Game:
    """``game`` as a record of ``log_id``'s date (``None``: undated) whose header states only
    ``overrides``, as a reader writes it."""
    header = dataclasses.replace(
        game.header,
        rule_overrides=overrides,
        source=dataclasses.replace(game.header.source, format="mjlog", id=log_id),
    )
    return dataclasses.replace(game, header=header)


def test_a_change_of_unknown_day_has_a_window_in_which_either_rule_holds() -> None:
    tenpai = next(change for change in TENHOU_CHANGES if "tenpai_yame" in change.before)
    assert tenpai.side(date(2010, 5, 31)) == "before"  # the blog: played on until June 2010
    assert tenpai.side(date(2010, 6, 5)) == "either"
    assert tenpai.side(date(2020, 1, 1)) == "after"  # the first record seen stopping
    tenhou = get_ruleset("tenhou-4p")
    assert rules_on(tenhou, date(2010, 6, 5)).tenpai_yame  # the window reads as the preset
    # Every change of unknown day cites the records or sources that bound its window.
    for change in TENHOU_CHANGES:
        if change.uncertain_from is not None:
            assert change.uncertain_from < change.since and change.era and change.source


def test_east_only_uma_changed_on_a_day_not_known() -> None:
    east = get_ruleset("tenhou-4p-east")
    uma = next(change for change in TENHOU_CHANGES if "uma" in change.before)
    assert uma.length == "east" and uma.players == 4
    assert uma.side(date(2009, 8, 1)) == "either"  # no record of ours shows the old uma
    assert rules_on(east, date(2018, 1, 1)).uma == (20, 10, -10, -20)
    assert rules_on(east, date(2009, 8, 1)).uma == (20, 10, -10, -20)
    assert not uma.concerns(get_ruleset("tenhou-4p")) and not uma.concerns(
        get_ruleset("tenhou-3p-east")
    )


def test_the_older_eras_a_record_may_fit() -> None:
    east = get_ruleset("tenhou-4p-east")
    undated = rule_eras("tenhou-4p-east", east, None)
    assert [era.ruleset.uma for era in undated] == [
        (10, 5, -5, -10),
        (20, 10, -10, -20),
        (10, 5, -5, -10),
    ]
    assert [era.ruleset.tenpai_yame for era in undated] == [True, False, False]
    assert "uma 10/5" in undated[0].name and "tenpai" in undated[1].name
    # A hanchan never had the East-only uma; the rounding is "either" already.
    hanchan = get_ruleset("tenhou-4p")
    assert [era.ruleset.tenpai_yame for era in rule_eras("tenhou-4p", hanchan, None)] == [False]
    # A date decides what it can: inside the tenpai stop's window only that change is open.
    assert len(rule_eras("tenhou-4p", hanchan, date(2012, 1, 1))) == 1
    assert rule_eras("tenhou-4p", hanchan, date(2021, 1, 1)) == []
    assert rule_eras("majsoul-4p", get_ruleset("majsoul-4p"), None) == []
    # An option set by the lobby, not by the date, stays (a custom lobby's unchecked points).
    custom = with_overrides(*tenhou_game_rules(TenhouLobby.from_go_type(9, number=1234), None))
    for era in rule_eras("tenhou-4p", custom, None):
        assert era.ruleset.points_rounding is PointsRounding.UNCHECKED


def test_an_undated_game_that_plays_on_after_the_tenpai_fits_the_older_era() -> None:
    game, index = _played_on_after_tenpai_at_all_last()
    undated = replay(_dated(game, None))
    assert undated.verdict is Verdict.VERIFIED
    assert undated.era is not None and "tenpai" in undated.era
    assert any("older era" in warning for warning in undated.warnings)
    # Inside the window (after the announced June 2010, before the first record seen
    # stopping): either rule.
    assert replay(_dated(game, "2010060512gm-0041-0000-00000000")).era == undated.era
    # Before it, the header's own rules fit: no era to name.
    before = replay(_dated(game, "2009061201gm-0041-0000-00000000", tenpai_yame=False))
    assert before.verdict is Verdict.VERIFIED and before.era is None
    # After it, the play-on is an illegal hand, as it is for today's rules.
    after = replay(_dated(game, "2021010100gm-0041-0000-00000000"))
    assert after.verdict is Verdict.ILLEGAL_ACTION and after.era is None
    assert after.discrepancy is not None and after.discrepancy.round == index + 1


def _with_points(game: Game, uma: tuple[int, ...]) -> Game:
    """``game`` recording the final points that ``uma`` gives its final scores."""
    final = game.recorded_final
    assert final is not None
    ruleset = get_ruleset(game.header.ruleset).replace(
        uma=uma, points_rounding=PointsRounding.EXACT
    )
    (tenths,) = final_points(final.scores, ruleset, game.rounds[0].dealer)
    results = tuple(value / 10 for value in tenths)
    return dataclasses.replace(game, recorded_final=dataclasses.replace(final, results=results))


@pytest.fixture(scope="module")
def east_game() -> Game:
    ruleset = get_ruleset("tenhou-4p-east")
    game = play_game(ruleset, [GreedyBot() for _ in range(4)], random.Random("uma-era"))
    return _with_points(game, (10, 5, -5, -10))


def test_an_east_game_with_the_old_uma_fits_the_older_era_only_where_its_date_allows(
    east_game: Game,
) -> None:
    undated = replay(_dated(east_game, None))
    assert undated.verdict is Verdict.VERIFIED, undated.discrepancy
    assert undated.era is not None and "uma 10/5" in undated.era
    assert replay(_dated(east_game, "2009080100gm-00e1-0000-00000000")).era == undated.era
    later = replay(_dated(east_game, "2018010100gm-00e1-0000-00000000"))
    assert later.verdict is Verdict.SCORE_MISMATCH and later.era is None
    assert later.discrepancy is not None and later.discrepancy.what == "final points"
    # Today's uma still fits with no era to name.
    today = replay(_dated(_with_points(east_game, (20, 10, -10, -20)), None))
    assert today.verdict is Verdict.VERIFIED and today.era is None


def test_a_hanchan_with_the_east_games_old_uma_does_not_fit() -> None:
    ruleset = get_ruleset("tenhou-4p")
    game = play_game(ruleset, [GreedyBot() for _ in range(4)], random.Random("uma-hanchan"))
    report = replay(_dated(_with_points(game, (10, 5, -5, -10)), None))
    assert report.verdict is Verdict.SCORE_MISMATCH and report.era is None


# -- lobbies --------------------------------------------------------------------------------------


def test_lobby_bits() -> None:
    houou = TenhouLobby.from_go_type(169)  # 0xA9
    assert (houou.room, houou.three_player, houou.east_only) == ("houou", False, False)
    assert (houou.red, houou.kuitan, houou.chips) == (True, True, False)
    assert TenhouLobby.from_go_type(0x41).room == "ippan"
    assert TenhouLobby.from_go_type(0x89).room == "joukyuu"
    assert TenhouLobby.from_go_type(0x29).room == "tokujou"
    assert TenhouLobby.from_go_type(553).chips  # 0x229


def test_chip_lobbies_round_up_to_mangan() -> None:
    name, overrides = tenhou_game_rules(TenhouLobby.from_go_type(553), date(2015, 1, 1))
    assert with_overrides(name, overrides).kiriage
    name, overrides = tenhou_game_rules(TenhouLobby.from_go_type(169), date(2015, 1, 1))
    assert not with_overrides(name, overrides).kiriage


def test_chip_lobbies_pay_the_honba_as_the_others_do() -> None:
    # The one chip record found, 2020080512gm-0609-13489-3ccf4378 (GO 1545 = 0x609, custom
    # lobby 13489; jbmokuz/Paitan), pays 300 a honba on a ron (1,300 at 2 honba: the
    # discarder pays 1,900) and 100 a payer on a tsumo, not 1,500; its closed kans turn the
    # dora at once; its points are the lobby's own.
    name, overrides = tenhou_game_rules(TenhouLobby.from_go_type(1545, number=13489), None)
    chips = with_overrides(name, overrides)
    assert chips.kiriage
    assert (chips.honba_ron, chips.honba_tsumo_each) == (300, 100)
    assert chips.closed_kan_dora_timing is KanDoraTiming.IMMEDIATE
    assert chips.points_rounding is PointsRounding.UNCHECKED


def test_a_one_hand_lobby_is_unsupported_naming_the_rule() -> None:
    name, overrides = tenhou_game_rules(TenhouLobby.from_go_type(2113), None)
    ruleset = with_overrides(name, overrides)
    assert ruleset.unmodelled and "one-hand lobby" in ruleset.unmodelled[0]
    report = replay(_one_hand_record("2015010100gm-0841-0000-ff1a8b72", go_type=2113))
    assert report.verdict is Verdict.UNSUPPORTED
    assert report.discrepancy is not None and "one-hand lobby" in report.discrepancy.found


def test_a_custom_lobbys_own_rules_are_unsupported_naming_them() -> None:
    game = _one_hand_record("2015010100gm-0009-1234-ff1a8b72", go_extra=' csrule="0,0,30,1,2"')
    assert game.header.source.extra["csrule"] == "0,0,30,1,2"
    report = replay(game)
    assert report.verdict is Verdict.UNSUPPORTED
    assert report.discrepancy is not None and "csrule='0,0,30,1,2'" in report.discrepancy.found
    plain = _one_hand_record("2015010100gm-0009-1234-ff1a8b72")
    assert replay(plain).verdict is not Verdict.UNSUPPORTED


def test_a_custom_lobby_counts_its_points_by_its_own_settings() -> None:
    # Real records of custom lobbies 10011 and 13489 follow no standard uma: not checked.
    custom = TenhouLobby.from_go_type(9, number=10011)
    for played_on in (date(2019, 2, 1), date(2023, 1, 1), None):
        name, overrides = tenhou_game_rules(custom, played_on)
        assert with_overrides(name, overrides).points_rounding is PointsRounding.UNCHECKED
    assert TenhouLobby.from_go_type(0x609).chips  # 5,000-point chips (0x400)


# -- the room -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "room"),
    [
        ({"go_type": "169", "lobby": "0"}, "houou"),  # 0xA9: 0x20 and 0x80
        ({"go_type": "137", "lobby": "0"}, "joukyuu"),  # 0x89
        ({"go_type": "41", "lobby": "0"}, "tokujou"),  # 0x29
        ({"go_type": "9", "lobby": "0"}, "ippan"),
        ({"go_type": "185"}, "houou"),  # 0xB9: sanma houou
        ({"go_type": "9", "lobby": "7994"}, "custom"),
        ({"disp": "鳳南喰赤"}, "houou"),
        ({"disp": "般東喰赤"}, "ippan"),
        ({"disp": "特南喰赤", "lobby": "1234"}, "custom"),
        ({"disp": "East hanchan"}, ""),
        ({}, ""),
    ],
)
def test_the_room_a_record_says(extra: dict[str, str], room: str) -> None:
    assert tenhou_room(extra) == room
