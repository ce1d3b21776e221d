"""One game is one game (issue 39, mjlogs.copies): records of one play are copies of one game,
stored when they say more or otherwise, counted once, the richer record (real names over hidden
ones) or the one the rules agree with counting; a tampered copy uploaded first does not keep the
genuine record out (issue 40, item 4)."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.test import Client

from engine.formats import canonical, get_format
from mjlogs import selectors
from mjlogs.archives import UploadedFile
from mjlogs.copies import copies_regroup
from mjlogs.game_changes import game_delete, game_visibility_set
from mjlogs.importing import Status, import_file, import_files
from mjlogs.models import Game, LinkImport, LinkImportStatus, Player, PlayerKind, Visibility
from stats.catch_up import player_summaries_update
from stats.models import RoundFact
from stats.selectors import counted_games, leaderboard, player_stats
from tests.engine.corpus import corpus_dir
from tests.mjlogs.conftest import Users
from tests.mjlogs.pages import EAST_4P, engine_game

pytestmark = pytest.mark.django_db

HIDDEN = ("Aさん", "Bさん", "Cさん", "Dさん")
NAMES = ("Ann", "Ben", "Cat", "Dan")
#: One real Tenhou game of the corpus, as mjlog (real names) and as mjx's tenhou.net/6 export.
LOG_ID = "2020081220gm-00a9-0000-9ee6ab3b"


def document(game: Any) -> dict[str, Any]:
    return canonical.game_to_json(game)


def upload(
    data: dict[str, Any] | bytes, name: str = "game.json", on_commit: Any = None, **kwargs: Any
) -> Any:
    """Import one file, running what it queues after commit (the verification)."""
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    if on_commit is None:
        (outcome,) = import_file(name, raw, **kwargs)
        return outcome
    with on_commit(execute=True):
        (outcome,) = import_file(name, raw, **kwargs)
    return outcome


def counted(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id, copy_of__isnull=True).exists()


def public_listed() -> set[int]:
    return set(selectors.games_listed(AnonymousUser()).values_list("pk", flat=True))


def tenhou6(seed: int, names: tuple[str, ...], *, final: bool = True) -> bytes:
    """A self-played game as a tenhou.net/6 file, Tenhou's names (``final=False``: without its
    final scores)."""
    game = engine_game(EAST_4P, seed, names=names)
    if not final:
        game = dataclasses.replace(game, recorded_final=None)
    writer = get_format("tenhou6").write
    assert writer is not None
    return writer([game])


def test_a_record_that_adds_nothing_is_a_duplicate_one_that_adds_is_a_copy(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Hidden names first, real names next: the real names are stored too, and count; the
    hidden-names record stays, as a copy of it. Again in the other order: a duplicate."""
    run = django_capture_on_commit_callbacks
    hidden = upload(tenhou6(1, HIDDEN), "hidden.json", run)
    named = upload(tenhou6(1, NAMES), "named.json", run)
    assert (hidden.status, named.status) == (Status.IMPORTED, Status.IMPORTED)
    assert counted(named.game_id) and not counted(hidden.game_id)
    assert Game.objects.get(pk=hidden.game_id).copy_of_id == named.game_id
    # Hidden names are no claim to contradict: no conflict either way.
    assert Game.objects.get(pk=hidden.game_id).copy_conflicts == []
    assert Game.objects.get(pk=named.game_id).copy_conflicts == []
    assert public_listed() == {named.game_id}
    again = upload(tenhou6(1, HIDDEN), "again.json", run)
    assert (again.status, again.game_id) == (Status.DUPLICATE, hidden.game_id)
    less = upload(tenhou6(1, NAMES, final=False), "less.json", run)  # says less
    assert (less.status, less.game_id) == (Status.DUPLICATE, named.game_id)
    # Statistics: once, under the real names.
    public = counted_games(Game.objects.filter(visibility=Visibility.PUBLIC))
    assert list(public.values_list("pk", flat=True)) == [named.game_id]
    ann = Player.objects.get(name="Ann")
    assert player_stats(AnonymousUser(), ann, from_summary=False).games.count() == 1
    hidden_players = Player.objects.filter(name__in=HIDDEN)
    assert set(hidden_players.values_list("kind", flat=True)) == {PlayerKind.ANONYMOUS}


