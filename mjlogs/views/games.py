"""The game list, the game page, and changing or deleting a game."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from mjlogs import game_changes, game_summary, selectors
from mjlogs.forms import VisibilityForm
from mjlogs.models import Game
from mjlogs.terms import platform_name
from mjlogs.views.common import paginate_games

#: The exports offered on the game page (the REST API writes them): format name, label.
EXPORTS = (
    ("canonical", "Canonical JSON"),
    ("tenhou6", "tenhou.net/6 JSON"),
    ("mjai", "mjai JSON lines"),
)


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    """The games this visitor may see, filtered by the query string, 50 a page."""
    games = selectors.game_filter(request.user, request.GET)
    for name in ("since", "until"):
        games.form.fields[name].widget.input_type = "date"
    # A list that silently dropped a bad filter would look filtered: show the error instead.
    page = paginate_games(request, games.qs) if games.is_valid() else None
    return render(request, "mjlogs/game_list.html", {"filter": games, "page": page})


@require_safe
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """One game: players, scores, verdict and hand results, the other records of the game
    (``mjlogs.copies``); for its uploader and staff, the forms to change who sees it and to
    delete it."""
    game = _visible_game(request, game_id)
    copies = selectors.game_copies(request.user, game)
    ends = game_summary.game_seat_ends(game)
    seats = [end.seat for end in ends]
    platforms = {seat.player.platform for seat in seats}
    context = {
        "game": game,
        "seats": seats,
        "seat_ends": ends,
        "points_by_record": any(end.by_record for end in ends),
        "recorded_ranks": any(s.recorded_rank or s.recorded_rating is not None for s in seats),
        "platform": platform_name(platforms.pop()) if len(platforms) == 1 else "",
        "verdict": game_summary.game_verdict(game),
        "rounds": game_summary.game_round_rows(game),
        "exports": EXPORTS,
        "copies": copies,
        # The copy that counts in this one's place (None: this one counts, or it is not seen).
        "counted_copy": next((copy for copy in copies if copy.pk == game.copy_of_id), None),
        "can_manage": selectors.user_can_manage_game(request.user, game),
        "visibility_form": VisibilityForm(initial={"visibility": game.visibility}),
    }
    return render(request, "mjlogs/game_detail.html", context)


@login_required
@require_POST
def game_visibility(request: HttpRequest, game_id: int) -> HttpResponse:
    """Make a game public or private: 404 when the user cannot see it, 403 when they may see
    but not manage it (``PermissionDenied`` from the service)."""
    game = _visible_game(request, game_id)
    try:
        game_changes.game_visibility_set(
            user=request.user, game=game, visibility=request.POST.get("visibility", "")
        )
    except (ValueError, game_changes.VisibilityConflict) as error:
        messages.error(request, gettext("Visibility not changed: %(error)s.") % {"error": error})
    else:
        messages.success(
            request,
            gettext("The game is now %(visibility)s.")
            % {"visibility": game.get_visibility_display().lower()},
        )
    return redirect("mjlogs:game_detail", game_id=game.pk)


@login_required
@require_POST
def game_delete(request: HttpRequest, game_id: int) -> HttpResponse:
    """Delete a game, then go to the list: 404 when the user cannot see it, 403 when they may
    see but not manage it."""
    game = _visible_game(request, game_id)
    name = str(game)
    game_changes.game_delete(user=request.user, game=game)
    messages.success(request, gettext("Deleted %(name)s.") % {"name": name})
    return redirect("mjlogs:game_list")


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    try:
        return selectors.game_get(request.user, game_id)
    except Game.DoesNotExist:
        raise Http404("no such game") from None
