"""A verdict's first discrepancy as a player reads it, in the page's language (issue 39): who did
what, where, and which rule it breaks, or which figure differs and how.

The replay report states a discrepancy for programs: ``what`` was compared, what the rules
``expected``, what the record has (``found``: for an illegal action, the refused event as the
engine writes it, ``Discard(seat=1, tile=5m, tsumogiri=False)``), seats counted from 0. Here the
refused event is read back from the stored record (the document's event at the discrepancy's
place) and said in words with the players' names, the rule comes from the engine's reason
(translated by :mod:`mjlogs.engine_words`), and figures are written per player. The game page
and the viewer's banner both show what :func:`discrepancy_words` gives; what it cannot word is
shown as the engine wrote it, marked as untranslated.
"""

# The sentences write the apostrophe as a typographic one.
# ruff: noqa: RUF001, RUF002, RUF003

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from mjlogs import terms
from mjlogs.engine_words import ABORTS, Said, say
from mjlogs.templatetags.mjlogs_pages import MINUS, points, signed

#: The verdicts whose discrepancy is an action the rules refuse.
ILLEGAL: Final = "illegal_action"


@dataclass(frozen=True)
class DiscrepancyWords:
    """A first discrepancy in words."""

    #: ``hand 3 (E3)``, or ``""`` for the whole game.
    where: str
    #: What happened or what differs, as one sentence.
    sentence: Said
    #: For an action the rules refuse: which rule, as one sentence; else ``None``.
    rule: Said | None = None
    #: What it is about, short: the refused action (``Ben discards 5 man``) or the figure
    #: that differs (``Ben’s win, points``); ``""`` when there is nothing shorter.
    subject: str = ""


def discrepancy_words(
    verdict: str,
    found: Mapping[str, Any] | None,
    message: str,
    document: Mapping[str, Any],
    names: Sequence[str],
) -> DiscrepancyWords:
    """The verification's first discrepancy (its ``discrepancy`` and ``message``) in words,
    the refused event read from the game's ``document`` and the seats named by ``names``."""
    found = found or {}
    what = str(found.get("what") or "")
    round_index = found.get("round")
    where = ""
    if isinstance(round_index, int):
        where = gettext("hand %(number)s (%(name)s)") % {
            "number": round_index + 1,
            "name": terms.hand_name(str(found.get("round_name") or "")),
        }
    expected = str(found.get("expected") or "")
    recorded = str(found.get("found") or "")
    words = None
    if verdict == ILLEGAL:
        event = _event_at(document, round_index, found.get("event"))
        words = _illegal(what, where, expected, recorded, event, names)
    elif what:
        words = _differs(what, where, expected, recorded, names)
    if words is not None:
        return words
    return DiscrepancyWords(where, say(message or str(found.get("message") or ""), names))


def _said(text: str) -> Said:
    """A sentence made here: translated, its parts each marked if they are not."""
    return Said(text, True)


def _event_at(document: Mapping[str, Any], round_index: Any, event: Any) -> Mapping[str, Any]:
    rounds = document.get("rounds") or []
    if not isinstance(round_index, int) or not 0 <= round_index < len(rounds):
        return {}
    events = rounds[round_index].get("events") or []
    if not isinstance(event, int) or not 0 <= event < len(events):
        return {}
    found = events[event]
    return found if isinstance(found, Mapping) else {}


# -- Actions the rules refuse ---------------------------------------------------------------------


def _illegal(
    what: str,
    where: str,
    expected: str,
    recorded: str,
    event: Mapping[str, Any],
    names: Sequence[str],
) -> DiscrepancyWords | None:
    rule = say(expected, names)
    if what == "action":
        action = action_words(event, names) if event else say(recorded, names)
        sentence = (
            gettext("In %(where)s the record has an action the rules do not allow: %(action)s.")
            if where
            else gettext("The record has an action the rules do not allow: %(action)s.")
        ) % {"where": where, "action": action}
        return DiscrepancyWords(where, _said(sentence), _rule(rule), action.plain())
    if what == "deal":
        sentence = gettext("In %(where)s the record deals the tiles as the rules do not allow.") % {
            "where": where
        }
        return DiscrepancyWords(where, _said(sentence), _rule(rule))
    another = re.fullmatch(r"another (?:hand|game) \(([ESWN][1-9](?:-[0-9]+)?)\)", recorded)
    if what in ("hand", "game") and another is not None:
        sentence = gettext("After the end of the game the record has another hand, %(hand)s.") % {
            "hand": _hand(another.group(1))
        }
        return DiscrepancyWords(
            where, _said(sentence), _said(gettext("By the rules the game was over before it."))
        )
    goes_on = re.fullmatch(r"another (?:hand|game) \((.+)\)", expected)
    if what in ("game end", "match end") and goes_on is not None:
        sentence = gettext("The record ends the game after %(where)s.") % {"where": where}
        position = _position(goes_on.group(1), names)
        rule_text = gettext("By the rules the game goes on: next comes %(position)s.") % {
            "position": position
        }
        return DiscrepancyWords(where, _said(sentence), _said(rule_text))
    return None


