"""The study aid of the frames (engine/study.py, ``Frame.study``) on real corpus games: a frame
where a seat chose a discard lists every discard with its tile acceptance, best first; the
discard marked is the one the record makes next, and its loss is the best count less its own.
The accepted tiles and unseen copies are checked against an independent count: the ``mahjong``
peer's shanten, and the copies read off the frame (hand, rivers, melds, dora indicators)."""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import pytest
from mahjong.shanten import Shanten

from engine.events import Game
from engine.families import family_of
from engine.formats import read_games
from engine.frames import round_frames
from engine.study import riichi_study
from engine.tiles import parse_tile
from tests.engine.corpus import corpus_dir

HANCHAN_4P = "mjlog_xml/mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.mjlog"
HANCHAN_3P = "mjlog_xml/MitsuhiroTaniguchi__MahjongLM/2014091101gm-00b9-0000-5ca6b487.txt"
SANMA_MISSING = {f"{rank}m" for rank in range(2, 9)}


@functools.cache
def game(path: str) -> Game:
    (found,) = read_games((corpus_dir() / path).read_bytes())[0]
    return found


@functools.cache
def frames(path: str, index: int) -> list[dict[str, Any]]:
    return list(round_frames(game(path), index).to_json()["frames"])


def kind(tile: str) -> str:
    """A red five as its kind."""
    return tile.replace("0", "5")


def index34(tile: str) -> int:
    return parse_tile(tile).kind


def next_discard(round_frames_: list[dict[str, Any]], step: int, seat: int) -> str | None:
    """The tile ``seat`` discards as its next move after ``step``, from the frames' actions."""
    for later in round_frames_[step + 1 :]:
        action = later["action"]
        if action["type"] in ("riichi", "dora"):
            continue
        if action["type"] == "discard" and action["seat"] == seat:
            return kind(action["tile"])
        return None
    return None


def visible(frame: dict[str, Any], seat: int) -> Counter[str]:
    """Every tile ``seat`` sees in the frame: its hand (the drawn tile too), every river (a
    called tile once, in its meld), every meld, the dora indicators, the norths set aside."""
    seen: Counter[str] = Counter()
    own = frame["seats"][seat]
    seen.update(kind(tile) for tile in own["hand"])
    if own["drawn"]:
        seen[kind(own["drawn"])] += 1
    for view in frame["seats"]:
        seen.update(kind(tile["tile"]) for tile in view["discards"] if not tile["called"])
        for meld in view["melds"]:
            seen.update(kind(tile) for tile in meld["tiles"])
        seen["4z"] += view["north"]
    seen.update(kind(tile) for tile in frame["dora_indicators"])
    return seen


def peer_shanten(counts: list[int], three_player: bool) -> int:
    return int(Shanten.calculate_shanten(counts, is_three_player=three_player))


def study_frames(path: str) -> list[tuple[int, list[dict[str, Any]], int]]:
    out = []
    for index in range(len(game(path).rounds)):
        round_ = frames(path, index)
        out += [(index, round_, step) for step, frame in enumerate(round_) if frame["study"]]
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("path", [HANCHAN_4P, HANCHAN_3P], ids=["4p", "sanma"])
def test_the_discard_made_is_marked_with_its_loss(path: str) -> None:
    found = study_frames(path)
    assert len(found) > 200
    for index, round_, step in found:
        frame = round_[step]
        study = frame["study"]
        seat = study["seat"]
        action = frame["action"]
        # A decision follows the seat's own draw or call, never in riichi.
        assert action["seat"] == seat and action["type"] in ("draw", "chi", "pon")
        assert not frame["seats"][seat]["riichi"]
        assert study["discard"] == next_discard(round_, step, seat), (index, step)
        options = study["options"]
        ranks = [(option["shanten"], -option["count"]) for option in options]
        assert ranks == sorted(ranks)
        assert study["shanten"] == options[0]["shanten"]
        assert study["best"] == options[0]["count"]
        (own,) = [option for option in options if option["tile"] == study["discard"]]
        if own["shanten"] == study["shanten"]:
            assert study["loss"] == study["best"] - own["count"]
        else:
            assert study["loss"] is None
        assert study["kept"] == (study["loss"] == 0)
        # Every tile of the hand is a choice (no swap call forbids one in these games' rules...
        # except right after a call).
        hand = frame["seats"][seat]["hand"] + [frame["seats"][seat]["drawn"] or ""]
        held = {kind(tile) for tile in hand if tile}
        if action["type"] == "draw":
            assert {option["tile"] for option in options} == held


