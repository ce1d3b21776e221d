"""Self-play: generated games replay as verified under every preset, are reproducible from their
seed, deal every tile exactly once, and show the whole game (riichi, calls, wins, draws)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from engine.bots import Bot
from engine.errors import SimulationError
from engine.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    Game,
    NagashiMangan,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Wall,
    Win,
)
from engine.formats import canonical, tenhou6
from engine.replay import Verdict, replay
from engine.rules.presets import PRESETS, get_ruleset
from engine.rules.ruleset import Ruleset
from engine.sim import selfplay
from engine.sim.bots import GreedyBot, RandomBot
from engine.sim.selfplay import play_game, simulate
from engine.sim.wall import INDICATORS, dead_wall_replacements, deal, live_tiles, tile_set
from engine.state import GameState, Phase
from engine.tiles import EAST, KINDS, SANMA_MISSING, Tile, parse_tile
from tests.engine.dealt import dealt_state

SEED = 20240601
GAMES = 20
SLOW_GAMES = 10_000


def mixed_bots(players: int) -> selfplay.BotFactory:
    """Bots for one game: none, one or two random bots (at random seats, with a random pass
    rate) among greedy ones."""

    def make(rng: random.Random) -> Sequence[Bot]:
        randoms = set(rng.sample(range(players), rng.randrange(3)))
        return [
            RandomBot(rng, pass_rate=rng.choice((0.2, 0.5, 0.9)))
            if seat in randoms
            else GreedyBot()
            for seat in range(players)
        ]

    return make


def unverified(games: Iterable[Game]) -> list[str]:
    """Every game that does not replay as verified and complete, with the first discrepancy."""
    problems = []
    for game in games:
        report = replay(game)
        if report.verdict is not Verdict.VERIFIED:
            assert report.discrepancy is not None
            problems.append(f"{game.header.source.id}: {report.discrepancy.message}")
        elif not report.complete:
            problems.append(f"{game.header.source.id}: the record stops before the game's end")
    return problems


def events_of(games: Iterable[Game]) -> Iterable[tuple[Round, Event]]:
    for game in games:
        for round_ in game.rounds:
            for event in round_.events:
                yield round_, event


_REPLACED = (ClosedKan, OpenKan, AddedKan, NorthExtraction)


def next_action(events: Sequence[Event], index: int) -> Event | None:
    """The first event after ``events[index]`` that is not a dora reveal."""
    for event in events[index + 1 :]:
        if not isinstance(event, DoraRevealed):
            return event
    return None


def convention_problems(game: Game) -> list[str]:
    """Where a generated record breaks the canonical record's conventions, checked from the
    record and its wall alone (not through the state machine): draws in wall order, the
    tsumogiri flag, riichi, call and kan sequences, multiple rons in turn order, points kept."""
    ruleset = get_ruleset(game.header.ruleset)
    players = ruleset.players
    tiles_left = live_tiles(ruleset)
    problems: list[str] = []
    for index, round_ in enumerate(game.rounds):
        where = f"{game.header.source.id} hand {index} ({round_.name})"
        if sum(round_.scores) + 1000 * round_.sticks != players * ruleset.starting_points:
            problems.append(f"{where}: the points and sticks do not add up")
        wall = round_.wall
        assert wall is not None
        live, spare = iter(wall.live), iter(wall.replacements)
        dora = iter(wall.dora_indicators[1:])
        replacement_due = False
        drawn: dict[int, Tile | None] = {}
        draws = 0
        events = round_.events
        for number, event in enumerate(events):
            at = f"{where}, event {number} {event}"
            if isinstance(event, Draw):
                expected = next(spare) if replacement_due else next(live)
                replacement_due = False
                draws += 1
                if event.tile != expected:
                    problems.append(f"{at}: the wall gives {expected}")
                drawn[event.seat] = event.tile
            elif isinstance(event, DoraRevealed):
                if event.indicator != next(dora):
                    problems.append(f"{at}: not the wall's next indicator")
                after = events[number + 1] if number + 1 < len(events) else None
                if isinstance(after, Win) and after.tsumo:
                    # An open kan's indicator is turned at the discard: a rinshan win is first.
                    problems.append(f"{at}: turned before a tsumo")
            elif isinstance(event, Discard):
                if event.tsumogiri != (event.tile == drawn.get(event.seat)):
                    problems.append(f"{at}: wrong tsumogiri flag")
                drawn[event.seat] = None
            elif isinstance(event, RiichiDeclared):
                discard = next_action(events, number)
                if not (isinstance(discard, Discard) and discard.seat == event.seat):
                    problems.append(f"{at}: not followed by the riichi discard")
                answer = next_action(events, number + 1)
                if not (
                    answer == RiichiAccepted(event.seat)
                    or (isinstance(answer, Win) and answer.from_seat == event.seat)
                    or isinstance(answer, AbortiveDraw)
                ):
                    problems.append(f"{at}: the riichi discard is neither accepted nor ronned")
            elif isinstance(event, Chi | Pon):
                drawn[event.seat] = None
                discard = next_action(events, number)
                if not (isinstance(discard, Discard) and discard.seat == event.seat):
                    problems.append(f"{at}: the caller does not discard next")
            elif isinstance(event, _REPLACED):
                replacement_due = True
                drawn[event.seat] = None
                answer = next_action(events, number)
                if not (
                    (isinstance(answer, Draw) and answer.seat == event.seat)
                    or isinstance(answer, Win | AbortiveDraw)
                ):
                    problems.append(f"{at}: neither a replacement draw nor a robbing ron follows")
        if draws > tiles_left:
            problems.append(f"{where}: {draws} draws from a wall of {tiles_left}")
        end = round_.events[-1]
        if isinstance(end, ExhaustiveDraw | NagashiMangan) and draws != tiles_left:
            problems.append(f"{where}: the wall ran out after {draws} of {tiles_left} draws")
        wins = [event for event in round_.events if isinstance(event, Win)]
        if len(wins) > 1:
            source = wins[0].from_seat
            order = [(win.seat - source) % players for win in wins]
            if order != sorted(order) or any(win.from_seat != source for win in wins):
                problems.append(f"{where}: rons not in turn order from seat {source}")
    final = game.recorded_final
    assert final is not None
    # (Where leftover sticks stay on the table, JPML's 供託, the final scores are short of them.)
    short = sum(final.scores) + 1000 * game.rounds[-1].sticks < players * ruleset.starting_points
    if short and ruleset.leftover_sticks_to_first:
        problems.append(f"{game.header.source.id}: final scores lose points")
    return problems


# -- every preset ---------------------------------------------------------------------------

PRESET_PARAMS = sorted(PRESETS)


def game_problems(games: Iterable[Game], limit: int = 20) -> list[str]:
    """The convention breaks and replay discrepancies of the games (the first ``limit``)."""
    problems: list[str] = []
    for game in games:
        problems += convention_problems(game) + unverified([game])
        if len(problems) >= limit:
            break
    return problems[:limit]


@pytest.mark.parametrize("name", PRESET_PARAMS)
def test_self_played_games_replay_verified(name: str) -> None:
    players = PRESETS[name].players
    assert game_problems(simulate(name, GAMES, SEED, bots=mixed_bots(players))) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_PARAMS)
def test_many_self_played_games_replay_verified(name: str) -> None:
    players = PRESETS[name].players
    assert game_problems(simulate(name, SLOW_GAMES, SEED + 1, bots=mixed_bots(players))) == []


@pytest.mark.parametrize("name", ["tenhou-4p-east", "ema-2016", "tenhou-3p-east"])
def test_generated_discards_are_exactly_those_the_check_allows(name: str) -> None:
    # legal_actions generates its discards instead of checking each one; at every turn of these
    # games (riichi declarations and swap-call limits included) they must be exactly the held
    # tiles why_illegal lets go, each once, flagged tsumogiri when it is the tile just drawn.
    ruleset = get_ruleset(name)
    turns = 0
    for game in simulate(name, 6, SEED + 2, bots=mixed_bots(ruleset.players)):
        for round_ in game.rounds:
            state = GameState(ruleset)
            state.start_round(round_)
            for event in round_.events:
                if state.phase in (Phase.ACT, Phase.RIICHI):
                    seat = state.turn
                    generated = [e for e in state.legal_actions() if isinstance(e, Discard)]
                    allowed = {
                        tile
                        for tile in state.seats[seat].tiles()
                        if state.is_legal(Discard(seat, tile))
                        or state.is_legal(Discard(seat, tile, tsumogiri=True))
                    }
                    at = f"{round_.name}, before {event}"
                    assert sorted(e.tile for e in generated) == sorted(allowed), at
                    assert all(e.tsumogiri == (e.tile == state.last_draw) for e in generated), at
                    turns += 1
                state.apply(event)
    assert turns > 500


# -- records --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def greedy_games() -> list[Game]:
    """200 East-only games of four greedy bots (shared by the checks below)."""
    return list(simulate("tenhou-4p-east", 200, SEED))


@pytest.fixture(scope="module")
def sanma_games() -> list[Game]:
    return list(simulate("tenhou-3p-east", 40, SEED, bots=mixed_bots(3)))


def test_greedy_games_show_the_whole_game(greedy_games: list[Game]) -> None:
    seen: Counter[str] = Counter()
    for _, event in events_of(greedy_games):
        if isinstance(event, Win):
            seen["tsumo" if event.tsumo else "ron"] += 1
        else:
            seen[type(event).__name__] += 1
    rounds = sum(len(game.rounds) for game in greedy_games)
    for what in ("RiichiDeclared", "Chi", "Pon", "ron", "tsumo", "ExhaustiveDraw"):
        assert seen[what] > 0, f"no {what} in {rounds} hands: {dict(seen)}"
    # Not only present but common: bots that almost never call or win would pass the above.
    assert seen["ron"] + seen["tsumo"] > rounds / 2
    assert seen["Chi"] + seen["Pon"] > rounds / 2
    assert seen["RiichiDeclared"] > rounds / 4


def test_sanma_games_extract_north_and_never_chi(sanma_games: list[Game]) -> None:
    kinds = Counter(type(event) for _, event in events_of(sanma_games))
    assert kinds[NorthExtraction] > 0
    assert kinds[Chi] == 0
    assert all(len(round_.hands) == 3 for game in sanma_games for round_ in game.rounds)


def test_records_carry_the_values_replay_compares(greedy_games: list[Game]) -> None:
    # A record without recorded values would replay as verified with nothing compared.
    for game in greedy_games[:20]:
        assert game.recorded_final is not None
        assert len(game.recorded_final.scores) == 4
        for round_ in game.rounds:
            end = round_.events[-1]
            if isinstance(end, ExhaustiveDraw):
                assert end.recorded_deltas is not None and end.recorded_tenpai is not None
            if isinstance(end, NagashiMangan | AbortiveDraw):
                assert end.recorded_deltas is not None
            for event in round_.events:
                if isinstance(event, Win):
                    recorded = event.recorded
                    assert recorded is not None and recorded.deltas is not None
                    assert recorded.han and recorded.points and recorded.yaku and recorded.hand
                    assert sum(recorded.deltas) >= 0  # the sticks on the table come back
    assert unverified(greedy_games[:20]) == []


def test_the_convention_check_catches_broken_records(greedy_games: list[Game]) -> None:
    game = greedy_games[0]
    assert convention_problems(game) == []
    first = game.rounds[0]
    events = list(first.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, Discard))
    discard = events[at]
    assert isinstance(discard, Discard)
    events[at] = dataclasses.replace(discard, tsumogiri=not discard.tsumogiri)
    flipped = dataclasses.replace(first, events=tuple(events))
    problems = convention_problems(dataclasses.replace(game, rounds=(flipped, *game.rounds[1:])))
    assert len(problems) == 1 and "tsumogiri" in problems[0]
    assert first.wall is not None
    swapped = dataclasses.replace(
        first, wall=dataclasses.replace(first.wall, live=first.wall.live[::-1])
    )
    problems = convention_problems(dataclasses.replace(game, rounds=(swapped,)))
    assert any("the wall gives" in problem for problem in problems)


def test_records_survive_the_canonical_codec(
    greedy_games: list[Game], sanma_games: list[Game]
) -> None:
    # Walls included: the sanma replacements repeat live tiles, which the codec must keep.
    for game in [*greedy_games[:10], *sanma_games[:10]]:
        assert canonical.loads(canonical.dumps(game)) == [game]


@pytest.mark.parametrize("name", ["tenhou-4p", "tenhou-3p"])
def test_tenhou_games_survive_the_tenhou6_codec(name: str) -> None:
    # The tenhou.net/6 reader rebuilds the events from Tenhou's own conventions (when a kan
    # indicator is turned, which call follows which discard): the generated order must be one.
    games = list(simulate(name, 10, SEED, bots=mixed_bots(PRESETS[name].players)))
    again = [tenhou6.FORMAT.read(tenhou6.FORMAT.write([game]))[0] for game in games]
    assert unverified(again) == []


def test_ura_indicators_only_for_a_riichi_winner(greedy_games: list[Game]) -> None:
    checked = 0
    for game in greedy_games:
        for round_ in game.rounds:
            assert round_.wall is not None
            riichi = {e.seat for e in round_.events if isinstance(e, RiichiDeclared)}
            winners = {e.seat for e in round_.events if isinstance(e, Win)}
            if riichi & winners:
                shown = 1 + sum(isinstance(e, DoraRevealed) for e in round_.events)
                assert round_.ura_indicators == round_.wall.ura_indicators[:shown]
                checked += 1
            else:
                assert round_.ura_indicators == ()
    assert checked > 0


def test_same_seed_same_games() -> None:
    for name in ("tenhou-4p-east", "majsoul-3p-east"):
        bots = mixed_bots(PRESETS[name].players)
        first = list(simulate(name, 3, 11, bots=bots))
        assert first == list(simulate(name, 3, 11, bots=bots))
        assert first != list(simulate(name, 3, 12, bots=bots))
        ids = [game.header.source.id for game in first]
        assert ids == [f"{name}-seed-11-{n}" for n in range(3)]


def test_header_names_the_preset_and_its_changed_options() -> None:
    ruleset = get_ruleset("tenhou-4p-east").replace(kuikae=True, red_fives=(0, 2, 1))
    game = play_game(ruleset, [GreedyBot()] * 4, random.Random(5), game_id="x")
    header = game.header
    assert header.ruleset == "tenhou-4p-east"
    assert header.rule_overrides == {"kuikae": True, "red_fives": [0, 2, 1]}
    assert header.source.format == "sim" and header.source.id == "x"
    assert [player.name for player in header.players] == [f"GreedyBot {seat}" for seat in range(4)]
    # Two red 5p in every wall, as the overrides say; the replay reads them back.
    for round_ in game.rounds:
        assert round_.wall is not None
        tiles = [*round_.wall.live, *round_.wall.dora_indicators, *round_.wall.ura_indicators]
        tiles += [*round_.wall.replacements, *(tile for hand in round_.hands for tile in hand)]
        assert sum(1 for tile in tiles if tile.red and tile.suit == "p") == 2
    assert unverified([game]) == []


# -- the wall -------------------------------------------------------------------------------


def check_wall(ruleset: Ruleset, hands: Sequence[Sequence[Tile]], round_wall: Wall) -> None:
    """Every tile of the set exactly once across the hands, the live wall, the dead wall's own
    replacements and the indicators; the other replacements are the live wall's last tiles."""
    total = 136 if ruleset.players == 4 else 108
    live = total - 13 * ruleset.players - 14  # GameState.tiles_left at the start
    own = 4  # the dead wall: 4 replacements, 5 dora and 5 ura indicators
    assert len(round_wall.live) == live
    assert len(round_wall.replacements) == ruleset.rinshan_tiles
    assert len(round_wall.dora_indicators) == len(round_wall.ura_indicators) == 5
    assert [len(hand) for hand in hands] == [13] * ruleset.players
    everything = Counter(
        [
            *(tile for hand in hands for tile in hand),
            *round_wall.live,
            *round_wall.replacements[:own],
            *round_wall.dora_indicators,
            *round_wall.ura_indicators,
        ]
    )
    assert sum(everything.values()) == total
    assert everything == Counter(tile_set(ruleset))
    extra = ruleset.rinshan_tiles - own
    assert round_wall.replacements[own:] == tuple(reversed(round_wall.live))[:extra]


