"""Riichi's frames (engine/variants/riichi/frames.py, through engine.frames): the table after
every event of a round, checked against the record, the replayer's report and an independent
shanten and waits computation (the ``mahjong`` peer)."""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from engine.events import (
    Chi,
    Discard,
    Draw,
    Event,
    Game,
    GameHeader,
    NorthExtraction,
    OpenKan,
    Player,
    Pon,
    RecordedWin,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    ScoreChange,
    Source,
    Swap,
    Win,
)
from engine.formats import read_games
from engine.frames import (
    RoundFrames,
    discrepancy_step,
    round_frames,
    round_list,
    round_list_after_replay,
)
from engine.replay import ReplayReport, Verdict, replay
from engine.rules.presets import ruleset_of
from engine.rules.ruleset import Ruleset
from engine.sim.selfplay import simulate
from engine.sim.wall import dead_wall_replacements, tile_set
from engine.tiles import KINDS, Tile, parse_tile, parse_tiles
from tests.engine.corpus import corpus_dir, manifest

T = parse_tile

#: Self-played games per preset: enough for calls, kans, kita, riichi, multiple rons and draws.
SELF_PLAYED = {
    "tenhou-4p": 2,
    "tenhou-3p": 2,
    "majsoul-4p": 2,
    "majsoul-3p": 2,
    "minigame-4p": 2,
}


@functools.cache
def self_played(name: str) -> tuple[Game, ...]:
    return tuple(simulate(name, SELF_PLAYED[name], 2024))


def corpus_games() -> list[tuple[str, Game]]:
    """Complete real games: a few 4-player mjlogs, every sanma game, a few tenhou6 files."""
    corpus_dir()
    chosen: list[tuple[str, Game]] = []
    taken: Counter[tuple[str, int]] = Counter()
    for entry in manifest():
        if not entry.complete:
            continue
        key = (entry.format, entry.players)
        if entry.players == 4 and taken[key] >= 3:
            continue
        if entry.format == "mjai_jsonl":
            continue
        taken[key] += 1
        games, _ = read_games(entry.path.read_bytes())
        chosen.append((f"{entry.format}/{entry.name}", games[0]))
    return chosen


@functools.cache
def _corpus() -> tuple[tuple[str, Game], ...]:
    return tuple(corpus_games())


# -- checks shared by every game --------------------------------------------------------------


def tiles_of(names: list[str] | tuple[str, ...]) -> list[Tile]:
    return [T(name) for name in names]


def visible_tiles(frame: dict[str, object], seat_count: int) -> Counter[Tile]:
    """Every tile in play in a frame's JSON: hands, drawn tiles, melds, uncalled discards and
    extracted norths."""
    seen: Counter[Tile] = Counter()
    seats = frame["seats"]
    assert isinstance(seats, list) and len(seats) == seat_count
    for seat in seats:
        seen.update(tiles_of(seat["hand"]))
        if seat["drawn"] is not None:
            seen[T(seat["drawn"])] += 1
        for meld in seat["melds"]:
            seen.update(tiles_of(meld["tiles"]))
        seen.update(T(d["tile"]) for d in seat["discards"] if not d["called"])
        seen[T("4z")] += seat["north"]
    return seen


def undrawn_wall(round_: Round, ruleset: Ruleset, drawn: Counter[Tile]) -> Counter[Tile]:
    """The tiles of a self-played round's wall not drawn yet (live wall, the dead wall's own
    replacement tiles, every indicator)."""
    wall = round_.wall
    assert wall is not None
    tiles: Counter[Tile] = Counter(wall.live)
    tiles.update(wall.replacements[: dead_wall_replacements(ruleset)])
    tiles.update(wall.dora_indicators)
    tiles.update(wall.ura_indicators)
    tiles.subtract(drawn)
    assert all(count >= 0 for count in tiles.values()), "a drawn tile is not in the wall"
    return +tiles


