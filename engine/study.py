"""Study aids of riichi games: the tile acceptance of every discard decision.

A *decision* is a discard a player chose: the moment after their draw (a replacement draw
included) or their chi or pon, when they hold ``3n+2`` concealed tiles and their next move is a
discard (after a riichi declaration, if any). Moments where the next move is something else (a
kan, a north, a win, nine terminals) decide no discard, and a player in riichi has no choice (the
drawn tile goes), so neither counts. At each decision, every discard the rules allow (a swap call
forbids some) is valued by :func:`engine.hand.acceptance.acceptance`, from what that player can
see (their own concealed tiles, every river, every meld, the extracted norths and the dora
indicators), and the discard made is compared with the best: it *kept the most acceptance* when
it left the lowest shanten any discard leaves with the best count there (``docs/stats.md``).

Tile acceptance measures speed alone: how many draws would bring the hand closer to tenpai.
The other side of a decision is judged here too, where the engine can (``docs/stats.md``,
"Value and defence"): the **value** kept, as the yaku each discard's hand can still reach
without a step more than its shanten (:func:`yaku_in_reach`), and the **safety** of each
discard against every opponent in riichi: genbutsu, suji, kabe (no-chance) or one-chance
(:func:`discard_safety`, with :class:`RiichiPasses`). A discard that did not keep the most
acceptance but kept a yaku or a safer tile that every best discard gives up is a *trade*
(:func:`trade_of`), not a plain loss.

The framer shows each decision in its frame (:func:`study_of`, :class:`~engine.frame_types.Study`);
:func:`riichi_study` counts a whole game's decisions per round and seat, for the statistics
(``stats``, computed after the verification, never inside the replay: ``python -m engine
verify`` does not pay for it), with the decisions made facing a riichi, the genbutsu among
them, and the deal-ins of a push at two or more shanten. Ùzje mahjong has no shanten count in
the engine, so no study (:meth:`engine.families.GameFamily.study` is ``None`` for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine.errors import EngineError, IllegalActionError
from engine.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    Game,
    NorthExtraction,
    OpenKan,
    Pon,
    RiichiAccepted,
    RiichiDeclared,
    Round,
    Win,
)
from engine.frame_types import DiscardOption, Study, StudyTally
from engine.hand.acceptance import (
    Acceptance,
    Decision,
    Outcome,
    acceptance,
    decision_outcome,
    discard_outcome,
)
from engine.hand.melds import CHI, Meld, called_honour_runs
from engine.hand.shanten import shanten_chiitoitsu
from engine.hand.shapes import shapes_for
from engine.rules.presets import ruleset_of
from engine.rules.ruleset import Ruleset, Scoring
from engine.rules.yaku import DRAGON_YAKU, ROUND_WIND_YAKU, SEAT_WIND_YAKU
from engine.state import GameState
from engine.tiles import EAST, HAKU, KINDS, NORTH, SANMA_MISSING, format_kind

__all__ = [
    "DEFENCE",
    "GENBUTSU",
    "KABE",
    "ONE_CHANCE",
    "SUJI",
    "VALUE",
    "RiichiPasses",
    "StudyContext",
    "StudyPass",
    "TableTiles",
    "chosen_discard",
    "discard_safety",
    "reach_shanten",
    "riichi_study",
    "safety_rank",
    "seen_on_table",
    "study_of",
    "study_pass",
    "tile_copies",
    "trade_of",
    "yaku_in_reach",
]


def _frozen(counts: Sequence[int]) -> Sequence[int]:
    """A copy of counts that later changes leave alone: bytes (what the batch reads fastest),
    or a list for counts outside 0-255 (a record's impossible tiles, valued one by one)."""
    try:
        return bytes(counts)
    except ValueError:
        return list(counts)


#: A decision as :meth:`StudyContext.outcomes` takes it: the hand to value, or (shapes other
#: than the standard ones) its outcome already worked out (``None``: one the engine cannot value).
DecisionInput = Decision | Outcome | None

#: Events that may come between a decision and its discard without being a move of their own.
_BETWEEN: Final = (RiichiDeclared, DoraRevealed)


def tile_copies(ruleset: Ruleset) -> list[int]:
    """Copies of each kind in the rule set's tiles: 4, none of 2m-8m in sanma, no honours in
    small mahjong."""
    return [
        0
        if (ruleset.sanma and kind in SANMA_MISSING) or (kind >= EAST and not ruleset.honors)
        else 4
        for kind in range(KINDS)
    ]


def seen_on_table(state: GameState) -> list[int]:
    """Copies of each kind every seat can see: rivers (a called tile once, in its meld), melds,
    extracted norths and the dora indicators."""
    seen = [0] * KINDS
    for data in state.seats:
        for tile, called in zip(data.river, data.river_called, strict=True):
            if not called:
                seen[tile.kind] += 1
        for meld in data.melds:
            for tile in meld.tiles:
                seen[tile.kind] += 1
        seen[NORTH] += data.kita
    for tile in state.dora_indicators:
        seen[tile.kind] += 1
    return seen


class TableTiles:
    """:func:`seen_on_table` kept up to date event by event (:meth:`note`), from a round's
    start: what a decision sees without counting every river again."""

    def __init__(self, state: GameState) -> None:
        self.seen = [0] * KINDS
        self.indicators = 0
        self.note_indicators(state)

    def note(self, event: Event, state: GameState) -> None:
        """Take in one event the state has just applied: a discard, a call's own tiles (the
        called one was counted as a discard), a kan's, a north, and the dora indicators."""
        seen = self.seen
        kind = type(event)
        if kind is Discard or kind is AddedKan or kind is NorthExtraction:
            seen[event.tile.kind] += 1  # type: ignore[union-attr]
        elif kind is Chi or kind is Pon or kind is OpenKan:
            for tile in event.consumed:  # type: ignore[union-attr]
                seen[tile.kind] += 1
        elif kind is ClosedKan:
            for tile in event.tiles:  # type: ignore[union-attr]
                seen[tile.kind] += 1
        if len(state.dora_indicators) != self.indicators:
            self.note_indicators(state)

    def note_indicators(self, state: GameState) -> None:
        """Take in the dora indicators revealed since the last look."""
        for tile in state.dora_indicators[self.indicators :]:
            self.seen[tile.kind] += 1
        self.indicators = len(state.dora_indicators)


def chosen_discard(events: Sequence[Event], index: int, seat: int) -> int | None:
    """The kind ``seat`` discarded as its next move after ``events[index]`` (a riichi
    declaration or a dora indicator may come between), or ``None`` when its next move was not
    a discard."""
    for number in range(index + 1, len(events)):
        later = events[number]
        if isinstance(later, Discard):
            return later.tile.kind if later.seat == seat else None
        if isinstance(later, _BETWEEN) and getattr(later, "seat", seat) == seat:
            continue
        return None
    return None


def _discard_outcomes(
    decisions: Sequence[Decision], copies: Sequence[int], three_player: bool
) -> list[Outcome | None]:
    """The decisions' outcomes the fastest way this install has: in C
    (:mod:`engine.hand.acceptance_native`, built by ``pip install`` with a C compiler), with
    numpy (:mod:`engine.hand.acceptance_batch`), or one by one
    (:func:`engine.hand.acceptance.decision_outcome`: the engine alone needs only the standard
    library). The same numbers every way. Imported here: a verification without the study
    loads none of them."""
    from engine.hand import acceptance_native

    if acceptance_native.available():
        return acceptance_native.discard_outcomes(decisions, copies, three_player=three_player)
    try:
        from engine.hand.acceptance_batch import discard_outcomes
    except ImportError:
        return [
            decision_outcome(decision, copies, three_player=three_player) for decision in decisions
        ]
    return discard_outcomes(decisions, copies, three_player=three_player)


class StudyContext:
    """What a rule set fixes for every decision: the tiles in the set, sanma, the shapes."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.copies = tile_copies(ruleset)
        self.three_player = ruleset.sanma
        self.shapes = shapes_for(ruleset)
        #: Whether the engine judges a hand's value here (:func:`yaku_in_reach`): rule sets
        #: scored by yaku and han, with the standard shapes (space mahjong's runs make yaku of
        #: their own) and hands of 13 tiles.
        self.judges_value = (
            ruleset.scoring is Scoring.RIICHI and self.shapes.standard and ruleset.dealt_tiles == 13
        )

    def decision_seat(self, state: GameState, event: Event) -> int | None:
        """The seat that holds a discard decision after ``event`` was applied to ``state``
        (its draw or call), unless it is in riichi; ``None`` otherwise."""
        if not isinstance(event, Draw | Chi | Pon):
            return None
        seat = event.seat
        if state.seats[seat].riichi:
            return None
        return seat

    def acceptance(self, state: GameState, seat: int, seen: Sequence[int]) -> Acceptance | None:
        """Every discard ``seat`` may make now with its acceptance (``seen``: as
        :func:`seen_on_table`); ``None`` for a hand the engine cannot value."""
        data = state.seats[seat]
        try:
            return acceptance(data.counts, self.copies, seen, **self._options(state, seat))
        except (EngineError, ValueError):
            return None

    def decision_input(
        self, state: GameState, seat: int, discarded: int, seen: Sequence[int]
    ) -> DecisionInput:
        """``seat``'s decision now, discarding the kind ``discarded`` (``seen``: as
        :func:`seen_on_table`), as :meth:`outcomes` takes it: the hand, the tiles seen and the
        discards allowed, to be valued with the game's others; or, for shapes other than the
        standard ones, its outcome at once."""
        if not self.shapes.standard:
            return self._outcome_now(state, seat, seen, discarded)
        data = state.seats[seat]
        allowed = self._options(state, seat)["discards"] if data.forbidden else None
        return Decision(_frozen(data.counts), _frozen(seen), discarded, allowed)

    def outcomes(self, inputs: Sequence[DecisionInput]) -> list[Outcome | None]:
        """The :data:`~engine.hand.acceptance.Outcome` of each decision of
        :meth:`decision_input` (``None``: a hand the engine cannot value), the hands worked out
        together (:func:`_discard_outcomes`: in C, with numpy, or one by one)."""
        if self.shapes.standard:  # every input a hand (decision_input)
            return _discard_outcomes(inputs, self.copies, self.three_player)  # type: ignore[arg-type]
        hands = [(number, x) for number, x in enumerate(inputs) if isinstance(x, Decision)]
        out = [None if isinstance(x, Decision) else x for x in inputs]
        decisions = [decision for _, decision in hands]
        found = _discard_outcomes(decisions, self.copies, self.three_player)
        for (number, _), outcome in zip(hands, found, strict=True):
            out[number] = outcome
        return out

    def _outcome_now(
        self, state: GameState, seat: int, seen: Sequence[int], discarded: int
    ) -> Outcome | None:
        """The outcome of one decision, by :meth:`outcome` and :meth:`shanten_left`."""
        found = self.outcome(state, seat, seen, discarded)
        if found is None:
            return None
        left = self.shanten_left(state, seat, seen, discarded, found)
        return None if left is None else (found[0], found[1], left)

    def outcome(
        self, state: GameState, seat: int, seen: Sequence[int], discarded: int
    ) -> tuple[int | None, int] | None:
        """:func:`engine.hand.acceptance.discard_outcome` of discarding the kind
        ``discarded`` now: its loss and the lowest shanten; ``None`` for a hand the engine
        cannot value or a discard it may not make."""
        data = state.seats[seat]
        try:
            return discard_outcome(
                data.counts, self.copies, seen, discarded, **self._options(state, seat)
            )
        except (EngineError, ValueError):
            return None

    def shanten_left(
        self,
        state: GameState,
        seat: int,
        seen: Sequence[int],
        discarded: int,
        outcome: tuple[int | None, int],
    ) -> int | None:
        """The shanten discarding ``discarded`` leaves, exact up to 2 (all a push asks: from
        2 up, a lower bound of 2 or more), given its :meth:`outcome`; ``None`` for a hand the
        engine cannot value. A discard off the lowest shanten leaves at least one more, so
        only one that gave up tenpai needs every discard's acceptance."""
        loss, lowest = outcome
        if loss is not None:
            return lowest
        if lowest >= 1:
            return lowest + 1
        found = self.acceptance(state, seat, seen)
        choice = None if found is None else found.choice(discarded)
        return None if choice is None else choice.shanten

    def sides(
        self,
        state: GameState,
        seat: int,
        found: Acceptance,
        seen: Sequence[int],
        passes: RiichiPasses,
    ) -> Sides:
        """The other side of ``seat``'s decision, for each discard of ``found``: the yaku it
        keeps in reach (where the engine judges value) and its safety against each other
        seat in riichi (``passes``: the round's events so far)."""
        data = state.seats[seat]
        counts = data.counts
        against = riichi_seats(state, seat)
        safety: dict[int, tuple[str | None, ...]] = {}
        if against:
            unseen = [
                max(0, copies - table - own)
                for copies, table, own in zip(self.copies, seen, counts, strict=True)
            ]
            genbutsu = [passes.genbutsu(state, other) for other in against]
            for choice in found.choices:
                safety[choice.kind] = tuple(
                    discard_safety(choice.kind, mask, unseen, shapes_known=self.shapes.standard)
                    for mask in genbutsu
                )
        yaku: dict[int, tuple[str, ...] | None] = {}
        if self.judges_value:
            after = list(counts)
            for choice in found.choices:
                after[choice.kind] -= 1
                try:
                    yaku[choice.kind] = yaku_in_reach(
                        after,
                        data.melds,
                        choice.shanten,
                        seat_wind=state.seat_wind(seat),
                        round_wind=state.round_wind,
                        open_tanyao=self.ruleset.kuitan,
                    )
                except (EngineError, ValueError):
                    yaku[choice.kind] = None
                after[choice.kind] += 1
        return Sides(against, yaku, safety)

    def _options(self, state: GameState, seat: int) -> dict[str, Any]:
        """The rule set's and the moment's options of :func:`engine.hand.acceptance.acceptance`:
        sanma, the shapes (with what the seat called, for space mahjong's open thirteen
        orphans) and the discards a swap call forbids."""
        data = state.seats[seat]
        discards = None
        if data.forbidden and not self.ruleset.kuikae:
            held = [kind for kind in range(KINDS) if data.counts[kind]]
            discards = [kind for kind in held if kind not in data.forbidden]
        shapes = self.shapes
        return {
            "three_player": self.three_player,
            "shapes": shapes,
            "called": None if shapes.standard else called_honour_runs(data.melds),
            "discards": discards,
        }


