"""Frames of Ùzje rounds (engine.variants.uzje.frames, reached through engine.frames): every
tile is somewhere in every frame, the frames end where the replay report ends, and flowers,
bonus tiles, claims and the seat winds of big tables show where they happen."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from engine.events import (
    ClosedKan,
    Discard,
    Draw,
    Game,
    GameHeader,
    Player,
    Pon,
    Round,
    Source,
    Win,
)
from engine.formats import canonical
from engine.frames import round_frames, round_list
from engine.replay import RoundSummary
from engine.variants.uzje import tiles as T
from engine.variants.uzje.events import BonusRevealed, FlowerExposed, UzjeEvent
from engine.variants.uzje.replay import replay
from engine.variants.uzje.rules import UZJE_4P, UzjeRules, get_rules
from engine.variants.uzje.selfplay import simulate
from tests.engine.variants.uzje.tables import table, tile, tiles

PRESETS = ("uzje-3p", "uzje-4p", "uzje-5p", "uzje-6p")


@pytest.fixture(scope="module")
def matches() -> dict[str, Game]:
    """One self-played match per preset, read back from its canonical JSON (as stored)."""
    out = {}
    for seed, name in enumerate(PRESETS):
        game = simulate(1, 300 + seed, name)[0]
        out[name] = canonical.game_from_json(json.loads(json.dumps(canonical.game_to_json(game))))
    return out


def frames_json(game: Game, index: int) -> dict[str, Any]:
    return round_frames(game, index).to_json()


_MATCH_FRAMES: dict[tuple[str, int], dict[str, Any]] = {}


def match_frames(matches: dict[str, Game], name: str, index: int) -> dict[str, Any]:
    """The frames of one round of a preset's match, computed once for the module."""
    key = (name, index)
    if key not in _MATCH_FRAMES:
        _MATCH_FRAMES[key] = frames_json(matches[name], index)
    return _MATCH_FRAMES[key]


def words(values: Sequence[object]) -> list[str]:
    return [T.format_tiles((value,)) for value in values]  # type: ignore[arg-type]


# -- every tile is somewhere --------------------------------------------------------------------


def visible(frame: dict[str, Any]) -> Counter[str]:
    """Every tile a frame places: hands, drawn tiles, melds, flowers, the rivers (a claimed
    discard only once, in its meld) and the shown bonus tiles."""
    found: Counter[str] = Counter(frame["dora_indicators"])
    for seat in frame["seats"]:
        found.update(seat["hand"])
        if seat["drawn"]:
            found[seat["drawn"]] += 1
        for meld in seat["melds"]:
            found.update(meld["tiles"])
        found.update(seat["flowers"])
        found.update(d["tile"] for d in seat["discards"] if not d["called"])
    return found


@pytest.mark.parametrize("name", PRESETS)
def test_every_tile_is_in_exactly_one_place_in_every_frame(
    matches: dict[str, Game], name: str
) -> None:
    game = matches[name]
    rules = get_rules(name)
    for index, round_ in enumerate(game.rounds):
        assert round_.wall is not None
        live, dead = words(round_.wall.live), words(round_.wall.dora_indicators)
        everything = Counter(live) + Counter(dead)
        for hand in round_.hands:
            everything.update(words(hand))
        assert sum(everything.values()) == len(rules.tiles())
        front = back = 0
        for frame in match_frames(matches, name, index)["frames"]:
            action = frame["action"] or {}
            if action.get("type") == "draw":
                if action["replacement"]:
                    back += 1
                else:
                    front += 1
            # The wall still to draw, and the dead wall not shown yet, are what the frame
            # does not place.
            unseen = live[front : len(live) - back]
            hidden_dead = dead[len(frame["dora_indicators"]) :]
            assert frame["wall_left"] == len(unseen), (index, frame["step"])
            assert visible(frame) + Counter(unseen) + Counter(hidden_dead) == everything, (
                index,
                frame["step"],
            )
            assert frame["dora_indicators"] == dead[: len(frame["dora_indicators"])]


# -- the frames agree with the replay report ------------------------------------------------------


def assert_result_agrees(result: dict[str, Any], summary: RoundSummary) -> None:
    assert result["type"] == summary.result
    assert result["deltas"] == summary.deltas
    assert result["scores_after"] == summary.scores_after
    wins = [
        (w["seat"], w["seat"] if w["from"] is None else w["from"], w["han"], w["points"])
        for w in result.get("wins", [])
    ]
    assert wins == [(w.seat, w.from_seat, w.han, w.points) for w in summary.wins]
    for win, witness in zip(result.get("wins", []), summary.wins, strict=True):
        assert [tuple(pair) for pair in win["yaku"]] == list(witness.yaku)
        assert win["limit"] == witness.limit
        assert win["deltas"] == witness.deltas
        assert win["fu"] == 0


