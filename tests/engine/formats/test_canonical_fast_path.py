"""The canonical reader's fast path against its careful path (engine/formats/canonical.py).

The reader takes a round's tiles and events by a fast path first, and goes back to the careful
readers at anything the fast path does not vouch for. The two must agree: the same game from
every document, and for a broken one the same error, word for word and at the same place. The
careful path alone is had here by making the fast path give up at once.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import MalformedLogError
from engine.events import Game
from engine.formats import canonical
from engine.sim.selfplay import simulate
from engine.variants.uzje.record import DIALECT as UZJE
from engine.variants.uzje.selfplay import simulate as uzje_simulate
from tests.engine.formats.test_canonical import BUILDERS, paths_in, value_at

#: A game, or the message and place of the error that refused the document.
Outcome = Game | tuple[str, str | None]


def read(doc: Any) -> Outcome:
    try:
        return canonical.game_from_json(doc)
    except MalformedLogError as error:
        return str(error), error.where


def _give_up(self: object, value: object) -> Any:
    raise canonical._Slow


def read_carefully(doc: Any) -> Outcome:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(canonical._FastPath, "tiles_of", _give_up)
        patch.setattr(canonical._FastPath, "events", _give_up)
        return read(doc)


@functools.cache
def documents() -> dict[str, dict[str, Any]]:
    """Games of every shape the writer makes: the hand-built ones (every event type, optional
    values present and absent), and self-played ones with recorded walls, in 4- and 3-player
    riichi, small and space mahjong, and Ùzje (its own tiles and events)."""
    games = {name: build() for name, build in BUILDERS.items()}
    for ruleset in ("tenhou-4p", "tenhou-3p", "small-4p", "space-4p"):
        games[ruleset] = next(simulate(ruleset, 1, 3))
    games["uzje-4p"] = uzje_simulate(1, 5)[0]
    return {name: canonical.game_to_json(game) for name, game in games.items()}


@pytest.mark.parametrize("name", [*BUILDERS, "tenhou-4p", "tenhou-3p", "small-4p", "uzje-4p"])
def test_both_paths_read_the_same_game(name: str) -> None:
    doc = documents()[name]
    game = read(doc)
    assert isinstance(game, Game)
    assert read_carefully(doc) == game
    assert canonical.game_to_json(game) == doc


def _refuse(value: Any, path: str) -> Any:
    raise AssertionError(f"the careful path read {path}")


@pytest.mark.parametrize("name", ["four_player", "sanma", "space-4p", "uzje-4p"])
def test_what_the_writer_writes_takes_the_fast_path(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Otherwise the comparisons here would compare the careful path with itself.
    monkeypatch.setattr(canonical, "_careful_tiles", _refuse)
    monkeypatch.setattr(canonical, "_careful_events", _refuse)
    assert isinstance(read(documents()[name]), Game)


def _respell(doc: dict[str, Any], spell: Callable[[str], str]) -> dict[str, Any]:
    """The document with the tiles of its first round's hands, wall and events spelt anew."""
    doc = copy.deepcopy(doc)
    round_ = doc["rounds"][0]
    round_["hands"] = [[spell(tile) for tile in hand] for hand in round_["hands"]]
    wall = round_["wall"]
    wall["live"] = [spell(tile) for tile in wall["live"]]
    for event in round_["events"]:
        if "tile" in event:
            event["tile"] = spell(event["tile"])
    return doc


@pytest.mark.parametrize("spell", [" {}".format, "{} ".format], ids=["space before", "after"])
def test_other_spellings_of_a_tile_read_the_same_and_are_not_remembered(
    spell: Callable[[str], str],
) -> None:
    # The careful reader accepts MPSZ with spaces; only the writer's spelling is remembered, so
    # that no document can grow the memo beyond the tile set.
    doc = documents()["sanma"]
    respelt = _respell(doc, spell)
    assert read(respelt) == read_carefully(respelt) == read(doc)
    for dialect in (canonical.RIICHI, UZJE):
        known = canonical._fast_path_of(dialect)._known
        assert all(dialect.format_tile(tile) == text for text, tile in known.items())


