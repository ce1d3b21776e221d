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

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery

from config import compression
from engine.errors import MalformedLogError
from engine.formats import canonical, get_format
from mjlogs.errors import InvalidRequest
from mjlogs.models import (
    Game,
    GameSeat,
    Player,
    PlayerKind,
    PlayerName,
    QueuedImport,
    Visibility,
)
from mjlogs.provenance import PLATFORM_LABELS, platform_label

if TYPE_CHECKING:
    from mjlogs.filters import GameFilter

User = AbstractBaseUser | AnonymousUser


def queued_imports_of(user: User) -> QuerySet[QueuedImport]:
    """The queued imports this user may follow: their own, and all for staff."""
    if getattr(user, "is_staff", False):
        return QueuedImport.objects.all()
    if user.is_authenticated:
        return QueuedImport.objects.filter(uploader_id=user.pk)
    return QueuedImport.objects.none()


def queued_imports_latest(user: User, count: int) -> QuerySet[QueuedImport]:
    """This user's own latest queued imports, newest first (none for a visitor)."""
    if not user.is_authenticated:
        return QueuedImport.objects.none()
    return QueuedImport.objects.filter(uploader_id=user.pk)[:count]


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
    """The games this user may see, ready for a list (unfiltered, newest first): each game once,
    by the copy of it that counts (``mjlogs.copies``; the others are listed on its page)."""
    return _listed(games_visible_to(user).filter(copy_of__isnull=True))


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
    # Imported here: the filter's choices list every rule set and format, which imports every
    # game family and format reader; the services (an import's start) need none of them.
    from mjlogs.filters import GameFilter

    # A filter set binds any mapping (its form's data); django-filter's stubs ask for a
    # QueryDict or a dict.
    return GameFilter(params, queryset=games_listed(user))  # type: ignore[arg-type]


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
    return game.original_name, compression.decompress(raw)


def player_list(user: User, search: str = "") -> QuerySet[Player]:
    """Players this user may see, by name, but anonymous seats (each guest is a player of
    one game: listing them is listing seats); ``search`` matches any of their names in part,
    case-insensitively."""
    players = _players_visible_to(user).exclude(kind=PlayerKind.ANONYMOUS)
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


@dataclass(frozen=True)
class RecordedRank:
    """The rank and rating a game's record gives a player (Tenhou's ``UN`` ``dan`` and
    ``rate``), and when that game was played."""

    rank: str
    rating: float | None
    date: datetime | None


def player_recorded_rank(user: User, player: Player) -> RecordedRank | None:
    """What the latest record that says anything of this player's rank says (of the games
    this user may see), else ``None``."""
    seat = (
        GameSeat.objects.filter(player=player, game__in=games_visible_to(user))
        .filter(~Q(recorded_rank="") | Q(recorded_rating__isnull=False))
        .order_by(F("game__started_at").desc(nulls_last=True), "-game_id")
        .values("recorded_rank", "recorded_rating", "game__started_at")
        .first()
    )
    if seat is None:
        return None
    return RecordedRank(seat["recorded_rank"], seat["recorded_rating"], seat["game__started_at"])


def player_games(user: User, player: Player) -> QuerySet[Game]:
    """The games of this player that this user may see, newest first, each once (a name may
    sit in two seats of one game: a join on the seats would list it twice; a game of which
    two copies seat the player is listed by the copy that counts)."""
    seated = GameSeat.objects.filter(player=player).values("game_id")
    games = games_visible_to(user).filter(pk__in=seated)
    return _listed(games.filter(Q(copy_of__isnull=True) | ~Q(copy_of__in=seated)))


def game_copies(user: User, game: Game) -> list[Game]:
    """The other records of this game (its copies, ``mjlogs.copies``) that this user may see:
    the one that counts first, then in the order they were stored."""
    if not game.play_hash:
        return []
    copies = games_visible_to(user).filter(play_hash=game.play_hash).exclude(pk=game.pk)
    fields = ("source_format", "source_id", "raw_name", "visibility", "uploaded_at")
    listed = copies.only(*fields, "copy_of", "copy_conflicts").order_by("pk")
    return sorted(listed, key=lambda copy: copy.copy_of_id is not None)