# -- The value kept: the yaku a hand can still reach -----------------------------------------

#: A group's decompositions: (melds, other blocks: pairs and partial runs, whether a pair is
#: among them), Pareto-best only.
_Blocks = frozenset[tuple[int, int, int]]

#: Memo of :func:`_group_blocks` (by the group's counts and whether runs count); emptied when
#: full, as the acceptance memos are.
_GROUP_MEMO: dict[tuple[bytes, bool], _Blocks] = {}
_GROUP_MEMO_SIZE: Final = 20_000

#: Names of the three number suits' kinds, and of the simples (2-8 of each suit).
_SUITS: Final = (range(0, 9), range(9, 18), range(18, 27))
_SIMPLES: Final = frozenset(kind for suit in _SUITS for kind in suit if 0 < kind % 9 < 8)
_TERMINALS: Final = (0, 8, 9, 17, 18, 26)
_SUIT_KINDS: Final = tuple(frozenset(suit) for suit in _SUITS)
_HONOURS: Final = frozenset(range(EAST, KINDS))


def _pareto(options: set[tuple[int, int, int]]) -> _Blocks:
    """The options no other beats: more melds, more melds and blocks, a pair."""
    return frozenset(
        a
        for a in options
        if not any(
            b != a and b[0] >= a[0] and b[0] + b[1] >= a[0] + a[1] and b[2] >= a[2] for b in options
        )
    )