def check_conservation(game: Game, index: int, frames: RoundFrames) -> None:
    """In every frame the tiles in play are the deal plus the draws so far, and with the wall
    and the dead wall they make the whole tile set."""
    ruleset = ruleset_of(game)
    round_ = game.rounds[index]
    total = len(tile_set(ruleset))
    in_play: Counter[Tile] = Counter()
    for hand in round_.hands:
        in_play.update(hand)
    drawn: Counter[Tile] = Counter()
    for frame in frames.frames:
        step = frame.step
        if step:
            event = round_.events[step - 1]
            if isinstance(event, Draw):
                in_play[event.tile] += 1
                drawn[event.tile] += 1
        data = frame.to_json()
        visible = visible_tiles(data, ruleset.players)
        assert visible == in_play, f"{round_.name} step {step}: tiles in play differ"
        assert sum(visible.values()) + frame.wall_left + ruleset.dead_wall == total, (
            f"{round_.name} step {step}: {sum(visible.values())} in play + {frame.wall_left} "
            f"live + {ruleset.dead_wall} dead != {total}"
        )
        by_kind = Counter[int]()
        for tile, count in visible.items():
            by_kind[tile.kind] += count
        for tile in frame.dora_indicators:
            by_kind[T(tile).kind] += 1
        assert max(by_kind.values()) <= 4
        if round_.wall is not None:
            everything = visible + undrawn_wall(round_, ruleset, drawn)
            assert everything == Counter(tile_set(ruleset)), f"{round_.name} step {step}"


def check_against_report(game: Game, report: ReplayReport) -> None:
    """Each round's last frame: the report's scores, result, wins (han, fu, yaku, points)."""
    for summary in report.rounds:
        frames = round_frames(game, summary.index)
        last = frames.frames[-1]
        assert frames.result == summary.result
        assert [seat.score for seat in last.seats] == summary.scores_after, summary.name
        result = last.result
        assert result is not None
        assert result.type == summary.result
        assert list(result.deltas) == summary.deltas
        assert list(result.scores_after) == summary.scores_after
        ours = [
            (w.seat, w.from_seat, w.han, w.fu, list(w.yaku), w.limit, w.points, list(w.deltas))
            for w in result.wins
        ]
        theirs = [
            (
                w.seat,
                None if w.from_seat == w.seat else w.from_seat,
                w.han,
                w.fu,
                w.yaku,
                w.limit,
                w.points,
                w.deltas,
            )
            for w in summary.wins
        ]
        assert ours == theirs, summary.name
        if result.type == "exhaustive_draw":
            assert [hand.seat for hand in result.tenpai] == summary.tenpai
        if result.type == "abortive_draw":
            assert result.kind == summary.abort


def check_rivers(game: Game, index: int, frames: RoundFrames) -> None:
    """Discards in order with the record's tsumogiri flags; the riichi flag on the discard right
    after each declaration and nowhere else; called flags on the discards taken by a call."""
    round_ = game.rounds[index]
    expected: list[list[dict[str, object]]] = [[] for _ in range(game.players)]
    declared = [False] * game.players
    for frame in frames.frames:
        step = frame.step
        if step:
            event = round_.events[step - 1]
            if isinstance(event, RiichiDeclared):
                declared[event.seat] = True
            elif isinstance(event, Discard):
                expected[event.seat].append(
                    {
                        "tile": str(event.tile),
                        "tsumogiri": event.tsumogiri,
                        "riichi": declared[event.seat],
                        "called": False,
                    }
                )
                declared[event.seat] = False
            elif isinstance(event, Chi | Pon | OpenKan):
                expected[event.from_seat][-1]["called"] = True
        for seat, data in enumerate(frame.seats):
            assert [d.to_json() for d in data.discards] == expected[seat], (
                f"{round_.name} step {step} seat {seat}"
            )


