"""Copies of one game: which record counts (docs/security.md, "Which game is which").

Records of one play (``Game.play_hash``, :mod:`engine.identity`) are copies of one game: a Tenhou
game as an mjlog and as its tenhou.net/6 export with the names hidden, a copy someone altered.
A record that says nothing its stored copy does not (the same record, or one with less) is a
duplicate and is not stored (``mjlogs.storing``); one that says more or otherwise is stored, and
of the copies one **counts**: the game lists show it and the statistics count it, once. The
others name it (``Game.copy_of``) and stay reachable from it.

Which copy counts, by the first of these that tells them apart (:func:`preference`):

1. the copy the rules engine verified with no discrepancy (whole or as far as it goes); a copy
   not yet verified, or one the rules disagree with, comes after;
2. the copy brought from Tenhou's log server by its link (``mjlogs.link_imports``): the record
   as Tenhou keeps it, not an upload's claim;
3. the fewer anonymous seats: real names over Tenhou's hidden ones and guests' NoName;
4. the richer record: the more it claims (ranks, final scores, the date, ...);
5. the first stored.

So a tampered copy uploaded first (other final scores, another date or rank) does not keep the
genuine record out: the genuine one is stored beside it, and counts once it verifies where the
tampered one does not, or once it is fetched from Tenhou. A copy whose record claims something
otherwise than the copy that counts is marked with what (``Game.copy_conflicts``), and the copy
that counts with what its own scope's copies claim otherwise.

The copy that counts is chosen among the public copies, and among each uploader's private ones;
a private copy of a game that is public counts under the public one (its uploader sees that one),
as a private upload of a public record is a duplicate of it. A partial unique constraint keeps
one counted copy per play in each scope (``mjlogs.models``), so two uploads racing each other
cannot both count. The choice is made again whenever what it rests on changes: a copy stored, a
verdict written (``replay.services``), a record fetched from Tenhou, a copy deleted or made
public or private (:func:`copies_regroup`). Games whose counting changed have their statistics
brought up to date like any other changed game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count

from mjlogs import pipeline
from mjlogs.identity import claims_stated, compare_records, ordered_labels
from mjlogs.models import Game, GameSeat, LinkImportStatus, PlayerKind, Visibility
from mjlogs.verdicts import AGREEING

#: Link imports whose game is the record Tenhou's log server sent.
FETCHED = (LinkImportStatus.IMPORTED, LinkImportStatus.DUPLICATE)


@dataclass(frozen=True)
class Copy:
    """What the choice of the copy that counts knows of one record of a game."""

    pk: int
    visibility: str
    uploader_id: int | None
    document: Mapping[str, Any]
    #: The rules engine verified it with no discrepancy.
    agrees: bool = False
    #: Brought from Tenhou's log server by its link.
    fetched: bool = False
    #: Anonymous seats (guests, Tenhou's hidden names).
    guests: int = 0


@dataclass(frozen=True)
class Placement:
    """Where one copy stands: the copy that counts (``None``: this one) and what this record
    claims otherwise than the copies it is compared with (labels, in the pages' order)."""

    copy_of: int | None
    conflicts: tuple[str, ...] = ()


def preference(copy: Copy) -> tuple[bool, bool, int, int, int]:
    """The key that sorts the copy that counts first (module docstring)."""
    return (not copy.agrees, not copy.fetched, copy.guests, -claims_stated(copy.document), copy.pk)


def placements(copies: Sequence[Copy], *, leaving: int | None = None) -> dict[int, Placement]:
    """Where each of these copies of one game stands (module docstring). ``leaving`` (a copy
    about to be deleted) counts nowhere: it names a copy that stays, if one does."""
    staying = [copy for copy in copies if copy.pk != leaving]
    public = sorted((c for c in staying if c.visibility == Visibility.PUBLIC), key=preference)
    counted_public = public[0] if public else None
    scopes: dict[object, list[Copy]] = {}
    for copy in staying:
        if copy.visibility != Visibility.PUBLIC:
            scopes.setdefault(copy.uploader_id, []).append(copy)
    counted: dict[int, Copy] = {}  # each copy's counted copy
    for copy in public:
        counted[copy.pk] = public[0]
    for members in scopes.values():
        first = counted_public or min(members, key=preference)
        for copy in members:
            counted[copy.pk] = first
    placed: dict[int, Placement] = {}
    for copy in staying:
        first = counted[copy.pk]
        if first.pk != copy.pk:
            conflicts = compare_records(copy.document, first.document).conflicts
            placed[copy.pk] = Placement(first.pk, tuple(ordered_labels(conflicts)))
            continue
        # What the copies of its own scope claim otherwise (never a private copy's, which
        # whoever sees the copy that counts may not see).
        own = [
            other
            for other in staying
            if counted[other.pk].pk == copy.pk
            and other.pk != copy.pk
            and _scope(other) == _scope(copy)
        ]
        conflicts = frozenset().union(
            *(compare_records(copy.document, other.document).conflicts for other in own)
        )
        placed[copy.pk] = Placement(None, tuple(ordered_labels(conflicts)))
    if leaving is not None and any(copy.pk == leaving for copy in copies):
        stays = counted_public or (min(staying, key=preference) if staying else None)
        placed[leaving] = Placement(None if stays is None else stays.pk)
    return placed


def _scope(copy: Copy) -> tuple[str, int | None]:
    """Who sees the copy: everyone (a public one), or its uploader (a private one)."""
    return (copy.visibility, None if copy.visibility == Visibility.PUBLIC else copy.uploader_id)


def copies_regroup(plays: Iterable[str], *, leaving: int | None = None) -> set[int]:
    """Choose again which copy of each of these games counts, and mark what each copy claims
    otherwise (module docstring), in the current transaction; returns the games that began or
    stopped counting (their statistics are marked behind and brought up to date after commit).

    ``leaving``: a game about to be deleted, or to change who sees it; it counts nowhere here
    and names a copy that stays, so that deleting it leaves another copy counting."""
    changed: set[int] = set()
    with transaction.atomic():
        for play in sorted(set(plays)):
            if play:
                changed |= _regroup(play, leaving)
        if changed:
            games = Game.objects.filter(pk__in=changed).only("started_at", "uploaded_at")
            pipeline.statistics().games_changed(games)
    return changed


def _regroup(play: str, leaving: int | None) -> set[int]:
    # Locked first, one statement (no join: PostgreSQL locks no nullable side of one): two
    # choices of one game's copy wait for each other.
    ids = list(
        Game.objects.select_for_update()
        .filter(play_hash=play)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    rows = list(
        Game.objects.filter(pk__in=ids).values(
            "pk", "visibility", "uploader_id", "document", "copy_of_id", "copy_conflicts",
            "verification__verdict",
        )
    )  # fmt: skip
    fetched = set(
        Game.objects.filter(pk__in=ids, link_imports__status__in=FETCHED).values_list(
            "pk", flat=True
        )
    )
    guests = Counter(
        GameSeat.objects.filter(game_id__in=ids, player__kind=PlayerKind.ANONYMOUS).values_list(
            "game_id", flat=True
        )
    )
    copies = [
        Copy(
            pk=row["pk"],
            visibility=row["visibility"],
            uploader_id=row["uploader_id"],
            document=row["document"],
            agrees=row["verification__verdict"] in AGREEING,
            fetched=row["pk"] in fetched,
            guests=guests[row["pk"]],
        )
        for row in rows
    ]
    placed = placements(copies, leaving=leaving)
    now = {row["pk"]: (row["copy_of_id"], list(row["copy_conflicts"] or [])) for row in rows}
    # Those that stop counting first, then those that begin: the constraint of one counted copy
    # a scope holds after every statement.
    for pk, placement in placed.items():
        if placement.copy_of is not None and now[pk][0] != placement.copy_of:
            Game.objects.filter(pk=pk).update(copy_of=placement.copy_of)
    for pk, placement in placed.items():
        if placement.copy_of is None and now[pk][0] is not None:
            Game.objects.filter(pk=pk).update(copy_of=None)
    for pk, placement in placed.items():
        if list(placement.conflicts) != now[pk][1]:
            Game.objects.filter(pk=pk).update(copy_conflicts=list(placement.conflicts))
    return {
        pk
        for pk, placement in placed.items()
        if (placement.copy_of is None) != (now[pk][0] is None) and pk != leaving
    }


def plays_with_copies(plays: Iterable[str]) -> list[str]:
    """Of these play identities, those that more than one stored game shares, whoever may see
    them (one query)."""
    wanted = {play for play in plays if play}
    if not wanted:
        return []
    shared = (
        Game.objects.filter(play_hash__in=wanted)
        .order_by()  # (the default order would split the groups)
        .values("play_hash")
        .annotate(stored=Count("pk"))  # (not "copies", the name of a relation of Game)
        .filter(stored__gt=1)
    )
    return [row["play_hash"] for row in shared]


def counted_copy(games: Sequence[Mapping[str, Any]], visibility: str) -> int | None:
    """Of a game's stored copies (rows with ``pk``, ``visibility``, ``copy_of_id``), the one a
    new copy of this ``visibility`` counts under, as it is stored: the public copy that counts,
    else (a private copy) its uploader's own that counts; ``None`` when there is none."""
    for wanted in (Visibility.PUBLIC, Visibility.PRIVATE):
        if wanted == Visibility.PRIVATE and visibility == Visibility.PUBLIC:
            break
        for game in games:
            if game["visibility"] == wanted and game["copy_of_id"] is None:
                return int(game["pk"])
    return None
