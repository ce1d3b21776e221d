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
from dataclasses import dataclass, field
from datetime import date
from typing import Final

from engine.rules.presets import as_preset, tenhou_ruleset
from engine.rules.ruleset import Ruleset

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
#: Chips (祝儀): a lobby paying chips for ippatsu, ura dora, red fives and yakuman. Its ``AGARI
#: sc`` carries the chips after the seats' scores, and its hands round 30 fu 4 han and 60 fu
#: 3 han up to a mangan (切り上げ満貫).
CHIPS: Final = 0x0200
#: A special lobby of one hand (its games start at 1,000 points, with ``gold`` and ``ratio`` on
#: the header): its rules are not modelled.
ONE_HAND: Final = 0x0800


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

    @classmethod
    def from_go_type(cls, go_type: int) -> TenhouLobby:
        return cls(
            go_type=go_type,
            three_player=bool(go_type & SANMA),
            east_only=not go_type & HANCHAN,
            red=not go_type & NO_RED,
            kuitan=not go_type & NO_KUITAN,
            chips=bool(go_type & CHIPS),
            one_hand=bool(go_type & ONE_HAND),
        )

    @property
    def room(self) -> str:
        """``ippan``, ``joukyuu``, ``tokujou`` or ``houou``."""
        bits = self.go_type & (TOKUJOU | JOUKYUU)
        return {0: "ippan", JOUKYUU: "joukyuu", TOKUJOU: "tokujou"}.get(bits, "houou")


# -- rule history ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One change of Tenhou's rules: from ``since`` (a game's date in Japan time) on, the current
    rule applies; before, the options in ``before``."""

    since: date
    before: dict[str, object] = field(hash=False)
    what: str = ""
    source: str = ""
    #: Which games it concerns: ``None`` every game, else 3 or 4 players only.
    players: int | None = None


#: Tenhou's rule changes that matter to a replay, oldest first.
TENHOU_CHANGES: Final[tuple[RuleChange, ...]] = (
    RuleChange(
        since=date(2010, 6, 1),
        before={"tenpai_yame": False},
        what=(
            "the all-last dealer in first place with the target no longer plays on after being "
            "tenpai at an exhaustive draw: the game ends (ラス親トップの自動聴牌止め)"
        ),
        source=(
            "Tenhou's blog, 2010-05-18, 'ラス親トップの自動聴牌止め導入': from June 2010 "
            "(http://blog.tenhou.net/article/38215017.html)"
        ),
    ),
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


def rules_on(ruleset: Ruleset, played_on: date | None) -> Ruleset:
    """``ruleset`` as Tenhou played it on ``played_on`` (today's rules when the date is not
    known: most records are recent)."""
    if played_on is None:
        return ruleset
    changes: dict[str, object] = {}
    # Newest first, so that an older change's "before" wins where two touch one option.
    for change in reversed(TENHOU_CHANGES):
        if played_on < change.since and change.players in (None, ruleset.players):
            changes.update(change.before)
    return ruleset.replace(**changes) if changes else ruleset


def tenhou_game_rules(lobby: TenhouLobby, played_on: date | None) -> tuple[str, dict[str, object]]:
    """The preset name and overrides of a Tenhou game: its lobby's rules as they were on
    ``played_on``."""
    ruleset = tenhou_ruleset(
        three_player=lobby.three_player,
        east_only=lobby.east_only,
        red=lobby.red,
        kuitan=lobby.kuitan,
    )
    if lobby.chips:
        ruleset = ruleset.replace(kiriage=True)
    if lobby.one_hand:
        ruleset = ruleset.replace(
            unmodelled=(
                f"Tenhou's one-hand lobby (GO type {lobby.go_type}: bit 0x800), whose games "
                "start at 1,000 points and end after one hand",
            )
        )
    ruleset = rules_on(ruleset, played_on)
    # Not every combination is a preset: the nearest one (seats and length) with the options
    # that differ.
    nearest = tenhou_ruleset(three_player=lobby.three_player, east_only=lobby.east_only)
    return as_preset(ruleset, nearest)
