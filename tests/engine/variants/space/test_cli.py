"""``python -m engine score`` and ``simulate`` with ``--ruleset space-4p`` (real subprocesses)."""

from __future__ import annotations

import json

from engine.formats import canonical
from engine.replay import Verdict, replay
from tests.engine.test_cli import engine


def test_score_the_chanta_hand_of_the_document() -> None:
    # seeds/000 line 49: 912m891p11s56z with 124z called, won on 7z: chanta (open, 1 han),
    # 30 fu; South's ron: 1000.
    done = engine(
        "score",
        "--ruleset",
        "space-4p",
        "--hand",
        "912m891p11s56z7z",
        "--win",
        "7z",
        "--meld",
        "chi:124z",
        "--seat-wind",
        "S",
        "--discarder",
        "E",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["yaku"] == [{"name": "chanta", "han": 1}]
    assert (result["fu"], result["total"]) == (30, 1000)


def test_score_refuses_an_honour_chi_in_the_standard_rules() -> None:
    done = engine("score", "--hand", "912m891p11s56z7z", "--meld", "chi:124z", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"] == "invalid_hand"


def test_score_json_lines_with_an_open_kokushi() -> None:
    # seeds/000 line 64: 19m19p119s, 234z and 657z called, won on 1z: open kokushi 3 han 30 fu,
    # 3900 from South's ron.
    request = {
        "ruleset": "space-4p",
        "hand": "19m19p119s1z",
        "win": "1z",
        "melds": [{"type": "chi", "tiles": "234z"}, {"type": "chi", "tiles": "657z"}],
        "seat_wind": "S",
        "discarder": "E",
    }
    done = engine("score", stdin=json.dumps(request) + "\n")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["yaku"] == [{"name": "open_kokushi", "han": 3}]
    assert result["total"] == 3900


def test_simulate_writes_space_games_that_verify() -> None:
    done = engine("simulate", "--ruleset", "space-4p", "--games", "2", "--seed", "5")
    assert done.returncode == 0, done.stderr
    games = [game for line in done.stdout.splitlines() for game in canonical.loads(line)]
    assert len(games) == 2
    assert all(game.header.ruleset == "space-4p" for game in games)
    assert all(replay(game).verdict is Verdict.VERIFIED for game in games)
