"""The referee catches deliberate bugs: every mutation of ``benchmarks/referee/mutations.py``
(a value, a condition or a line of the engine changed, the way a real bug would) must make the
referee fail, while the same run on the repository's engine passes.

Each run is a subprocess with the peers installed (the test fails, naming the missing peer,
when one is absent); the games are few and chosen by kind (a chankan scenario for a chankan
bug), so that all of them take about a minute on two cores.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.referee import peers
from benchmarks.referee.mutations import MUTATIONS, Mutation, mutated_engine, run_mutation


@pytest.fixture(scope="module", autouse=True)
def _peers_present() -> None:
    problems = peers.missing()
    if problems:
        pytest.fail("the referee's peers are not all installed:\n" + "\n".join(problems))


def test_every_mutation_edits_the_engine_in_one_place(tmp_path: Path) -> None:
    for mutation in MUTATIONS:
        folder = tmp_path / mutation.name
        folder.mkdir()
        mutated_engine(mutation, folder)  # raises when its text is not found exactly once
        assert (folder / mutation.path).read_text().count(mutation.new) >= 1


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.name)
def test_the_referee_reports_the_mutation(mutation: Mutation) -> None:
    control = run_mutation(mutation, mutate=False)
    assert control.status == 0, (
        f"the referee fails on the unmutated engine with {mutation.name}'s games:\n"
        + control.output[-4000:]
    )
    outcome = run_mutation(mutation)
    assert outcome.caught, (
        f"mutation {mutation.name} ({mutation.bug}) survived:\n" + outcome.output[-4000:]
    )
    assert outcome.reasons, outcome.output[-4000:]
