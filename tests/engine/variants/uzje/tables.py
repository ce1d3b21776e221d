"""Hand-made Ùzje tables for the state-machine tests: deal chosen hands, and (optionally) build
the rest of the wall around chosen front, back and dead-wall tiles."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.events import Discard, Draw, Event, Round, Wall
from engine.tiles import Tile
from engine.variants.uzje import tiles as T
from engine.variants.uzje.events import FlowerExposed, UzjeEvent
from engine.variants.uzje.rules import UZJE_4P, UzjeRules
from engine.variants.uzje.state import UzjePhase, UzjeState


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(T.parse_tiles(text))


def tile(text: str) -> Tile:
    return T.parse_tile(text)


def table(
    hands: Sequence[str],
    *,
    dealer: int = 0,
    bonus: str = "P",
    rules: UzjeRules = UZJE_4P,
    wall: bool = False,
    front: str = "",
    back: str = "",
    dead: str = "",
    wind: int = 0,
) -> tuple[UzjeState, Round]:
    """A state dealt ``hands`` (seat order). With ``wall``, the live wall starts with ``front``
    and ends with ``back`` (the first back draw is ``back``'s first tile), the dead wall is
    ``bonus`` then ``dead`` then filler; every other tile fills in sorted order."""
    dealt = [tiles(hand) for hand in hands]
    wall_value = None
    if wall:
        pool = Counter(T.tile(kind) for kind in rules.tiles())
        for hand in dealt:
            pool.subtract(hand)
        chosen = [*tiles(bonus), *tiles(dead), *tiles(front), *tiles(back)]
        pool.subtract(chosen)
        assert all(count >= 0 for count in pool.values()), "more copies than exist"
        filler = sorted(pool.elements(), key=T.sort_key)
        dead_size = rules.dead_wall - 1 - len(tiles(dead))
        dead_wall = (*tiles(bonus), *tiles(dead), *filler[:dead_size])
        middle = filler[dead_size:]
        live = (*tiles(front), *middle, *reversed(tiles(back)))
        wall_value = Wall(live=live, replacements=(), dora_indicators=dead_wall, ura_indicators=())
    round_ = Round(
        wind=wind,
        number=1,
        dealer=dealer,
        honba=0,
        sticks=0,
        scores=(0,) * rules.players,
        hands=tuple(dealt),
        dora_indicators=tiles(bonus),
        events=(),
        wall=wall_value,
    )
    state = UzjeState(rules, first_dealer=dealer)
    state.start_round(round_)
    return state, round_


def play(state: UzjeState, *events: UzjeEvent | Event) -> None:
    for event in events:
        state.apply(event)  # type: ignore[arg-type]


def drain(state: UzjeState, stop_when_left: int = 0) -> None:
    """Play on from the wall (known) with every player discarding the tile just drawn, until
    ``stop_when_left`` tiles are left, and the next draw is due (or the wall is empty)."""
    while True:
        if state.phase is UzjePhase.ACT:
            data = state.seats[state.turn]
            if data.held_flowers:
                state.apply(FlowerExposed(state.turn, T.tile(data.held_flowers[0])))
            else:
                assert state.last_draw is not None
                state.apply(Discard(state.turn, T.tile(state.last_draw), tsumogiri=True))
            continue
        if state.live_left <= stop_when_left and state.phase is UzjePhase.CLAIM:
            return
        draws = [e for e in state.legal_actions() if isinstance(e, Draw)]
        assert len(draws) == 1, state.phase
        state.apply(draws[0])