def _walk(counts: list[int], start: int, runs: bool) -> set[tuple[int, int, int]]:
    """Every (melds, blocks, pair) of ``counts[start:]``: at each kind in turn, how many of
    its tiles go to a triplet, a pair (one at most: a second pair of one kind is a dead
    block), runs and partial runs starting there; the rest are isolated."""
    size = len(counts)
    index = start
    while index < size and not counts[index]:
        index += 1
    if index >= size:
        return {(0, 0, 0)}
    count = counts[index]
    next1 = counts[index + 1] if runs and index + 1 < size else 0
    next2 = counts[index + 2] if runs and index + 2 < size else 0
    out: set[tuple[int, int, int]] = set()
    counts[index] = 0
    for triplet in range(2 if count >= 3 else 1):
        for pair in range(2 if count - 3 * triplet >= 2 else 1):
            left = count - 3 * triplet - 2 * pair
            for run in range(min(left, next1, next2) + 1):
                for near in range(min(left - run, next1 - run) + 1):
                    for gap in range(min(left - run - near, next2 - run) + 1):
                        if near or run:
                            counts[index + 1] -= run + near
                        if gap or run:
                            counts[index + 2] -= run + gap
                        for melds, blocks, paired in _walk(counts, index + 1, runs):
                            out.add(
                                (melds + triplet + run, blocks + pair + near + gap, paired | pair)
                            )
                        if near or run:
                            counts[index + 1] += run + near
                        if gap or run:
                            counts[index + 2] += run + gap
    counts[index] = count
    return out


