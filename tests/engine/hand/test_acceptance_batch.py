"""A game's decisions valued together, with numpy (engine/hand/acceptance_batch.py) and in C
(engine/hand/acceptance_native.py, engine/hand/acceptance_kernel.c), against the one-at-a-time
definition (engine.hand.acceptance.acceptance): random hands of every kind, every decision of
corpus games, and the tables they gather from (engine/hand/join_tables.py)."""

from __future__ import annotations

import os
import random
import sys
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from engine.hand import acceptance_batch, acceptance_native, join_tables, shanten_table
from engine.hand.acceptance import Decision, Outcome, decision_outcome
from engine.hand.acceptance_batch import discard_outcomes
from engine.hand.shanten_table_build import join_tables as rebuilt_joins
from engine.study import riichi_study, study_pass
from tests.engine.corpus import corpus_games

FOUR = [4] * 34
SANMA = [0 if 1 <= kind <= 7 else 4 for kind in range(34)]

Valuer = Callable[..., list[Outcome | None]]


def native(
    decisions: Sequence[Decision], copies: Sequence[int], **options: bool
) -> list[Outcome | None]:
    """The C code's outcomes; skips the test where it is not built (CI builds it: there its
    absence fails)."""
    if not acceptance_native.available():
        if os.environ.get("CI"):
            pytest.fail("engine.hand.acceptance_kernel is not built: pip needs a C compiler")
        pytest.skip("engine.hand.acceptance_kernel is not built (no C compiler at pip install)")
    return acceptance_native.discard_outcomes(decisions, copies, **options)


#: The two ways a game's decisions are valued together.
VALUERS = [pytest.param(discard_outcomes, id="numpy"), pytest.param(native, id="c")]