# --- Finding a player by what a person types (the compare page, head-to-head) ----------------

#: Players an error lists at most: the players of an ambiguous name, the close matches.
CHOICES_SHOWN = 10
SUGGESTIONS_SHOWN = 5
#: Characters of a typed text an error message repeats (a long one is cut).
_QUOTED = 60


_ID = re.compile(r"[+-]?[0-9]+")
#: Players a search may match and still come the most games first (:func:`player_search`).
FEW_MATCHES = 200


def looks_like_id(text: str) -> bool:
    """Whether a typed player is an id (digits, maybe signed: a bad id, not a name)."""
    return _ID.fullmatch(text.strip()) is not None


def _visible_seats(user: User) -> QuerySet[GameSeat]:
    """The seats of the outer query's player in games this user may see."""
    return GameSeat.objects.filter(player=OuterRef("pk"), game__in=games_visible_to(user))


def _visible(players: QuerySet[Player], user: User) -> QuerySet[Player]:
    """These players, those this user may see only (seated in a game they may see).

    Asked player by player, stopping at the first such seat (a subquery with a limit, which
    PostgreSQL cannot turn into a join over every seat, as it does an ``EXISTS`` or ``IN``
    when it misjudges how many players the name match leaves)."""
    first = _visible_seats(user).order_by().values("pk")[:1]
    return players.alias(seen=Subquery(first)).filter(seen__isnull=False)


def _with_games(players: QuerySet[Player], user: User) -> QuerySet[Player]:
    """These players, those this user may see only, each with ``games``: their games this user
    may see (counted once a game, through the seats' player index), the most games first, then
    by name. Costs in proportion to the seats of the players given: give it a few."""
    games = (
        _visible_seats(user).order_by().values("player").annotate(n=Count("game", distinct=True))
    )
    return (
        _visible(players, user)
        .annotate(games=Subquery(games.values("n")))
        .order_by("-games", "name", "pk")
    )


def _named() -> QuerySet[Player]:
    """The players a name finds: every kind but anonymous seats (a guest's ``NoName`` is one
    game's player; only its id reaches it)."""
    return Player.objects.exclude(kind=PlayerKind.ANONYMOUS)


def player_search(user: User, text: str) -> QuerySet[Player]:
    """Players this user may see whose name (or any of their names per platform) holds
    ``text``, in any case; never anonymous seats. The most games (this user may see) first,
    then by name, each with ``games``; slice it (a completion shows a few).

    When the text matches more than :data:`FEW_MATCHES` players (a letter or two on a large
    site), by name only, without ``games``: counting the games of thousands of players costs
    a second or more, for a list nobody reads past its first lines."""
    text = text.strip()
    names = PlayerName.objects.filter(name__icontains=text).values("player")
    matching = _named().filter(Q(name__icontains=text) | Q(pk__in=names))
    # The ids of the players this user may see first (a pass over the players' names, each
    # asked for one seat it may see): given as a list, a few are planned as a few (index reads;
    # no JIT compilation, which would cost more than the query itself). Only those it may see
    # are counted: counting the others would switch the order for a name nobody here sees,
    # and tell that it holds the text (issue 40).
    found = list(_visible(matching, user).values_list("pk", flat=True)[: FEW_MATCHES + 1])
    if len(found) > FEW_MATCHES:
        return _visible(matching, user).order_by("name", "pk").prefetch_related("names")
    return _with_games(Player.objects.filter(pk__in=found), user).prefetch_related("names")


def _quoted(text: str) -> str:
    return f"“{text if len(text) <= _QUOTED else text[: _QUOTED - 1] + '…'}”"


def player_label(player: Player) -> str:
    """A player as a list of choices shows them: the name, where it comes from (the same name
    on two platforms is two players), a bot or a guest seat marked."""
    shown = f"{player.name} · {platform_label(player.platform)}" if player.platform else player.name
    marks: dict[str, str] = {PlayerKind.BOT: " (bot)", PlayerKind.ANONYMOUS: " (guest)"}
    return shown + marks.get(player.kind, "")


