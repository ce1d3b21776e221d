"""The game page's summary of a game: its verdict with the first discrepancy in words, and its
hands with their results, as rows ready for a template.

Read from the stored JSON (the verification's replay report, else the canonical document), so
nothing here touches the engine or the database beyond the game already fetched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, ngettext, pgettext_lazy

from engine.families import family_of
from mjlogs.discrepancy_words import DiscrepancyWords, discrepancy_words
from mjlogs.engine_words import Said, say
from mjlogs.game_end import BY_RECORD, record_end, shown_points
from mjlogs.models import Game, GameSeat
from mjlogs.verdicts import Verdict

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: Round winds by index, as in round names (``E1``, ``S3``).
_WIND_LETTERS = "ESWN"

#: Words for the ways a hand ends (``RoundSummary.result`` and the canonical end events).
#: Lazy: each is written in the language of the page that shows it.
RESULT_LABELS = {
    "win": pgettext_lazy("hand result", "Win"),
    "exhaustive_draw": pgettext_lazy("hand result", "Exhaustive draw"),
    "nagashi_mangan": pgettext_lazy("hand result", "Nagashi mangan"),
    "abortive_draw": pgettext_lazy("hand result", "Abortive draw"),
    "unfinished": pgettext_lazy("hand result", "Unfinished"),
}

#: Words for the kinds of abortive draw (``AbortiveDraw.kind``, docs/format.md).
ABORT_LABELS = {
    "nine_terminals": pgettext_lazy("abortive draw", "Nine terminals (kyuushu kyuuhai)"),
    "four_winds": pgettext_lazy("abortive draw", "Four winds (suufon renda)"),
    "four_riichi": pgettext_lazy("abortive draw", "Four riichi (suucha riichi)"),
    "four_kans": pgettext_lazy("abortive draw", "Four kans (suukaikan)"),
    "triple_ron": pgettext_lazy("abortive draw", "Triple ron (sanchahou)"),
}


class Unit:
    """What a win's ``han`` counts, by the game's rules: riichi han, small mahjong's points (the
    win's value; fu is 0), or Ùzje fan stored in tenths (shown as fan)."""

    HAN = "han"
    POINTS = "points"
    FAN = "fan"


def value_unit(ruleset: str) -> str:
    """The :class:`Unit` of the wins of a game played under this preset: its family's
    (:class:`engine.families.Unit`, whose values these are)."""
    return family_of(ruleset).value_unit(ruleset).value


def _amount(value: int, unit: str) -> str:
    """``3 han``, ``5 points``, ``13.5 fan`` (fan is stored in tenths), in the page's language."""
    if unit == Unit.FAN:
        return gettext("%(fan)s fan") % {"fan": f"{value / 10:g}"}
    if unit == Unit.POINTS:
        return ngettext("%(count)s point", "%(count)s points", value) % {"count": value}
    if unit == Unit.HAN:
        return gettext("%(count)s han") % {"count": value}
    return f"{value} {unit}"


def _limits(count: int) -> str:
    """An Ùzje limit count: ``1 limit``, ``2 limits``."""
    return ngettext("%(count)s limit", "%(count)s limits", count) % {"count": count}


