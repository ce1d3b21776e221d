"""The check shared by writers of formats that can only hold riichi games (tenhou.net/6, mjai).

Space mahjong, small mahjong, rule modifiers and Ùzje mahjong have shapes, values or tiles those
formats cannot say; writing one anyway would produce a file that other tools misread. The
writers refuse such a game with an error that names the variant.
"""

from __future__ import annotations

from engine.errors import EngineError, UnsupportedLogError
from engine.events import Game
from engine.rules.presets import with_overrides
from engine.variants.uzje.rules import is_uzje_preset


def refuse_variant(game: Game, format_title: str) -> None:
    """Raise :class:`UnsupportedLogError` when the game is not riichi mahjong.

    A rule set the engine does not know is left to the writer's own checks.
    """
    name = game.header.ruleset
    variant: str | None
    if is_uzje_preset(name):
        variant = "Ùzje mahjong"
    else:
        try:
            variant = with_overrides(name, game.header.rule_overrides).variant
        except EngineError:
            return
    if variant is not None:
        raise UnsupportedLogError(
            f"{format_title} holds riichi mahjong games; this one is {variant} (rule set {name})"
        )
