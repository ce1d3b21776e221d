"""Study aids of riichi games: the tile acceptance of every discard decision.

A *decision* is a discard a player chose: the moment after their draw (a replacement draw
included) or their chi or pon, when they hold ``3n+2`` concealed tiles and their next move is a
discard (after a riichi declaration, if any). Moments where the next move is something else (a
kan, a north, a win, nine terminals) decide no discard, and a player in riichi has no choice (the
drawn tile goes), so neither counts. At each decision, every discard the rules allow (a swap call
forbids some) is valued by :func:`engine.hand.acceptance.acceptance`, from what that player can
see (their own concealed tiles, every river, every meld, the extracted norths and the dora
indicators), and the discard made is compared with the best: it *kept the most acceptance* when
it left the lowest shanten any discard leaves with the best count there (``docs/stats.md``).

The framer shows each decision in its frame (:func:`study_of`, :class:`~engine.frame_types.Study`);
:func:`riichi_study` counts a whole game's decisions per round and seat, for the statistics
(``stats``, computed after the verification, never inside the replay: ``python -m engine
verify`` does not pay for it). Ùzje mahjong has no shanten count in the engine, so no study
(:meth:`engine.families.GameFamily.study` is ``None`` for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine.errors import EngineError, IllegalActionError
from engine.events import Chi, Discard, DoraRevealed, Draw, Event, Game, Pon, RiichiDeclared
from engine.frame_types import DiscardOption, Study, StudyTally
from engine.hand.acceptance import Acceptance, acceptance, discard_loss
from engine.hand.melds import called_honour_runs
from engine.hand.shapes import shapes_for
from engine.replay import ruleset_of
from engine.rules.ruleset import Ruleset
from engine.state import GameState
from engine.tiles import EAST, KINDS, NORTH, SANMA_MISSING, format_kind

__all__ = [
    "StudyContext",
    "chosen_discard",
    "riichi_study",
    "seen_on_table",
    "study_of",
    "tile_copies",
]

#: Events that may come between a decision and its discard without being a move of their own.
_BETWEEN: Final = (RiichiDeclared, DoraRevealed)


def tile_copies(ruleset: Ruleset) -> list[int]:
    """Copies of each kind in the rule set's tiles: 4, none of 2m-8m in sanma, no honours in
    small mahjong."""
    return [
        0
        if (ruleset.sanma and kind in SANMA_MISSING) or (kind >= EAST and not ruleset.honors)
        else 4
        for kind in range(KINDS)
    ]


def seen_on_table(state: GameState) -> list[int]:
    """Copies of each kind every seat can see: rivers (a called tile once, in its meld), melds,
    extracted norths and the dora indicators."""
    seen = [0] * KINDS
    for data in state.seats:
        for tile, called in zip(data.river, data.river_called, strict=True):
            if not called:
                seen[tile.kind] += 1
        for meld in data.melds:
            for tile in meld.tiles:
                seen[tile.kind] += 1
        seen[NORTH] += data.kita
    for tile in state.dora_indicators:
        seen[tile.kind] += 1
    return seen


def chosen_discard(events: Sequence[Event], index: int, seat: int) -> int | None:
    """The kind ``seat`` discarded as its next move after ``events[index]`` (a riichi
    declaration or a dora indicator may come between), or ``None`` when its next move was not
    a discard."""
    for later in events[index + 1 :]:
        if isinstance(later, Discard):
            return later.tile.kind if later.seat == seat else None
        if isinstance(later, _BETWEEN) and getattr(later, "seat", seat) == seat:
            continue
        return None
    return None


class StudyContext:
    """What a rule set fixes for every decision: the tiles in the set, sanma, the shapes."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.copies = tile_copies(ruleset)
        self.three_player = ruleset.sanma
        self.shapes = shapes_for(ruleset)

    def decision_seat(self, state: GameState, event: Event) -> int | None:
        """The seat that holds a discard decision after ``event`` was applied to ``state``
        (its draw or call), unless it is in riichi; ``None`` otherwise."""
        if not isinstance(event, Draw | Chi | Pon):
            return None
        seat = event.seat
        if state.seats[seat].riichi:
            return None
        return seat

    def acceptance(self, state: GameState, seat: int, seen: Sequence[int]) -> Acceptance | None:
        """Every discard ``seat`` may make now with its acceptance (``seen``: as
        :func:`seen_on_table`); ``None`` for a hand the engine cannot value."""
        data = state.seats[seat]
        try:
            return acceptance(data.counts, self.copies, seen, **self._options(state, seat))
        except (EngineError, ValueError):
            return None

    def kept_most(self, state: GameState, seat: int, discarded: int) -> bool | None:
        """Whether discarding the kind ``discarded`` now keeps the most acceptance
        (:func:`engine.hand.acceptance.discard_loss` is 0); ``None`` for a hand the engine
        cannot value."""
        data = state.seats[seat]
        try:
            loss = discard_loss(
                data.counts,
                self.copies,
                seen_on_table(state),
                discarded,
                **self._options(state, seat),
            )
        except (EngineError, ValueError):
            return None
        return loss == 0

    def _options(self, state: GameState, seat: int) -> dict[str, Any]:
        """The rule set's and the moment's options of :func:`engine.hand.acceptance.acceptance`:
        sanma, the shapes (with what the seat called, for space mahjong's open thirteen
        orphans) and the discards a swap call forbids."""
        data = state.seats[seat]
        discards = None
        if data.forbidden and not self.ruleset.kuikae:
            held = [kind for kind in range(KINDS) if data.counts[kind]]
            discards = [kind for kind in held if kind not in data.forbidden]
        shapes = self.shapes
        return {
            "three_player": self.three_player,
            "shapes": shapes,
            "called": None if shapes.standard else called_honour_runs(data.melds),
            "discards": discards,
        }