def check_scores(game: Game, index: int, frames: RoundFrames) -> None:
    """Scores in every frame: the round's start, the riichi sticks paid and score changes so
    far, and once the hand has ended its result (each win's deltas as they come: a double ron
    shows the first win before the second); each seat's delta is the change from the frame
    before."""
    round_ = game.rounds[index]
    running = list(round_.scores)
    before = list(round_.scores)
    for frame in frames.frames:
        if frame.step:
            event = round_.events[frame.step - 1]
            if isinstance(event, RiichiAccepted):
                running[event.seat] -= 1000
            elif isinstance(event, ScoreChange):
                running = [a + b for a, b in zip(running, event.deltas, strict=True)]
        expected = list(running)
        result = frame.result
        if result is not None:
            if result.type == "win":
                deltas = [
                    sum(win.deltas[seat] for win in result.wins) for seat in range(game.players)
                ]
            else:
                deltas = list(result.deltas)
            assert list(result.deltas) == deltas
            expected = [a + b for a, b in zip(expected, deltas, strict=True)]
            assert list(result.scores_after) == expected
        scores = [seat.score for seat in frame.seats]
        assert scores == expected, f"{round_.name} step {frame.step}"
        assert [seat.delta for seat in frame.seats] == [
            a - b for a, b in zip(scores, before, strict=True)
        ]
        before = scores


def check_ura(game: Game, index: int, frames: RoundFrames) -> None:
    """Ura indicators: in the frames of a round won by a riichi hand (as many as the dora
    indicators: kan ura), nowhere else."""
    round_ = game.rounds[index]
    last = frames.frames[-1]
    riichi = {event.seat for event in round_.events if isinstance(event, RiichiDeclared)}
    winners = {win.seat for win in last.result.wins} if last.result is not None else set()
    if winners & riichi:
        if round_.wall is not None:
            stack = round_.wall.ura_indicators[: len(last.dora_indicators)]
        else:
            stack = round_.ura_indicators
        assert last.ura_indicators == tuple(map(str, stack))
        assert last.ura_indicators
    else:
        assert all(frame.ura_indicators == () for frame in frames.frames)


_SHANTEN = Shanten()
_AGARI = Agari()


@functools.cache
def peer_analysis(counts: tuple[int, ...], three_player: bool) -> tuple[int, tuple[int, ...]]:
    """Shanten and waits by the ``mahjong`` package."""
    number = _SHANTEN.calculate_shanten(list(counts), is_three_player=three_player)
    waits: list[int] = []
    if number == 0 and sum(counts) % 3 == 1:
        work = list(counts)
        for kind in range(KINDS):
            if work[kind] >= 4:
                continue
            work[kind] += 1
            if _AGARI.is_agari(work):
                waits.append(kind)
            work[kind] -= 1
    return number, tuple(waits)


def public_kinds(frame: dict[str, object]) -> Counter[int]:
    """Copies of each kind every seat sees in a frame's JSON: uncalled discards, melds,
    extracted norths, dora indicators."""
    seen: Counter[int] = Counter()
    seats = frame["seats"]
    assert isinstance(seats, list)
    for seat in seats:
        seen.update(T(d["tile"]).kind for d in seat["discards"] if not d["called"])
        for meld in seat["melds"]:
            seen.update(T(tile).kind for tile in meld["tiles"])
        seen[T("4z").kind] += seat["north"]
    indicators = frame["dora_indicators"]
    assert isinstance(indicators, list)
    seen.update(T(tile).kind for tile in indicators)
    return seen


def check_analysis(game: Game, frames: RoundFrames) -> int:
    """Every seat's shanten and waits in every frame equal the peer's, and each wait's unseen
    copies are four less those in the seat's hand and in view; returns the checks made."""
    three_player = game.players == 3
    checked = 0
    for frame in frames.frames:
        public = public_kinds(frame.to_json()) if any(s.waits for s in frame.seats) else None
        for seat in frame.seats:
            counts = [0] * KINDS
            for tile in tiles_of(seat.hand) + ([T(seat.drawn)] if seat.drawn else []):
                counts[tile.kind] += 1
            number, waits = peer_analysis(tuple(counts), three_player)
            assert seat.shanten == number, f"{frames.name} step {frame.step}: {seat.hand}"
            assert [T(w.tile).kind for w in seat.waits] == list(waits), (
                f"{frames.name} step {frame.step}: {seat.hand}"
            )
            for wait in seat.waits:
                assert public is not None
                kind = T(wait.tile).kind
                assert wait.unseen == max(0, 4 - counts[kind] - public[kind])
            checked += 1
    return checked


