"""The game list's default order has an index of its own.

Without it PostgreSQL sorts every public game on every list page (``benchmarks/load.py``
measured 91 ms for the first page at 100,000 games, 0.2 ms with the index). The list is served
in ``Game.Meta.ordering``, so changing that order without a matching index would bring the sort
back.
"""

from __future__ import annotations

from mjlogs.models import Game


def test_the_list_order_is_indexed() -> None:
    indexed = [tuple(index.fields) for index in Game._meta.indexes]
    assert tuple(Game._meta.ordering) in indexed