#: The members that may be null (absent), by event type.
_NULLABLE = {
    "win": ("recorded",),
    "exhaustive_draw": ("recorded_tenpai", "recorded_deltas"),
    "abortive_draw": ("seat", "recorded_deltas"),
}


def test_null_optional_members_read_the_same() -> None:
    doc = copy.deepcopy(documents()["four_player"])
    for round_ in doc["rounds"]:
        for event in round_["events"]:
            for member in _NULLABLE.get(event["type"], ()):
                event.setdefault(member, None)
    doc["rounds"][0]["events"][-1]["recorded"]["liable"] = None
    game = read(doc)
    assert isinstance(game, Game)
    assert read_carefully(doc) == game


# -- broken documents -----------------------------------------------------------------------------


@functools.cache
def _broken_bases() -> dict[str, tuple[dict[str, Any], list[tuple[str | int, ...]]]]:
    """First rounds of the documents (small enough to copy for each example), with the paths
    inside their round, where the fast path reads."""
    bases = {}
    for name in ("four_player", "sanma", "tenhou-4p", "uzje-4p"):
        doc = copy.deepcopy(documents()[name])
        doc["rounds"] = doc["rounds"][:1]
        paths = [("rounds", 0, *path) for path in paths_in(doc["rounds"][0])]
        bases[name] = (doc, paths)
    return bases


#: Values that are nearly right somewhere in a round: tiles of both dialects and others, seats
#: in range and out, event types, booleans where numbers go and the other way round.
_values = st.sampled_from(
    [
        *(None, True, False, 0, 1, 5, 6, -1, 1.5, 10**30, "", "x"),
        *("5m", "0p", "7z", "8z", " 5m", "5mm", "1t", "fs", "Z", "h", "0t"),
        *("draw", "discard", "win", "chow", "nine_terminals", "mangan"),
        *([], {}, ["5m"], ["1t", "1t"], [1, 2], [True], [["riichi", 1]], [["riichi"]]),
        {"type": "draw", "seat": 0, "tile": "1m"},
        {"type": "discard", "seat": 0, "tile": "1m", "tsumogiri": 1},
        {"type": "draw"},
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_broken_round_gets_the_same_error_both_ways(data: st.DataObject) -> None:
    doc, paths = _broken_bases()[data.draw(st.sampled_from(sorted(_broken_bases())))]
    doc = copy.deepcopy(doc)
    path = data.draw(st.sampled_from(paths))
    parent, key = value_at(doc, path[:-1]), path[-1]
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "replace":
        parent[key] = data.draw(_values)
    elif action == "delete":
        del parent[key]
    elif isinstance(parent, dict):
        parent[data.draw(st.sampled_from(["unknown", "type", "seat", "tsumogiri"]))] = data.draw(
            _values
        )
    else:
        parent.insert(key, data.draw(_values))
    assert read(doc) == read_carefully(doc)


# The writer's direct draws and discards ------------------------------------------------------


@pytest.mark.parametrize("preset", ["tenhou-4p-east", "tenhou-3p-east"])
def test_the_writer_writes_draws_and_discards_as_its_field_loop_does(preset: str) -> None:
    """``_event_to_json`` writes draws and discards directly; the general field loop must give
    the same object for each, so a field added to either class shows here."""
    format_tile = canonical.dialect_of(preset).format_tile
    seen = set()
    for game in simulate(preset, 2, 41):
        for round_ in game.rounds:
            for event in round_.events:
                direct = canonical._event_to_json(event, format_tile)
                assert direct == canonical._fields_to_json(event, format_tile)
                assert list(direct) == list(canonical._fields_to_json(event, format_tile))
                seen.add((event.type, direct.get("tsumogiri")))
    assert {("draw", None), ("discard", True), ("discard", False)} <= seen
