"""What several pages share: pagination (counting up to ``mjlogs.pagination.COUNT_CAP``) and
the game table's rows."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse

from mjlogs import selectors
from mjlogs.models import Game
from mjlogs.pagination import CappedPaginator
from mjlogs.verdicts import Verdict

#: Rows per page of every list.
PAGE_SIZE = 50


def paginate(request: HttpRequest, items: Any) -> Page[Any]:
    """The page of ``items`` that ``?page=`` asks for (the last for a number past the end, or
    past the counted rows; the first for anything that is not a number)."""
    return CappedPaginator(items, PAGE_SIZE).get_page(request.GET.get("page"))


def paginate_games(request: HttpRequest, games: QuerySet[Game]) -> Page[dict[str, Any]]:
    """The page of ``games`` that ``?page=`` asks for, as the game table
    (``mjlogs/_games_table.html``) shows them: plain rows (``selectors.game_rows``) with their
    links and verdict label, not model instances. On a list of 50 games, building 50 games and
    200 seats as instances and reversing 300 URLs cost more than the queries."""
    page = paginate(request, games.prefetch_related(None).values_list("pk", flat=True))
    links = _GameLinks()
    page.object_list = [links.add_to(row) for row in selectors.game_rows(list(page.object_list))]
    return page


class _GameLinks:
    """The game table's URLs, each pattern reversed once a page: reversing is the same work for
    every id, and 300 reverses were a third of the page's rendering."""

    #: An id no game has, reversed in place of the real one and then replaced by it.
    PLACEHOLDER = "2147483647"

    def __init__(self) -> None:
        self.game = self._pattern("mjlogs:game_detail")
        self.replay = self._pattern("replay:viewer")
        self.player = self._pattern("mjlogs:player_detail")

    def _pattern(self, name: str) -> str:
        return reverse(name, args=(int(self.PLACEHOLDER),)).replace(self.PLACEHOLDER, "{}", 1)

    def add_to(self, row: dict[str, Any]) -> dict[str, Any]:
        row["url"] = self.game.format(row["id"])
        row["replay_url"] = self.replay.format(row["id"])
        row["title"] = row["source_id"] or f"game {row['id']}"  # as str(Game)
        verdict = Verdict(row["verdict"]) if row["verdict"] else Verdict.PENDING
        row["verdict"], row["verdict_label"] = verdict.value, str(verdict.label)
        for seat in row["seats"]:
            seat["url"] = self.player.format(seat["player_id"])
            seat["name"] = seat.pop("player__name")
        return row
