"""The game families (:mod:`engine.families`), above the engine's core.

:mod:`engine.variants.riichi` is riichi mahjong in every rule set of :mod:`engine.rules`: its
replayer, its framer and its family object, built on the engine's core (riichi's state machine,
scoring and rules). A game whose tiles, shapes or game flow differ too much from riichi to share
its state machine is a package of its own with its whole engine (``engine.variants.uzje``: Ùzje
mahjong, seeds/002) that speaks the same record (:mod:`engine.events`, in its own
:mod:`~engine.dialect`), replay report (:mod:`engine.report`) and frames
(:mod:`engine.frame_types`). No family imports another, and no core module imports a family:
the core asks the registry.
"""
