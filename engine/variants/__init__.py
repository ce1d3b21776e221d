"""Mahjong variants whose tiles, shapes or game flow differ too much from riichi to share its state
machine. Each variant is a package of its own (``engine.variants.uzje``: Ùzje mahjong, seeds/002)
that speaks the same record (:mod:`engine.events`) and replay report (:mod:`engine.replay`)."""
