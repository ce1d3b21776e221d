"""Tenhou's rules by lobby and by date: what a Tenhou record's header and date say about the rules
its game was played under.

A Tenhou record names its lobby in the ``GO`` tag's ``type`` bits (an mjlog) or in its ``rule``
text (tenhou.net/6), and its date in its log id (``2009061201gm-...``). Both choose the rules:
Tenhou changed some rules over the years, and some lobbies play rules the ranked lobbies do not.
:func:`tenhou_game_rules` turns them into a preset name and the options that differ from it, as
a game record stores them (``GameHeader.ruleset`` and ``rule_overrides``).

Every change is listed in :data:`TENHOU_CHANGES` with its source; ``docs/rules.md`` ("Tenhou by
lobby and date") explains each and says which are still unchecked against real records.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from itertools import combinations
from typing import Final

from engine.rules.presets import PRESETS, apply_overrides, as_preset, tenhou_ruleset
from engine.rules.ruleset import PointsRounding, Ruleset
from engine.rules.tenhou_csrule import decode_csrule

# -- GO type bits ---------------------------------------------------------------------------------

#: Against humans (not bots). Every ranked lobby has it.
VERSUS_HUMANS: Final = 0x0001
#: No red fives.
NO_RED: Final = 0x0002
#: No open tanyao.
NO_KUITAN: Final = 0x0004
#: East-South (hanchan); without it East only.
HANCHAN: Final = 0x0008
#: Three players (sanma).
SANMA: Final = 0x0010
#: Room bits: 0x20 tokujou, 0x80 joukyuu, both houou, neither ippan.
TOKUJOU: Final = 0x0020
JOUKYUU: Final = 0x0080
#: Fast play (shorter thinking time): no change to the rules.
FAST: Final = 0x0040
#: Chips (祝儀): a lobby paying chips for ippatsu, ura dora, red fives and yakuman, 2,000 or
#: 5,000 points a chip (0x200, 0x400: jbmokuz/Paitan's reading). Its ``AGARI sc`` carries the
#: chips after the seats' scores, and its hands round 30 fu 4 han and 60 fu 3 han up to a
#: mangan (切り上げ満貫). Its honba pay as in the other lobbies, 300 a honba on a ron and 100 a
#: payer on a tsumo, not 1,500: the one chip record found, 2020080512gm-0609-13489-3ccf4378
#: (GO 0x609, custom lobby 13489; jbmokuz/Paitan parsers/, no licence: cited, not kept),
#: verifies so; it has no open kan to show when such a kan's dora turns (docs/rules.md).
CHIPS: Final = 0x0200 | 0x0400
#: A special lobby of one hand (its games start at 1,000 points, with ``gold`` and ``ratio`` on
#: the header): its rules are not modelled.
ONE_HAND: Final = 0x0800

#: Tenhou's ranked rooms, lowest first (一般 上級 特上 鳳凰), and ``custom`` for a game of a
#: custom (private or tournament) lobby.
ROOMS: Final = ("ippan", "joukyuu", "tokujou", "houou")
CUSTOM_LOBBY: Final = "custom"
#: The room's mark as tenhou.net/6's ``rule.disp`` starts with it.
_ROOM_MARKS: Final = {"般": "ippan", "上": "joukyuu", "特": "tokujou", "鳳": "houou"}


def room_of_go_type(go_type: int) -> str:
    """The ranked room of a GO type: 0x20 tokujou, 0x80 joukyuu, both houou, neither ippan."""
    return ROOMS[(2 if go_type & TOKUJOU else 0) + (1 if go_type & JOUKYUU else 0)]


def tenhou_room(extra: Mapping[str, str]) -> str:
    """The Tenhou room a record's source says it was played in (``Source.extra``: an mjlog's
    ``go_type`` and ``lobby``, a tenhou.net/6 ``disp`` and ``lobby``): one of :data:`ROOMS`,
    :data:`CUSTOM_LOBBY`, or ``""`` when the record does not say (a converter's text)."""
    lobby = str(extra.get("lobby", "0"))
    if lobby not in ("", "0"):
        return CUSTOM_LOBBY
    go_type = str(extra.get("go_type", ""))
    if go_type.isascii() and go_type.isdigit():
        return room_of_go_type(int(go_type))
    return _ROOM_MARKS.get(str(extra.get("disp", ""))[:1], "")


@dataclass(frozen=True, slots=True)
class TenhouLobby:
    """What a ``GO type`` says about the rules (the room and speed change nothing in play)."""

    go_type: int
    three_player: bool
    east_only: bool
    red: bool
    kuitan: bool
    chips: bool
    one_hand: bool
    #: A custom lobby's own rules (the ``GO csrule`` attribute), as the record writes them.
    custom_rules: str = ""
    #: The lobby number (``GO lobby``): 0 for the ranked lobbies, else a custom (private or
    #: tournament) lobby, whose final points count by its own settings.
    number: int = 0

    @classmethod
    def from_go_type(cls, go_type: int, custom_rules: str = "", number: int = 0) -> TenhouLobby:
        return cls(
            custom_rules=custom_rules,
            number=number,
            go_type=go_type,
            three_player=bool(go_type & SANMA),
            east_only=not go_type & HANCHAN,
            red=not go_type & NO_RED,
            kuitan=not go_type & NO_KUITAN,
            chips=bool(go_type & CHIPS),
            one_hand=bool(go_type & ONE_HAND),
        )

    @classmethod
    def from_flags(
        cls, *, three_player: bool, east_only: bool, red: bool = True, kuitan: bool = True
    ) -> TenhouLobby:
        """The lobby of a record that states its rules as flags (tenhou.net/6's ``三東喰赤``
        text, an mjai log's options) rather than a GO type: a ranked lobby's bits."""
        go_type = VERSUS_HUMANS | (0 if red else NO_RED) | (0 if kuitan else NO_KUITAN)
        go_type |= (0 if east_only else HANCHAN) | (SANMA if three_player else 0)
        return cls.from_go_type(go_type)

    @property
    def room(self) -> str:
        """``ippan``, ``joukyuu``, ``tokujou`` or ``houou``."""
        bits = self.go_type & (TOKUJOU | JOUKYUU)
        return {0: "ippan", JOUKYUU: "joukyuu", TOKUJOU: "tokujou"}.get(bits, "houou")


# -- rule history ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One change of Tenhou's rules (the day is a game's date in Japan time): a game played
    before it gets the options in ``before``, one played after it those in ``after`` (each empty
    where the preset already says it).

    Where the day is not known, the change has a window of uncertainty: from ``uncertain_from``
    (the day after the last record, or the source, that shows the old rule) to ``since`` (the
    first day the new rule certainly holds: its announced day, or the first record showing it).
    A game played inside the window may fit either: it is read with the presets' values (today's
    play, or an option's own "either" value such as ``points_rounding`` either), and the replay
    also accepts the old rule, naming it (:func:`rule_eras`). ``uncertain_from`` of
    :data:`date.min` says no record of the old rule is known to bound it."""

    since: date
    before: dict[str, object] = field(default_factory=dict, hash=False)
    after: dict[str, object] = field(default_factory=dict, hash=False)
    what: str = ""
    source: str = ""
    #: Which games it concerns: ``None`` every game, else 3 or 4 players only.
    players: int | None = None
    #: Which games it concerns: ``None`` every length, else ``east`` or ``east_south`` only.
    length: str | None = None
    #: The first day the new rule may hold, where the day of the change is not known (``None``:
    #: the day is ``since``).
    uncertain_from: date | None = None
    #: The old rule in a few words, as a verdict names the era a record fits.
    era: str = ""

    def concerns(self, ruleset: Ruleset) -> bool:
        """Whether the change is one of ``ruleset``'s games' (its players and length)."""
        return self.players in (None, ruleset.players) and self.length in (None, ruleset.length)

    def side(self, played_on: date) -> str:
        """``before``, ``after`` or ``either`` (inside the window of uncertainty)."""
        if played_on >= self.since:
            return "after"
        if self.uncertain_from is not None and played_on >= self.uncertain_from:
            return "either"
        return "before"


#: Tenhou's rule changes that matter to a replay, oldest first. A record of unknown date gets
#: the presets' values (today's play, and either rounding of the points), and the replay accepts
#: an older era's rules where today's do not fit (:func:`rule_eras`).
TENHOU_CHANGES: Final[tuple[RuleChange, ...]] = (
    # The all-last tenpai stop: announced for June 2010; the blog's own words say the dealer
    # played on until then. No record of ours shows the day it took effect (games of early
    # June 2010 are said to play on still), and the first record of ours that stops is of
    # 2020-01-01: every day between may have either.
    RuleChange(
        since=date(2020, 1, 1),
        uncertain_from=date(2010, 6, 1),
        before={"tenpai_yame": False},
        what=(
            "the all-last dealer in first place with the target no longer plays on after being "
            "tenpai at an exhaustive draw: the game ends (ラス親トップの自動聴牌止め); "
            "announced for June 2010, on a day not known: certainly by 2020-01-01"
        ),
        source=(
            "Tenhou's blog, 2010-05-18, 'ラス親トップの自動聴牌止め導入': from June 2010, "
            "until then the dealer played on (http://blog.tenhou.net/article/38215017.html); "
            "the first record seen stopping: 2020010119gm-00e1-0000-7caca38b (E4, the dealer "
            "tenpai and first at the draw: the game ends; Agony5757/mahjong, "
            "tests/data/real). No record from June 2010 to 2019 that reaches the situation "
            "was found in a source we may use"
        ),
        era="the all-last dealer played on after tenpai (before the 2010 tenpai stop)",
    ),
    # East-only games' uma: 5-10 in 2009 (the report of 2009 East games' final
    # points), 10-20 in every East game of ours, the first of 2017-03-24. No record of the
    # old uma in a source we may use bounds the window from below.
    RuleChange(
        since=date(2017, 3, 24),
        uncertain_from=date.min,
        players=4,
        length="east",
        before={"uma": [10, 5, -5, -10]},
        what=(
            "East-only games' uma 20/10 (+20 +10 -10 -20) instead of 10/5: on a day not "
            "known, certainly by 2017-03-24"
        ),
        source=(
            "the first East-only record seen with uma 20/10: the ippan East game "
            "2017032421gm-0001-0000-d32d3224 (spen428/custom_tenhou_client replay.thr, "
            "tests/data/real), and every later one (2020 houou East games in "
            "tests/data/real); uma 10/5 (+10 +5 -5 -10) for East games of 2009 is reported in "
            "issue 38 from records of sources we may not use: no record of ours shows it"
        ),
        era="East-only uma 10/5 (+10 +5 -5 -10)",
    ),
    # The final points: rounded to thousands (each score rounded, first place the rest) in
    # every dated record up to 2021-07-01, to the hundred in every one from 2022-06-01 on
    # (mjlog `owari`, tenhou.net/6 `sc`: tests/data/real). A game of the months between gets
    # the presets' "either".
    RuleChange(
        since=date(2022, 6, 1),
        uncertain_from=date(2021, 7, 2),
        before={"points_rounding": "thousands"},
        after={"points_rounding": "exact"},
        what=(
            "final points to the hundred (one decimal), no longer rounded to whole "
            "thousands: on a day between 2021-07-02 and 2022-06-01"
        ),
        source=(
            "real records: every owari up to 2021-07-01 is in whole thousands (the last: "
            "2021070118gm-00a9-0000-c7a34bf3, Apricot-S/mahjax), every one from 2022-06-01 "
            "on to the hundred (the first: 2022060100gm-00a9-0000-3ffa4858, "
            "mjx-project/mjx; tests/data/real/MANIFEST.tsv)"
        ),
        era="final points rounded to whole thousands (until 2021-2022)",
    ),
)

#: Every option a date may change: what a record's date, not its content, says (a game keeps
#: its identity whether or not its file is named after its log id).
DATED_OPTIONS: Final = frozenset(
    option for change in TENHOU_CHANGES for option in (*change.before, *change.after)
)

_LOG_DATE = re.compile(r"(\d{4})(\d{2})(\d{2})\d{2}gm-")


def log_date(log_id: str | None) -> date | None:
    """The date (Japan time) a Tenhou log id starts with, or ``None``."""
    found = _LOG_DATE.match(log_id or "")
    if not found:
        return None
    try:
        return date(*map(int, found.groups()))
    except ValueError:  # a 13th month: not a log id after all
        return None


def rules_on(
    ruleset: Ruleset, played_on: date | None, older: frozenset[RuleChange] = frozenset()
) -> Ruleset:
    """``ruleset`` as Tenhou played it on ``played_on``; the preset itself when the date is not
    known (today's play; where the rules changed on a day not known, the preset allows both),
    and likewise inside a change's window of uncertainty. The changes in ``older`` are taken
    as not yet made (an older era, :func:`rule_eras`), whatever the date."""
    changes: dict[str, object] = {}
    for change in TENHOU_CHANGES:  # oldest first: a later change's options win
        if not change.concerns(ruleset):
            continue
        if change in older:
            changes.update(change.before)
        elif played_on is not None:
            side = change.side(played_on)
            if side != "either":
                changes.update(change.before if side == "before" else change.after)
    return apply_overrides(ruleset, changes) if changes else ruleset


@dataclass(frozen=True, slots=True)
class Era:
    """Older rules a record may fit where its date does not rule them out: the rule set, and
    what makes it older in words (a verdict names it)."""

    name: str
    ruleset: Ruleset
    changes: tuple[RuleChange, ...]


def rule_eras(preset: str, ruleset: Ruleset, played_on: date | None) -> list[Era]:
    """The older eras of Tenhou's rules that a game of the preset named ``preset``, replayed
    under ``ruleset`` (its header's rules: the preset, its lobby's options and its date's),
    may have been played under: the changes its date does not decide (every change for an
    undated game, those whose window of uncertainty holds its date for a dated one) undone,
    one at a time, then two at a time..., the most recent first. The order in which changes
    of unknown day were made is not known either, so any of them may be undone without the
    others. An option the header sets for other reasons than the date (a custom lobby's
    unchecked points) is kept, and one whose value already accepts the old rule
    (``points_rounding`` either) is not undone. Empty for other platforms' rule sets and for
    a game whose date decides every change."""
    if not preset.startswith("tenhou-") or preset not in PRESETS:
        return []
    dated = rules_on(PRESETS[preset], played_on)
    undone: list[tuple[RuleChange, dict[str, object]]] = []
    for change in reversed(TENHOU_CHANGES):  # the most recent first
        if not change.concerns(ruleset):
            continue
        if played_on is not None and change.side(played_on) != "either":
            continue
        options = {
            option: value
            for option, value in change.before.items()
            # Only options the header has from the date: a lobby's own stay.
            if getattr(ruleset, option) == getattr(dated, option)
            and getattr(ruleset, option) is not PointsRounding.EITHER
        }
        if options:
            undone.append((change, options))
    eras: list[Era] = []
    for size in range(1, len(undone) + 1):
        for chosen in combinations(undone, size):
            options = {option: value for _, each in chosen for option, value in each.items()}
            era_rules = apply_overrides(ruleset, options)
            if era_rules == ruleset or any(era.ruleset == era_rules for era in eras):
                continue
            changes = tuple(change for change, _ in chosen)
            name = "; ".join(change.era or change.what for change in changes)
            eras.append(Era(name, era_rules, changes))
    return eras


def dated_overrides(ruleset: Ruleset, played_on: date | None) -> dict[str, object]:
    """The options (as JSON values) in which ``ruleset`` as Tenhou played it on ``played_on``
    differs from ``ruleset``: what a record's date implies, so a Tenhou format need not say."""
    return as_preset(rules_on(ruleset, played_on), ruleset.replace(name=""))[1]


def tenhou_game_rules(lobby: TenhouLobby, played_on: date | None) -> tuple[str, dict[str, object]]:
    """The preset name and overrides of a Tenhou game: its lobby's rules as they were on
    ``played_on`` (the lobby's preset when the date is not known)."""
    lobby_rules = tenhou_ruleset(
        three_player=lobby.three_player,
        east_only=lobby.east_only,
        red=lobby.red,
        kuitan=lobby.kuitan,
    )
    ruleset = lobby_rules
    if lobby.chips:
        ruleset = ruleset.replace(kiriage=True)
    unmodelled: list[str] = []
    if lobby.one_hand:
        unmodelled.append(
            f"Tenhou's one-hand lobby (GO type {lobby.go_type}: bit 0x800), whose games "
            "start at 1,000 points and end after one hand"
        )
    custom = (
        decode_csrule(lobby.custom_rules, three_player=lobby.three_player)
        if lobby.custom_rules
        else None
    )
    if lobby.custom_rules and custom is None:
        # Not in the layout the public sources explain (engine/rules/tenhou_csrule.py): rather
        # than replay such a game by the standard rules and blame the record, say so.
        shown = (
            lobby.custom_rules if len(lobby.custom_rules) <= 60 else lobby.custom_rules[:60] + "..."
        )
        unmodelled.append(f"a Tenhou custom lobby's own rules (csrule={shown!r}), not read yet")
    if custom is not None:
        unmodelled.extend(f"a Tenhou custom lobby's rule: {rule}" for rule in custom.unmodelled)
    if unmodelled:
        ruleset = ruleset.replace(unmodelled=tuple(unmodelled))
    ruleset = rules_on(ruleset, played_on)
    if custom is not None:
        ruleset = ruleset.replace(**custom.options)  # the lobby's settings, whatever the day
    if lobby.number or lobby.custom_rules:
        # A custom lobby sets its own uma and rounding (a floating uma, whole or tenths: real
        # records of lobbies 10011 and 13489 fit no standard table), and the record does not say.
        ruleset = ruleset.replace(points_rounding=PointsRounding.UNCHECKED)
    # The record names the lobby's preset, or where the lobby's flags make none (sanma without
    # red fives, say) the nearest one of its seats and length, with the options that differ.
    base = PRESETS.get(lobby_rules.name) or tenhou_ruleset(
        three_player=lobby.three_player, east_only=lobby.east_only
    )
    return as_preset(ruleset, base)
