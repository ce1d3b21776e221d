"""A seeded generator of random complete hands, as scoring requests (``engine.scoring.request``).

Every hand is built from a real tile set: 4 copies of each kind, the rule set's red fives taking
the place of plain fives, no 2m-8m in 3-player. Hand, melds, dora and ura indicators and the
extracted Norths (kita) all come out of that one set, so no hand holds a fifth copy.

A hand is built directly, not dealt: a shape is chosen (four groups and a pair, seven pairs,
thirteen orphans, nine gates), biased now and then towards rarer yaku (flushes, all triplets,
honour- or terminal-heavy hands, sanshoku, ittsu, peikou, dragon and wind triplets, all green,
kans), some groups are turned into called melds, the winning tile is one of the concealed tiles,
and the conditions (tsumo or ron, riichi, ippatsu, haitei, ...) are drawn consistently with
the hand: riichi only when closed, rinshan only on a tsumo after a kan or a North extraction,
tenhou and chiihou only on a first-draw tsumo without calls, and so on.

Nothing checks that a hand has a yaku: many have none, and must be refused (``no_yaku``) by both
engines. ``not_agari_rate`` adds a share of hands with one concealed tile swapped for another, so
that most of them are not complete.

The tile formatting below is written here, not taken from the engine under test.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rules import get_ruleset

Tile = tuple[int, bool]  # (kind in the 34 layout, red five)
Group = tuple[str, int]  # ("run", first kind) or ("trip", kind)

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
HAKU, HATSU, CHUN = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (HAKU, HATSU, CHUN)
TERMINALS = (0, 8, 9, 17, 18, 26)
YAOCHUU = (*TERMINALS, *WINDS, *DRAGONS)
GREENS = (19, 20, 21, 23, 25, HATSU)
SANMA_MISSING = frozenset(range(1, 8))
WIND_LETTERS = "ESWN"

# Shapes and their weights. "plain" is the unbiased four groups and a pair.
_SHAPES: tuple[tuple[str, int], ...] = (
    ("plain", 30),
    ("tanyao", 8),
    ("flush", 8),
    ("toitoi", 5),
    ("honor", 5),
    ("dragons", 3),
    ("winds", 3),
    ("outside", 5),
    ("terminals", 2),
    ("sanshoku", 4),
    ("doukou", 1),
    ("ittsu", 4),
    ("peikou", 5),
    ("green", 1),
    ("kans", 3),
    ("suuankou", 2),
    ("chiitoitsu", 9),
    ("kokushi", 2),
    ("chuuren", 1),
)
_SHAPE_NAMES = tuple(name for name, _ in _SHAPES)
_SHAPE_WEIGHTS = tuple(weight for _, weight in _SHAPES)


class _Unavailable(Exception):
    """The tile set cannot supply what the shape asked for: drop this attempt."""


@dataclass
class _Pool:
    """The tiles not used yet: counts per kind and red fives per suit."""

    counts: list[int]
    reds: list[int]

    @classmethod
    def new(cls, three_player: bool, red_fives: Sequence[int]) -> _Pool:
        counts = [0 if three_player and kind in SANMA_MISSING else 4 for kind in range(34)]
        reds = [red if counts[suit * 9 + 4] else 0 for suit, red in enumerate(red_fives)]
        return cls(counts, reds)

    def take(self, rng: random.Random, kind: int) -> Tile:
        """One physical copy of ``kind``: a red five as often as red copies are left."""
        left = self.counts[kind]
        if left <= 0:
            raise _Unavailable
        red = False
        if kind < 27 and kind % 9 == 4:
            reds = self.reds[kind // 9]
            if reds and rng.random() * left < reds:
                red = True
                self.reds[kind // 9] -= 1
        self.counts[kind] -= 1
        return kind, red

    def take_random(self, rng: random.Random) -> Tile:
        kinds = [kind for kind in range(34) for _ in range(self.counts[kind])]
        if not kinds:
            raise _Unavailable
        return self.take(rng, rng.choice(kinds))


@dataclass
class _Hand:
    concealed: list[Tile]
    melds: list[tuple[str, list[Tile]]] = field(default_factory=list)


def format_tiles(tiles: Sequence[Tile]) -> str:
    """MPSZ notation of tiles, sorted (red five written 0, just before the plain fives)."""
    parts: list[str] = []
    suit_letter = ""
    for kind, red in sorted(tiles, key=lambda tile: (tile[0], not tile[1])):
        letter = "mpsz"[kind // 9] if kind < 27 else "z"
        if letter != suit_letter and suit_letter:
            parts.append(suit_letter)
        suit_letter = letter
        parts.append("0" if red else str(kind - 27 + 1 if kind >= 27 else kind % 9 + 1))
    if suit_letter:
        parts.append(suit_letter)
    return "".join(parts)


def _run_starts(
    three_player: bool, suits: Sequence[int] = (0, 1, 2), ranks: Sequence[int] = ()
) -> list[int]:
    starts = []
    for suit in suits:
        if three_player and suit == 0:
            continue  # 2m-8m do not exist: no man runs
        for rank in ranks or range(7):
            starts.append(suit * 9 + rank)
    return starts


def _kinds(three_player: bool, kinds: Sequence[int]) -> list[int]:
    return [kind for kind in kinds if not (three_player and kind in SANMA_MISSING)]


def _groups(rng: random.Random, shape: str, three_player: bool) -> tuple[list[Group], int]:
    """Four groups and a pair kind for a standard shape (tile availability is checked later)."""
    all_kinds = _kinds(three_player, range(34))
    run_share = 0.6
    run_starts = _run_starts(three_player)
    trip_kinds = all_kinds
    pair_kinds = all_kinds
    fixed: list[Group] = []
    pair: int | None = None

    if shape == "tanyao":
        simples = [kind for kind in all_kinds if kind < 27 and kind % 9 not in (0, 8)]
        run_starts = _run_starts(three_player, ranks=(1, 2, 3, 4, 5))
        trip_kinds = pair_kinds = simples
    elif shape == "flush":
        suits = [1, 2] if three_player else [0, 1, 2]
        suit = rng.choice(suits)
        honors = rng.random() < 0.5
        suited = [kind for kind in all_kinds if kind // 9 == suit and kind < 27]
        run_starts = _run_starts(three_player, suits=(suit,))
        trip_kinds = pair_kinds = suited + (list(range(27, 34)) if honors else [])
    elif shape == "toitoi":
        run_share = 0.0
    elif shape == "honor":
        run_share = 0.3
        trip_kinds = list(range(27, 34)) * 3 + all_kinds
        pair_kinds = list(range(27, 34)) * 2 + all_kinds
    elif shape == "dragons":
        dragons = list(DRAGONS)
        rng.shuffle(dragons)
        count = rng.choice((2, 2, 3))
        fixed = [("trip", kind) for kind in dragons[:count]]
        if count == 2 and rng.random() < 0.7:
            pair = dragons[2]
    elif shape == "winds":
        winds = list(WINDS)
        rng.shuffle(winds)
        count = rng.choice((3, 3, 4))
        fixed = [("trip", kind) for kind in winds[:count]]
        if count == 3 and rng.random() < 0.7:
            pair = winds[3]
    elif shape == "outside":
        honors = rng.random() < 0.5
        yaochuu = _kinds(three_player, TERMINALS) + (list(range(27, 34)) if honors else [])
        run_starts = _run_starts(three_player, ranks=(0, 6))
        trip_kinds = pair_kinds = yaochuu
    elif shape == "terminals":
        run_share = 0.0
        choice = rng.random()
        if choice < 0.3:
            trip_kinds = list(range(27, 34))
        elif choice < 0.6:
            trip_kinds = _kinds(three_player, TERMINALS)
        else:
            trip_kinds = _kinds(three_player, YAOCHUU)
        pair_kinds = trip_kinds
    elif shape == "sanshoku":
        if three_player:
            return _groups(rng, "plain", three_player)
        rank = rng.randrange(7)
        fixed = [("run", suit * 9 + rank) for suit in range(3)]
    elif shape == "doukou":
        ranks = [0, 8] if three_player else list(range(9))
        rank = rng.choice(ranks)
        fixed = [("trip", suit * 9 + rank) for suit in range(3)]
    elif shape == "ittsu":
        suit = rng.choice([1, 2] if three_player else [0, 1, 2])
        fixed = [("run", suit * 9 + rank) for rank in (0, 3, 6)]
    elif shape == "peikou":
        start = rng.choice(run_starts)
        fixed = [("run", start), ("run", start)]
        if rng.random() < 0.4:
            other = rng.choice(run_starts)
            fixed += [("run", other), ("run", other)]
    elif shape == "green":
        run_starts = [19]  # 234s is the only green run
        trip_kinds = pair_kinds = list(GREENS)
    elif shape == "kans" or shape == "suuankou":
        run_share = 0.0 if shape == "suuankou" or rng.random() < 0.5 else 0.3

    groups = list(fixed)
    while len(groups) < 4:
        if run_starts and rng.random() < run_share:
            groups.append(("run", rng.choice(run_starts)))
        else:
            groups.append(("trip", rng.choice(trip_kinds)))
    rng.shuffle(groups)
    if pair is None:
        pair = rng.choice(pair_kinds)
    return groups, pair


def _group_tiles(rng: random.Random, pool: _Pool, group: Group) -> list[Tile]:
    what, kind = group
    if what == "run":
        return [pool.take(rng, kind + offset) for offset in range(3)]
    return [pool.take(rng, kind) for _ in range(3)]


_MELD_COUNTS = (0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4)


def _standard_hand(rng: random.Random, pool: _Pool, shape: str, three_player: bool) -> _Hand:
    groups, pair = _groups(rng, shape, three_player)
    if shape in ("kans",):
        called = rng.choice((3, 3, 4, 4, 2))
    elif shape == "suuankou":
        called = rng.choice((0, 0, 0, 1, 2))
    else:
        called = rng.choice(_MELD_COUNTS)
    order = list(range(4))
    rng.shuffle(order)
    called_indices = set(order[:called])
    hand = _Hand([])
    for index, group in enumerate(groups):
        tiles = _group_tiles(rng, pool, group)
        if index not in called_indices:
            hand.concealed += tiles
            continue
        if group[0] == "run":
            if three_player:
                hand.concealed += tiles  # no chi in 3-player: the run stays concealed
                continue
            hand.melds.append(("chi", tiles))
            continue
        if shape == "kans":
            meld_type = rng.choice(("minkan", "ankan", "ankan", "kakan", "pon"))
        elif shape == "suuankou":
            meld_type = rng.choice(("ankan", "ankan", "pon"))
        else:
            meld_type = rng.choice(("pon", "pon", "pon", "minkan", "ankan", "ankan", "kakan"))
        if meld_type != "pon":
            tiles.append(pool.take(rng, group[1]))
        hand.melds.append((meld_type, tiles))
    hand.concealed += [pool.take(rng, pair), pool.take(rng, pair)]
    return hand


def _chiitoitsu_hand(rng: random.Random, pool: _Pool, three_player: bool) -> _Hand:
    all_kinds = _kinds(three_player, range(34))
    choice = rng.random()
    if choice < 0.15:
        suit = rng.choice([1, 2] if three_player else [0, 1, 2])
        kinds = [kind for kind in all_kinds if kind // 9 == suit and kind < 27]
        if rng.random() < 0.5:
            kinds += list(range(27, 34))
    elif choice < 0.25:
        kinds = [kind for kind in all_kinds if kind < 27 and kind % 9 not in (0, 8)]
    elif choice < 0.35:
        kinds = _kinds(three_player, YAOCHUU)
    elif choice < 0.38:
        kinds = list(range(27, 34))
    else:
        kinds = all_kinds
    if len(kinds) < 7:
        raise _Unavailable
    tiles: list[Tile] = []
    for kind in rng.sample(kinds, 7):
        tiles += [pool.take(rng, kind), pool.take(rng, kind)]
    return _Hand(tiles)


def _kokushi_hand(rng: random.Random, pool: _Pool) -> _Hand:
    tiles = [pool.take(rng, kind) for kind in YAOCHUU]
    tiles.append(pool.take(rng, rng.choice(YAOCHUU)))
    return _Hand(tiles)


def _chuuren_hand(rng: random.Random, pool: _Pool, three_player: bool) -> _Hand:
    suit = rng.choice([1, 2] if three_player else [0, 1, 2])
    ranks = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9)]
    return _Hand([pool.take(rng, suit * 9 + rank) for rank in ranks])


def _break(rng: random.Random, pool: _Pool, hand: _Hand) -> None:
    """Swap one concealed tile for another: most such hands are no longer complete."""
    index = rng.randrange(len(hand.concealed))
    kind, red = hand.concealed[index]
    pool.counts[kind] += 1
    if red:
        pool.reds[kind // 9] += 1
    hand.concealed[index] = pool.take_random(rng)


def _build(
    rng: random.Random,
    ruleset_name: str,
    three_player: bool,
    red_fives: Sequence[int],
    broken: bool,
) -> dict[str, Any]:
    pool = _Pool.new(three_player, red_fives)
    shape = rng.choices(_SHAPE_NAMES, _SHAPE_WEIGHTS)[0]
    if shape == "chiitoitsu":
        hand = _chiitoitsu_hand(rng, pool, three_player)
    elif shape == "kokushi":
        hand = _kokushi_hand(rng, pool)
    elif shape == "chuuren":
        hand = _chuuren_hand(rng, pool, three_player)
    else:
        hand = _standard_hand(rng, pool, shape, three_player)
    if broken:
        _break(rng, pool, hand)

    win = rng.choice(hand.concealed)
    request: dict[str, Any] = {
        "ruleset": ruleset_name,
        "hand": format_tiles(hand.concealed),
        "win": format_tiles([win]),
        "melds": [{"type": kind, "tiles": format_tiles(tiles)} for kind, tiles in hand.melds],
    }

    seats = WIND_LETTERS[: 3 if three_player else 4]
    seat = rng.choice(seats)
    dealer = seat == "E"
    closed = all(kind == "ankan" for kind, _ in hand.melds)
    has_kan = any(kind in ("minkan", "ankan", "kakan") for kind, _ in hand.melds)
    flags: dict[str, bool] = {}
    tsumo = rng.random() < 0.5
    flags["tsumo"] = tsumo
    riichi = closed and rng.random() < 0.45
    if riichi:
        if rng.random() < 0.1:
            flags["double_riichi"] = True
        else:
            flags["riichi"] = True
        if rng.random() < 0.25:
            flags["ippatsu"] = True
    first_draw = tsumo and not hand.melds and not riichi and rng.random() < 0.03
    if first_draw:
        flags["tenhou" if dealer else "chiihou"] = True

    kita = 0
    if three_player and not first_draw:
        kita = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        kita = min(kita, pool.counts[NORTH])
        for _ in range(kita):
            pool.take(rng, NORTH)
        if kita:
            request["kita"] = kita

    late = not first_draw
    if tsumo:
        if late and (has_kan or kita) and rng.random() < 0.2:
            flags["rinshan"] = True
            if not kita or get_ruleset(ruleset_name).kita_breaks_first_turn:
                # The winner's own kan (or, where the rules say so, North extraction) came
                # just before: it broke ippatsu.
                flags.pop("ippatsu", None)
        elif late and rng.random() < 0.06:
            flags["haitei"] = True
    else:
        if late and rng.random() < 0.06:
            flags["houtei"] = True
        elif late and rng.random() < 0.06:
            # Robbing a kan: the other three copies of the winning tile are another player's.
            held = sum(tile[0] == win[0] for tile in hand.concealed)
            if held == 1 and pool.counts[win[0]] == 3:
                for _ in range(3):
                    pool.take(rng, win[0])
                flags["chankan"] = True
        if rng.random() < 0.5:
            request["discarder"] = rng.choice([other for other in seats if other != seat])
    request.update({name: True for name, value in flags.items() if value})

    request["seat_wind"] = seat
    request["round_wind"] = rng.choice("EEESSW" if three_player else "EEESSSWN")
    request["honba"] = rng.randrange(6)
    request["sticks"] = rng.randrange(4)

    indicators = rng.choice((1, 1, 1, 2, 2, 3, 4, 5))
    request["dora"] = format_tiles([pool.take_random(rng) for _ in range(indicators)])
    if riichi:
        request["ura"] = format_tiles([pool.take_random(rng) for _ in range(indicators)])
    return request


def random_requests(
    n: int, seed: int, ruleset: str = "tenhou-4p", *, not_agari_rate: float = 0.0
) -> list[dict[str, Any]]:
    """``n`` random scoring requests for ``ruleset``, reproducible from ``seed``.

    Every request describes a physically possible hand with consistent conditions; most are
    complete, except a ``not_agari_rate`` share with one concealed tile swapped. Each request
    carries ``id`` = its index.
    """
    rules = get_ruleset(ruleset)
    three_player = rules.three_player
    red_fives = rules.red_fives
    rng = random.Random(seed)
    requests: list[dict[str, Any]] = []
    while len(requests) < n:
        broken = rng.random() < not_agari_rate
        try:
            request = _build(rng, ruleset, three_player, red_fives, broken)
        except _Unavailable:
            continue
        request["id"] = len(requests)
        requests.append(request)
    return requests
