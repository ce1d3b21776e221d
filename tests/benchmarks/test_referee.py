"""The referee (benchmarks/referee.py) with the real peers: a small run is clean, and the referee
can fail: one figure or one action changed in a game is reported by the peer that checks it.

The peers (PyPI ``mjai`` for Mortal's libriichi, ``riichienv``, ``jansou``, ``mahjong`` 2.1.0) are
test dependencies; ``mjai`` is installed without its dependencies (``.ci/run``, README). Every test
here fails, naming the missing peer, when one is absent.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.referee import peers
from engine.events import Discard, Draw, Game, RecordedWin, Round, Win
from engine.tiles import Tile

#: Games per rule set of the small run (4 rule sets): about 20 s on two cores.
SMALL_RUN = 12

#: Unexplained classes of our own engine or writers that are reported to their owners
#: (docs/replay.md, "The referee") and not fixed yet. The referee
#: still counts them as unexplained; this test tolerates exactly these (peer, start of what, rule
#: set) until they are fixed, and fails on any other. Remove an entry when its fix lands.
REPORTED: frozenset[tuple[str, str, str]] = frozenset()
# (Every class reported here so far is fixed: Mahjong Soul's North breaking the first go-around,
# the tenhou.net/6 writer's final points, Mahjong Soul's suukantsu pao, our mjai reader's ron on
# a North. A new fault of ours found by a run goes here, with its repro, until its fix lands.)


@pytest.fixture(scope="module", autouse=True)
def _peers_present() -> None:
    problems = peers.missing()
    if problems:
        pytest.fail("the referee's peers are not all installed:\n" + "\n".join(problems))


def _reported(entry: dict[str, object]) -> bool:
    return any(
        entry["peer"] == peer and str(entry["what"]).startswith(what) and entry["ruleset"] == rs
        for peer, what, rs in REPORTED
    )


def test_a_small_run_has_no_unexplained_disagreements_and_meets_rare_situations(
    tmp_path: Path,
) -> None:
    from benchmarks.referee.run import report, run

    figures = run(games=SMALL_RUN, jobs=2, parts_dir=tmp_path, part_size=SMALL_RUN, progress=False)
    out = io.StringIO()
    unexplained, out_of_range = report(figures, out)
    text = out.getvalue()
    assert text.rstrip().splitlines()[-1] == f"unexplained disagreements: {unexplained}"
    assert out_of_range == 0, text
    assert figures.games == 4 * SMALL_RUN
    # Every peer judged something: libriichi the 4-player games' actions, the rest every game.
    for peer in ("ours", "libriichi", "riichienv", "jansou (mjai)", "jansou (tenhou6)", "mahjong"):
        assert figures.checks[peer] > 0, peer
    from benchmarks.referee.explained import explanation

    new = [
        entry
        for entry in figures.classes.values()
        if explanation(entry["peer"], entry["what"], entry["ruleset"]) is None
        and not _reported(entry)
    ]
    assert new == [], text
    reached = {name for name, n in figures.rare.items() if n}
    assert len(reached) >= 8, figures.rare
    assert {"chankan", "double ron", "rinshan kaihou", "kita"} <= reached
    # The run wrote its parts, and a rerun takes them as they are.
    assert len(list(tmp_path.glob("*.json"))) == 4
    again = run(games=SMALL_RUN, jobs=1, parts_dir=tmp_path, part_size=SMALL_RUN, progress=False)
    assert again.games == figures.games and again.classes == figures.classes


def _game(ruleset: str = "tenhou-4p", seed: int = 0) -> Game:
    from benchmarks.referee.games import make_game

    return make_game(ruleset, seed)


def _first_win(game: Game, ron: bool = False) -> tuple[int, int, Win]:
    for r, round_ in enumerate(game.rounds):
        for e, event in enumerate(round_.events):
            if isinstance(event, Win) and event.recorded is not None and not (ron and event.tsumo):
                return r, e, event
    raise AssertionError("no win in the game")


def _replace_event(game: Game, r: int, e: int, event: object) -> Game:
    round_ = game.rounds[r]
    events = list(round_.events)
    events[e] = event  # type: ignore[call-overload]
    rounds = list(game.rounds)
    rounds[r] = dataclasses.replace(round_, events=tuple(events))
    return dataclasses.replace(game, rounds=tuple(rounds))


def _findings(game: Game) -> list[tuple[str, str, str, int | None]]:
    from benchmarks.referee.judging import judge_game

    return [(f.peer, f.what, f.round, f.event) for f in judge_game(game).findings]


def test_an_unchanged_game_is_agreed_by_every_peer() -> None:
    """Every peer agrees, but for the known, explained differences of its rules."""
    from benchmarks.referee.explained import explanation

    game = _game()
    unexplained = [
        found
        for found in _findings(game)
        if explanation(found[0], found[1], game.header.ruleset) is None
    ]
    assert unexplained == []


def test_a_composite_yakuman_with_four_kans_is_classed_by_its_liability() -> None:
    """majsoul-3p seed 11007 (the 100,000-game run): daisangen and suukantsu, the daisangen
    feeder having fed the fourth kan too. Mahjong Soul's liability covers daisangen only; jansou
    charges the whole to the feeder: the known composite class, not a four-kans pao."""
    from benchmarks.referee.explained import explanation
    from benchmarks.referee.rare import count

    game = _game("majsoul-3p", 11007)
    # The rare-situation count too: a pao daisangen, no four-kans pao (Mahjong Soul has none).
    situations = count(game)
    assert (situations["pao daisangen"], situations["pao suukantsu"]) == (1, 0)
    found = _findings(game)
    jansou = [(what, where) for peer, what, where, _ in found if peer == "jansou (mjai)"]
    assert jansou == [("pao over the whole of a composite yakuman", "2 (E1)")], found
    assert explanation("jansou (mjai)", jansou[0][0], "majsoul-3p") is not None


def test_a_win_with_its_points_changed_is_reported_by_the_scorers() -> None:
    game = _game()
    # A ron: any multiple of 100 is a value the tenhou.net/6 writer can write.
    r, e, win = _first_win(game, ron=True)
    assert win.recorded is not None and win.recorded.points is not None
    recorded = dataclasses.replace(win.recorded, points=win.recorded.points + 1000)
    found = _findings(_replace_event(game, r, e, dataclasses.replace(win, recorded=recorded)))
    peers_at_win = {peer for peer, what, _, event in found if what == "win points" and event == e}
    assert {"mahjong", "riichienv"} <= peers_at_win, found
    assert any(peer == "ours" for peer, *_ in found), found


def test_a_win_with_its_deltas_changed_is_reported_by_jansou() -> None:
    game = _game()
    r, e, win = _first_win(game)
    assert win.recorded is not None and win.recorded.deltas is not None
    deltas = list(win.recorded.deltas)
    deltas[win.seat] += 2000
    deltas[win.from_seat if not win.tsumo else (win.seat + 1) % 4] -= 2000
    recorded: RecordedWin = dataclasses.replace(win.recorded, deltas=tuple(deltas))
    found = _findings(_replace_event(game, r, e, dataclasses.replace(win, recorded=recorded)))
    assert ("jansou (mjai)", "win value") in {(p, w) for p, w, _, ev in found if ev == e}, found


def _not_held(round_: Round, seat: int, before: int) -> Tile:
    """A tile kind the seat neither was dealt nor drew before event ``before``."""
    held = {tile.kind for tile in round_.hands[seat]}
    held |= {
        ev.tile.kind for ev in round_.events[:before] if isinstance(ev, Draw) and ev.seat == seat
    }
    return next(Tile.from_kind(k) for k in range(34) if k not in held)


def test_a_discard_of_a_tile_not_held_is_refused_by_the_rule_engines() -> None:
    game = _game()
    round_ = game.rounds[0]
    e = next(i for i, ev in enumerate(round_.events) if isinstance(ev, Discard) and i > 20)
    discard = round_.events[e]
    assert isinstance(discard, Discard)
    changed = Discard(discard.seat, _not_held(round_, discard.seat, e), tsumogiri=False)
    found = _findings(_replace_event(game, 0, e, changed))
    at_event = {(peer, what) for peer, what, rnd, ev in found if rnd.startswith("0 ") and ev == e}
    assert ("libriichi", "dahai refused: tile is not in hand") in at_event, found
    assert any(peer == "riichienv" for peer, _ in at_event), found
    assert any(peer == "ours" and "illegal_action" in what for peer, what, *_ in found), found


def test_each_part_writes_its_figures(tmp_path: Path) -> None:
    from benchmarks.referee.run import run

    run(games=2, rulesets=("majsoul-4p",), jobs=1, parts_dir=tmp_path, part_size=1, progress=False)
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [
        "majsoul-4p_000000000-000000001.json",
        "majsoul-4p_000000001-000000002.json",
    ]
    data = json.loads(files[0].read_text())
    figures = data["figures"]
    assert data["part"] == {"ruleset": "majsoul-4p", "start": 0, "stop": 1}
    assert figures["games"] == 1 and figures["games_per_second"] > 0
    assert figures["checks"]["libriichi"] > 0 and "rare" in figures and "disagreements" in figures


def test_a_missing_peer_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def without_mjai(name: str, package: str | None = None) -> object:
        if name.startswith("mjai"):
            raise ImportError(f"No module named {name!r}")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_mjai)
    problems = peers.missing()
    assert len(problems) == 1 and problems[0].startswith("libriichi (PyPI mjai) is missing")
    assert "--no-deps" in problems[0]


def test_finished_only_reports_the_parts_already_run_and_judges_nothing(tmp_path: Path) -> None:
    from benchmarks.referee.run import run

    common: dict[str, Any] = {
        "rulesets": ("tenhou-4p-east",),
        "parts_dir": tmp_path,
        "part_size": 2,
        "jobs": 1,
    }
    first = run(games=2, progress=False, out=io.StringIO(), **common)
    out = io.StringIO()
    so_far = run(games=6, progress=False, out=out, judge_missing=False, **common)
    assert so_far.games == first.games == 2
    assert (
        "1 of 3 part(s) finished" in out.getvalue() and "4 games not judged yet" in out.getvalue()
    )
    assert len(list(tmp_path.glob("*.json"))) == 1  # nothing more was judged or written


def test_the_parts_table_counts_each_parts_classes_by_todays_explanations(tmp_path: Path) -> None:
    import json

    from benchmarks.referee.parts_table import rows, table

    def part(ruleset: str, start: int, disagreements: list[dict[str, object]]) -> None:
        data = {
            "part": {"ruleset": ruleset, "start": start, "stop": start + 10},
            "code": "abc1234",
            "figures": {"games": 10, "cpu_seconds": 4.0, "disagreements": disagreements},
        }
        (tmp_path / f"{ruleset}_{start}.json").write_text(json.dumps(data))

    composite = "pao over the whole of a composite yakuman"
    part("majsoul-3p", 10, [{"peer": "jansou (mjai)", "what": composite, "count": 3}])
    part("tenhou-4p", 10, [{"peer": "jansou (mjai)", "what": "something new", "count": 2}])
    part("tenhou-4p", 0, [])
    found = rows(tmp_path)
    assert [(r["ruleset"], r["start"]) for r in found] == [
        ("tenhou-4p", 0), ("tenhou-4p", 10), ("majsoul-3p", 10),
    ]  # fmt: skip
    assert [(r["unexplained"], r["explained"]) for r in found] == [(0, 0), (2, 0), (0, 3)]
    text = table(found)
    assert "| majsoul-3p 10-19 | abc1234 | 10 | 4.0 | 2.50 | 0 | 3 |" in text
    assert text.endswith(
        "3 parts: 30 games, 12.0 s of worker time (2.50 games/s per core), 2 unexplained"
    )


def test_a_waiting_indicator_turned_before_a_chankan_is_its_own_explained_class() -> None:
    """majsoul-3p seed 19334: an open kan, an added kan on its replacement tile, robbed. Our
    record turns the open kan's waiting indicator at the added kan (as RiichiEnv's kakan step
    does, before it looks for robbers); jansou's replay ends with it unplayed."""
    from benchmarks.referee.explained import explanation

    found = _findings(_game("majsoul-3p", 19334))
    stops = [(what, where) for peer, what, where, _ in found if peer == "jansou (mjai)"]
    assert ("waiting kan indicator turned before a chankan left unplayed", "4 (S1)") in stops
    assert not [what for what, _ in stops if what.startswith("replay stops")]
    for what, _ in stops:
        assert explanation("jansou (mjai)", what, "majsoul-3p") is not None, what
