"""Riichi mahjong (every rule set of :mod:`engine.rules`, space and small mahjong included) as a
game family: the parts that are riichi's alone and that only the family object reaches.

Modules: :mod:`~.replay` (verification: riichi's comparisons, facts and final points in the
shared replay loop, and the older eras of a platform's rules), :mod:`~.frames` (the viewer:
riichi's frames and action words in the shared framer loop, the round list), and
:mod:`~.family`, the family object the registry (:mod:`engine.families`) names. The state
machine, scoring, rules, self-play and study aids they build on are the engine's core
(:mod:`engine.state`, :mod:`engine.scoring`, :mod:`engine.rules`, :mod:`engine.sim`,
:mod:`engine.study`). Everyone else replays and frames a game through the family-neutral
:mod:`engine.replay` and :mod:`engine.frames`, which ask the registry.
"""
