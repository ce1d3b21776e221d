"""Ùzje mahjong (seeds/002): 16 ranks, a zero tile, flowers, 3-6 players, ariths, gems and
powers, fan scoring on the 1-2-5 table.

Modules, from the tiles up: :mod:`~.tiles` (kinds and UJMJ notation, the tile set),
:mod:`~.rules` (the options and presets), :mod:`~.shapes` (melds, winning forms,
decompositions, waits, a distance for bots), :mod:`~.scoring` (patterns, fan, points,
payments), :mod:`~.events` (Ùzje's own record events), :mod:`~.state` (one hand, event by event),
:mod:`~.flow` (dealer rotation, sets, the match), :mod:`~.record` (JSON), :mod:`~.replay`
(verification), :mod:`~.frames` (the viewer), :mod:`~.bots` and :mod:`~.selfplay`,
:mod:`~.request` (a hand scored from text), and :mod:`~.family`, the family object the registry
(:mod:`engine.families`) names. ``docs/variants/uzje.md`` describes the
rules as implemented and every choice the document leaves open.
"""
