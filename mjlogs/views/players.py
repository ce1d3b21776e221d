"""The player list and a player's page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from mjlogs import selectors
from mjlogs.models import Player
from mjlogs.terms import rating_word
from mjlogs.views.common import paginate, paginate_games


@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    """Players seated in games this visitor may see; ``?q=`` searches their names."""
    query = request.GET.get("q", "").strip()
    page = paginate(request, selectors.player_list(request.user, query))
    return render(request, "mjlogs/player_list.html", {"page": page, "query": query})


@require_safe
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's names per platform and the games of theirs this visitor may see."""
    try:
        player = selectors.player_get(request.user, player_id)
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    page = paginate_games(request, selectors.player_games(request.user, player))
    context = {
        "player": player,
        "page": page,
        "recorded": selectors.player_recorded_rank(request.user, player),
        "rating_name": rating_word(player.platform),
    }
    return render(request, "mjlogs/player_detail.html", context)
