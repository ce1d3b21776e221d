"""A toy game family for the registry's tests (tests/engine/test_families.py): the whole of it is
this module plus one line in ``engine.families.FAMILIES``, which the tests add with
``monkeypatch``.

Toy mahjong deals two players a few riichi tiles, writes its tiles in capitals (``"5M"``), and
counts a win in points; every game it plays is one round of a draw and a discard. Its replayer
checks only that each event names a seat at the table.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from engine.dialect import Dialect
from engine.events import EVENT_TYPES, Discard, Draw, Game, GameHeader, Player, Round, Source
from engine.families import GameFamily, Unit
from engine.frame_types import RoundFrames, RoundInfo
from engine.report import ReplayLedger, ReplayReport, Verdict
from engine.tiles import Tile, parse_tile

PRESET = "toy-2p"


def _format_tile(tile: Tile) -> str:
    return str(tile).upper()


def _parse_tile(text: str) -> Tile:
    return parse_tile(text.lower())


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
        ledger = ReplayLedger(game, game.header.ruleset, stop_at_first)
        for index, round_ in enumerate(game.rounds):
            ledger.round_index, ledger.round_name = index, round_.name
            for number, event in enumerate(round_.events):
                seat = getattr(event, "seat", 0)
                if not 0 <= seat < game.players:
                    ledger.differ(Verdict.ILLEGAL_ACTION, number, "seat", "0 or 1", seat)
            ledger.events += len(round_.events)
        final = [0] * game.players
        return ledger.report(True, final, None, 0)

    def round_frames(self, game: Game, round_index: int, first_dealer: int | None) -> RoundFrames:
        raise IndexError("toy mahjong has no frames")

    def round_list(self, game: Game) -> list[RoundInfo]:
        return [RoundInfo(i, r.name, r.honba, "toy") for i, r in enumerate(game.rounds)]

    def simulate(
        self, ruleset: str, games: int, seed: int, modifiers: Sequence[str] = ()
    ) -> Iterable[Game]:
        self.check_modifiers(ruleset, modifiers)  # toy mahjong applies no rule modifier
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