def _group_blocks(key: bytes, runs: bool) -> _Blocks:
    """The decompositions of one group's counts (a suit's 9, or one honour's 1)."""
    found = _GROUP_MEMO.get((key, runs))
    if found is None:
        found = _pareto(_walk(list(key), 0, runs))
        if len(_GROUP_MEMO) >= _GROUP_MEMO_SIZE:
            _GROUP_MEMO.clear()
        _GROUP_MEMO[key, runs] = found
    return found


def reach_shanten(
    counts: Sequence[int], melds: int, *, runs: bool = True, forced_blocks: int = 0
) -> int:
    """Shanten of the regular hand (four melds and a pair) made of ``counts`` alone, counted
    exhaustively, with ``melds`` melds already complete (called, or a closed kan) and
    ``forced_blocks`` blocks that cannot be the pair (a pair of value honours meant to become
    a triplet); ``runs`` False for a hand of triplets only. A tile missing from ``counts`` (one
    that breaks the yaku asked about) is one to exchange: ``8 - 2 * melds - blocks - pair``
    with at most ``4 - melds`` blocks besides the pair, the count of ``mahjong``'s shanten
    and of :func:`engine.hand.shanten.shanten`, here over every decomposition.

    >>> reach_shanten([1, 1, 1] + [0] * 6 + [2] + [0] * 24, 3)  # 123m + a pair, 3 melds called
    -1
    """
    combined: _Blocks = frozenset({(0, 0, 0)})
    groups = [bytes(counts[suit.start : suit.stop]) for suit in _SUITS]
    groups += [bytes((count,)) for count in counts[EAST:KINDS] if count]
    for key in groups:
        if not any(key):
            continue
        blocks = _group_blocks(key, runs and len(key) == 9)
        combined = _pareto(
            {(a[0] + b[0], a[1] + b[1], a[2] | b[2]) for a in combined for b in blocks}
        )
    best = 0
    for concealed, partial, paired in combined:
        complete = concealed + melds
        room = max(0, 4 - complete)
        value = 2 * complete + min(partial + forced_blocks, room)
        if paired:
            value = max(value, 2 * complete + min(partial - 1 + forced_blocks, room) + 1)
        best = max(best, value)
    return 8 - best