@pytest.mark.parametrize("name", PRESETS)
def test_the_last_frame_of_each_game_is_the_replay_reports_result(
    matches: dict[str, Game], name: str
) -> None:
    game = matches[name]
    report = replay(game)
    assert report.verdict.value == "verified"
    assert len(report.rounds) == len(game.rounds)
    assert [info.result for info in round_list(game)] == [s.result for s in report.rounds]
    kinds = set()
    for index, summary in enumerate(report.rounds):
        body = match_frames(matches, name, index)
        frames = body["frames"]
        last = frames[-1]
        assert last["result"] is not None
        assert_result_agrees(last["result"], summary)
        kinds.add(summary.result)
        # The scores shown at the end are the report's; before the end nobody's score moves.
        assert [seat["score"] for seat in last["seats"]] == summary.scores_after
        start = list(game.rounds[index].scores)
        for frame in frames:
            if frame["result"] is None:
                assert [seat["score"] for seat in frame["seats"]] == start
        # A frame's deltas are the change since the frame before.
        before = start
        for frame in frames:
            scores = [seat["score"] for seat in frame["seats"]]
            assert [seat["delta"] for seat in frame["seats"]] == [
                now - then for now, then in zip(scores, before, strict=True)
            ]
            before = scores
    assert "win" in kinds


def test_a_win_names_the_winners_hand_and_tile(matches: dict[str, Game]) -> None:
    game = matches["uzje-4p"]
    checked = 0
    for index, round_ in enumerate(game.rounds):
        result = match_frames(matches, "uzje-4p", index)["frames"][-1]["result"]
        for win in result.get("wins", []):
            event = next(e for e in round_.events if isinstance(e, Win) and e.seat == win["seat"])
            recorded = event.recorded
            assert recorded is not None and recorded.hand is not None
            # The record's hand holds the winning tile; the frame's holds it apart.
            assert sorted([*win["hand"], win["tile"]]) == sorted(words(recorded.hand))
            if not win["limit_patterns"]:
                assert win["han"] == recorded.han
            checked += 1
    assert checked


def test_json_says_the_notation_and_goes_through_the_dispatch(matches: dict[str, Game]) -> None:
    game = matches["uzje-4p"]
    body = round_frames(game, 0).to_json()
    assert body["notation"] == "uzje"
    assert body["ruleset"] == "uzje-4p"
    assert all(frame["notation"] == "uzje" for frame in body["frames"])
    # UJMJ tiles: every code parses as one Ùzje tile.
    for frame in body["frames"]:
        for seat in frame["seats"]:
            for code in seat["hand"]:
                T.parse_tile(code)
    with pytest.raises(IndexError):
        round_frames(game, len(game.rounds))


# -- claims, flowers and bonus tiles where they happen ------------------------------------------


@pytest.mark.parametrize("name", PRESETS)
def test_claims_mark_the_river_tile_and_name_the_discarder(
    matches: dict[str, Game], name: str
) -> None:
    game = matches[name]
    claims = 0
    for index in range(len(game.rounds)):
        frames = match_frames(matches, name, index)["frames"]
        for before, frame in itertools.pairwise(frames):
            action = frame["action"]
            if action["type"] not in ("pon", "open_kan", "chow"):
                continue
            claims += 1
            seat, giver = frame["seats"][action["seat"]], frame["seats"][action["from"]]
            assert before["seats"][action["from"]]["discards"][-1]["called"] is False
            assert giver["discards"][-1]["called"] is True
            assert giver["discards"][-1]["tile"] == action["tile"]
            meld = seat["melds"][-1]
            assert (meld["type"], meld["called"], meld["from"]) == (
                action["type"],
                action["tile"],
                action["from"],
            )
            assert sorted(meld["tiles"]) == sorted([action["tile"], *action["tiles"]])
            if action["type"] == "chow":
                assert meld["shape"] in ("arith", "gem", "power")
                # Only the next player claims an arith (seeds/002 line 93).
                assert action["seat"] == (action["from"] + 1) % len(frame["seats"])
    assert claims