def _rule(reason: Said) -> Said:
    """Which rule an action breaks: the engine's reason in a sentence."""
    return Said(
        gettext("The rules do not allow it: %(reason)s.") % {"reason": reason.plain()},
        reason.translated,
    )


def action_words(event: Mapping[str, Any], names: Sequence[str]) -> Said:
    """A recorded event (canonical JSON, docs/format.md) in words: who did what."""
    kind = str(event.get("type") or "")
    who = _name(event.get("seat"), names)
    tile = terms.tile_words(str(event.get("tile") or ""))
    values = {"who": who, "tile": tile, "from": _name(event.get("from_seat"), names)}
    if kind == "draw":
        text = gettext("%(who)s draws %(tile)s") % values
    elif kind == "discard":
        text = (
            gettext("%(who)s discards %(tile)s, the tile just drawn")
            if event.get("tsumogiri")
            else gettext("%(who)s discards %(tile)s")
        ) % values
    elif kind == "chi":
        text = gettext("%(who)s calls chi on %(from)s’s %(tile)s") % values
    elif kind == "pon":
        text = gettext("%(who)s calls pon on %(from)s’s %(tile)s") % values
    elif kind == "open_kan":
        text = gettext("%(who)s calls an open kan on %(from)s’s %(tile)s") % values
    elif kind == "closed_kan":
        tiles = terms.tiles_words(" ".join(str(t) for t in event.get("tiles") or ()))
        text = gettext("%(who)s declares a closed kan of %(tiles)s") % {**values, "tiles": tiles}
    elif kind == "added_kan":
        text = gettext("%(who)s adds %(tile)s to a pon (an added kan)") % values
    elif kind == "north":
        text = gettext("%(who)s sets a North aside") % values
    elif kind == "riichi":
        text = gettext("%(who)s declares riichi") % values
    elif kind == "riichi_accepted":
        text = gettext("%(who)s’s riichi stick goes down") % values
    elif kind == "dora":
        text = gettext("a new dora indicator, %(tile)s, is turned over") % {
            "tile": terms.tile_words(str(event.get("indicator") or ""))
        }
    elif kind == "win" and event.get("seat") == event.get("from_seat"):
        text = gettext("%(who)s wins by tsumo on %(tile)s") % values
    elif kind == "win":
        text = gettext("%(who)s wins by ron on %(from)s’s %(tile)s") % values
    elif kind == "exhaustive_draw":
        text = gettext("the hand ends in an exhaustive draw")
    elif kind == "abortive_draw":
        text = gettext("the hand ends in an abortive draw: %(kind)s") % {
            "kind": _abort(str(event.get("kind") or ""))
        }
    elif kind == "nagashi_mangan":
        seats = [_name(seat, names) for seat in event.get("seats") or ()]
        text = gettext("nagashi mangan for %(names)s") % {"names": terms.names_words(seats)}
    elif kind == "swap":
        text = gettext("%(who)s swaps %(tile)s with the dora indicator %(indicator)s") % {
            **values,
            "indicator": terms.tile_words(str(event.get("indicator") or "")),
        }
    else:
        # An event of another family (Ùzje) or a new kind: its type and who, as recorded.
        return Said(f"{kind} ({who})" if event.get("seat") is not None else kind, False)
    return _said(text)


def _abort(kind: str) -> str:
    known = ABORTS.get(kind)
    return str(known) if known is not None else kind.replace("_", " ")


# -- Figures that differ --------------------------------------------------------------------------

_WIN: Final = re.compile(r"seat ([0-9]+)'s win: (.+)")
_POWER_ENTRY: Final = re.compile(r"(.+) \(an entry of the (.+) power\)")
_POSITION: Final = re.compile(
    r"([ESWN][1-9]) dealt by seat ([0-9]+), ([0-9]+) honba, ([0-9]+) riichi stick\(s\)"
)