def _pairs_shanten(counts: Sequence[int], kinds: frozenset[int] | range) -> int:
    """Seven-pairs shanten of the tiles of ``kinds`` in a closed hand of 13 (others to
    exchange): ``6 - pairs + max(0, 7 - kinds held)``, as the engine counts it."""
    pairs = sum(1 for kind in kinds if counts[kind] >= 2)
    held = sum(1 for kind in kinds if counts[kind])
    return 6 - pairs + max(0, 7 - held)


def _triplets_shanten(counts: Sequence[int], melds: int) -> int:
    """:func:`reach_shanten` of a hand of triplets only (``runs`` False), worked out kind by
    kind: a kind held three or four times is a meld, twice a pair."""
    complete = melds + counts.count(3) + counts.count(4)
    pairs = counts.count(2)
    room = max(0, 4 - complete)
    value = 2 * complete + min(pairs, room)
    if pairs:
        value = max(value, 2 * complete + min(pairs - 1, room) + 1)
    return 8 - value


def yaku_in_reach(
    counts: Sequence[int],
    melds: Sequence[Meld],
    shanten: int,
    *,
    seat_wind: int,
    round_wind: int,
    open_tanyao: bool = True,
) -> tuple[str, ...]:
    """The yaku a hand can still reach (``docs/stats.md``, "Value and defence"): those of the
    list below with which it reaches tenpai in no more exchanges than it needs at all
    (``shanten``, the engine's, of ``counts``: the concealed tiles after the discard, ``3n+1``)
    with ``melds`` set aside. The tiles a yaku forbids count as tiles to exchange
    (:func:`reach_shanten`), so a yaku is *in reach* when going for it costs no step more.

    - ``riichi``: a closed hand (closed kans allowed);
    - ``tanyao``: simples only, the melds too (an open hand only with ``open_tanyao``);
    - each value honour (``haku``, ``hatsu``, ``chun``, the seat's and the round's wind): held
      as a meld or a triplet, or as a pair that can become the triplet without a step more;
    - ``honitsu`` (one suit and honours) and ``chinitsu`` (one suit), the melds too; a hand
      with ``chinitsu`` in reach lists it alone;
    - ``toitoi``: triplets only (no chi);
    - ``chiitoitsu``: a closed hand of 13 tiles, by the engine's seven-pairs shanten.

    Tanyao and the flushes count seven pairs of their tiles too, for a closed hand of 13.
    Dora, and the yaku not listed, are not judged: an empty answer says only that none of
    these is in reach.
    """
    closed = not any(meld.is_open for meld in melds)
    called = len(melds)
    seven = closed and called == 0
    held = sum(counts)
    suit_tiles = [sum(counts[suit.start : suit.stop]) for suit in _SUITS]
    honour_tiles = held - sum(suit_tiles)
    found: list[str] = []
    if closed:
        found.append("riichi")

    outer = honour_tiles + sum(counts[kind] for kind in _TERMINALS)
    if (closed or open_tanyao) and _reaches(counts, melds, shanten, _SIMPLES, outer):
        found.append("tanyao")
    values = [(kind, DRAGON_YAKU[kind - HAKU]) for kind in range(HAKU, HAKU + 3)]
    values += [(seat_wind, SEAT_WIND_YAKU[seat_wind - EAST])]
    values += [(round_wind, ROUND_WIND_YAKU[round_wind - EAST])]
    for kind, name in values:
        if any(meld.kind == kind and meld.type is not CHI for meld in melds) or counts[kind] >= 3:
            found.append(name)
        elif counts[kind] == 2:
            rest = list(counts)
            rest[kind] = 0
            if reach_shanten(rest, called, forced_blocks=1) <= shanten:
                found.append(name)
    flush = ""
    for number, own in enumerate(_SUIT_KINDS):
        if not suit_tiles[number] and not any(meld.kind in own for meld in melds):
            continue  # a suit the hand holds nothing of is never its flush's
        if _reaches(counts, melds, shanten, own, held - suit_tiles[number]):
            flush = "chinitsu"
        elif not flush and _reaches(
            counts, melds, shanten, own | _HONOURS, held - suit_tiles[number] - honour_tiles
        ):
            flush = "honitsu"
    if flush:
        found.append(flush)
    if not any(meld.type is CHI for meld in melds) and _triplets_shanten(counts, called) <= shanten:
        found.append("toitoi")
    if seven and held == 13 and shanten_chiitoitsu(counts) <= shanten:
        found.append("chiitoitsu")
    return tuple(found)


def _reaches(
    counts: Sequence[int], melds: Sequence[Meld], shanten: int, kinds: frozenset[int], left_out: int
) -> bool:
    """Whether the hand (:func:`yaku_in_reach`'s) reaches tenpai with ``kinds`` alone
    (``left_out``: its tiles of other kinds) in ``shanten`` exchanges, its melds of ``kinds``
    too. (A function of its own, not one nested in its caller: compiled, a nested function and
    its caller's frame refer to each other, a cycle left to the collector at every call.)"""
    if left_out > shanten:  # each tile it forbids is an exchange at least
        return False
    if any(tile.kind not in kinds for meld in melds for tile in meld.tiles):
        return False
    if left_out == 0:
        return True  # the whole hand is of its tiles: no step more than it needs
    kept = [count if kind in kinds else 0 for kind, count in enumerate(counts)]
    best = reach_shanten(kept, len(melds))
    if not melds:  # seven pairs: a closed hand without a kan either
        best = min(best, _pairs_shanten(counts, kinds))
    return best <= shanten


