"""Tile acceptance of many decisions at once, in C: the study's fastest way (issue 42).

The same numbers as :mod:`engine.hand.acceptance_batch` (each decision's
:data:`~engine.hand.acceptance.Outcome`, from the same tables), worked out by the extension
module ``engine.hand.acceptance_kernel`` (``engine/hand/acceptance_kernel.c``), which ``pip
install`` builds when a C compiler is there. Without it (:func:`available` is False),
:meth:`engine.study.StudyContext.outcomes`
uses the numpy batch, or values decisions one by one.

The C code values the decisions of the standard shapes whose counts are sound; every other
(an honour held four times, a count the engine cannot value, a discard not held or not
allowed) goes to :func:`engine.hand.acceptance.decision_outcome`, as in the numpy batch.
``tests/engine/hand/test_acceptance_batch.py`` holds both against the one-by-one acceptance.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from typing import Final

from engine.hand import join_tables, shanten_table
from engine.hand.acceptance import Decision, Outcome, decision_outcome
from engine.tiles import KINDS

try:
    from engine.hand import acceptance_kernel
except ImportError:  # not built: no C compiler at install, or a pure-Python wheel
    acceptance_kernel = None  # type: ignore[assignment]

__all__ = ["available", "discard_outcomes"]

#: Every kind allowed, as the C code's 8-byte little-endian masks.
_EVERY_KIND: Final = ((1 << KINDS) - 1).to_bytes(8, "little")


@functools.cache
def available() -> bool:
    """Whether the C code is built and holds the tables (read once per process)."""
    if acceptance_kernel is None:
        return False
    table = shanten_table.load()
    joins = join_tables.load()
    if table is None or joins is None:
        return False
    try:
        acceptance_kernel.load(
            table.ids, joins.suits, joins.join2, joins.join3, joins.final3, joins.final2
        )
    except (ValueError, TypeError, BufferError):
        return False
    return True


def discard_outcomes(
    decisions: Sequence[Decision], copies: Sequence[int], *, three_player: bool = False
) -> list[Outcome | None]:
    """Each decision's :data:`~engine.hand.acceptance.Outcome` (``None``: a hand the engine
    cannot value), with the rule set's ``copies`` of each kind, under the standard shapes
    (sanma's with ``three_player``). Call only when :func:`available`."""
    if not decisions:
        return []
    counts, seen, discarded, allowed = zip(*decisions, strict=True)
    masks = b"".join(map(_mask, allowed))
    try:
        found = acceptance_kernel.outcomes(
            _joined(counts), _joined(seen), bytes(discarded), masks, bytes(copies), three_player
        )
    except (ValueError, TypeError, OverflowError):  # a count outside a byte, or not 34 of
        found = [None] * len(decisions)  # them: one by one
    for number, outcome in enumerate(found):
        if outcome is None:
            found[number] = decision_outcome(decisions[number], copies, three_player=three_player)
    return found


def _joined(rows: Sequence[Sequence[int]]) -> bytes:
    """Rows of counts end to end, as bytes (rows already bytes, the study's way, are not
    copied one by one)."""
    try:
        return b"".join(rows)  # type: ignore[arg-type]
    except TypeError:
        return b"".join(map(bytes, rows))


def _mask(allowed: Collection[int] | None) -> bytes:
    """The kinds a decision may discard as the C code takes them."""
    if allowed is None:
        return _EVERY_KIND
    mask = 0
    for kind in allowed:
        if 0 <= kind < KINDS:
            mask |= 1 << kind
    return mask.to_bytes(8, "little")
