"""The game-family registry (engine/families.py): every rule set has one family, found by its
preset, and a new family is one module plus one registry line, with no edit elsewhere."""

from __future__ import annotations

import dataclasses
import io
import json
from contextlib import redirect_stdout

import pytest

from engine import families
from engine.cli import main
from engine.errors import UnsupportedLogError
from engine.events import Discard
from engine.families import Unit, family_named, family_of, preset_names
from engine.formats import canonical, tenhou6
from engine.frames import round_list
from engine.replay import Verdict, replay
from engine.rules import PRESETS
from engine.tiles import parse_tile
from engine.variants.uzje.rules import PRESETS as UZJE_PRESETS
from tests.engine import toy_family

TILE = parse_tile("1m")


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> families.GameFamily:
    """The toy family, registered by its one line."""
    monkeypatch.setitem(families.FAMILIES, "toy", "tests.engine.toy_family:FAMILY")
    return toy_family.FAMILY


def test_every_preset_belongs_to_exactly_one_family() -> None:
    owners = {
        name: [f.name for f in families.families() if f.owns(name)] for name in preset_names()
    }
    assert {name for name, found in owners.items() if len(found) != 1} == set()
    assert all(family_of(name).name == "riichi" for name in PRESETS)
    assert all(family_of(name).name == "uzje" for name in UZJE_PRESETS)
    assert sorted(preset_names()) == sorted([*PRESETS, *UZJE_PRESETS])


def test_an_unknown_rule_set_goes_to_the_default_family_which_refuses_it() -> None:
    assert family_of("no-such-rules") is family_named(families.DEFAULT_FAMILY)


def test_value_units() -> None:
    assert family_of("tenhou-4p").value_unit("tenhou-4p") is Unit.HAN
    assert family_of("small-4p").value_unit("small-4p") is Unit.POINTS
    assert family_of("uzje-4p").value_unit("uzje-4p") is Unit.FAN


def test_which_riichi_only_formats_hold_a_family() -> None:
    assert family_named("riichi").riichi_formats == {"tenhou6", "mjai", "mjlog"}
    assert family_named("uzje").riichi_formats == frozenset()


def test_a_toy_family_is_found_by_its_preset_with_one_registry_line(
    toy: families.GameFamily,
) -> None:
    assert family_of(toy_family.PRESET) is toy
    assert toy_family.PRESET in preset_names()
    game = next(iter(toy.simulate(toy_family.PRESET, 1, 0)))
    # The canonical format speaks the family's dialect (capital tiles) both ways.
    text = canonical.dumps(game)
    assert '"5Z"' in text
    assert canonical.loads(text) == [game]
    # The replayer, the round list and the riichi-only writers ask the family.
    assert replay(game).verdict is Verdict.VERIFIED
    assert [info.result for info in round_list(game)] == ["toy"]
    with pytest.raises(UnsupportedLogError, match="this one is toy mahjong"):
        tenhou6.write([game])


def test_a_toy_family_gets_the_shared_replay_loop_from_its_table(
    toy: families.GameFamily,
) -> None:
    """The toy gives the shared loop (engine.report.ReplayDriver) its table and nothing else:
    where a hand starts, a refused event, and a hand after the game's end are checked as in
    every family."""
    game = next(iter(toy.simulate(toy_family.PRESET, 1, 0)))
    report = replay(game)
    assert report.complete and report.events == 2 and report.final_scores == [0, 0]
    first = game.rounds[0]
    stranger = dataclasses.replace(first, events=(first.events[0], Discard(5, TILE)))
    report = replay(dataclasses.replace(game, rounds=(stranger,)))
    assert report.verdict is Verdict.ILLEGAL_ACTION and report.discrepancy is not None
    assert (report.discrepancy.round, report.discrepancy.event) == (0, 1)
    assert "seat 5 is not at this 2-player table" in report.discrepancy.message
    assert "Discard(seat=5" in report.discrepancy.message
    report = replay(dataclasses.replace(game, rounds=(first, first)))
    assert report.verdict is Verdict.ILLEGAL_ACTION and report.discrepancy is not None
    assert report.discrepancy.message.endswith("the game is over; the record has another hand (E1)")
    late = dataclasses.replace(first, honba=1)
    report = replay(dataclasses.replace(game, rounds=(late,)))
    assert report.verdict is Verdict.VERIFIED_FRAGMENT and not report.complete


def test_the_command_line_simulates_and_scores_a_toy_game(toy: families.GameFamily) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["simulate", "--ruleset", toy_family.PRESET, "--games", "2"]) == 0
    lines = out.getvalue().splitlines()
    assert [json.loads(line)["ruleset"] for line in lines] == [toy_family.PRESET] * 2
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["score", "--ruleset", toy_family.PRESET, "--hand", "123m"]) == 0
    assert out.getvalue().strip() == "4 points"
