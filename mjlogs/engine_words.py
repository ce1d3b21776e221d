"""What the rules engine and the import say, in the page's language (issue 39).

The engine is a library without Django: its messages are English sentences (why an action is
illegal, why a record cannot be read), kept in English in the database and the API. Pages
translate them here, sentence by sentence: :data:`CATALOGUE` pairs each sentence the engine
(or the import, or the link fetch) writes, its holes named by kind (``{seat}``, ``{tile}``,
``{reason}``, :data:`KINDS`), with the sentence a page shows, marked for translation. On the way
a seat becomes its player's name (the engine counts seats from 0; pages name players), a tile its
name in the page's language, and a reason inside a reason is translated in turn.

A message that no entry matches is shown as it was written, in English, marked as untranslated
(:class:`Said`): it never passes silently for a translation. ``tests/mjlogs/test_engine_words.py``
reads the sources and fails while a sentence of the modules whose messages pages show (the riichi
state machine, the replay's report, the import, the link fetch) has no entry; the readers' and
Ùzje's own messages are left to the marked fallback, but for the frames their errors share
(docs/development.md, "Translations").
"""

# The pages' sentences write the apostrophe as a typographic one, and Japanese punctuation.
# ruff: noqa: RUF001

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from mjlogs import terms

#: Nested reasons deeper than this are not translated (no message nests so deep).
_DEPTH: Final = 6


@dataclass(frozen=True)
class Said:
    """A message in the page's language, or, when no translation is known, as it was written
    (``translated`` false), which a page then marks."""

    text: str
    translated: bool

    @property
    def marked(self) -> bool:
        """Whether a page marks it: untranslated, on a page not in English."""
        return not self.translated and not _english()

    def plain(self) -> str:
        """As plain text (a script's data, a JSON answer): marked in words when untranslated."""
        if not self.marked:
            return self.text
        return gettext("%(text)s (in English: not translated yet)") % {"text": self.text}

    def __str__(self) -> str:
        return self.plain()

    def __html__(self) -> SafeString:
        return self.html

    @property
    def html(self) -> SafeString:
        """For a page (``{{ said.html }}``: a template writes other objects as their text): the
        English text marked as such, by its language and a visible note."""
        if not self.marked:
            return format_html("{}", self.text)
        return format_html(
            '<span lang="en" class="untranslated">{}</span> <span class="untranslated-mark">{}'
            "</span>",
            self.text,
            gettext("(in English: not translated yet)"),
        )


def say(message: str, names: Sequence[str] = ()) -> Said:
    """A message of the engine or the import in the page's language, its seats named by
    ``names`` (the players in seat order) where they are given."""
    text = str(message)
    words = _translate(text, tuple(names), 0)
    return Said(text, False) if words is None else Said(words, True)


def _english() -> bool:
    return not terms.japanese()


# -- The kinds of holes ---------------------------------------------------------------------------

Names = tuple[str, ...]
#: How a hole's text becomes words: ``None`` when it cannot (a reason with no translation).
Words = Callable[[str, Names, int], str | None]


def _seat(text: str, names: Names, depth: int) -> str:
    seat = int(text)
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return gettext("Seat %(number)s") % {"number": seat + 1}


def _seats(text: str, names: Names, depth: int) -> str:
    return terms.names_words([_seat(part, names, depth) for part in text.split(", ")])


def _seats_or_nobody(text: str, names: Names, depth: int) -> str:
    return gettext("nobody") if text == "nobody" else _seats(text, names, depth)


def _tile(text: str, names: Names, depth: int) -> str:
    return terms.tile_words(text)


def _tiles(text: str, names: Names, depth: int) -> str:
    return terms.tiles_words(text)


#: Tiles as the engine names them in words (``engine.tiles.Tile.name``).
_SUITS_BY_NAME: Final = {"characters": "m", "circles": "p", "bamboo": "s"}
_HONOURS_BY_NAME: Final = ("East", "South", "West", "North", "White", "Green", "Red")


def _kind(text: str, names: Names, depth: int) -> str:
    """A tile by its engine name (``5 circles``, ``5 circles (red)``, ``East``)."""
    if text in _HONOURS_BY_NAME:
        return terms.tile_words(f"{_HONOURS_BY_NAME.index(text) + 1}z")
    rank, suit = text.split(" ", 1)
    red = suit.endswith(" (red)")
    code = ("0" if red else rank) + _SUITS_BY_NAME[suit.removesuffix(" (red)")]
    return terms.tile_words(code)


def _count(text: str, names: Names, depth: int) -> str:
    return "0" if text == "no" else text


def _verbatim(text: str, names: Names, depth: int) -> str:
    return text


def _reason(text: str, names: Names, depth: int) -> str | None:
    return _translate(text, names, depth + 1)


def _reasons(text: str, names: Names, depth: int) -> str | None:
    """Reasons joined by ``; `` (the games of one file, the parts of a refusal)."""
    parts = [_translate(part, names, depth + 1) for part in text.split("; ")]
    if any(part is None for part in parts):
        return None
    return ("；" if terms.japanese() else "; ").join(part for part in parts if part)


def _hand(text: str, names: Names, depth: int) -> str:
    """A hand's name with its counters (``E1``, ``E1-2``)."""
    name, _, honba = text.partition("-")
    return terms.hand_name(name) + (terms.honba(int(honba)) if honba else "")


