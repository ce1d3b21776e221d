"""The check shared by writers of formats that can only hold riichi games (tenhou.net/6, mjai).

Space mahjong, small mahjong, rule modifiers and Ùzje mahjong have shapes, values or tiles those
formats cannot say; writing one anyway would produce a file that other tools misread. The
writers refuse such a game with an error that names the variant. Which games a format can hold
is the game family's to say (:attr:`engine.families.GameFamily.riichi_formats` and
:meth:`~engine.families.GameFamily.variant`).
"""

from __future__ import annotations

from engine.errors import UnsupportedLogError
from engine.events import MODIFIER_EVENTS, Game
from engine.families import family_of


def refuse_variant(game: Game, format_name: str, format_title: str) -> None:
    """Raise :class:`UnsupportedLogError` when the format ``format_name`` (``tenhou6``,
    ``mjai``) cannot hold the game: its family's games do not fit the format, or its rule set is
    a variant the format cannot say (rule modifiers included), or it holds an event that only a
    rule modifier makes (:data:`engine.events.MODIFIER_EVENTS`: a ``swap``), whatever its rule set.

    A rule set the engine does not know is left to the writer's own checks.
    """
    name = game.header.ruleset
    family = family_of(name)
    fits = format_name in family.riichi_formats
    variant = family.variant(game) if fits else family.title
    if variant is not None:
        raise UnsupportedLogError(
            f"{format_title} holds riichi mahjong games; this one is {variant} (rule set {name})"
        )
    for round_ in game.rounds:
        for number, event in enumerate(round_.events):
            if isinstance(event, MODIFIER_EVENTS):
                raise UnsupportedLogError(
                    f"{format_title} cannot hold a {event.type} event, a rule modifier's action "
                    f"(round {round_.name}, event {number})"
                )