# -- The safety of a discard against a riichi ------------------------------------------------

GENBUTSU: Final = "genbutsu"
SUJI: Final = "suji"
KABE: Final = "kabe"
ONE_CHANCE: Final = "one_chance"
#: How safe each sign makes a tile, for comparing two discards (higher is safer): genbutsu is
#: certain, suji and kabe both rule out every two-sided wait, one-chance leaves one copy for
#: them, and a tile with no sign none.
_RANKS: Final = {GENBUTSU: 3, SUJI: 2, KABE: 2, ONE_CHANCE: 1}

#: The reasons of a trade (:func:`trade_of`).
VALUE: Final = "value"
DEFENCE: Final = "defence"


def safety_rank(sign: str | None) -> int:
    """How safe a sign of :func:`discard_safety` makes a tile: 3 genbutsu, 2 suji or kabe,
    1 one-chance, 0 none."""
    return 0 if sign is None else _RANKS[sign]


class RiichiPasses:
    """The tiles each seat in riichi has let pass: every discard made since its riichi
    discard (a kind per bit; ``None`` before its riichi). Fed every event of a round in order
    (:meth:`note`): the state keeps each river, not the order of the rivers' tiles between
    seats."""

    def __init__(self, players: int) -> None:
        self.declared = [False] * players
        self.passed: list[int | None] = [None] * players
        #: Whether a seat has declared riichi this round: until then a discard changes nothing
        #: here (a study notes only those it must).
        self.live = False

    def note(self, event: Event) -> None:
        """Take in one event applied to the round."""
        if isinstance(event, RiichiDeclared):
            self.declared[event.seat] = True
            self.live = True
        elif isinstance(event, Discard):
            bit = 1 << event.tile.kind
            for seat, passed in enumerate(self.passed):
                if passed is not None and seat != event.seat:
                    self.passed[seat] = passed | bit
            if self.declared[event.seat]:
                self.declared[event.seat] = False
                self.passed[event.seat] = 0

    def genbutsu(self, state: GameState, seat: int) -> int:
        """The kinds ``seat`` cannot win on by ron (a bit per kind): its own discards, and
        the tiles it let pass since its riichi."""
        mask = self.passed[seat] or 0
        for tile in state.seats[seat].river:
            mask |= 1 << tile.kind
        return mask


def riichi_seats(state: GameState, seat: int) -> tuple[int, ...]:
    """The seats other than ``seat`` in riichi whose riichi discard is made."""
    return tuple(
        other
        for other, data in enumerate(state.seats)
        if other != seat and data.riichi and data.riichi_discard >= 0
    )


def discard_safety(
    kind: int, genbutsu: int, unseen: Sequence[int], *, shapes_known: bool = True
) -> str | None:
    """How safe discarding ``kind`` is against one player in riichi (``docs/stats.md``,
    "Value and defence"): ``genbutsu`` (a kind of ``genbutsu``, the bits of
    :meth:`RiichiPasses.genbutsu`: they cannot win on it), else, for a number tile, by its
    two-sided waits (``r+1 r+2`` waiting on ``r`` and ``r+3``, ``r-2 r-1`` on ``r-3`` and ``r``;
    a tile has one or two): ``suji`` when each such wait would be furiten (its other tile is
    genbutsu), ``kabe`` when each is furiten or impossible (no copy of one of its two tiles
    left unseen by the discarder: ``unseen``, as the acceptance counts it) and one at least
    impossible, ``one_chance`` when each is furiten, impossible or short of tiles (one copy
    left unseen), else ``None``. An honour is genbutsu or ``None``. Neither suji, kabe nor
    one-chance says anything of the other waits (single, pair, closed, edge).
    ``shapes_known`` False (space mahjong's wrap-around runs): genbutsu alone."""
    if genbutsu >> kind & 1:
        return GENBUTSU
    if kind >= EAST or not shapes_known:
        return None
    rank = kind % 9
    sides: list[tuple[int, int, int]] = []
    if rank <= 5:
        sides.append((kind + 3, kind + 1, kind + 2))
    if rank >= 3:
        sides.append((kind - 3, kind - 2, kind - 1))
    if all(genbutsu >> partner & 1 for partner, _, _ in sides):
        return SUJI
    worst = KABE
    for partner, first, second in sides:
        if genbutsu >> partner & 1:
            continue
        left = min(unseen[first], unseen[second])
        if left == 1:
            worst = ONE_CHANCE
        elif left > 1:
            return None
    return worst