#: Abortive draws as the engine names them (``AbortKind``), with or without underscores.
ABORTS: Final[dict[str, Promise]] = {
    "nine_terminals": pgettext_lazy("abortive draw", "Nine terminals (kyuushu kyuuhai)"),
    "four_winds": pgettext_lazy("abortive draw", "Four winds (suufon renda)"),
    "four_riichi": pgettext_lazy("abortive draw", "Four riichi (suucha riichi)"),
    "four_kans": pgettext_lazy("abortive draw", "Four kans (suukaikan)"),
    "triple_ron": pgettext_lazy("abortive draw", "Triple ron (sanchahou)"),
}


def _abort(text: str, names: Names, depth: int) -> str:
    known = ABORTS.get(text.replace(" ", "_"))
    return str(known) if known is not None else text


#: Events by their type (``engine.events``), as a refusal names them.
EVENT_TYPES: Final[dict[str, Promise]] = {
    "draw": pgettext_lazy("event", "draw"),
    "discard": pgettext_lazy("event", "discard"),
    "chi": pgettext_lazy("event", "chi"),
    "pon": pgettext_lazy("event", "pon"),
    "open_kan": pgettext_lazy("event", "open kan"),
    "closed_kan": pgettext_lazy("event", "closed kan"),
    "added_kan": pgettext_lazy("event", "added kan"),
    "north": pgettext_lazy("event", "North extraction"),
    "riichi": pgettext_lazy("event", "riichi"),
    "win": pgettext_lazy("event", "win"),
    "swap": pgettext_lazy("event", "swap"),
}


def _event(text: str, names: Names, depth: int) -> str:
    known = EVENT_TYPES.get(text)
    return str(known) if known is not None else text


def _chosen(text: str, names: Names, depth: int) -> str:
    """The powers the seats chose: ``seat 0 swap, seat 2 peek``."""
    parts = []
    for part in text.split(", "):
        _, seat, power = part.split(" ", 2)
        parts.append(
            gettext("%(seat)s: %(power)s") % {"seat": _seat(seat, names, depth), "power": power}
        )
    return terms.names_words(parts)


#: Each kind of hole: the text it matches and how it becomes words. A kind's name may end in a
#: digit to tell two holes of one kind apart (``{seat}`` and ``{seat2}``).
KINDS: Final[dict[str, tuple[str, Words]]] = {
    "seat": (r"\d+", _seat),
    "seats": (r"\d+(?:, \d+)*", _seats),
    "have": (r"\d+(?:, \d+)*|nobody", _seats_or_nobody),
    "tile": (r"[0-9][mpsz]", _tile),
    "tiles": (r"[0-9][mpsz](?: [0-9][mpsz])*", _tiles),
    "kind": (
        r"[1-9] (?:characters|circles|bamboo)(?: \(red\))?|East|South|West|North|White|Green|Red",
        _kind,
    ),
    "count": (r"-?[0-9][0-9,]*|no", _count),
    "number": (r"[0-9]+(?:\.[0-9]+)?", _verbatim),
    "rules": (r"[\w.+-]+", _verbatim),
    "power": (r"[\w-]+", _verbatim),
    "powers": (r"[\w-]+(?:, [\w-]+)*", _verbatim),
    "chosen": (r"seat \d+ [\w-]+(?:, seat \d+ [\w-]+)*", _chosen),
    "abort": (r"[a-z]+(?:[_ ][a-z]+)*", _abort),
    "event": (r"[a-z_]+", _event),
    "hand": (r"[ESWN][1-9](?:-[0-9]+)?", _hand),
    "name": (r".+?", _verbatim),
    "path": (r"[\w.\[\]<>-]+(?: of (?:round|hand) [ESWN][1-9](?:-[0-9]+)?)?", _verbatim),
    "text": (r".+?", _verbatim),
    "reason": (r".+", _reason),
    "reasons": (r".+", _reasons),
}


