"""Read paths of the mjlogs app.

Every query that views, API endpoints or tasks need is a function here (HackSoft Django
Styleguide): a selector takes plain values and returns model instances, querysets or plain
data, and changes nothing. Writes belong in ``services.py``.

Visibility is decided here, once: a private game exists only for its uploader and for staff.
Every other selector starts from :func:`games_visible_to`, so no page or endpoint can show a
private game by forgetting a check; to anyone else it is "not found", never "forbidden", so its
id reveals nothing.
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from engine.errors import MalformedLogError
from engine.formats import canonical, get_format
from mjlogs.filters import GameFilter
from mjlogs.models import Game, GameSeat, Player, Visibility

User = AbstractBaseUser | AnonymousUser


def games_visible_to(user: User) -> QuerySet[Game]:
    """Every game this user may see: the public ones, their own uploads, and all for staff."""
    games = Game.objects.all()
    if getattr(user, "is_staff", False):
        return games
    if user.is_authenticated:
        return games.filter(Q(visibility=Visibility.PUBLIC) | Q(uploader=user))
    return games.filter(visibility=Visibility.PUBLIC)


def _listed(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games with what a list shows (seats with players, the verdict), without the large
    columns (the document, the raw file, the verification's replay report)."""
    seats = GameSeat.objects.select_related("player").order_by("seat")
    return (
        games.select_related("verification", "uploader")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .defer("document", "raw", "verification__report", "verification__discrepancy")
    )


def games_listed(user: User) -> QuerySet[Game]:
    """The games this user may see, ready for a list (unfiltered, newest first)."""
    return _listed(games_visible_to(user))


#: The columns of a game that a list shows, as :func:`game_rows` reads them.
LIST_COLUMNS = (
    "id", "ruleset", "rule_overrides", "players_count", "rounds_count", "complete",
    "source_format", "source_id", "room", "started_at", "uploaded_at", "visibility",
)  # fmt: skip
SEAT_COLUMNS = (
    "seat", "player_id", "player__name", "start_score", "final_score", "placement", "points",
)  # fmt: skip


def game_rows(game_ids: list[int]) -> list[dict[str, Any]]:
    """These games as a list shows them, in this order, as plain values: the list's columns,
    ``uploader`` (a username or ``None``), ``verdict`` (``None`` before the first
    verification) and ``seats`` (dicts of :data:`SEAT_COLUMNS`, in seat order).

    Two queries and no model instances: for a page of 50 games with 200 seats, building the
    instances cost twice the queries themselves (the REST list reads this)."""
    games = Game.objects.filter(pk__in=game_ids).values(
        *LIST_COLUMNS, "uploader__username", "verification__verdict"
    )
    by_id = {row["id"]: row for row in games}
    for row in by_id.values():
        row["uploader"] = row.pop("uploader__username")
        row["verdict"] = row.pop("verification__verdict")
        row["seats"] = []
    seats = GameSeat.objects.filter(game_id__in=game_ids).order_by("game_id", "seat")
    for seat in seats.values("game_id", *SEAT_COLUMNS):
        by_id[seat.pop("game_id")]["seats"].append(seat)
    return [by_id[game_id] for game_id in game_ids if game_id in by_id]


def game_filter(user: User, params: Mapping[str, Any] | None = None) -> GameFilter:
    """The game list's filter bound to these query parameters, over the games this user may see.
    ``.qs`` is the filtered list; ``.errors`` names any bad parameter."""
    return GameFilter(params, queryset=games_listed(user))


def game_list(user: User, params: Mapping[str, Any] | None = None) -> QuerySet[Game]:
    """The games this user may see, filtered by these query parameters (see GameFilter)."""
    return game_filter(user, params).qs


def game_get(user: User, game_id: int) -> Game:
    """One game this user may see, with its seats and verdict.

    :raises Game.DoesNotExist: no such game, or one this user may not see.
    """
    seats = GameSeat.objects.select_related("player").order_by("seat")
    return (
        games_visible_to(user)
        .select_related("verification", "uploader")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .defer("raw")
        .get(pk=game_id)
    )


def user_can_manage_game(user: User, game: Game) -> bool:
    """Whether this user may delete the game or change who sees it: its uploader, or staff."""
    if not user.is_authenticated:
        return False
    return bool(getattr(user, "is_staff", False)) or game.uploader_id == user.pk


def game_export(game: Game, format_name: str) -> bytes:
    """The stored game written in a format (``canonical``, ``tenhou6``, ``mjai``).

    :raises MalformedLogError: unknown format, or one that cannot be written.
    :raises EngineError: the game cannot be expressed in that format.
    """
    fmt = get_format(format_name)
    if fmt.write is None:
        raise MalformedLogError(f"the {fmt.name} format cannot be written")
    return fmt.write([canonical.game_from_json(game.document)])


def _players_visible_to(user: User) -> QuerySet[Player]:
    """Players seated in at least one game this user may see: a name that appears only in
    private games stays as private as they are."""
    seated = GameSeat.objects.filter(game__in=games_visible_to(user)).values("player")
    return Player.objects.filter(pk__in=seated).prefetch_related("names")


def game_original(game: Game) -> tuple[str, bytes]:
    """The name and bytes of the file a game was imported from (an archive member's name is
    its last part)."""
    raw = Game.objects.filter(pk=game.pk).values_list("raw", flat=True).get()
    return game.original_name, gzip.decompress(bytes(raw))


def player_list(user: User, search: str = "") -> QuerySet[Player]:
    """Players this user may see, by name; ``search`` matches any of their names in part,
    case-insensitively."""
    players = _players_visible_to(user)
    search = search.strip()
    if search:
        matching = Player.objects.filter(
            Q(name__icontains=search) | Q(names__name__icontains=search)
        )
        players = players.filter(pk__in=matching.values("pk"))
    return players


def player_get(user: User, player_id: int) -> Player:
    """:raises Player.DoesNotExist: no such player, or one seen only in games hidden from this
    user."""
    return _players_visible_to(user).get(pk=player_id)


def player_games(user: User, player: Player) -> QuerySet[Game]:
    """The games of this player that this user may see, newest first, each once (a name may
    sit in two seats of one game: a join on the seats would list it twice)."""
    seated = GameSeat.objects.filter(player=player).values("game_id")
    return _listed(games_visible_to(user).filter(pk__in=seated))
