"""Changes to a stored game by its uploader or staff: deleting it, making it public or
private. Each changes who counts the game, so its copies are chosen again and its statistics
brought up to date (``mjlogs.pipeline``)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from mjlogs import pipeline
from mjlogs.copies import copies_regroup
from mjlogs.errors import Conflict
from mjlogs.models import Game, Visibility
from mjlogs.selectors import user_can_manage_game


def game_delete(*, user: AbstractBaseUser | AnonymousUser, game: Game) -> None:
    """Delete a game (its seats and verdict go with it; its players stay). Deleting the copy of
    a game that counts makes another of its copies count (``mjlogs.copies``).

    :raises PermissionDenied: the user is neither the uploader nor staff.
    """
    _check_can_manage(user, game)
    with transaction.atomic():
        copies_regroup([game.play_hash], leaving=game.pk)
        _queue_stats_update(game)
        game.delete()


class VisibilityConflict(Conflict):
    """The game cannot take that visibility: another copy of it already has it."""


def game_visibility_set(
    *, user: AbstractBaseUser | AnonymousUser, game: Game, visibility: str
) -> Game:
    """Make a game public or private. Which of its game's copies counts is chosen again, in the
    scope it leaves and in the one it joins (``mjlogs.copies``).

    :raises PermissionDenied: the user is neither the uploader nor staff.
    :raises VisibilityConflict: the same game is already public (making it public), or already
        among its uploader's private games (making it private); the message names that copy
        when the user may see it.
    :raises ValueError: an unknown visibility.
    """
    _check_can_manage(user, game)
    if visibility not in Visibility.values:
        raise ValueError(f"visibility must be one of {', '.join(Visibility.values)}")
    if visibility == game.visibility:
        return game
    try:
        with transaction.atomic():
            # Out of its copies' choice first, so that it joins the other scope as a copy.
            copies_regroup([game.play_hash], leaving=game.pk)
            Game.objects.filter(pk=game.pk).update(visibility=visibility)
            copies_regroup([game.play_hash])
            _queue_stats_update(game)
    except IntegrityError:
        raise VisibilityConflict(_conflict_message(game, visibility)) from None
    game.visibility = visibility
    return game


def _conflict_message(game: Game, visibility: str) -> str:
    # The copy in the way is public, or private to this game's own uploader: either way one
    # that whoever may manage this game may see.
    copies = Game.objects.filter(content_hash=game.content_hash, visibility=visibility)
    if visibility == Visibility.PRIVATE:
        copies = copies.filter(uploader=game.uploader)
    copy = copies.exclude(pk=game.pk).order_by("pk").first()
    where = "public" if visibility == Visibility.PUBLIC else "among its uploader's private games"
    named = f" (game {copy.pk})" if copy is not None else ""
    return f"the same game is already {where}{named}; delete this copy instead"


def _queue_stats_update(game: Game) -> None:
    # Summaries and ratings count public games only: who sees a game changes them.
    pipeline.statistics().games_changed([game])


def _check_can_manage(user: AbstractBaseUser | AnonymousUser, game: Game) -> None:
    if not user_can_manage_game(user, game):
        raise PermissionDenied("only the game's uploader or staff may change or delete it")
