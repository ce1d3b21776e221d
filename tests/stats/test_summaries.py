"""Player summaries: kept up to date incrementally (each verification, deletion and visibility
change recomputes the game's players) and equal to a full rebuild (``recompute_stats``)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.management import call_command

from engine.formats import canonical
from engine.sim.selfplay import simulate
from mjlogs.game_changes import game_delete, game_visibility_set
from mjlogs.importing import import_file
from mjlogs.models import Game, Player
from stats.models import PlayerSummary, RatingChange
from stats.selectors import player_stats
from tests.people import played_by

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def import_games(committed: Any, count: int, seed: int, uploader: User | None = None) -> list[int]:
    """Self-played games among six named players (four a table, rotating), verified and their
    stats queued as after a real commit."""
    ids = []
    for index, played in enumerate(simulate("tenhou-4p-east", count, seed)):
        document = canonical.game_to_json(played)
        names = [NAMES[(index + seat) % len(NAMES)] for seat in range(4)]
        played_by(document, names)
        document["source"]["id"] = f"summary-test-{seed}-{index}"
        with committed(execute=True):
            (outcome,) = import_file("g.json", json.dumps(document).encode(), uploader=uploader)
        ids.append(outcome.game_id)
    return ids


def games_of(player: Player) -> int:
    summary = PlayerSummary.objects.filter(player=player).first()
    return 0 if summary is None else summary.games


def summaries() -> dict[str, tuple[int, int, dict[str, Any], dict[str, Any]]]:
    return {
        s.player.name: (s.games, s.hands, s.counts, s.metrics)
        for s in PlayerSummary.objects.select_related("player")
    }


def test_incremental_summaries_equal_a_full_rebuild(
    django_capture_on_commit_callbacks: Any,
) -> None:
    import_games(django_capture_on_commit_callbacks, 6, 31)
    incremental = summaries()
    assert set(incremental) == set(NAMES)
    assert sum(games for games, *_ in incremental.values()) == 6 * 4
    PlayerSummary.objects.all().delete()
    call_command("recompute_stats", "--quiet", "--chunk", "2", stdout=io.StringIO())
    assert summaries() == incremental


def test_a_summary_is_what_the_unfiltered_query_gives(
    django_capture_on_commit_callbacks: Any,
) -> None:
    import_games(django_capture_on_commit_callbacks, 3, 32)
    ann = Player.objects.get(name="Ann")
    live = player_stats(AnonymousUser(), ann)
    summary = PlayerSummary.objects.get(player=ann)
    assert summary.counts == live.counts and summary.metrics == live.metrics
    assert summary.games == live.counts["games"] > 0


def test_deleting_and_hiding_games_update_their_players(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice = User.objects.create_user("alice")
    first, second, *_ = import_games(django_capture_on_commit_callbacks, 3, 33, uploader=alice)
    players = list(Player.objects.filter(seats__game_id=first))
    before = {p.pk: PlayerSummary.objects.get(player=p).games for p in players}
    with django_capture_on_commit_callbacks(execute=True):
        game_delete(user=alice, game=Game.objects.get(pk=first))
    after = {p.pk: games_of(p) for p in players}
    assert all(after[pk] == before[pk] - 1 for pk in before)
    assert not PlayerSummary.objects.filter(player__name="Ann").exists()  # her only game
    with django_capture_on_commit_callbacks(execute=True):
        game_visibility_set(user=alice, game=Game.objects.get(pk=second), visibility="private")
    full = summaries()
    PlayerSummary.objects.all().delete()
    call_command("recompute_stats", "--quiet", stdout=io.StringIO())
    assert summaries() == full
    assert sum(games for games, *_ in full.values()) == 1 * 4  # one public game left


def test_recompute_removes_the_summary_of_a_player_without_public_games(
    django_capture_on_commit_callbacks: Any,
) -> None:
    (game_id,) = import_games(django_capture_on_commit_callbacks, 1, 34)
    Game.objects.filter(pk=game_id).update(visibility="private")  # behind the services' back
    out = io.StringIO()
    call_command("recompute_stats", "--quiet", stdout=out)
    assert not PlayerSummary.objects.exists()
    assert "4 players recomputed in 1 tasks, and the ratings" in out.getvalue()
    assert not RatingChange.objects.exists()


def test_a_filtered_leaderboard_is_computed_from_the_chosen_games(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from stats.selectors import StatsFilterError, leaderboard

    import_games(django_capture_on_commit_callbacks, 6, 35)
    kept = [(s.player.pk, s.value, s.games, s.hands) for s in leaderboard("win_rate", 1)]
    # Every game is east-only: the filter chooses them all, and the rows computed from them
    # are the kept summaries' rows, in the same order.
    live = [(r.player.pk, r.value, r.games, r.hands) for r in
            leaderboard("win_rate", 1, {"length": "east"})]  # fmt: skip
    assert len(kept) == len(NAMES)
    assert [row[0] for row in live] == [row[0] for row in kept]
    assert [row[2:] for row in live] == [row[2:] for row in kept]
    assert [row[1] for row in live] == pytest.approx([row[1] for row in kept])
    assert leaderboard("win_rate", 1, {"players": "3"}) == []
    assert leaderboard("win_rate", 1, {"length": "east_south"}) == []
    assert leaderboard("win_rate", 5, {"length": "east"}) == []  # four games each at most
    with pytest.raises(StatsFilterError):
        leaderboard("win_rate", 1, {"length": "forever"})


def test_the_leaderboard_never_shows_a_summary_marked_out_of_date(
    django_capture_on_commit_callbacks: Any, client: Any
) -> None:
    from stats.selectors import leaderboard

    (only,) = import_games(django_capture_on_commit_callbacks, 1, 36)
    (kept,) = import_games(django_capture_on_commit_callbacks, 1, 37)
    listed = {row.player.name for row in leaderboard("win_rate", 1)}
    assert listed == set(NAMES[:4])
    uploader = User.objects.create_user("root", is_staff=True)
    # Made private; its players' catch-up has not run yet (it runs after the commit, which a
    # test's transaction never reaches): their summaries are marked behind.
    game_visibility_set(user=uploader, game=Game.objects.get(pk=only), visibility="private")
    assert PlayerSummary.objects.count() == 4  # still there, still counting the game
    rows = leaderboard("win_rate", 1)
    # The second game's players (the same four, as names rotate per game index) are computed
    # from the rows: one public game each, not the two their summaries still say.
    assert {(row.player.name, row.games) for row in rows} == {(name, 1) for name in NAMES[:4]}
    game_visibility_set(user=uploader, game=Game.objects.get(pk=kept), visibility="private")
    assert leaderboard("win_rate", 1) == []
    page = client.get("/stats/leaderboard/?metric=win_rate&min_games=1").content.decode()
    assert not any(f">{name}</a>" in page for name in NAMES)
    answer = client.get("/api/stats/leaderboard/?metric=win_rate&min_games=1").json()
    assert answer["results"] == []