def study_of(found: Acceptance, seat: int, discarded: int) -> Study:
    """The frame's study aid of one decision: ``found`` for ``seat``, which discarded the kind
    ``discarded``."""
    unseen: dict[int, int] = {}
    options = []
    for choice in found.choices:
        unseen.update(zip(choice.accepted, choice.unseen, strict=True))
        options.append(
            DiscardOption(
                tile=format_kind(choice.kind),
                shanten=choice.shanten,
                count=choice.count,
                tiles=tuple(map(format_kind, choice.accepted)),
            )
        )
    return Study(
        seat=seat,
        shanten=found.shanten,
        best=found.best,
        options=tuple(options),
        unseen=tuple((format_kind(kind), unseen[kind]) for kind in sorted(unseen)),
        discard=format_kind(discarded),
        loss=found.loss(discarded),
    )


def riichi_study(game: Game) -> list[StudyTally]:
    """Every round's discard decisions per seat, and how many kept the most acceptance, of a
    riichi game: each round replayed from its deal as the frames replay it; a round the rules
    refuse counts up to the refused event. Seats of a round that cannot start have no tally.

    :raises EngineError: the game's rule set is unknown.
    """
    ruleset = ruleset_of(game)
    context = StudyContext(ruleset)
    first_dealer = game.rounds[0].dealer if game.rounds else 0
    players = ruleset.players
    tallies = []
    for index, round_ in enumerate(game.rounds):
        state = GameState(ruleset, first_dealer=first_dealer)
        try:
            state.start_round(round_)
        except IllegalActionError:
            continue
        decisions = [0] * players
        kept = [0] * players
        events = round_.events
        for number, event in enumerate(events):
            if state.push(event) is not None:
                break
            seat = context.decision_seat(state, event)
            if seat is None:
                continue
            discarded = chosen_discard(events, number, seat)
            if discarded is None:
                continue
            best = context.kept_most(state, seat, discarded)
            if best is None:
                continue
            decisions[seat] += 1
            if best:
                kept[seat] += 1
        tallies += [StudyTally(index, seat, decisions[seat], kept[seat]) for seat in range(players)]
    return tallies
