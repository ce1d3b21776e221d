"""A frames request costs one round (issue 20, finding 4).

The frames API (``/api/games/<id>/rounds/<n>/frames/`` and ``.../frames/<step>/``) used to read
the whole stored document and replay every round of the game for the round selector, on every
request: one upload of a long record (a round repeated thousands of times) made each request to
it a replay of the whole game. What a request needs besides its round (the round list, the
document's header, the first dealer) is now kept when the game is verified
(``Verification.frames_index``), and a request reads and replays only the round it asks for.
These tests count the rounds the engine starts (``GameState.start_round``) during a request.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from engine.events import Round
from engine.formats import canonical, read_games
from engine.frames import round_frames, round_list
from engine.state import GameState
from mjlogs.importing import Status, import_file
from mjlogs.models import Game
from replay.models import Verification
from tests.api.conftest import self_played_document
from tests.engine.corpus import corpus_dir

pytestmark = pytest.mark.django_db

#: A real Tenhou hanchan of 15 hands (corpus), the seed of the long game.
REAL_GAME = "mjlog_xml/mjx-project__mjx/2016081523gm-00a9-0000-122c42dc.mjlog"
#: Hands of the long game: the real game's hands repeated.
LONG_GAME_ROUNDS = 200


def store(document: dict[str, Any], capture: Any, name: str = "game.json") -> Game:
    """Import a canonical document and verify it, as after a real commit."""
    with capture(execute=True):
        (outcome,) = import_file(name, json.dumps(document).encode(), uploader=None)
    assert outcome.status is Status.IMPORTED, outcome.error
    return Game.objects.get(pk=outcome.game_id)


@pytest.fixture
def started_rounds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Round]]:
    """Every round the engine starts from a deal while the test runs (a replay, the frames, the
    round list), in order."""
    started: list[Round] = []
    original: Callable[[GameState, Round], Any] = GameState.start_round

    def spy(self: GameState, round_: Round) -> Any:
        started.append(round_)
        return original(self, round_)

    monkeypatch.setattr(GameState, "start_round", spy)
    yield started


@pytest.fixture
def game(django_capture_on_commit_callbacks: Any) -> Game:
    """A self-played East-only game of several hands, verified."""
    document = self_played_document(11, ("Ann", "Ben", "Cat", "Dan"))
    assert len(document["rounds"]) >= 4
    return store(document, django_capture_on_commit_callbacks)


def frames_url(game: Game, round_index: int, step: int | None = None) -> str:
    url = f"/api/games/{game.pk}/rounds/{round_index}/frames/"
    return url if step is None else f"{url}{step}/"


def hands_of(rounds: list[Round]) -> list[tuple[int, int, int]]:
    return [(round_.wind, round_.number, round_.honba) for round_ in rounds]


def test_the_round_list_is_kept_with_the_verdict(game: Game) -> None:
    record = canonical.game_from_json(game.document)
    kept = Verification.objects.get(game=game).frames_index
    assert kept is not None
    assert kept["rounds"] == [info.to_json() for info in round_list(record)]
    assert kept["first_dealer"] == record.rounds[0].dealer
    assert "rounds" not in kept["header"]


@pytest.mark.parametrize("one_frame", [False, True], ids=["frames", "frame"])
def test_a_frames_request_replays_only_the_round_asked_for(
    game: Game, started_rounds: list[Round], one_frame: bool
) -> None:
    record = canonical.game_from_json(game.document)
    last = len(record.rounds) - 1
    client = Client()
    for index in (last, 1, 0):
        started_rounds.clear()
        response = client.get(frames_url(game, index, 0 if one_frame else None))
        assert response.status_code == 200
        assert hands_of(started_rounds) == hands_of([record.rounds[index]]), (
            f"a request for round {index} started {len(started_rounds)} rounds"
        )


def test_the_answers_are_those_of_the_whole_game(game: Game) -> None:
    """Read from the stored round list and the asked round alone, the answers are what the
    engine says of the whole record: every round's frames, and the round list."""
    record = canonical.game_from_json(game.document)
    expected_rounds = [info.to_json() for info in round_list(record)]
    client = Client()
    for index in range(len(record.rounds)):
        body = client.get(frames_url(game, index)).json()
        assert body["rounds"] == expected_rounds
        assert body["round"] == index
        assert body["frames"] == round_frames(record, index).to_json()["frames"]
        one = client.get(frames_url(game, index, 1)).json()
        assert one == {
            "game": game.pk,
            "players": body["players"],
            "round": index,
            **body["frames"][1],
        }


def test_a_game_verified_before_the_list_was_stored_is_listed_once(
    game: Game, started_rounds: list[Round]
) -> None:
    """A verification without a stored round list (made before it was kept, or by an older
    engine) is answered all the same: the list is computed once and cached, and the next
    request replays one round."""
    Verification.objects.filter(game=game).update(frames_index=None)
    cache.clear()
    record = canonical.game_from_json(game.document)
    client = Client()
    first = client.get(frames_url(game, 2))
    assert first.status_code == 200
    assert first.json()["rounds"] == [info.to_json() for info in round_list(record)]
    started_rounds.clear()
    second = client.get(frames_url(game, 3))
    assert second.status_code == 200
    assert second.json()["rounds"] == first.json()["rounds"]
    assert hands_of(started_rounds) == hands_of([record.rounds[3]])


def test_a_round_past_the_end_replays_nothing(game: Game, started_rounds: list[Round]) -> None:
    rounds = len(game.document["rounds"])
    response = Client().get(frames_url(game, rounds))
    assert response.status_code == 404
    detail = f"no round {rounds}: the game has {rounds} (0 to {rounds - 1})"
    assert response.json()["detail"] == detail
    assert started_rounds == []


# -- the measurement ------------------------------------------------------------------------


def long_document() -> dict[str, Any]:
    """A real Tenhou hanchan's hands repeated to :data:`LONG_GAME_ROUNDS` hands."""
    path = corpus_dir() / REAL_GAME
    (record,), _ = read_games(path.read_bytes(), file_name=path.name)
    document = canonical.game_to_json(record)
    hands = document["rounds"]
    document["rounds"] = [hands[index % len(hands)] for index in range(LONG_GAME_ROUNDS)]
    document["source"] = {"format": "canonical"}
    return document


def timed(client: Client, url: str, times: int = 5) -> float:
    """The median time of a request, in milliseconds."""
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        response = client.get(url)
        spent.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return statistics.median(spent)


@pytest.mark.slow
def test_the_last_round_of_a_long_game_costs_one_round(
    django_capture_on_commit_callbacks: Any, started_rounds: list[Round]
) -> None:
    """Times the frames of the first and the last hand of a 200-hand game (run with ``-s`` to
    see the figures): the last costs what the first does, and replays one hand."""
    game = store(long_document(), django_capture_on_commit_callbacks)
    client = Client()
    last = LONG_GAME_ROUNDS - 1
    figures = {
        "frames of hand 0": timed(client, frames_url(game, 0)),
        f"frames of hand {last}": timed(client, frames_url(game, last)),
        f"frame 0 of hand {last}": timed(client, frames_url(game, last, 0)),
        # The viewer page replays nothing (it lists the hands from the replay report); shown
        # for comparison.
        "viewer page": timed(client, f"/replay/{game.pk}/"),
    }
    for what, milliseconds in figures.items():
        print(f"{LONG_GAME_ROUNDS}-hand game, {what}: {milliseconds:.1f} ms")
    started_rounds.clear()
    client.get(frames_url(game, last))
    assert len(started_rounds) == 1
    assert figures[f"frames of hand {last}"] < 3 * figures["frames of hand 0"] + 50