def check_game(game: Game) -> None:
    report = replay(game)
    assert report.verdict is Verdict.VERIFIED
    for index in range(len(game.rounds)):
        frames = round_frames(game, index)
        assert frames.stopped is None
        assert len(frames.frames) == len(game.rounds[index].events) + 1
        assert [frame.step for frame in frames.frames] == list(range(len(frames.frames)))
        check_conservation(game, index, frames)
        check_rivers(game, index, frames)
        check_scores(game, index, frames)
        check_ura(game, index, frames)
        assert check_analysis(game, frames) > 0
    check_against_report(game, report)
    assert [info.result for info in round_list(game)] == [r.result for r in report.rounds]


# -- self-played and real games ---------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SELF_PLAYED))
def test_self_played_frames(name: str) -> None:
    for game in self_played(name):
        check_game(game)


@pytest.mark.corpus
def test_corpus_frames() -> None:
    games = _corpus()
    assert any(game.players == 3 for _, game in games)
    assert any(game.players == 4 for _, game in games)
    for name, game in games:
        try:
            check_game(game)
        except AssertionError as error:
            raise AssertionError(f"{name}: {error}") from error


def test_multiple_ron_frames() -> None:
    """A double ron: the first win's frame shows it alone, the last one both, settled as the
    report says (the mini-game gives the sticks to the winner nearest the dealer)."""
    game = self_played("minigame-4p")[1]
    report = replay(game)
    index = next(
        i
        for i, round_ in enumerate(game.rounds)
        if sum(isinstance(e, Win) for e in round_.events) > 1
    )
    frames = round_frames(game, index)
    first, last = frames.frames[-2], frames.frames[-1]
    assert first.result is not None and len(first.result.wins) == 1
    assert last.result is not None and len(last.result.wins) == 2
    summary = report.rounds[index]
    assert [seat.score for seat in last.seats] == summary.scores_after
    moved = [
        a + b
        for a, b in zip(
            [seat.delta for seat in first.seats], [seat.delta for seat in last.seats], strict=True
        )
    ]
    assert moved == summary.deltas


def test_checks_catch_a_broken_frame() -> None:
    """The checks above fail on frames that lose a tile, mark the wrong riichi tile, or show
    another score (each check can fail)."""
    game = self_played("tenhou-4p")[0]
    index = next(
        i
        for i, round_ in enumerate(game.rounds)
        if any(isinstance(e, RiichiDeclared) for e in round_.events)
    )
    frames = round_frames(game, index)
    step = len(frames.frames) // 2
    frame = frames.frames[step]
    seat0 = frame.seats[0]
    lost = dataclasses.replace(seat0, hand=seat0.hand[1:])
    broken = dataclasses.replace(frame, seats=(lost, *frame.seats[1:]))
    bad = dataclasses.replace(
        frames, frames=(*frames.frames[:step], broken, *frames.frames[step + 1 :])
    )
    with pytest.raises(AssertionError, match="tiles in play"):
        check_conservation(game, index, bad)
    last = frames.frames[-1]
    for seat, data in enumerate(last.seats):
        flagged = [i for i, d in enumerate(data.discards) if d.riichi]
        if flagged:
            # The flag moves from the riichi discard to the first discard of the hand (or off
            # the river when that was the riichi discard).
            moved = tuple(
                dataclasses.replace(d, riichi=i == 0 and flagged[0] != 0)
                for i, d in enumerate(data.discards)
            )
            seats = list(last.seats)
            seats[seat] = dataclasses.replace(data, discards=moved)
            wrong = dataclasses.replace(last, seats=tuple(seats))
            bad = dataclasses.replace(frames, frames=(*frames.frames[:-1], wrong))
            with pytest.raises(AssertionError):
                check_rivers(game, index, bad)
            break
    else:
        pytest.fail("no riichi tile in the round")
    wrong_analysis = dataclasses.replace(
        last, seats=(dataclasses.replace(last.seats[0], shanten=7), *last.seats[1:])
    )
    bad = dataclasses.replace(frames, frames=(wrong_analysis,))
    with pytest.raises(AssertionError):
        check_analysis(game, bad)


# -- a hand-made round: scores, turns, words, waits and unseen copies ----------------------------


