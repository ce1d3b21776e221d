"""The study aids in the statistics (docs/stats.md, "Tile acceptance"): after a verification the
study catch-up counts each player's discard decisions per hand into the fact rows, as the engine
counts them; ``best_acceptance_rate`` is the rows' decisions that kept the most acceptance over
their decisions, on the page and in the API; rows not yet counted are left out."""

from __future__ import annotations

import importlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django.test import Client

from engine.formats import canonical
from engine.study import riichi_study
from mjlogs.importing import Status, import_file
from mjlogs.models import Game, GameSeat, Player
from replay.services import game_verify
from stats import catch_up, services
from stats.models import PlayerSummary, RoundFact, SummaryBacklog
from stats.selectors import study_pending_games
from stats.services import STUDY_COLUMNS
from tests.engine.corpus import corpus_dir

pytestmark = pytest.mark.django_db

HANCHAN_4P = "mjlog_xml/mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.mjlog"


def imported(path: str = HANCHAN_4P) -> Game:
    data = (corpus_dir() / path).read_bytes()
    (outcome,) = import_file(Path(path).name, data)
    assert outcome.status is Status.IMPORTED, outcome
    game = Game.objects.get(pk=outcome.game_id)
    game_verify(game.pk)
    return game


def rows_of(game: Game) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    rows = RoundFact.objects.filter(game=game)
    return {
        (index, seat): (decisions, best)
        for index, seat, decisions, best in rows.values_list(
            "round_index", "seat", "decisions", "best_discards"
        )
    }


