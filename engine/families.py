"""Game families: riichi, Ùzje, and whatever comes next, each one object behind one registry.

A *game family* is a game with rules of its own all the way down: its rule sets (presets), how
its records write tiles and events (:class:`~engine.dialect.Dialect`), its replayer, its
frames for the viewer, its self-play, how a hand is scored from text, what a win's value counts
(:class:`Unit`), and which of the formats built for riichi can hold its games. Riichi mahjong,
in all its rule sets (Tenhou, Mahjong Soul, the associations, space and small mahjong), is one
family; Ùzje mahjong (``seeds/002``) is another.

Code that must treat a game by its family asks this registry (:func:`family_of`, by the
``ruleset`` a record names) instead of testing for a family by name. The registry names each
family by dotted path and imports it on first use, like healthchecks' ``TRANSPORTS`` and
python-chess's variant list: this module imports no family, so every family may build on the
modules that ask it (the replayer, the frames, the canonical format) without an import cycle,
and adding a family is one package plus one line in :data:`FAMILIES`.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Final

from engine.dialect import Dialect
from engine.errors import UnknownRulesetError
from engine.events import Game
from engine.report import ReplayReport

if TYPE_CHECKING:  # (the viewer's types: a verification never needs their module)
    from engine.frame_types import RoundFrames, RoundInfo, StudyTally

#: Every game family by name: ``"module.path:ATTRIBUTE"`` of its :class:`GameFamily` object.
#: A rule set belongs to the first family that owns it, in this order.
FAMILIES: Final[dict[str, str]] = {
    "riichi": "engine.variants.riichi.family:FAMILY",
    "uzje": "engine.variants.uzje.family:FAMILY",
}

#: The family of a rule set no family owns: its replay refuses the game as ``unsupported``.
DEFAULT_FAMILY: Final = "riichi"


class Unit(StrEnum):
    """What a win's ``han`` counts in a family's reports (``WinSummary.han``,
    ``RoundFact.han``)."""

    #: Riichi han.
    HAN = "han"
    #: Points: the win's value (small mahjong, whose conditions add up to points; fu is 0).
    POINTS = "points"
    #: Fan in tenths (Ùzje mahjong: ``36`` is 3.6 fan).
    FAN = "fan"


class GameFamily(ABC):
    """One game family: everything the engine's shared code asks of it.

    A family is one object (a module constant named in :data:`FAMILIES`). Its methods import
    what they need from the family's own modules; the family's modules may import the shared
    types (:mod:`engine.report`, :mod:`engine.frame_types`, :mod:`engine.dialect`) and the
    core, never another family.
    """

    #: The family's name in :data:`FAMILIES`.
    name: ClassVar[str]
    #: What people call it ("Ùzje mahjong").
    title: ClassVar[str]
    #: The formats built for riichi mahjong (``tenhou6``, ``mjai``, ``mjlog``) that can hold
    #: this family's games (see :meth:`variant` for the rule sets among them that cannot).
    riichi_formats: ClassVar[frozenset[str]] = frozenset()

    @property
    @abstractmethod
    def dialect(self) -> Dialect:
        """How the family's canonical documents write tiles and which events they hold."""

    @abstractmethod
    def preset_names(self) -> Collection[str]:
        """The names of the family's rule sets (presets)."""

    def owns(self, ruleset: str) -> bool:
        """Whether a record's ``ruleset`` names one of this family's presets."""
        return ruleset in self.preset_names()

    @abstractmethod
    def value_unit(self, ruleset: str) -> Unit:
        """What the ``han`` of a win counts under this rule set."""

    def variant(self, game: Game) -> str | None:
        """What keeps this game out of the riichi-only formats that hold the family's games,
        in words (``"small mahjong"``), or ``None`` when they can hold it."""
        return None

    @abstractmethod
    def replay(self, game: Game, *, stop_at_first: bool = False) -> ReplayReport:
        """Replay a game of this family (see :func:`engine.replay.replay`)."""

    @abstractmethod
    def round_frames(self, game: Game, round_index: int, first_dealer: int | None) -> RoundFrames:
        """Every frame of one round (see :func:`engine.frames.round_frames`)."""

    @abstractmethod
    def round_list(self, game: Game) -> list[RoundInfo]:
        """Every round with how it ends (see :func:`engine.frames.round_list`)."""

    def round_list_after_replay(self, game: Game, report: ReplayReport) -> list[RoundInfo]:
        """:meth:`round_list`, taken from a replay of the whole game where the family can."""
        return self.round_list(game)

    def study(self, game: Game) -> list[StudyTally] | None:
        """Each round's discard decisions per seat, and how many kept the most tile
        acceptance (``docs/stats.md``; riichi: :func:`engine.study.riichi_study`); ``None``
        for a family whose hands the engine counts no shanten for (Ùzje).

        :raises EngineError: the game's rule set is unknown.
        """
        return None

    def replay_and_study(self, game: Game) -> tuple[ReplayReport, list[StudyTally] | None]:
        """:meth:`replay`, and :meth:`study` of a game the rules agree with (``None`` for one
        they do not): in one pass of the rules where the family can, else one after the
        other."""
        report = self.replay(game)
        return report, self.study(game) if report.agrees else None

    def check_modifiers(
        self,
        ruleset: str,
        modifiers: Sequence[str],
        overrides: Mapping[str, object] | None = None,
        *,
        seat_powers: Sequence[str | None] = (),
    ) -> None:
        """Refuse rule modifiers (:mod:`engine.rules.modifiers`) the family cannot apply under
        the rule set (with these option ``overrides``, as a record states them), rather than
        ignore them: ``modifiers`` in force for every seat, ``seat_powers`` the power each seat
        chose (``None`` for none). By default a family applies none.

        :raises UnknownRulesetError: naming the modifiers and the family (or the rule set).
        """
        named = [*modifiers, *(power for power in seat_powers if power)]
        if named:
            raise UnknownRulesetError(
                f"{self.title} applies no rule modifiers: {', '.join(named)} cannot be used "
                f"with rule set {ruleset}"
            )

    @abstractmethod
    def simulate(
        self,
        ruleset: str,
        games: int,
        seed: int,
        modifiers: Sequence[str] = (),
        *,
        seat_powers: Sequence[str | None] = (),
    ) -> Iterable[Game]:
        """Self-played games under one of the family's presets, with these rule modifiers in
        force for every seat and these ``seat_powers`` chosen by each seat (``None`` for none;
        :meth:`check_modifiers` refuses those it cannot apply).

        :raises UnknownRulesetError: see :meth:`check_modifiers`.
        """

    @abstractmethod
    def score_text(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Score one hand given as text by the command line's ``score`` options (``ruleset``,
        ``hand``, ``win``, ``meld``, ``dora``, ...): the JSON result, with ``error`` and
        ``message`` members when the hand cannot be scored.

        :raises ValueError: an option the family needs is missing (the message says which).
        """

    @abstractmethod
    def describe_score(self, ruleset: str, result: Mapping[str, Any]) -> str:
        """A :meth:`score_text` result in words, for people."""

    def win_hand_text(self, tiles: Sequence[str]) -> str | None:
        """A recorded winning hand (the canonical document's tile strings) in the family's own
        notation, to show beside the win; ``None`` when the family shows none (riichi: the
        viewer shows the hand)."""
        return None


def _load(path: str) -> GameFamily:
    """The family object at ``"module:ATTRIBUTE"``, read at each look-up (the module imported
    the first time), so that a module's family may be replaced (a test's monkeypatch)."""
    module_name, _, attribute = path.partition(":")
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    family = getattr(module, attribute or "FAMILY")
    if not isinstance(family, GameFamily):
        raise TypeError(f"{path} is not a GameFamily")
    return family


def family_named(name: str) -> GameFamily:
    """The family registered under this name.

    :raises KeyError: no family has that name.
    """
    return _load(FAMILIES[name])


def families() -> list[GameFamily]:
    """Every registered family, in registry order (each imported on first use)."""
    return [_load(path) for path in FAMILIES.values()]


def family_of(ruleset: str) -> GameFamily:
    """The family whose preset a record's ``ruleset`` names; the default family (riichi) for a
    name no family owns, whose replay then refuses the game as ``unsupported``."""
    for path in FAMILIES.values():
        family = _load(path)
        if family.owns(ruleset):
            return family
    return family_named(DEFAULT_FAMILY)


def preset_names() -> list[str]:
    """Every family's preset names, sorted within each family, in registry order."""
    return [name for family in families() for name in sorted(family.preset_names())]


