"""The game families (:mod:`engine.families`), above the engine's core.

:mod:`engine.variants.riichi` gathers the core (riichi mahjong in every rule set of
:mod:`engine.rules`) into one family object. A game whose tiles, shapes or game flow differ too
much from riichi to share its state machine is a package of its own (``engine.variants.uzje``:
Ùzje mahjong, seeds/002) that speaks the same record (:mod:`engine.events`, in its own
:mod:`~engine.dialect`), replay report (:mod:`engine.report`) and frames
(:mod:`engine.frame_types`). No family imports another, and no core module imports a family:
the core asks the registry.
"""