def stats_of(client: Client, player_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/players/{player_id}/stats/")
    assert answer.status_code == 200, answer.content
    body: dict[str, Any] = answer.json()
    return body


def metric(body: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [entry for entry in body["metrics"] if entry["name"] == name]
    return found


@pytest.mark.corpus
def test_the_catch_up_counts_what_the_engine_counts() -> None:
    game = imported()
    # Verified, with its rows waiting for the study aids (the replay does not count them).
    assert set(rows_of(game).values()) == {(None, None)}
    assert study_pending_games(10) == [game.pk]
    SummaryBacklog.objects.all().delete()
    counted, left = catch_up.study_catch_up()
    assert (counted, left) == (1, False)
    assert study_pending_games(10) == []
    engine_game = canonical.game_from_json(game.document)
    expected = {(t.round, t.seat): (t.decisions, t.kept) for t in riichi_study(engine_game)}
    assert rows_of(game) == expected
    assert sum(decisions for decisions, _ in expected.values()) > 200
    # Its players' summaries are behind: the figure changed.
    seated = set(GameSeat.objects.filter(game=game).values_list("player_id", flat=True))
    assert set(SummaryBacklog.objects.values_list("player_id", flat=True)) == seated


@pytest.mark.corpus
def test_the_figure_is_the_rows_count(client: Client) -> None:
    game = imported()
    catch_up.study_catch_up()
    seat = GameSeat.objects.get(game=game, seat=0)
    rows = RoundFact.objects.filter(game=game, player_id=seat.player_id).order_by("round_index")
    # Set the rows by hand: hand 0 10 decisions, 7 kept; hand 1 5 decisions, 1 kept; hand 2 not
    # counted yet (null: left out); the rest none. Kept the most: (7 + 1) / (10 + 5) = 8 / 15.
    values = [(10, 7), (5, 1), (None, None)]
    for index, row in enumerate(rows):
        row.decisions, row.best_discards = values[index] if index < len(values) else (0, 0)
        row.save(update_fields=["decisions", "best_discards"])
    catch_up.summaries_mark_stale([seat.player_id])  # the summary no longer holds
    body = stats_of(client, seat.player_id)
    assert body["counts"]["decisions"] == 15
    assert body["counts"]["best_discards"] == 8
    figure = metric(body, "best_acceptance_rate")
    assert figure["value"] == pytest.approx(8 / 15)
    assert figure["n"] == 15
    assert figure["denominator"] == "decisions"
    assert figure["label"] == "Kept the most acceptance"
    assert not figure["lower_is_better"]
    # The summary, once recomputed, says the same; so does the page.
    catch_up.player_summaries_update([seat.player_id])
    assert metric(stats_of(client, seat.player_id), "best_acceptance_rate")["value"] == (
        pytest.approx(8 / 15)
    )
    page = client.get(f"/stats/players/{seat.player_id}/")
    assert page.status_code == 200
    assert "53.3%" in page.content.decode()  # 8 / 15


@pytest.mark.corpus
def test_a_verification_queues_the_study_and_the_command_counts_the_rest(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = imported()
    # The catch-up ran after the verification committed (Celery eager): counted.
    assert None not in {decisions for decisions, _ in rows_of(game).values()}
    counted = dict(rows_of(game))
    RoundFact.objects.filter(game=game).update(decisions=None, best_discards=None)
    call_command("study_games", "--quiet", stdout=io.StringIO())
    assert rows_of(game) == counted


def test_an_uzje_game_counts_no_decisions() -> None:
    from engine.variants.uzje.selfplay import simulate

    (match,) = simulate(1, 301, "uzje-4p")
    document = canonical.game_to_json(match)
    (outcome,) = import_file("uzje.json", json.dumps(document).encode())
    game = Game.objects.get(pk=outcome.game_id)
    game_verify(game.pk)
    assert RoundFact.objects.filter(game=game).exists()
    catch_up.study_catch_up()
    assert set(rows_of(game).values()) == {(0, 0)}


@pytest.mark.corpus
def test_a_pass_that_dies_after_a_game_leaves_that_games_players_marked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The marks commit with the counts: a pass that dies (or is looked at) after a game's
    counts were stored never shows counts that no summary is marked to take in."""
    first = imported()
    second = imported("mjlog_xml/mjx-project__mjx/2010102910gm-00a9-0000-cdb9804c.mjlog")
    SummaryBacklog.objects.all().delete()
    store = catch_up.game_study_store

    def dies_at_the_second(game_id: int, **kwargs: Any) -> int:
        if game_id == second.pk:
            raise RuntimeError("the worker died")
        return store(game_id, **kwargs)

    monkeypatch.setattr(catch_up, "game_study_store", dies_at_the_second)
    with pytest.raises(RuntimeError):
        catch_up.study_catch_up()
    assert study_pending_games(10) == [second.pk]  # the first one's counts are stored
    seated = set(GameSeat.objects.filter(game=first).values_list("player_id", flat=True))
    assert set(SummaryBacklog.objects.values_list("player_id", flat=True)) == seated


#: A hanchan with two deal-ins pushing a hand at two or more shanten against a riichi.
PUSHES = "mjlog_xml/mjx-project__mjx/2010122717gm-00a9-0000-8e787e61.mjlog"
DEFENCE = ("riichi_decisions", "genbutsu_discards", "push_deal_ins")


def defence_of(game: Game) -> dict[tuple[int, int], tuple[int | None, ...]]:
    rows = RoundFact.objects.filter(game=game).values_list("round_index", "seat", *DEFENCE)
    return {(index, seat): tuple(values) for index, seat, *values in rows}


@pytest.mark.corpus
def test_the_catch_up_counts_the_defence_the_engine_counts() -> None:
    """docs/stats.md, "Value and defence": the decisions facing a riichi, the genbutsu among
    them and the deal-ins of a push, per player and hand, as the engine counts them."""
    game = imported(PUSHES)
    assert set(defence_of(game).values()) == {(None, None, None)}
    catch_up.study_catch_up()
    tallies = riichi_study(canonical.game_from_json(game.document))
    assert defence_of(game) == {
        (t.round, t.seat): (t.riichi_decisions, t.genbutsu, int(t.push_deal_in)) for t in tallies
    }
    pushed = RoundFact.objects.filter(game=game, push_deal_ins=1)
    assert sorted(pushed.values_list("round_index", "seat")) == [(0, 1), (10, 1)]
    # A push deal-in is a deal-in of the replay's facts too.
    assert all(pushed.values_list("dealt_in", flat=True))
    # ``study_games --all`` counts every column again.
    counted = defence_of(game)
    call_command("study_games", "--all", "--quiet", stdout=io.StringIO())
    assert defence_of(game) == counted


@pytest.mark.corpus
def test_the_defence_figures_are_the_rows_counts(client: Client) -> None:
    game = imported(PUSHES)
    catch_up.study_catch_up()
    seat = GameSeat.objects.get(game=game, seat=1)
    rows = RoundFact.objects.filter(game=game, player_id=seat.player_id).order_by("round_index")
    # Hand 0: 6 decisions facing a riichi, 2 genbutsu, a push deal-in; hand 1: 4, 3, none;
    # hand 2 not counted (null: left out); the rest faced no riichi. Genbutsu: 5 / 10; pushes:
    # 1 of the 2 hands that faced a riichi.
    values = [(6, 2, 1), (4, 3, 0), (None, None, None)]
    for index, row in enumerate(rows):
        found = values[index] if index < len(values) else (0, 0, 0)
        row.riichi_decisions, row.genbutsu_discards, row.push_deal_ins = found
        row.save(update_fields=list(DEFENCE))
    catch_up.summaries_mark_stale([seat.player_id])
    body = stats_of(client, seat.player_id)
    assert body["counts"]["decisions_facing_riichi"] == 10
    assert body["counts"]["genbutsu_discards"] == 5
    assert body["counts"]["riichi_faced_hands"] == 2
    assert body["counts"]["push_deal_ins"] == 1
    genbutsu = metric(body, "genbutsu_rate")
    assert (genbutsu["value"], genbutsu["n"]) == (pytest.approx(0.5), 10)
    assert genbutsu["denominator"] == "decisions_facing_riichi"
    assert not genbutsu["lower_is_better"]
    pushes = metric(body, "push_deal_in_rate")
    assert (pushes["value"], pushes["n"]) == (pytest.approx(0.5), 2)
    assert pushes["denominator"] == "riichi_faced_hands"
    assert pushes["lower_is_better"]
    assert pushes["label"] == "Deal-in pushing at 2+ shanten"
    # The summary, once recomputed, says the same; the page shows both, in both languages.
    catch_up.player_summaries_update([seat.player_id])
    assert metric(stats_of(client, seat.player_id), "push_deal_in_rate")["value"] == (
        pytest.approx(0.5)
    )
    page = client.get(f"/stats/players/{seat.player_id}/").content.decode()
    assert "Genbutsu against riichi" in page and "Deal-in pushing at 2+ shanten" in page
    assert "hands facing a riichi" in page
    page = client.get(
        f"/stats/players/{seat.player_id}/", HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "立直への現物率" in page and "2向聴以上の押し放銃率" in page


def test_the_migration_returns_counted_games_to_the_catch_up() -> None:
    """stats 0011: the games counted before the defence columns are counted again, and the
    summaries kept before are marked behind."""
    recount = importlib.import_module("stats.migrations.0011_study_defence").recount
    game = Game.objects.create(
        ruleset="tenhou-4p", players_count=4, rounds_count=1, complete=True,
        source_format="canonical", source_id="x", content_hash="x", document={}, raw=b"",
        raw_size=0,
    )  # fmt: skip
    player = Player.objects.create(name="P")
    PlayerSummary.objects.create(player=player, games=1, hands=1, counts={}, metrics={})
    fact: dict[str, Any] = {
        "game": game, "player": player, "round_index": 0, "round_name": "E1", "dealer": True,
        "turns": 1, "outcome": "win", "won": False, "tsumo": False, "dealt_in": False,
        "win_points": 0, "deal_in_points": 0, "han": 0, "fu": 0, "ura": 0, "ippatsu": False,
        "win_turn": 0, "riichi": False, "riichi_turn": 0, "riichi_chasing": False,
        "riichi_wait_kinds": 0, "calls": 0, "open_hand": False, "delta": 0,
        "score_after": 25000,
    }  # fmt: skip
    RoundFact.objects.create(seat=0, decisions=10, best_discards=7, **fact)
    RoundFact.objects.create(seat=1, decisions=0, best_discards=0, **fact)
    SummaryBacklog.objects.all().delete()
    assert study_pending_games(10) == []
    recount(django_apps, None)
    assert study_pending_games(10) == [game.pk]
    assert set(RoundFact.objects.values_list("decisions", "best_discards")) == {(None, None)}
    assert list(SummaryBacklog.objects.values_list("player_id", flat=True)) == [player.pk]


def study_rows_of(game: Game) -> dict[tuple[int, int], tuple[Any, ...]]:
    rows = RoundFact.objects.filter(game=game)
    return {
        (index, seat): tuple(values)
        for index, seat, *values in rows.values_list("round_index", "seat", *STUDY_COLUMNS)
    }


def test_a_worker_counts_the_study_in_the_verification_as_the_catch_up_does(
    settings: Any,
) -> None:
    """On a worker (a broker set), the verification counts each hand's study aids with its
    facts, in one pass: the same counts the study catch-up stores, and nothing left for it."""
    game = imported()
    catch_up.study_catch_up()
    by_catch_up = study_rows_of(game)
    assert any(values[0] for values in by_catch_up.values())  # decisions were counted

    settings.CELERY_TASK_ALWAYS_EAGER = False  # a worker's verification
    game_verify(game.pk)
    assert study_rows_of(game) == by_catch_up
    assert study_pending_games(10) == []

    settings.CELERY_TASK_ALWAYS_EAGER = True  # in-process: left to the catch-up
    game_verify(game.pk)
    assert set(study_rows_of(game).values()) == {(None,) * len(STUDY_COLUMNS)}
    assert study_pending_games(10) == [game.pk]


@pytest.mark.corpus
def test_the_command_counts_in_worker_processes_as_in_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``study_games --jobs 2``: forked processes work out the counts, this one stores them;
    the same counts as in one process, for every game."""
    games = [imported(path) for path in sorted(corpus_paths())[:3]]
    call_command("study_games", "--quiet", "--jobs", "1", stdout=io.StringIO())
    alone = {game.pk: study_rows_of(game) for game in games}
    assert all(None not in values for rows in alone.values() for values in rows.values())
    assert any(values[0] for rows in alone.values() for values in rows.values())
    out = io.StringIO()

    def not_here(game_id: int) -> None:
        raise AssertionError(f"game {game_id} was studied in the storing process")

    monkeypatch.setattr(services, "study_document", not_here)
    call_command("study_games", "--all", "--quiet", "--jobs", "2", stdout=out)
    assert {game.pk: study_rows_of(game) for game in games} == alone
    assert out.getvalue().startswith("3 games' study aids counted")


def corpus_paths() -> list[str]:
    folder = corpus_dir() / "mjlog_xml" / "mjx-project__mjx"
    return [str(path.relative_to(corpus_dir())) for path in folder.glob("*.mjlog")]
