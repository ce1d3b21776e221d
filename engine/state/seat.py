"""One player's part of a hand (:class:`SeatState`) and what is asked of a seat's tiles.

A seat keeps its concealed tiles as counts by kind (red fives counted apart), with its melds,
river and riichi flags. The functions here read such counts, not the game: whether a seat holds
some tiles at once (:func:`can_hold`), its copies of one kind (:func:`tile_copies`) and the waits of
a hand (:func:`hand_waits`, memoized for the whole process because hands repeat so often).

A seat also keeps its counts packed in one integer (:attr:`SeatState.key`, a byte per kind),
updated with ``counts`` by :meth:`SeatState.add` and :meth:`SeatState.remove`: the memo key of
its waits, which costs one look-up instead of turning 34 counts into bytes after every discard.

The waits depend on the rule set's hand shapes (:mod:`engine.hand.shapes`), so a seat knows
them, and above its counts its key carries the shapes' mark (0 for the standard shapes: their
keys are the plain counts) and, for space mahjong's open thirteen orphans, what the seat called:
hands of different shapes or calls never share a memo entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.hand.decompose import candidate_kinds
from engine.hand.melds import ANKAN, CHI, Meld
from engine.hand.shanten import shanten
from engine.hand.shapes import STANDARD, HandShapes, shapes_by_mark
from engine.tiles import EAST, KINDS, Tile, kinds_mask

PLAIN_TILES = tuple(Tile.from_kind(kind) for kind in range(KINDS))
_RED_TILES = tuple(Tile.from_kind(9 * suit + 4, red=True) for suit in range(3))
#: One tile of each kind in :attr:`SeatState.key`: byte ``kind``. Indexed exactly like ``counts``
#: (by ``tile.kind``), so the key always moves with the counts.
_KEY_UNIT = tuple(1 << 8 * kind for kind in range(KINDS))
#: Above the counts in :attr:`SeatState.key`: the shapes' mark (a byte), then the counts of the
#: tiles called in honour runs (34 bytes), then a flag: a meld that is not an honour run was called
#: (no open thirteen orphans). The last two only where the shapes have open thirteen orphans.
_MARK_SHIFT = 8 * KINDS
_CALLED_SHIFT = 8 * (KINDS + 1)
_NO_OPEN_KOKUSHI = 1 << 8 * (2 * KINDS + 1)
_KINDS_MASK = kinds_mask(range(KINDS))


@dataclass(slots=True)
class SeatState:
    """One player's part of a hand."""

    #: Concealed tiles by kind (red fives included in their kind) and red fives by suit.
    counts: list[int]
    reds: list[int]
    melds: list[Meld] = field(default_factory=list)
    #: Where each called meld came from (``None`` for a closed kan), parallel to ``melds``.
    meld_sources: list[int | None] = field(default_factory=list)
    river: list[Tile] = field(default_factory=list)
    #: Whether each river tile was called away, parallel to ``river``.
    river_called: list[bool] = field(default_factory=list)
    draws: int = 0
    kita: int = 0
    riichi: bool = False
    riichi_accepted: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    #: Index into ``river`` of the riichi discard.
    riichi_discard: int = -1
    #: The seat's draws when riichi was declared, and how many riichi came before it this hand.
    riichi_turn: int = 0
    riichi_order: int = 0
    #: Number of kinds the hand waited on at the riichi discard.
    riichi_waits: int = 0
    temporary_furiten: bool = False
    riichi_furiten: bool = False
    #: Kinds discarded by others that this seat let pass since its furiten was last settled
    #: (bit ``k`` for kind ``k``). Whether they made it furiten needs the hand's waits, which
    #: most hands never need otherwise: it is settled (:meth:`settle_furiten`) only when
    #: furiten is asked, and before the hand changes (the waits are the hand's at the pass).
    passed: int = 0
    #: Kinds whose discard right now is a swap call (kuikae), after a chi or pon.
    forbidden: frozenset[int] = frozenset()
    #: Seat liable (pao) for a yakuman completed by a call on their discard.
    liable: int | None = None
    #: Shanten-0 flag and waits of the concealed hand (see :func:`hand_waits`), computed when
    #: needed (``None``: the hand changed since).
    hand_cache: tuple[bool, frozenset[int]] | None = None
    #: ``counts`` packed, byte ``k`` holding ``counts[k]`` (what ``int.from_bytes(bytes(counts),
    #: "little")`` gives): the key of the waits memo. Counts stay within 0-4 (a tile enters a
    #: hand only past the fifth-copy check, and leaves it only when held), so bytes never carry
    #: into each other and equal keys mean equal counts. Bytes above the counts: see
    #: ``_MARK_SHIFT`` (nothing with the standard shapes).
    key: int = 0
    #: Which tiles form runs (the rule set's, engine.hand.shapes.shapes_for).
    shapes: HandShapes = STANDARD

    def __post_init__(self) -> None:
        self.key |= self.shapes.mark << _MARK_SHIFT

    @property
    def open(self) -> bool:
        return any(meld.type is not ANKAN for meld in self.melds)

    def holds(self, tile: Tile) -> bool:
        kind = tile.kind
        if tile.red:
            return self.reds[kind // 9] > 0
        plain = self.counts[kind]
        if kind < EAST and kind % 9 == 4:
            plain -= self.reds[kind // 9]
        return plain > 0

    def settle_furiten(self) -> None:
        """Apply the passes noted in :attr:`passed`: a passed kind the hand waits on makes the
        seat furiten (for the rest of the hand in riichi, else until its next draw)."""
        passed = self.passed
        if not passed:
            return
        self.passed = 0
        for kind in self.hand()[1]:
            if passed >> kind & 1:
                if self.riichi:
                    self.riichi_furiten = True
                else:
                    self.temporary_furiten = True
                return

    def add(self, tile: Tile) -> None:
        if self.passed:
            self.settle_furiten()
        kind = tile.kind
        self.counts[kind] += 1
        self.key += _KEY_UNIT[kind]
        if tile.red:
            self.reds[kind // 9] += 1
        self.hand_cache = None

    def remove(self, tile: Tile) -> None:
        if self.passed:
            self.settle_furiten()
        kind = tile.kind
        self.counts[kind] -= 1
        self.key -= _KEY_UNIT[kind]
        if tile.red:
            self.reds[kind // 9] -= 1
        self.hand_cache = None

    def take(self, tile: Tile) -> bool:
        """Remove the tile if the seat holds it (:meth:`holds`, then :meth:`remove`, in one
        call); whether it did."""
        if self.passed:
            self.settle_furiten()
        kind = tile.kind
        counts = self.counts
        if tile.red:
            if self.reds[kind // 9] <= 0:
                return False
            self.reds[kind // 9] -= 1
        else:
            plain = counts[kind]
            if kind < EAST and kind % 9 == 4:
                plain -= self.reds[kind // 9]
            if plain <= 0:
                return False
        counts[kind] -= 1
        self.key -= _KEY_UNIT[kind]
        self.hand_cache = None
        return True

    def note_meld(self, meld: Meld) -> None:
        """Record a new meld in the key (for space mahjong's open thirteen orphans: whether
        every call is an honour run, and their tiles); nothing for other shapes."""
        if not self.shapes.open_kokushi:
            return
        if self.passed:
            self.settle_furiten()
        if meld.type is CHI and meld.kind >= EAST:
            self.key += (meld.packed & _KINDS_MASK) << _CALLED_SHIFT
        else:
            self.key |= _NO_OPEN_KOKUSHI
        self.hand_cache = None

    def shanten(self) -> int:
        """Shanten of the concealed hand with the seat's shapes (and calls, for an open
        thirteen orphans)."""
        if self.shapes.standard:
            return shanten(self.counts)
        return self.shapes.shanten(self.counts, _called(self.key))

    def hand(self) -> tuple[bool, frozenset[int]]:
        """The concealed hand's :func:`hand_waits`, cached until the hand changes."""
        cached = self.hand_cache
        if cached is None:
            cached = self.hand_cache = _WAITS_MEMO.get(self.key) or _waits(self.key, self.counts)
        return cached

    def tiles(self) -> list[Tile]:
        """The concealed tiles, sorted, red fives as red tiles."""
        out: list[Tile] = []
        for kind, count in enumerate(self.counts):
            if not count:
                continue
            red = self.reds[kind // 9] if kind < EAST and kind % 9 == 4 else 0
            if red:
                out.extend([_RED_TILES[kind // 9]] * red)
            out.extend([PLAIN_TILES[kind]] * (count - red))
        return out


def can_hold(seat: SeatState, tiles: Iterable[Tile]) -> bool:
    """Whether the seat holds all these tiles at once."""
    needed: dict[Tile, int] = {}
    for tile in tiles:
        needed[tile] = needed.get(tile, 0) + 1
    for tile, count in needed.items():
        kind = tile.kind
        if tile.red:
            if seat.reds[kind // 9] < count:
                return False
        else:
            plain = seat.counts[kind]
            if kind < EAST and kind % 9 == 4:
                plain -= seat.reds[kind // 9]
            if plain < count:
                return False
    return True


#: Waits by hand (34 counts packed as in :attr:`SeatState.key`). Hands repeat a lot (a tsumogiri
#: leaves the hand as it was), so a game asks each distinct hand once. Cleared when it grows past
#: the bound.
_WAITS_MEMO: dict[int, tuple[bool, frozenset[int]]] = {}
_WAITS_MEMO_BOUND = 200_000
_ANSWERS: dict[tuple[bool, frozenset[int]], tuple[bool, frozenset[int]]] = {}


def hand_waits(
    counts: list[int], shapes: HandShapes = STANDARD, melds: Iterable[Meld] = ()
) -> tuple[bool, frozenset[int]]:
    """Whether a 3n+1-tile hand (34 counts) is one tile from complete, and the kinds that
    complete it. A kind the hand holds four times is never a wait (there is no fifth copy), so a
    hand can be one tile from complete yet wait on nothing. ``melds`` matter only to space
    mahjong's open thirteen orphans."""
    key = int.from_bytes(bytes(counts), "little")
    seat = SeatState(list(counts), [0, 0, 0], key=key, shapes=shapes)
    for meld in melds:
        seat.note_meld(meld)
    return _waits(seat.key, seat.counts)


def _called(key: int) -> list[int] | None:
    """The counts of the tiles called in honour runs, from a seat's key; ``None`` when there
    are none or another meld was called."""
    if key & _NO_OPEN_KOKUSHI:
        return None
    called = key >> _CALLED_SHIFT & _KINDS_MASK
    return list(called.to_bytes(KINDS, "little")) if called else None


def _waits(key: int, counts: list[int]) -> tuple[bool, frozenset[int]]:
    """:func:`hand_waits` of ``counts``, whose packed form is ``key``."""
    found = _WAITS_MEMO.get(key)
    if found is not None:
        return found
    waits: frozenset[int] = frozenset()
    if key >> _MARK_SHIFT:
        # Other shapes than the standard: the generic code, with the called honour runs.
        shapes = shapes_by_mark(key >> _MARK_SHIFT & 0xFF)
        called = _called(key)
        near = sum(counts) % 3 == 1 and shapes.shanten(counts, called) == 0
        if near:
            waits = frozenset(shapes.winning_kinds(counts, called))
        return _remember(key, near, waits)
    near = sum(counts) % 3 == 1 and shanten(counts) == 0
    if near:
        work = list(counts)
        found_kinds = []
        for kind in candidate_kinds(work, sum(work)):
            if work[kind] >= 4:
                continue
            work[kind] += 1
            if shanten(work) == -1:
                found_kinds.append(kind)
            work[kind] -= 1
        waits = frozenset(found_kinds)
    return _remember(key, near, waits)


def _remember(key: int, near: bool, waits: frozenset[int]) -> tuple[bool, frozenset[int]]:
    """Memoise the answer for ``key`` (see :data:`_WAITS_MEMO`)."""
    if len(_WAITS_MEMO) >= _WAITS_MEMO_BOUND:
        _WAITS_MEMO.clear()
        _ANSWERS.clear()
    # Equal answers share one object: a few hundred instead of one each (most hands wait on
    # nothing, and every empty frozenset is an object of its own), a lighter memo to keep in
    # memory and in the CPU's caches.
    found = (near, waits)
    found = _WAITS_MEMO[key] = _ANSWERS.setdefault(found, found)
    return found


def tile_copies(data: SeatState, kind: int) -> list[Tile]:
    """The seat's tiles of one kind, plain ones first (calls keep red fives when they can)."""
    count = data.counts[kind]
    red = data.reds[kind // 9] if kind < EAST and kind % 9 == 4 else 0
    plain = [PLAIN_TILES[kind]] * (count - red)
    return plain + [_RED_TILES[kind // 9]] * red if red else plain