def trade_of(
    options: Sequence[DiscardOption], shanten: int, best: int, discard: str
) -> tuple[str, ...]:
    """What the discard made (``discard``) kept that every discard keeping the most
    acceptance (``shanten`` and ``best`` count) gives up, when it is not one of them:
    ``value`` when it keeps a yaku none of them keeps, ``defence`` when it is safer against
    the riichi (the least safe of its signs, :func:`safety_rank`) than every one of them."""
    made = next((option for option in options if option.tile == discard), None)
    tops = [option for option in options if option.shanten == shanten and option.count == best]
    if made is None or made in tops:
        return ()
    out: list[str] = []
    if made.yaku is not None:
        kept: set[str] = set()
        for option in tops:
            kept.update(option.yaku or ())
        if set(made.yaku) - kept:
            out.append(VALUE)
    if made.safety:
        mine = min(safety_rank(sign) for sign in made.safety)
        if all(mine > min(safety_rank(sign) for sign in option.safety) for option in tops):
            out.append(DEFENCE)
    return tuple(out)


class Sides:
    """The other side of one decision (:meth:`StudyContext.sides`): the other seats in riichi,
    and by kind discarded the yaku kept in reach (``None``: value not judged) and the safety
    against each of those seats."""

    def __init__(
        self,
        riichi: tuple[int, ...],
        yaku: dict[int, tuple[str, ...] | None],
        safety: dict[int, tuple[str | None, ...]],
    ) -> None:
        self.riichi = riichi
        self.yaku = yaku
        self.safety = safety


def study_of(found: Acceptance, seat: int, discarded: int, sides: Sides | None = None) -> Study:
    """The frame's study aid of one decision: ``found`` for ``seat``, which discarded the kind
    ``discarded``; with ``sides``, each discard's value and safety and the trade made."""
    unseen: dict[int, int] = {}
    options = []
    for choice in found.choices:
        unseen.update(zip(choice.accepted, choice.unseen, strict=True))
        options.append(
            DiscardOption(
                tile=format_kind(choice.kind),
                shanten=choice.shanten,
                count=choice.count,
                tiles=tuple(map(format_kind, choice.accepted)),
                yaku=None if sides is None else sides.yaku.get(choice.kind),
                safety=() if sides is None else sides.safety.get(choice.kind, ()),
            )
        )
    discard = format_kind(discarded)
    return Study(
        seat=seat,
        shanten=found.shanten,
        best=found.best,
        options=tuple(options),
        unseen=tuple((format_kind(kind), unseen[kind]) for kind in sorted(unseen)),
        discard=discard,
        loss=found.loss(discarded),
        riichi=() if sides is None else sides.riichi,
        trade=trade_of(options, found.shanten, found.best, discard),
    )


#: Events that may come between a discard and a ron on it.
_BEFORE_RON: Final = (RiichiAccepted, RiichiDeclared, DoraRevealed)


def riichi_study(game: Game) -> list[StudyTally]:
    """Every round's discard decisions per seat, and how many kept the most acceptance, of a
    riichi game: each round replayed from its deal as the frames replay it; a round the rules
    refuse counts up to the refused event. Seats of a round that cannot start have no tally.
    With them, the decisions made facing another seat's riichi, those whose discard was
    genbutsu against every such seat, and whether the seat dealt in on a *push*: a discard made
    facing a riichi, not genbutsu against every one, that left two or more shanten
    (``docs/stats.md``, "Value and defence").

    The rounds are replayed here (:class:`StudyPass`); a verification counts the same in its
    own replay (:meth:`engine.families.GameFamily.replay_and_study`).

    :raises EngineError: the game's rule set is unknown.
    """
    return study_pass(game).tallies()


def study_pass(game: Game) -> StudyPass:
    """A riichi game's :class:`StudyPass` with every round pushed, each from its deal (a round
    that cannot start is left out), its decisions gathered and not yet valued.

    :raises EngineError: the game's rule set is unknown.
    """
    ruleset = ruleset_of(game)
    study = StudyPass(ruleset)
    first_dealer = game.rounds[0].dealer if game.rounds else 0
    for index, round_ in enumerate(game.rounds):
        state = GameState(ruleset, first_dealer=first_dealer)
        try:
            state.start_round(round_)
        except IllegalActionError:
            continue
        study.push_round(index, round_, state)
    return study


