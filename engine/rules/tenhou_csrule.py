"""A Tenhou custom lobby's own rules (``csrule``), decoded where a public source explains them.

A custom (個室) or tournament (大会) lobby on Tenhou sets its rules beyond the ranked lobbies' flags
in its ``CSRULE`` setting, which its games record (an mjlog's ``GO csrule`` attribute; in a
tenhou.net/6 record, its ``rule``). Tenhou does not document it, and no game record holding one
was found to check against: what is decoded here is the lobby setting as two public tools that
configure tournament lobbies read it, where they agree:

- ``ruleSetToTenhouConfig`` and ``normalizedFields`` of a tournament manager's Tenhou service
  (TypeScript, ``ruleSetToTenhouConfig.ts``): which bit of the first two fields and which number
  field it writes for each of its rule options, and each field's default;
- ``parseTenhouRules`` of a tournament bot (JavaScript ``utils.js``), which reads a lobby's
  ``CSRULE`` back into named rules, with a lobby's settings as an example.

The string is comma-separated fields: field 0 and field 1 are flag words (8 hex digits), the
others numbers, an empty field meaning the lobby's default. A field or flag that is set and whose
meaning is not published, or published by one source and contradicted by the other, or that has
no option in :class:`~engine.rules.ruleset.Ruleset`, is not guessed: it is named in the rule set's
``unmodelled``, so that the game's verdict says what is not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from engine.rules.ruleset import KanDoraTiming, KazoeLimit

#: A csrule in the published layout: two flag words of 8 hex digits, then numbers or nothing.
_LAYOUT: Final = re.compile(r"[0-9a-fA-F]{8},[0-9a-fA-F]{8}(?:,-?[0-9]*)*")

#: Bits of field 0 both sources name, each as the Ruleset options it sets when on.
_FLAGS_0: Final[dict[int, tuple[str, dict[str, object]]]] = {
    0x00000001: ("no nagashi mangan", {"nagashi_mangan": False}),
    0x00000002: ("kiriage mangan", {"kiriage": True}),
    0x00000004: ("no bust: play goes on below zero", {"tobi": False}),
    0x00000008: (
        "an open or added kan's dora turned at once",
        {"open_kan_dora_timing": KanDoraTiming.IMMEDIATE},
    ),
    0x00000020: ("no kan dora", {"kan_dora": False}),
    0x00000040: ("no ura dora", {"ura_dora": False}),
    0x00000080: ("no kan ura dora", {"kan_ura": False}),
    0x00000100: ("no four-winds abortive draw", {"suufon_renda": False}),
    0x00000200: ("no four-kans abortive draw", {"suukaikan": False}),
    0x00000400: ("no four-riichi abortive draw", {"suucha_riichi": False}),
    0x00000800: ("no nine-terminals abortive draw", {"kyuushu_kyuuhai": False}),
    0x00001000: ("no triple-ron abortive draw", {"sanchahou": False}),
    0x00002000: ("head bump: one winner on a discard", {"max_ron_winners": 1}),
    0x00004000: ("no stop when the all-last dealer wins in first place", {"agari_yame": False}),
    0x00008000: (
        "no stop when the all-last dealer is tenpai in first place",
        {"tenpai_yame": False},
    ),
    0x00080000: ("no ippatsu", {"ippatsu": False}),
    0x00200000: ("no extra rounds", {"sudden_death": False}),
    # Only the bot names these, and nothing contradicts it:
    0x02000000: ("riichi without a draw to come", {"riichi_needs_draw": False}),
}
#: Bits whose meaning is published but has no option here, or on which the sources disagree.
_KNOWN_UNMODELLED_0: Final[dict[int, str]] = {
    0x00000010: "no dora at all",
    0x00010000: "no repeat after the dealer's win",
    0x00020000: "no repeat after the dealer's tenpai",
    0x00040000: "final scores rounded (the manager's roundFinalScores)",
    0x00100000: "two winds a round (the bot's reading)",
    0x00400000: "no North extraction",
    0x00800000: "sanma tsumo split instead of tsumo loss",
    0x01000000: "renhou",
}
_FLAGS_1: Final[dict[int, tuple[str, dict[str, object]]]] = {
    0x00000004: (
        "riichi sticks left on the table at the end not given to first place",
        {"leftover_sticks_to_first": False},
    ),
    0x00000010: ("no counted yakuman", {"kazoe": KazoeLimit.SANBAIMAN}),
}
_KNOWN_UNMODELLED_1: Final[dict[int, str]] = {
    # The bot reads it as "a double wind pair is 4 fu", the manager writes it for a pair of 2
    # fu: the sources disagree.
    0x00000001: "the fu of a double wind pair",
    0x00000002: "tied players share their uma",
    0x00000008: "pao settings",
}
#: Field 1's thinking-time bit: no effect on the rules.
_TIME_BIT_1: Final = 0x00000040
#: Number fields that change nothing in play: the thinking times (36 onwards, three per
#: setting, as the manager's normalizedFields fills them).
_TIME_FIELDS: Final = range(36, 45)


@dataclass(frozen=True, slots=True)
class CustomRules:
    """What a csrule says, as rule options and as what is not modelled."""

    #: Ruleset options by name, as :meth:`~engine.rules.ruleset.Ruleset.replace` takes them.
    options: dict[str, object] = field(default_factory=dict)
    #: Each setting not read, in words (for ``Ruleset.unmodelled``).
    unmodelled: tuple[str, ...] = ()


def is_csrule(text: str) -> bool:
    """Whether a text is a csrule in the published layout."""
    return _LAYOUT.fullmatch(text.strip()) is not None


def decode_csrule(text: str, *, three_player: bool) -> CustomRules | None:
    """The rules a custom lobby's ``csrule`` sets, or ``None`` when the text is not in the
    published layout (two 8-hex-digit flag words, then numbers)."""
    if not is_csrule(text):
        return None
    fields = text.strip().split(",")
    options: dict[str, object] = {}
    unmodelled: list[str] = []
    _flags(int(fields[0], 16), 0, _FLAGS_0, _KNOWN_UNMODELLED_0, options, unmodelled)
    _flags(int(fields[1], 16) & ~_TIME_BIT_1, 1, _FLAGS_1, _KNOWN_UNMODELLED_1, options, unmodelled)
    numbers = {i: int(value) for i, value in enumerate(fields) if i >= 2 and value != ""}
    players = 3 if three_player else 4
    for index, value in numbers.items():
        if index == 4:
            options["starting_points"] = value
        elif index == 5:
            options["target_points"] = value  # what first place needs to end the game
        elif index == 6:
            options["points_base"] = value  # the return: points count from it, the oka
        elif index == 10:
            if value != 1000:  # the stick is 1,000 points everywhere in the engine
                unmodelled.append(f"a riichi stick of {value:,} points (csrule field 10)")
        elif index == 11:
            # Per payer: a ron pays it from every other seat's share, a tsumo from each.
            options["honba_tsumo_each"] = value
            options["honba_ron"] = value * (players - 1)
        elif index in (16, 17, 18):
            continue  # the noten payments, read together below
        elif 21 <= index <= 35:
            continue  # the uma, read together below
        elif index == 7:
            if value:  # the bot's auto_win_points; the manager writes 0
                unmodelled.append(f"a game won outright at {value:,} points (csrule field 7)")
        elif index in _TIME_FIELDS:
            continue
        else:
            unmodelled.append(f"csrule field {index} = {value} (its meaning is not published)")
    _noten(numbers, players, options, unmodelled)
    _uma(numbers, players, options, unmodelled)
    return CustomRules(options, tuple(unmodelled))


def _flags(
    word: int,
    index: int,
    known: dict[int, tuple[str, dict[str, object]]],
    not_modelled: dict[int, str],
    options: dict[str, object],
    unmodelled: list[str],
) -> None:
    for bit in range(32):
        mask = 1 << bit
        if not word & mask:
            continue
        if mask in known:
            options.update(known[mask][1])
        elif mask in not_modelled:
            unmodelled.append(f"{not_modelled[mask]} (csrule field {index}, bit {mask:#x})")
        else:
            unmodelled.append(f"csrule field {index}, bit {mask:#x} (its meaning is not published)")


def _noten(
    numbers: dict[int, int], players: int, options: dict[str, object], unmodelled: list[str]
) -> None:
    """Fields 16-18: what each noten seat pays with 1, 2 (and 3) seats tenpai. The noten pool is
    one total split among the tenpai seats (1,000, 1,500, 3,000: 3,000 in all; sanma 1,000 and
    2,000: 2,000), which is the only shape the rule set holds."""
    paid = [numbers.get(index) for index in (16, 17, 18)[: players - 1]]
    if all(value is None for value in paid):
        return
    default = (1000, 1500, 3000) if players == 4 else (1000, 2000)
    amounts = [value if value is not None else default[i] for i, value in enumerate(paid)]
    totals = {amount * (players - tenpai) for tenpai, amount in enumerate(amounts, 1)}
    if len(totals) == 1:
        options["noten_payment_total"] = totals.pop()
    else:
        unmodelled.append(f"noten payments of {amounts} a noten seat (csrule fields 16-18)")


def _uma(
    numbers: dict[int, int], players: int, options: dict[str, object], unmodelled: list[str]
) -> None:
    """Fields 21-35: five rows of three (second to fourth place's uma, in thousands), one row
    for each case of the lobby's floating uma; first place gets what makes a row add up to zero.
    Rows that all agree are a fixed uma; rows that differ are a floating one, not modelled."""
    if not any(21 <= index <= 35 for index in numbers):
        return
    default = (10, -10, -20) if players == 4 else (0, -20, 0)
    rows = {
        tuple(numbers.get(21 + 3 * row + place, default[place]) for place in range(3))
        for row in range(5)
    }
    if len(rows) > 1:
        unmodelled.append(
            f"a floating uma, by rows {sorted(rows, reverse=True)} (csrule fields 21-35)"
        )
        return
    (row,) = rows
    rest = row[: players - 1]
    options["uma"] = (-sum(rest), *rest)