#: Seat 0 (dealer) is tenpai on 2m-5m from the deal; the dora indicator is a plain 5m.
HAND_MADE_HANDS = (
    "1233m4m456p789s22z",  # seat 0: 123m 34m 456p 789s 22z, waits 2m 5m
    "111p23p999m111s33z",  # seat 1
    "50m2m78m22p234s666z",  # seat 2: holds 5m 0m for a pon, 2m to discard
    "34m66m678p567s777z",  # seat 3: 3m 4m for a chi on 2m
)


def hand_made_game(
    events: tuple[Event, ...],
    ruleset: str = "tenhou-4p",
    hands: tuple[str, ...] = HAND_MADE_HANDS,
    dora: str = "5m",
) -> Game:
    players = len(hands)
    round_ = Round(
        wind=0,
        number=1,
        dealer=0,
        honba=0,
        sticks=0,
        scores=(25000 if players == 4 else 35000,) * players,
        hands=tuple(tuple(parse_tiles(hand)) for hand in hands),
        dora_indicators=(T(dora),),
        events=events,
    )
    header = GameHeader(
        ruleset=ruleset,
        rule_overrides={},
        players=tuple(Player(name) for name in ("Ann", "Ben", "Cat", "Dan")[:players]),
        source=Source("canonical"),
    )
    return Game(header=header, rounds=(round_,))


HAND_MADE_EVENTS: tuple[Event, ...] = (
    Draw(0, T("9p")),
    Discard(0, T("9p"), tsumogiri=True),
    Draw(1, T("5m")),
    Discard(1, T("5m"), tsumogiri=True),
    Pon(2, 1, T("5m"), (T("5m"), T("0m"))),
    Discard(2, T("2m")),
    Chi(3, 2, T("2m"), (T("3m"), T("4m"))),
    Discard(3, T("6m")),
)


def test_waits_and_unseen_copies_by_hand() -> None:
    frames = round_frames(hand_made_game(HAND_MADE_EVENTS), 0)
    assert frames.stopped is None and len(frames.frames) == 9

    def waits(step: int) -> list[tuple[str, int]]:
        return [(w.tile, w.unseen) for w in frames.frames[step].seats[0].waits]

    # The deal: seat 0 holds one 2m; one 5m is the dora indicator.
    assert waits(0) == [("2m", 3), ("5m", 3)]
    assert frames.frames[0].seats[0].shanten == 0
    # After Ben's 5m: that 5m is in a river.
    assert waits(4) == [("2m", 3), ("5m", 2)]
    # Cat's pon shows 5m 5m 0m (the discard once, in the meld: the red five is a 5m);
    # then Cat's 2m is called by Dan's chi: one 2m in a meld, one in Ann's hand.
    assert waits(8) == [("2m", 2), ("5m", 0)]
    # Only the 3n+1 hand of a tenpai seat has waits; after the draw Ann holds 14 tiles.
    assert frames.frames[1].seats[0].waits == ()
    assert frames.frames[1].seats[0].drawn == "9p"
    assert "9p" not in frames.frames[1].seats[0].hand


def test_extracted_north_is_seen_by_every_seat() -> None:
    """Sanma: Ann waits on North alone; Ben's extracted North is one copy fewer unseen."""
    hands = (
        "111m999m123p789s4z",  # seat 0: tanki on North
        "223344p55s666z77z",  # seat 1
        "556677p1133s555z",  # seat 2
    )
    events = (
        Draw(0, T("8p")),
        Discard(0, T("8p"), tsumogiri=True),
        Draw(1, T("4z")),
        NorthExtraction(1, T("4z")),
        Draw(1, T("2s")),
        Discard(1, T("2s"), tsumogiri=True),
    )
    game = hand_made_game(events, "tenhou-3p", hands, dora="9p")
    frames = round_frames(game, 0)
    assert frames.stopped is None

    def waits(step: int) -> list[tuple[str, int]]:
        return [(w.tile, w.unseen) for w in frames.frames[step].seats[0].waits]

    assert waits(3) == [("4z", 3)]  # Ben's drawn North is in his hand, unseen by Ann
    assert waits(4) == [("4z", 2)]
    assert frames.frames[4].seats[1].north == 1
    texts = [frame.action.text for frame in frames.frames[4:6] if frame.action]
    assert texts == ["Ben sets a North aside (kita)", "Ben draws 2s from the dead wall"]
    assert frames.frames[5].wall_left == frames.frames[3].wall_left - 1


