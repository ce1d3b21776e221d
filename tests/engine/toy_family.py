"""A toy game family for the registry's tests (tests/engine/test_families.py): the whole of it is
this module plus one line in ``engine.families.FAMILIES``, which the tests add with
``monkeypatch``.

Toy mahjong deals two players a few riichi tiles, writes its tiles in capitals (``"5M"``), and
counts a win in points; every game it plays is one round of a draw and a discard. Its state
machine (:class:`ToyTable`, an :class:`engine.table.Table`) checks only that each event names a
seat at the table, and a game is one hand; the replay loop is the shared one
(:class:`engine.report.ReplayDriver`), given the toy's table and nothing to compare, and so is
the round list (:func:`engine.frame_types.round_outcomes`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.dialect import Dialect
from engine.events import (
    EVENT_TYPES,
    Discard,
    Draw,
    Event,
    Game,
    GameHeader,
    Player,
    Round,
    Source,
)
from engine.families import GameFamily, Unit
from engine.frame_types import RoundFrames, RoundInfo, round_outcomes
from engine.game_flow import RoundPosition
from engine.report import ReplayDriver, ReplayReport
from engine.tiles import Tile, parse_tile

PRESET = "toy-2p"


def _format_tile(tile: Tile) -> str:
    return str(tile).upper()


def _parse_tile(text: str) -> Tile:
    return parse_tile(text.lower())


@dataclass(frozen=True, slots=True)
class ToyHand:
    """How a toy hand ended: always the same way."""

    kind: str = "toy"


class ToyTable:
    """Toy mahjong's state machine: every event must name a seat at the table, a hand ends
    when its events do, and a game is one hand with no score changes."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.scores: list[int] = [0] * players
        self.finished = False

    def start_round(self, round_: Round) -> None:
        self.scores = list(round_.scores)
        self.finished = False

    def push(self, event: Event) -> str | None:
        seat = getattr(event, "seat", 0)
        if not 0 <= seat < self.players:
            return f"seat {seat} is not at this {self.players}-player table"
        self.finished = True
        return None

    def push_events(self, events: Sequence[Event]) -> tuple[int, str] | None:
        for number, event in enumerate(events):
            problem = self.push(event)
            if problem is not None:
                return number, problem
        return None

    def settle(self) -> ToyHand:
        return ToyHand()

    def end_round(self) -> RoundPosition | None:
        return None


class _ToyReplay(ReplayDriver[ToyTable, ToyHand]):
    """The shared replay loop over the toy's table."""

    def new_table(self, first_dealer: int) -> ToyTable:
        return ToyTable(self.game.players)

    def starting_scores(self) -> list[int]:
        return [0] * self.game.players

    def scores_as_recorded(self, table: ToyTable) -> list[int]:
        return list(table.scores)

    def check_hand(self, index: int, round_: Round, result: ToyHand, table: ToyTable) -> None:
        pass  # a toy record states no figures

    def final_scores(self, table: ToyTable, first_dealer: int) -> list[int]:
        return list(table.scores)


class ToyFamily(GameFamily):
    name = "toy"
    title = "toy mahjong"

    @property
    def dialect(self) -> Dialect:
        return TOY_DIALECT

    def preset_names(self) -> Collection[str]:
        return (PRESET,)

    def value_unit(self, ruleset: str) -> Unit:
        return Unit.POINTS

    def replay(self, game: Game, *, stop_at_first: bool = False) -> ReplayReport:
        return _ToyReplay(game, game.header.ruleset, stop_at_first).run()

    def round_frames(self, game: Game, round_index: int, first_dealer: int | None) -> RoundFrames:
        raise IndexError("toy mahjong has no frames")

    def round_list(self, game: Game) -> list[RoundInfo]:
        return round_outcomes(game, lambda: ToyTable(game.players))

    def simulate(
        self,
        ruleset: str,
        games: int,
        seed: int,
        modifiers: Sequence[str] = (),
        *,
        seat_powers: Sequence[str | None] = (),
    ) -> Iterable[Game]:
        # Toy mahjong applies no rule modifier, table-wide or a seat's own.
        self.check_modifiers(ruleset, modifiers, seat_powers=seat_powers)
        tiles = [parse_tile(text) for text in ("1m", "2m", "3p", "4s", "5z")]
        for number in range(games):
            yield Game(
                header=GameHeader(
                    ruleset=ruleset,
                    rule_overrides={},
                    players=(Player("A"), Player("B")),
                    source=Source("self-play", f"toy-{seed}-{number}"),
                ),
                rounds=(
                    Round(
                        wind=0,
                        number=1,
                        dealer=0,
                        honba=0,
                        sticks=0,
                        scores=(0, 0),
                        hands=(tuple(tiles[:2]), tuple(tiles[2:4])),
                        dora_indicators=(tiles[4],),
                        events=(Draw(0, tiles[4]), Discard(0, tiles[0])),
                    ),
                ),
            )

    def score_text(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"points": len(options["hand"])}

    def describe_score(self, ruleset: str, result: Mapping[str, Any]) -> str:
        return f"{result['points']} points"

    def win_hand_text(self, tiles: Sequence[str]) -> str | None:
        return " ".join(tiles)


TOY_DIALECT = Dialect("toy", _format_tile, _parse_tile, EVENT_TYPES)
FAMILY = ToyFamily()