class StudyPass:
    """A riichi game's study, hand by hand as a replay deals them: :meth:`push_round` pushes a
    hand's events into its state and gathers its decisions (a
    :class:`~engine.report.RoundFollower`: the verification's replay can push through it),
    :meth:`tallies` values them all at once (:meth:`StudyContext.outcomes`) and counts."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.context = StudyContext(ruleset)
        self.players = ruleset.players
        #: The hands pushed, by index in the record.
        self.rounds: list[int] = []
        #: Per decision: its seat's slot (the hand's place in :attr:`rounds` times the
        #: players, plus the seat), facing a riichi, genbutsu against every one.
        self.where: list[tuple[int, bool, bool]] = []
        #: The decisions to value, as :meth:`StudyContext.outcomes` takes them.
        self.inputs: list[DecisionInput] = []
        #: The decisions (numbers) whose discard a ron took.
        self.dealt_in: list[int] = []

    def push_round(self, index: int, round_: Round, state: GameState) -> tuple[int, str] | None:
        """Push the events of ``round_`` (the record's ``index``-th, dealt on ``state``),
        gathering its decisions, up to the first the rules refuse: its number and why.

        This runs for every event a worker verifies, so it is written for speed: the state's
        own loop (:meth:`~engine.state.GameState.push_events`) inlined, a draw and a discard
        each by one type test, the tiles seen and the riichi passes kept as events come, and
        each decision gathered as bytes, valued later with the game's others (:meth:`tallies`).
        """
        context = self.context
        standard = context.shapes.standard
        self.rounds.append(index)
        passes = RiichiPasses(self.players)
        table = TableTiles(state)
        seen = table.seen
        #: Each seat's decision facing a riichi, not genbutsu, waiting for its discard.
        pushes: dict[int, int] = {}
        #: The last discard, while a ron may still take it: its seat, and its decision's
        #: number if that decision may have pushed.
        last: tuple[int, int | None] | None = None
        events = round_.events
        count = len(events)
        seats = state.seats
        plain_draw, plain_discard, push_checked = state.push_steps()
        where = self.where
        inputs = self.inputs
        first_slot = (len(self.rounds) - 1) * self.players
        for number, event in enumerate(events):
            # (type() tests, not isinstance: the events' classes have no subclasses)
            if type(event) is Draw:
                if not plain_draw(event):
                    problem = push_checked(Draw, event)
                    if problem is not None:
                        return number, problem
                seat = event.seat
                if len(state.dora_indicators) != table.indicators:
                    table.note_indicators(state)
            elif type(event) is Discard:
                if not plain_discard(event):
                    problem = push_checked(Discard, event)
                    if problem is not None:
                        return number, problem
                seen[event.tile.kind] += 1  # (TableTiles.note written out: half the events)
                if len(state.dora_indicators) != table.indicators:
                    table.note_indicators(state)
                if passes.live:
                    passes.note(event)
                seat = event.seat
                last = (seat, pushes.pop(seat, None) if pushes else None)
                continue
            else:
                problem = push_checked(type(event), event)
                if problem is not None:
                    return number, problem
                table.note(event, state)
                if type(event) is Chi or type(event) is Pon:
                    seat = event.seat
                else:  # not a decision: what a ron, a push and the riichi passes follow
                    passes.note(event)
                    if type(event) is Win:
                        if last is not None and not event.tsumo and event.from_seat == last[0]:
                            self.deal_in(last[1])
                    elif not isinstance(event, _BEFORE_RON):
                        last = None
                    continue
            # A draw, a chi or a pon: a decision unless the seat is in riichi.
            last = None
            data = seats[seat]
            if data.riichi:
                continue
            following = events[number + 1] if number + 1 < count else None
            if type(following) is Discard and following.seat == seat:
                discarded = following.tile.kind
            else:  # a riichi declaration or a dora may come between, or no discard follows
                found = chosen_discard(events, number, seat)
                if found is None:
                    continue
                discarded = found
            against = riichi_seats(state, seat) if passes.live else ()
            safe = False
            if against:
                safe = all(passes.genbutsu(state, other) >> discarded & 1 for other in against)
            if standard and not data.forbidden:
                try:
                    decision: DecisionInput = Decision(bytes(data.counts), bytes(seen), discarded)
                except ValueError:  # counts outside 0-255: a record's impossible tiles
                    decision = context.decision_input(state, seat, discarded, seen)
            else:
                decision = context.decision_input(state, seat, discarded, seen)
            where.append((first_slot + seat, bool(against), safe))
            inputs.append(decision)
            if against and not safe:
                pushes[seat] = len(where) - 1
        return None

    def deal_in(self, decision: int | None) -> None:
        """A ron took the discard of this decision (``None``: one that cannot have pushed)."""
        if decision is not None:
            self.dealt_in.append(decision)

    def tallies(self) -> list[StudyTally]:
        """Each pushed round's tallies per seat, the decisions valued."""
        outcomes = self.context.outcomes(self.inputs)
        slots = len(self.rounds) * self.players
        decisions, kept, faced, genbutsu = [0] * slots, [0] * slots, [0] * slots, [0] * slots
        for (slot, facing, safe), outcome in zip(self.where, outcomes, strict=True):
            if outcome is None:
                continue
            decisions[slot] += 1
            if outcome[0] == 0:
                kept[slot] += 1
            if facing:
                faced[slot] += 1
                genbutsu[slot] += safe
        pushed = [False] * slots
        for number in self.dealt_in:
            outcome = outcomes[number]
            if outcome is not None and outcome[2] >= 2:
                pushed[self.where[number][0]] = True
        players = self.players
        return [
            StudyTally(
                self.rounds[slot // players],
                slot % players,
                decisions[slot],
                kept[slot],
                faced[slot],
                genbutsu[slot],
                pushed[slot],
            )
            for slot in range(slots)
        ]