def test_hand_made_round_words_turns_and_melds() -> None:
    frames = round_frames(hand_made_game(HAND_MADE_EVENTS), 0)
    texts = [frame.action.text for frame in frames.frames[1:] if frame.action]
    assert texts == [
        "Ann draws 9p",
        "Ann discards 9p (the tile just drawn)",
        "Ben draws 5m",
        "Ben discards 5m (the tile just drawn)",
        "Cat calls pon on 5m from Ben",
        "Cat discards 2m",
        "Dan calls chi on 2m from Cat",
        "Dan discards 6m",
    ]
    assert [frame.turn for frame in frames.frames] == [0, 0, 0, 1, 1, 2, 2, 3, 3]
    pon = frames.frames[5]
    assert pon.action is not None
    assert pon.action.to_json() == {
        "type": "pon",
        "seat": 2,
        "tile": "5m",
        "from": 1,
        "tiles": ["5m", "0m"],
        "text": "Cat calls pon on 5m from Ben",
    }
    assert [m.to_json() for m in pon.seats[2].melds] == [
        {"type": "pon", "tiles": ["0m", "5m", "5m"], "called": "5m", "from": 1}
    ]
    assert pon.seats[1].discards[-1].called
    assert frames.frames[0].action is None
    assert frames.frames[0].wall_left == 70
    assert frames.frames[3].wall_left == 68
    assert frames.result == "unfinished"
    assert frames.frames[-1].result is None


def test_riichi_stick_delta_and_flag() -> None:
    events = (
        Draw(0, T("9p")),
        RiichiDeclared(0),
        Discard(0, T("9p"), tsumogiri=True),
    )
    frames = round_frames(hand_made_game((*events, RiichiAccepted(0))), 0)
    declared, discarded, accepted = frames.frames[2], frames.frames[3], frames.frames[4]
    assert declared.action is not None and declared.action.text == "Ann declares riichi"
    assert not declared.seats[0].riichi
    assert discarded.seats[0].discards[0].riichi
    assert discarded.action is not None
    assert discarded.action.text == "Ann discards 9p (the tile just drawn, riichi)"
    assert [seat.delta for seat in accepted.seats] == [-1000, 0, 0, 0]
    assert accepted.seats[0].score == 24000 and accepted.riichi_sticks == 1
    assert accepted.seats[0].riichi
    assert [seat.delta for seat in discarded.seats] == [0, 0, 0, 0]


def test_ron_result_frame() -> None:
    # Ben discards 5m and Ann (dealer, tenpai on 2m-5m, no yaku but riichi) rons it.
    events = (
        Draw(0, T("9p")),
        RiichiDeclared(0),
        Discard(0, T("9p"), tsumogiri=True),
        RiichiAccepted(0),
        Draw(1, T("5m")),
        Discard(1, T("5m"), tsumogiri=True),
        Win(0, 1, T("5m")),
    )
    game = hand_made_game(events)
    frames = round_frames(game, 0)
    report = replay(game)
    last = frames.frames[-1]
    assert last.result is not None and last.result.type == "win"
    (win,) = last.result.wins
    (summary,) = report.rounds[0].wins
    assert (win.seat, win.from_seat, win.han, win.fu, win.points) == (
        0,
        1,
        summary.han,
        summary.fu,
        summary.points,
    )
    assert win.tile == "5m" and len(win.hand) == 13
    assert [seat.score for seat in last.seats] == report.rounds[0].scores_after
    assert [seat.delta for seat in last.seats] == list(win.deltas)
    assert last.ura_indicators == ()  # no ura recorded for this round; a riichi win shows them
    assert last.action is not None and last.action.text == "Ann wins by ron on 5m from Ben"
    assert last.riichi_sticks == 0
    assert frames.result == "win"


# -- illegal events and discrepancies ----------------------------------------------------------


