"""The referee (``benchmarks/referee.py``): self-played games judged by independent engines.

Modules: :mod:`~benchmarks.referee.games` (a game from its rule set and seed),
:mod:`~benchmarks.referee.judging` (one game through every judge), one ``judge_*`` module per
peer, :mod:`~benchmarks.referee.situation` (how each win came about, for ``mahjong``),
:mod:`~benchmarks.referee.rare` (the rare situations of a game),
:mod:`~benchmarks.referee.explained` (disagreement classes that are the peer's fault),
:mod:`~benchmarks.referee.run` (parts, workers, figures, the report) and
:mod:`~benchmarks.referee.cli` (the command line).
"""
