"""Rule modifiers: named plug-ins that change a rule set beyond its options.

The mini-game of ``seeds/001`` has "superpower" matches whose rules are not published. Rather
than guess them, the engine offers a plug-in point: a :class:`RuleModifier` is registered under
a name with :func:`register`, and a rule set switches it on by listing the name in its
``modifiers`` option (``ruleset.replace(modifiers=("lucky_sevens",))``). A game record stores the
option like any other, so a modified game replays and verifies under the same modifiers.

A modifier overrides the hooks it needs; the defaults change nothing. The hooks so far:

* :meth:`RuleModifier.bonus` -- extra dora-like entries on a win. They add han to a hand that
  already has a yaku, and never make a hand winnable on their own (like dora).

A modifier that must change play (draws, calls, what a player sees) needs a hook in the state
machine (``engine/state/``): add the method here with a no-op default, call it from the one place
in the state machine that owns that step, and document it in ``docs/rules.md``.

:class:`LuckySevens` is the example modifier: every 7 the winner holds is worth a han.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from engine.errors import UnknownRulesetError
from engine.hand.win import WinningHand
from engine.rules.yaku import YAKU
from engine.tiles import MAN, PIN, SOU


class RuleModifier:
    """Base class of rule modifiers: every hook defaults to "no change"."""

    #: The name a rule set lists in its ``modifiers`` option.
    name: ClassVar[str]
    #: One line for people: what the modifier does.
    description: ClassVar[str]
    #: The entry names :meth:`bonus` may add to a win's yaku list. They are part of the
    #: canonical format's vocabulary (the JSON Schema lists them beside the yaku), so they must
    #: not collide with a yaku name or another modifier's entry.
    entries: ClassVar[tuple[str, ...]] = ()

    def bonus(self, hand: WinningHand, held: bytes) -> tuple[tuple[str, int], ...]:
        """Extra ``(entry name, han)`` pairs for a win, added like dora to every reading.

        ``held`` is the winner's tiles (concealed and called) as counts by standard kind
        (``held[kind]``, see :data:`engine.tiles.PACKED_BYTES`).
        """
        return ()


_ModifierType = TypeVar("_ModifierType", bound=type[RuleModifier])

#: Registered modifiers by name.
MODIFIERS: dict[str, RuleModifier] = {}


def register(cls: _ModifierType) -> _ModifierType:
    """Class decorator: register one instance of a modifier under its ``name``."""
    if cls.name in MODIFIERS:
        raise ValueError(f"a rule modifier named {cls.name!r} is already registered")
    taken = set(YAKU) | set(modifier_entries())
    clashes = [entry for entry in cls.entries if entry in taken]
    if clashes:
        raise ValueError(f"rule modifier {cls.name!r}: entry names already in use: {clashes}")
    MODIFIERS[cls.name] = cls()
    return cls


def modifier_entries() -> tuple[str, ...]:
    """Every entry name the registered modifiers may add to a win, in registration order."""
    return tuple(entry for modifier in MODIFIERS.values() for entry in modifier.entries)


def get_modifiers(names: tuple[str, ...]) -> tuple[RuleModifier, ...]:
    """The registered modifiers of these names, in order.

    :raises UnknownRulesetError: a name no modifier is registered under, listing the known ones.
    """
    unknown = [name for name in names if name not in MODIFIERS]
    if unknown:
        raise UnknownRulesetError(
            f"unknown rule modifier(s): {', '.join(unknown)}; "
            f"known modifiers: {', '.join(sorted(MODIFIERS)) or 'none'}"
        )
    if len(set(names)) != len(names):
        raise UnknownRulesetError(f"a rule modifier is listed twice: {', '.join(names)}")
    return tuple(MODIFIERS[name] for name in names)


#: The standard kinds of the three sevens (7m, 7p, 7s).
_SEVENS = (MAN + 6, PIN + 6, SOU + 6)


@register
class LuckySevens(RuleModifier):
    """Every 7 the winner holds, concealed or called, is worth one han (entry ``lucky_seven``).

    A "superpower" of our own design for the plug-in point: it rewards keeping sevens, which
    pulls hands towards 789 and 567 shapes, and it is easy to check by hand.
    """

    name = "lucky_sevens"
    description = "every 7 held in a winning hand is worth one han, like a dora"
    entries = ("lucky_seven",)

    def bonus(self, hand: WinningHand, held: bytes) -> tuple[tuple[str, int], ...]:
        sevens = sum(held[kind] for kind in _SEVENS)
        return (("lucky_seven", sevens),) if sevens else ()
