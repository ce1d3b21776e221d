"""The summary backlog (stats.catch_up): a change to a game marks its players in its own
transaction, one catch-up recomputes each marked player once however many marks piled up, a
mark made during a recomputation is not lost, and the statistics are read from a summary only
while its player is not marked (and only for what the summary sums up: no filter, public
games)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection, transaction

from mjlogs.models import Game, Player
from stats import catch_up, services
from stats.catch_up import player_summaries_catch_up, player_summaries_update
from stats.models import PlayerSummary, SummaryBacklog
from stats.selectors import player_stats
from tests.api.conftest import client_for
from tests.stats.second_connection import second_connection
from tests.stats.test_summaries import import_games, summaries


def is_marked(player_id: int) -> bool:
    return SummaryBacklog.objects.filter(player_id=player_id).exists()


def marked_count() -> int:
    return SummaryBacklog.objects.count()


def counting_refreshes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every player recomputed, as many times as they are."""
    calls: list[int] = []
    refresh = services.player_summaries_refresh

    def counted(player_ids: Sequence[int]) -> int:
        calls.extend(player_ids)
        return refresh(player_ids)

    monkeypatch.setattr(catch_up, "player_summaries_refresh", counted)
    return calls


@pytest.mark.django_db
def test_a_burst_of_verifications_recomputes_each_player_once(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stats.tasks import catch_up_player_stats

    queued: list[Any] = []
    monkeypatch.setattr(catch_up_player_stats, "delay", lambda *args: queued.append(args))
    import_games(django_capture_on_commit_callbacks, 5, 61)
    # Each verification marked its four players as it committed; the first queued a catch-up,
    # and the others found it still waiting (stats.catch_up).
    assert len(queued) == 1
    assert marked_count() == Player.objects.count() == 6
    assert not PlayerSummary.objects.exists()
    calls = counting_refreshes(monkeypatch)
    # The worker runs the one queued; a second (a redelivery) finds nothing left.
    done = [catch_up_player_stats(), catch_up_player_stats()]
    assert done == [6, 0]
    assert sorted(calls) == sorted(Player.objects.values_list("pk", flat=True))
    assert marked_count() == 0
    caught_up = summaries()
    PlayerSummary.objects.all().delete()
    player_summaries_update(Player.objects.values_list("pk", flat=True))
    assert summaries() == caught_up


@pytest.mark.django_db
def test_a_mark_made_during_a_recomputation_is_left_for_the_next_catch_up(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_games(django_capture_on_commit_callbacks, 1, 62)
    ann = Player.objects.get(name="Ann").pk
    calls: list[int] = []
    refresh = services.player_summaries_refresh

    def marks_during_the_first(player_ids: Sequence[int]) -> int:
        calls.extend(player_ids)
        if len(calls) == 1:  # another verification of hers lands while this one reads
            catch_up.summaries_mark_stale(player_ids)
        return refresh(player_ids)

    monkeypatch.setattr(catch_up, "player_summaries_refresh", marks_during_the_first)
    catch_up.summaries_mark_stale([ann])
    assert player_summaries_catch_up() == 1
    # The pass takes the marks there were when it started, so it ends under a steady stream
    # of verifications; the new mark is the next catch-up's (its change queued it).
    assert is_marked(ann)
    assert player_summaries_catch_up() == 1
    assert calls == [ann, ann]
    assert not is_marked(ann)


@pytest.mark.django_db
def test_a_failed_recomputation_keeps_its_mark_and_the_summary(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_games(django_capture_on_commit_callbacks, 1, 63)
    before = summaries()

    def dies(player_ids: Sequence[int]) -> int:
        PlayerSummary.objects.filter(player_id__in=player_ids).delete()
        raise RuntimeError("worker lost")

    monkeypatch.setattr(catch_up, "player_summaries_refresh", dies)
    ann = Player.objects.get(name="Ann").pk
    catch_up.summaries_mark_stale([ann])
    with pytest.raises(RuntimeError):
        player_summaries_catch_up()
    assert is_marked(ann)  # rolled back with the summary: the retry redoes it
    assert summaries() == before


@pytest.mark.django_db
def test_an_explicit_update_clears_the_marks_of_its_players(
    django_capture_on_commit_callbacks: Any,
) -> None:
    import_games(django_capture_on_commit_callbacks, 2, 64)
    ids = list(Player.objects.values_list("pk", flat=True))
    catch_up.summaries_mark_stale(ids)
    player_summaries_update(ids[:2])
    assert marked_count() == len(ids) - 2


def stats_body(player: Player, user: User | None = None, **params: Any) -> dict[str, Any]:
    response = client_for(user).get(f"/api/players/{player.pk}/stats/", params)
    assert response.status_code == 200, response.content[:500]
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.django_db
def test_the_statistics_read_the_summary_only_while_it_is_current(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice = User.objects.create_user("alice")
    first, *_ = import_games(django_capture_on_commit_callbacks, 4, 65, uploader=alice)
    ann = Player.objects.get(name="Ann")
    computed = stats_body(ann)["counts"]["hands"]
    # Changed behind the services' back, so the answer tells where it was read from.
    PlayerSummary.objects.filter(player=ann).update(counts=PlayerSummary.objects.get(
        player=ann).counts | {"hands": 999})  # fmt: skip
    assert stats_body(ann)["counts"]["hands"] == 999  # the summary
    assert stats_body(ann, ruleset="tenhou-4p-east")["counts"]["hands"] == computed  # filtered
    catch_up.summaries_mark_stale([ann.pk])
    assert stats_body(ann)["counts"]["hands"] == computed  # marked: read from the rows
    catch_up.summary_marks_clear({ann.pk: 1})
    assert stats_body(ann)["counts"]["hands"] == 999
    # Who may see a private game of hers sees other figures than the summary's.
    Game.objects.filter(pk=first).update(visibility="private")  # no stats task: no mark
    assert stats_body(ann, alice)["counts"]["hands"] != 999
    assert stats_body(ann)["counts"]["hands"] == 999


@pytest.mark.django_db
def test_the_summary_holds_every_figure_the_rows_give(
    django_capture_on_commit_callbacks: Any,
) -> None:
    import_games(django_capture_on_commit_callbacks, 6, 66)
    for player in Player.objects.all():
        read = player_stats(AnonymousUser(), player)
        computed = player_stats(AnonymousUser(), player, from_summary=False)
        assert read.summary is not None and computed.summary is None
        assert read.counts == computed.counts and list(read.counts) == list(computed.counts)
        assert read.metrics == computed.metrics
        assert read.yaku == computed.yaku and read.yaku
        assert read.han == computed.han and list(read.han) == list(computed.han)
        assert read.longest_dealer_streak == computed.longest_dealer_streak >= 1
        assert read.stable_dan == computed.stable_dan


@pytest.mark.django_db(transaction=True)
def test_workers_share_the_marks_and_a_change_waits_for_a_held_one(
    django_capture_on_commit_callbacks: Any,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the row locks are PostgreSQL's (DATABASE_URL=postgres://...)")
    import_games(django_capture_on_commit_callbacks, 1, 67)
    ann, ben = sorted(Player.objects.filter(name__in=("Ann", "Ben")).values_list("pk", flat=True))
    catch_up.summaries_mark_stale([ann, ben])
    table = "stats_summarybacklog"
    other = second_connection()
    try:
        # Another worker is recomputing Ann: this catch-up takes Ben and leaves her alone.
        with other.transaction():
            other.execute(f"SELECT 1 FROM {table} WHERE player_id = %s FOR UPDATE", [ann])
            assert player_summaries_catch_up() == 1
            assert is_marked(ann) and not is_marked(ben)
        # A change to Ann's games while a catch-up holds her mark: its mark waits for the
        # recomputation to commit, then lands, so the change is not left out.
        marked = threading.Event()

        def change() -> None:
            upsert = (
                f"INSERT INTO {table} (player_id, version) VALUES (%s, 1) ON CONFLICT "
                f"(player_id) DO UPDATE SET version = {table}.version + 1"
            )
            other.execute(upsert, [ann])
            marked.set()

        with transaction.atomic():
            held = catch_up.summary_marks_hold_if_free([ann])
            assert list(held) == [ann]
            thread = threading.Thread(target=change)
            thread.start()
            time.sleep(0.3)
            assert not marked.is_set()  # waiting for the held mark
            services.player_summaries_refresh([ann])
            assert catch_up.summary_marks_clear(held) == 1
        thread.join(10)
        assert marked.is_set() and is_marked(ann)
    finally:
        other.close()


@pytest.mark.django_db
def test_summaries_recomputed_in_chunks_equal_one_at_a_time(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_games(django_capture_on_commit_callbacks, 5, 68)
    one_at_a_time = summaries()
    PlayerSummary.objects.all().delete()
    ids = list(Player.objects.values_list("pk", flat=True))
    catch_up.summaries_mark_stale(ids)
    monkeypatch.setattr(catch_up, "SUMMARY_CHUNK", 4)
    chunks: list[list[int]] = []
    refresh = services.player_summaries_refresh

    def recorded(player_ids: Sequence[int]) -> int:
        chunks.append(list(player_ids))
        return refresh(player_ids)

    monkeypatch.setattr(catch_up, "player_summaries_refresh", recorded)
    assert player_summaries_catch_up() == len(ids) == 6
    assert chunks == [sorted(ids)[:4], sorted(ids)[4:]]
    assert summaries() == one_at_a_time
    assert marked_count() == 0


class PassTask:
    """A catch-up task as a pass sees it: a name, whether tasks run here, and ``delay`` (here
    run at once, as an idle worker would take it: a helper)."""

    def __init__(self, name: str, eager: bool, run: Any = None) -> None:
        self.name = name
        self.app = SimpleNamespace(conf=SimpleNamespace(task_always_eager=eager))
        self.run = run
        self.sent = 0

    def delay(self) -> None:
        self.sent += 1
        if self.run is not None:
            self.run()


@pytest.mark.django_db
@pytest.mark.parametrize("eager", [False, True])
def test_a_pass_of_many_chunks_queues_helpers_that_take_chunks_of_it(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch, eager: bool
) -> None:
    import_games(django_capture_on_commit_callbacks, 5, 70)
    ids = sorted(Player.objects.values_list("pk", flat=True))
    assert len(ids) == 6
    PlayerSummary.objects.all().delete()
    catch_up.summaries_mark_stale(ids)
    monkeypatch.setattr(catch_up, "SUMMARY_CHUNK", 2)
    recomputed = counting_refreshes(monkeypatch)
    # The helper runs as soon as it is queued, before the pass's own first chunk: it takes
    # every chunk, and the pass finds them done.
    helper = PassTask("helper", eager, run=catch_up.player_summaries_catch_up)
    task = PassTask("stats.tasks.example_summaries", eager)
    done = catch_up.player_summaries_pass(task, helper)  # type: ignore[arg-type]
    assert helper.sent == (0 if eager else 2)  # three chunks: two helpers
    assert sorted(recomputed) == ids  # each player once, by whoever took the chunk
    assert done == (6 if eager else 0) and marked_count() == 0
    assert PlayerSummary.objects.count() == 6


@pytest.mark.django_db
@pytest.mark.parametrize("chunk", [4, 6])
def test_a_pass_of_a_chunk_or_more_first_brings_the_planner_statistics_up(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """Many players behind at once (a bulk import): the tables their summaries are read from
    may have grown past what the planner knows (config.planner); fewer: not worth a look."""
    import_games(django_capture_on_commit_callbacks, 1, 72)
    catch_up.summaries_mark_stale(Player.objects.values_list("pk", flat=True))  # four
    monkeypatch.setattr(catch_up, "SUMMARY_CHUNK", chunk)
    looked: list[list[str]] = []
    monkeypatch.setattr(catch_up, "analyze_if_stale", lambda tables: looked.append(tables))
    task = PassTask("stats.tasks.example_summaries", False)
    assert catch_up.player_summaries_pass(task, PassTask("helper", False)) == 4  # type: ignore[arg-type]
    expected = [["stats_roundfact", "mjlogs_gameseat", "mjlogs_game", "replay_verification"]]
    assert looked == (expected if chunk == 4 else [])


@pytest.mark.django_db
def test_a_pass_of_one_chunk_queues_no_helper(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_games(django_capture_on_commit_callbacks, 1, 71)
    catch_up.summaries_mark_stale(Player.objects.values_list("pk", flat=True))
    monkeypatch.setattr(catch_up, "SUMMARY_CHUNK", 4)
    helper = PassTask("helper", False)
    task = PassTask("stats.tasks.example_summaries", False)
    assert catch_up.player_summaries_pass(task, helper) == 4  # type: ignore[arg-type]
    assert helper.sent == 0


@pytest.mark.django_db
def test_a_player_without_public_games_loses_the_summary_in_a_chunk(
    django_capture_on_commit_callbacks: Any,
) -> None:
    first, *_ = import_games(django_capture_on_commit_callbacks, 1, 69)
    seated = list(Player.objects.values_list("pk", flat=True))
    Game.objects.filter(pk=first).update(visibility="private")  # behind the services' back
    assert services.player_summaries_refresh(seated) == 0
    assert not PlayerSummary.objects.exists()
