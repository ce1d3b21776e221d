"""Riichi mahjong as a game family (:mod:`engine.families`): the family object the registry names.

Every rule set of :mod:`engine.rules` is riichi: Tenhou and Mahjong Soul, the associations and
leagues, and the variants that are options of riichi (space mahjong's shapes, small mahjong's
table and scoring, rule modifiers). The family's replayer and framer are this package's
(:mod:`~engine.variants.riichi.replay`, :mod:`~engine.variants.riichi.frames`); its state
machine, scoring, rules, self-play and study aids are the engine's core (:mod:`engine.state`,
:mod:`engine.scoring`, :mod:`engine.rules`, :mod:`engine.sim`, :mod:`engine.study`). This module
answers the registry's questions with them, importing each part when it is first asked for
(finding a game's family, or listing the presets, loads no replayer). The riichi-only formats
hold riichi games, except those whose rule set :attr:`~engine.rules.ruleset.Ruleset.variant`
names (shapes, values or modifiers those formats cannot say).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.dialect import RIICHI, Dialect
from engine.errors import EngineError
from engine.events import Game
from engine.families import GameFamily, Unit
from engine.report import ReplayReport
from engine.rules import PRESETS
from engine.rules.presets import ruleset_of, with_overrides
from engine.rules.ruleset import Scoring

if TYPE_CHECKING:  # (the viewer's types, whose module a verification does not need)
    from engine.frame_types import RoundFrames, RoundInfo, StudyTally


class RiichiFamily(GameFamily):
    """Riichi mahjong in all the rule sets of :mod:`engine.rules`."""

    name = "riichi"
    title = "riichi mahjong"
    riichi_formats = frozenset({"tenhou6", "mjai", "mjlog"})

    @property
    def dialect(self) -> Dialect:
        return RIICHI

    def preset_names(self) -> Collection[str]:
        return PRESETS.keys()

    def value_unit(self, ruleset: str) -> Unit:
        preset = PRESETS.get(ruleset)
        if preset is not None and preset.scoring is Scoring.SMALL:
            return Unit.POINTS
        return Unit.HAN

    def variant(self, game: Game) -> str | None:
        """The rule set's :attr:`~engine.rules.ruleset.Ruleset.variant`; ``None`` for a rule
        set the engine does not know (left to the writer's own checks)."""
        try:
            ruleset = with_overrides(game.header.ruleset, game.header.rule_overrides)
        except EngineError:
            return None
        return ruleset.variant

    def replay(self, game: Game, *, stop_at_first: bool = False) -> ReplayReport:
        from engine.variants.riichi.replay import replay

        return replay(game, stop_at_first=stop_at_first)

    def round_frames(self, game: Game, round_index: int, first_dealer: int | None) -> RoundFrames:
        from engine.variants.riichi.frames import round_frames

        return round_frames(game, round_index, first_dealer=first_dealer)

    def round_list(self, game: Game) -> list[RoundInfo]:
        from engine.variants.riichi.frames import round_list

        return round_list(game)

    def round_list_after_replay(self, game: Game, report: ReplayReport) -> list[RoundInfo]:
        from engine.variants.riichi.frames import round_list_after_replay

        return round_list_after_replay(game, report)

    def study(self, game: Game) -> list[StudyTally] | None:
        from engine.study import riichi_study

        return riichi_study(game)

    def replay_and_study(self, game: Game) -> tuple[ReplayReport, list[StudyTally] | None]:
        """The replay pushes every hand's events through the study
        (:class:`engine.study.StudyPass`), so that a verification's one pass of the rules
        serves both; the study stands apart only for a record judged by an older era's rules
        (the pass followed the header's, which refused it)."""
        from engine.study import StudyPass
        from engine.variants.riichi.replay import replay

        try:
            study = StudyPass(ruleset_of(game))
        except EngineError:
            return self.replay(game), None  # unsupported: the replay says so
        try:
            report = replay(game, follower=study)
        except Exception:  # a fault of the study's must not cost the verdict: replay alone
            return self.replay(game), None
        if not report.agrees:
            return report, None
        if report.era is not None:
            return report, self.study(game)
        return report, study.tallies()

    def check_modifiers(
        self,
        ruleset: str,
        modifiers: Sequence[str],
        overrides: Mapping[str, object] | None = None,
        *,
        seat_powers: Sequence[str | None] = (),
    ) -> None:
        """Every riichi rule set applies the modifiers' play hooks, table-wide or a seat's own;
        the rule set itself refuses an unknown name, one it cannot apply (small mahjong's points
        have no place for a modifier's han; a swap needs dora indicators: :func:`engine.rules.
        modifiers.check_applicable`), and seat powers that are not one per seat."""
        changes: dict[str, object] = {}
        if modifiers:
            changes["modifiers"] = list(modifiers)
        if any(seat_powers):
            changes["seat_powers"] = list(seat_powers)
        if changes:
            with_overrides(ruleset, {**(overrides or {}), **changes})

    def simulate(
        self,
        ruleset: str,
        games: int,
        seed: int,
        modifiers: Sequence[str] = (),
        *,
        seat_powers: Sequence[str | None] = (),
    ) -> Iterable[Game]:
        from engine.sim.selfplay import simulate

        return simulate(ruleset, games, seed, modifiers=modifiers, seat_powers=seat_powers)

    def score_text(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A riichi hand in MPSZ: the request of ``docs/scoring.md`` built from the options
        (the winning tile defaults to the last tile written)."""
        from engine.scoring.request import FLAGS, score_request

        request: dict[str, Any] = {
            "ruleset": options["ruleset"],
            "modifiers": list(options.get("modifiers") or ()),
            "hand": options["hand"],
            "win": options.get("win"),
            "melds": [],
            "dora": options.get("dora") or "",
            "ura": options.get("ura") or "",
            "seat_wind": options.get("seat_wind") or "E",
            "round_wind": options.get("round_wind") or "E",
        }
        for counter in ("honba", "sticks", "kita"):
            request[counter] = options.get(counter) or 0
        if request["win"] is None:
            request["win"] = last_tile(options["hand"])
        for meld in options.get("meld") or ():
            meld_type, _, tiles = meld.partition(":")
            request["melds"].append({"type": meld_type, "tiles": tiles})
        for flag in FLAGS:
            if options.get(flag):
                request[flag] = True
        for seat in ("discarder", "pao"):
            if options.get(seat):
                request[seat] = options[seat]
        return score_request(request)

    def describe_score(self, ruleset: str, result: Mapping[str, Any]) -> str:
        preset = PRESETS.get(ruleset)
        if preset is not None and preset.scoring is Scoring.SMALL:
            return _describe_small(result)
        return _describe(result)


def last_tile(hand: str) -> str:
    """The last tile written in an MPSZ string (the usual place of the winning tile)."""
    suit = hand.rstrip()[-1:]
    digits = hand.rstrip()[:-1]
    return f"{digits[-1:]}{suit}"


def _payment_lines(result: Mapping[str, Any]) -> list[str]:
    lines = ["paid: " + ", ".join(f"{p['payer']} {p['amount']}" for p in result["payments"])]
    if result["sticks"]:
        lines.append(f"riichi sticks: {result['sticks']}")
    lines.append(f"total: {result['total']}")
    return lines


def _points(count: int) -> str:
    return f"{count} point" if count == 1 else f"{count} points"


def _describe_small(result: Mapping[str, Any]) -> str:
    """Small mahjong has no han, fu or limits: the conditions' points add up (the result's
    ``han`` member carries that sum, so the JSON stays one shape)."""
    lines = [_points(result["han"])]
    lines += [f"  {item['name']:<18} {_points(item['han']):>9}" for item in result["yaku"]]
    return "\n".join(lines + _payment_lines(result))


def _describe(result: Mapping[str, Any]) -> str:
    lines = [
        f"{result['han']} han {result['fu']} fu"
        + (f" ({result['limit'].replace('_', ' ')})" if result["limit"] else "")
    ]
    lines += [f"  {yaku['name']:<18} {yaku['han']:>2} han" for yaku in result["yaku"]]
    lines.append("fu: " + ", ".join(f"{item['name']} {item['fu']}" for item in result["fu_items"]))
    return "\n".join(lines + _payment_lines(result))


#: The family object :data:`engine.families.FAMILIES` names.
FAMILY = RiichiFamily()
