"""Rule modifiers: named plug-ins that change a rule set beyond its options.

The mini-game of ``seeds/001`` has "superpower" matches ("Set the superpower to use", "use a
certain superpower") whose powers it does not publish. Rather than guess them, the engine offers a
plug-in point: a :class:`RuleModifier` is registered under a name with :func:`register`, and a rule
set switches it on by listing the name in its ``modifiers`` option
(``ruleset.replace(modifiers=("lucky_sevens",))``). A game record stores the option like any
other, so a modified game replays and verifies under the same modifiers.

A modifier overrides the hooks it needs; the defaults change nothing. The hooks
(:data:`HOOKS`; ``docs/rules.md``, "Rule modifiers"):

* scoring: :meth:`RuleModifier.bonus` -- extra dora-like entries on a win. They add han to a hand
  that already has a yaku, and never make a hand winnable on their own (like dora).
* play, each asked by the one place of the state machine (``engine/state/``) that owns the step:
  :meth:`~RuleModifier.redraw` (a seat whose discard nobody claimed draws again),
  :meth:`~RuleModifier.may_call` (more or fewer calls on a discard), :meth:`~RuleModifier.visible`
  (whose concealed tiles a seat may see: the self-play bots' information) and
  :meth:`~RuleModifier.swap` (a seat swaps a concealed tile with a dora indicator: the
  :class:`~engine.events.Swap` event).

The rules layer is below the state machine, so a play hook sees the game through
:class:`PlayView`, a protocol the state machine fulfils, and never imports it. The state machine
counts each seat's uses of a power in a hand (:meth:`PlayView.power_uses`), so a hook can say
"once per hand".

A modifier applies only where its hooks are applied: :func:`check_applicable` refuses, with an
:class:`~engine.errors.UnknownRulesetError` naming the modifier and the game, a modifier whose
hooks the rule set's scorer does not apply (small mahjong values a win in points, so it has no
place for ``bonus`` han) or whose own needs the rule set does not meet
(:meth:`RuleModifier.refusal`: a swap needs dora indicators). Every rule set checks its modifiers
so when it is made; Ùzje mahjong has a rules value of its own and applies no modifier at all (its
family refuses them, :meth:`engine.families.GameFamily.check_modifiers`).

The example modifiers are of our own design (``seeds/001`` names superpowers but publishes none):
:class:`LuckySevens` (scoring: every 7 the winner holds is worth a han), :class:`SecondChance`
(draw again once per hand), :class:`Swap` (swap a tile with a dora indicator once per hand) and
:class:`Peek` (see the next player's concealed hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, Protocol, TypeVar

from engine.errors import UnknownRulesetError
from engine.hand.win import WinningHand
from engine.rules.yaku import YAKU
from engine.tiles import MAN, PIN, SOU, Tile

#: The scoring hooks: asked while a win is valued.
SCORING_HOOKS: Final = ("bonus",)
#: The play hooks: asked by the state machine (``engine/state/``).
PLAY_HOOKS: Final = ("redraw", "may_call", "visible", "swap")
#: Every hook of :class:`RuleModifier`.
HOOKS: Final = (*SCORING_HOOKS, *PLAY_HOOKS)

#: The hooks each way of valuing a win (``Ruleset.scoring``) applies, beside the play hooks that
#: the state machine applies under every riichi rule set: riichi's scorer
#: (``engine/scoring/readings.py``) adds the ``bonus`` entries to the han; small mahjong's
#: (``engine/scoring/small.py``) counts the points of its own conditions and has no place for
#: them, so it applies none, and a modifier that needs one is refused rather than ignored.
SCORING_HOOKS_APPLIED: Final[dict[str, frozenset[str]]] = {
    "riichi": frozenset(SCORING_HOOKS),
    "small": frozenset(),
}
#: What each way of valuing a win is called in a refusal.
_SCORING_TITLES: Final = {"riichi": "riichi mahjong", "small": "small mahjong"}


class RulesView(Protocol):
    """What a modifier may ask of a rule set (:class:`engine.rules.ruleset.Ruleset` is one; this
    module is imported by it, so it names the options it reads here instead)."""

    @property
    def name(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def modifiers(self) -> tuple[str, ...]: ...

    @property
    def seat_powers(self) -> tuple[str | None, ...]:
        """The power each seat chose (a modifier's name, or ``None``), by seat; empty: none."""
        ...

    @property
    def dora(self) -> bool:
        """Whether the rule set has dora indicators at all."""
        ...

    @property
    def scoring(self) -> str:
        """How a win is valued: ``riichi`` or ``small`` (a ``Scoring`` value)."""
        ...


class PlayView(Protocol):
    """What a play hook may read of the hand in play. The state machine
    (:class:`engine.state.GameState`) is one: the rules layer is below it and cannot import it.
    """

    @property
    def players(self) -> int: ...

    @property
    def dora_indicators(self) -> Sequence[Tile]:
        """The dora indicators showing now."""
        ...

    def in_riichi(self, seat: int) -> bool:
        """Whether the seat has declared riichi."""
        ...

    def concealed(self, seat: int) -> list[Tile]:
        """The seat's concealed tiles, sorted."""
        ...

    def power_uses(self, seat: int, power: str) -> int:
        """How many times the seat has used the power of this name (a modifier's ``name``) in
        this hand."""
        ...


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

    @classmethod
    def hooks(cls) -> frozenset[str]:
        """The hooks (:data:`HOOKS`) this modifier overrides: those it needs applied."""
        return frozenset(
            hook for hook in HOOKS if getattr(cls, hook) is not getattr(RuleModifier, hook)
        )

    def refusal(self, rules: RulesView) -> str | None:
        """Why the modifier cannot apply under this rule set, in words, or ``None`` when it can
        (beyond the hooks, which :func:`check_applicable` checks)."""
        return None

    # -- scoring -----------------------------------------------------------------------------

    def bonus(self, hand: WinningHand, held: bytes) -> tuple[tuple[str, int], ...]:
        """Extra ``(entry name, han)`` pairs for a win, added like dora to every reading.

        ``held`` is the winner's tiles (concealed and called) as counts by standard kind
        (``held[kind]``, see :data:`engine.tiles.PACKED_BYTES`).
        """
        return ()

    # -- play ---------------------------------------------------------------------------------

    def redraw(self, view: PlayView, seat: int) -> bool:
        """Whether ``seat``, whose discard nobody claimed, may draw the live wall's next tile
        itself instead of the next seat (an extra turn). Asked by the state machine's draw
        (``engine/state/draw_discard.py``); the draw is the recorded wall's next tile, as any."""
        return False

    def may_call(self, view: PlayView, seat: int, discarder: int, call: str) -> bool | None:
        """Whether ``seat`` may make the ``call`` (``chi``, ``pon``, ``open_kan``) on
        ``discarder``'s discard: ``True`` allows it where the rule set alone would not (a chi
        from another seat than the left one, a chi in a rule set without chi), ``False``
        forbids it, ``None`` leaves it to the rule set. The call must still be one (a run, a
        triplet, tiles the seat holds, no riichi). Asked by the state machine's calls
        (``engine/state/calls.py``)."""
        return None

    def visible(self, view: PlayView, seat: int) -> frozenset[int]:
        """The other seats whose concealed tiles ``seat`` may see (its own it always sees).
        Asked by :meth:`engine.state.GameState.visible_hands`, which the self-play bots read."""
        return frozenset()

    def swap(self, view: PlayView, seat: int) -> bool:
        """Whether ``seat`` may now swap one of its concealed tiles with a dora indicator (the
        :class:`~engine.events.Swap` event, on its own turn after a draw). Asked by the state
        machine (``engine/state/powers.py``)."""
        return False


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


def modifier_of_entry(entry: str) -> str | None:
    """The name of the registered modifier whose :meth:`~RuleModifier.bonus` may add this entry
    to a win, or ``None`` (a yaku, or nothing known)."""
    for modifier in MODIFIERS.values():
        if entry in modifier.entries:
            return modifier.name
    return None


def get_modifiers(names: Sequence[str]) -> tuple[RuleModifier, ...]:
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


def check_applicable(rules: RulesView) -> tuple[RuleModifier, ...]:
    """The rule set's table-wide modifiers, once each of them and each seat's power is known
    and applies under it.

    :raises UnknownRulesetError: an unknown name (:func:`get_modifiers`); seat powers that are
        not one (or ``None``) per seat, or a seat's power that is in force for every seat
        already; a modifier whose hooks the rule set's scorer does not apply
        (:data:`SCORING_HOOKS_APPLIED`), or whose own needs the rule set does not meet
        (:meth:`RuleModifier.refusal`), naming the modifier, the game and the rule set.
    """
    modifiers = get_modifiers(rules.modifiers)
    chosen = rules.seat_powers
    if chosen and len(chosen) != rules.players:
        raise UnknownRulesetError(
            f"seat_powers names a power (or none) for each seat, in seat order: {rules.name} "
            f"has {rules.players} seats, not {len(chosen)} ({_seat_words(chosen)})"
        )
    powers = get_modifiers(sorted({name for name in chosen if name is not None}))
    for seat, name in enumerate(chosen):
        if name is not None and name in rules.modifiers:
            raise UnknownRulesetError(
                f"seat {seat}'s power {name} is in force for every seat already (modifiers "
                f"{', '.join(rules.modifiers)} in {rules.name}): a seat's power is one more"
            )
    scoring = str(rules.scoring)
    applied = SCORING_HOOKS_APPLIED.get(scoring, frozenset())
    game = _SCORING_TITLES.get(scoring, scoring)
    for modifier in (*modifiers, *powers):
        missing = sorted(modifier.hooks() & set(SCORING_HOOKS) - applied)
        if missing:
            raise UnknownRulesetError(
                f"rule modifier {modifier.name} cannot apply to {game} (rule set {rules.name}): "
                f"its {', '.join(missing)} hook is not applied there ({game} values a win in "
                "points of its own conditions, with no place for extra han)"
            )
        problem = modifier.refusal(rules)
        if problem is not None:
            raise UnknownRulesetError(
                f"rule modifier {modifier.name} cannot apply to {game} (rule set {rules.name}): "
                f"{problem}"
            )
    return modifiers


def _seat_words(chosen: Sequence[str | None]) -> str:
    """Seat powers in words: ``seat 0 swap, seat 1 none``."""
    return ", ".join(f"seat {seat} {name or 'none'}" for seat, name in enumerate(chosen))


def registered_choices() -> list[tuple[str, str]]:
    """Every registered modifier as ``(name, "name: description")``, in registration order (the
    choices of the upload form and the API)."""
    return [(name, f"{name}: {modifier.description}") for name, modifier in MODIFIERS.items()]


# -- the example modifiers ------------------------------------------------------------------------
#
# Our own design, every one: seeds/001 names superpowers ("Set the superpower to use") but does not
# say what any of them does. Each is simple to check by hand, and the self-play bots use it.

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


@register
class SecondChance(RuleModifier):
    """Once per hand, a seat not in riichi whose discard nobody claims may draw the next tile
    itself instead of passing the turn: an extra turn (our design).

    In a record it is a draw by the discarder right after its own unclaimed discard. It ends the
    first go-around as a call does (no double riichi, tenhou, chiihou, renhou or nine terminals
    after it), since the turn order is broken.
    """

    name = "second_chance"
    description = (
        "once per hand, a seat not in riichi whose discard nobody claims may draw again at once "
        "instead of passing the turn"
    )

    def redraw(self, view: PlayView, seat: int) -> bool:
        return not view.in_riichi(seat) and view.power_uses(seat, self.name) == 0


@register
class SwapPower(RuleModifier):
    """Once per hand, on its own turn after a draw, a seat not in riichi may swap one concealed
    tile with a dora indicator: the tile becomes the indicator (so the dora changes) and the
    indicator joins the hand (our design). The seat then discards: a swap is no draw, so no
    tsumo, kan, riichi or kita follows it in that turn.

    In a record it is a ``swap`` event (:class:`engine.events.Swap`). A rule set without dora
    indicators cannot have it.
    """

    name = "swap"
    description = (
        "once per hand, after a draw, a seat not in riichi may swap a concealed tile with a dora "
        "indicator; then it discards"
    )

    def refusal(self, rules: RulesView) -> str | None:
        if not rules.dora:
            return "a swap needs dora indicators, and this rule set has none"
        return None

    def swap(self, view: PlayView, seat: int) -> bool:
        return not view.in_riichi(seat) and view.power_uses(seat, self.name) == 0


@register
class Peek(RuleModifier):
    """Every seat sees the concealed hand of the next player in turn order (the one who draws
    after it, its right-hand neighbour) all hand long (our design).

    It changes what a player knows, not what is legal: records hold no event of it, and a
    replay checks them as any. The self-play bots use it to keep out of the waits they see.
    """

    name = "peek"
    description = "every seat sees the concealed hand of the next player in turn order"

    def visible(self, view: PlayView, seat: int) -> frozenset[int]:
        return frozenset({(seat + 1) % view.players})