def player_choice(player: Player, ref: str) -> str:
    """A player as an error lists them: what to type, the platform, bot, the id."""
    details = [platform_label(player.platform)] if player.platform else []
    if player.kind == PlayerKind.BOT:
        details.append("bot")
    details.append(f"id {player.pk}")
    return f"{ref} ({', '.join(details)})"


class PlayerLookupError(InvalidRequest):
    """A typed name that is no player this user may see (``candidates`` are then close
    matches: names holding the text), or several (``ambiguous``; ``candidates`` are they).
    ``refs`` tells what to type to reach each candidate (:func:`player_refs`)."""

    def __init__(
        self, text: str, candidates: list[Player], refs: dict[int, str], *, ambiguous: bool
    ) -> None:
        self.text = text
        self.candidates = candidates
        self.refs = refs
        self.ambiguous = ambiguous
        super().__init__(self.message)

    @property
    def message(self) -> str:
        choices = ", ".join(player_choice(p, self.refs[p.pk]) for p in self.candidates)
        if self.ambiguous:
            return (
                f"{_quoted(self.text)} is more than one player: {choices}. "
                "Say which with name@platform or the id."
            )
        found = f"No player named {_quoted(self.text)}."
        return f"{found} Close matches: {choices}." if choices else found


def _platform_key(text: str) -> str:
    """The platform a ``name@platform`` names: its key (``majsoul``) or its label, any case."""
    key = text.strip().lower()
    by_label = {label.lower(): platform for platform, label in PLATFORM_LABELS.items()}
    return by_label.get(key, key)


def player_by_name(user: User, text: str) -> Player:
    """The player this user may see named ``text``: the exact name (case-sensitive), else the
    name in any case. ``name@platform`` (``Ann@tenhou``, or the platform's label) is the name
    on that platform only: the same name on two platforms is two players; a name holding ``@``
    is still found whole. Anonymous seats are never found by name (only by id).

    :raises PlayerLookupError: no such player (with close matches), or several (with them).
    """
    text = text.strip()
    name, at, suffix = text.rpartition("@")
    attempts: list[tuple[str, str | None]] = [(text, None)]
    if at and name.strip() and suffix.strip():
        attempts.insert(0, (name.strip(), _platform_key(suffix)))
    for wanted, platform in attempts:
        named = _named() if platform is None else _named().filter(platform=platform)
        for match in (Q(name=wanted), Q(name__iexact=wanted)):
            found = list(_visible(named.filter(match), user).values_list("pk", flat=True)[:51])
            if len(found) == 1:
                return Player.objects.get(pk=found[0])
            if found:
                # Several: the most games first (counted for these few only).
                players = Player.objects.filter(pk__in=found)
                listed = list(_with_games(players, user)[:CHOICES_SHOWN])
                raise PlayerLookupError(text, listed, player_refs(user, listed), ambiguous=True)
    # Close matches: names holding the name typed, on any platform.
    close = list(player_search(user, attempts[0][0])[:SUGGESTIONS_SHOWN])
    raise PlayerLookupError(text, close, player_refs(user, close), ambiguous=False)


def player_refs(user: User, players: list[Player]) -> dict[int, str]:
    """What to type to find each of these players again (:func:`player_by_name`): the name
    when it is one player this user may see, else ``name@platform`` when that is one, else
    the id."""
    names = {player.name for player in players}
    rows = _visible(_named().filter(name__in=names), user).values_list("pk", "name", "platform")
    by_name: dict[str, int] = {}
    by_platform: dict[tuple[str, str], int] = {}
    for _, name, platform in rows:
        by_name[name] = by_name.get(name, 0) + 1
        by_platform[(name, platform)] = by_platform.get((name, platform), 0) + 1
    refs = {}
    for player in players:
        # A name that reads as an id or holds "@" is typed with its platform.
        plain = not looks_like_id(player.name) and "@" not in player.name
        if player.kind == PlayerKind.ANONYMOUS:
            refs[player.pk] = str(player.pk)  # no name finds it
        elif plain and by_name.get(player.name, 0) <= 1:
            refs[player.pk] = player.name
        elif player.platform and by_platform.get((player.name, player.platform), 0) <= 1:
            refs[player.pk] = f"{player.name}@{player.platform}"
        else:
            refs[player.pk] = str(player.pk)
    return refs