def _differs(
    what: str, where: str, expected: str, recorded: str, names: Sequence[str]
) -> DiscrepancyWords | None:
    refused = _refused(what, expected, recorded, names)
    if refused is not None:
        return DiscrepancyWords(where, refused)
    win = _WIN.fullmatch(what)
    subject: str | None
    if win is not None:
        seat, field = int(win.group(1)), win.group(2)
        subject, shown = _win_field(field, _name(seat, names))
    else:
        subject, shown = _game_field(what)
    if subject is None or shown is None:
        return None
    values = {
        "subject": subject,
        "where": where,
        "expected": shown(expected, names),
        "found": shown(recorded, names),
    }
    sentence = (
        gettext(
            "In %(where)s, %(subject)s: the rules give %(expected)s; the record says %(found)s."
        )
        if where
        else gettext("%(subject)s: the rules give %(expected)s; the record says %(found)s.")
    ) % values
    return DiscrepancyWords(where, _said(sentence), subject=subject)


_PLAYERS: Final = re.compile(r"([0-9]+) players for (\S+)")


def _refused(what: str, expected: str, recorded: str, names: Sequence[str]) -> Said | None:
    """A game the engine refused before its first hand (``engine.report.refused_report``)."""
    if what == "rules":
        return _said(
            gettext("The record’s rules hold what the rules engine does not model: %(rules)s.")
            % {"rules": say(recorded, names).plain()}
        )
    if what == "rule set":
        return _said(
            gettext("The rules engine does not know the record’s rule set: %(problem)s.")
            % {"problem": say(recorded, names).plain()}
        )
    players = _PLAYERS.fullmatch(expected)
    seated = re.fullmatch(r"([0-9]+) players", recorded)
    if what == "players" and players is not None and seated is not None:
        return _said(
            gettext("The rule set %(rules)s seats %(count)s players; the record has %(found)s.")
            % {"rules": players.group(2), "count": players.group(1), "found": seated.group(1)}
        )
    return None


#: How a compared value is written (a figure per player, a yaku list, ...).
Shown = Callable[[str, Sequence[str]], str]


def _win_field(field: str, who: str) -> tuple[str | None, Shown | None]:
    """A win's figure: the subject (``Ben’s win, han``) and how its values are written."""
    entry = _POWER_ENTRY.fullmatch(field)
    if entry is not None:
        subject = gettext("%(who)s’s win, the entry %(name)s of the power %(power)s") % {
            "who": who,
            "name": entry.group(1),
            "power": entry.group(2),
        }
        return subject, _verbatim_or_said
    known = WIN_FIELDS.get(field)
    if known is None:
        return None, None
    return str(known[0]) % {"who": who}, known[1]


def _game_field(what: str) -> tuple[str | None, Shown | None]:
    known = GAME_FIELDS.get(what)
    if known is None:
        return None, None
    return str(known[0]), known[1]


def _numbers(text: str) -> list[float] | None:
    if not (text.startswith("[") and text.endswith("]")):
        return None
    inner = text[1:-1].strip()
    try:
        return [float(part) for part in inner.split(",")] if inner else []
    except ValueError:
        return None


def _per_seat(text: str, names: Sequence[str], number: Any) -> str:
    values = _numbers(text)
    if values is None:
        return _none_or(text)
    return terms.names_words(
        [f"{_name(seat, names)} {number(value)}" for seat, value in enumerate(values)]
    )


def _none_or(text: str) -> str:
    return gettext("none") if text in ("none", "None", "[]") else text


def _scores(text: str, names: Sequence[str]) -> str:
    return _per_seat(text, names, points)


def _deltas(text: str, names: Sequence[str]) -> str:
    return _per_seat(text, names, signed)


def _final_points(text: str, names: Sequence[str]) -> str:
    return _per_seat(text, names, lambda value: f"{value:+.1f}".replace("-", MINUS))


def _seats(text: str, names: Sequence[str]) -> str:
    values = _numbers(text)
    if values is None:
        return text
    if not values:
        return gettext("nobody")
    return terms.names_words([_name(int(seat), names) for seat in values])


def _liable(text: str, names: Sequence[str]) -> str:
    return _name(int(text), names) if text.isdigit() else gettext("nobody")