@pytest.mark.parametrize("name", PRESETS)
def test_an_exposed_flower_leaves_the_hand_for_the_flowers(
    matches: dict[str, Game], name: str
) -> None:
    game = matches[name]
    exposed = 0
    for index in range(len(game.rounds)):
        frames = match_frames(matches, name, index)["frames"]
        for before, frame in itertools.pairwise(frames):
            action = frame["action"]
            if action["type"] != "flower":
                continue
            exposed += 1
            seat = action["seat"]
            old, new = before["seats"][seat], frame["seats"][seat]
            flower = action["tile"]
            assert new["flowers"] == [*old["flowers"], flower]
            held = [*old["hand"], *([old["drawn"]] if old["drawn"] else [])]
            now = [*new["hand"], *([new["drawn"]] if new["drawn"] else [])]
            assert Counter(held) - Counter(now) == Counter([flower])
            # A flower is never in a river (seeds/002 line 91: flowers cannot be discarded).
        for frame in frames:
            for view in frame["seats"]:
                assert not any(d["tile"] in T.FLOWER_LETTERS for d in view["discards"])
    assert exposed


def game_of(round_: Round, rules: UzjeRules = UZJE_4P, **overrides: object) -> Game:
    header = GameHeader(
        ruleset=rules.name,
        rule_overrides=overrides,
        players=tuple(Player(f"P{seat}") for seat in range(rules.players)),
        source=Source("test"),
    )
    return Game(header=header, rounds=(round_,))


def with_events(round_: Round, *events: UzjeEvent) -> Round:
    return dataclasses.replace(round_, events=tuple(events))  # type: ignore[arg-type]


HANDS_WITH_A_FLOWER = (
    "123456789s123mEh",  # the dealer's 14 tiles, with the spring flower
    "123456789m456sN",
    "abcdefsabcdefmS",
    "xxxsxxxmWWCFPZZ",
)


def test_the_dealers_flower_is_set_aside_and_replaced_from_the_back() -> None:
    # seeds/002 line 67: "expose those flower tiles and set them aside ... Then draw a tile
    # from the far end of the wall".
    _, round_ = table(HANDS_WITH_A_FLOWER, wall=True, front="9m", back="7m")
    round_ = with_events(
        round_,
        FlowerExposed(0, tile("h")),
        Draw(0, tile("7m")),
        Discard(0, tile("E")),
        Draw(1, tile("9m")),
    )
    frames = frames_json(game_of(round_), 0)["frames"]
    deal, exposed, replaced, discarded, drawn = frames
    assert "h" in deal["seats"][0]["hand"] and deal["seats"][0]["flowers"] == []
    assert exposed["seats"][0]["flowers"] == ["h"]
    assert "h" not in exposed["seats"][0]["hand"] and len(exposed["seats"][0]["hand"]) == 13
    assert exposed["action"]["type"] == "flower" and "spring" in exposed["action"]["text"]
    assert exposed["wall_left"] == deal["wall_left"]
    assert replaced["action"]["replacement"] is True
    assert replaced["seats"][0]["drawn"] == "7m"
    assert replaced["wall_left"] == deal["wall_left"] - 1
    assert "back of the wall" in replaced["action"]["text"]
    assert discarded["seats"][0]["discards"] == [
        {"tile": "E", "tsumogiri": False, "riichi": False, "called": False}
    ]
    assert discarded["seats"][0]["drawn"] is None
    assert drawn["action"]["replacement"] is False and drawn["seats"][1]["drawn"] == "9m"
    assert [frame["turn"] for frame in frames] == [0, 0, 0, 0, 1]
    assert frames_json(game_of(round_), 0)["frames"][-1]["result"] is None
    assert round_list(game_of(round_))[0].result == "unfinished"


HANDS_WITH_A_QUAD = (
    "5555s123m456m789mE",  # the dealer: four 5s and ten more
    "12346789xabcsN",
    "1234abcdefmSSS",
    "defsWWWCCCFFZZ",
)


@pytest.mark.parametrize(
    ("overrides", "counted"),
    [
        # seeds/002 line 62: the shown tile itself is the bonus tile.
        ({}, ["P", "E"]),
        # The option bonus_is_next: the next tile of its group, arrows C F P and winds E S W N
        # in a cycle (docs/variants/uzje.md).
        ({"bonus_is_next": True}, ["C", "S"]),
    ],
)
def test_a_quad_shows_the_next_bonus_tile(overrides: dict[str, object], counted: list[str]) -> None:
    # seeds/002 lines 79-81: after a quad, draw from the end of the wall, then flip up the next
    # tile of the dead wall.
    _, round_ = table(HANDS_WITH_A_QUAD, wall=True, bonus="P", dead="E", back="7m")
    round_ = with_events(
        round_,
        ClosedKan(0, tiles("5555s")),
        Draw(0, tile("7m")),
        BonusRevealed(tile("E")),
        Discard(0, tile("E")),
    )
    frames = frames_json(game_of(round_, **overrides), 0)["frames"]
    deal, quad, replacement, bonus, _ = frames
    assert deal["dora_indicators"] == ["P"] and deal["bonus_tiles"] == counted[:1]
    meld = quad["seats"][0]["melds"][0]
    assert (meld["type"], meld["shape"], meld["tiles"], meld["called"], meld["from"]) == (
        "closed_kan",
        "quad",
        ["5s"] * 4,
        None,
        None,
    )
    assert replacement["seats"][0]["drawn"] == "7m"
    assert replacement["dora_indicators"] == ["P"]
    assert bonus["action"]["type"] == "bonus" and bonus["action"]["seat"] is None
    assert bonus["dora_indicators"] == ["P", "E"]
    assert bonus["bonus_tiles"] == counted
    assert bonus["seats"][0]["drawn"] == "7m"