# -- The catalogue --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A sentence as the code writes it (holes ``{kind}``), and as a page shows it (the
    holes ``%(kind)s``, marked for translation)."""

    written: str
    shown: Promise


E = Entry

#: Every sentence pages translate. The riichi state machine's reasons for refusing an event
#: (``engine/state/``) come first, then the replay's, the readers' common frames, the import's
#: and the link fetch's.
CATALOGUE: Final[tuple[Entry, ...]] = (
    # -- Where the hand stands (a reason's "now (...)").
    E("the hand is over", _("the hand is over")),
    E("the hand was won", _("the hand was won")),
    E("the hand has not ended", _("the hand has not ended")),
    E("seat {seat} is to draw", _("%(seat)s is to draw")),
    E("seat {seat} is to play", _("%(seat)s is to play")),
    E("seat {seat} is to make the riichi discard", _("%(seat)s is to make the riichi discard")),
    E(
        "seat {seat}'s discard {tile} may be claimed",
        _("%(seat)s’s discard %(tile)s may still be called or ronned"),
    ),
    E("seat {seat}'s {tile} may be robbed", _("%(seat)s’s %(tile)s may still be robbed")),
    # -- Tiles.
    E("{tile} is not a tile of this rule set", _("%(tile)s is not a tile of this rule set")),
    E("{tile} is not used in 3-player mahjong", _("%(tile)s is not used in three-player mahjong")),
    E("a fifth {kind}", _("a fifth %(kind)s")),
    E(
        "more red {kind} than the {count} of this rule set",
        _("more red %(kind)s than the %(count)s of this rule set"),
    ),
    E(
        "more plain {kind} than the {count} of this rule set",
        _("more %(kind)s that are not red than the %(count)s of this rule set"),
    ),
    E(
        "{tile} is an honour tile; {rules} has none",
        _("%(tile)s is an honour tile; %(rules)s has none"),
    ),
    # -- The deal.
    E(
        "{count} hands are dealt, the record has {count2}",
        _("%(count)s hands are dealt; the record has %(count2)s"),
    ),
    E(
        "seat {seat} is dealt {count} tiles, not {count2}",
        _("%(seat)s is dealt %(count)s tiles, not %(count2)s"),
    ),
    E("seat {seat}'s starting hand: {reason}", _("%(seat)s’s starting hand: %(reason)s")),
    E(
        "a hand starts with {count} dora indicator(s) in {rules}, the record has {count2}",
        _("a hand starts with %(count)s dora indicators in %(rules)s; the record has %(count2)s"),
    ),
    E("dora indicators: {reason}", _("the dora indicators: %(reason)s")),
    E("dora indicator: {reason}", _("the dora indicator: %(reason)s")),
    # -- Draws and discards.
    E("no draw now ({reason})", _("no draw now (%(reason)s)")),
    E("the wall is exhausted", _("the wall is exhausted")),
    E(
        "the wall gives {tile}, the record draws {tile2}",
        _("the wall gives %(tile)s; the record draws %(tile2)s"),
    ),
    E("seat {seat} draws {reason}", _("%(seat)s draws %(reason)s")),
    E("seat {seat} draws next, not seat {seat2}", _("%(seat)s draws next, not %(seat2)s")),
    E(
        "seat {seat} draws next, not seat {seat2}: {reason}",
        _("%(seat)s draws next, not %(seat2)s: %(reason)s"),
    ),
    E(
        "seat {seat} takes the replacement draw, not seat {seat2}",
        _("%(seat)s takes the replacement draw, not %(seat2)s"),
    ),
    E(
        "the closed kan's dora indicator is revealed before the replacement draw",
        _("the closed kan’s dora indicator is turned over before the replacement draw"),
    ),
    E(
        "the kan dora indicator is revealed before the replacement draw",
        _("the kan dora indicator is turned over before the replacement draw"),
    ),
    E(
        "a new kan dora indicator is due first",
        _("a new kan dora indicator is to be turned over first"),
    ),
    E("seat {seat}'s riichi is accepted first", _("%(seat)s’s riichi stick goes down first")),
    E(
        "the hand ends in an abortive draw ({abort})",
        _("the hand ends in an abortive draw (%(abort)s)"),
    ),
    E("no discard now ({reason})", _("no discard now (%(reason)s)")),
    E("seat {seat} is to play, not seat {seat2}", _("%(seat)s is to play, not %(seat2)s")),
    E(
        "seat {seat} discards {tile}, which they do not hold",
        _("%(seat)s discards %(tile)s, which they do not hold"),
    ),
    E(
        "{tile} is marked as the tile just drawn, but it is not",
        _("%(tile)s is marked as the tile just drawn, but it is not"),
    ),
    E(
        "seat {seat} is in riichi and must discard the drawn tile {tile}, not {tile2}",
        _("%(seat)s is in riichi and must discard the tile just drawn, %(tile)s, not %(tile2)s"),
    ),
    E(
        "discarding {tile} right after that call is a swap call (kuikae)",
        _("discarding %(tile)s right after that call is a swap call (kuikae)"),
    ),
    E(
        "the riichi discard {tile} does not leave seat {seat} tenpai",
        _("the riichi discard %(tile)s does not leave %(seat)s tenpai"),
    ),
    # -- Calls.
    E("no call now ({reason})", _("no call now (%(reason)s)")),
    E("not now ({reason})", _("not now (%(reason)s)")),
    E("a player cannot call their own discard", _("a player cannot call their own discard")),
    E(
        "the last discard is seat {seat}'s, not seat {seat2}'s",
        _("the last discard is %(seat)s’s, not %(seat2)s’s"),
    ),
    E("the last discard is {tile}, not {tile2}", _("the last discard is %(tile)s, not %(tile2)s")),
    E(
        "the last discard of the hand cannot be called, only ronned",
        _("the last discard of the hand cannot be called, only won on (ron)"),
    ),
    E(
        "rule modifier {power} does not allow seat {seat} this {event} now",
        _("the rule modifier %(power)s does not allow %(seat)s this %(event)s now"),
    ),
    E("chi is not allowed in {rules}", _("chi is not allowed in %(rules)s")),
    E(
        "chi is only allowed on the discard of the player to the left",
        _("chi is only allowed on the discard of the player to the left"),
    ),
    E("seat {seat} is in riichi and cannot call", _("%(seat)s is in riichi and cannot call")),
    E("seat {seat} does not hold {tiles}", _("%(seat)s does not hold %(tiles)s")),
    E("{tile} with {tiles} is not a run", _("%(tile)s with %(tiles)s is not a run")),
    E("a pon of {tile} needs two more {kind}", _("a pon of %(tile)s needs two more %(kind)s")),
    E(
        "an open kan of {tile} needs three more {kind}",
        _("an open kan of %(tile)s needs three more %(kind)s"),
    ),
    E(
        "after this call every tile left would be a swap call (kuikae)",
        _("after this call every tile the player could discard would be a swap call (kuikae)"),
    ),
    E(
        "there are no calls in {rules}: no chi, pon or open kan",
        _("there are no calls in %(rules)s: no chi, pon or open kan"),
    ),
    # -- Kans and North.
    E("there are no kans in {rules}", _("there are no kans in %(rules)s")),
    E("no kan after the last tile of the wall", _("no kan after the last tile of the wall")),
    E("a fifth kan is not allowed", _("a fifth kan is not allowed")),
    E("only after a draw, not right after a call", _("only after a draw, not right after a call")),
    E(
        "a closed kan is four tiles of one kind, not {tiles}",
        _("a closed kan is four tiles of one kind, not %(tiles)s"),
    ),
    E(
        "in riichi a closed kan must use the drawn tile and keep the waits",
        _("in riichi a closed kan must use the tile just drawn and keep the waits"),
    ),
    E("seat {seat} has no pon of {kind} to add to", _("%(seat)s has no pon of %(kind)s to add to")),
    E("north extraction is not part of {rules}", _("North extraction is not part of %(rules)s")),
    E(
        "only a North can be extracted, not {tile}",
        _("only a North can be set aside, not %(tile)s"),
    ),
    E("seat {seat} holds no North", _("%(seat)s holds no North")),
    E(
        "no north extraction after the last tile of the wall",
        _("no North can be set aside after the last tile of the wall"),
    ),
    E(
        "in riichi a North can be extracted only if the waits stay the same",
        _("in riichi a North can be set aside only if the waits stay the same"),
    ),
    # -- Riichi and dora.
    E("seat {seat} is already in riichi", _("%(seat)s is already in riichi")),
    E("riichi needs a closed hand", _("riichi needs a closed hand")),
    E(
        "riichi needs {count} points; seat {seat} has {count2}",
        _("riichi needs %(count)s points; %(seat)s has %(count2)s"),
    ),
    E(
        "riichi needs another draw; {count} tiles are left in the wall",
        _("riichi needs another draw; %(count)s tiles are left in the wall"),
    ),
    E(
        "seat {seat} is not tenpai and cannot declare riichi",
        _("%(seat)s is not tenpai and cannot declare riichi"),
    ),
    E(
        "no riichi discard is waiting to be accepted",
        _("no riichi discard is waiting to be accepted"),
    ),
    E(
        "the riichi waiting is seat {seat}'s, not seat {seat2}'s",
        _("the riichi waiting is %(seat)s’s, not %(seat2)s’s"),
    ),
    E("no kan dora indicator is due now", _("no kan dora indicator is to be turned over now")),
    E(
        "the next dora indicator is {tile}, not {tile2}",
        _("the next dora indicator is %(tile)s, not %(tile2)s"),
    ),
    # -- Wins.
    E(
        "seat {seat} cannot win by tsumo now ({reason})",
        _("%(seat)s cannot win by tsumo now (%(reason)s)"),
    ),
    E(
        "the tile just drawn is {tile}, not {tile2}",
        _("the tile just drawn is %(tile)s, not %(tile2)s"),
    ),
    E("no ron now ({reason})", _("no ron now (%(reason)s)")),
    E("a player cannot ron their own tile", _("a player cannot win on their own tile (ron)")),
    E(
        "seat {seat} has not declared riichi, and in {rules} only a player in riichi may ron",
        _("%(seat)s has not declared riichi, and in %(rules)s only a player in riichi may ron"),
    ),
    E(
        "at most {count} player(s) may ron one discard here",
        _("at most %(count)s players may ron one discard here"),
    ),
    E("seat {seat} has already won", _("%(seat)s has already won")),
    E(
        "several rons are listed in turn order from the discarder",
        _("several rons are listed in turn order from the discarder"),
    ),
    E(
        "{tile} does not complete seat {seat}'s hand",
        _("%(tile)s does not complete %(seat)s’s hand"),
    ),
    E("seat {seat} is furiten and cannot ron", _("%(seat)s is furiten and cannot ron")),
    E(
        "a closed kan cannot be robbed in these rules",
        _("a closed kan cannot be robbed in these rules"),
    ),
    E(
        "only thirteen orphans may rob a closed kan",
        _("only thirteen orphans may rob a closed kan"),
    ),
    E("seat {seat}'s hand has no yaku", _("%(seat)s’s hand has no yaku")),
    E("seat {seat}'s win is impossible: {reason}", _("%(seat)s’s win is impossible: %(reason)s")),
    E(
        "the tile won is seat {seat}'s {tile}, not seat {seat2}'s {tile2}",
        _("the tile won is %(seat)s’s %(tile)s, not %(seat2)s’s %(tile2)s"),
    ),
    E(
        "the last discard is seat {seat}'s {tile}, not seat {seat2}'s {tile2}",
        _("the last discard is %(seat)s’s %(tile)s, not %(seat2)s’s %(tile2)s"),
    ),
    E("the fourth riichi already ended the hand", _("the fourth riichi already ended the hand")),
    E(
        "only seat {seat}'s {tile} can be robbed now",
        _("only %(seat)s’s %(tile)s can be robbed now"),
    ),
    E(
        "an extracted North cannot be ronned in these rules",
        _("a North set aside cannot be won on in these rules"),
    ),
    # -- Draws and abortive draws.
    E(
        "the hand cannot end in a draw now ({reason})",
        _("the hand cannot end in a draw now (%(reason)s)"),
    ),
    E("{count} tiles are left in the wall", _("%(count)s tiles are left in the wall")),
    E("nagashi mangan for seat(s) {seats}", _("nagashi mangan for %(seats)s")),
    E(
        "nagashi mangan is for {have}, not seat(s) {seats}",
        _("nagashi mangan is for %(have)s, not %(seats)s"),
    ),
    E("no {abort} abortive draw now", _("no abortive draw by %(abort)s now")),
    E(
        "a score change has one delta per seat ({count}), not {count2}",
        _("a score change has one change per seat (%(count)s), not %(count2)s"),
    ),
    E(
        "nine terminals is not an abortive draw in {rules}",
        _("nine terminals is not an abortive draw in %(rules)s"),
    ),
    E(
        "nine terminals can only be declared on an uninterrupted first draw",
        _("nine terminals can only be declared on an uninterrupted first draw"),
    ),
    E(
        "seat {seat} holds {count} kinds of terminals and honours, not 9",
        _("%(seat)s holds %(count)s kinds of terminals and honours, not 9"),
    ),
    E(
        "a triple ron is not an abortive draw in {rules}",
        _("a triple ron is not an abortive draw in %(rules)s"),
    ),
    E("no triple ron now ({reason})", _("no triple ron now (%(reason)s)")),
    E(
        "only {count} player(s) can ron {tile}; a triple ron needs 3",
        _("only %(count)s players can ron %(tile)s; a triple ron needs 3"),
    ),
    E("unknown event {text}", _("an unknown event, %(text)s")),
    # -- Rule modifiers' powers (docs/rules.md, "Rule modifiers").
    E("no redraw is left to seat {seat} now", _("no redraw is left to %(seat)s now")),
    E(
        "seat {seat} has no power to draw again ({reason})",
        _("%(seat)s has no power to draw again (%(reason)s)"),
    ),
    E(
        "there is no swap in {rules}: no rule modifier in force has one",
        _("there is no swap in %(rules)s: no rule modifier in force has one"),
    ),
    E("no swap now: {reason}", _("no swap now: %(reason)s")),
    E(
        "seat {seat} has no power to swap ({reason})",
        _("%(seat)s has no power to swap (%(reason)s)"),
    ),
    E(
        "seat {seat} may not swap now (no swap left to it this hand, or in riichi)",
        _("%(seat)s may not swap now (no swap left this hand, or in riichi)"),
    ),
    E(
        "seat {seat} swaps {tile}, which they do not hold",
        _("%(seat)s swaps %(tile)s, which they do not hold"),
    ),
    E(
        "{tile} is not a dora indicator showing (showing: {tiles})",
        _("%(tile)s is not a dora indicator showing (showing: %(tiles)s)"),
    ),
    E("it chose {power}", _("its power is %(power)s")),
    E("it chose no power", _("it chose no power")),
    E("every seat has {powers}", _("every seat has %(powers)s")),
    E("the powers chosen: {chosen}", _("the powers chosen: %(chosen)s")),
    E("{reason}; {reason2}", _("%(reason)s; %(reason2)s")),
    # -- The replay's notes (the report's warnings, engine/replay.py).
    E(
        "the game starts at {count} points a seat, not {rules}'s {count2}: replayed as a whole "
        "game from {count3}, first place needing {count4} to end it; its final points, which "
        "count by rules the record does not state, are not checked",
        _(
            "the game starts at %(count)s points a seat, not %(rules)s’s %(count2)s: replayed "
            "as a whole game from %(count3)s, first place needing %(count4)s to end it; its "
            "final points, which count by rules the record does not state, are not checked"
        ),
    ),
    # -- The replay: a record that holds part of a game (the report's ``fragment``).
    E(
        "the record holds part of a game ({count} hands, {hand} to {hand2}): {reason}",
        _("the record holds part of a game (%(count)s hands, %(hand)s to %(hand2)s): %(reason)s"),
    ),
    E(
        "the record holds part of a game (1 hand, {hand}): {reason}",
        _("the record holds part of a game (one hand, %(hand)s): %(reason)s"),
    ),
    E("it stops before the end of the game", _("it stops before the end of the game")),
    E("it starts after the game's first hand", _("it starts after the game’s first hand")),
    # -- The readers' common frames (engine/formats/): the rest of their words are their own.
    E("{path}: {reason}", _("%(path)s: %(reason)s")),
    E("line {count}: {reason}", _("line %(count)s: %(reason)s")),
    E("not UTF-8 text ({text})", _("not UTF-8 text (%(text)s)")),
    E("not valid JSON ({text})", _("not valid JSON (%(text)s)")),
    E("an empty array holds no game", _("an empty array holds no game")),
    E(
        "not a game record in any known format (Tenhou mjlog XML, tenhou.net/6 JSON, mjai JSON "
        "lines, canonical JSON)",
        _(
            "not a game record in any known format (Tenhou mjlog XML, tenhou.net/6 JSON, mjai "
            "JSON lines, canonical JSON)"
        ),
    ),
    E(
        "unknown format {text}; known formats: {text2}",
        _("unknown format %(text)s; known formats: %(text2)s"),
    ),
    E(
        "the file ends in the middle of the {text}: it stops after {text2}, before the record is "
        "complete; was it cut short? ({text3})",
        _(
            "the file ends in the middle of the %(text)s: it stops after %(text2)s, before the "
            "record is complete; was it cut short? (%(text3)s)"
        ),
    ),
    E("data after the end of the gzip stream", _("data after the end of the gzip stream")),
    E(
        "a number of {count} digits (no game's figure has so many; at most {count2} are read)",
        _(
            "a number of %(count)s digits (no game’s figure has so many; at most %(count2)s are "
            "read)"
        ),
    ),
    E(
        "holds the character U+0000 (NUL), which no record may hold",
        _("holds the character U+0000 (NUL), which no record may hold"),
    ),
    E(
        "holds {text}, half of a UTF-16 surrogate pair: not text",
        _("holds %(text)s, half of a UTF-16 surrogate pair: not text"),
    ),
    E(
        "truncated gzip data (the file ends before the gzip stream does)",
        _("truncated gzip data (the file ends before the gzip stream does)"),
    ),
    E(
        "gzip content larger than {count} MB; refused",
        _("gzip content larger than %(count)s MB; refused"),
    ),
    E("corrupt gzip data ({text})", _("corrupt gzip data (%(text)s)")),
    E(
        "the file holds {count} XML tags; at most {count2} are read in one file (a game has a "
        "few thousand)",
        _(
            "the file holds %(count)s XML tags; at most %(count2)s are read in one file (a game "
            "has a few thousand)"
        ),
    ),
    E(
        "the file holds about {count} JSON values; at most {count2} are read in one file (a "
        "game has a few thousand): split a collection into several files or an archive",
        _(
            "the file holds about %(count)s JSON values; at most %(count2)s are read in one file "
            "(a game has a few thousand): split a collection into several files or an archive"
        ),
    ),
    E("a member name {text}", _("a member name %(text)s")),
    # -- Storing a game (mjlogs/reading.py, mjlogs/storable.py, mjlogs/importing.py).
    E("the file holds no game", _("the file holds no game")),
    E(
        "the file is {count} bytes, {count2} times its games' record ({count3} bytes): mostly "
        "bytes that are no part of any game; a file of more than {count4} bytes may be at most "
        "{count5} times its record",
        _(
            "the file is %(count)s bytes, %(count2)s times its games’ record (%(count3)s bytes): "
            "mostly bytes that are no part of any game; a file of more than %(count4)s bytes may "
            "be at most %(count5)s times its record"
        ),
    ),
    E("game {count} of {count2}: {reason}", _("game %(count)s of %(count2)s: %(reason)s")),
    E(
        "reading this file ended the worker process that read it (killed, out of memory or "
        "crashed), twice; nothing of it was stored",
        _(
            "reading this file ended the worker process that read it (killed, out of memory or "
            "crashed), twice; nothing of it was stored"
        ),
    ),
    E(
        "the game has {count} rounds; the service keeps at most {count2}",
        _("the game has %(count)s hands; the service keeps at most %(count2)s"),
    ),
    E(
        "the game has {count} events; the service keeps at most {count2}",
        _("the game has %(count)s events; the service keeps at most %(count2)s"),
    ),
    E(
        "round {count} ({hand}) has {count2} events; at most {count3} are kept",
        _("hand %(count)s (%(hand)s) has %(count2)s events; at most %(count3)s are kept"),
    ),
    E(
        "the record's source id is {count} characters long; at most {count2} are kept",
        _("the record’s source id is %(count)s characters long; at most %(count2)s are kept"),
    ),
    E(
        "the record's source id {text} holds a control character",
        _("the record’s source id %(text)s holds a control character"),
    ),
    E(
        "the name of seat {seat} is {count} characters long; at most {count2} are kept",
        _("the name of %(seat)s is %(count)s characters long; at most %(count2)s are kept"),
    ),
    E(
        "the name of seat {seat} ({text}) holds a control character",
        _("the name of %(seat)s (%(text)s) holds a control character"),
    ),
    E(
        "the rule set is {count} characters long; at most {count2} are kept",
        _("the rule set is %(count)s characters long; at most %(count2)s are kept"),
    ),
    E(
        "the record's source format is {count} characters long; at most {count2} are kept",
        _("the record’s source format is %(count)s characters long; at most %(count2)s are kept"),
    ),
    E(
        "the rank of seat {seat} is {count} characters long; at most {count2} are kept",
        _("the rank of %(seat)s is %(count)s characters long; at most %(count2)s are kept"),
    ),
    E(
        "the start time {text} is outside years 1 to 9999 in UTC; no date beyond them is kept",
        _("the start time %(text)s is outside years 1 to 9999 in UTC; no date beyond them is kept"),
    ),
    E(
        "the record names {count} players, but round {count2} ({hand}) has {count3} starting "
        "scores",
        _(
            "the record names %(count)s players, but hand %(count2)s (%(hand)s) has %(count3)s "
            "starting scores"
        ),
    ),
    E(
        "the record names {count} players, but round {count2} ({hand}) has {count3} dealt hands",
        _(
            "the record names %(count)s players, but hand %(count2)s (%(hand)s) has %(count3)s "
            "dealt hands"
        ),
    ),
    E(
        "the record names {count} players, but the dealer of round {count2} ({hand}) is seat "
        "{count3}",
        _(
            "the record names %(count)s players, but the dealer of hand %(count2)s (%(hand)s) is "
            "seat %(count3)s"
        ),
    ),
    E(
        "the record names {count} players, but the final scores are {count2}",
        _("the record names %(count)s players, but the final scores are %(count2)s"),
    ),
    E(
        "the record names {count} players, but the final results are {count2}",
        _("the record names %(count)s players, but the final results are %(count2)s"),
    ),
    E(
        "{text} is {count} points; at most {count2} either way",
        _("%(text)s is %(count)s points; at most %(count2)s either way"),
    ),
    E(
        "{text}: {count} {text2}; at most {count2}",
        _("%(text)s: %(count)s %(text2)s; at most %(count2)s"),
    ),
    E(
        "a recorded {text} of {count}; at most {count2}",
        _("a recorded %(text)s of %(count)s; at most %(count2)s"),
    ),
    E(
        "{name} is {count} bytes; the limit for one file is {count2}",
        _("%(name)s is %(count)s bytes; the limit for one file is %(count2)s"),
    ),
    E(
        "{name} is {count} bytes; the limit for {text} is {count2}; not read",
        _("%(name)s is %(count)s bytes; the limit for %(text)s is %(count2)s; not read"),
    ),
    E("{name} cannot be read ({text})", _("%(name)s cannot be read (%(text)s)")),
    E(
        "the upload is {text}; at most {text2} is accepted in one request (send the files in "
        "several requests, or as a smaller archive)",
        _(
            "the upload is %(text)s; at most %(text2)s is accepted in one request (send the "
            "files in several requests, or as a smaller archive)"
        ),
    ),
    E(
        "a chunked upload (Transfer-Encoding) is not taken; send the file with its "
        "Content-Length (at most {text})",
        _(
            "a chunked upload (Transfer-Encoding) is not taken; send the file with its "
            "Content-Length (at most %(text)s)"
        ),
    ),
    E(
        "{name} holds {count} entries; the limit is {count2}",
        _("%(name)s holds %(count)s entries; the limit is %(count2)s"),
    ),
    E(
        "{name} has a central directory of {count} bytes, too large for the {count2} entries an "
        "archive may hold",
        _(
            "%(name)s has a central directory of %(count)s bytes, too large for the %(count2)s "
            "entries an archive may hold"
        ),
    ),
    E(
        "{name} is not a readable zip archive ({text})",
        _("%(name)s is not a readable zip archive (%(text)s)"),
    ),
    E(
        "{name} is not a readable tar archive ({text})",
        _("%(name)s is not a readable tar archive (%(text)s)"),
    ),
    E("{name} holds no file", _("%(name)s holds no file")),
    E(
        "{name} holds {count} files; the limit is {count2}",
        _("%(name)s holds %(count)s files; the limit is %(count2)s"),
    ),
    E(
        "{name} holds {count} bytes uncompressed; the limit is {count2}",
        _("%(name)s holds %(count)s bytes uncompressed; the limit is %(count2)s"),
    ),
    E(
        "{name} holds more than {count} entries; the limit is {count2}",
        _("%(name)s holds more than %(count)s entries; the limit is %(count2)s"),
    ),
    E(
        "{name} holds more than {count} files; the limit is {count2}",
        _("%(name)s holds more than %(count)s files; the limit is %(count2)s"),
    ),
    E(
        "{name} holds more than {count} bytes uncompressed; the limit is {count2}",
        _("%(name)s holds more than %(count)s bytes uncompressed; the limit is %(count2)s"),
    ),
    E(
        "{name} cannot be read from the {text} archive ({text2})",
        _("%(name)s cannot be read from the %(text)s archive (%(text2)s)"),
    ),
    E(
        "{name} holds more than the {count} bytes it states",
        _("%(name)s holds more than the %(count)s bytes it states"),
    ),
    E(
        "more than {count} files in one import; the rest were skipped",
        _("more than %(count)s files in one import; the rest were skipped"),
    ),
    E(
        "an archive inside an archive is not opened; upload the inner archive on its own, or "
        "its files in one archive",
        _(
            "an archive inside an archive is not opened; upload the inner archive on its own, or "
            "its files in one archive"
        ),
    ),
    # -- An upload refused on its headers (mjlogs/uploads.py).
    E(
        "a chunked upload (Transfer-Encoding) is not taken; send the file with its "
        "Content-Length (at most {number} MB)",
        _(
            "a chunked upload (Transfer-Encoding) is not taken; send the file with its "
            "Content-Length (at most %(number)s MB)"
        ),
    ),
    E(
        "Content-Length {text} is not a number of bytes",
        _("Content-Length %(text)s is not a number of bytes"),
    ),
    E(
        "the upload is {number} MB; at most {number2} MB is accepted in one request (send the "
        "files in several requests, or as a smaller archive)",
        _(
            "the upload is %(number)s MB; at most %(number2)s MB is accepted in one request (send "
            "the files in several requests, or as a smaller archive)"
        ),
    ),
    # -- A Tenhou link that names no log (mjlogs/tenhou_links.py).
    E(
        "give a Tenhou replay link or log id, such as {text}",
        _("give a Tenhou replay link or log id, such as %(text)s"),
    ),
    E(
        "that is {count} characters; a Tenhou link is far shorter",
        _("that is %(count)s characters; a Tenhou link is far shorter"),
    ),
    E(
        "not a Tenhou log link or id: {text} is neither a link nor a log id (a log id looks like "
        "{text2})",
        _(
            "not a Tenhou log link or id: %(text)s is neither a link nor a log id (a log id looks "
            "like %(text2)s)"
        ),
    ),
    E(
        "{text} records can only be fetched with a {text2} login, which this service does not "
        "have: export the game (for example as tenhou.net/6 JSON) and upload the file",
        _(
            "%(text)s records can only be fetched with a %(text)s login, which this service does "
            "not have: export the game (for example as tenhou.net/6 JSON) and upload the file"
        ),
    ),
    E(
        "not a Tenhou log link or id: the link is to {text}, not tenhou.net",
        _("not a Tenhou log link or id: the link is to %(text)s, not tenhou.net"),
    ),
    E(
        "not a Tenhou log link or id: this tenhou.net/6 link carries the game record itself "
        "(#json=...), not a log id; save the record as a file and upload it",
        _(
            "not a Tenhou log link or id: this tenhou.net/6 link carries the game record itself "
            "(#json=...), not a log id; save the record as a file and upload it"
        ),
    ),
    E(
        "not a Tenhou log link or id: {text} names no game log (no log= in it); copy the link of "
        "the game's replay",
        _(
            "not a Tenhou log link or id: %(text)s names no game log (no log= in it); copy the "
            "link of the game’s replay"
        ),
    ),
    E(
        "not a Tenhou log link or id: {text} is not a log id (a log id looks like {text2})",
        _("not a Tenhou log link or id: %(text)s is not a log id (a log id looks like %(text2)s)"),
    ),
    E(
        "not a Tenhou log link or id: tw={text} is not a seat (0 to 3)",
        _("not a Tenhou log link or id: tw=%(text)s is not a seat (0 to 3)"),
    ),
    E("not a Tenhou log id: {text}", _("not a Tenhou log id: %(text)s")),
    # -- Bringing a game in by its Tenhou link (mjlogs/log_fetch.py, mjlogs/link_imports.py).
    E(
        "Tenhou's log server did not answer within {number} s",
        _("Tenhou’s log server did not answer within %(number)s s"),
    ),
    E(
        "Tenhou's log server could not be reached ({text})",
        _("Tenhou’s log server could not be reached (%(text)s)"),
    ),
    E("Tenhou's log server broke off its answer", _("Tenhou’s log server broke off its answer")),
    E(
        "Tenhou's log server sent an answer that could not be decompressed",
        _("Tenhou’s log server sent an answer that could not be decompressed"),
    ),
    E(
        "Tenhou's log server sent too many redirects",
        _("Tenhou’s log server sent too many redirects"),
    ),
    E(
        "Tenhou's log server redirected the request to {text}, off its own host; not followed",
        _("Tenhou’s log server redirected the request to %(text)s, off its own host; not followed"),
    ),
    E("Tenhou has no log {text}", _("Tenhou has no log %(text)s")),
    E("Tenhou's log server answered {count}", _("Tenhou’s log server answered %(count)s")),
    E(
        "Tenhou's log server answered {count} ({text})",
        _("Tenhou’s log server answered %(count)s (%(text)s)"),
    ),
    E(
        "Tenhou's log server sent more than {count} bytes, the most an upload may be "
        "(MJLOGS_MAX_UPLOAD_BYTES); not read",
        _(
            "Tenhou’s log server sent more than %(count)s bytes, the most an upload may be; "
            "not read"
        ),
    ),
    E(
        "too many games are waiting to be fetched from Tenhou's log server",
        _("too many games are waiting to be fetched from Tenhou’s log server"),
    ),
    E(
        "you already have {count} games waiting to be fetched from Tenhou's log server, the most "
        "one person may have; ask again once one of them is done",
        _(
            "you already have %(count)s games waiting to be fetched from Tenhou’s log server, "
            "the most one person may have; ask again once one of them is done"
        ),
    ),
    E("{reason} (tried {count} times)", _("%(reason)s (tried %(count)s times)")),
    E("gave up after {count} tries", _("gave up after %(count)s tries")),
    E(
        "try {count} of {count2}: {reason} (trying again in {number} s)",
        _("try %(count)s of %(count2)s: %(reason)s (trying again in %(number)s s)"),
    ),
    E(
        "what Tenhou's log server sent could not be imported: {reasons}",
        _("what Tenhou’s log server sent could not be imported: %(reasons)s"),
    ),
    E("it holds no game", _("it holds no game")),
    E(
        "the import could not be queued: the task broker cannot be reached; please try again later",
        _(
            "the import could not be queued: the task broker cannot be reached; please try "
            "again later"
        ),
    ),
    E(
        "the import failed on an unexpected error (logged for the administrators)",
        _("the import failed on an unexpected error (logged for the administrators)"),
    ),
    E(
        "the fetch stopped without finishing (the process running it ended); asked again",
        _("the fetch stopped without finishing (the process running it ended); asked again"),
    ),
)


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], Entry], ...]:
    return tuple((pattern(entry.written), entry) for entry in CATALOGUE)


_HOLE: Final = re.compile(r"\{([a-z]+)([0-9]?)\}")


def pattern(written: str) -> re.Pattern[str]:
    """The regular expression of a catalogue sentence: its words as they are, each hole by
    its kind (:data:`KINDS`)."""
    parts = []
    end = 0
    for hole in _HOLE.finditer(written):
        parts.append(re.escape(written[end : hole.start()]))
        kind = hole.group(1)
        parts.append(f"(?P<{kind}{hole.group(2)}>{KINDS[kind][0]})")
        end = hole.end()
    parts.append(re.escape(written[end:]))
    return re.compile("".join(parts))


def _translate(message: str, names: Names, depth: int) -> str | None:
    if depth > _DEPTH:
        return None
    for regex, entry in _compiled():
        found = regex.fullmatch(message)
        if found is None:
            continue
        values: dict[str, str] = {}
        for hole, text in found.groupdict().items():
            words = KINDS[hole.rstrip("0123456789")][1](text, names, depth)
            if words is None:
                break
            values[hole] = words
        else:
            return str(entry.shown) % values
    return None