@pytest.mark.parametrize(
    # A small-mahjong stock leaves tiles unused and unrecorded: its walls are checked in
    # tests/engine/variants/small.
    "name",
    sorted(name for name, ruleset in PRESETS.items() if not ruleset.stock_per_player),
)
def test_dealt_walls_hold_every_tile_once(name: str) -> None:
    ruleset = PRESETS[name]
    rng = random.Random(name)
    for _ in range(20):
        hands, indicator, wall = deal(ruleset, rng)
        check_wall(ruleset, hands, wall)
        assert indicator == wall.dora_indicators[0]


@pytest.mark.parametrize("name", ["tenhou-4p", "tenhou-3p", "ema-2016", "majsoul-3p"])
def test_tile_sets(name: str) -> None:
    ruleset = PRESETS[name]
    tiles = tile_set(ruleset)
    kinds = Counter(tile.kind for tile in tiles)
    for kind in range(KINDS):
        missing = ruleset.players == 3 and kind in SANMA_MISSING
        assert kinds[kind] == (0 if missing else 4)
    reds = Counter(tile.kind // 9 for tile in tiles if tile.red)
    assert [reds[suit] for suit in range(3)] == list(ruleset.red_fives)
    assert all(not tile.red or (tile.kind < EAST and tile.kind % 9 == 4) for tile in tiles)
    assert live_tiles(ruleset) == len(tiles) - 13 * ruleset.players - 14
    assert dead_wall_replacements(ruleset) + 2 * INDICATORS == 14


def test_sanma_replacements_beyond_the_dead_wall_are_never_drawn_twice(
    sanma_games: list[Game],
) -> None:
    # Hands with five or more replacement draws take tiles from the end of the live wall: the
    # state machine's counting must keep those tiles out of the live draws.
    most = 0
    for game in sanma_games:
        for round_ in game.rounds:
            assert round_.wall is not None
            check_wall(PRESETS["tenhou-3p-east"], round_.hands, round_.wall)
            drawn = Counter(event.tile for event in round_.events if isinstance(event, Draw))
            drawn.update(tile for hand in round_.hands for tile in hand)
            assert max(drawn.values()) <= 4
            most = max(most, sum(isinstance(event, _REPLACED) for event in round_.events))
    assert most >= 5
    assert unverified(sanma_games) == []


# -- the loop's own checks ------------------------------------------------------------------


class _Cheat:
    """Answers everything with an event it was never offered."""

    def choose(self, state: GameState, seat: int, options: list[Event]) -> Event | None:
        return RiichiAccepted(seat)


def test_a_bot_choosing_outside_its_options_stops_the_game() -> None:
    with pytest.raises(SimulationError, match="not one of"):
        play_game(get_ruleset("tenhou-4p"), [_Cheat()] * 4, random.Random(1))


def test_an_endless_hand_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay, "MAX_EVENTS_PER_ROUND", 30)
    with pytest.raises(SimulationError, match="30 events"):
        play_game(get_ruleset("tenhou-4p"), [GreedyBot()] * 4, random.Random(1))