def is_preset_name(name: str) -> bool:
    """Whether some family has a preset of this name, asking the families in registry order
    (a riichi name imports no other family)."""
    return any(_load(path).owns(name) for path in FAMILIES.values())


def with_modifiers(game: Game, modifiers: Sequence[str]) -> Game:
    """The game as played with these rule modifiers (an upload's choice, for records that
    cannot state them): its header's ``rule_overrides`` name them. A record that states
    modifiers of its own keeps them, and must state the same ones.

    :raises UnknownRulesetError: the record states other modifiers, or the game's family cannot
        apply these under its rule set (:meth:`GameFamily.check_modifiers`), naming them.
    """
    if not modifiers:
        return game
    header = game.header
    stated = header.rule_overrides.get("modifiers")
    if stated is not None:
        names = list(stated) if isinstance(stated, list | tuple) else [stated]
        if sorted(map(str, names)) != sorted(modifiers):
            raise UnknownRulesetError(
                f"the record states rule modifiers {', '.join(map(str, names)) or 'none'}, not "
                f"the {', '.join(modifiers)} chosen for it"
            )
        return game
    family_of(header.ruleset).check_modifiers(header.ruleset, modifiers, header.rule_overrides)
    overrides = {**header.rule_overrides, "modifiers": list(modifiers)}
    return dataclasses.replace(game, header=dataclasses.replace(header, rule_overrides=overrides))