@dataclass(frozen=True)
class WinRow:
    """One win of a hand, ready to show. Figures are ``None`` where the source gives none."""

    winner: str
    #: The player who dealt in, or ``None`` for a tsumo.
    from_player: str | None
    han: int | None
    fu: int | None
    limit: str | None
    points: int | None
    #: ``(name, han)`` pairs.
    yaku: list[tuple[str, int]]
    #: The player liable for the hand (pao), if any.
    liable: str | None = None
    #: What ``han`` and the yaku values count (:class:`Unit`).
    unit: str = Unit.HAN
    #: The winning hand in the variant's own notation (Ùzje: UJMJ), when shown.
    hand: str = ""

    @property
    def tsumo(self) -> bool:
        return self.from_player is None

    @property
    def value(self) -> str:
        """The win's value in its unit (``""`` when the source gives none)."""
        return "" if self.han is None else _amount(self.han, self.unit)

    @property
    def yaku_values(self) -> list[tuple[str, str]]:
        """``(name, value)`` pairs, each value in the win's unit. An Ùzje limit-hand pattern
        counts limits, not fan."""
        if self.unit == Unit.FAN and self.limit is not None and not self.han:
            return [(name, _limits(value)) for name, value in self.yaku]
        if self.unit == Unit.HAN:
            return [(name, str(value)) for name, value in self.yaku]
        return [(name, _amount(value, self.unit)) for name, value in self.yaku]

    @property
    def limit_label(self) -> str | None:
        """The limit in words; Ùzje's ``2l`` is "2 limits"."""
        if self.limit is None:
            return None
        if self.unit == Unit.FAN and self.limit.endswith("l") and self.limit[:-1].isdigit():
            return _limits(int(self.limit[:-1]))
        return self.limit


@dataclass(frozen=True)
class RoundRow:
    """One hand of a game, ready to show on the game page."""

    index: int
    #: ``E1``, ``S3``, ...
    name: str
    honba: int
    #: ``win``, ``exhaustive_draw``, ``nagashi_mangan``, ``abortive_draw`` or ``unfinished``.
    result: str
    wins: list[WinRow] = field(default_factory=list)
    #: Players tenpai at an exhaustive draw (or nagashi mangan).
    tenpai: list[str] = field(default_factory=list)
    #: The abortive draw's kind in words.
    abort: str | None = None
    #: Score change per seat (empty when unknown).
    deltas: list[int] = field(default_factory=list)
    #: Scores per seat after the hand (empty when unknown).
    scores_after: list[int] = field(default_factory=list)
    #: The hand the first discrepancy of the verdict is in.
    discrepancy: bool = False

    @property
    def result_label(self) -> str:
        known = RESULT_LABELS.get(self.result)
        return str(known) if known is not None else self.result.replace("_", " ").capitalize()

    @property
    def changes(self) -> list[tuple[int, int | None]]:
        """``(score change, score after)`` per seat (the score ``None`` when unknown)."""
        after: list[int | None] = [*self.scores_after] or [None] * len(self.deltas)
        return list(zip(self.deltas, after, strict=False))


@dataclass(frozen=True)
class VerdictInfo:
    """A game's verdict and where its first discrepancy is, in words."""

    verdict: str
    #: The verdict in words (translated lazily for a pending game: its choice's label).
    label: StrOrPromise
    message: str = ""
    #: ``E3``, the hand's number in the game (1 is the first) and the event's index in it.
    round_name: str | None = None
    round_number: int | None = None
    event: int | None = None
    #: What was compared, what the rules give (or allow) and what the record has.
    what: str = ""
    expected: str = ""
    found: str = ""
    engine_version: str = ""
    verified_at: datetime | None = None
    #: Which part of a game the record holds, when it is not a whole game (the replay
    #: report's ``fragment``), in words: then only that part was checked.
    fragment: Said | None = None
    #: What the replay had to assume or what the reader read leniently (the report's warnings).
    warnings: tuple[Said, ...] = ()
    #: The first discrepancy as a player reads it (who, what, which rule), in the page's
    #: language (:mod:`mjlogs.discrepancy_words`); ``None`` when there is none.
    words: DiscrepancyWords | None = None


