"""The tiles seen on the table kept up to date event by event (engine.study.TableTiles) are those
counted again from the state (engine.study.seen_on_table), after every event of corpus games."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import IllegalActionError
from engine.events import AddedKan, Chi, ClosedKan, NorthExtraction, OpenKan, Pon
from engine.rules.presets import ruleset_of
from engine.state import GameState
from engine.study import TableTiles, seen_on_table
from tests.engine.corpus import corpus_games


@pytest.mark.corpus
def test_the_tiles_kept_up_to_date_are_those_counted_again() -> None:
    met: Counter[str] = Counter()
    checked = 0
    for game in corpus_games(2):
        try:
            ruleset = ruleset_of(game)
        except ValueError:
            continue
        first_dealer = game.rounds[0].dealer if game.rounds else 0
        for round_ in game.rounds:
            state = GameState(ruleset, first_dealer=first_dealer)
            try:
                state.start_round(round_)
            except IllegalActionError:
                continue
            table = TableTiles(state)
            assert table.seen == seen_on_table(state)
            for event in round_.events:
                if state.push(event) is not None:
                    break
                table.note(event, state)
                assert table.seen == seen_on_table(state), (game.header.source, event)
                met[type(event).__name__] += 1
                checked += 1
    assert checked > 10_000
    # Every kind of event that shows tiles came up.
    for kind in (Chi, Pon, OpenKan, ClosedKan, AddedKan, NorthExtraction):
        assert met[kind.__name__], kind.__name__
