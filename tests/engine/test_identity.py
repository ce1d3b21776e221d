"""The play identity (engine.identity): one game in any format is one identity, and what was
played differently is another.

The corpus test reads every real record of ``../shared/corpus``: each Tenhou game there as mjlog
and as tenhou.net/6 (names hidden, ``Aさん``..) has one identity, and so do the tenhou.net/6 and
mjai records the engine writes of every game; two records of different play never share one.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from typing import Any

import pytest

from engine import identity as identity_module
from engine.families import family_of
from engine.formats import canonical, get_format, read_games
from engine.identity import (
    PLAY_IDENTITY_VERSION,
    json_text,
    play_content,
    play_identity,
    play_text,
)
from tests.engine.corpus import corpus_dir

Document = dict[str, Any]


def self_played(preset: str = "tenhou-4p-east", number: int = 0, seed: int = 7) -> Document:
    game = list(family_of(preset).simulate(preset, number + 1, seed, ()))[number]
    return canonical.game_to_json(game)


def events(document: Document) -> list[tuple[int, int, dict[str, Any]]]:
    """Every event with its round and place."""
    return [
        (r, e, event)
        for r, round_ in enumerate(document["rounds"])
        for e, event in enumerate(round_["events"])
    ]


def first(document: Document, kind: str) -> dict[str, Any]:
    return next(event for _, _, event in events(document) if event["type"] == kind)


def test_the_identity_is_the_hash_of_its_content_versioned() -> None:
    document = self_played()
    content = play_content(document)
    assert content["play_identity"] == PLAY_IDENTITY_VERSION
    assert len(content["rounds"]) == len(document["rounds"])
    assert play_identity(document) == play_identity(document, encode=json_text)
    assert len(play_identity(document)) == 64


def test_what_a_record_claims_is_not_the_game() -> None:
    document = self_played()
    claimed = copy.deepcopy(document)
    claimed["players"] = [{"name": f"{'ABCD'[seat]}さん"} for seat in range(4)]
    claimed["players"][0] |= {"rank": "七段", "rating": 2100.0}
    claimed["source"] = {"format": "tenhou6", "id": "2020081220gm-00a9-0000-9ee6ab3b"}
    claimed["ruleset"] = "tenhou-4p"
    claimed["rule_overrides"] = {"kiriage": True}
    claimed["started_at"] = "2020-08-12T20:00:00+09:00"
    claimed["final"] = {"scores": [1, 2, 3, 4], "results": [50.0, 10.0, -20.0, -40.0]}
    for round_ in claimed["rounds"]:
        round_["scores"] = [0] * 4
        round_["honba"] += 3
        round_.pop("wall", None)
        for event in round_["events"]:
            for member in [m for m in event if m.startswith("recorded")]:
                del event[member]
    assert play_identity(claimed) == play_identity(document)


def test_what_only_a_format_spells_differently_is_not_the_game() -> None:
    document = self_played()
    spelt = copy.deepcopy(document)
    for round_ in spelt["rounds"]:
        for hand in round_["hands"]:
            hand.reverse()
        round_["hands"].append([])  # Tenhou's empty sanma seat, say
        kept = []
        for event in round_["events"]:
            if event["type"] == "riichi_accepted":
                continue  # tenhou.net/6 does not write it
            if event["type"] == "discard":
                event["tsumogiri"] = not event["tsumogiri"]
            if event["type"] == "exhaustive_draw":
                event = {"type": "nagashi_mangan", "seats": [0]}
            if event["type"] == "abortive_draw":
                event.pop("seat", None)
            for member in ("consumed", "tiles"):
                if member in event:
                    event[member] = list(reversed(event[member]))
            kept.append(event)
        round_["events"] = kept
    assert play_identity(spelt) == play_identity(document)


def test_how_a_hand_s_end_was_paid_is_not_the_game() -> None:
    document = self_played()

    def ending(end: dict[str, Any]) -> str:
        ended = copy.deepcopy(document)
        ended["rounds"][0]["events"][-1] = end
        return play_identity(ended)

    drawn = ending({"type": "exhaustive_draw", "recorded_tenpai": [0]})
    assert ending({"type": "nagashi_mangan", "seats": [2]}) == drawn
    nine = ending({"type": "abortive_draw", "kind": "nine_terminals", "seat": 1})
    assert ending({"type": "abortive_draw", "kind": "nine_terminals"}) == nine != drawn
    assert ending({"type": "abortive_draw", "kind": "four_winds"}) != nine


def test_red_fives_are_plain_fives_in_riichi() -> None:
    document = self_played()
    plain = copy.deepcopy(document)
    reds = 0
    for round_ in plain["rounds"]:
        for hand in round_["hands"]:
            reds += sum(tile.startswith("0") for tile in hand)
            hand[:] = [f"5{tile[1]}" if tile.startswith("0") else tile for tile in hand]
        for event in round_["events"]:
            if isinstance(event.get("tile"), str) and event["tile"].startswith("0"):
                event["tile"] = f"5{event['tile'][1]}"
                reds += 1
    assert reds, "the self-played game should hold a red five"
    assert play_identity(plain) == play_identity(document)


def test_where_a_kan_dora_is_shown_is_not_the_game_but_which_it_is() -> None:
    document = self_played()
    moved = copy.deepcopy(document)
    round_ = moved["rounds"][0]
    round_["events"].insert(0, {"type": "dora", "indicator": "1z"})
    later = copy.deepcopy(document)
    later["rounds"][0]["events"].insert(3, {"type": "dora", "indicator": "1z"})
    other = copy.deepcopy(document)
    other["rounds"][0]["events"].insert(3, {"type": "dora", "indicator": "2z"})
    assert play_identity(moved) == play_identity(later) != play_identity(document)
    assert play_identity(other) != play_identity(later)


def test_the_wins_of_a_multiple_ron_in_any_order() -> None:
    document = self_played()
    round_ = document["rounds"][0]
    round_["events"] = [e for e in round_["events"] if e["type"] not in ("win",)]
    wins = [
        {"type": "win", "seat": 2, "from_seat": 0, "tile": "1m"},
        {"type": "win", "seat": 1, "from_seat": 0, "tile": "1m"},
    ]
    one, other = copy.deepcopy(document), copy.deepcopy(document)
    one["rounds"][0]["events"] += wins
    other["rounds"][0]["events"] += list(reversed(wins))
    assert play_identity(one) == play_identity(other)


@pytest.mark.parametrize(
    "change",
    ["dealt tile", "discard", "seat", "call", "indicator", "round", "win"],
)
def test_a_move_of_its_own_is_another_game(change: str) -> None:
    document = self_played()
    other = copy.deepcopy(document)
    round_ = other["rounds"][0]
    if change == "dealt tile":
        round_["hands"][1][0] = "7z" if round_["hands"][1][0] != "7z" else "6z"
    elif change == "discard":
        discard = first(other, "discard")
        discard["tile"] = "7z" if discard["tile"] != "7z" else "6z"
    elif change == "seat":
        draw = first(other, "draw")
        draw["seat"] = (draw["seat"] + 1) % 4
    elif change == "call":
        round_["events"].insert(2, {"type": "pon", "seat": 2, "from_seat": 0, "tile": "1z",
                                    "consumed": ["1z", "1z"]})  # fmt: skip
    elif change == "indicator":
        round_["dora_indicators"] = ["7z" if round_["dora_indicators"][0] != "7z" else "6z"]
    elif change == "round":
        other["rounds"].pop()
    elif change == "win":
        win = first(other, "win")
        win["from_seat"] = (win["from_seat"] + 1) % 4
    assert play_identity(other) != play_identity(document)


def test_different_self_played_games_never_share_an_identity() -> None:
    presets = ("tenhou-4p-east", "tenhou-3p-east", "majsoul-4p-east", "ema-2016")
    documents = [
        self_played(preset, number, seed)
        for seed, preset in enumerate(presets)
        for number in range(3)
    ]
    assert len({play_identity(document) for document in documents}) == len(documents)


def test_the_same_moves_under_other_rules_are_the_same_play() -> None:
    """The rule set is the record's claim (an mjai record cannot say it): bots seeded alike
    under Tenhou's and Mahjong Soul's rules deal and play alike, and that is one play."""
    tenhou, majsoul = self_played("tenhou-4p-east"), self_played("majsoul-4p-east")
    assert tenhou["ruleset"] != majsoul["ruleset"]
    assert play_identity(tenhou) == play_identity(majsoul)


def test_red_fives_are_riichi_s_only() -> None:
    """Another family's dialect may write ``0m`` for a tile of its own (Ùzje's UJMJ reads it),
    which is no red five: its tiles are kept as written."""
    document = self_played("uzje-4p")
    document["rounds"][0]["hands"][0][0] = "0m"
    assert play_content(document)["rounds"][0]["hands"][0].count("0m") == 1
    riichi = self_played()
    riichi["rounds"][0]["hands"][0][0] = "0m"
    assert "0m" not in play_content(riichi)["rounds"][0]["hands"][0]


def test_a_record_without_a_hand_is_told_by_its_header() -> None:
    document = self_played()
    document["rounds"] = []
    other = copy.deepcopy(document)
    other["players"][0]["name"] = "someone else"
    assert play_identity(other) != play_identity(document)


@pytest.mark.corpus
def test_each_corpus_game_has_one_identity_in_every_format() -> None:
    corpus = corpus_dir()
    by_identity: dict[str, list[tuple[str, str]]] = defaultdict(list)
    converted = 0
    for path in sorted(corpus.rglob("*")):
        if not path.is_file() or path.name == "MANIFEST.tsv":
            continue
        try:
            games, fmt = read_games(path.read_bytes(), file_name=path.name)
        except ValueError:
            continue  # not a record, or one the engine refuses: other tests say which
        for index, game in enumerate(games):
            identity = play_identity(canonical.game_to_json(game))
            by_identity[identity].append((f"{path.relative_to(corpus)}#{index}", fmt.name))
            for target in ("tenhou6", "mjai"):
                if target == fmt.name:
                    continue
                try:
                    (back,), _ = read_games(get_format(target).write([game]))
                except ValueError:
                    continue  # a record the format cannot hold (a round without an end)
                assert play_identity(canonical.game_to_json(back)) == identity, (path, target)
                converted += 1
    assert converted > 200
    pairs = [
        copies for copies in by_identity.values() if {"mjlog", "tenhou6"} <= {f for _, f in copies}
    ]
    # Every Tenhou game of the corpus in both formats (mjx's exports, names hidden).
    assert len(pairs) == 31
    assert any("2020081220gm-00a9-0000-9ee6ab3b" in name for copies in pairs for name, _ in copies)
    for copies in by_identity.values():
        names = sorted(name.split("/")[-1] for name, _ in copies)
        if len(copies) == 1:
            continue
        stems = {name.rsplit(".", 1)[0].split("#")[0] for name in names}
        # One game: the same log id in two formats, or RiichiEnv's game before and after its
        # meta fields were injected (the same moves).
        assert len(stems) == 1 or stems == {
            "example_after_injection",
            "example_before_injection",
        }, copies


def with_odd_members(document: Document) -> Document:
    """``document`` with draws and discards the engine would not write: a claim recorded on a
    draw, a member of no known meaning, a tile that is not text, a seat left out, and seats
    that equal a seat's number without being one (``True`` and ``1.0``: as JSON, they are
    not ``1``)."""
    odd = copy.deepcopy(document)
    changes = [
        lambda event: event.update(recorded_note="x"),
        lambda event: event.update(extra=[1, 2]),
        lambda event: event.update(tile=None),
        lambda event: event.pop("seat"),
        lambda event: event.update(seat=True),
        lambda event: event.update(seat=float(event["seat"])),
    ]
    plain = [event for _, _, event in events(odd) if event["type"] in ("draw", "discard")]
    for number, event in enumerate(plain[: 4 * len(changes)]):
        changes[number % len(changes)](event)
    return odd


def content_the_long_way(document: Document) -> dict[str, Any]:
    """:func:`play_content` as the module docstring says it, every move made by ``_move``,
    without the draws' and discards' fast path."""
    plain = identity_module._plain_of(document)
    rounds = []
    for round_ in document["rounds"]:
        hands = [sorted(plain(tile) for tile in hand) for hand in round_.get("hands", ())]
        indicators = [plain(tile) for tile in round_.get("dora_indicators", ())]
        moves = []
        for event in round_.get("events", ()):
            if event["type"] == "dora":
                indicators.append(plain(event["indicator"]))
            elif event["type"] not in identity_module._NOT_MOVES:
                moves.append(identity_module._move(event, plain))
        rounds.append(
            {
                "hands": [hand for hand in hands if hand],
                "indicators": indicators,
                "moves": identity_module._wins_in_seat_order(moves),
            }
        )
    return {"play_identity": PLAY_IDENTITY_VERSION, "rounds": rounds}


@pytest.mark.parametrize("preset", ["tenhou-4p-east", "tenhou-3p-east", "space-4p"])
def test_the_draws_and_discards_fast_path_changes_no_identity(preset: str) -> None:
    documents = [self_played(preset, number) for number in range(2)]
    documents += [with_odd_members(document) for document in documents]
    contents = [play_content(document) for document in documents]
    assert contents == [content_the_long_way(document) for document in documents]
    # The text written from the draws' and discards' kept texts (kept from the plain games,
    # met again in the odd ones) is the content's text.
    for document, content in zip(documents, contents, strict=True):
        assert play_text(document) == json_text(content)
    assert contents[0] != contents[2]  # the odd members count where they change the move
    assert b'"seat":true' in play_text(documents[2])
    assert b'"seat":1.0' in play_text(documents[2])