def test_illegal_event_stops_the_frames_at_the_state_it_was_tried_on() -> None:
    events = (*HAND_MADE_EVENTS[:3], Discard(1, T("7z")), *HAND_MADE_EVENTS[4:])
    game = hand_made_game(events)
    frames = round_frames(game, 0)
    assert frames.stopped is not None and frames.stopped.event == 3
    assert "do not hold" in frames.stopped.reason
    assert len(frames.frames) == 4 and frames.frames[-1].step == 3
    assert frames.frames[-1].seats[1].drawn == "5m"
    assert frames.result == "unfinished"
    report = replay(game)
    assert report.discrepancy is not None
    assert report.discrepancy.verdict is Verdict.ILLEGAL_ACTION
    assert discrepancy_step(report.discrepancy.to_json(), frames) == 3


def test_score_mismatch_step_is_the_frame_after_the_event() -> None:
    game = self_played("tenhou-4p")[0]
    index, number, win = next(
        (i, n, e)
        for i, round_ in enumerate(game.rounds)
        for n, e in enumerate(round_.events)
        if isinstance(e, Win) and e.recorded is not None and e.recorded.points is not None
    )
    assert win.recorded is not None and win.recorded.points is not None
    changed = dataclasses.replace(
        win, recorded=dataclasses.replace(win.recorded, points=win.recorded.points + 100)
    )
    round_ = game.rounds[index]
    events = list(round_.events)
    events[number] = changed
    rounds = list(game.rounds)
    rounds[index] = dataclasses.replace(round_, events=tuple(events))
    mutated = dataclasses.replace(game, rounds=tuple(rounds))
    report = replay(mutated)
    assert report.discrepancy is not None and report.discrepancy.round == index
    frames = round_frames(mutated, index)
    step = discrepancy_step(report.discrepancy.to_json(), frames)
    assert step == number + 1
    action = frames.frames[step].action
    assert action is not None and action.type == "win"


def test_impossible_deal_gives_one_frame() -> None:
    game = hand_made_game(HAND_MADE_EVENTS)
    round_ = game.rounds[0]
    short = dataclasses.replace(round_, hands=(round_.hands[0][:12], *round_.hands[1:]))
    game = dataclasses.replace(game, rounds=(short,))
    frames = round_frames(game, 0)
    assert frames.stopped is not None and frames.stopped.event is None
    assert len(frames.frames) == 1
    assert len(frames.frames[0].seats[0].hand) == 12
    deal = {"verdict": "illegal_action", "event": None, "what": "deal"}
    assert discrepancy_step(deal, frames) == 0
    assert round_list(game)[0].result == "unfinished"


def test_round_out_of_range() -> None:
    with pytest.raises(IndexError):
        round_frames(hand_made_game(HAND_MADE_EVENTS), 1)


def test_frames_json_shape() -> None:
    game = self_played("tenhou-3p")[0]
    data = round_frames(game, 0).to_json()
    assert set(data) == {"players", "players_count", "ruleset", "round", "frames"}
    assert data["players_count"] == 3 and data["ruleset"] == "tenhou-3p"
    frame = data["frames"][0]
    assert set(frame) == {
        "step", "action", "round_name", "honba", "riichi_sticks", "dealer", "wall_left",
        "dora_indicators", "ura_indicators", "turn", "seats", "result", "study",
    }  # fmt: skip
    assert frame["study"] is None  # the deal: nobody has chosen a discard
    study = next(frame["study"] for frame in data["frames"] if frame["study"])
    assert set(study) == {
        "seat", "shanten", "best", "discard", "kept", "loss", "unseen", "options", "riichi",
        "trade",
    }  # fmt: skip
    assert set(study["options"][0]) == {"tile", "shanten", "count", "tiles", "yaku", "safety"}
    assert set(frame["seats"][0]) == {
        "hand", "drawn", "discards", "melds", "north", "score", "delta", "riichi", "shanten",
        "waits",
    }  # fmt: skip
    last = data["frames"][-1]
    assert last["result"]["type"] in {"win", "exhaustive_draw", "nagashi_mangan", "abortive_draw"}
    assert set(last["result"]) >= {"type", "deltas", "scores_after"}


