"""A riichi-family state at the start of a hand dealt as the test says (no wall: the test's
events bring the draws). Shared by the state, self-play and variant tests."""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import Round
from engine.rules.presets import get_ruleset
from engine.rules.ruleset import Ruleset
from engine.state import GameState
from engine.tiles import parse_tiles


def dealt_state(
    hands: Sequence[str],
    *,
    ruleset: str | Ruleset = "tenhou-4p",
    dealer: int = 0,
    indicators: str = "",
    scores: tuple[int, ...] | None = None,
) -> GameState:
    """East ``dealer + 1``, no counters, ``hands`` (MPSZ, one per seat) and ``indicators``;
    every score the rule set's starting points unless ``scores`` says otherwise."""
    rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    state = GameState(rules)
    state.start_round(
        Round(
            wind=0,
            number=dealer + 1,
            dealer=dealer,
            honba=0,
            sticks=0,
            scores=scores if scores is not None else (rules.starting_points,) * rules.players,
            hands=tuple(tuple(parse_tiles(hand)) for hand in hands),
            dora_indicators=tuple(parse_tiles(indicators)),
            events=(),
        )
    )
    return state