def game_verdict(game: Game) -> VerdictInfo:
    """The game's verdict (``pending`` before its first verification) with its first
    discrepancy, from its :class:`~replay.models.Verification`."""
    verification = getattr(game, "verification", None)
    if verification is None:
        return VerdictInfo(Verdict.PENDING.value, Verdict.PENDING.label)
    discrepancy = verification.discrepancy or {}
    round_index = discrepancy.get("round")
    report = verification.report or {}
    names = _seat_names(game)
    words = None
    if verification.message or discrepancy:
        words = discrepancy_words(
            verification.verdict, discrepancy, verification.message, game.document, names
        )
    fragment = str(report.get("fragment") or "")
    return VerdictInfo(
        verdict=verification.verdict,
        label=verification.get_verdict_display(),
        message=verification.message,
        round_name=discrepancy.get("round_name"),
        round_number=round_index + 1 if isinstance(round_index, int) else None,
        event=discrepancy.get("event"),
        what=str(discrepancy.get("what") or ""),
        expected=str(discrepancy.get("expected") or ""),
        found=str(discrepancy.get("found") or ""),
        engine_version=verification.engine_version,
        verified_at=verification.verified_at,
        fragment=say(fragment, names) if fragment else None,
        warnings=tuple(say(str(line), names) for line in report.get("warnings") or ()),
        words=words,
    )


@dataclass(frozen=True)
class SeatEnd:
    """A seat at the end of its game, as every page shows it (``mjlogs.game_end``): its final
    score and place as stored, and the final points shown with who vouches for them."""

    seat: GameSeat
    #: The points by the rules, else the record's own, else ``None``.
    points: float | None
    #: ``rules`` (verified by the rules engine), ``record`` (the record's own figure, not
    #: verified) or ``""`` (none).
    points_by: str

    @property
    def by_record(self) -> bool:
        return self.points_by == BY_RECORD


def game_seat_ends(game: Game) -> list[SeatEnd]:
    """The game's seats in order, each with the final points a page shows (the game page's
    players table, the viewer)."""
    recorded = record_end(game.document).points
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    return [SeatEnd(seat, *shown_points(seat.points, recorded, seat.seat)) for seat in seats]


def game_end_json(game: Game) -> dict[str, Any]:
    """The game's end as the viewer's script reads it: ``complete`` and per seat its
    ``final_score``, ``placement``, ``points`` and ``points_by`` (as the game page shows them)."""
    return {
        "complete": game.complete,
        "seats": [
            {
                "seat": end.seat.seat,
                "final_score": end.seat.final_score,
                "placement": end.seat.placement,
                "points": end.points,
                "points_by": end.points_by,
            }
            for end in game_seat_ends(game)
        ],
    }


def game_round_rows(game: Game) -> list[RoundRow]:
    """The game's hands with their results, for the game page.

    From the engine's replay report (``Verification.report["rounds"]``, see
    ``engine.report.round_json``) when the game has been verified; otherwise from what the
    stored canonical document records (docs/format.md), which may leave figures out.
    """
    names = _seat_names(game)
    verification = getattr(game, "verification", None)
    report = verification.report if verification is not None else None
    discrepancy = (verification.discrepancy or {}) if verification is not None else {}
    bad_round = discrepancy.get("round")
    if report and report.get("rounds"):
        rows = [_report_row(summary, names) for summary in report["rounds"]]
    else:
        rows = _document_rows(game.document, names)
    unit = value_unit(game.ruleset)
    hands = _win_hands(game.ruleset, game.document)
    return [
        dataclasses.replace(
            row,
            discrepancy=row.index == bad_round,
            wins=[
                dataclasses.replace(win, unit=unit, hand=hands.get((row.index, number), ""))
                for number, win in enumerate(row.wins)
            ],
        )
        for row in rows
    ]


