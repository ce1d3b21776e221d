"""Ùzje mahjong (``seeds/002``) as a game family (:mod:`engine.families`): its presets, record
dialect, replayer, frames, self-play and hand scoring, all from this package.

Ùzje games fit no format built for riichi (their tiles, melds and values have no place there);
a win's ``han`` is its fan in tenths. The replayer, the frames, self-play and hand scoring are
imported when first asked for: finding a game's family loads only the presets and the dialect.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from engine.dialect import Dialect
from engine.errors import EngineError
from engine.events import Game
from engine.families import GameFamily, Unit
from engine.frame_types import RoundFrames, RoundInfo
from engine.report import ReplayReport
from engine.variants.uzje import record, rules
from engine.variants.uzje import tiles as uzje_tiles


class UzjeFamily(GameFamily):
    """Ùzje mahjong: 4 to 6 players, 16-rank suits, flowers, fan."""

    name = "uzje"
    title = "Ùzje mahjong"

    @property
    def dialect(self) -> Dialect:
        return record.DIALECT

    def preset_names(self) -> Collection[str]:
        return rules.PRESETS.keys()

    def value_unit(self, ruleset: str) -> Unit:
        return Unit.FAN

    def variant(self, game: Game) -> str | None:
        return self.title

    def replay(self, game: Game, *, stop_at_first: bool = False) -> ReplayReport:
        from engine.variants.uzje.replay import replay

        return replay(game, stop_at_first=stop_at_first)

    def round_frames(self, game: Game, round_index: int, first_dealer: int | None) -> RoundFrames:
        from engine.variants.uzje.frames import round_frames

        return round_frames(game, round_index, first_dealer=first_dealer)

    def round_list(self, game: Game) -> list[RoundInfo]:
        from engine.variants.uzje.frames import round_list

        return round_list(game)

    def simulate(
        self,
        ruleset: str,
        games: int,
        seed: int,
        modifiers: Sequence[str] = (),
        *,
        seat_powers: Sequence[str | None] = (),
    ) -> Iterable[Game]:
        """Self-played Ùzje games; Ùzje applies no rule modifier, table-wide or a seat's own
        (:meth:`check_modifiers` refuses any)."""
        self.check_modifiers(ruleset, modifiers, seat_powers=seat_powers)
        from engine.variants.uzje.selfplay import simulate

        return simulate(games, seed, ruleset)

    def score_text(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """An Ùzje hand: UJMJ tiles, melds as ``open:TILES`` or ``closed:TILES``, ``dora`` as
        the bonus tiles shown, ``tsumo`` for a self-draw."""
        self.check_modifiers(options["ruleset"], list(options.get("modifiers") or ()))
        if options.get("win") is None:
            raise ValueError("an Ùzje hand needs --win (the winning tile, UJMJ)")
        from engine.variants.uzje import request

        return request.score_text(
            options["ruleset"],
            options["hand"],
            options["win"],
            melds=options.get("meld") or (),
            self_draw=bool(options.get("tsumo")),
            seat_wind=options.get("seat_wind") or "E",
            round_wind=options.get("round_wind") or "E",
            bonus=options.get("dora") or "",
        )

    def describe_score(self, ruleset: str, result: Mapping[str, Any]) -> str:
        from engine.variants.uzje import request

        return request.describe(dict(result))

    def win_hand_text(self, tiles: Sequence[str]) -> str | None:
        """The hand in UJMJ notation; ``None`` for tiles the notation cannot read."""
        try:
            return uzje_tiles.format_tiles([uzje_tiles.parse_tile(text) for text in tiles])
        except EngineError:
            return None


#: The family object :data:`engine.families.FAMILIES` names.
FAMILY = UzjeFamily()