@pytest.mark.corpus
@pytest.mark.parametrize("path", [HANCHAN_4P, HANCHAN_3P], ids=["4p", "sanma"])
def test_accepted_tiles_and_unseen_copies_match_an_independent_count(path: str) -> None:
    three_player = path == HANCHAN_3P
    found = study_frames(path)
    for _, round_, step in found[::7]:
        frame = round_[step]
        study = frame["study"]
        seat = study["seat"]
        view = frame["seats"][seat]
        counts = [0] * 34
        for tile in [*view["hand"], *([view["drawn"]] if view["drawn"] else [])]:
            counts[index34(tile)] += 1
        seen = visible(frame, seat)
        for option in study["options"]:
            counts[index34(option["tile"])] -= 1
            number = peer_shanten(counts, three_player)
            accepted = []
            for draw in range(34):
                if (three_player and 1 <= draw <= 7) or counts[draw] >= 4:
                    continue
                counts[draw] += 1
                if peer_shanten(counts, three_player) < number:
                    accepted.append(draw)
                counts[draw] -= 1
            counts[index34(option["tile"])] += 1
            names = [parse_tile(tile).kind for tile in option["tiles"]]
            assert option["shanten"] == number
            assert names == accepted, (step, option)
            unseen = {tile: 4 - seen[tile] for tile in option["tiles"]}
            assert {tile: study["unseen"][tile] for tile in option["tiles"]} == unseen
            assert option["count"] == sum(unseen.values())
        if three_player:
            assert not SANMA_MISSING & set(study["unseen"])


@pytest.mark.corpus
def test_the_game_study_counts_what_the_frames_show() -> None:
    tallies = riichi_study(game(HANCHAN_4P))
    assert family_of(game(HANCHAN_4P).header.ruleset).study(game(HANCHAN_4P)) == tallies
    for tally in tallies:
        shown = [
            frame["study"]
            for frame in frames(HANCHAN_4P, tally.round)
            if frame["study"] and frame["study"]["seat"] == tally.seat
        ]
        assert tally.decisions == len(shown)
        assert tally.kept == sum(study["kept"] for study in shown)
    assert sum(tally.decisions for tally in tallies) > 200
    assert 0 < sum(tally.kept for tally in tallies) < sum(tally.decisions for tally in tallies)


def test_uzje_frames_have_no_study() -> None:
    from engine.variants.uzje.selfplay import simulate

    (match,) = simulate(1, 301, "uzje-4p")
    assert family_of(match.header.ruleset).study(match) is None
    shown = round_frames(match, 0).to_json()["frames"]
    assert all(frame["study"] is None for frame in shown)


@pytest.mark.parametrize("preset", ["small-4p", "small-4p-4", "space-4p"])
def test_the_riichi_variants_have_their_study(preset: str) -> None:
    from engine.sim.selfplay import simulate

    (played,) = simulate(preset, 1, 5)
    shown = [frame["study"] for frame in round_frames(played, 0).to_json()["frames"]]
    studies = [study for study in shown if study]
    assert studies
    accepted = {
        tile for study in studies for option in study["options"] for tile in option["tiles"]
    }
    if preset.startswith("small"):
        # No honours in small mahjong: never a draw, never counted.
        assert not {tile for tile in accepted if tile.endswith("z")}
        assert not {tile for study in studies for tile in study["unseen"] if tile.endswith("z")}
    for study in studies:
        assert study["options"][0]["count"] == study["best"]