def test_a_claimed_trip_keeps_where_it_came_from() -> None:
    hands = (
        "123456789s123mES",  # seat 0 deals 14 and will discard the E
        "1234567m89sEENW",  # seat 1 claims it for a trip
        "abcdefsabcdefmS",
        "xxxsxxxmWWCFPZZ",
    )
    _, round_ = table(hands, wall=True, back="7m")
    round_ = with_events(
        round_,
        Discard(0, tile("E")),
        Pon(1, 0, tile("E"), tiles("EE")),
        Discard(1, tile("N")),
    )
    frames = frames_json(game_of(round_), 0)["frames"]
    river = frames[2]["seats"][0]["discards"]
    assert river == [{"tile": "E", "tsumogiri": False, "riichi": False, "called": True}]
    meld = frames[2]["seats"][1]["melds"][0]
    assert (meld["type"], meld["shape"], meld["called"], meld["from"]) == ("pon", "trip", "E", 0)
    assert frames[2]["seats"][1]["drawn"] is None
    assert "claims a trip of E from P0" in frames[2]["action"]["text"]


@pytest.mark.parametrize(("name", "windless"), [("uzje-5p", {4}), ("uzje-6p", {4, 5})])
def test_the_fifth_and_sixth_seats_have_no_seat_wind(
    matches: dict[str, Game], name: str, windless: set[int]
) -> None:
    game = matches[name]
    for index, round_ in enumerate(game.rounds[:3]):
        frame = match_frames(matches, name, index)["frames"][0]
        players = len(frame["seats"])
        for seat, view in enumerate(frame["seats"]):
            place = (seat - round_.dealer) % players
            assert view["wind"] == (None if place in windless else "ESWN"[place])


def test_a_refused_event_stops_the_frames_where_it_was_tried(matches: dict[str, Game]) -> None:
    game = matches["uzje-4p"]
    round_ = game.rounds[0]
    number, event = next(
        (n, e) for n, e in enumerate(round_.events) if isinstance(e, Discard) and n > 5
    )
    held = set(match_frames(matches, "uzje-4p", 0)["frames"][number]["seats"][event.seat]["hand"])
    missing = next(code for code in ("C", "F", "P", "Z", "E", "N") if code not in held)
    events = list(round_.events)
    events[number] = Discard(event.seat, tile(missing))
    broken = dataclasses.replace(
        game, rounds=(dataclasses.replace(round_, events=tuple(events)), *game.rounds[1:])
    )
    frames = round_frames(broken, 0)
    assert frames.stopped is not None and frames.stopped.event == number
    assert "holds" in frames.stopped.reason
    assert frames.last_step == number
    assert frames.result == "unfinished"
    assert round_list(broken)[0].result == "unfinished"


def test_a_refused_deal_is_one_frame_of_the_record_as_dealt(matches: dict[str, Game]) -> None:
    game = matches["uzje-4p"]
    round_ = game.rounds[0]
    dealer = round_.dealer
    # The dealer is dealt 14 tiles (seeds/002 line 60); 13 is refused.
    hands = list(round_.hands)
    hands[dealer] = hands[dealer][:13]
    broken = dataclasses.replace(
        game, rounds=(dataclasses.replace(round_, hands=tuple(hands)), *game.rounds[1:])
    )
    frames = round_frames(broken, 0)
    assert frames.stopped is not None and frames.stopped.event is None
    assert "14" in frames.stopped.reason
    (deal,) = frames.to_json()["frames"]
    assert [seat["hand"] for seat in deal["seats"]] == [words(hand) for hand in hands]
    assert deal["dora_indicators"] == words(round_.dora_indicators)
    assert deal["notation"] == "uzje"
