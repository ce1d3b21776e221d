"""Hand shapes: which three tiles make a run, and what follows from it for waits and yaku.

A rule set's *shapes* (its ``shapes`` option) decide which tiles form a run; everything else about
a hand (triplets, the pair, seven pairs, thirteen orphans) is the same in every variant.

* ``standard``: three consecutive ranks of one number suit, no wrap-around; honours never run.
* ``space`` (space mahjong, ``seeds/000``, ``docs/variants/space.md``): the ranks of a suit wrap
  around, so 8-9-1 and 9-1-2 are runs too (every rank starts one); any three different winds are
  a run (123z 234z 341z 412z), and so are the three dragons (567z).

A run is named by its *start code*, a kind below 34, exactly as in the group codes of
:mod:`engine.hand.decompose` (a code ``g < 34`` is a run, ``g >= 34`` the triplet of ``g - 34``):
in a suit the run starting at rank ``r`` is ``r, r+1, r+2`` (ranks modulo 9 in space mahjong),
the wind runs start at 27-30 and hold the next three winds cyclically (E S W N E ...), the dragon
run is 31. So the standard runs keep their codes in space mahjong, and a wrapped run has a code of
its own (891m is 7, 912m is 8, 412z is 30).

:class:`HandShapes` describes one set of shapes: the kinds of each run, the runs holding each
kind with the wait *shape* when that kind completed it, which runs are "outside" (hold a terminal
or an honour), and the *parts* of the tiles that runs connect (a hand is analysed part by part).
Its methods analyse hands (decompositions, agari, waits, shanten): the standard shapes use the
fast tables of :mod:`engine.hand.decompose` and :mod:`engine.hand.shanten`, any other shapes the
readable memoised code of :mod:`engine.hand.generic`, which tests show equal to the fast code on
the standard shapes.

Wait shapes of the cyclic runs: the middle tile of a run is a closed wait (kanchan), either end a
two-sided wait (ryanmen); nothing is an edge wait, as no rank ends the cycle (9-1 waits on 8 and
2, 1-3 on 2). The three dragons form one run, so any two of them wait on the third "as either
kanchan or ryanmen": both shapes are listed and scoring takes the better.

*Called melds* matter for one winning form only: space mahjong's open thirteen orphans, whose
honours may be called as honour runs. The methods take them as ``called``: the 34 counts of the
tiles in the called melds when every called meld is an honour run, else ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Protocol

from engine.errors import UnknownRulesetError
from engine.hand import decompose, generic
from engine.hand import shanten as fast
from engine.hand.decompose import RawDecomposition, Wait, WaitShape, run_wait_shape
from engine.hand.generic import Part, RunHolding, RunKinds
from engine.tiles import EAST, HAKU, KINDS, NORTH, PACKED_BYTES, YAOCHUU

__all__ = [
    "SPACE",
    "SPACE_WITHOUT_OPEN_KOKUSHI",
    "STANDARD",
    "HandShapes",
    "Part",
    "RunKinds",
    "shapes_by_mark",
    "shapes_for",
]


@dataclass(frozen=True, eq=False)
class HandShapes:
    """One set of hand shapes (see the module docstring). Build with :func:`_shapes`."""

    name: str
    #: The kinds of the run with each start code, or ``None`` where no run starts.
    run_kinds: tuple[RunKinds | None, ...]
    #: Per kind: every run holding it, with the wait shape when that kind completed the run
    #: (a dragon run twice: as ryanmen and as kanchan).
    runs_holding: tuple[tuple[RunHolding, ...], ...]
    #: Per kind: the start codes of the runs holding it (each once).
    runs_with: tuple[tuple[int, ...], ...]
    #: Per start code: the run holds a terminal or an honour (chanta, junchan).
    outside_run: tuple[bool, ...]
    #: A run's kinds in sorted order -> its start code (what a chi's tiles make).
    run_start_of: Mapping[tuple[int, ...], int]
    #: (run start, called kind) -> the kinds a chi of it forbids discarding (:meth:`swap_kinds`).
    swap_table: Mapping[tuple[int, int], frozenset[int]]
    #: The parts of the 34 kinds, each kind in exactly one.
    parts: tuple[Part, ...]
    #: The standard shapes: the fast tables apply.
    standard: bool
    #: Thirteen orphans may be complete with honours called as honour runs (space mahjong with
    #: ``open_kokushi_han`` > 0).
    open_kokushi: bool
    #: A small number, unique per shapes, 0 for the standard: memo keys of waits carry it, so
    #: hands of different shapes never share an answer (engine.state.seat).
    mark: int

    def __repr__(self) -> str:
        kokushi = ", open_kokushi" if self.open_kokushi else ""
        return f"HandShapes({self.name!r}{kokushi})"

    # -- runs -----------------------------------------------------------------------------------

    def run_start(self, kinds: Iterable[int]) -> int | None:
        """The start code of the run these three kinds make (in any order), or ``None``."""
        return self.run_start_of.get(tuple(sorted(kinds)))

    def swap_kinds(self, start: int, called: int) -> frozenset[int]:
        """Kinds that may not be discarded right after chi-ing ``called`` into the run
        ``start`` (kuikae): the called kind, and when it sits at an end of the run, the kind
        that would make the same wait on the other side (called 1 with 23: 4 as well)."""
        return self.swap_table[start, called]

    # -- analysis -------------------------------------------------------------------------------

    def decompositions(self, counts: Sequence[int]) -> list[RawDecomposition]:
        """Every split of 3n+2 concealed tiles (34 counts) into groups and one pair, as
        ``(pair, run starts, triplet kinds)``."""
        if self.standard:
            return decompose.raw_decompositions(counts)
        return generic.decompositions(self, counts)

    def packed_decompositions(self, packed: int) -> list[RawDecomposition]:
        """:meth:`decompositions` of packed counts (:data:`engine.tiles.PACKED_BYTES`), for
        scoring."""
        if self.standard:
            return decompose.packed_decompositions(packed)
        return generic.decompositions(self, packed.to_bytes(PACKED_BYTES, "little")[:KINDS])

    def is_agari(self, counts: Sequence[int], called: Sequence[int] | None = None) -> bool:
        """Whether 3n+2 concealed tiles complete a hand (regular, seven pairs, thirteen orphans,
        and with ``called`` honour runs the open thirteen orphans)."""
        if self.standard:
            return decompose.is_agari(counts)
        return generic.is_agari(self, counts, called)

    def shanten(
        self,
        counts: Sequence[int],
        called: Sequence[int] | None = None,
        *,
        use_chiitoitsu: bool = True,
        use_kokushi: bool = True,
    ) -> int:
        """Shanten of the concealed tiles: ``-1`` complete, ``0`` tenpai (see
        :func:`engine.hand.shanten.shanten`; 3n+1 or 3n+2 tiles imply the called melds)."""
        if self.standard:
            return fast.shanten(counts, use_chiitoitsu=use_chiitoitsu, use_kokushi=use_kokushi)
        return generic.shanten(
            self, counts, called, use_chiitoitsu=use_chiitoitsu, use_kokushi=use_kokushi
        )

    def waits(self, counts: Sequence[int], called: Sequence[int] | None = None) -> list[Wait]:
        """The kinds completing 3n+1 concealed tiles, each with its wait shapes (a kind held
        four times is never a wait)."""
        if self.standard:
            return decompose.waits(counts)
        return generic.waits(self, counts, called)

    def winning_kinds(
        self, counts: Sequence[int], called: Sequence[int] | None = None
    ) -> list[int]:
        """The kinds completing 3n+1 concealed tiles (:meth:`waits` without the shapes)."""
        if self.standard:
            return decompose.winning_kinds(counts)
        return generic.winning_kinds(self, counts, called)


# -- building shapes ------------------------------------------------------------------------------

#: Wait shapes of a run completed by one of its kinds: (run start, run kinds, kind) -> shapes.
WaitShapesOf = Callable[[int, RunKinds, int], tuple[WaitShape, ...]]


def _shapes(
    name: str,
    runs: Mapping[int, RunKinds],
    wait_shapes: WaitShapesOf,
    *,
    standard: bool,
    open_kokushi: bool,
    mark: int,
) -> HandShapes:
    """Shapes from their runs (start code -> kinds) and the wait shapes of each run."""
    run_kinds: list[RunKinds | None] = [None] * KINDS
    holding: list[list[RunHolding]] = [[] for _ in range(KINDS)]
    for start, kinds in sorted(runs.items()):
        run_kinds[start] = kinds
        for kind in kinds:
            holding[kind] += [(start, shape) for shape in wait_shapes(start, kinds, kind)]
    runs_with = tuple(tuple(dict.fromkeys(start for start, _ in held)) for held in holding)
    outside = tuple(
        kinds is not None and any(kind in YAOCHUU for kind in kinds) for kinds in run_kinds
    )
    start_of = {tuple(sorted(kinds)): start for start, kinds in runs.items()}
    # Kuikae: the called kind, and beyond the run's other end when it was called at an end
    # (the kind that the run's other two tiles also waited on: the run one step along).
    middle_of = {kinds[1]: kinds for kinds in runs.values()}
    swap_table: dict[tuple[int, int], frozenset[int]] = {}
    for start, (first, middle, last) in runs.items():
        after = middle_of.get(last)  # the run with ``last`` in its middle
        before = middle_of.get(first)
        swap_table[start, first] = frozenset({first} | ({after[2]} if after else set()))
        swap_table[start, middle] = frozenset({middle})
        swap_table[start, last] = frozenset({last} | ({before[0]} if before else set()))
    shapes = HandShapes(
        name=name,
        run_kinds=tuple(run_kinds),
        runs_holding=tuple(tuple(held) for held in holding),
        runs_with=runs_with,
        outside_run=outside,
        run_start_of=MappingProxyType(start_of),
        swap_table=MappingProxyType(swap_table),
        parts=_parts(runs),
        standard=standard,
        open_kokushi=open_kokushi,
        mark=mark,
    )
    _BY_MARK[mark] = shapes
    return shapes


def _parts(runs: Mapping[int, RunKinds]) -> tuple[Part, ...]:
    """The kinds that runs connect, each with its runs by local position."""
    owner = list(range(KINDS))  # union-find over kinds

    def root(kind: int) -> int:
        while owner[kind] != kind:
            kind = owner[kind]
        return kind

    for run in runs.values():
        for kind in run[1:]:
            owner[root(kind)] = root(run[0])
    groups: dict[int, list[int]] = {}
    for kind in range(KINDS):
        groups.setdefault(root(kind), []).append(kind)
    parts = []
    for kinds in sorted(groups.values()):
        position = {kind: index for index, kind in enumerate(kinds)}
        local = [
            (start, (position[a], position[b], position[c]))
            for start, (a, b, c) in sorted(runs.items())
            if a in position
        ]
        runs_at = tuple(
            tuple(run for run in local if index in run[1]) for index in position.values()
        )
        partners = tuple(
            tuple(sorted({other for _, run in at for other in run if other != index}))
            for index, at in enumerate(runs_at)
        )
        parts.append(Part(tuple(kinds), runs_at, partners))
    return tuple(parts)


def _standard_wait_shapes(start: int, kinds: RunKinds, kind: int) -> tuple[WaitShape, ...]:
    return (run_wait_shape(start, kind),)


def _cyclic_wait_shapes(start: int, kinds: RunKinds, kind: int) -> tuple[WaitShape, ...]:
    """The middle of a run is closed, its ends two-sided; the one run of a three-kind cycle (the
    dragons) has no middle: either shape (``seeds/000`` line 32)."""
    if start >= HAKU:
        return (WaitShape.RYANMEN, WaitShape.KANCHAN)
    return (WaitShape.KANCHAN,) if kind == kinds[1] else (WaitShape.RYANMEN,)


def _standard_runs() -> dict[int, RunKinds]:
    return {start: (start, start + 1, start + 2) for start in range(EAST) if start % 9 <= 6}


def _space_runs() -> dict[int, RunKinds]:
    runs: dict[int, RunKinds] = {}
    for start in range(EAST):
        base = start - start % 9
        rank = start % 9
        runs[start] = (start, base + (rank + 1) % 9, base + (rank + 2) % 9)
    winds = NORTH - EAST + 1
    for offset in range(winds):
        runs[EAST + offset] = (
            EAST + offset,
            EAST + (offset + 1) % winds,
            EAST + (offset + 2) % winds,
        )
    runs[HAKU] = (HAKU, HAKU + 1, HAKU + 2)
    return runs


_BY_MARK: dict[int, HandShapes] = {}

#: The standard shapes (fast tables).
STANDARD: Final = _shapes(
    "standard",
    _standard_runs(),
    _standard_wait_shapes,
    standard=True,
    open_kokushi=False,
    mark=0,
)
#: Space mahjong's shapes, with the open thirteen orphans.
SPACE: Final = _shapes(
    "space", _space_runs(), _cyclic_wait_shapes, standard=False, open_kokushi=True, mark=1
)
#: Space mahjong's shapes where an open thirteen orphans is no win (``open_kokushi_han`` 0).
SPACE_WITHOUT_OPEN_KOKUSHI: Final = _shapes(
    "space", _space_runs(), _cyclic_wait_shapes, standard=False, open_kokushi=False, mark=2
)


def shapes_by_mark(mark: int) -> HandShapes:
    """The shapes with this :attr:`HandShapes.mark`."""
    return _BY_MARK[mark]


class ShapeOptions(Protocol):
    """The options of a rule set that choose its shapes (a :class:`~engine.rules.ruleset.Ruleset`
    has them; the hand layer sits below the rules and names only what it reads)."""

    @property
    def shapes(self) -> str: ...

    @property
    def open_kokushi_han(self) -> int: ...


def shapes_for(ruleset: ShapeOptions) -> HandShapes:
    """The shapes of a rule set (its ``shapes`` and ``open_kokushi_han`` options)."""
    name = ruleset.shapes
    if name == "standard":
        return STANDARD
    if name == "space":
        return SPACE if ruleset.open_kokushi_han > 0 else SPACE_WITHOUT_OPEN_KOKUSHI
    raise UnknownRulesetError(f"unknown hand shapes {name!r}; known: standard, space")
