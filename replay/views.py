"""Views of the replay app: the step-by-step replay viewer.

A view stays thin: validate the input, call one service or selector, render or serialize.
The viewer page itself holds no table state: it embeds what the script needs to start (the
game, its players and hands, where to open) and the script fetches each hand's frames from the
frames API (``/api/games/{id}/rounds/{r}/frames/``, docs/replay.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from config.limits import parse_int
from mjlogs import game_summary, selectors, terms
from mjlogs.discrepancy_words import discrepancy_words
from mjlogs.models import Game
from replay.models import Verdict

#: Verdicts whose first discrepancy is an event the viewer opens at.
_OPEN_AT_DISCREPANCY = (Verdict.SCORE_MISMATCH.value, Verdict.ILLEGAL_ACTION.value)
#: Round winds by index, as in round names (``E1``, ``S3``), and the events that end a hand.
_WINDS = "ESWN"
_ENDS = ("win", "exhaustive_draw", "nagashi_mangan", "abortive_draw")
#: What a discrepancy about the game's end compares: shown at its hand's last frame (as the
#: frames API does, ``engine.frames.discrepancy_step``); any other without an event, at the deal.
_GAME_END_CHECKS = frozenset({"final scores", "game end"})


@require_safe
def viewer(request: HttpRequest, game_id: int) -> HttpResponse:
    """The replay viewer of one game: 404 when the user may not see it.

    Query parameters (all optional): ``round`` (0-based), ``step`` (0 is the deal), ``seat``
    (the seat shown at the bottom), ``hands`` (``shown`` or ``hidden``), ``end=1`` (the game's
    end after its last hand: the final standings). Without ``round`` or ``end`` the page opens
    at the verdict's first discrepancy when it is a mismatch or an illegal action, else at the
    first hand's deal.
    """
    try:
        game = selectors.game_get(request.user, game_id)
    except Game.DoesNotExist:
        raise Http404("no such game") from None
    return render(
        request, "replay/viewer.html", {"game": game, "data": viewer_data(game, request.GET)}
    )


def viewer_data(game: Game, query: Mapping[str, str]) -> dict[str, Any]:
    """What the viewer's script starts from (embedded in the page as JSON)."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    players = [seat.player.name for seat in seats] or [
        str(player.get("name", "")) for player in game.document.get("players", [])
    ]
    rounds = _rounds(game)
    verification = getattr(game, "verification", None)
    verdict = verification.verdict if verification is not None else Verdict.PENDING.value
    discrepancy = _discrepancy(game, verification, verdict, len(rounds), players)
    start = _start(query, rounds, len(players), discrepancy)
    api = reverse("api:game-detail", args=[game.pk]) + "rounds/"
    return {
        "game": game.pk,
        "title": str(game),
        "ruleset": game.ruleset,
        "players": players,
        "players_count": game.players_count,
        "rounds": rounds,
        "verdict": verdict,
        # The game's end as the game page shows it (mjlogs.game_end): complete, and each seat's
        # final score, place and points with who vouches for them.
        "end": game_summary.game_end_json(game),
        "discrepancy": discrepancy,
        "start": start,
        # The frames of round R are at ``frames_url + R + "/frames/"``.
        "frames_url": api,
        "game_url": reverse("mjlogs:game_detail", args=[game.pk]),
        # The yaku in the page's language by engine name (the Japanese names on a Japanese
        # page; empty in English, where the viewer writes the engine's names in words). The
        # viewer reads the language itself from <html lang>.
        "yaku_names": terms.yaku_names(),
    }


def _rounds(game: Game) -> list[dict[str, Any]]:
    """Every hand of the record, for the hand selector: how each ends by the engine's replay
    report where it has one (a report stops at an illegal action), else by the record's own
    end events."""
    known = {row.index: row for row in game_summary.game_round_rows(game)}
    rounds = []
    for index, round_ in enumerate(game.document.get("rounds", [])):
        row = known.get(index)
        if row is not None:
            rounds.append(
                {"index": index, "name": row.name, "honba": row.honba, "result": row.result}
            )
            continue
        wind = round_.get("wind", 0)
        letter = _WINDS[wind] if isinstance(wind, int) and 0 <= wind < len(_WINDS) else "?"
        ends = [event.get("type") for event in round_.get("events", [])]
        result = next((kind for kind in ends if kind in _ENDS), "unfinished")
        rounds.append(
            {
                "index": index,
                "name": f"{letter}{round_.get('number', '?')}",
                "honba": round_.get("honba", 0),
                "result": result,
            }
        )
    return rounds


def _discrepancy(
    game: Game, verification: Any, verdict: str, rounds: int, players: list[str]
) -> dict[str, Any] | None:
    """The first discrepancy of a mismatch or an illegal action, with the step that shows it
    (the frame after the offending event; for an illegal action, the state it was tried on,
    since the frames stop there), and in words as the game page says it, in the page's
    language (``sentence``, ``rule``, ``subject``: :mod:`mjlogs.discrepancy_words`). ``step`` is
    ``-1`` for "the hand's last frame" (a check of the game's end). The script takes the frames
    API's ``step`` once it has the round's frames: the engine knows where they stop."""
    if verification is None or verdict not in _OPEN_AT_DISCREPANCY:
        return None
    found = verification.discrepancy or {}
    round_index = found.get("round")
    if not isinstance(round_index, int) or not 0 <= round_index < rounds:
        return None
    event = found.get("event")
    if isinstance(event, int):
        step = event if verdict == Verdict.ILLEGAL_ACTION.value else event + 1
    elif found.get("what") in _GAME_END_CHECKS:
        step = -1
    else:
        step = 0
    words = discrepancy_words(verdict, found, verification.message, game.document, players)
    return {
        "verdict": verdict,
        "round": round_index,
        "round_name": found.get("round_name"),
        "event": event,
        "step": step,
        "what": str(found.get("what") or ""),
        "sentence": words.sentence.plain(),
        "rule": words.rule.plain() if words.rule is not None else "",
        "subject": words.subject,
    }


def _int(value: str | None, low: int, high: int) -> int | None:
    """The query value as an integer in ``low..high``, else ``None``."""
    return parse_int(value, low, high)


def _start(
    query: Mapping[str, str],
    rounds: list[dict[str, Any]],
    players: int,
    discrepancy: dict[str, Any] | None,
) -> dict[str, Any]:
    """Where the page opens: the query's moment (``end=1``: the game's end), else the
    discrepancy, else the first deal."""
    seat = _int(query.get("seat"), 0, max(players - 1, 0)) or 0
    hands = "hidden" if query.get("hands") == "hidden" else "shown"
    if query.get("end") == "1" and rounds:
        last = len(rounds) - 1
        return {
            "round": last,
            "step": -1,
            "seat": seat,
            "hands": hands,
            "at_discrepancy": False,
            "end": True,
        }
    round_index = _int(query.get("round"), 0, max(len(rounds) - 1, 0)) if rounds else None
    step = _int(query.get("step"), 0, 100_000) or 0
    at_discrepancy = False
    if round_index is None and discrepancy is not None:
        round_index, step, at_discrepancy = discrepancy["round"], discrepancy["step"], True
    elif round_index is None:
        round_index = 0
    return {
        "round": round_index,
        "step": step,
        "seat": seat,
        "hands": hands,
        "at_discrepancy": at_discrepancy,
        "end": False,
    }