def _norths(games: tuple[Game, ...]) -> Iterator[int]:
    for game in games:
        for index in range(len(game.rounds)):
            yield max(seat.north for seat in round_frames(game, index).frames[-1].seats)


def test_sanma_frames_show_extracted_norths() -> None:
    assert max(_norths(self_played("tenhou-3p"))) > 0


def test_recorded_values_are_not_the_frames_values() -> None:
    """The wins shown are the engine's: a record claiming other points does not change them."""
    game = self_played("tenhou-4p")[0]
    index, number, win = next(
        (i, n, e)
        for i, round_ in enumerate(game.rounds)
        for n, e in enumerate(round_.events)
        if isinstance(e, Win)
    )
    fake = dataclasses.replace(win, recorded=RecordedWin(han=13, fu=20, points=1))
    round_ = game.rounds[index]
    events = list(round_.events)
    events[number] = fake
    rounds = list(game.rounds)
    rounds[index] = dataclasses.replace(round_, events=tuple(events))
    honest = round_frames(game, index).frames[number + 1].result
    claimed = round_frames(dataclasses.replace(game, rounds=tuple(rounds)), index)
    assert claimed.frames[number + 1].result == honest


# -- the round list read from a replay --------------------------------------------------------


def _listed(rounds: list[Any]) -> list[dict[str, Any]]:
    return [info.to_json() for info in rounds]


@pytest.mark.corpus
def test_the_round_list_read_from_the_replay_is_the_replayed_one() -> None:
    """Every corpus game (whole games, fragments and the record that stops inside a hand, which
    the report does not list to its end) and self-played games of several rule sets."""
    corpus_dir()
    games = [read_games(entry.path.read_bytes())[0][0] for entry in manifest()]
    games += [game for name in sorted(SELF_PLAYED) for game in self_played(name)]
    shortened = 0
    for game in games:
        report = replay(game)
        shortened += len(report.rounds) < len(game.rounds)
        assert _listed(round_list_after_replay(game, report)) == _listed(round_list(game))
    assert shortened  # the fallback was taken at least once


def test_a_game_the_replay_disagrees_with_has_its_rounds_replayed() -> None:
    game = self_played("tenhou-4p")[0]
    first = game.rounds[0]
    changed = dataclasses.replace(first, scores=(first.scores[0] + 1000, *first.scores[1:]))
    broken = dataclasses.replace(game, rounds=(changed, *game.rounds[1:]))
    report = replay(broken)
    assert report.verdict is Verdict.SCORE_MISMATCH
    listed = _listed(round_list_after_replay(broken, report))
    assert listed == _listed(round_list(broken)) and len(listed) == len(broken.rounds)


def test_a_swap_under_the_swap_modifier_is_shown() -> None:
    """A seat swaps a concealed tile with a dora indicator (the ``swap`` rule modifier): every
    round of a self-played game has its frames, and the swap's frame says so in words, shows
    the tile among the indicators and the indicator in the seat's hand."""
    game = next(iter(simulate("tenhou-4p", 1, 1, modifiers=("swap",))))
    assert replay(game).verdict is Verdict.VERIFIED
    swaps = 0
    for index, round_ in enumerate(game.rounds):
        frames = round_frames(game, index)
        assert frames.stopped is None and frames.result != "unfinished"
        assert len(frames.frames) == len(round_.events) + 1
        for number, event in enumerate(round_.events):
            if not isinstance(event, Swap):
                continue
            swaps += 1
            before, after = frames.frames[number], frames.frames[number + 1]
            action = after.action
            assert action is not None and action.type == "swap" and action.seat == event.seat
            tile, indicator = str(event.tile), str(event.indicator)
            assert action.details == {"tile": tile, "indicator": indicator}
            assert action.text == (
                f"{frames.players[event.seat]} swaps {tile} with the dora indicator {indicator}"
            )
            assert action.to_json()["type"] == "swap"
            place = before.dora_indicators.index(indicator)
            assert after.dora_indicators[place] == tile
            hand = Counter(after.seats[event.seat].hand)
            assert hand - Counter(before.seats[event.seat].hand) >= Counter([indicator])
    assert swaps