def _win_hands(ruleset: str, document: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    """The recorded winning hands in the notation of the game's family, by (hand index, win
    number in the hand), for a family that shows them (Ùzje: UJMJ). A hand the notation cannot
    read is left out rather than failing the page."""
    family = family_of(ruleset)
    hands = {}
    for index, round_ in enumerate(document.get("rounds", [])):
        wins = [event for event in round_.get("events", []) if event.get("type") == "win"]
        for number, event in enumerate(wins):
            tiles = (event.get("recorded") or {}).get("hand")
            if not tiles:
                continue
            text = family.win_hand_text([str(tile) for tile in tiles])
            if text is None:
                continue
            hands[index, number] = text
    return hands


def _seat_names(game: Game) -> list[str]:
    """The players' names in seat order: as stored with the seats, else as recorded."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    if seats:
        return [seat.player.name for seat in seats]
    return [str(player.get("name", "")) for player in game.document.get("players", [])]


def _name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def _report_row(summary: Mapping[str, Any], names: list[str]) -> RoundRow:
    wins = [
        WinRow(
            winner=_name(names, win["seat"]),
            from_player=None if win["from_seat"] == win["seat"] else _name(names, win["from_seat"]),
            han=win.get("han"),
            fu=win.get("fu"),
            limit=win.get("limit"),
            points=win.get("points"),
            yaku=[(str(name), int(han)) for name, han in win.get("yaku", [])],
            liable=None if win.get("liable") is None else _name(names, win["liable"]),
        )
        for win in summary.get("wins", [])
    ]
    abort = summary.get("abort")
    return RoundRow(
        index=summary["index"],
        name=summary["name"],
        honba=summary.get("honba", 0),
        result=summary.get("result", "unfinished"),
        wins=wins,
        tenpai=[_name(names, seat) for seat in summary.get("tenpai", [])],
        abort=None if abort is None else str(ABORT_LABELS.get(abort, abort.replace("_", " "))),
        deltas=list(summary.get("deltas") or []),
        scores_after=list(summary.get("scores_after") or []),
    )


def _document_rows(document: Mapping[str, Any], names: list[str]) -> list[RoundRow]:
    """Rows from what the record itself says: its end events and their recorded figures."""
    rows = []
    for index, round_ in enumerate(document.get("rounds", [])):
        wind = round_.get("wind", 0)
        letter = _WIND_LETTERS[wind] if 0 <= wind < len(_WIND_LETTERS) else "?"
        result = "unfinished"
        wins: list[WinRow] = []
        tenpai: list[str] = []
        abort = None
        deltas: list[int] = []
        for event in round_.get("events", []):
            kind = event.get("type")
            if kind == "win":
                result = "win"
                recorded = event.get("recorded") or {}
                wins.append(
                    WinRow(
                        winner=_name(names, event["seat"]),
                        from_player=None
                        if event["from_seat"] == event["seat"]
                        else _name(names, event["from_seat"]),
                        han=recorded.get("han"),
                        fu=recorded.get("fu"),
                        limit=recorded.get("limit"),
                        points=recorded.get("points"),
                        yaku=[(str(name), int(han)) for name, han in recorded.get("yaku", [])],
                        liable=None
                        if recorded.get("liable") is None
                        else _name(names, recorded["liable"]),
                    )
                )
                deltas = _add_deltas(deltas, recorded.get("deltas"))
            elif kind in ("exhaustive_draw", "nagashi_mangan"):
                result = kind
                tenpai = [_name(names, seat) for seat in event.get("recorded_tenpai", [])]
                deltas = _add_deltas(deltas, event.get("recorded_deltas"))
            elif kind == "abortive_draw":
                result = kind
                abort = str(ABORT_LABELS.get(event["kind"], str(event["kind"]).replace("_", " ")))
                deltas = _add_deltas(deltas, event.get("recorded_deltas"))
        rows.append(
            RoundRow(
                index=index,
                name=f"{letter}{round_.get('number', '?')}",
                honba=round_.get("honba", 0),
                result=result,
                wins=wins,
                tenpai=tenpai,
                abort=abort,
                deltas=deltas,
            )
        )
    return rows


def _add_deltas(total: list[int], more: list[int] | None) -> list[int]:
    """Per-seat sums (a double ron records one set of deltas per win)."""
    if not more:
        return total
    if not total:
        return list(more)
    return [a + b for a, b in zip(total, more, strict=False)]