def random_decision(rng: random.Random, copies: Sequence[int]) -> Decision:
    """A hand of 2-14 tiles (3n+2), often crowded into few kinds so that triplets and fours of a
    kind come up, open or closed, with tiles seen and sometimes a swap-call ban."""
    kinds = [kind for kind in range(34) if copies[kind]]
    if rng.random() < 0.4:  # crowded: a few kinds, many copies each
        kinds = rng.sample(kinds, rng.randint(4, 9))  # 4 x 4 >= 14 tiles
    total = rng.choice([14, 14, 14, 14, 11, 11, 8, 5, 2])
    counts = [0] * 34
    while sum(counts) < total:
        kind = rng.choice(kinds)
        if counts[kind] < 4:
            counts[kind] += 1
    seen = [min(copies[k] - counts[k], rng.choice([0, 0, 0, 1, 2])) for k in range(34)]
    held = [kind for kind in range(34) if counts[kind]]
    allowed = None
    if rng.random() < 0.1:
        allowed = rng.sample(held, max(1, len(held) // 2))
    return Decision(counts, seen, rng.choice(held), allowed)


@pytest.mark.parametrize("valued", VALUERS)
@pytest.mark.parametrize(("copies", "three_player"), [(FOUR, False), (SANMA, True)])
def test_the_batch_gives_what_the_acceptance_gives(
    valued: Valuer, copies: list[int], three_player: bool
) -> None:
    rng = random.Random(4211 + three_player)
    decisions = [random_decision(rng, copies) for _ in range(3000)]
    found = valued(decisions, copies, three_player=three_player)
    wanted = [
        decision_outcome(decision, copies, three_player=three_player) for decision in decisions
    ]
    differ = [
        (decision, got, want)
        for decision, got, want in zip(decisions, found, wanted, strict=True)
        if got != want
    ]
    assert not differ, differ[:3]
    # The random hands reach what the batch must get right: every shanten from tenpai up (a
    # tenpai hand's accepted draws complete it: the tables' -1), losses above zero, and
    # discards that leave more than the lowest.
    assert {want[1] for want in wanted if want} >= {0, 1, 2, 3}
    assert any(want[0] for want in wanted if want)
    assert any(want[0] is None for want in wanted if want)


@pytest.mark.parametrize("valued", VALUERS)
def test_hands_the_arrays_leave_are_valued_one_by_one(valued: Valuer) -> None:
    honour_four = [0] * 34
    for kind, count in {0: 3, 1: 1, 2: 1, 9: 2, 10: 1, 27: 4, 30: 2}.items():
        honour_four[kind] = count  # 14 tiles, East four times: the jidahai floor
    bad_total = [1] * 13 + [0] * 21  # 13 tiles: not a hand to discard from
    sanma_middle = [0] * 34
    sanma_middle[3] = 2  # 4m in three-player mode
    sanma_middle[9:21] = [1] * 12
    not_held = Decision(honour_four, [0] * 34, 5)
    banned = Decision(honour_four, [0] * 34, 0, allowed=[27])
    decisions = [Decision(honour_four, [0] * 34, 27), Decision(bad_total, [0] * 34, 0)]
    decisions += [not_held, banned]
    found = valued(decisions, FOUR)
    assert found == [decision_outcome(decision, FOUR) for decision in decisions]
    assert found[0] is not None and found[1:] == [None, None, None]
    assert valued([Decision(sanma_middle, [0] * 34, 9)], SANMA, three_player=True) == [None]
    # Counts no byte holds, or not 34 of them: the whole game one by one.
    odd = [Decision([300] + [0] * 33, [0] * 34, 0), Decision([1] * 14, [0] * 34, 0)]
    assert valued(odd + decisions, FOUR) == [None, None, *found]


def test_without_the_tables_every_decision_is_valued_one_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(77)
    decisions = [random_decision(rng, FOUR) for _ in range(200)]
    with_tables = discard_outcomes(decisions, FOUR)
    monkeypatch.setattr(acceptance_batch, "_tables", lambda: None)
    assert discard_outcomes(decisions, FOUR) == with_tables


def corpus_decisions() -> list[tuple[list[Decision], list[int], bool]]:
    """Every decision of every fourth corpus file's riichi games, as the study gathers them
    (:func:`engine.study.study_pass`)."""
    gathered: list[tuple[list[Decision], list[int], bool]] = []
    for game in corpus_games(4):
        try:
            study = study_pass(game)
        except ValueError:  # EngineError: a rule set the engine does not know
            continue
        hands = [x for x in study.inputs if isinstance(x, Decision)]
        gathered.append((hands, study.context.copies, study.context.three_player))
    return gathered


@pytest.mark.corpus
@pytest.mark.parametrize("valued", VALUERS)
def test_every_decision_of_corpus_games_is_valued_as_one_by_one(valued: Valuer) -> None:
    checked = 0
    three_player_games = 0
    for decisions, copies, three_player in corpus_decisions():
        found = valued(decisions, copies, three_player=three_player)
        wanted = [
            decision_outcome(decision, copies, three_player=three_player) for decision in decisions
        ]
        assert found == wanted
        checked += len(decisions)
        three_player_games += three_player
    assert checked > 5000 and three_player_games


def test_the_shipped_joins_read_back() -> None:
    joins = join_tables.load()
    table = shanten_table.load()
    assert joins is not None and table is not None
    assert joins.suits == len(table.frontiers)
    assert len(joins.join2) == joins.suits**2
    assert max(joins.join2) == joins.pairs - 1 and max(joins.join3) == joins.triples - 1


@pytest.mark.slow
def test_the_shipped_joins_are_those_of_the_frontiers() -> None:
    table = shanten_table.load()
    assert table is not None
    assert join_tables.encode(rebuilt_joins(table.frontiers)) == join_tables.JOINS_PATH.read_bytes()


@pytest.mark.parametrize(
    "contents", [b"", b"not zlib", b"x\x9c\x03\x00\x00\x00\x00\x01", b"MJSJ1\n"]
)
def test_a_broken_joins_file_is_no_table(tmp_path: Path, contents: bytes) -> None:
    path = tmp_path / "suit_joins.bin"
    path.write_bytes(contents)
    assert join_tables.load(path) is None
    truncated = tmp_path / "short.bin"
    truncated.write_bytes(zlib.compress(zlib.decompress(join_tables.JOINS_PATH.read_bytes())[:-1]))
    assert join_tables.load(truncated) is None


@pytest.mark.corpus
def test_without_numpy_the_study_values_its_decisions_one_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = next(game for game in corpus_games(4) if game.header.ruleset.startswith("tenhou"))
    with_numpy = riichi_study(game)
    monkeypatch.setattr(acceptance_native, "available", lambda: False)  # as if not built
    assert riichi_study(game) == with_numpy  # with numpy
    monkeypatch.setitem(sys.modules, "engine.hand.acceptance_batch", None)  # import fails
    monkeypatch.setattr(acceptance_batch, "discard_outcomes", None)  # and cannot be reached
    assert riichi_study(game) == with_numpy
    assert sum(tally.decisions for tally in with_numpy) > 50


def test_the_c_code_refuses_what_it_cannot_read() -> None:
    native([], FOUR)  # skips when not built, and loads the tables
    from engine.hand import acceptance_kernel

    with pytest.raises(ValueError, match="different numbers of decisions"):
        acceptance_kernel.outcomes(bytes(34), bytes(34), b"\x00\x01", bytes(8), bytes(34), False)
    with pytest.raises(ValueError, match="do not fit together"):
        acceptance_kernel.load(b"short", 512, b"", b"", b"", b"")
    # The refused tables left the loaded ones in place.
    rng = random.Random(5)
    decisions = [random_decision(rng, FOUR) for _ in range(50)]
    assert native(decisions, FOUR) == [decision_outcome(d, FOUR) for d in decisions]
