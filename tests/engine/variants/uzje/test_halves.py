"""Exactly half: on a self-draw "all other players pay exactly half of the amount in the above
table" (seeds/002 line 134), so a 5-point self-draw is paid 2.5 by each other player. The
presets pay so (``self_draw_rounding`` ``exact``) and their games hold halves in the record, the
report and the frames; a record that does not state the option is one of those written before,
which rounded the half up, and replays exactly as it did."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from engine.errors import MalformedLogError
from engine.events import Game, Win
from engine.formats import canonical
from engine.frames import round_frames
from engine.game_flow import whole_points
from engine.replay import Verdict
from engine.variants.uzje import request
from engine.variants.uzje.replay import replay, rules_of
from engine.variants.uzje.rules import PRESETS, UZJE_4P, Rounding, as_preset, with_overrides
from engine.variants.uzje.selfplay import simulate
from tests.engine.formats.test_canonical import four_player_doc

UP = UZJE_4P.replace(self_draw_rounding=Rounding.UP)
SCHEMA = Draft202012Validator(
    json.loads(resources.files("engine").joinpath("schema", "game.schema.json").read_text("utf-8"))
)


def schema_errors(doc: object) -> list[tuple[str | int, ...]]:
    return [tuple(error.absolute_path) for error in SCHEMA.iter_errors(doc)]


@pytest.fixture(scope="module")
def exact() -> Game:
    """A match of the preset, as self-play writes it."""
    return simulate(1, 7, "uzje-4p")[0]


@pytest.fixture(scope="module")
def rounded() -> Game:
    """The same match dealt and played the same way (the bots never look at the scores) under
    the rounding the engine had before ``exact``: what it wrote then."""
    return simulate(1, 7, UP)[0]


def half_wins(game: Game) -> list[tuple[int, int, Win]]:
    """(round, event, win) of every win whose payments hold a half."""
    return [
        (r, e, event)
        for r, round_ in enumerate(game.rounds)
        for e, event in enumerate(round_.events)
        if isinstance(event, Win)
        and event.recorded is not None
        and any(delta != int(delta) for delta in event.recorded.deltas or ())
    ]


def five_point_self_draws(game: Game) -> list[tuple[int, int, Win]]:
    return [
        (r, e, event)
        for r, round_ in enumerate(game.rounds)
        for e, event in enumerate(round_.events)
        if isinstance(event, Win)
        and event.tsumo
        and event.recorded is not None
        and event.recorded.points == 5
    ]


# -- the rules: the presets pay exactly, a record without the option rounds up ------------------


def test_the_presets_pay_exactly_and_old_records_round_up() -> None:
    assert all(rules.self_draw_rounding is Rounding.EXACT for rules in PRESETS.values())
    # A record names the preset and the options that differ from what it means without them.
    assert as_preset(UZJE_4P) == ("uzje-4p", {"self_draw_rounding": "exact"})
    assert as_preset(UP) == ("uzje-4p", {})  # the form every record before "exact" has
    assert with_overrides("uzje-4p", {}).self_draw_rounding is Rounding.UP
    assert with_overrides("uzje-4p", {"self_draw_rounding": "exact"}) == UZJE_4P
    assert with_overrides("uzje-4p", {"self_draw_rounding": "down"}).self_draw_rounding is (
        Rounding.DOWN
    )


# -- a game under "exact" ---------------------------------------------------------------------


def test_a_five_point_self_draw_is_paid_two_and_a_half_by_each(exact: Game) -> None:
    wins = five_point_self_draws(exact)
    assert wins, "the match has no 5-point self-draw"
    for _, _, win in wins:
        assert win.recorded is not None and win.recorded.deltas is not None
        deltas = win.recorded.deltas
        assert [delta for seat, delta in enumerate(deltas) if seat != win.seat] == [-2.5] * 3
        assert deltas[win.seat] == 7.5
    assert half_wins(exact) == wins  # no other amount of the table is odd


def test_points_are_conserved_through_the_match(exact: Game) -> None:
    for round_ in exact.rounds:
        assert sum(round_.scores) == 0
    assert exact.recorded_final is not None and sum(exact.recorded_final.scores) == 0
    # The scores between the games hold halves: a round starts at x.5 after a half win.
    assert any(score != int(score) for round_ in exact.rounds for score in round_.scores)


def test_a_game_under_exact_replays_as_verified(exact: Game) -> None:
    report = replay(exact)
    assert report.verdict is Verdict.VERIFIED, report.discrepancy
    assert exact.recorded_final is not None
    assert report.final_scores == list(exact.recorded_final.scores)
    r, _, win = half_wins(exact)[0]
    summary = report.rounds[r]
    assert summary.deltas == list(win.recorded.deltas or ())  # type: ignore[union-attr]
    # The statistics' rows count whole points: a half rounded away from zero.
    facts = [fact for fact in report.facts if fact.round == r]
    assert [fact.delta for fact in facts] == [whole_points(d) for d in summary.deltas]
    assert [whole_points(d) for d in (7.5, -2.5, 2, -0.5)] == [8, -3, 2, -1]


def test_the_canonical_json_states_the_halves_and_reads_back(exact: Game) -> None:
    text = canonical.dumps(exact)
    data = json.loads(text)
    assert data["rule_overrides"] == {"self_draw_rounding": "exact"}
    r, e, _ = half_wins(exact)[0]
    written = data["rounds"][r]["events"][e]["recorded"]["deltas"]
    assert sorted(written) == [-2.5, -2.5, -2.5, 7.5]
    # Whole points stay integers (5, never 5.0), as in every record.
    assert all(type(score) is int for score in data["rounds"][0]["scores"])
    assert '"points": 5,' in text and "5.0" not in text
    assert schema_errors(data) == []
    back = canonical.loads(text)
    assert back == [exact]
    assert replay(back[0]).verdict is Verdict.VERIFIED


def test_the_frames_show_the_halves(exact: Game) -> None:
    r, _, win = half_wins(exact)[0]
    frames = round_frames(exact, r).to_json()
    last = frames["frames"][-1]
    assert last["result"]["deltas"] == list(win.recorded.deltas or ())  # type: ignore[union-attr]
    (shown,) = last["result"]["wins"]
    assert sorted(shown["deltas"]) == [-2.5, -2.5, -2.5, 7.5]
    assert [seat["delta"] for seat in last["seats"]] == last["result"]["deltas"]
    after = exact.rounds[r + 1].scores if r + 1 < len(exact.rounds) else None
    if after is not None:
        assert [seat["score"] for seat in last["seats"]] == list(after)
        assert any(score != int(score) for score in after)
        # The next round starts from those scores, halves and all.
        first = round_frames(exact, r + 1).to_json()["frames"][0]
        assert [seat["score"] for seat in first["seats"]] == list(after)
    assert json.loads(json.dumps(frames)) == frames


def test_the_score_command_pays_two_and_a_half() -> None:
    # 123s 456s 789s 111m CC self-drawn and closed: 3.6 f, 5 points (seeds/002 lines 118,
    # 181, 186), 2.5 from each of the three others.
    result = request.score_text("uzje-4p", "123s456s789s111mCC", "9s", self_draw=True)
    assert result["points"] == 5
    assert result["paid"] == {"each": 2.5, "payers": 3}
    assert result["total"] == 7.5
    assert "paid: 2.5 by each of 3; total 7.5" in request.describe(result)


# -- the records written before "exact" -----------------------------------------------------------


def test_a_record_without_the_option_replays_as_before(rounded: Game, exact: Game) -> None:
    # The record as the engine wrote it before: no option, the half rounded up to 3 (9 to the
    # winner), whole points everywhere; read back, it is "up" and verifies.
    assert rounded.header.rule_overrides == {}
    assert rules_of(rounded).self_draw_rounding is Rounding.UP
    wins = five_point_self_draws(rounded)
    assert [w.seat for _, _, w in wins] == [w.seat for _, _, w in five_point_self_draws(exact)]
    for _, _, win in wins:
        assert win.recorded is not None and sorted(win.recorded.deltas or ()) == [-3, -3, -3, 9]
    assert half_wins(rounded) == []
    text = canonical.dumps(rounded)
    assert ".5" not in text
    (back,) = canonical.loads(text)
    report = replay(back)
    assert report.verdict is Verdict.VERIFIED, report.discrepancy
    assert report.final_scores == list(back.recorded_final.scores)  # type: ignore[union-attr]
    assert all(type(score) is int for score in report.final_scores or ())


def test_the_option_decides_how_a_record_is_judged(rounded: Game, exact: Game) -> None:
    # The same exact record read as an old one (the option taken out) pays 3, not 2.5: the first
    # 5-point self-draw is a score mismatch.
    r, e, _ = five_point_self_draws(exact)[0]
    unstated = dataclasses.replace(
        exact, header=dataclasses.replace(exact.header, rule_overrides={})
    )
    report = replay(unstated)
    assert report.verdict is Verdict.SCORE_MISMATCH
    assert report.discrepancy is not None
    assert (report.discrepancy.round, report.discrepancy.event) == (r, e)
    assert "score changes" in report.discrepancy.what
    assert "2.5" in report.discrepancy.found and "-3" in report.discrepancy.expected
    # And an old record read as exact pays 2.5, not 3.
    stated = dataclasses.replace(
        rounded,
        header=dataclasses.replace(rounded.header, rule_overrides={"self_draw_rounding": "exact"}),
    )
    assert replay(stated).verdict is Verdict.SCORE_MISMATCH


# -- what the reader takes --------------------------------------------------------------------


@pytest.mark.parametrize("bad", [2.4, 5.0, -0.25])
def test_only_whole_points_and_halves_are_read(exact: Game, bad: float) -> None:
    data: dict[str, Any] = canonical.game_to_json(exact)
    r, e, _ = half_wins(exact)[0]
    data["rounds"][r]["events"][e]["recorded"]["deltas"][0] = bad
    with pytest.raises(MalformedLogError) as caught:
        canonical.loads(json.dumps(data))
    assert caught.value.where == f"rounds[{r}].events[{e}].recorded.deltas[0]"
    assert "an integer or a half (2.5)" in str(caught.value)


def test_halves_are_read_wherever_points_are(exact: Game) -> None:
    data = canonical.game_to_json(exact)
    data["final"]["scores"][0] += 0.5
    data["final"]["scores"][1] -= 0.5
    data["rounds"][1]["scores"] = [0.5, -0.5, 0, 0]
    (game,) = canonical.loads(json.dumps(data))
    assert game.recorded_final is not None and game.recorded_final.scores[0] % 1 == 0.5
    assert game.rounds[1].scores == (0.5, -0.5, 0, 0)
    # The record's figures are then the engine's to judge: the start scores differ.
    report = replay(game)
    assert report.discrepancy is not None and report.discrepancy.what == "start scores"


def test_a_riichi_record_holds_whole_points_only() -> None:
    doc = four_player_doc()
    doc["rounds"][0]["scores"][0] = 25000.5
    assert schema_errors(doc) == [("rounds", 0, "scores", 0)]
    with pytest.raises(MalformedLogError, match="expected an integer"):
        canonical.loads(json.dumps(doc))