def test_bots_and_names_must_fit_the_table() -> None:
    with pytest.raises(ValueError, match="3 bots"):
        play_game(get_ruleset("tenhou-3p"), [GreedyBot()] * 4, random.Random(1))
    with pytest.raises(ValueError, match="player names"):
        play_game(get_ruleset("tenhou-3p"), [GreedyBot()] * 3, random.Random(1), players=["a"])
    with pytest.raises(ValueError, match="not a preset"):
        play_game(get_ruleset("wrc").replace(name="house"), [GreedyBot()] * 4, random.Random(1))


# -- regressions: state machine bugs found by self-play (engine/state/) -----------------

BUG_HANDS = (
    "119m119p119s1237z",
    "123m456m789m23p55s",
    "77z234m56p78p25s11s",
    "34m34p34s456m456p6z",
)


def bug_state() -> GameState:
    """East 1 of BUG_HANDS: seat 1 waits on 1p-4p with a closed pure straight; seat 2 holds a
    pair of Red dragons."""
    state = dealt_state(BUG_HANDS, ruleset="tenhou-4p-nored", indicators="9m")
    return state


def test_an_honour_pon_is_listed() -> None:
    # Was an IndexError in engine.state.seat.tile_copies (red-five table indexed for honours).
    state = bug_state()
    state.apply(Draw(0, parse_tile("4z")))
    state.apply(Discard(0, parse_tile("7z")))
    assert Pon(2, 0, parse_tile("7z"), (parse_tile("7z"),) * 2) in state.legal_actions()


def test_a_ron_before_the_first_draw_stands_without_renhou() -> None:
    # Tenhou has no renhou: seat 1's ron on the dealer's first discard is worth its pure
    # straight, like any other ron. (Was refused: the state set renhou whatever the rules.)
    state = bug_state()
    state.apply(Draw(0, parse_tile("4p")))
    state.apply(Discard(0, parse_tile("4p"), tsumogiri=True))
    assert state.why_illegal(Win(1, 0, parse_tile("4p"))) is None