def test_the_copy_the_rules_agree_with_counts_and_a_conflict_is_marked(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A copy with altered final scores uploaded first is stored and verified (the rules
    disagree); the genuine record, uploaded next, is not its duplicate: stored, it counts, and
    both are marked with what they claim otherwise."""
    run = django_capture_on_commit_callbacks
    genuine = document(engine_game(EAST_4P, 2, names=NAMES))
    tampered = copy.deepcopy(genuine)
    tampered["final"]["scores"][0] += 8000
    tampered["final"]["scores"][1] -= 8000
    first = upload(tampered, "tampered.json", run)
    assert counted(first.game_id)
    second = upload(genuine, "genuine.json", run)
    assert second.status is Status.IMPORTED
    assert counted(second.game_id) and not counted(first.game_id)
    stored = Game.objects.get(pk=first.game_id)
    assert stored.copy_of_id == second.game_id
    assert stored.copy_conflicts == ["final scores"]
    assert Game.objects.get(pk=second.game_id).copy_conflicts == ["final scores"]
    assert stored.verification.verdict == "score_mismatch"
    assert public_listed() == {second.game_id}
    facts = RoundFact.objects.filter(game__in=counted_games(Game.objects.all()))
    assert set(facts.values_list("game_id", flat=True)) == {second.game_id}


def test_one_counted_copy_among_copies_stored_together() -> None:
    """Two records of one play in one import: one counts from the start (no verdict yet: the
    real names), the other names it."""
    files = [tenhou6(3, HIDDEN), tenhou6(3, NAMES)]
    summary = import_files([UploadedFile(f"{n}.json", data) for n, data in enumerate(files)])
    assert summary.counts["imported"] == 2
    hidden, named = (outcome.game_id for outcome in summary.outcomes)
    assert counted(named) and Game.objects.get(pk=hidden).copy_of_id == named


def test_deleting_or_hiding_the_counted_copy_makes_another_count(
    users: Users, django_capture_on_commit_callbacks: Any
) -> None:
    run = django_capture_on_commit_callbacks
    # The record without its final scores first, stored; the whole one adds them: both stored.
    hidden = upload(tenhou6(4, HIDDEN, final=False), "h.json", run, uploader=users.bob)
    named = upload(tenhou6(4, NAMES), "n.json", run, uploader=users.alice)
    assert counted(named.game_id) and not counted(hidden.game_id)
    # Made private, the counted copy leaves the public games: the other counts there, and
    # the private one counts under it for its uploader (a private copy of a public game).
    with run(execute=True):
        game_visibility_set(
            user=users.alice, game=Game.objects.get(pk=named.game_id), visibility="private"
        )
    assert counted(hidden.game_id)
    assert Game.objects.get(pk=named.game_id).copy_of_id == hidden.game_id
    with run(execute=True):
        game_visibility_set(
            user=users.alice, game=Game.objects.get(pk=named.game_id), visibility="public"
        )
    assert counted(named.game_id) and not counted(hidden.game_id)
    with run(execute=True):
        game_delete(user=users.alice, game=Game.objects.get(pk=named.game_id))
    assert counted(hidden.game_id) and public_listed() == {hidden.game_id}


def test_the_record_fetched_from_tenhou_counts_over_an_upload_that_also_verifies(
    users: Users, django_capture_on_commit_callbacks: Any
) -> None:
    """A copy with altered ranks verifies (the rules say nothing of ranks): uploaded first, it
    counts, marked as disagreeing; once the record is brought from Tenhou's log server by its
    link, that record counts (mjlogs.link_imports)."""
    run = django_capture_on_commit_callbacks
    genuine = document(engine_game(EAST_4P, 5, names=NAMES))
    for player in genuine["players"]:
        player["rank"] = "七段"
    tampered = copy.deepcopy(genuine)
    tampered["players"][0]["rank"] = "天鳳"
    first = upload(tampered, "t.json", run, uploader=users.bob)
    second = upload(genuine, "g.json", run, uploader=users.alice)
    assert second.status is Status.IMPORTED
    assert counted(first.game_id) and not counted(second.game_id)
    assert Game.objects.get(pk=second.game_id).copy_conflicts == ["ranks"]
    assert Game.objects.get(pk=first.game_id).copy_conflicts == ["ranks"]
    LinkImport.objects.create(
        link="x", log_id="x", status=LinkImportStatus.IMPORTED, game_id=second.game_id
    )
    with run(execute=True):
        copies_regroup([Game.objects.get(pk=second.game_id).play_hash])
    assert counted(second.game_id) and not counted(first.game_id)


def test_a_private_copy_of_a_public_game_counts_under_it(
    users: Users, client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    run = django_capture_on_commit_callbacks
    public = upload(document(engine_game(EAST_4P, 6, names=NAMES)), "p.json", run)
    private = upload(
        document(engine_game(EAST_4P, 6, names=("Ann", "Ben", "Cat", "Eve"))),
        "mine.json",
        run,
        uploader=users.alice,
        visibility=Visibility.PRIVATE,
    )
    assert private.status is Status.IMPORTED
    assert Game.objects.get(pk=private.game_id).copy_of_id == public.game_id
    assert Game.objects.get(pk=private.game_id).copy_conflicts == ["names"]
    # The public game never shows what a private copy claims.
    assert Game.objects.get(pk=public.game_id).copy_conflicts == []
    mine = set(selectors.games_listed(users.alice).values_list("pk", flat=True))
    assert mine == {public.game_id}
    copies = selectors.game_copies(users.alice, Game.objects.get(pk=public.game_id))
    assert [game.pk for game in copies] == [private.game_id]
    assert selectors.game_copies(AnonymousUser(), Game.objects.get(pk=public.game_id)) == []
    client.force_login(users.alice)
    detail = client.get(f"/api/games/{private.game_id}/").json()
    assert detail["copy_of"] == public.game_id and detail["copy_conflicts"] == ["names"]
    shown = client.get(f"/api/games/{public.game_id}/").json()
    assert shown["copy_of"] is None and shown["copies"] == [private.game_id]
    assert Client().get(f"/api/games/{public.game_id}/").json()["copies"] == []


@pytest.mark.corpus
@pytest.mark.django_db(transaction=True)  # commits: the verifications run after them
def test_the_corpus_imported_twice_in_both_formats_gives_each_game_once() -> None:
    """The corpus's Tenhou games as tenhou.net/6 with the names hidden first (the worst order:
    the poorer record stored first), then the whole corpus, twice: each game once among the
    games that count, under its real names, and the statistics count it once."""
    corpus = corpus_dir()
    call_command("import_logs", str(corpus / "tenhou6_json"), "--quiet", stdout=io.StringIO())
    after_exports = Game.objects.count()
    call_command("import_logs", str(corpus), "--quiet", stdout=io.StringIO())
    stored = Game.objects.count()
    call_command("import_logs", str(corpus), "--quiet", stdout=io.StringIO())
    assert Game.objects.count() == stored > after_exports  # the second import adds nothing
    plays = Counter(Game.objects.filter(copy_of__isnull=True).values_list("play_hash", flat=True))
    assert plays and set(plays.values()) == {1}
    assert len(plays) == len(set(Game.objects.values_list("play_hash", flat=True)))
    # The example of issue 39: its mjlog counts, its tenhou.net/6 export is its copy.
    (mjlog,) = Game.objects.filter(source_id=LOG_ID, source_format="mjlog")
    (export,) = Game.objects.filter(source_id=LOG_ID, source_format="tenhou6")
    assert mjlog.copy_of_id is None and export.copy_of_id == mjlog.pk
    assert export.copy_conflicts == []
    assert "心滅獣身" in {seat.player.name for seat in mjlog.seats.all()}
    # mjx's 31 exports are copies of their mjlogs, each counted once.
    exports = Game.objects.filter(raw_name__contains="tenhou6_json/mjx-project__mjx")
    copies = exports.exclude(copy_of=None)
    assert copies.count() == 31
    assert set(copies.values_list("copy_of__source_format", flat=True)) == {"mjlog"}
    # The statistics: each counted game once; a player of one game has one game.
    public = counted_games(Game.objects.filter(visibility=Visibility.PUBLIC))
    assert public.count() == len(set(public.values_list("play_hash", flat=True)))
    assert not public.filter(pk__in=copies.values("pk")).exists()
    player = mjlog.seats.get(seat=0).player
    games_of_player = Counter(
        RoundFact.objects.filter(player=player, game__in=public).values_list("game_id", flat=True)
    )
    assert len(games_of_player) == Game.objects.filter(seats__player=player, copy_of=None).count()
    stats = player_stats(AnonymousUser(), player, from_summary=False)
    assert stats.games.count() == len(games_of_player) == 1
    # Tenhou's hidden names are guests: none ranked, none listed.
    hidden = Player.objects.filter(name__in=HIDDEN, platform="tenhou")
    assert hidden.exists() and set(hidden.values_list("kind", flat=True)) == {"anonymous"}
    player_summaries_update(Player.objects.values_list("pk", flat=True))
    ranked = {row.player.name for row in leaderboard("average_placement", 0)}
    assert ranked and not ranked & set(HIDDEN)


def test_someone_s_private_copy_counts_under_a_public_copy_uploaded_later(
    users: Users, django_capture_on_commit_callbacks: Any
) -> None:
    """Bob never sees alice's private copy, nor is told of it; but once the game is public,
    her copy counts under the public one (she sees that one), not beside it."""
    run = django_capture_on_commit_callbacks
    private = upload(
        tenhou6(8, NAMES, final=False),
        "mine.json",
        run,
        uploader=users.alice,
        visibility=Visibility.PRIVATE,
    )
    public = upload(tenhou6(8, NAMES), "public.json", run, uploader=users.bob)
    assert public.status is Status.IMPORTED and public.game_id != private.game_id
    assert Game.objects.get(pk=private.game_id).copy_of_id == public.game_id
    assert set(selectors.games_listed(users.alice).values_list("pk", flat=True)) == {public.game_id}
    assert selectors.game_copies(users.bob, Game.objects.get(pk=public.game_id)) == []