def _han(text: str, names: Sequence[str]) -> str:
    return gettext("%(count)s han") % {"count": text} if text.isdigit() else text


def _fu(text: str, names: Sequence[str]) -> str:
    return gettext("%(fu)s fu") % {"fu": text} if text.isdigit() else text


def _points(text: str, names: Sequence[str]) -> str:
    if not text.lstrip("-").isdigit():
        return text
    amount = int(text)
    return ngettext("%(count)s point", "%(count)s points", amount) % {"count": f"{amount:,}"}


def _limit(text: str, names: Sequence[str]) -> str:
    return gettext("no limit") if text == "no limit" else terms.limit_name(text)


def _yaku(text: str, names: Sequence[str]) -> str:
    if text == "none":
        return gettext("none")
    parts = []
    for part in text.split(", "):
        name, _, han = part.rpartition(" ")
        if not name or not han.isdigit():
            return text
        parts.append(f"{terms.yaku_name(name)} {_han(han, names)}")
    return terms.names_words(parts)


def _verbatim(text: str, names: Sequence[str]) -> str:
    return text


def _verbatim_or_said(text: str, names: Sequence[str]) -> str:
    return say(text, names).plain()


def _position(text: str, names: Sequence[str]) -> str:
    """Where a hand stands (``E2 dealt by seat 1, 0 honba, 1 riichi stick(s)``) in words."""
    found = _POSITION.fullmatch(text)
    if found is None:
        return say(text, names).plain()
    hand, dealer, honba, sticks = found.groups()
    return pgettext(
        "a hand's place in the game",
        "%(hand)s, %(dealer)s dealing, %(honba)s honba, %(sticks)s riichi sticks",
    ) % {
        "hand": terms.hand_name(hand),
        "dealer": _name(int(dealer), names),
        "honba": honba,
        "sticks": sticks,
    }


def _hand(text: str) -> str:
    name, _, honba = text.partition("-")
    return terms.hand_name(name) + (terms.honba(int(honba)) if honba else "")


def _name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    if isinstance(seat, int):
        return gettext("Seat %(number)s") % {"number": seat + 1}
    return ""


#: A win's figures as the replayers compare them (``engine/replay.py``, Ùzje's replayer), each
#: with its subject and how its values are written.
WIN_FIELDS: Final[dict[str, tuple[Promise, Shown]]] = {
    "han": (gettext_lazy("%(who)s’s win, han"), _han),
    "fu": (gettext_lazy("%(who)s’s win, fu"), _fu),
    "points": (gettext_lazy("%(who)s’s win, points"), _points),
    "yaku": (gettext_lazy("%(who)s’s win, yaku"), _yaku),
    "limit": (gettext_lazy("%(who)s’s win, limit"), _limit),
    "score changes": (gettext_lazy("%(who)s’s win, score changes"), _deltas),
    "liable player (pao)": (gettext_lazy("%(who)s’s win, the player liable (pao)"), _liable),
    "winning hand": (gettext_lazy("%(who)s’s win, the winning hand"), _verbatim),
    "patterns": (gettext_lazy("%(who)s’s win, patterns"), _verbatim),
    "fan (tenths)": (gettext_lazy("%(who)s’s win, fan (in tenths)"), _verbatim),
}

#: The other figures a replay compares (``engine/report.py``, ``engine/replay.py``).
GAME_FIELDS: Final[dict[str, tuple[Promise, Shown]]] = {
    "start scores": (gettext_lazy("the scores at the hand’s start"), _scores),
    "hand start": (gettext_lazy("the hand’s place in the game"), _position),
    "game start": (gettext_lazy("the hand’s place in the game"), _position),
    "final scores": (gettext_lazy("the final scores"), _scores),
    "final points": (gettext_lazy("the final points"), _final_points),
    "draw payments": (gettext_lazy("the payments at the draw"), _deltas),
    "abortive draw payments": (gettext_lazy("the payments at the abortive draw"), _deltas),
    "tenpai players": (gettext_lazy("the players tenpai"), _seats),
}

#: What an illegal action's discrepancy may be about (``engine/report.py``), worded by
#: :func:`_illegal`; and what a refusal before the first hand is about (:func:`_refused`).
ILLEGAL_WHATS: Final = frozenset({"action", "deal", "hand", "game", "game end", "match end"})
REFUSAL_WHATS: Final = frozenset({"rules", "rule set", "players"})
